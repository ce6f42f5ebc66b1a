//! Type identity and type names: rustc's own values, asked through a probe.
//!
//! `TypeId::of::<T>()` and `type_name::<T>()` are inline constants of core
//! (`const { intrinsics::type_id::<T>() }`) that rustc's MIR leaves
//! unevaluated (`const core::any::TypeId::of::<Local>::{constant#0}`): the
//! TypeId carries pointers whose provenance const evaluation keeps, and
//! rustc folds the constant only when it generates code. So does the
//! probe: a copy of the crate root with two functions per type appended,
//!
//! ```text
//! #[inline(never)] pub fn ox_reflect_tid_0() -> u128 { unsafe { ::core::mem::transmute::<::core::any::TypeId, u128>(::core::any::TypeId::of::<T>()) } }
//! #[inline(never)] pub fn ox_reflect_tname_0() -> &'static str { ::core::any::type_name::<T>() }
//! ```
//!
//! compiled with the crate's own arguments (so the crate's and the
//! sysroot's StableCrateIds, hence the hashes, are the kernel's) to LLVM
//! IR at -O2, where each body is one `ret`:
//!
//! ```text
//! define noundef i128 @_RNvCs4Z5zkMy9Z0U_12conf_reflect16ox_reflect_tid_0() unnamed_addr #0 {
//!   ret i128 32997454728631447331939757051234429611
//! define { ptr, i64 } @_RNv..18ox_reflect_tname_0() unnamed_addr #0 {
//!   ret { ptr, i64 } { ptr @alloc_ca3f.., i64 45 }
//! @alloc_ca3f.. = private unnamed_addr constant [45 x i8] c"conf_reflect::Either<u8, conf_reflect::Local>", align 1
//! ```
//!
//! A symbol holds its function's name as `LEN NAME` in both manglings
//! (legacy `16ox_reflect_tid_017h..E`, v0 `..16ox_reflect_tid_0`).
//!
//! A type declared in a function body (`layout::in_block_probe_name`) is
//! named inside its block: the two functions go just after the block's
//! `{`, on its line (no line of the file moves), as `#[unsafe(no_mangle)]`
//! items, which rustc compiles although nothing calls them (a nested
//! private function would not be); their symbols are their names. A
//! nested item changes nothing of the type's identity: its def path
//! (parent, name, the disambiguator among same-named items) and the
//! crate's StableCrateId stay.

/// rustc's answers for one type.
#[derive(Clone, Debug, PartialEq)]
pub struct Reflected {
    /// The TypeId's 128 bits (`transmute::<TypeId, u128>`).
    pub type_id: u128,
    /// `type_name::<T>()`'s bytes.
    pub type_name: Vec<u8>,
}

const TID: &str = "ox_reflect_tid_";
const TNAME: &str = "ox_reflect_tname_";

/// The crate root `root` (ending in a newline) with the probe's two
/// functions per probe name: appended, or inside the block of a name
/// placed in one.
pub fn probe_source(root: &str, names: &[String]) -> String {
    let mut in_blocks: Vec<(usize, usize, &str)> = Vec::new();
    let mut tail = String::from("// --- appended by mir-export: type identity probe ---\n");
    for (i, n) in names.iter().enumerate() {
        match crate::layout::in_block_type_name(n) {
            Some((at, spelled)) if root.as_bytes().get(at) == Some(&b'{') => in_blocks.push((at, i, spelled)),
            // (read_ir then finds no function for it: an error for it alone)
            Some(_) => {}
            None => tail.push_str(&items(i, n, "pub")),
        }
    }
    in_blocks.sort();
    let mut s = String::new();
    let mut copied = 0;
    for (at, i, spelled) in in_blocks {
        s.push_str(&root[copied..=at]);
        copied = at + 1;
        s.push_str(&items(i, spelled, "#[unsafe(no_mangle)] pub").replace('\n', " "));
    }
    s.push_str(&root[copied..]);
    s.push_str(&tail);
    s
}

