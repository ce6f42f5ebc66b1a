//! The bits of NaN constants (MIR-EXPORT.md, "What the text holds").
//!
//! rustc's MIR text prints every NaN float constant as `NaN_f32`/`NaN_f64`:
//! no payload, no sign. Rust's `neg`, `abs`, `copysign`, `to_bits` and moves
//! are bit-exact, so a guessed canonical NaN is a silent miscompile
//! (`f32::from_bits(0x7fff_fffe).abs().to_bits()` folds to a `NaN_f32`).
//!
//! With `-Zverbose-internals` rustc prints every scalar constant as
//! `ConstValue(Scalar(0x7ffffffe): f32)`, but it also changes the rest of the
//! text (function items, comments). So when the plain text has a NaN
//! constant, the driver compiles the crate once more with that flag, and
//! [`resolve`] takes the bits from that second text: the two texts have the
//! same lines (only the printing of constants and comments differs), line
//! `i` of one is line `i` of the other. On each line the float constants of
//! both texts are listed in order; the line is used only when the lists
//! have the same length and every non-NaN constant of the plain text has
//! exactly the bits of its verbose counterpart, and every NaN a NaN. Then
//! each `NaN_fN` becomes `NaN_0x<bits>_fN`, a spelling the parser reads as
//! a float with known bits. A NaN that cannot be matched so stays `NaN_fN`,
//! and the exporter refuses it where a body uses it (never a guess).

/// Whether `text` holds a NaN float constant (`NaN_f32`, `NaN_f64`).
pub fn has_nan(text: &str) -> bool {
    text.lines().any(|l| plain_floats(l).iter().any(|f| f.value == PlainVal::Nan))
}

/// What [`resolve`] did, for `--verbose` and tests.
#[derive(Debug, Default, PartialEq)]
pub struct Report {
    /// NaN constants given their bits.
    pub resolved: usize,
    /// NaN constants left as `NaN_fN` (lines that did not match).
    pub unresolved: usize,
    /// Why nothing could be matched at all (the texts do not line up).
    pub mismatch: Option<String>,
}

/// The plain MIR text with each NaN constant spelled with its bits taken
/// from `verbose` (the same crate compiled with `-Zverbose-internals`).
pub fn resolve(plain: &str, verbose: &str) -> (String, Report) {
    let mut report = Report::default();
    let p_lines: Vec<&str> = plain.split_inclusive('\n').collect();
    let v_lines: Vec<&str> = verbose.split_inclusive('\n').collect();
    let nans = |l: &str| plain_floats(l).iter().filter(|f| f.value == PlainVal::Nan).count();
    if p_lines.len() != v_lines.len() {
        report.unresolved = p_lines.iter().map(|l| nans(l)).sum();
        report.mismatch = Some(format!("{} lines against {} with -Zverbose-internals", p_lines.len(), v_lines.len()));
        return (plain.to_string(), report);
    }
    // Every line must begin with the same word (statement, local, block,
    // item); otherwise the texts are not the same bodies.
    for (i, (p, v)) in p_lines.iter().zip(&v_lines).enumerate() {
        if first_word(p) != first_word(v) {
            report.unresolved = p_lines.iter().map(|l| nans(l)).sum();
            report.mismatch = Some(format!("line {} differs with -Zverbose-internals", i + 1));
            return (plain.to_string(), report);
        }
    }
    let mut out = String::with_capacity(plain.len() + 64);
    for (p, v) in p_lines.iter().zip(&v_lines) {
        let pf = plain_floats(p);
        let n = pf.iter().filter(|f| f.value == PlainVal::Nan).count();
        if n == 0 {
            out.push_str(p);
            continue;
        }
        let vf = verbose_floats(v);
        let agree = pf.len() == vf.len() && pf.iter().zip(&vf).all(|(a, b)| a.agrees(b));
        if !agree {
            report.unresolved += n;
            out.push_str(p);
            continue;
        }
        let mut last = 0;
        for (a, b) in pf.iter().zip(&vf) {
            if a.value != PlainVal::Nan {
                continue;
            }
            out.push_str(&p[last..a.start]);
            out.push_str(&format!("NaN_0x{:0w$x}_f{}", b.bits, b.width, w = (b.width / 4) as usize));
            last = a.end;
            report.resolved += 1;
        }
        out.push_str(&p[last..]);
    }
    (out, report)
}

