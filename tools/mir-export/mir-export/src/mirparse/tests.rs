//! Parser tests on lines taken from real rustc 1.95/1.96 `--emit=mir`
//! output of the example kernels and of test kernels.

use super::ast::*;
use super::lexer::lex_line;
use super::parse_mir_file;
use super::parser::{parse_str, Parser};

fn ty(s: &str) -> Ty {
    parse_str(s, |p| p.ty()).unwrap()
}

fn stmt(s: &str) -> StatementKind {
    let line = lex_line(s).unwrap();
    Parser::new(&line).statement().unwrap()
}

fn term(s: &str) -> TerminatorKind {
    let line = lex_line(s).unwrap();
    Parser::new(&line).terminator().unwrap()
}

fn rvalue_of(s: &str) -> Rvalue {
    match stmt(s) {
        StatementKind::Assign(_, rv) => rv,
        other => panic!("not an assignment: {other:?}"),
    }
}

#[test]
fn types_print_back_as_rustc_prints_them() {
    for t in [
        "core::option::Option<&mut f32>",
        "oxide_device::DisjointSlice<'_, f32>",
        "core::iter::Zip<core::slice::Iter<'_, f32>, core::iter::Skip<core::slice::Iter<'_, f32>>>",
        "(usize, (&f32, &f32))",
        "(u8,)",
        "[u16; 3]",
        "*const [f32]",
        "&&str",
        "{closure@src/lib.rs:29:13: 29:21}",
        "unsafe extern \"C\" fn() -> u32 {oxide_device::primitives::__oxide_ctaid_x}",
        "fn(Pt, Mode) -> f32 {helper}",
        "&dyn Tr",
        "for<'a, 'b> unsafe fn(core::ptr::NonNull<()>, &'a mut core::fmt::Formatter<'b>) -> core::result::Result<(), core::fmt::Error>",
    ] {
        assert_eq!(ty(t).to_string(), t);
    }
    assert_eq!(ty("usize"), Ty::Int { name: "usize", bits: 64, signed: false });
    assert!(matches!(ty("fn(u32) -> u32"), Ty::FnPtr(_)));
    assert!(matches!(ty("fn(u32) -> u32 {double}"), Ty::FnDef { .. }));
    // a crate's fn item, which the lexer reads as one `{word::..}` token
    let cmp = "&mut for<'a, 'b> fn(&'a (u64, &u64), &'b (u64, &u64)) -> core::cmp::Ordering {core::iter::Iterator::min_by_key::compare::<&u64, u64>}";
    assert!(matches!(ty(cmp), Ty::Ref { pointee, .. } if matches!(&*pointee, Ty::FnDef { path, .. } if path.last_name() == "compare")));
    // argument-position impl Trait: a parameter named by its text
    assert!(matches!(ty("impl FnMut() -> u32"), Ty::Adt(p) if p.segments[0].name == "impl FnMut() -> u32"));
    let rv = rvalue_of("_3 = copy _1 as &dyn Shape (PointerCoercion(Unsize, Implicit));");
    assert!(matches!(rv, Rvalue::Cast { ty: Ty::Ref { .. }, .. }));
    assert!(matches!(ty("&mut dyn core::ops::FnMut(u32) -> u32"), Ty::Ref { pointee, .. } if matches!(&*pointee, Ty::Dyn(d) if d == "dyn core::ops::FnMut(u32) -> u32")));
}

#[test]
fn fn_item_cast_without_const() {
    let rv = rvalue_of("_32 = <usize as core::fmt::Display>::fmt as for<'a, 'b> fn(&'a usize, &'b mut core::fmt::Formatter<'_>) -> core::result::Result<(), core::fmt::Error> (PointerCoercion(ReifyFnPointer(Safe), Implicit));");
    let Rvalue::Cast { kind, operand: Operand::Const(c), .. } = rv else { panic!("{rv:?}") };
    assert!(kind.starts_with("PointerCoercion(ReifyFnPointer"));
    assert_eq!(c.text, "<usize as core::fmt::Display>::fmt");
}