/// The two functions of probe name `i`, type `n`, each a line, after
/// `vis` (`pub`, or `#[unsafe(no_mangle)] pub` in a block).
fn items(i: usize, n: &str, vis: &str) -> String {
    format!(
        "#[allow(dead_code, unused_unsafe)] #[inline(never)] {vis} fn {TID}{i}() -> u128 {{ unsafe {{ \
         ::core::mem::transmute::<::core::any::TypeId, u128>(::core::any::TypeId::of::<{n}>()) }} }}\n\
         #[allow(dead_code)] #[inline(never)] {vis} fn {TNAME}{i}() -> &'static str {{ ::core::any::type_name::<{n}>() }}\n"
    )
}

/// `result[i]`: the answers for `names[i]` read from the probe's LLVM IR.
pub fn read_ir(ir: &str, n: usize) -> Vec<Result<Reflected, String>> {
    (0..n)
        .map(|i| {
            let type_id = ret_line(ir, &format!("{TID}{i}")).and_then(|l| parse_i128_ret(&l))?;
            let type_name = ret_line(ir, &format!("{TNAME}{i}")).and_then(|l| str_ret(ir, &l))?;
            Ok(Reflected { type_id, type_name })
        })
        .collect()
}

/// The `ret` instruction of the function named `name` (a `define` line
/// whose symbol holds `LEN NAME`).
fn ret_line(ir: &str, name: &str) -> Result<String, String> {
    let key = format!("{}{name}", name.len());
    let named = |s: &str| s == name || s.trim_matches('"') == name || s.contains(&key);
    let mut lines = ir.lines().skip_while(|l| !(l.starts_with("define ") && symbol_of(l).is_some_and(named)));
    if lines.next().is_none() {
        return Err(format!("the probe's LLVM IR has no function `{name}`"));
    }
    for l in lines {
        let t = l.trim();
        if t.starts_with("ret ") {
            return Ok(t.to_string());
        }
        if t == "}" {
            break;
        }
    }
    Err(format!("the probe's function `{name}` is not a constant `ret` at -O2"))
}

/// `@SYMBOL(` of a `define` line.
fn symbol_of(define: &str) -> Option<&str> {
    let at = define.find(" @")? + 2;
    let rest = &define[at..];
    Some(&rest[..rest.find('(')?])
}

/// `ret i128 -1668..` as the u128 of the same bits.
fn parse_i128_ret(line: &str) -> Result<u128, String> {
    let v = line.strip_prefix("ret i128 ").ok_or_else(|| format!("unexpected TypeId in the probe's IR: `{line}`"))?;
    v.trim().parse::<i128>().map(|v| v as u128).map_err(|e| format!("TypeId `{v}` in the probe's IR: {e}"))
}

