//! rustc's release differences, in one place.
//!
//! mir-export reads three rustc-internal outputs: the MIR text of
//! `--emit=mir`, the `{:#?}` layout dumps of `#[rustc_dump_layout(debug)]`
//! (layout.rs) and the exact constants of `-Zverbose-internals`
//! (nanbits.rs). None is stable. Every difference between the releases
//! mir-export reads is an item of this module, named and commented with
//! the releases it applies to; the rest of mir-export asks this module
//! instead of testing a release itself. docs/rustc-releases.md says how
//! to adopt a new release.
//!
//! Which rustc is accepted (`acceptance`):
//!
//! - a release of `MEASURED_RELEASES` (1.95.x, 1.96.x), or a nightly of
//!   `TESTED_NIGHTLIES` (1.97.0-nightly e50aa6fba, 2026-05-19): used as it
//!   is;
//! - any other build of 1.95 or later (another nightly or beta, the 1.97.0
//!   release, 1.98 and on): used only when the format self-test passes
//!   (selftest.rs: a probe crate compiled once per rustc build, the pass
//!   cached in the target directory); otherwise OX1006 naming the rustc
//!   and what differed. Nightlies change daily, and a release is built
//!   from a later nightly than the one measured;
//! - an earlier release: refused (OX1002).

use crate::mirparse::ast::{Path, Ty};

/// The `1.N` releases whose output mir-export reads: each difference
/// below says which of them it applies to; a later release is read as the
/// last of them (and self-tested).
pub const KNOWN_MINORS: [u32; 3] = [95, 96, 97];

/// The `1.N` whose releases (`1.N.x`, not their nightlies or betas) were
/// measured: the examples and the conformance suite pass through them.
pub const MEASURED_RELEASES: [u32; 2] = [95, 96];

/// Pre-release builds that were measured: (release, commit-hash prefix).
pub const TESTED_NIGHTLIES: &[(&str, &str)] = &[("1.97.0-nightly", "e50aa6fba4e6")];

/// How mir-export treats a rustc, decided from `rustc -vV` alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// A measured release or nightly: used as it is.
    Known,
    /// A release or a build mir-export has not measured: used only if the
    /// format self-test passes.
    SelfTest,
    /// Older than every known release: refused.
    TooOld,
}

pub fn acceptance(release: &str, minor: u32, commit_hash: &str) -> Acceptance {
    if !release.starts_with("1.") || minor < KNOWN_MINORS[0] {
        return Acceptance::TooOld;
    }
    let prerelease = release.contains('-');
    let measured_release = !prerelease && MEASURED_RELEASES.contains(&minor);
    let measured_nightly = TESTED_NIGHTLIES.iter().any(|(r, c)| *r == release && commit_hash.starts_with(c));
    if measured_release || measured_nightly {
        Acceptance::Known
    } else {
        Acceptance::SelfTest
    }
}

/// The newest known release: what an unknown later release is read as.
fn known(minor: u32) -> u32 {
    minor.min(KNOWN_MINORS[KNOWN_MINORS.len() - 1])
}

// ---- layout dumps ------------------------------------------------------------

/// LAYOUT_ATTR: the attribute that makes rustc print a layout.
/// 1.95: `#[rustc_layout(debug)]`; 1.96 and later: renamed
/// `#[rustc_dump_layout(debug)]`.
pub fn layout_attr(minor: u32) -> &'static str {
    if minor >= 96 {
        "rustc_dump_layout(debug)"
    } else {
        "rustc_layout(debug)"
    }
}

/// VARIANT_LAYOUT: how each variant of a `variants: Multiple { variants:
/// [..] }` layout prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantLayoutForm {
    /// 1.95, 1.96: a whole `Layout { size, align, backend_repr, fields:
    /// Arbitrary { offsets: [..], in_memory_order: [..] }, variants:
    /// Single { index }, .. }`.
    FullLayout,
    /// 1.97: `VariantLayout { size, backend_repr, field_offsets: [..],
    /// fields_in_memory_order: [..], largest_niche, uninhabited }`: no
    /// alignment (mir-export then leaves the variant's "align" out of
    /// the JSON; oxidec does not need it), the index is the position.
    VariantLayout,
}