#[test]
fn trait_fn_item_argument_without_const() {
    // rustc 1.96, core's Chain::next instantiated in a kernel crate
    let t = term("_138 = <for<'a> fn(&'a mut core::slice::Iter<'_, u64>) -> core::option::Option<<core::slice::Iter<'_, u64> as core::iter::Iterator>::Item> {<core::slice::Iter<'_, u64> as core::iter::Iterator>::next} as core::ops::FnOnce<(&mut core::slice::Iter<'_, u64>,)>>::call_once(<core::slice::Iter<'_, u64> as core::iter::Iterator>::next, move _145) -> [return: bb52, unwind unreachable];");
    let TerminatorKind::Call { args, target, .. } = t else { panic!("{t:?}") };
    let [Operand::Const(f), Operand::Move(p)] = &args[..] else { panic!("{args:?}") };
    assert_eq!(f.text, "<core::slice::Iter<'_, u64> as core::iter::Iterator>::next");
    assert!(matches!(&f.val, ConstVal::Path { path, .. } if path.qself.is_some()));
    assert_eq!((p.local, target), (145, Some(52)));
}

#[test]
fn subslice_projections() {
    let proj = |s: &str| match stmt(s) {
        StatementKind::Assign(_, Rvalue::Use(Operand::Copy(p))) => p.proj[1].clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(proj("_1 = copy (*_4)[2:][_3];"), Proj::Subslice { from: 2, to: 0, from_end: true });
    assert_eq!(proj("_1 = copy (*_4)[:-1][_3];"), Proj::Subslice { from: 0, to: 1, from_end: true });
    assert_eq!(proj("_1 = copy (*_4)[1:-2][_3];"), Proj::Subslice { from: 1, to: 2, from_end: true });
    assert_eq!(proj("_1 = copy (*_4)[1..3][_3];"), Proj::Subslice { from: 1, to: 3, from_end: false });
}

#[test]
fn places_and_projections() {
    let StatementKind::Assign(place, rv) = stmt("_16 = copy (((_14 as Some).0: (usize, (&f32, &f32))).0: usize);") else {
        panic!()
    };
    assert_eq!(place, Place { local: 16, proj: vec![] });
    let Rvalue::Use(Operand::Copy(p)) = rv else { panic!() };
    assert_eq!(p.local, 14);
    assert_eq!(p.proj[0], Proj::Downcast("Some".into()));
    assert_eq!(p.proj[2], Proj::Field(0, ty("usize")));
    let Rvalue::Use(Operand::Copy(p)) = rvalue_of("_7 = copy (*_1)[_17];") else { panic!() };
    assert_eq!(p.proj, vec![Proj::Deref, Proj::Index(17)]);
    let Rvalue::Use(Operand::Copy(p)) = rvalue_of("_21 = copy (*_28)[0 of 1];") else { panic!() };
    assert_eq!(p.proj[1], Proj::ConstIndex { offset: 0, min_length: 1, from_end: false });
    let StatementKind::Assign(place, _) = stmt("((_9.0: core::iter::Zip<A, B>).2: usize) = Add(copy _1, const 1_usize);") else {
        panic!()
    };
    assert_eq!(place.proj.len(), 2);
}

#[test]
fn rvalues() {
    assert!(matches!(rvalue_of("_9 = Lt(copy _17, copy _8);"), Rvalue::Binary { op, .. } if op == "Lt"));
    assert!(matches!(rvalue_of("_8 = PtrMetadata(copy _1);"), Rvalue::Unary { op, .. } if op == "PtrMetadata"));
    let Rvalue::Cast { kind, ty: t, .. } = rvalue_of("_13 = move _14 as usize (IntToInt);") else { panic!() };
    assert_eq!((kind.as_str(), t), ("IntToInt", ty("usize")));
    let Rvalue::Cast { kind, .. } = rvalue_of("_25 = const 8_usize as *const u32 (PointerWithExposedProvenance);") else {
        panic!()
    };
    assert_eq!(kind, "PointerWithExposedProvenance");
    assert!(matches!(rvalue_of("_23 = &mut (*_24);"), Rvalue::Ref { mutable: true, .. }));
    assert!(matches!(rvalue_of("_92 = &raw const (*_1);"), Rvalue::RawPtr { mutable: false, .. }));
    assert!(matches!(rvalue_of("_5 = discriminant(_4);"), Rvalue::Discriminant(_)));
    let Rvalue::Aggregate { kind, fields } = rvalue_of("_4 = core::option::Option::<&mut f32>::Some(copy _23);") else {
        panic!()
    };
    assert!(matches!(kind, AggregateKind::Adt(p) if p.last_name() == "Some"));
    assert_eq!(fields.len(), 1);
    let Rvalue::Aggregate { fields, .. } = rvalue_of(
        "_11 = core::slice::Iter::<'_, f32> { ptr: copy _87, end_or_len: copy _89, _marker: const core::marker::PhantomData::<&f32> };",
    ) else {
        panic!()
    };
    assert_eq!(fields.len(), 3);
    let Rvalue::Aggregate { kind, .. } = rvalue_of("_28 = *const [f32] from (copy _33, const 2_usize);") else { panic!() };
    assert_eq!(kind, AggregateKind::RawPtr(ty("*const [f32]")));
    assert!(matches!(rvalue_of("_0 = [const 1_u32, const 2_u32];"), Rvalue::Aggregate { kind: AggregateKind::Array, .. }));
    assert!(matches!(rvalue_of("_1 = [const 0_u8; 16];"), Rvalue::Repeat(_, n) if n == "16"));
    assert!(matches!(rvalue_of("_118 = (copy _116, copy _120);"), Rvalue::Aggregate { kind: AggregateKind::Tuple, .. }));
    assert!(matches!(rvalue_of("_14 = core::option::Option::<(usize, f32)>::None;"), Rvalue::Aggregate { fields, .. } if fields.is_empty()));
}

fn constant(s: &str) -> Const {
    parse_str(s, |p| p.constant()).unwrap()
}

#[test]
fn constants() {
    assert_eq!(constant("1_u32").val, ConstVal::Int { negative: false, text: "1".into() });
    assert_eq!(constant("-2_isize").val, ConstVal::Int { negative: true, text: "2".into() });
    assert_eq!(constant("3735928559_u32").ty, Some(ty("u32")));
    assert_eq!(constant("2.14748365E+9f32").val, ConstVal::Float("2.14748365E+9".into()));
    assert_eq!(constant("-0f32").val, ConstVal::Float("-0".into()));
    assert_eq!(constant("NaN_f32").val, ConstVal::Float("NaN".into()));
    assert_eq!(constant("+Inf_f64").ty, Some(Ty::Float(64)));
    assert_eq!(constant("i32::MAX").val, ConstVal::Int { negative: false, text: "MAX".into() });
    assert_eq!(constant("u128::MAX").ty, Some(ty("u128")));
    assert_eq!(constant("true").val, ConstVal::Bool(true));
    assert_eq!(constant("'x'").val, ConstVal::Char('x'));
    assert_eq!(constant("\"hi\\n\\\"there\\\"\"").val, ConstVal::Str(b"hi\n\"there\"".to_vec()));
    let c = constant("{alloc1: &[u32; 4]}");
    assert_eq!((c.val, c.ty), (ConstVal::Alloc { id: 1, offset: 0 }, Some(ty("&[u32; 4]"))));
    let c = constant("{transmute(0x00000001): core::num::NonZero<u32>}");
    assert_eq!(c.val, ConstVal::Transmute("0x00000001".into()));
    let c = constant("core::option::Option::<&mut f32>::None");
    assert_eq!(c.text, "core::option::Option::<&mut f32>::None");
    let c = constant("W(1_u32, 2_u8)");
    assert!(matches!(&c.val, ConstVal::Path { fields, .. } if fields.len() == 2));
    let c = constant("(-Inf_f64, 'x')");
    assert!(matches!(&c.val, ConstVal::Tuple(items) if items[0].ty == Some(Ty::Float(64))));
    assert!(matches!(constant("BIG::promoted[0]").val, ConstVal::Path { path, .. } if path.to_string() == "BIG::promoted[0]"));
    let c = constant("core::f32::<impl f32>::NAN");
    assert!(matches!(c.val, ConstVal::Path { path, .. } if path.segments[2].name == "<impl f32>"));
    assert_eq!(constant("()").ty, Some(Ty::unit()));
    let c = constant("g::impls::<impl core::default::Default for g::GenericArray<u8, g::N<()>>>::default");
    assert!(matches!(c.val, ConstVal::Path { path, .. } if path.segments.len() == 4
        && path.segments[2].name == "<impl core::default::Default for g::GenericArray<u8, g::N<()>>>"));
    let c = constant("k::<impl at src/lib.rs:5:10: 5:15>::clone");
    assert!(matches!(c.val, ConstVal::Path { path, .. } if path.segments.len() == 3 && path.last_name() == "clone"));
    let c = constant("Big::Arr::0::{constant#0}");
    assert!(matches!(c.val, ConstVal::Path { path, .. } if path.segments.len() == 4 && path.segments[2].name == "0"));
    assert_eq!(constant("<uninit>").val, ConstVal::Uninit);
    let c = constant("{0x0 as *const u64}");
    assert_eq!((c.val, c.ty), (ConstVal::Int { negative: false, text: "0x0".into() }, Some(ty("*const u64"))));
    let c = constant("ZeroSized: {closure@src/lib.rs:133:37: 133:40}");
    assert_eq!((c.val, c.ty), (ConstVal::ZeroSized, Some(ty("{closure@src/lib.rs:133:37: 133:40}"))));
    // A struct constant inside an aggregate rvalue prints doubled braces.
    let c = constant("core::ops::index_range::IndexRange {{ start: 0_usize, end: 2_usize }}");
    assert!(matches!(&c.val, ConstVal::Path { fields, .. } if fields.len() == 2 && fields[1].0.as_deref() == Some("end")));
}

#[test]
fn statements() {
    assert_eq!(stmt("StorageLive(_13);"), StatementKind::Ignored);
    assert!(matches!(stmt("discriminant(_3) = 1;"), StatementKind::SetDiscriminant(_, 1)));
    assert!(matches!(stmt("assume(move _122);"), StatementKind::Assume(_)));
    assert!(matches!(
        stmt("copy_nonoverlapping(dst = move _5, src = move _4, count = const 1_usize);"),
        StatementKind::CopyNonOverlapping { .. }
    ));
}

#[test]
fn terminators() {
    assert_eq!(term("goto -> bb4;"), TerminatorKind::Goto(4));
    assert_eq!(term("return;"), TerminatorKind::Return);
    let TerminatorKind::SwitchInt { targets, otherwise, .. } = term("switchInt(move _5) -> [1: bb1, 0: bb4, otherwise: bb11];")
    else {
        panic!()
    };
    assert_eq!((targets, otherwise), (vec![(1, 1), (0, 4)], 11));
    let TerminatorKind::Call { callee: Callee::Path(p), target, .. } =
        term("_14 = oxide_device::primitives::__oxide_ctaid_x() -> [return: bb5, unwind unreachable];")
    else {
        panic!()
    };
    assert_eq!((p.last_name(), target), ("__oxide_ctaid_x", Some(5)));
    let TerminatorKind::Call { target, args, .. } =
        term("_30 = core::slice::index::slice_index_fail(const 1_usize, const 3_usize, move _31) -> unwind unreachable;")
    else {
        panic!()
    };
    assert_eq!((target, args.len()), (None, 3));
    let TerminatorKind::Call { callee: Callee::Path(p), .. } = term(
        "_31 = core::intrinsics::atomic_xadd::<u32, u32, core::intrinsics::AtomicOrdering::Relaxed>(move _140, const 1_u32) -> [return: bb35, unwind unreachable];",
    ) else {
        panic!()
    };
    assert_eq!(p.all_args().count(), 3);
    let TerminatorKind::Call { callee: Callee::Path(p), .. } =
        term("_14 = <P as Tr>::f(move _1) -> [return: bb2, unwind unreachable];")
    else {
        panic!()
    };
    assert_eq!(p.to_string(), "<P as Tr>::f");
    assert!(matches!(term("_20 = copy _3(const 2_u32) -> [return: bb6, unwind unreachable];"), TerminatorKind::Call { callee: Callee::Operand(_), .. }));
    let TerminatorKind::Assert { expected, msg, target, msg_args, .. } = term(
        "assert(!move (_117.1: bool), \"attempt to compute `{} + {}`, which would overflow\", copy (_9.1: usize), const 1_usize) -> [success: bb28, unwind: bb29];",
    ) else {
        panic!()
    };
    assert!(!expected);
    assert!(msg.starts_with("attempt to compute"));
    assert_eq!((target, msg_args.len()), (28, 2));
}

/// A whole body as rustc 1.95 prints it (vecadd, shortened).
const BODY: &str = r#"// WARNING: This output format is intended for human consumers only
fn k(_1: &[f32], _2: oxide_device::DisjointSlice<'_, f32>) -> () {
    debug a => _1;                       // in scope 0 at src/lib.rs:7:15: 7:16
    let mut _0: ();                      // return place in scope 0 at src/lib.rs:7:63: 7:63
    let mut _4: core::option::Option<&mut f32>; // in scope 0 at src/lib.rs:10:23: 10:37
    scope 1 {
        debug ((idx: oxide_device::ThreadIndex).0: usize) => _3; // in scope 1 at src/lib.rs:8:9: 8:12
        scope 2 (inlined oxide_device::thread::index_1d) { // at src/lib.rs:8:15: 8:33
            let _3: usize;               // in scope 2 at /w/oxide-device/src/thread.rs:64:9: 64:14
        }
    }

    bb0: {
        StorageLive(_3);                 // scope 0 at src/lib.rs:8:15: 8:33
        _3 = oxide_device::primitives::__oxide_tid_x() -> [return: bb1, unwind unreachable]; // scope 2 at /w/oxide-device/src/thread.rs:12:22: 12:31
                                         // mir::ConstOperand
                                         // + span: no-location
                                         // + const_: Const { ty: unsafe extern "C" fn() -> u32 {oxide_device::primitives::__oxide_tid_x}, val: Value(oxide_device::primitives::__oxide_tid_x) }
    }

    bb1 (cleanup): {
        _4 = const core::option::Option::<&mut f32>::None; // scope 2 at /w/oxide-device/src/disjoint.rs:33:13: 33:17
                                         // mir::ConstOperand
                                         // + span: no-location
                                         // + const_: Const { ty: core::option::Option<&mut f32>, val: Value(core::option::Option::<&mut f32>::None) }
        return;                          // scope 0 at src/lib.rs:13:2: 13:2
    }
}

// MIR FOR CTFE
fn k(_1: u32) -> u32 {
    let mut _0: u32;                   // return place in scope 0 at src/lib.rs:1:1: 1:1

    bb0: {
        return;                          // scope 0 at src/lib.rs:1:1: 1:1
    }
}

const __OXIDE_KERNEL_k: &str = const "k";
"#;

#[test]
fn whole_body_with_scopes_and_comments() {
    let f = parse_mir_file(BODY).unwrap();
    assert_eq!(f.bodies.len(), 1, "the CTFE copy is skipped");
    let b = &f.bodies[0];
    assert_eq!((b.name.as_str(), b.arg_count), ("k", 2));
    assert_eq!(b.locals.len(), 5);
    assert_eq!(b.locals[3].as_ref().unwrap().scope, 2);
    assert_eq!(b.debug_names, vec![("a".to_string(), 1)]);
    assert_eq!(b.scopes[2].parent, Some(1));
    let (callee, callsite) = b.scopes[2].inlined.clone().unwrap();
    assert!(callee.contains("index_1d"));
    assert_eq!(callsite.unwrap().line, 8);
    assert_eq!(b.blocks.len(), 2);
    assert!(b.blocks[1].cleanup);
    assert_eq!(b.blocks[0].statements.len(), 0, "StorageLive is dropped");
    assert_eq!(b.blocks[1].statements[0].const_comments[0].0, "core::option::Option<&mut f32>");
    assert_eq!(b.blocks[1].statements[0].scope, 2);
    assert_eq!(f.consts[0].name, "__OXIDE_KERNEL_k");
}

/// rustc 1.97's `no_retag` qualifier (rustc_compat::USE_QUALIFIERS): the
/// same use as without it.
#[test]
fn no_retag_use_is_a_plain_use() {
    let with = rvalue_of("_13 = no_retag copy ((*_1).0: &u32);");
    let without = rvalue_of("_13 = copy ((*_1).0: &u32);");
    assert_eq!(format!("{with:?}"), format!("{without:?}"));
    assert!(matches!(with, Rvalue::Use(Operand::Copy(_))));
    let line = lex_line("_13 = no_retag &_2;").unwrap();
    assert!(Parser::new(&line).statement().is_err());
}

/// Constructs of core's own MIR (library.rs), rustc 1.96.
#[test]
fn core_mir_constructs() {
    // a static of another crate, by DefId
    let c = rvalue_of("_125 = const <static(DefId(1:53618 ~ core[9071]::unicode::unicode_data::white_space::WHITESPACE_MAP))>;");
    let Rvalue::Use(Operand::Const(c)) = c else { panic!("{c:?}") };
    assert_eq!(
        c.val,
        ConstVal::StaticRef { krate: "core".into(), path: "unicode::unicode_data::white_space::WHITESPACE_MAP".into() }
    );
    // a raw pointer made only for its metadata
    assert_eq!(
        rvalue_of("_11 = &raw const (fake) (*_40);"),
        rvalue_of("_11 = &raw const (*_40);")
    );
    // runtime checks: off, as the kernel crate's flags say
    let TerminatorKind::SwitchInt { discr: Operand::Const(c), .. } = term("switchInt(UbChecks) -> [0: bb21, otherwise: bb19];") else {
        panic!("not a switch on a constant")
    };
    assert_eq!(c.val, ConstVal::Bool(false));
}

/// A constant of a generic type, its bytes in an allocation
/// (`partition_at_index_loop`'s inlined `min_index`, core 1.96).
#[test]
fn indirect_constants() {
    let rv = rvalue_of(
        "_141 = const Indirect { alloc_id: alloc901033, offset: Size(0 bytes) }: option::Option<(usize, &T)>;",
    );
    let Rvalue::Use(Operand::Const(c)) = rv else { panic!("{rv:?}") };
    assert_eq!(c.val, ConstVal::Indirect { id: 901033, offset: 0 });
    assert_eq!(c.ty, Some(ty("option::Option<(usize, &T)>")));
    let c = constant(
        "Indirect { alloc_id: alloc901034, offset: Size(8 bytes) }: ops::control_flow::ControlFlow<option::Option<convert::Infallible>, (usize, &T)>",
    );
    assert_eq!(c.val, ConstVal::Indirect { id: 901034, offset: 8 });
    assert_eq!(c.ty, Some(ty("ops::control_flow::ControlFlow<option::Option<convert::Infallible>, (usize, &T)>")));
    assert!(Parser::new(&lex_line("const Indirect { alloc_id: x1, offset: Size(0 bytes) }: u8").unwrap()).operand().is_err());
}

/// A call through an inline `const { .. }` of function pointer type that
/// depends on the body's generics (ipnsort's inlined `partition`, core
/// 1.96): the callee is the constant, a path without fields, and the
/// parenthesised list the call's arguments.
#[test]
fn call_through_an_inline_const() {
    let t = term(
        "_166 = const slice::sort::unstable::quicksort::partition::<T, F>::{constant#0}(move _495, move _419, copy _2) -> [return: bb237, unwind unreachable];",
    );
    let TerminatorKind::Call { callee: Callee::Operand(Operand::Const(c)), args, target, .. } = t else { panic!("{t:?}") };
    let ConstVal::Path { path, fields } = &c.val else { panic!("{c:?}") };
    assert!(fields.is_empty());
    assert_eq!(path.to_string(), "slice::sort::unstable::quicksort::partition::<T, F>::{constant#0}");
    assert_eq!((args.len(), target), (3, Some(237)));
    assert_eq!(c.text, "slice::sort::unstable::quicksort::partition::<T, F>::{constant#0}");
    // with a span-printed closure among the arguments
    let t = term(
        "_161 = const slice::sort::unstable::quicksort::partition::<T, {closure@/usr/lib/rustlib/src/rust/library/core/src/slice/sort/unstable/quicksort.rs:52:59: 52:65}>::{constant#0}(move _405, move _329, move _163) -> [return: bb183, unwind unreachable];",
    );
    let TerminatorKind::Call { callee: Callee::Operand(Operand::Const(c)), args, .. } = t else { panic!("{t:?}") };
    assert!(matches!(&c.val, ConstVal::Path { path, .. } if path.all_args().count() == 2));
    assert_eq!(args.len(), 3);
}

#[test]
fn types_declared_in_generic_functions() {
    let Ty::Adt(p) = ty("arrayvec::ArrayVec<T, CAP>::retain::BackshiftOnDrop<'_, u32, 16>") else { panic!() };
    assert!(p.declared_in_generic());
    let args: Vec<String> = p.type_args().map(|a| format!("{a:?}")).collect();
    assert_eq!(args, ["Lifetime", "Type(Int { name: \"u32\", bits: 32, signed: false })", "Const(\"16\")"]);
    assert!(Ty::Adt(p.clone()).is_unnameable());
    assert!(ty("&mut arrayvec::ArrayVec<T, CAP>::retain::BackshiftOnDrop<'_, u32, 16>").is_unnameable());
    // a function item has no spelling either, nor what holds one
    let item = "fn(char) -> bool {core::char::methods::<impl char>::is_whitespace}";
    assert!(ty(item).is_unnameable());
    assert!(ty(&format!("core::str::pattern::MultiCharEqSearcher<'_, {item}>")).is_unnameable());
    assert!(!ty("fn(char) -> bool").is_unnameable());
    // ordinary paths: arguments only on the last segment, or real ones
    // before it (a parent argument that is no parameter)
    for s in ["arrayvec::ArrayVec<u32, 16>", "core::option::Option<T>", "a::Outer<u32>::Inner<u8>", "a::Outer<N>::Inner<u8>"] {
        let Ty::Adt(p) = ty(s) else { panic!("{s}") };
        assert_eq!(p.declared_in_generic(), s == "a::Outer<N>::Inner<u8>", "{s}");
        if s != "a::Outer<N>::Inner<u8>" {
            assert_eq!(p.type_args().count(), p.all_args().count(), "{s}");
            assert!(!Ty::Adt(p).is_unnameable(), "{s}");
        }
    }
}

#[test]
fn own_arguments_of_nested_fn_items() {
    let own = |s: &str| -> Vec<String> {
        let p = crate::mirparse::parser::parse_str(s, |p| p.path(true)).unwrap();
        p.fn_item_args().map(|a| format!("{a:?}")).collect()
    };
    // a fn nested in a generic impl's method: the impl's `A` is printed, not inherited
    let nested = own("alloc::raw_vec::RawVecInner::<A>::reserve::do_reserve_and_handle::<alloc::alloc::Global>");
    assert_eq!(nested.len(), 1);
    assert!(nested[0].contains("Global"), "{nested:?}");
    // a method of a generic type, a generic fn: every argument is the call's
    assert_eq!(own("alloc::vec::Vec::<Point>::push").len(), 1);
    assert_eq!(own("core::slice::<impl [T]>::len").len(), 0);
    assert_eq!(own("rotate_mix::<u8>").len(), 1);
    assert_eq!(own("a::S::<T>::m::<u8, u16>").len(), 3);
}

#[test]
fn turbofish_with_an_opaque_type_argument() {
    // an aggregate whose first argument is a generic fn's opaque return
    // type: a turbofish, not an `<impl ..>` segment
    let rv = format!("{:?}", rvalue_of("_14 = Pipeline::<impl Fn(u32) -> u32, {closure@src/lib.rs:583:39: 583:47}> { step: copy _7, keep: copy _8 };"));
    assert!(rv.contains("Aggregate") && rv.contains("name: \"Pipeline\", args: [Type(Adt") && rv.contains("turbofish: true"), "{rv}");
    assert!(rv.contains("impl Fn(u32) -> u32") && rv.contains("local: 8"), "{rv}");
    // an impl segment stays one
    assert_eq!(ty("core::slice::<impl [u8]>::Iter").to_string(), "core::slice::<impl [u8]>::Iter");
}