/// The bits of a float constant spelled `NaN_0x<hex>` (after [`resolve`]);
/// None for anything else, or for bits that are not a NaN of that width.
pub fn nan_bits(text: &str, width: u32) -> Option<u64> {
    let hex = text.strip_prefix("NaN_0x")?;
    let bits = u64::from_str_radix(hex, 16).ok()?;
    is_nan(bits, width).then_some(bits)
}

fn is_nan(bits: u64, width: u32) -> bool {
    match width {
        32 => bits <= u64::from(u32::MAX) && f32::from_bits(bits as u32).is_nan(),
        64 => f64::from_bits(bits).is_nan(),
        _ => false,
    }
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

#[derive(Debug, PartialEq)]
enum PlainVal {
    Nan,
    /// Bits of a number or an infinity.
    Bits(u64),
    /// A float literal whose value this module cannot read: never agrees.
    Unknown,
}

/// A float constant of the plain text: `const 1.5f32`, `const -0f64`,
/// `const +Inf_f32`, `const NaN_f64`; its byte range (sign included).
#[derive(Debug)]
struct PlainFloat {
    start: usize,
    end: usize,
    width: u32,
    value: PlainVal,
}

struct VerboseFloat {
    width: u32,
    bits: u64,
}

impl PlainFloat {
    fn agrees(&self, v: &VerboseFloat) -> bool {
        self.width == v.width
            && match self.value {
                PlainVal::Nan => is_nan(v.bits, v.width),
                PlainVal::Bits(b) => b == v.bits,
                PlainVal::Unknown => false,
            }
    }
}

/// Float constants of one line of plain text, in order: each word after
/// `const ` that ends in `f32`/`f64` and is a float literal.
fn plain_floats(line: &str) -> Vec<PlainFloat> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = line[from..].find("const ") {
        let start = from + i + "const ".len();
        from = start;
        // a `const` inside a longer word (`_const `) is not the keyword
        if from > 6 && line.as_bytes()[from - 7].is_ascii_alphanumeric() {
            continue;
        }
        let len = line[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '+' | '-')))
            .unwrap_or(line.len() - start);
        let word = &line[start..start + len];
        let Some((body, width)) = float_suffix(word) else { continue };
        let unsigned = body.trim_start_matches(['+', '-']);
        let value = if unsigned == "NaN_" {
            PlainVal::Nan
        } else if unsigned == "Inf_" || unsigned.starts_with(|c: char| c.is_ascii_digit()) {
            let text = body.trim_end_matches('_');
            match width {
                32 => text.replace("Inf", "inf").parse::<f32>().map(|f| u64::from(f.to_bits())),
                _ => text.replace("Inf", "inf").parse::<f64>().map(f64::to_bits),
            }
            .map_or(PlainVal::Unknown, PlainVal::Bits)
        } else {
            continue;
        };
        out.push(PlainFloat { start, end: start + len, width, value });
    }
    out
}

fn float_suffix(word: &str) -> Option<(&str, u32)> {
    if let Some(b) = word.strip_suffix("f32") {
        Some((b, 32))
    } else {
        word.strip_suffix("f64").map(|b| (b, 64))
    }
}