pub fn variant_layout_form(minor: u32) -> VariantLayoutForm {
    if known(minor) >= 97 {
        VariantLayoutForm::VariantLayout
    } else {
        VariantLayoutForm::FullLayout
    }
}

/// FULL_VALID_RANGE: a scalar valid range that covers every value.
/// 1.95, 1.96 print it wrapped, `(..=0) | (1..)` (start = end + 1: the
/// outer scalar of `Option<&T>`); 1.97 prints `0..=MAX`. Both mean the
/// same; mir-export writes `0..=MAX` for every release. `max` is the
/// largest value of the scalar's width.
pub fn normalize_valid_range(start: u128, end: u128, max: u128) -> (u128, u128) {
    if end < max && start == end + 1 {
        (0, max)
    } else {
        (start, end)
    }
}

// ---- MIR text: syntax ---------------------------------------------------------

/// USE_QUALIFIERS: words that 1.97 prints before the operand of a plain
/// use, `_13 = no_retag copy ((*_1).0: &u32)`: `no_retag` marks an
/// assignment Miri's aliasing model does not retag. It has no meaning for
/// code generation: the rvalue is the use of the operand, as 1.95 and 1.96
/// print it without the word.
pub const USE_QUALIFIERS: &[&str] = &["no_retag"];

// ---- MIR text: names of library items ------------------------------------

/// INTRINSIC_ALIASES: intrinsics renamed between releases, mapped to the
/// newer name, with the type argument the newer one takes.
/// 1.95 `fabsf32`, `minnumf32`, `maxnumf32` (and f64) became in 1.96
/// `fabs::<f32>`, `minimum_number_nsz_f32`, `maximum_number_nsz_f32`.
pub const INTRINSIC_ALIASES: &[(&str, &str, Option<&str>)] = &[
    ("fabsf32", "fabs", Some("f32")),
    ("fabsf64", "fabs", Some("f64")),
    ("minnumf32", "minimum_number_nsz_f32", None),
    ("minnumf64", "minimum_number_nsz_f64", None),
    ("maxnumf32", "maximum_number_nsz_f32", None),
    ("maxnumf64", "maximum_number_nsz_f64", None),
];

/// ORDERING_SUFFIXES: atomic orderings spelled as name suffixes
/// (`atomic_cxchg_acqrel_acquire`, releases before 1.95's const generic
/// `AtomicOrdering` argument; still accepted), and as oxidec reads them.
pub const ORDERING_SUFFIXES: &[(&str, &str)] =
    &[("relaxed", "Relaxed"), ("acquire", "Acquire"), ("release", "Release"), ("acqrel", "AcqRel"), ("seqcst", "SeqCst")];

/// The one name oxidec knows each intrinsic by (its registry,
/// src/ir/prims.def), whatever this rustc spells: a float type suffix
/// (`sqrtf32`, `minimum_number_nsz_f32`: 1.95 to 1.97 mix both styles)
/// becomes the generic argument (`sqrt::<f32>`), ordering suffixes
/// (`atomic_cxchg_acqrel_acquire`) the const arguments (success, then
/// failure). Renamed intrinsics (INTRINSIC_ALIASES) first.
pub fn canonical_intrinsic(name: &str, types: &mut Vec<Ty>, consts: &mut Vec<String>) -> String {
    let mut name = name.to_string();
    if let Some((_, new, ty)) = INTRINSIC_ALIASES.iter().find(|(old, _, _)| *old == name) {
        name = new.to_string();
        types.extend(ty.and_then(Ty::primitive));
    }
    if types.is_empty() {
        for ty in ["f16", "f32", "f64", "f128"] {
            let base = name.strip_suffix(ty).map(|b| b.trim_end_matches('_')).filter(|b| !b.is_empty());
            if let (Some(base), Some(t)) = (base, Ty::primitive(ty)) {
                name = base.to_string();
                types.push(t);
                break;
            }
        }
    }
    if name.starts_with("atomic_") && consts.is_empty() {
        let mut found = Vec::new();
        while let Some((base, ord)) = name.rsplit_once('_').and_then(|(base, sfx)| {
            ORDERING_SUFFIXES.iter().find(|(s, _)| *s == sfx).map(|(_, o)| (base.to_string(), *o))
        }) {
            name = base;
            found.insert(0, ord.to_string());
        }
        consts.extend(found);
    }
    name
}

