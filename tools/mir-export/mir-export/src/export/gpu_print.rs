//! The errors of `gpu_print!` / `gpu_println!` (oxide-device's print.rs):
//! they format with core::fmt, whose bodies come from core's own MIR
//! (docs/DESIGN.md, "Formatting"). A formatting call that cannot be
//! exported inside one (through a rustc without library sources: every
//! `core::fmt::write`) says so, naming the macro; the location is the
//! macro's line in the kernel crate, like every error of inlined code.

use super::body::Ctx;

/// The inlined function every `gpu_print!`'s formatting runs in.
const FORMAT_FN: &str = "oxide_device::print::Line::format";

/// Whether the statement at `ctx` is inside a `gpu_print!`'s formatting:
/// one of its scopes was inlined from `Line::format`.
pub(super) fn in_gpu_print(ctx: &Ctx) -> bool {
    let scopes = &ctx.body.scopes;
    let mut at = Some(ctx.scope);
    while let Some(s) = at.and_then(|s| scopes.get(s as usize)) {
        if s.inlined.as_ref().is_some_and(|(f, _)| f == FORMAT_FN) {
            return true;
        }
        at = s.parent;
    }
    false
}

/// The message of a formatting call `callee` (its short path) that is not
/// exported inside a `gpu_print!`; what follows it (`; core's own body
/// was not looked for: ...`) says why.
pub(super) fn not_formatted(callee: &str) -> String {
    format!(
        "`gpu_print!`/`gpu_println!` cannot format here: core::fmt's `{callee}` has no body in \
         this crate, and gpu_print! runs core::fmt from core's own MIR (through a rustc with its \
         library sources); `gpu_printf!` (C format strings, run by the CUDA driver) needs none"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirparse::items::parse_mir_file;

    /// A body whose statement in scope 3 was inlined through
    /// `Line::format` (scope 2), and one in scope 1 was not.
    const MIR: &str = "fn k() -> () {
    let mut _0: ();                      // return place in scope 0 at src/lib.rs:7:1: 7:1
    scope 1 {
        scope 2 (inlined oxide_device::print::Line::format) { // at src/lib.rs:8:9: 8:40
            scope 3 (inlined <Line as core::fmt::Write>::write_fmt) { // at print.rs:57:22: 57:37
            }
        }
    }

    bb0: {
        return;                          // scope 3 at src/lib.rs:9:2: 9:2
    }
}
";

    #[test]
    fn finds_the_format_scope_among_the_parents() {
        let file = parse_mir_file(MIR).expect("parses");
        let body = &file.bodies[0];
        let at = |scope| Ctx { body, scope, span: None, const_comments: &[] };
        assert!(in_gpu_print(&at(3)));
        assert!(in_gpu_print(&at(2)));
        assert!(!in_gpu_print(&at(1)));
        assert!(!in_gpu_print(&at(0)));
    }
}
