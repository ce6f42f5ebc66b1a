//! Type layouts: rustc's own for ADTs, tuples and arrays (asked through a
//! probe), computed here for primitives.
//!
//! MIR text carries no layouts. rustc prints a type's full layout as an
//! error when a type alias carries `#[rustc_layout(debug)]` (renamed
//! `#[rustc_dump_layout(debug)]` in 1.96). The probe is a copy of the crate
//! root with one such alias per type appended (or, for a type declared in a
//! function body, inserted in its block), compiled with the crate's own
//! rustc arguments; each diagnostic is the `{:#?}` of a `LayoutData`:
//!
//! ```text
//! layout_of(Option<&mut f32>) = Layout {
//!     size: Size(8 bytes),
//!     align: AbiAlign { abi: Align(8 bytes) },
//!     backend_repr: Scalar(Initialized { value: Pointer(AddressSpace(0)), valid_range: (..=0) | (1..) }),
//!     fields: Arbitrary { offsets: [Size(0 bytes)], in_memory_order: [0] },
//!     variants: Multiple { tag: ..., tag_encoding: Niche { untagged_variant: 1, niche_variants: 0..=0, niche_start: 0 }, tag_field: 0, variants: [...] },
//!     ...
//! }
//! ```
//!
//! The format is rustc-internal and changes between releases, so it is read
//! as a generic Debug tree and only the fields needed are looked up by name.

use crate::json::{self, Json};
use crate::rustc_compat::{self, VariantLayoutForm};
use crate::obj;

/// One scalar component of a layout (rustc's `abi::Scalar`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    /// `i8`..`i128`, `f32`, `f64`, `ptr`.
    pub prim: String,
    pub signed: bool,
    pub valid_start: u128,
    pub valid_end: u128,
}

impl Scalar {
    pub fn int(bits: u32, signed: bool) -> Scalar {
        Scalar { prim: format!("i{bits}"), signed, valid_start: 0, valid_end: max_of_bits(bits) }
    }

    pub fn with_range(mut self, start: u128, end: u128) -> Scalar {
        self.valid_start = start;
        self.valid_end = end;
        self
    }

    pub fn ptr(nonnull: bool) -> Scalar {
        Scalar { prim: "ptr".into(), signed: false, valid_start: nonnull as u128, valid_end: u64::MAX as u128 }
    }

    pub fn float(bits: u32) -> Scalar {
        Scalar { prim: format!("f{bits}"), signed: false, valid_start: 0, valid_end: max_of_bits(bits) }
    }

    fn to_json(&self) -> Json {
        obj![
            "prim" => self.prim.as_str(),
            "signed" => self.signed,
            "valid_start" => self.valid_start.to_string(),
            "valid_end" => self.valid_end.to_string(),
        ]
    }
}