/// CORE_NUM_IMP: core's integer helpers moved into `core::num::imp::`:
/// `int_sqrt` in 1.96, `int_log10` (`panic_for_nonpositive_argument`, the
/// panic of `ilog`) in 1.97. mir-export compares their paths in the 1.95
/// spelling, `core::num::int_log10::..`.
pub fn core_path(bare: &str) -> String {
    match bare.strip_prefix("core::num::imp::") {
        Some(rest) => format!("core::num::{rest}"),
        None => bare.to_string(),
    }
}

/// INT_SQRT_PATH: the helper behind `isqrt`, `core::num::int_sqrt::u64_stages`
/// (1.95; CORE_NUM_IMP for later releases) → its unsigned type.
pub fn int_sqrt_stages(bare: &str) -> Option<Ty> {
    let bare = core_path(bare);
    let rest = bare.strip_prefix("core::num::")?;
    let ty = rest.strip_prefix("int_sqrt::")?.strip_suffix("_stages")?;
    Ty::primitive(ty).filter(|t| matches!(t, Ty::Int { signed: false, .. }))
}

/// CORE_ENUMS: `core` enums that kernels meet in constants only from some
/// release on, with their variants in declaration order (adts.rs asks;
/// the order is the discriminant). 1.97's `TryFromIntError` holds an
/// `IntErrorKind` (`TryFromIntError(IntErrorKind::PosOverflow)`; 1.95 and
/// 1.96: `TryFromIntError(())`).
pub const CORE_ENUMS: &[(&str, &[&str])] =
    &[("core::num::IntErrorKind", &["Empty", "InvalidDigit", "PosOverflow", "NegOverflow", "Zero"])];