/// Float constants of one line of `-Zverbose-internals` text, in order:
/// `Scalar(0x…): f32)`.
fn verbose_floats(line: &str) -> Vec<VerboseFloat> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("Scalar(0x") {
        rest = &rest[i + "Scalar(0x".len()..];
        let hex_len = rest.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(rest.len());
        let hex = &rest[..hex_len];
        let after = &rest[hex_len..];
        let width = if after.starts_with("): f32)") {
            32
        } else if after.starts_with("): f64)") {
            64
        } else {
            continue;
        };
        // a value wider than its type would be a misread
        let Ok(bits) = u64::from_str_radix(hex, 16) else { continue };
        if hex_len as u32 * 4 != width {
            out.push(VerboseFloat { width: 0, bits });
            continue;
        }
        out.push(VerboseFloat { width, bits });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Measured with rustc 1.95 (--emit=mir, mir-export's flags, with and
    // without -Zverbose-internals).
    const PLAIN: &str = "\
fn a(_1: usize) -> u64 {
    bb6: {
        _4 = core::intrinsics::fabsf32(const NaN_f32) -> [return: bb8, unwind unreachable]; // scope 8 at k.rs:6:9: 6:34
        _5 = core::intrinsics::copysignf64(const NaN_f64, const -1f64) -> [return: bb9, unwind unreachable]; // scope 10 at k.rs:7:9: 7:44
        _2 = Add(move _3, const NaN_f32); // scope 0 at k.rs:15:27: 15:45
        _3 = Add(copy _1, const 0.100000001f32); // scope 0 at k.rs:15:27: 15:34
    }
}
const C: f32 = const NaN_f32;
";
    const VERBOSE: &str = "\
fn a(_1: usize) -> u64 {
    bb6: {
        _4 = ConstValue(ZeroSized: fn(f32) -> f32 {core::intrinsics::fabsf32})(const ConstValue(Scalar(0x7ffffffe): f32)) -> [return: bb8, unwind unreachable]; // bb6[2]: scope 8 at k.rs:6:9: 6:34
        _5 = ConstValue(ZeroSized: fn(f64, f64) -> f64 {core::intrinsics::copysignf64})(const ConstValue(Scalar(0x7fffffffffffffff): f64), const ConstValue(Scalar(0xbff0000000000000): f64)) -> [return: bb9, unwind unreachable]; // bb5[1]: scope 10 at k.rs:7:9: 7:44
        _2 = Add(move _3, const ConstValue(Scalar(0xffc00001): f32)); // bb0[3]: scope 0 at k.rs:15:27: 15:45
        _3 = Add(copy _1, const ConstValue(Scalar(0x3dcccccd): f32)); // bb0[2]: scope 0 at k.rs:15:27: 15:34
    }
}
const C: f32 = const ConstValue(Scalar(0x7fc00000): f32);
";

    #[test]
    fn nan_constants_get_their_bits() {
        assert!(has_nan(PLAIN));
        let (text, report) = resolve(PLAIN, VERBOSE);
        assert_eq!(report, Report { resolved: 4, unresolved: 0, mismatch: None });
        assert!(text.contains("fabsf32(const NaN_0x7ffffffe_f32)"));
        assert!(text.contains("copysignf64(const NaN_0x7fffffffffffffff_f64, const -1f64)"));
        assert!(text.contains("Add(move _3, const NaN_0xffc00001_f32)"));
        assert!(text.contains("const C: f32 = const NaN_0x7fc00000_f32;"));
        assert!(!has_nan(&text));
        assert_eq!(nan_bits("NaN_0x7ffffffe", 32), Some(0x7fff_fffe));
        assert_eq!(nan_bits("NaN_0x7f800000", 32), None, "an infinity is no NaN");
        assert_eq!(nan_bits("NaN", 32), None);
    }

    #[test]
    fn lines_that_disagree_keep_their_nans() {
        // the non-NaN constant of the line does not match: the line is not used
        let v = VERBOSE.replace("0xbff0000000000000", "0xc000000000000000");
        let (text, report) = resolve(PLAIN, &v);
        assert_eq!((report.resolved, report.unresolved), (3, 1));
        assert!(text.contains("copysignf64(const NaN_f64, const -1f64)"));
        // a NaN against a number
        let v = VERBOSE.replace("0xffc00001", "0x3f800000");
        assert_eq!(resolve(PLAIN, &v).1.unresolved, 1);
        // a count mismatch
        let v = VERBOSE.replace(", const ConstValue(Scalar(0xbff0000000000000): f64)", "");
        assert_eq!(resolve(PLAIN, &v).1.unresolved, 1);
    }

    #[test]
    fn texts_that_do_not_line_up_resolve_nothing() {
        let (text, report) = resolve(PLAIN, &VERBOSE.replacen("    bb6: {\n", "", 1));
        assert_eq!(text, PLAIN);
        assert_eq!(report.resolved, 0);
        assert_eq!(report.unresolved, 4);
        assert!(report.mismatch.is_some());
        let (text, report) = resolve(PLAIN, &VERBOSE.replace("_2 = Add", "_7 = Add"));
        assert_eq!(text, PLAIN);
        assert!(report.mismatch.is_some());
    }

    #[test]
    fn plain_float_spellings() {
        let f = plain_floats("_1 = [const 1f32, const -0f64, const +Inf_f32, const 2.14748365E+9f32, const 5_u32, const NaN_f64, const foo_f32];");
        let v: Vec<_> = f.iter().map(|f| (f.width, &f.value)).collect();
        assert_eq!(
            v,
            vec![
                (32, &PlainVal::Bits(0x3f80_0000)),
                (64, &PlainVal::Bits(0x8000_0000_0000_0000)),
                (32, &PlainVal::Bits(0x7f80_0000)),
                (32, &PlainVal::Bits(u64::from(2147483648f32.to_bits()))),
                (64, &PlainVal::Nan),
            ]
        );
    }
}