/// `ret { ptr, i64 } { ptr @alloc_X, i64 N }`: the N bytes of `@alloc_X`.
fn str_ret(ir: &str, line: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("unexpected type name in the probe's IR: `{line}`");
    let at = line.find('@').ok_or_else(bad)? + 1;
    let sym: String = line[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')).collect();
    let len: usize = line.rsplit("i64 ").next().and_then(|t| t.trim_end_matches(|c| c == '}' || c == ' ').parse().ok()).ok_or_else(bad)?;
    let def = format!("@{sym} = ");
    let global = ir.lines().find(|l| l.starts_with(&def)).ok_or_else(|| format!("the probe's IR has no global `@{sym}`"))?;
    let text = global.split_once(" c\"").map(|(_, t)| t).ok_or_else(|| format!("unexpected global in the probe's IR: `{global}`"))?;
    let bytes = unescape(text).ok_or_else(|| format!("unexpected string in the probe's IR: `{global}`"))?;
    if bytes.len() < len {
        return Err(format!("the probe's string `@{sym}` is shorter than {len} bytes"));
    }
    Ok(bytes[..len].to_vec())
}

/// An LLVM `c"..."` string up to its closing quote: `\XX` is a byte in hex.
fn unescape(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return Some(out),
            b'\\' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const IR: &str = r#"@alloc_ca3f = private unnamed_addr constant [45 x i8] c"conf_reflect::Either<u8, conf_reflect::Local>", align 1
@alloc_6f = private unnamed_addr constant [6 x i8] c"&\22a\5C\0Ab", align 1
; conf_reflect::ox_reflect_tid_1
define noundef i128 @_RNvCs4Z5zkMy9Z0U_12conf_reflect16ox_reflect_tid_1() unnamed_addr #0 {
start:
  ret i128 -2
}
define noundef i128 @_ZN12conf_reflect16ox_reflect_tid_017h0123456789abcdefE() unnamed_addr #0 {
start:
  ret i128 32997454728631447331939757051234429611
}
define { ptr, i64 } @_RNvCs4Z5zkMy9Z0U_12conf_reflect18ox_reflect_tname_0() unnamed_addr #0 {
start:
  ret { ptr, i64 } { ptr @alloc_ca3f, i64 45 }
}
define { ptr, i64 } @_RNvCs4Z5zkMy9Z0U_12conf_reflect18ox_reflect_tname_1() unnamed_addr #0 {
start:
  ret { ptr, i64 } { ptr @alloc_6f, i64 6 }
}
"#;

    #[test]
    fn reads_type_ids_and_names_of_both_manglings() {
        let r = read_ir(IR, 2);
        let a = r[0].as_ref().unwrap();
        assert_eq!(a.type_id, 32997454728631447331939757051234429611);
        assert_eq!(a.type_name, b"conf_reflect::Either<u8, conf_reflect::Local>");
        let b = r[1].as_ref().unwrap();
        assert_eq!(b.type_id, u128::MAX - 1);
        assert_eq!(b.type_name, b"&\"a\\\nb");
    }

    #[test]
    fn a_missing_function_is_an_error_for_its_type_only() {
        let r = read_ir(IR, 3);
        assert!(r[0].is_ok() && r[1].is_ok());
        assert!(r[2].as_ref().unwrap_err().contains("ox_reflect_tid_2"), "{:?}", r[2]);
    }

    #[test]
    fn probe_items_name_each_type_twice() {
        let s = probe_source("fn k() {}\n", &["::core::option::Option<u32>".to_string()]);
        assert!(s.starts_with("fn k() {}\n// --- appended"), "{s}");
        assert!(s.contains("pub fn ox_reflect_tid_0() -> u128"));
        assert!(s.contains("::core::any::type_name::<::core::option::Option<u32>>()"));
    }

    /// A type declared in a function body is probed inside its block, on
    /// the line of the `{`, by unmangled functions that read_ir finds.
    #[test]
    fn a_local_type_is_probed_in_its_block() {
        let root = "pub fn k() {\n    struct L(u8);\n}\n";
        let names = ["u8".to_string(), crate::layout::in_block_probe_name(11, "L")];
        let s = probe_source(root, &names);
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("pub fn k() {#[allow(dead_code, unused_unsafe)] #[inline(never)] #[unsafe(no_mangle)] pub fn ox_reflect_tid_1()"), "{s}");
        assert!(lines[0].contains("::core::any::type_name::<L>()"), "{s}");
        assert_eq!(lines[1], "    struct L(u8);");
        assert!(s.contains("pub fn ox_reflect_tid_0() -> u128 { unsafe { ::core::mem::transmute::<::core::any::TypeId, u128>(::core::any::TypeId::of::<u8>()) } }"), "{s}");
        let ir = "define noundef i128 @ox_reflect_tid_1() unnamed_addr #0 {\nstart:\n  ret i128 5\n}\n\
                  define { ptr, i64 } @ox_reflect_tname_1() unnamed_addr #0 {\nstart:\n  ret { ptr, i64 } { ptr @alloc_1, i64 4 }\n}\n\
                  @alloc_1 = private unnamed_addr constant [4 x i8] c\"k::L\", align 1\n";
        let r = read_ir(ir, 2);
        assert!(r[0].is_err());
        assert_eq!(r[1].as_ref().unwrap(), &Reflected { type_id: 5, type_name: b"k::L".to_vec() });
    }
}