fn max_of_bits(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TagEncoding {
    Direct,
    Niche { untagged_variant: u32, niche_variants: (u32, u32), niche_start: u128 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct VariantLayout {
    pub size: u64,
    /// `None` where rustc does not print it (1.97).
    pub align: Option<u64>,
    pub fields: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Variants {
    pub tag: Scalar,
    pub tag_offset: u64,
    pub tag_field: u32,
    pub encoding: TagEncoding,
    pub layouts: Vec<VariantLayout>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
    /// `scalar`, `scalar_pair`, `vector`, `memory`, `uninhabited`.
    pub abi: &'static str,
    pub scalars: Vec<Scalar>,
    /// Field offsets by declaration index.
    pub fields: Vec<u64>,
    pub variants: Option<Variants>,
    /// Single-variant layouts of an enum: which variant (rustc's
    /// `Variants::Single { index }`).
    pub single_variant: Option<u32>,
}

impl Layout {
    pub fn scalar(size: u64, s: Scalar) -> Layout {
        Layout { size, align: size.max(1), abi: "scalar", scalars: vec![s], ..Layout::memory(size, size.max(1)) }
    }

    pub fn memory(size: u64, align: u64) -> Layout {
        Layout { size, align, abi: "memory", scalars: vec![], fields: vec![], variants: None, single_variant: None }
    }

    pub fn to_json(&self) -> Json {
        let variants = self.variants.as_ref().map(|v| {
            let encoding = match &v.encoding {
                TagEncoding::Direct => Json::from("direct"),
                TagEncoding::Niche { untagged_variant, niche_variants, niche_start } => obj![
                    "niche" => obj![
                        "untagged_variant" => *untagged_variant,
                        "niche_variants" => vec![Json::from(niche_variants.0), Json::from(niche_variants.1)],
                        "niche_start" => niche_start.to_string(),
                    ],
                ],
            };
            let layouts: Vec<Json> = v
                .layouts
                .iter()
                .map(|l| {
                    let mut o = vec![("size".to_string(), Json::from(l.size.to_string()))];
                    // not printed by rustc 1.97 (rustc_compat::VariantLayoutForm)
                    o.extend(l.align.map(|a| ("align".to_string(), Json::from(a as u32))));
                    o.push(("fields".to_string(), offsets_json(&l.fields)));
                    Json::Obj(o)
                })
                .collect();
            obj![
                "tag" => v.tag.to_json(),
                "tag_offset" => v.tag_offset.to_string(),
                "tag_field" => v.tag_field,
                "encoding" => encoding,
                "layouts" => layouts,
            ]
        });
        obj![
            "size" => self.size.to_string(),
            "align" => self.align as u32,
            "abi" => self.abi,
            "scalars" => self.scalars.iter().map(Scalar::to_json).collect::<Vec<_>>(),
            "fields" => offsets_json(&self.fields),
            "variants" => variants,
            "single_variant" => self.single_variant,
        ]
    }
}

fn offsets_json(offsets: &[u64]) -> Json {
    Json::Arr(offsets.iter().map(|o| Json::Str(o.to_string())).collect())
}

// ---- the probe ------------------------------------------------------------

/// The probe's source, and where each name's alias is in it (byte
/// ranges, which rustc's diagnostics point into), or why it has none.
pub struct ProbeSource {
    pub text: String,
    pub aliases: Vec<Result<std::ops::Range<usize>, String>>,
}

/// The crate root with one `#[attr] type __oxide_layout_N = T;` per type.
/// `names[i]` must be nameable from the crate root (full paths,
/// `'static`): its alias is appended, one line each. Or it is an
/// `in_block_probe_name`: its alias goes just inside that block, on the
/// line of its `{`, so that no line of the file moves. A
/// `struct_probe_name` (alone or in a block) declares that struct too.
pub fn probe_source(root_src: &str, attr: &str, names: &[String]) -> ProbeSource {
    let placed: Vec<(Option<usize>, &str)> = names.iter().map(|n| split_in_block(n)).collect();
    let mut aliases: Vec<Result<std::ops::Range<usize>, String>> = vec![Ok(0..0); names.len()];
    let mut in_blocks: Vec<(usize, usize)> = Vec::new();
    for (i, (at, _)) in placed.iter().enumerate() {
        match at {
            Some(at) if root_src.as_bytes().get(*at) == Some(&b'{') => in_blocks.push((*at, i)),
            Some(at) => aliases[i] = Err(format!("the layout probe expected a `{{` at byte {at} of the crate root (did it change?)")),
            None => {}
        }
    }
    in_blocks.sort();
    let mut s = String::new();
    let mut copied = 0;
    for (at, i) in in_blocks {
        s.push_str(&root_src[copied..=at]);
        copied = at + 1;
        let start = s.len();
        s.push_str(&alias_item(i, attr, placed[i].1));
        aliases[i] = Ok(start..s.len());
    }
    s.push_str(&root_src[copied..]);
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s.push_str("// --- appended by mir-export: layout probe ---\n");
    for (i, (at, name)) in placed.iter().enumerate() {
        if at.is_none() {
            let start = s.len();
            s.push_str(&alias_item(i, attr, name));
            aliases[i] = Ok(start..s.len());
            s.push('\n');
        }
    }
    ProbeSource { text: s, aliases }
}

/// `#[attr] type __oxide_layout_I = NAME;`, declaring the struct of a
/// `struct_probe_name` after it.
fn alias_item(i: usize, attr: &str, name: &str) -> String {
    let allow = "#[allow(non_camel_case_types, dead_code)]";
    if let Some((ty, structs)) = split_stand_ins(name) {
        // (a stand-in's fields may name other stand-ins: a closure that
        // captures a closure)
        let numbered = |t: &str| t.replace(STAND_IN, &format!("{STAND_IN}{i}_"));
        let ty = numbered(ty);
        let decls: Vec<String> = structs
            .iter()
            .enumerate()
            .map(|(j, f)| {
                let f = f.replace(STAND_IN, &format!("{STAND_IN}{i}_"));
                match split_fn_item(&f) {
                    Some((args, out)) => fn_item_decl(&format!("{STAND_IN}{i}_{j}"), args, out),
                    None => format!("{allow} struct {STAND_IN}{i}_{j}({f});"),
                }
            })
            .collect();
        return format!("#[{attr}] {allow} type __oxide_layout_{i} = {ty}; {}", decls.join(" "));
    }
    match name.strip_prefix(STRUCT_PROBE).and_then(|f| f.strip_suffix(')')) {
        Some(fields) => {
            format!("#[{attr}] {allow} type __oxide_layout_{i} = __oxide_struct_{i}; {allow} struct __oxide_struct_{i}({fields});")
        }
        None => format!("#[{attr}] {allow} type __oxide_layout_{i} = {name};"),
    }
}

/// A function item's stand-in (`fn_item_stand_in`): a unit struct with
/// the closure traits of its signature, so that it meets the `F:
/// FnMut(char) -> bool` bound of a struct it is an argument of (core's
/// private `MultiCharEqSearcher<'a, C: MultiCharEq>`, which `str::trim`
/// builds over `char::is_whitespace`); zero-sized, align 1, without
/// niches, as the function item. The probe enables `unboxed_closures`
/// and `fn_traits` for it (driver.rs).
pub fn fn_item_stand_in(args_tuple: &str, output: &str) -> String {
    format!("{FN_ITEM}{args_tuple}{FN_SEP}{output}")
}

const FN_ITEM: &str = "\u{1d}fn item ";
const FN_SEP: char = '\u{1c}';

fn split_fn_item(f: &str) -> Option<(&str, &str)> {
    f.strip_prefix(FN_ITEM)?.split_once(FN_SEP)
}

/// The declaration of fn item stand-in `name` (`fn_item_stand_in`): the
/// probe spells references `&'static`; each of the arguments' becomes a
/// lifetime of the impls (a closure-trait bound is for all of them), and
/// the output's takes the arguments' one when there is exactly one (the
/// signature's elided lifetime).
fn fn_item_decl(name: &str, args: &str, out: &str) -> String {
    let mut lts = Vec::new();
    let mut generic_args = String::new();
    let mut rest = args;
    while let Some(at) = rest.find("'static") {
        generic_args.push_str(&rest[..at]);
        let lt = format!("'__ox{}", lts.len());
        generic_args.push_str(&lt);
        lts.push(lt);
        rest = &rest[at + "'static".len()..];
    }
    generic_args.push_str(rest);
    let out = match lts.as_slice() {
        [one] => out.replace("'static", one),
        _ => out.to_string(),
    };
    let params = match lts.is_empty() {
        true => String::new(),
        false => format!("<{}>", lts.join(", ")),
    };
    let a = generic_args;
    format!(
        "#[allow(non_camel_case_types, dead_code)] #[derive(Clone, Copy)] struct {name}; \
         impl{params} ::core::ops::FnOnce<{a}> for {name} {{ type Output = {out}; extern \"rust-call\" fn call_once(self, _: {a}) -> {out} {{ loop {{}} }} }} \
         impl{params} ::core::ops::FnMut<{a}> for {name} {{ extern \"rust-call\" fn call_mut(&mut self, _: {a}) -> {out} {{ loop {{}} }} }} \
         impl{params} ::core::ops::Fn<{a}> for {name} {{ extern \"rust-call\" fn call(&self, _: {a}) -> {out} {{ loop {{}} }} }}"
    )
}

const STRUCT_PROBE: &str = "struct (";
const WITH_STAND_INS: &str = "with stand-ins ";
/// The name of stand-in `J` in a `stand_ins_probe_name`'s type.
pub const STAND_IN: &str = "__oxide_standin_";
const STRUCT_SEP: char = '\u{1f}';
const TYPE_SEP: char = '\u{1e}';
const IN_BLOCK: &str = "in the block at byte ";

/// The probe name of `name` (a probe name spelled for that block) to be
/// probed inside the block whose `{` is at byte `at` of the crate root:
/// a type that mentions a type declared in a function body, which no path
/// from the crate root names (`misc_local_types::Local` is `Local` in
/// `misc_local_types`'s body).
pub fn in_block_probe_name(at: usize, name: &str) -> String {
    format!("{IN_BLOCK}{at}: {name}")
}

/// Whether `name` is spelled from the crate root, as a type: not inside
/// a block, not a declared struct or stand-ins (whose declarations only
/// the layout probe writes).
pub fn is_root_probe_name(name: &str) -> bool {
    split_in_block(name).0.is_none() && !name.starts_with(STRUCT_PROBE) && split_stand_ins(name).is_none()
}

/// A plain type's name placed in a block (`in_block_probe_name`): the
/// byte of the block's `{` and the name spelled there; `None` for other
/// names, and for declared structs and stand-ins.
pub fn in_block_type_name(name: &str) -> Option<(usize, &str)> {
    match split_in_block(name) {
        (Some(at), n) if is_root_probe_name(n) => Some((at, n)),
        _ => None,
    }
}

fn split_in_block(name: &str) -> (Option<usize>, &str) {
    let parsed = name.strip_prefix(IN_BLOCK).and_then(|r| r.split_once(": ")).and_then(|(at, n)| Some((at.parse().ok()?, n)));
    match parsed {
        Some((at, n)) => (Some(at), n),
        None => (None, name),
    }
}

/// The probe name of a tuple struct of `fields` (probe names, in order)
/// that the probe declares (`struct (&'static mut ::arrayvec::ArrayVec<u32,
/// 16>, usize, usize, usize)`): rustc lays out a plain struct (no
/// `#[repr]`, sized) and a closure by the same rule from their field types
/// alone, so this is the layout of a closure or struct that cannot be named
/// there. A tuple of those types is not: rustc never moves a tuple's last
/// field (a tuple may be unsized there), so `(u8, u64, u16, *mut u64)` has
/// offsets 10, 0, 8, 16 where the struct has 18, 0, 16, 8.
pub fn struct_probe_name(fields: &[String]) -> String {
    format!("{STRUCT_PROBE}{})", fields.join(", "))
}

/// The probe name of a type that contains closures (`TakeWhile<Iter<'_,
/// u64>, {closure@..}>`), which no Rust source names: `ty` is its probe
/// name with the `J`-th closure written `__oxide_standin_J` (`STAND_IN`),
/// `structs[J]` that closure's capture types (probe names, joined by `, `;
/// a captured closure written as its own stand-in, `__oxide_standin_K`).
/// The probe declares `struct __oxide_standin_I_J(CAPTURES);` beside the
/// alias (`I` its index) and asks for `ty` with those structs: a closure
/// and the tuple struct of its capture types have one layout
/// (`struct_probe_name`; the same field types, so the same offsets and the
/// same niches), and so do the types that contain them.
pub fn stand_ins_probe_name(ty: &str, structs: &[String]) -> String {
    let joined: Vec<&str> = structs.iter().map(String::as_str).collect();
    format!("{WITH_STAND_INS}{}{TYPE_SEP}{ty}", joined.join(&STRUCT_SEP.to_string()))
}

/// `(ty, structs)` of a `stand_ins_probe_name`.
fn split_stand_ins(name: &str) -> Option<(&str, Vec<&str>)> {
    let (structs, ty) = name.strip_prefix(WITH_STAND_INS)?.split_once(TYPE_SEP)?;
    Some((ty, structs.split(STRUCT_SEP).collect()))
}

/// Reads the probe's JSON diagnostics: `result[i]` is the layout of
/// `names[i]`, or the first error rustc gave for its alias.
pub fn read_probe_output(stderr: &str, probe: &ProbeSource, minor: u32) -> Vec<Result<Layout, String>> {
    read_probe_diags(stderr, probe, "layout", |msg| msg.starts_with("layout_of(").then(|| parse_layout_message(msg, minor)))
}

/// The element counts of the probe's `[(); N]` types (`fields: Array {
/// stride: Size(0 bytes), count: N }`): rustc's value of each `N`
/// (export/probed_consts.rs).
pub fn read_probe_counts(stderr: &str, probe: &ProbeSource) -> Vec<Result<u64, String>> {
    read_probe_diags(stderr, probe, "layout", |msg| msg.starts_with("layout_of(").then(|| array_count(msg)))
}

fn array_count(msg: &str) -> Result<u64, String> {
    let body = msg.split_once(" = ").ok_or("unexpected layout message")?.1;
    let tree = DebugParser { s: body, pos: 0 }.value()?;
    let fields = tree.field("fields")?;
    if fields.name() != "Array" {
        return Err("the probe's type is not an array".into());
    }
    let n = fields.field("count")?.uint()?;
    u64::try_from(n).map_err(|_| format!("array count {n} out of range"))
}

/// A probe's answer per alias (the layout probe's and the vtable
/// probe's): what `parse` makes of the first message it reads (None: not
/// its message), else the first error rustc gave for that alias, else
/// "rustc printed no WHAT".
pub fn read_probe_diags<T: Clone>(
    stderr: &str,
    probe: &ProbeSource,
    what: &str,
    parse: impl Fn(&str) -> Option<Result<T, String>>,
) -> Vec<Result<T, String>> {
    let mut out: Vec<Option<Result<T, String>>> = vec![None; probe.aliases.len()];
    for line in stderr.lines().filter(|l| l.starts_with('{')) {
        let Ok(diag) = json::parse(line) else { continue };
        let Some(Json::Str(msg)) = diag.get("message") else { continue };
        let Some(i) = probe_index(&diag, &probe.aliases) else { continue };
        let result = match parse(msg) {
            Some(r) => r,
            None if matches!(diag.get("level"), Some(Json::Str(l)) if l == "error") => Err(msg.clone()),
            None => continue,
        };
        if out[i].as_ref().is_none_or(|r| r.is_err() && result.is_ok()) {
            out[i] = Some(result);
        }
    }
    let unplaced = probe.aliases.iter().map(|a| a.as_ref().err().cloned());
    out.into_iter()
        .zip(unplaced)
        .map(|(r, unplaced)| match (r, unplaced) {
            (_, Some(e)) => Err(e),
            (Some(r), None) => r,
            (None, None) => Err(format!("rustc printed no {what}")),
        })
        .collect()
}

/// Which alias a diagnostic points into (by its first span's byte offset).
pub fn probe_index(diag: &Json, aliases: &[Result<std::ops::Range<usize>, String>]) -> Option<usize> {
    let Some(Json::Arr(spans)) = diag.get("spans") else { return None };
    let Some(Json::Int(at)) = spans.first()?.get("byte_start") else { return None };
    let at = usize::try_from(*at).ok()?;
    aliases.iter().position(|a| a.as_ref().is_ok_and(|r| r.contains(&at)))
}

/// One `layout_of(T) = Layout { .. }` message of rustc 1.`minor`.
pub fn parse_layout_message(msg: &str, minor: u32) -> Result<Layout, String> {
    let body = msg.split_once(" = ").ok_or("unexpected layout message")?.1;
    let tree = DebugParser { s: body, pos: 0 }.value()?;
    layout_from_tree(&tree, rustc_compat::variant_layout_form(minor))
}

// ---- the Debug tree ---------------------------------------------------------

/// A `{:#?}` value: `Name { k: v }`, `Name(a, b)`, `[a, b]` or an atom.
#[derive(Clone, Debug, PartialEq)]
enum Dbg {
    Atom(String),
    Struct(String, Vec<(String, Dbg)>),
    Tuple(String, Vec<Dbg>),
    List(Vec<Dbg>),
}

impl Dbg {
    fn field(&self, name: &str) -> Result<&Dbg, String> {
        match self {
            Dbg::Struct(_, fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
        .ok_or_else(|| format!("layout has no `{name}`"))
    }

    fn name(&self) -> &str {
        match self {
            Dbg::Struct(n, _) | Dbg::Tuple(n, _) | Dbg::Atom(n) => n,
            Dbg::List(_) => "",
        }
    }

    fn items(&self) -> &[Dbg] {
        match self {
            Dbg::Tuple(_, v) | Dbg::List(v) => v,
            _ => &[],
        }
    }

    fn atom(&self) -> &str {
        match self {
            Dbg::Atom(a) => a,
            _ => "",
        }
    }

    /// `Size(8 bytes)` / `Align(8 bytes)` → 8; `AbiAlign { abi: .. }` too.
    fn bytes(&self) -> Result<u64, String> {
        if let Ok(abi) = self.field("abi") {
            return abi.bytes();
        }
        let text = self.items().first().map(Dbg::atom).unwrap_or(self.atom());
        let n = text.trim_end_matches(" bytes").trim_end_matches(" byte");
        n.parse().map_err(|_| format!("bad size `{text}` in layout"))
    }

    fn uint(&self) -> Result<u128, String> {
        self.atom().parse().map_err(|_| format!("expected a number in layout, found `{}`", self.atom()))
    }
}

struct DebugParser<'a> {
    s: &'a str,
    pos: usize,
}

impl DebugParser<'_> {
    fn ws(&mut self) {
        let rest = &self.s[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        let yes = self.peek() == Some(c);
        self.pos += yes as usize;
        yes
    }

    fn value(&mut self) -> Result<Dbg, String> {
        self.ws();
        if self.eat('[') {
            return Ok(Dbg::List(self.seq(']', Self::value)?));
        }
        if self.peek() == Some('(') {
            return Ok(Dbg::Atom(self.raw_value()));
        }
        let name = self.atom();
        if self.eat('{') {
            let fields = self.seq('}', |p| {
                p.ws();
                let key = p.atom();
                if !p.eat(':') {
                    return Err(format!("expected `:` after `{key}` in layout"));
                }
                // Valid ranges print as `a..=b` or `(..=b) | (a..)`.
                let v = if key == "valid_range" { Dbg::Atom(p.raw_value()) } else { p.value()? };
                Ok((key, v))
            })?;
            return Ok(Dbg::Struct(name, fields));
        }
        if self.eat('(') {
            return Ok(Dbg::Tuple(name, self.seq(')', Self::value)?));
        }
        Ok(Dbg::Atom(name))
    }

    fn seq<T>(&mut self, close: char, mut item: impl FnMut(&mut Self) -> Result<T, String>) -> Result<Vec<T>, String> {
        let mut out = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(out);
            }
            out.push(item(self)?);
            if self.eat(close) {
                return Ok(out);
            }
            if !self.eat(',') {
                return Err(format!("expected `,` or `{close}` in layout at byte {}", self.pos));
            }
        }
    }

    /// Text up to the next delimiter: `8 bytes`, `0..=255`, `I32`.
    fn atom(&mut self) -> String {
        self.ws();
        let rest = &self.s[self.pos..];
        let end = rest.find(|c: char| "{}()[],:\n".contains(c)).unwrap_or(rest.len());
        self.pos += end;
        rest[..end].trim().to_string()
    }

    /// Text up to a `,` or closing bracket at depth 0.
    fn raw_value(&mut self) -> String {
        self.ws();
        let rest = &self.s[self.pos..];
        let mut depth = 0i32;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => {
                    end = i;
                    break;
                }
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        self.pos += end;
        rest[..end].trim().to_string()
    }
}

// ---- from the tree to a Layout --------------------------------------------

fn layout_from_tree(t: &Dbg, form: VariantLayoutForm) -> Result<Layout, String> {
    let size = t.field("size")?.bytes()?;
    let align = t.field("align")?.bytes()?;
    let repr = t.field("backend_repr").or_else(|_| t.field("abi"))?;
    let uninhabited = t.field("uninhabited").is_ok_and(|u| u.atom() == "true");
    let (abi, scalars) = backend_repr(repr, uninhabited)?;
    let fields = field_offsets(t.field("fields")?)?;
    let variants_tree = t.field("variants")?;
    let (variants, single_variant) = match variants_tree.name() {
        "Multiple" => (Some(multiple_variants(variants_tree, &fields, form)?), None),
        _ => (None, variants_tree.field("index").ok().and_then(|i| i.uint().ok()).map(|i| i as u32)),
    };
    Ok(Layout { size, align, abi, scalars, fields, variants, single_variant })
}

fn backend_repr(repr: &Dbg, uninhabited: bool) -> Result<(&'static str, Vec<Scalar>), String> {
    if uninhabited || repr.name() == "Uninhabited" {
        return Ok(("uninhabited", vec![]));
    }
    Ok(match repr.name() {
        "Scalar" => ("scalar", vec![scalar(&repr.items()[0])?]),
        "ScalarPair" => ("scalar_pair", repr.items().iter().map(scalar).collect::<Result<_, _>>()?),
        "Vector" | "SimdVector" => ("vector", vec![]),
        _ => ("memory", vec![]),
    })
}

/// `Initialized { value: Int(I8, true), valid_range: 0..=255 }` or
/// `Union { value: ... }`.
fn scalar(t: &Dbg) -> Result<Scalar, String> {
    let value = t.field("value")?;
    let mut s = match value.name() {
        "Int" => {
            let bits: u32 = value.items()[0].atom().trim_start_matches('I').parse().map_err(|_| "bad integer size")?;
            Scalar::int(bits, value.items().get(1).is_some_and(|b| b.atom() == "true"))
        }
        "Float" => Scalar::float(value.items()[0].atom().trim_start_matches('F').parse().map_err(|_| "bad float size")?),
        "Pointer" => Scalar::ptr(false),
        other => return Err(format!("unknown scalar kind `{other}` in layout")),
    };
    if let Ok(r) = t.field("valid_range") {
        let (start, end) = wrapping_range(r.atom())?;
        let (start, end) = rustc_compat::normalize_valid_range(start, end, s.valid_end);
        s = s.with_range(start, end);
    }
    Ok(s)
}

/// `a..=b`, or `(..=b) | (a..)` for a range that wraps around.
fn wrapping_range(text: &str) -> Result<(u128, u128), String> {
    let num = |s: &str| s.trim().parse::<u128>().map_err(|_| format!("bad valid range `{text}`"));
    if let Some((lo, hi)) = text.split_once(" | ") {
        let end = lo.trim_matches(|c| c == '(' || c == ')').trim_start_matches("..=");
        let start = hi.trim_matches(|c| c == '(' || c == ')').trim_end_matches("..");
        return Ok((num(start)?, num(end)?));
    }
    let (a, b) = text.split_once("..=").ok_or(format!("bad valid range `{text}`"))?;
    Ok((num(a)?, num(b)?))
}

/// `Arbitrary { offsets: [...], .. }`, `Primitive`, `Union(N)`,
/// `Array { stride, count }` → offsets by declaration index.
fn field_offsets(t: &Dbg) -> Result<Vec<u64>, String> {
    match t.name() {
        "Arbitrary" => t.field("offsets")?.items().iter().map(Dbg::bytes).collect(),
        "Union" => {
            let n = t.items().first().map_or(Ok(0), Dbg::uint)?;
            Ok(vec![0; n as usize])
        }
        "Array" => Ok(vec![0]),
        _ => Ok(vec![]),
    }
}

fn multiple_variants(t: &Dbg, outer_fields: &[u64], form: VariantLayoutForm) -> Result<Variants, String> {
    let tag_field = t.field("tag_field")?.uint()? as u32;
    let encoding = match t.field("tag_encoding")? {
        e if e.name() == "Direct" => TagEncoding::Direct,
        e => {
            let range = e.field("niche_variants")?.atom();
            let (a, b) = range.split_once("..=").ok_or("bad niche_variants")?;
            let n = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("bad niche_variants `{range}`"));
            TagEncoding::Niche {
                untagged_variant: e.field("untagged_variant")?.uint()? as u32,
                niche_variants: (n(a)?, n(b)?),
                niche_start: e.field("niche_start")?.uint()?,
            }
        }
    };
    let layouts = t
        .field("variants")?
        .items()
        .iter()
        .map(|v| {
            let size = v.field("size")?.bytes()?;
            Ok(match form {
                VariantLayoutForm::FullLayout => {
                    VariantLayout { size, align: Some(v.field("align")?.bytes()?), fields: field_offsets(v.field("fields")?)? }
                }
                VariantLayoutForm::VariantLayout => {
                    if v.name() != "VariantLayout" {
                        return Err(format!("expected a `VariantLayout` in the variants, found `{}`", v.name()));
                    }
                    let fields = v.field("field_offsets")?.items().iter().map(Dbg::bytes).collect::<Result<_, _>>()?;
                    VariantLayout { size, align: None, fields }
                }
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(Variants {
        tag: scalar(t.field("tag")?)?,
        tag_offset: outer_fields.get(tag_field as usize).copied().unwrap_or(0),
        tag_field,
        encoding,
        layouts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Abridged from rustc 1.95 `#[rustc_layout(debug)]` output.
    const OPTION_REF: &str = "layout_of(Option<&mut f32>) = Layout {
    size: Size(8 bytes),
    align: AbiAlign {
        abi: Align(8 bytes),
    },
    backend_repr: Scalar(
        Initialized {
            value: Pointer(
                AddressSpace(
                    0,
                ),
            ),
            valid_range: (..=0) | (1..),
        },
    ),
    fields: Arbitrary {
        offsets: [
            Size(0 bytes),
        ],
        in_memory_order: [
            0,
        ],
    },
    largest_niche: None,
    uninhabited: false,
    variants: Multiple {
        tag: Initialized {
            value: Pointer(
                AddressSpace(
                    0,
                ),
            ),
            valid_range: (..=0) | (1..),
        },
        tag_encoding: Niche {
            untagged_variant: 1,
            niche_variants: 0..=0,
            niche_start: 0,
        },
        tag_field: 0,
        variants: [
            Layout {
                size: Size(0 bytes),
                align: AbiAlign {
                    abi: Align(1 bytes),
                },
                backend_repr: Memory {
                    sized: true,
                },
                fields: Arbitrary {
                    offsets: [],
                    in_memory_order: [],
                },
                largest_niche: None,
                uninhabited: false,
                variants: Single {
                    index: 0,
                },
                max_repr_align: None,
                unadjusted_abi_align: Align(1 bytes),
                randomization_seed: 1910569334020309338,
            },
            Layout {
                size: Size(8 bytes),
                align: AbiAlign {
                    abi: Align(8 bytes),
                },
                backend_repr: Scalar(
                    Initialized {
                        value: Pointer(
                            AddressSpace(
                                0,
                            ),
                        ),
                        valid_range: 1..=18446744073709551615,
                    },
                ),
                fields: Arbitrary {
                    offsets: [
                        Size(0 bytes),
                    ],
                    in_memory_order: [
                        0,
                    ],
                },
                largest_niche: None,
                uninhabited: false,
                variants: Single {
                    index: 1,
                },
                max_repr_align: None,
                unadjusted_abi_align: Align(8 bytes),
                randomization_seed: 1,
            },
        ],
    },
    max_repr_align: None,
    unadjusted_abi_align: Align(8 bytes),
    randomization_seed: 1,
}";

    /// rustc 1.96's answer for `[(); (<<sha2::Sha256VarCore as
    /// BlockSizeUser>::BlockSize as Unsigned>::USIZE) as usize]` and for
    /// typenum's `N3::I8 as usize` (-3).
    #[test]
    fn array_counts_are_constant_values() {
        let msg = |n: &str| {
            format!(
                "layout_of([(); {n}]) = Layout {{\n    size: Size(0 bytes),\n    align: AbiAlign {{\n        abi: Align(1 bytes),\n    }},\n    \
                 backend_repr: Memory {{\n        sized: true,\n    }},\n    fields: Array {{\n        stride: Size(0 bytes),\n        count: {n},\n    }},\n    \
                 largest_niche: None,\n    uninhabited: false,\n    variants: Single {{\n        index: 0,\n    }},\n    max_repr_align: None,\n    \
                 unadjusted_abi_align: Align(1 bytes),\n    randomization_seed: 64,\n}}"
            )
        };
        assert_eq!(array_count(&msg("64")), Ok(64));
        assert_eq!(array_count(&msg("18446744073709551613")), Ok((-3i64) as u64));
        assert!(array_count(OPTION_REF).is_err(), "not an array");
    }

    #[test]
    fn niche_option() {
        let l = parse_layout_message(OPTION_REF, 95).unwrap();
        assert_eq!((l.size, l.align, l.abi), (8, 8, "scalar"));
        assert_eq!(l.scalars[0].prim, "ptr");
        assert_eq!((l.scalars[0].valid_start, l.scalars[0].valid_end), (0, u64::MAX as u128)); // FULL_VALID_RANGE
        let v = l.variants.unwrap();
        assert_eq!(v.encoding, TagEncoding::Niche { untagged_variant: 1, niche_variants: (0, 0), niche_start: 0 });
        assert_eq!(v.layouts[1].fields, vec![0]);
        assert_eq!(v.layouts.len(), 2);
    }

    #[test]
    fn reordered_struct_and_scalar_pair() {
        let pt = "layout_of(Pt) = Layout {\n    size: Size(16 bytes),\n    align: AbiAlign {\n        abi: Align(8 bytes),\n    },\n    backend_repr: Memory {\n        sized: true,\n    },\n    fields: Arbitrary {\n        offsets: [\n            Size(8 bytes),\n            Size(12 bytes),\n            Size(0 bytes),\n        ],\n        in_memory_order: [\n            2,\n            0,\n            1,\n        ],\n    },\n    largest_niche: None,\n    uninhabited: false,\n    variants: Single {\n        index: 0,\n    },\n    max_repr_align: None,\n    unadjusted_abi_align: Align(8 bytes),\n    randomization_seed: 6083454158693939722,\n}";
        let l = parse_layout_message(pt, 95).unwrap();
        assert_eq!(l.fields, vec![8, 12, 0]);
        assert_eq!(l.abi, "memory");
        let pair = "layout_of((u8, i64)) = Layout {\n    size: Size(16 bytes),\n    align: AbiAlign {\n        abi: Align(8 bytes),\n    },\n    backend_repr: ScalarPair(\n        Initialized {\n            value: Int(\n                I8,\n                false,\n            ),\n            valid_range: 0..=255,\n        },\n        Initialized {\n            value: Int(\n                I64,\n                true,\n            ),\n            valid_range: 0..=18446744073709551615,\n        },\n    ),\n    fields: Arbitrary {\n        offsets: [\n            Size(0 bytes),\n            Size(8 bytes),\n        ],\n        in_memory_order: [\n            0,\n            1,\n        ],\n    },\n    largest_niche: None,\n    uninhabited: false,\n    variants: Single {\n        index: 0,\n    },\n    max_repr_align: None,\n    unadjusted_abi_align: Align(8 bytes),\n    randomization_seed: 71776127651151873,\n}";
        let l = parse_layout_message(pair, 95).unwrap();
        assert_eq!(l.abi, "scalar_pair");
        assert_eq!((l.scalars[0].prim.as_str(), l.scalars[1].prim.as_str(), l.scalars[1].signed), ("i8", "i64", true));
        assert_eq!(l.scalars[1].valid_end, u64::MAX as u128);
    }

    #[test]
    fn struct_probes_declare_their_struct() {
        let names = vec!["u8".to_string(), struct_probe_name(&["u8".into(), "&'static mut ::a::B<u32, 16>".into()]), struct_probe_name(&[])];
        let p = probe_source("fn main() {}", "rustc_layout(debug)", &names);
        let lines: Vec<&str> = p.text.lines().collect();
        assert!(lines[2].ends_with("type __oxide_layout_0 = u8;"), "{}", p.text);
        assert!(lines[3].contains("type __oxide_layout_1 = __oxide_struct_1; #[allow(non_camel_case_types, dead_code)] struct __oxide_struct_1(u8, &'static mut ::a::B<u32, 16>);"), "{}", p.text);
        assert!(lines[4].ends_with("type __oxide_layout_2 = __oxide_struct_2; #[allow(non_camel_case_types, dead_code)] struct __oxide_struct_2();"), "{}", p.text);
        let at = |i: usize| p.aliases[i].clone().unwrap();
        assert!(p.text[at(0)].starts_with("#[rustc_layout(debug)]") && p.text[at(0)].ends_with("= u8;"));
        assert!(p.text[at(1)].ends_with("&'static mut ::a::B<u32, 16>);"));
    }

    #[test]
    fn block_probes_go_inside_their_block_on_its_line() {
        // `fn a() { struct L(u8); }` and `fn b` with its own `L`: each
        // alias inside its function's body, where `L` is that body's
        let src = "fn a() { struct L(u8); }\nfn b() {\n    struct L(u64);\n}\n";
        let (a, b) = (src.find('{').unwrap(), src.rfind("() {").unwrap() + 3);
        let names = vec![
            in_block_probe_name(b, "L"),
            "u8".to_string(),
            in_block_probe_name(a, "[L; 2]"),
            in_block_probe_name(a, &struct_probe_name(&["L".into()])),
            in_block_probe_name(5, "L"),
        ];
        let p = probe_source(src, "rustc_layout(debug)", &names);
        let lines: Vec<&str> = p.text.lines().collect();
        assert!(lines[0].starts_with("fn a() {#[rustc_layout(debug)] #[allow(non_camel_case_types, dead_code)] type __oxide_layout_2 = [L; 2];"), "{}", p.text);
        assert!(lines[0].ends_with("struct __oxide_struct_3(L); struct L(u8); }"), "{}", p.text);
        assert!(lines[1].starts_with("fn b() {#[rustc_layout(debug)]") && lines[1].ends_with("type __oxide_layout_0 = L;"), "{}", p.text);
        assert_eq!((lines[2], lines[3]), ("    struct L(u64);", "}"));
        assert!(lines[5].ends_with("type __oxide_layout_1 = u8;"), "{}", p.text);
        for (i, ends) in [(0, "= L;"), (1, "= u8;"), (2, "= [L; 2];"), (3, "(L);")] {
            let r = p.aliases[i].clone().unwrap();
            assert!(p.text[r.clone()].starts_with("#[rustc_layout(debug)]") && p.text[r].ends_with(ends), "{i}: {}", p.text);
        }
        assert!(p.aliases[4].as_ref().unwrap_err().contains("expected a `{` at byte 5"));
        // rustc's answers by byte offset: the alias of `b`'s `L` is on line 2
        let b_alias = p.aliases[0].clone().unwrap();
        let stderr = format!(
            "{{\"message\":\"layout_of(b::L) = Layout {{ size: Size(8 bytes), align: AbiAlign {{ abi: Align(8 bytes) }}, backend_repr: Memory {{ sized: true }}, fields: Primitive, uninhabited: false, variants: Single {{ index: 0 }} }}\",\"level\":\"error\",\"spans\":[{{\"byte_start\":{},\"line_start\":2}}]}}\n\
             {{\"message\":\"unused variable\",\"level\":\"error\",\"spans\":[{{\"byte_start\":{},\"line_start\":2}}]}}",
            b_alias.start + 24,
            b_alias.end + 1
        );
        let r = read_probe_output(&stderr, &p, 95);
        assert_eq!(r[0].as_ref().unwrap().size, 8);
        assert_eq!(r[1].as_ref().unwrap_err(), "rustc printed no layout");
        assert!(r[4].as_ref().unwrap_err().contains("expected a `{`"));
    }

    #[test]
    fn probe_aliases_map_to_types() {
        let p = probe_source("fn main() {}", "rustc_layout(debug)", &["u8".to_string(), "::core::iter::adapters::Zip".to_string()]);
        let (a0, a1) = (p.aliases[0].clone().unwrap(), p.aliases[1].clone().unwrap());
        let stderr = format!(r#"{{"$message_type":"diagnostic","message":"cannot find type `Zip` in module `core::iter::adapters`","level":"error","spans":[{{"byte_start":{},"line_start":4}}]}}
{{"$message_type":"diagnostic","message":"layout_of(u8) = Layout {{ size: Size(1 bytes), align: AbiAlign {{ abi: Align(1 bytes) }}, backend_repr: Memory {{ sized: true }}, fields: Primitive, uninhabited: false, variants: Single {{ index: 0 }} }}","level":"error","spans":[{{"byte_start":{},"line_start":3}}]}}"#, a1.end - 5, a0.start);
        let r = read_probe_output(&stderr, &p, 95);
        assert_eq!(r[0].as_ref().unwrap().size, 1);
        assert!(r[1].as_ref().unwrap_err().contains("cannot find"));
    }
}