/// ATOMIC_ORDERING_ARG: 1.95 and later pass an intrinsic's ordering as a
/// const generic type argument `core::intrinsics::AtomicOrdering::Relaxed`.
pub fn atomic_ordering_arg(p: &Path) -> Option<&str> {
    p.bare().starts_with("core::intrinsics::AtomicOrdering::").then(|| p.last_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acceptance_by_release() {
        assert_eq!(acceptance("1.95.0", 95, "59807616e1fa"), Acceptance::Known);
        assert_eq!(acceptance("1.96.0", 96, "ac68faa20"), Acceptance::Known);
        assert_eq!(acceptance("1.97.0-nightly", 97, "e50aa6fba4e63ab34c72bf9acfd2c307c1155d1a"), Acceptance::Known);
        assert_eq!(acceptance("1.97.0-nightly", 97, "0123456789ab"), Acceptance::SelfTest);
        assert_eq!(acceptance("1.97.0-beta.3", 97, "0123456789ab"), Acceptance::SelfTest);
        assert_eq!(acceptance("1.97.0", 97, "0123456789ab"), Acceptance::SelfTest);
        assert_eq!(acceptance("1.96.0-beta.2", 96, "0123456789ab"), Acceptance::SelfTest);
        assert_eq!(acceptance("1.96.1", 96, "0123456789ab"), Acceptance::Known);
        assert_eq!(acceptance("1.98.0-nightly", 98, "0"), Acceptance::SelfTest);
        assert_eq!(acceptance("1.99.0", 99, "0"), Acceptance::SelfTest);
        assert_eq!(acceptance("1.94.0", 94, "0"), Acceptance::TooOld);
        assert_eq!(acceptance("2.0.0", 0, "0"), Acceptance::TooOld);
    }

    #[test]
    fn forms_by_release() {
        assert_eq!(layout_attr(95), "rustc_layout(debug)");
        assert_eq!(layout_attr(97), "rustc_dump_layout(debug)");
        assert_eq!(variant_layout_form(96), VariantLayoutForm::FullLayout);
        assert_eq!(variant_layout_form(97), VariantLayoutForm::VariantLayout);
        assert_eq!(variant_layout_form(99), VariantLayoutForm::VariantLayout);
        let m = u64::MAX as u128;
        assert_eq!(normalize_valid_range(1, 0, m), (0, m));
        assert_eq!(normalize_valid_range(0, m, m), (0, m));
        assert_eq!(normalize_valid_range(1, m, m), (1, m));
        assert_eq!(normalize_valid_range(3, 1, 255), (3, 1)); // a true wrap keeps its form
    }

    #[test]
    fn canonical_intrinsic_names() {
        let canon = |name: &str, ty: Option<&str>| {
            let (mut types, mut consts) = (ty.and_then(Ty::primitive).into_iter().collect::<Vec<_>>(), Vec::new());
            let n = canonical_intrinsic(name, &mut types, &mut consts);
            (n, types.len(), consts)
        };
        assert_eq!(canon("sqrtf32", None), ("sqrt".into(), 1, vec![]));
        assert_eq!(canon("minimum_number_nsz_f64", None), ("minimum_number_nsz".into(), 1, vec![]));
        assert_eq!(canon("minnumf64", None), ("minimum_number_nsz".into(), 1, vec![]));
        assert_eq!(canon("fabsf32", None), ("fabs".into(), 1, vec![]));
        assert_eq!(canon("copysign", Some("f32")), ("copysign".into(), 1, vec![]));
        assert_eq!(canon("fmaf64", None), ("fma".into(), 1, vec![]));
        // the float math of the registry's LIBM rows (src/ir/prims.def)
        assert_eq!(canon("sinf32", None), ("sin".into(), 1, vec![]));
        assert_eq!(canon("exp2f64", None), ("exp2".into(), 1, vec![]));
        assert_eq!(canon("log10f32", None), ("log10".into(), 1, vec![]));
        assert_eq!(canon("powif64", None), ("powi".into(), 1, vec![]));
        assert_eq!(canon("fadd_fast", Some("f32")), ("fadd_fast".into(), 1, vec![]));
        assert_eq!(canon("fmaf128", None), ("fmaf128".into(), 0, vec![])); // no f128 type: refused by oxidec by name
        assert_eq!(canon("atomic_xadd", Some("u32")), ("atomic_xadd".into(), 1, vec![]));
        assert_eq!(canon("atomic_xadd_relaxed", Some("u32")), ("atomic_xadd".into(), 1, vec!["Relaxed".to_string()]));
        assert_eq!(
            canon("atomic_cxchg_acqrel_acquire", Some("u32")),
            ("atomic_cxchg".into(), 1, vec!["AcqRel".to_string(), "Acquire".to_string()])
        );
        assert_eq!(canon("atomic_and", Some("u32")), ("atomic_and".into(), 1, vec![]));
        assert_eq!(canon("ctpop", Some("u32")), ("ctpop".into(), 1, vec![]));
        assert!(int_sqrt_stages("core::num::imp::int_sqrt::u64_stages").is_some());
        assert!(int_sqrt_stages("core::num::int_sqrt::u32_stages").is_some());
        assert!(int_sqrt_stages("core::num::int_sqrt::i32_stages").is_none());
        assert_eq!(core_path("core::num::imp::int_log10::panic_for_nonpositive_argument"), "core::num::int_log10::panic_for_nonpositive_argument");
        assert_eq!(core_path("core::num::int_log10::x"), "core::num::int_log10::x");
    }
}
