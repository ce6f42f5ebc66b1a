//! Library bodies: core's own MIR, built from the library sources of the
//! rustc in use (docs/DESIGN.md, "Library bodies").
//!
//! rustc's `--emit=mir` of the kernel crate holds only the kernel crate's
//! bodies; what its inliner left as calls into core, and the statics core
//! code reads (the Unicode tables), have no MIR there. When the rustc has
//! its library sources (`SYSROOT/lib/rustlib/src/rust/library`: rustup's
//! `rust-src` component, Debian's `rust-web-src` for /usr/bin/rustc),
//! core is compiled once for `nvptx64-nvidia-cuda` with the kernel
//! crate's MIR flags and `--emit=mir`, and the text is cached per rustc
//! build and flags (`cache_dir`); a later export only reads it. It is
//! built lazily, the first time an export needs something of it.
//!
//! The text is indexed, not parsed: a body, static or allocation is
//! parsed when it is needed. core prints its own paths without the crate
//! name (`unicode::unicode_data::n::lookup`): `in_core_spelling` writes
//! them as the kernel crate sees them (`core::unicode::...`). Allocation
//! ids are core's, moved by `ALLOC_BASE` so they never meet the kernel
//! crate's.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diag::{Code, DResult, Diag};
use crate::driver::{io_err, RustcCommand, MIR_FLAGS};
use crate::mirparse::ast::{Alloc, Body};
use crate::mirparse::parse_mir_file;
use crate::toolchain::RustcInfo;

/// Imported allocation `N` of core is `ALLOC_BASE + N` in the export;
/// allocation `N` of the `k`th dependency loaded, `DEP_ALLOC_BASE + k *
/// ALLOC_SPAN + N`. Every id from `ALLOC_BASE` up is imported.
pub const ALLOC_BASE: u32 = 0x4000_0000;
pub const ALLOC_SPAN: u32 = 0x0100_0000;
pub const DEP_ALLOC_BASE: u32 = 0x5000_0000;

/// The target core is compiled for.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// Set to `0` to never build or read core's or a dependency's MIR.
pub const ENV_DISABLE: &str = "OXIDE_MIR_EXPORT_LIBRARY";
/// The cache directory (default `$XDG_CACHE_HOME/oxide-mir-export`, else
/// `~/.cache/oxide-mir-export`).
pub const ENV_CACHE: &str = "OXIDE_MIR_EXPORT_CACHE";

/// Which package gives a rustc its library sources, for error messages.
pub const RUST_SRC_HINT: &str = "library bodies need the library sources of the rustc in use \
(`rustup component add rust-src`; for Debian's /usr/bin/rustc the package rust-web-src)";

/// Where the library sources of `rustc` are, and whether they are usable.
pub enum Source {
    /// `library/` of the sysroot (holds `core/src/lib.rs`).
    Found(PathBuf),
    /// None, or disabled: the reason, for messages.
    Missing(String),
}

pub fn find_source(rustc: &RustcInfo) -> Source {
    if std::env::var(ENV_DISABLE).is_ok_and(|v| v == "0") {
        return Source::Missing(format!("{ENV_DISABLE}=0 turned library bodies off"));
    }
    let Some(sysroot) = &rustc.sysroot else {
        return Source::Missing(format!("`{} --print sysroot` failed", rustc.path.display()));
    };
    let lib = sysroot.join("lib/rustlib/src/rust/library");
    if lib.join("core/src/lib.rs").is_file() {
        Source::Found(lib)
    } else {
        Source::Missing(format!("rustc {} has no library sources", rustc.release))
    }
}

/// A crate of the rustc's library sources whose MIR an export reads:
/// core, and alloc (`extern crate alloc` in a kernel crate: `Vec`, `Box`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SysCrate {
    Core,
    Alloc,
}

impl SysCrate {
    pub fn name(self) -> &'static str {
        match self {
            SysCrate::Core => "core",
            SysCrate::Alloc => "alloc",
        }
    }

    /// Its root source file under the library sources `lib`.
    pub fn root(self, lib: &Path) -> PathBuf {
        lib.join(self.name()).join("src/lib.rs")
    }

    /// Its allocation `N` is `alloc_base + N` in the export.
    fn alloc_base(self) -> u32 {
        match self {
            SysCrate::Core => ALLOC_BASE,
            SysCrate::Alloc => ALLOC_BASE + ALLOC_SPAN,
        }
    }
}

/// The directory of the cache files.
fn cache_dir() -> PathBuf {
    match std::env::var_os(ENV_CACHE) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match (std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME")) {
            (Some(x), _) if !x.is_empty() => PathBuf::from(x).join("oxide-mir-export"),
            (_, Some(h)) => PathBuf::from(h).join(".cache/oxide-mir-export"),
            _ => std::env::temp_dir().join("oxide-mir-export"),
        },
    }
}

/// The cache file of core's MIR for this rustc build and these flags.
pub fn cache_file(rustc: &RustcInfo) -> PathBuf {
    sys_cache_file(rustc, SysCrate::Core, &sys_flags(SysCrate::Core, None))
}

/// The cache file of a library crate's MIR built with `flags`: the crate,
/// the release, the commit and a hash of the flags and the rustc's `-vV`.
fn sys_cache_file(rustc: &RustcInfo, krate: SysCrate, flags: &[String]) -> PathBuf {
    let commit: String = rustc.commit_hash.chars().take(12).collect();
    let h = fnv1a(flags.iter().map(String::as_str).chain([rustc.verbose.as_str(), "strip-v2"]));
    cache_dir().join(format!("{}-{}-{commit}-{h:016x}.mir", krate.name(), rustc.release))
}

/// FNV-1a of `parts`, each ended by a zero byte: a cache file's key.
pub(crate) fn fnv1a<'s>(parts: impl IntoIterator<Item = &'s str>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0]) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// Writes a cache file's MIR `text` and its `index` beside it, each
/// through a temporary and a rename, the index last: a cache file without
/// its index is built again.
fn write_cache(file: &Path, text: &str, index: &Index) -> DResult<()> {
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    let tmp_idx = file.with_extension(format!("idxtmp{}", std::process::id()));
    fs::write(&tmp, text).map_err(|e| io_err(&tmp, e))?;
    fs::write(&tmp_idx, index.serialize()).map_err(|e| io_err(&tmp_idx, e))?;
    fs::rename(&tmp, file).map_err(|e| io_err(file, e))?;
    fs::rename(&tmp_idx, index_file(file)).map_err(|e| io_err(file, e))
}

/// A library crate's rustc flags besides the sources and the output: the
/// kernel crate's MIR flags, for the GPU target. alloc is compiled against
/// the device sysroot (`ensure_sysroot`: core's metadata for the target).
fn sys_flags(krate: SysCrate, sysroot: Option<&Path>) -> Vec<String> {
    let mut f: Vec<String> = ["--edition=2024", "--crate-type=rlib"].iter().map(|s| s.to_string()).collect();
    f.push(format!("--crate-name={}", krate.name()));
    f.push("-Zforce-unstable-if-unmarked".into());
    f.push(format!("--target={TARGET}"));
    f.extend(MIR_FLAGS.iter().map(|s| s.to_string()));
    if let Some(root) = sysroot {
        f.push(format!("--sysroot={}", root.display()));
    }
    f
}

/// The first 20 lines of a failed rustc's stderr, for an error message.
fn stderr_head(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).lines().take(20).collect::<Vec<_>>().join("\n")
}

/// The index written next to a cache file, its format in its name
/// (`core-1.95.0-….v2.idx`): builds of mir-export that read different
/// formats share the cache directory, and each reads and writes only the
/// file of its own format (an older one refuses a newer format).
fn index_file(mir: &Path) -> PathBuf {
    mir.with_extension(format!("v{INDEX_VERSION}.idx"))
}

/// The index as mir-exports of formats 1 and 2 named it, before the
/// format was in the name (`core-1.95.0-….idx`): read, never written.
fn legacy_index_file(mir: &Path) -> PathBuf {
    mir.with_extension("idx")
}

/// The indexes that mir-exports of older formats wrote beside cache file
/// `mir`, the newest first: `.v2.idx` up to this format's, then the
/// unversioned `.idx` of formats 1 and 2.
fn older_index_files(mir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = (2..INDEX_VERSION).rev().map(|v| mir.with_extension(format!("v{v}.idx"))).collect();
    files.push(legacy_index_file(mir));
    files
}

/// Whether cache file `mir` has an index this mir-export can read (its
/// own format's, or an older one it completes).
fn has_index(mir: &Path) -> bool {
    index_file(mir).is_file() || older_index_files(mir).iter().any(|f| f.is_file())
}

/// The format of the index: 2 added the bodies of inline constants
/// (`partition::{constant#0}: T = {`), which version 1 did not list; 3
/// the one-line constants (`const ..::write_formatted_parts::ZEROES: &str
/// = const "00..";`), which versions 1 and 2 did not list; 4 the same with
/// a macro's impls' one-line constants under `NAME@@K` (`<impl at ..>::ZERO`
/// of each `impl Int for $ty`): two branches wrote version 3 files, one
/// without those keys.
const INDEX_VERSION: u32 = 4;

/// The index beside cache file `file`: the one of this format, else the
/// newest older one (`older_index_files`), which is completed with the
/// items it lacks from the MIR text, its other entries kept (a
/// dependency's roots and re-exports, read from its sources), and written
/// as this format's file; the older file stays as it is, for the
/// mir-export that reads it.
fn read_index(file: &Path) -> Option<Index> {
    if let Some((index, INDEX_VERSION)) = fs::read_to_string(index_file(file)).ok().and_then(|t| Index::parse(&t)) {
        return Some(index);
    }
    let (mut index, version) = older_index_files(file).iter().find_map(|f| Index::parse(&fs::read_to_string(f).ok()?))?;
    if version < INDEX_VERSION {
        let text = fs::read_to_string(file).ok()?;
        for (name, at) in Library::index_of(&text).fns {
            index.fns.entry(name).or_insert(at);
        }
    }
    let _ = crate::driver::write_atomically(&index_file(file), &index.serialize());
    Some(index)
}

/// Builds a library crate's MIR into the cache unless it is there;
/// returns its path.
fn ensure_built(rustc: &RustcInfo, lib: &Path, krate: SysCrate, verbose: bool) -> DResult<PathBuf> {
    let sysroot = match krate {
        SysCrate::Core => None,
        SysCrate::Alloc => Some(ensure_sysroot(rustc, lib, verbose)?),
    };
    let flags = sys_flags(krate, sysroot.as_deref());
    let file = sys_cache_file(rustc, krate, &flags);
    if file.is_file() && has_index(&file) {
        return Ok(file);
    }
    let dir = file.parent().expect("a cache directory");
    fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    let work = dir.join(format!("build-{}", std::process::id()));
    fs::create_dir_all(&work).map_err(|e| io_err(&work, e))?;
    let name = krate.name();
    let mir = work.join(format!("{name}.mir"));
    let mut cmd = Command::new(&rustc.path);
    cmd.args(flags.iter().filter(|a| *a != "--emit=mir"))
        .arg(format!("--emit=mir={}", mir.display()))
        .arg(krate.root(lib))
        .arg("--out-dir")
        .arg(&work)
        .env("RUSTC_BOOTSTRAP", "1");
    eprintln!("mir-export: building {name}'s MIR for {TARGET} from {} (once per rustc; cached in {})", lib.display(), dir.display());
    if verbose {
        eprintln!("mir-export: running {cmd:?}");
    }
    let out = cmd.output().map_err(|e| Diag::new(Code::Toolchain, format!("cannot run {}: {e}", rustc.path.display())));
    let result = out.and_then(|o| {
        if o.status.success() {
            Ok(())
        } else {
            Err(Diag::new(Code::RustcFailed, format!(
                "rustc {} could not compile {name} from {} for {TARGET} (do the sources belong to this rustc?):\n{}",
                rustc.release,
                lib.display(),
                stderr_head(&o)
            )))
        }
    });
    let result = result.and_then(|_| {
        let text = compact(&fs::read_to_string(&mir).map_err(|e| io_err(&mir, e))?);
        write_cache(&file, &text, &Library::index_of(&text))
    });
    let _ = fs::remove_dir_all(&work);
    result.map(|_| file)
}

/// The MIR text made smaller for the cache (rustc prints 666 MB for
/// core, most of it indentation and spans): leading whitespace and the
/// padding before comments become one space (the parser trims lines), and
/// the spans of statements and terminators become `-` (a core body's
/// errors name the kernel's call site instead). The spans of declarations
/// and scopes stay: `let _0`'s locates the signature an instance reads.
pub fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len() / 2);
    let mut in_block = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.len() == line.len() {
            out.push_str(line);
            out.push('\n');
            in_block = false;
            continue;
        }
        out.push(' ');
        if in_block && t == "}" {
            in_block = false;
        } else if t.starts_with("bb") && t.ends_with(": {") {
            in_block = true;
        }
        // the comment: the last `// ` after whitespace with no quote after
        // it (a string constant may hold `// `)
        let comment_at = comment_start(t);
        let (code, comment) = match comment_at {
            Some(k) => (t[..k].trim_end(), Some(&t[k..])),
            None => (t, None),
        };
        out.push_str(code);
        match comment {
            Some(c) if in_block && !code.is_empty() && c.starts_with("// scope ") => {
                let head = c.split(" at ").next().unwrap_or(c);
                out.push_str(if code.is_empty() { "" } else { " " });
                out.push_str(head);
                out.push_str(" at -");
            }
            Some(c) => {
                if !code.is_empty() {
                    out.push(' ');
                }
                out.push_str(c);
            }
            None => {}
        }
        out.push('\n');
    }
    out
}

/// Where a line's comment begins: the earliest `// ` after whitespace
/// with no quote after it (a string constant may hold `// `).
fn comment_start(t: &str) -> Option<usize> {
    let mut best = None;
    for (k, _) in t.rmatch_indices("// ") {
        if t[k..].contains('"') {
            break;
        }
        if k == 0 || t[..k].ends_with(' ') {
            best = Some(k);
        }
    }
    best
}

/// Where each item of core's MIR text is.
#[derive(Default)]
pub struct Index {
    /// `fn` bodies by their name as core prints it (no `core::`).
    fns: HashMap<String, (usize, usize)>,
    /// allocation id → its text.
    allocs: HashMap<u32, (usize, usize)>,
    /// static path (core's spelling) → allocation id.
    statics: HashMap<String, u32>,
    /// The first segments of core's paths (`slice`, `unicode`, ...).
    roots: BTreeSet<String>,
    /// Items at the crate root that are not modules (a dependency's
    /// `struct Hasher`, `fn combine`), from its root source file: the
    /// crate prints them without a path (`Hasher`), as the kernel crate
    /// prints its own.
    root_items: BTreeSet<String>,
    /// A path through a private module (the crate's spelling) → the name
    /// the crate re-exports it as at its root.
    reexports: HashMap<String, String>,
}

/// A library crate's MIR (core's or a dependency's), read by item from
/// the cache file (or, in tests, a text).
pub struct Library {
    index: Index,
    text: Text,
    /// The crate's name as the kernel crate prints it (`core`, `libm`,
    /// `sha2::digest`: `CratePaths`).
    krate: String,
    /// Its allocation `N` is `alloc_base + N` in the export.
    alloc_base: u32,
    /// Other crates' paths in its text that the kernel spells otherwise
    /// (`CratePaths::respellings`), longest first.
    respell: Vec<(String, String)>,
    /// A sysroot crate's source directory (`library/core/src`), and the
    /// enums declared there, read the first time one is asked for.
    src: Option<PathBuf>,
    enums: std::cell::OnceCell<crate::adts::AdtTable>,
}

enum Text {
    File(fs::File),
    #[cfg_attr(not(test), allow(dead_code))]
    Memory(String),
}

/// A library crate of the rustc (core, alloc), loaded the first time an
/// export asks for it.
pub struct Lazy<'r> {
    rustc: &'r RustcInfo,
    krate: SysCrate,
    verbose: bool,
    cell: std::cell::OnceCell<Result<Library, (Code, String)>>,
}

impl<'r> Lazy<'r> {
    pub fn new(rustc: &'r RustcInfo, krate: SysCrate, verbose: bool) -> Self {
        Lazy { rustc, krate, verbose, cell: std::cell::OnceCell::new() }
    }

    /// The crate's MIR, or why there is none (with the code of the error).
    pub fn get(&self) -> Result<&Library, &(Code, String)> {
        self.cell.get_or_init(|| load(self.rustc, self.krate, self.verbose).map_err(|d| (d.code, d.msg))).as_ref()
    }

    /// The crate's MIR if an export has loaded it.
    fn loaded(&self) -> Option<&Library> {
        self.cell.get().and_then(|r| r.as_ref().ok())
    }
}

/// Library crate `krate` of this rustc, built if needed; `Err` when it has
/// no sources (the reason) or the build failed.
pub fn load(rustc: &RustcInfo, krate: SysCrate, verbose: bool) -> Result<Library, Diag> {
    let name = krate.name();
    let lib = match find_source(rustc) {
        Source::Found(l) => l,
        Source::Missing(why) => return Err(Diag::new(Code::Unsupported, format!("{why}; {RUST_SRC_HINT}"))),
    };
    let file = ensure_built(rustc, &lib, krate, verbose)?;
    let t = std::time::Instant::now();
    let idx = index_file(&file);
    let index = read_index(&file);
    let index = index.ok_or_else(|| Diag::new(Code::Io, format!("{}: not an index of {name}'s MIR (remove it and {} to build them again)", idx.display(), file.display())))?;
    let mut index = index;
    index.reexports = core_visible_paths(&file, &lib.join(name).join("src"));
    let f = fs::File::open(&file).map_err(|e| io_err(&file, e))?;
    if verbose {
        eprintln!("mir-export: {name}'s MIR {} ({} bodies, {} re-exported paths), index read in {:?}", file.display(), index.fns.len(), index.reexports.len(), t.elapsed());
    }
    let src = Some(lib.join(name).join("src"));
    Ok(Library { index, text: Text::File(f), krate: name.into(), alloc_base: krate.alloc_base(), respell: Vec::new(), src, enums: Default::default() })
}

/// core's items defined in private modules by the paths other crates
/// print (rustc's visible paths): `ops::control_flow::ControlFlow` →
/// `ops::ControlFlow`, `iter::adapters::map::Map` → `iter::Map` (through
/// `iter::adapters::Map`), read from every module file's `pub use` of a
/// private module's item (`root_items`), so that core's text names a
/// type as the kernel crate does. Kept beside core's MIR as `.vis`
/// (`DEFINED VISIBLE` lines); a glob re-export (`pub use x::*`) is not
/// followed, and its items keep their defining path.
/// Every `.rs` file under `src`.
fn rust_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files
}

fn core_visible_paths(mir: &Path, src: &Path) -> HashMap<String, String> {
    let cache = mir.with_extension("vis");
    if let Ok(text) = fs::read_to_string(&cache) {
        if let Some(body) = text.strip_prefix("oxide-core-visible-paths 1\n") {
            return body.lines().filter_map(|l| l.split_once(' ')).map(|(d, v)| (d.to_string(), v.to_string())).collect();
        }
    }
    let files = rust_files(src);
    let root = src.join("lib.rs");
    let mut direct: HashMap<String, String> = HashMap::new();
    for f in files {
        let (Some(module), Ok(text)) = (crate::adts::module_of_file(&root, &f), fs::read_to_string(&f)) else { continue };
        let items = root_items(&text);
        let private: Vec<&str> = items.mods.iter().filter(|m| !m.1).map(|m| m.0.as_str()).collect();
        let join = |p: &str| if module.is_empty() { p.to_string() } else { format!("{module}::{p}") };
        for (name, path) in &items.uses {
            if path.split("::").next().is_some_and(|m| private.contains(&m)) {
                direct.insert(join(path), join(name));
            }
        }
    }
    let map = visible_closure(&direct);
    let mut lines: Vec<String> = map.iter().map(|(d, v)| format!("{d} {v}")).collect();
    lines.sort();
    let _ = crate::driver::write_atomically(&cache, &format!("oxide-core-visible-paths 1\n{}\n", lines.join("\n")));
    map
}

/// `direct` (a defining path → its re-export one module up) followed to
/// the end: `iter::adapters::map::Map` → `iter::adapters::Map` →
/// `iter::Map`, through the longest re-exported prefix each time.
fn visible_closure(direct: &HashMap<String, String>) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (def, vis) in direct {
        let mut v = vis.clone();
        for _ in 0..8 {
            let segs: Vec<&str> = v.split("::").collect();
            let hit = (2..=segs.len()).rev().find_map(|n| direct.get(&segs[..n].join("::")).map(|to| (n, to)));
            let Some((n, to)) = hit else { break };
            v = std::iter::once(to.as_str()).chain(segs[n..].iter().copied()).collect::<Vec<_>>().join("::");
        }
        out.insert(def.clone(), v);
    }
    out
}

/// Set to `host` to compile the kernel crate and its dependencies for the
/// host even when the rustc has its library sources, or to `nvptx64` to
/// require the GPU target (an error when it cannot be had).
pub const ENV_TARGET: &str = "OXIDE_MIR_EXPORT_TARGET";

/// The target the kernel crate and its dependencies are compiled for:
/// `nvptx64-nvidia-cuda` through a sysroot of core's and
/// compiler_builtins' metadata built from the rustc's library sources
/// (then `cfg(target_arch = "nvptx64")` holds in every crate), else the
/// host (`None`: the rustc has no library sources, library bodies are
/// off, or `OXIDE_MIR_EXPORT_TARGET=host`).
pub fn device_sysroot(rustc: &RustcInfo, verbose: bool) -> DResult<Option<PathBuf>> {
    let wanted = std::env::var(ENV_TARGET).unwrap_or_default();
    let required = match wanted.as_str() {
        "" => false,
        "host" => return Ok(None),
        "nvptx64" | TARGET => true,
        other => return Err(Diag::new(Code::Usage, format!("{ENV_TARGET}={other}: expected `host` or `nvptx64`"))),
    };
    let lib = match find_source(rustc) {
        Source::Found(l) => l,
        Source::Missing(why) if required => {
            return Err(Diag::new(Code::Unsupported, format!("{ENV_TARGET}={wanted}: {why}; compiling for {TARGET} needs core's sources ({RUST_SRC_HINT})")))
        }
        Source::Missing(why) => {
            if verbose {
                eprintln!("mir-export: compiling for the host, not {TARGET}: {why}");
            }
            return Ok(None);
        }
    };
    ensure_sysroot(rustc, &lib, verbose).map(Some)
}

/// core's and compiler_builtins' rustc arguments for the sysroot: their
/// metadata with every body's MIR (`-Zalways-encode-mir`: the kernel
/// crate's and the dependencies' builds collect and inline from it). The
/// kernel crate's MIR flags here instead of `-Copt-level=3` alone were
/// tried: the crates suite came out the same.
fn sysroot_flags(krate: &str) -> Vec<String> {
    let mut f: Vec<String> = [
        "--edition=2024",
        "--crate-type=rlib",
        "-Zforce-unstable-if-unmarked",
        "-Zalways-encode-mir",
        "--cap-lints=allow",
        "-Copt-level=3",
        "-Cpanic=abort",
        "--emit=metadata",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    f.push(format!("--crate-name={krate}"));
    f.push(format!("--target={TARGET}"));
    if krate == "compiler_builtins" {
        f.push("--cfg=feature=\"compiler-builtins\"".into());
    }
    f
}

/// The sysroot directory for this rustc build, built once (about a
/// minute) into the cache: `lib/rustlib/nvptx64-nvidia-cuda/lib/` with
/// `libcore.rmeta`, `libcompiler_builtins.rmeta` and `liballoc.rmeta`
/// (the last built, so its presence says the sysroot is whole). Built in a
/// temporary directory and renamed, so a concurrent export never sees
/// half of one.
fn ensure_sysroot(rustc: &RustcInfo, lib: &Path, verbose: bool) -> DResult<PathBuf> {
    let key = fnv1a(sysroot_flags("compiler_builtins").iter().map(String::as_str).chain([rustc.verbose.as_str(), "sysroot-v2"]));
    let dir = cache_file(rustc).parent().expect("a cache directory").to_path_buf();
    let root = dir.join(format!("sysroot-{}-{key:016x}", rustc.release));
    let libdir = |r: &Path| r.join("lib/rustlib").join(TARGET).join("lib");
    if libdir(&root).join("liballoc.rmeta").is_file() {
        return Ok(root);
    }
    let work = dir.join(format!("sysroot-build-{}", std::process::id()));
    fs::create_dir_all(libdir(&work)).map_err(|e| io_err(&work, e))?;
    eprintln!("mir-export: building core's metadata for {TARGET} from {} (once per rustc; cached in {})", lib.display(), dir.display());
    let sources = [
        ("core", lib.join("core/src/lib.rs")),
        ("compiler_builtins", lib.join("compiler-builtins/compiler-builtins/src/lib.rs")),
        ("alloc", lib.join("alloc/src/lib.rs")),
    ];
    let mut result = Ok(());
    for (krate, src) in &sources {
        let out = libdir(&work).join(format!("lib{krate}.rmeta"));
        let mut cmd = Command::new(&rustc.path);
        cmd.args(sysroot_flags(krate)).arg("-L").arg(libdir(&work)).arg("-o").arg(&out).arg(src).env("RUSTC_BOOTSTRAP", "1");
        if verbose {
            eprintln!("mir-export: running {cmd:?}");
        }
        result = match cmd.output() {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(Diag::new(Code::RustcFailed, format!(
                "rustc {} could not compile {krate} from {} for {TARGET} (do the sources belong to this rustc? \
{ENV_TARGET}=host compiles the kernel crate for the host instead):\n{}",
                rustc.release,
                src.display(),
                stderr_head(&o)
            ))),
            Err(e) => Err(Diag::new(Code::Toolchain, format!("cannot run {}: {e}", rustc.path.display()))),
        };
        if result.is_err() {
            break;
        }
    }
    let result = result.and_then(|_| match fs::rename(&work, &root) {
        Ok(()) => Ok(root.clone()),
        // another export renamed its own build there first
        Err(_) if libdir(&root).join("liballoc.rmeta").is_file() => Ok(root.clone()),
        Err(e) => Err(io_err(&root, e)),
    });
    let _ = fs::remove_dir_all(&work);
    result
}

/// The kernel crate's library dependencies, direct and indirect, by crate
/// name: the rustc command cargo ran for each (recorded by the wrapper,
/// driver.rs), or why there is none.
pub struct DepCrates {
    by_name: HashMap<String, Result<RustcCommand, String>>,
    paths: CratePaths,
}

/// How the kernel crate names each dependency: a crate it reaches only
/// through re-exports prints under the path of the first of them
/// (`sha2::digest` for digest, which sha2 re-exports by `pub use
/// digest::{self, ..}`; `sha2::digest::typenum` for typenum, through
/// digest's, crypto_common's and generic_array's re-exports). The kernel's
/// MIR names their items so; a library's text is spelled so
/// (`Library::in_core_spelling`) and a path is looked up in the crate it
/// names (`Libraries::for_path`).
#[derive(Default)]
pub struct CratePaths {
    /// Each crate's `--extern` names (the kernel crate's under "").
    externs: HashMap<String, Vec<String>>,
    /// Each crate's root re-exports that may name a crate (`RootItems::crates`).
    exports: HashMap<String, Vec<(String, String)>>,
    /// The kernel's spelling of each crate it reaches.
    prefix_of: HashMap<String, String>,
    /// The inverse: the kernel's prefix → the crate.
    by_prefix: HashMap<String, String>,
}

impl CratePaths {
    /// From the crates' `externs` and `exports`: the prefixes, breadth
    /// first from the kernel crate's own `--extern`s, so that each crate
    /// gets its shortest path (rustc's visible path), the first on a tie.
    fn new(externs: HashMap<String, Vec<String>>, exports: HashMap<String, Vec<(String, String)>>) -> CratePaths {
        let mut p = CratePaths { externs, exports, ..Default::default() };
        let mut todo: std::collections::VecDeque<(String, String)> = p.externs.get("").into_iter().flatten().map(|e| (e.clone(), e.clone())).collect();
        while let Some((prefix, krate)) = todo.pop_front() {
            if p.prefix_of.contains_key(&krate) {
                continue;
            }
            p.prefix_of.insert(krate.clone(), prefix.clone());
            p.by_prefix.insert(prefix.clone(), krate.clone());
            for (name, path) in p.exports.get(&krate).into_iter().flatten() {
                if let Some(k) = p.resolve(&krate, path, 0) {
                    todo.push_back((format!("{prefix}::{name}"), k));
                }
            }
        }
        p
    }

    /// The crate that `path` (crate `from`'s spelling) names, if it names
    /// one: an `--extern` of `from`, then crate re-exports of each crate.
    fn resolve(&self, from: &str, path: &str, depth: u32) -> Option<String> {
        let mut segs = path.split("::");
        let first = segs.next()?;
        let mut k = self.externs.get(from)?.iter().find(|e| *e == first)?.clone();
        for s in segs {
            k = self.exported_crate(&k, s, depth)?;
        }
        Some(k)
    }

    /// The crate that crate `k` re-exports as `name`, if any.
    fn exported_crate(&self, k: &str, name: &str, depth: u32) -> Option<String> {
        let (_, p) = self.exports.get(k)?.iter().find(|(n, _)| n == name)?;
        (depth < 8).then(|| self.resolve(k, p, depth + 1)).flatten()
    }

    /// The crate a key of `Libraries::get` names: a kernel prefix's crate
    /// (`sha2::digest` → `digest`), else the key itself.
    fn crate_named<'a>(&'a self, key: &'a str) -> &'a str {
        self.by_prefix.get(key).map_or(key, String::as_str)
    }

    /// The longest prefix of `path` (segments, crate `from`'s spelling,
    /// "" for the kernel's) that names a crate: its length in bytes and
    /// the crate.
    fn crate_prefix(&self, from: &str, path: &str) -> Option<(usize, String)> {
        let first = path.split("::").next()?;
        let mut k = self.externs.get(from)?.iter().find(|e| *e == first)?.clone();
        let mut len = first.len();
        while let Some(rest) = path[len..].strip_prefix("::") {
            let seg = &rest[..rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len())];
            match self.exported_crate(&k, seg, 0) {
                Some(n) if !seg.is_empty() => (k, len) = (n, len + 2 + seg.len()),
                _ => break,
            }
        }
        Some((len, k))
    }

    /// The kernel's spelling of crate `krate` (its name when it has none).
    pub fn prefix_of<'a>(&'a self, krate: &'a str) -> &'a str {
        self.prefix_of.get(krate).map_or(krate, String::as_str)
    }

    /// `krate`'s own spellings of crates, each with the kernel's, where
    /// they differ (`digest` → `sha2::digest` in sha2's text;
    /// `crypto_common::generic_array` → `sha2::digest::generic_array` in
    /// digest's), longest first.
    fn respellings(&self, krate: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut todo: Vec<(String, String)> = self.externs.get(krate).into_iter().flatten().map(|e| (e.clone(), e.clone())).collect();
        let mut seen = BTreeSet::new();
        while let Some((prefix, k)) = todo.pop() {
            if !seen.insert(prefix.clone()) || prefix.matches("::").count() > 8 {
                continue;
            }
            let kernel = self.prefix_of(&k);
            if kernel != prefix {
                out.push((prefix.clone(), kernel.to_string()));
            }
            for (name, path) in self.exports.get(&k).into_iter().flatten() {
                if let Some(n) = self.resolve(&k, path, 0) {
                    todo.push((format!("{prefix}::{name}"), n));
                }
            }
        }
        out.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        out
    }
}

impl DepCrates {
    /// Walks the `--extern`s of `kernel`, then of each dependency's own
    /// command, reading the records in `deps_dir`.
    pub fn find(kernel: &RustcCommand, deps_dir: &Path) -> DepCrates {
        let mut by_name: HashMap<String, Result<RustcCommand, String>> = HashMap::new();
        let mut stems: HashMap<String, String> = HashMap::new();
        let mut todo: Vec<(String, PathBuf)> = kernel.externs();
        while let Some((name, lib)) = todo.pop() {
            // `.../liblibm-cc2e3b42.rlib` → `libm-cc2e3b42`
            let stem = lib.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            let stem = stem.strip_prefix("lib").unwrap_or(&stem).to_string();
            match stems.get(&name) {
                Some(s) if *s == stem => continue,
                Some(_) => {
                    by_name.insert(name.clone(), Err(format!("two versions of the crate `{name}` are dependencies; mir-export cannot tell their bodies apart")));
                    continue;
                }
                None => {}
            }
            stems.insert(name.clone(), stem.clone());
            let file = deps_dir.join(format!("{stem}.cmd"));
            let cmd = fs::read_to_string(&file)
                .ok()
                .and_then(|t| RustcCommand::deserialize(&t))
                .ok_or_else(|| format!("no record of the rustc command that built `{name}` ({}; remove the directory target/mir-export of the kernel crate so that cargo builds it again)", file.display()));
            if let Ok(c) = &cmd {
                todo.extend(c.externs());
            }
            by_name.insert(name, cmd);
        }
        let names = |c: &RustcCommand| c.externs().into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        let mut externs: HashMap<String, Vec<String>> = HashMap::from([(String::new(), names(kernel))]);
        let mut exports = HashMap::new();
        for (name, cmd) in by_name.iter().filter_map(|(n, c)| Some((n, c.as_ref().ok()?))) {
            externs.insert(name.clone(), names(cmd));
            let src = cmd.root_index().and_then(|i| fs::read_to_string(cmd.cwd.join(&cmd.args[i])).ok());
            exports.insert(name.clone(), src.map(|s| root_items(&s).crates).unwrap_or_default());
        }
        DepCrates { by_name, paths: CratePaths::new(externs, exports) }
    }

    pub fn get(&self, name: &str) -> Option<&Result<RustcCommand, String>> {
        self.by_name.get(name)
    }

    /// Each dependency with a recorded command, under the kernel's
    /// spelling of it (`sha2::digest` for digest), in name order.
    pub fn spelled(&self) -> Vec<(&str, &RustcCommand)> {
        let mut v: Vec<(&str, &RustcCommand)> = self.by_name.iter().filter_map(|(n, c)| Some((self.paths.prefix_of(n), c.as_ref().ok()?))).collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }
}

/// The library crates whose MIR an export may read: core (`Lazy`) and the
/// kernel crate's dependencies, each built and loaded the first time a
/// body, constant or static of it is needed.
pub struct Libraries<'r> {
    pub core: Lazy<'r>,
    /// alloc, for a kernel crate's `extern crate alloc`.
    pub alloc: Lazy<'r>,
    deps: DepCrates,
    rustc: &'r RustcInfo,
    verbose: bool,
    /// Loaded dependencies in load order (the order gives alloc bases).
    loaded: std::cell::RefCell<Vec<(String, &'static Result<Library, (Code, String)>)>>,
}

impl<'r> Libraries<'r> {
    pub fn new(rustc: &'r RustcInfo, deps: DepCrates, verbose: bool) -> Self {
        Libraries { core: Lazy::new(rustc, SysCrate::Core, verbose), alloc: Lazy::new(rustc, SysCrate::Alloc, verbose), deps, rustc, verbose, loaded: Default::default() }
    }

    /// The MIR of crate `krate` (its name, or the kernel's spelling of
    /// it: `sha2::digest`); None when it is neither core nor a
    /// dependency (the kernel crate, `std`, a crate not linked).
    pub fn get(&self, krate: &str) -> Option<Result<&Library, &(Code, String)>> {
        if krate == "core" {
            return Some(self.core.get());
        }
        if krate == "alloc" {
            return Some(self.alloc.get());
        }
        let krate = self.deps.paths.crate_named(krate);
        if let Some((_, r)) = self.loaded.borrow().iter().find(|(n, _)| n == krate) {
            return Some(r.as_ref());
        }
        let cmd = self.deps.get(krate)?;
        let k = self.loaded.borrow().len() as u32;
        let off = std::env::var(ENV_DISABLE).is_ok_and(|v| v == "0");
        let result = match cmd {
            _ if off => Err((Code::Unsupported, format!("{ENV_DISABLE}=0 turned library bodies off"))),
            Err(why) => Err((Code::Unsupported, why.clone())),
            Ok(c) if k >= (u32::MAX - DEP_ALLOC_BASE) / ALLOC_SPAN => Err((Code::Unsupported, format!("too many dependencies' MIR for `{}`", c.stem()))),
            Ok(c) => load_dep(self.rustc, krate, c, &self.deps.paths, DEP_ALLOC_BASE + k * ALLOC_SPAN, self.verbose).map_err(|d| (d.code, d.msg)),
        };
        let r: &'static Result<Library, (Code, String)> = Box::leak(Box::new(result));
        self.loaded.borrow_mut().push((krate.to_string(), r));
        Some(r.as_ref())
    }

    /// The library of the crate that `path` (the kernel crate's spelling)
    /// begins with, and the path in that crate's spelling.
    pub fn for_path<'p>(&self, path: &'p str) -> Option<(Result<&Library, &(Code, String)>, &'p str)> {
        let krate = self.crate_key(path)?;
        let rest = path[krate.len()..].strip_prefix("::")?;
        Some((self.get(krate)?, rest))
    }

    /// The kernel's spelling of the crate that `path` begins with: the
    /// longest prefix that names a crate (`sha2::digest` of
    /// `sha2::digest::Update`), else the first segment.
    pub fn crate_key<'p>(&self, path: &'p str) -> Option<&'p str> {
        match self.deps.paths.crate_prefix("", path) {
            Some((len, _)) => Some(&path[..len]),
            None => path.split("::").next().filter(|_| path.contains("::")),
        }
    }

    /// The loaded library that owns imported allocation `id`.
    pub fn for_alloc(&self, id: u32) -> Option<&Library> {
        if let Ok(l) = self.core.get() {
            if l.owns_alloc(id) {
                return Some(l);
            }
        }
        if let Some(l) = self.alloc.loaded().filter(|l| l.owns_alloc(id)) {
            return Some(l);
        }
        self.loaded.borrow().iter().filter_map(|(_, r)| r.as_ref().ok()).find(|l| l.owns_alloc(id))
    }

    /// The crate a kernel spelling names (`sha2::digest` → `digest`), else
    /// `key` itself.
    pub fn crate_name<'k>(&'k self, key: &'k str) -> &'k str {
        self.deps.paths.crate_named(key)
    }

    /// The root source file of dependency `krate` (its name), from the
    /// rustc command that built it; core's and alloc's `lib.rs` in the
    /// rustc's library sources.
    pub fn root_source(&self, krate: &str) -> Option<PathBuf> {
        let sys = [SysCrate::Core, SysCrate::Alloc].into_iter().find(|c| c.name() == krate);
        if let Some(sys) = sys {
            return match find_source(self.rustc) {
                Source::Found(lib) => Some(sys.root(&lib)),
                Source::Missing(_) => None,
            };
        }
        let cmd = self.deps.get(krate)?.as_ref().ok()?;
        Some(cmd.cwd.join(&cmd.args[cmd.root_index()?]))
    }

    /// The crate that name `name` at the root of crate `from`'s source
    /// stands for: one of its `--extern`s, or a crate its root
    /// re-exports (`digest`'s `typenum`).
    pub fn crate_in_scope(&self, from: &str, name: &str) -> Option<String> {
        self.deps.paths.resolve(from, name, 0).or_else(|| self.deps.paths.exported_crate(from, name, 0))
    }

    /// Whether `name` is a library crate an export may read.
    pub fn is_library(&self, name: &str) -> bool {
        name == "core" || name == "alloc" || self.deps.get(self.deps.paths.crate_named(name)).is_some()
    }
}

/// A dependency's MIR, built from its recorded rustc command with the
/// kernel crate's MIR flags (for the host target, as cargo built it, so
/// that its layouts and `cfg`s are the kernel crate's) and cached.
fn load_dep(rustc: &RustcInfo, krate: &str, cmd: &RustcCommand, paths: &CratePaths, alloc_base: u32, verbose: bool) -> Result<Library, Diag> {
    let file = ensure_dep_built(rustc, krate, cmd, verbose)?;
    let idx = index_file(&file);
    let index = read_index(&file);
    let index = index.ok_or_else(|| Diag::new(Code::Io, format!("{}: not an index of MIR (remove it and {})", idx.display(), file.display())))?;
    let f = fs::File::open(&file).map_err(|e| io_err(&file, e))?;
    if verbose {
        eprintln!("mir-export: {krate}'s MIR {} ({} bodies)", file.display(), index.fns.len());
    }
    Ok(Library { index, text: Text::File(f), krate: paths.prefix_of(krate).to_string(), alloc_base, respell: paths.respellings(krate), src: None, enums: Default::default() })
}

/// The dependency's rustc arguments for its MIR: cargo's, less what
/// names outputs, plus the kernel crate's MIR flags.
fn dep_mir_args(cmd: &RustcCommand) -> Vec<String> {
    let mut args: Vec<String> = cmd.rerun_args().into_iter().map(|(_, a)| a.clone()).collect();
    args.extend(MIR_FLAGS.iter().filter(|f| **f != "--emit=mir").map(|s| s.to_string()));
    args
}

/// Whether cache file `name` is an older build of the dependency whose
/// files start with `prefix`: not one of `keep` (the current build's MIR
/// file stem), whose files are `KEEP.mir` and its indexes of every format
/// (`KEEP.v2.idx`, the legacy `KEEP.idx`).
fn is_stale_dep_file(name: &str, prefix: &str, keep: &str) -> bool {
    name.starts_with(prefix) && !name.strip_prefix(keep).is_some_and(|rest| rest.starts_with('.'))
}

fn ensure_dep_built(rustc: &RustcInfo, krate: &str, cmd: &RustcCommand, verbose: bool) -> DResult<PathBuf> {
    let args = dep_mir_args(cmd);
    // the key: the arguments, the rustc, and the times and sizes of the
    // sources cargo's dep-info lists (a path dependency's sources change
    // under the same hash; a registry's never do, so a new target
    // directory finds the same file)
    let sources = crate::driver::dep_info_sources(&cmd.output_file("d"));
    let stamp: String = sources
        .iter()
        .filter_map(|f| fs::metadata(cmd.cwd.join(f)).ok().map(|m| format!("{} {:?} {};", f.display(), m.modified().ok(), m.len())))
        .collect();
    let cwd = cmd.cwd.to_string_lossy();
    // (dep-v4: the index lists a private module's items that the root
    // re-exports by a glob, which a dep-v3 index does not)
    let h = fnv1a(args.iter().map(String::as_str).chain([rustc.verbose.as_str(), stamp.as_str(), &cwd, "dep-v4"]));
    let dir = cache_file(rustc).parent().expect("a cache directory").to_path_buf();
    let file = dir.join(format!("dep-{}-{}-{h:016x}.mir", cmd.stem(), rustc.release));
    if file.is_file() && has_index(&file) {
        return Ok(file);
    }
    fs::create_dir_all(&dir).map_err(|e| io_err(&dir, e))?;
    let work = dir.join(format!("build-{krate}-{}", std::process::id()));
    fs::create_dir_all(&work).map_err(|e| io_err(&work, e))?;
    let mir = work.join("dep.mir");
    let mut c = Command::new(&rustc.path);
    c.current_dir(&cmd.cwd)
        .args(&args)
        .arg(format!("--emit=mir={}", mir.display()))
        .arg(format!("--out-dir={}", work.display()))
        .env("RUSTC_BOOTSTRAP", "1")
        .envs(cmd.env.iter().cloned());
    eprintln!("mir-export: building the MIR of the dependency `{krate}` (once; cached in {})", dir.display());
    if verbose {
        eprintln!("mir-export: running {c:?}");
    }
    let out = c.output().map_err(|e| Diag::new(Code::Toolchain, format!("cannot run {}: {e}", rustc.path.display())));
    let result = out.and_then(|o| match o.status.success() {
        true => Ok(()),
        false => Err(Diag::new(Code::RustcFailed, format!(
            "rustc could not build the MIR of the dependency `{krate}`:\n{}",
            stderr_head(&o)
        ))),
    });
    let result = result.and_then(|_| {
        let text = fs::read_to_string(&mir).map_err(|e| io_err(&mir, e))?;
        let text = compact(&absolute_spans(&text, &cmd.cwd));
        let mut index = Library::index_of(&text);
        if let Some(root) = cmd.root_index().map(|i| cmd.cwd.join(&cmd.args[i])) {
            let src = fs::read_to_string(&root).map_err(|e| io_err(&root, e))?;
            let root_dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
            let root = root_items(&src);
            index.roots.extend(root.mods.iter().map(|m| m.0.clone()));
            // a path through a private module prints as its re-export
            // (rustc's visible paths): `arrayvec::ArrayVec` for the
            // `arrayvec::arrayvec::ArrayVec` the crate defines
            let private: Vec<&String> = root.mods.iter().filter(|m| !m.1).map(|m| &m.0).collect();
            for (name, path) in &root.uses {
                if private.iter().any(|m| path.split("::").next() == Some(m.as_str())) {
                    index.reexports.insert(path.clone(), name.clone());
                }
            }
            for (path, name) in glob_reexports(&root, &private, &root_dir) {
                index.reexports.entry(path).or_insert(name);
            }
            index.root_items.extend(root.items.into_iter().filter(|i| !index.roots.contains(i)));
        }
        write_cache(&file, &text, &index)
    });
    let _ = fs::remove_dir_all(&work);
    if result.is_ok() {
        // one file per dependency build and rustc: older keys go
        let prefix = format!("dep-{}-{}-", cmd.stem(), rustc.release);
        let keep = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        for e in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if is_stale_dep_file(&name, &prefix, &keep) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    result.map(|_| file)
}

/// `text` with its relative source paths (`at src/a.rs:1:2`,
/// `{closure@src/a.rs:3:4}`) made absolute from `cwd`: a dependency's
/// closure must never be named like one of the kernel crate's.
fn absolute_spans(text: &str, cwd: &Path) -> String {
    let base = format!("{}/", cwd.display());
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut rest = text;
    while let Some(k) = rest.find(|c| c == '@' || c == ' ') {
        let (head, tail) = rest.split_at(k);
        out.push_str(head);
        let lead = if tail.starts_with("@") { "@" } else if tail.starts_with(" at ") { " at " } else { " " };
        out.push_str(lead);
        let after = &tail[lead.len()..];
        let path_end = after.find(|c: char| c == ':' || c.is_whitespace() || c == '}' || c == '>').unwrap_or(after.len());
        let path = &after[..path_end];
        if lead != " " && path.ends_with(".rs") && !path.starts_with('/') && after[path_end..].starts_with(':') {
            out.push_str(&base);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// What the top level of a crate root's source declares, for
/// `in_core_spelling`: a rough scan (comments, strings and nested blocks
/// skipped).
#[derive(Default, Debug, PartialEq)]
pub struct RootItems {
    /// Modules, and whether each is `pub`.
    pub mods: Vec<(String, bool)>,
    /// Other items: types, traits, functions, constants, statics.
    pub items: Vec<String>,
    /// Those of `items` declared `pub` (not `pub(crate)`).
    pub pub_items: Vec<String>,
    /// The modules of `pub use m::*` globs, from the root (`arrayvec`).
    pub globs: Vec<String>,
    /// `pub use` re-exports: (name at the root, the path it names, from
    /// the root: `arrayvec::ArrayVec` for `pub use crate::arrayvec::ArrayVec`).
    pub uses: Vec<(String, String)>,
    /// Re-exports that may name a crate (`pub use digest;`, `pub use
    /// digest::{self}`, `pub extern crate typenum;`, and every path of
    /// `uses`): name at the root, the path (`crate_paths` resolves them).
    pub crates: Vec<(String, String)>,
}

/// Tokens of `src`: identifiers and single punctuation characters, with
/// the nesting depth of each.
pub(crate) fn tokens(src: &str) -> Vec<(String, i32)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = src[i..].find('\n').map_or(b.len(), |k| i + k);
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = src[i + 2..].find("*/").map_or(b.len(), |k| i + k + 4);
            continue;
        }
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(("\"\"".to_string(), depth));
            continue;
        }
        if c == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let end = src[i..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).map_or(b.len(), |k| i + k);
            out.push((src[i..end].to_string(), depth));
            i = end;
            continue;
        }
        if matches!(c, b'}' | b')' | b']') {
            depth -= 1;
        }
        if !c.is_ascii_whitespace() && c.is_ascii() {
            out.push(((c as char).to_string(), depth));
        }
        if matches!(c, b'{' | b'(' | b'[') {
            depth += 1;
        }
        i += if c.is_ascii() { 1 } else { src[i..].chars().next().map_or(1, |ch| ch.len_utf8()) };
    }
    out
}

pub fn root_items(src: &str) -> RootItems {
    let t = tokens(src);
    let mut r = RootItems::default();
    let word = |k: usize| t.get(k).filter(|x| x.1 == 0).map(|x| x.0.as_str());
    let mut k = 0;
    while k < t.len() {
        if t[k].1 != 0 {
            k += 1;
            continue;
        }
        let is_pub = k > 0 && word(k - 1) == Some("pub");
        match t[k].0.as_str() {
            "mod" => {
                if let Some(n) = word(k + 1) {
                    r.mods.push((n.to_string(), is_pub));
                }
            }
            "struct" | "enum" | "union" | "trait" | "type" | "fn" | "static" | "const" => {
                let mut n = k + 1;
                while matches!(word(n), Some("mut" | "unsafe" | "fn" | "extern")) {
                    n += 1;
                }
                if let Some(name) = word(n).filter(|w| *w != "_" && w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')) {
                    // `const fn f` is seen at `const` and at `fn`
                    if !r.items.iter().any(|i| i == name) {
                        r.items.push(name.to_string());
                    }
                    if is_pub && !r.pub_items.iter().any(|i| i == name) {
                        r.pub_items.push(name.to_string());
                    }
                }
            }
            "use" if is_pub => {
                let end = (k..t.len()).find(|&j| t[j].0 == ";" && t[j].1 == 0).unwrap_or(t.len());
                let toks: Vec<&str> = t[k + 1..end].iter().map(|x| x.0.as_str()).collect();
                for e in crate::usetree::parse_use(&toks) {
                    reexport(&e, &mut r);
                }
                k = end;
            }
            // `pub extern crate typenum;`, `pub extern crate a as b;`
            "crate" if k > 1 && word(k - 1) == Some("extern") && word(k - 2) == Some("pub") => {
                if let Some(n) = word(k + 1) {
                    let alias = (word(k + 2) == Some("as")).then(|| word(k + 3)).flatten();
                    r.crates.push((alias.unwrap_or(n).to_string(), n.to_string()));
                }
            }
            _ => {}
        }
        k += 1;
    }
    r
}

/// The items a crate root re-exports by a glob of a private module of
/// its own (`mod arrayvec; pub use arrayvec::*;`: tinyvec), which rustc
/// prints at the root (`tinyvec::ArrayVec`, its visible path): (the path
/// as the crate defines it, `arrayvec::ArrayVec`; the name at the root).
/// Those are the module's `pub` items (not `pub(crate)` ones), read from
/// its file (`src/m.rs` or `src/m/mod.rs` beside the root), that no item
/// or `pub use` of the root's own shadows, nor another glob's item of
/// that name (an ambiguous name is not re-exported). A glob inside that
/// module is not followed.
fn glob_reexports(root: &RootItems, private: &[&String], root_dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for m in root.globs.iter().filter(|m| private.contains(m)) {
        let file = [root_dir.join(format!("{m}.rs")), root_dir.join(m).join("mod.rs")].into_iter().find(|f| f.is_file());
        let Some(src) = file.and_then(|f| fs::read_to_string(f).ok()) else { continue };
        for item in root_items(&src).pub_items {
            let shadowed = root.items.contains(&item) || root.uses.iter().any(|(n, _)| *n == item);
            if !shadowed {
                out.push((format!("{m}::{item}"), item));
            }
        }
    }
    let twice: Vec<String> = out.iter().filter(|(_, n)| out.iter().filter(|(_, o)| o == n).count() > 1).map(|(_, n)| n.clone()).collect();
    out.retain(|(_, n)| !twice.contains(n));
    out
}

/// One entry of a root's `pub use` (`crate::a::{B, c::D as E}`), its
/// path from the root (`crate::` and `self::` taken off): into `crates`
/// (it may name a crate: `pub use digest;`, `digest::{self}`), and into
/// `uses` too when it has two segments or more and is no group's `self`.
/// A glob's module path goes into `globs` (`glob_reexports` follows it).
fn reexport(e: &crate::usetree::UseEntry, r: &mut RootItems) {
    let (uses, crates) = (&mut r.uses, &mut r.crates);
    let target = e.target();
    let target = match target.first().map(String::as_str) {
        Some("crate" | "self") => &target[1..],
        _ => target,
    };
    if e.glob && !target.is_empty() {
        r.globs.push(target.join("::"));
    }
    let Some(name) = e.name().filter(|_| !e.glob) else { return };
    if target.is_empty() {
        return;
    }
    let full = target.join("::");
    crates.push((name.to_string(), full.clone()));
    if target.len() > 1 && !e.is_self() {
        uses.push((name.to_string(), full));
    }
}

impl Index {
    /// `F start end name`, `A id start end`, `S id path`, `R root` lines.
    pub fn serialize(&self) -> String {
        let mut out = format!("oxide-core-mir-index {INDEX_VERSION}\n");
        let mut fns: Vec<_> = self.fns.iter().collect();
        fns.sort();
        for (n, (s, e)) in fns {
            out.push_str(&format!("F {s} {e} {n}\n"));
        }
        let mut allocs: Vec<_> = self.allocs.iter().collect();
        allocs.sort();
        for (id, (s, e)) in allocs {
            out.push_str(&format!("A {id} {s} {e}\n"));
        }
        let mut statics: Vec<_> = self.statics.iter().collect();
        statics.sort();
        for (p, id) in statics {
            out.push_str(&format!("S {id} {p}\n"));
        }
        for r in &self.roots {
            out.push_str(&format!("R {r}\n"));
        }
        for r in &self.root_items {
            out.push_str(&format!("I {r}\n"));
        }
        let mut re: Vec<_> = self.reexports.iter().collect();
        re.sort();
        for (p, n) in re {
            out.push_str(&format!("U {n} {p}\n"));
        }
        out
    }

    /// The index and the version of its format (1 or `INDEX_VERSION`).
    pub fn parse(text: &str) -> Option<(Index, u32)> {
        let mut lines = text.lines();
        let version: u32 = lines.next()?.strip_prefix("oxide-core-mir-index ")?.parse().ok()?;
        if !(1..=INDEX_VERSION).contains(&version) {
            return None;
        }
        let mut ix = Index::default();
        for line in lines {
            let (tag, rest) = line.split_once(' ')?;
            match tag {
                "F" => {
                    let mut it = rest.splitn(3, ' ');
                    let (s, e, n) = (it.next()?.parse().ok()?, it.next()?.parse().ok()?, it.next()?);
                    ix.fns.insert(n.to_string(), (s, e));
                }
                "A" => {
                    let mut it = rest.splitn(3, ' ');
                    let (id, s, e) = (it.next()?.parse().ok()?, it.next()?.parse().ok()?, it.next()?.parse().ok()?);
                    ix.allocs.insert(id, (s, e));
                }
                "S" => {
                    let (id, p) = rest.split_once(' ')?;
                    ix.statics.insert(p.to_string(), id.parse().ok()?);
                }
                "R" => {
                    ix.roots.insert(rest.to_string());
                }
                "I" => {
                    ix.root_items.insert(rest.to_string());
                }
                "U" => {
                    let (n, p) = rest.split_once(' ')?;
                    ix.reexports.insert(p.to_string(), n.to_string());
                }
                _ => return None,
            }
        }
        Some((ix, version))
    }
}

impl Library {
    /// The declaration of enum `path` (`core::fmt::Alignment`) in a
    /// sysroot crate's sources: its variants in declaration order, which
    /// is the order of their discriminants. The sources are read once,
    /// at the first question (core: about 1,000 files).
    pub fn enum_decl(&self, path: &str) -> Option<crate::adts::AdtDecl> {
        let src = self.src.as_ref()?;
        let table = self.enums.get_or_init(|| {
            let mut t = crate::adts::AdtTable::new();
            let root = src.join("lib.rs");
            for f in rust_files(src) {
                if let (Some(module), Ok(text)) = (crate::adts::module_of_file(&root, &f), fs::read_to_string(&f)) {
                    t.add_file(&self.krate, &module, &text);
                }
            }
            t
        });
        table.declared(path).ok().flatten().filter(|d| d.kind == crate::adts::AdtKind::Enum)
    }

    #[cfg(test)]
    pub fn from_text(text: String) -> Library {
        Library { index: Library::index_of(&text), text: Text::Memory(text), krate: "core".into(), alloc_base: ALLOC_BASE, respell: Vec::new(), src: None, enums: Default::default() }
    }

    /// Bytes `s..e` of the text.
    fn read(&self, (s, e): (usize, usize)) -> String {
        match &self.text {
            Text::Memory(t) => t[s..e].to_string(),
            Text::File(f) => {
                use std::os::unix::fs::FileExt;
                let mut buf = vec![0u8; e - s];
                match f.read_exact_at(&mut buf, s as u64) {
                    Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
                    Err(_) => String::new(),
                }
            }
        }
    }

    pub fn index_of(text: &str) -> Index {
        let mut lib = Index::default();
        let mut offset = 0;
        let mut ctfe = false;
        let mut open: Option<(usize, Option<String>, Option<u32>)> = None;
        for line in text.split_inclusive('\n') {
            let start = offset;
            offset += line.len();
            if line.starts_with("// MIR FOR CTFE") {
                ctfe = true;
                continue;
            }
            if let Some(name) = line.strip_prefix("fn ").and_then(item_name) {
                note_root(&mut lib.roots, name);
                // a macro's impls print alike (`<impl at src/m.rs:3:9: 3:30>::one`
                // for every type it expands for): the second is `NAME@@2`
                let key = (!ctfe).then(|| dup_key(&lib.fns, name));
                open = Some((start, key, None));
                ctfe = false;
                continue;
            }
            if let Some(name) = line.strip_prefix("static ").and_then(item_name) {
                note_root(&mut lib.roots, name);
            }
            // an inline `const { .. }`'s body, printed without `const`
            // (`slice::sort::unstable::quicksort::partition::{constant#0}:
            // for<'a, 'b, 'c> fn(&'a mut [T], &'b T, &'c mut F) -> usize = {`)
            if let Some(name) = inline_const_header(line) {
                note_root(&mut lib.roots, name);
                open = Some((start, Some(name.to_string()), None));
                ctfe = false;
                continue;
            }
            // a constant's or promoted's body (`const exp::HALF: [f64; 2] = {`)
            if let Some(name) = line.strip_prefix("const ").and_then(item_name) {
                note_root(&mut lib.roots, name);
                // a one-line constant (`const P: &str = const "00";`);
                // a macro's impls print theirs alike (`<impl at ..>::ZERO`
                // of `impl Int for $ty`): `NAME@@K`, as for bodies
                if line.trim_end().ends_with(';') {
                    let key = dup_key(&lib.fns, name);
                    lib.fns.insert(key, (start, offset));
                    ctfe = false;
                    continue;
                }
                let keep = !lib.fns.contains_key(name);
                open = Some((start, keep.then(|| name.to_string()), None));
                ctfe = false;
                continue;
            }
            if let Some(rest) = line.strip_prefix("alloc") {
                let id: Option<u32> = rest.split(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse().ok());
                if let Some(id) = id {
                    if let Some(s) = rest.split_once("(static: ").and_then(|(_, s)| s.split([',', ')']).next()) {
                        lib.statics.insert(s.to_string(), id);
                    }
                    if line.trim_end().ends_with('{') {
                        open = Some((start, None, Some(id)));
                    } else {
                        lib.allocs.entry(id).or_insert((start, offset));
                    }
                }
                continue;
            }
            if line.starts_with('}') {
                if let Some((s, name, alloc)) = open.take() {
                    if let Some(n) = name {
                        lib.fns.insert(n, (s, offset));
                    }
                    if let Some(id) = alloc {
                        lib.allocs.entry(id).or_insert((s, offset));
                    }
                }
            }
        }
        lib
    }

    /// The body core calls `name` (core's spelling), in the kernel
    /// crate's spelling, named `full` (the kernel's path).
    /// A construct known and not read yet is OX0200, any other parse
    /// error OX1004.
    pub fn body(&self, name: &str, full: &str) -> Option<Result<Body, (Code, String)>> {
        let r = self.item(name)?;
        self.body_at(r, full)
    }

    /// Item `name` of the index, or, for a name in the re-exported
    /// spelling (`atan::promoted[1]`, which the text of
    /// `math::atan::atan` reads after `in_core_spelling`), the item under
    /// the path it re-exports.
    fn item(&self, name: &str) -> Option<(usize, usize)> {
        if let Some(&r) = self.index.fns.get(name) {
            return Some(r);
        }
        // the name with a re-exported prefix spelled as it is defined
        let defined: Vec<String> = self
            .index
            .reexports
            .iter()
            .filter_map(|(path, re)| {
                let rest = name.strip_prefix(re.as_str()).filter(|r| r.is_empty() || r.starts_with("::"))?;
                Some(format!("{path}{rest}"))
            })
            .collect();
        let mut hits = defined.iter().filter_map(|n| self.index.fns.get(n).copied());
        if let Some(r) = hits.next() {
            return hits.all(|o| o == r).then_some(r);
        }
        // an item of an inherent method by its type's path
        // (`Xoroshiro128StarStar::jump::promoted[0]`, rustc's spelling of
        // `xoroshiro128starstar::<impl at ..>::jump::promoted[0]`), the
        // type's path re-exported or not
        let mut hits = std::iter::once(name).chain(defined.iter().map(String::as_str)).filter_map(|n| self.inherent_item(n));
        if let Some(r) = hits.next() {
            return hits.all(|o| o == r).then_some(r);
        }
        // an item of a trait's default method by the trait's visible path
        // (`iter::Iterator::min_by_key::compare`, a fn inside
        // `iter::traits::iterator::Iterator::min_by_key`)
        let segs: Vec<&str> = name.split("::").collect();
        for k in 1..segs.len().saturating_sub(1) {
            let (printed, method, rest) = (segs[..k].join("::"), segs[k], segs[k + 1..].join("::"));
            if let Some(t) = self.default_method_trait(&printed, method).filter(|t| *t != printed) {
                if let Some(&r) = self.index.fns.get(&format!("{t}::{method}::{rest}")) {
                    return Some(r);
                }
            }
        }
        // an item of a function the kernel crate names by a path a glob
        // re-exports (`libm::atan::promoted[1]` for libm's
        // `math::atan::atan`, through `pub use math::*`): under the
        // crate's one function of that last name
        let (parent, item) = name.rsplit_once("::")?;
        let (f, _) = self.unique_fn(parent)?;
        self.index.fns.get(&format!("{f}::{item}")).copied()
    }

    /// Item `M::Type::f::rest` (`rest` a promoted or a constant of method
    /// `f`) at its key `M::<impl at SPAN>::f::rest`: the one inherent impl
    /// of module `M` whose header (read from the source at SPAN) is
    /// `impl<..> Type<..>` and which has that item.
    fn inherent_item(&self, name: &str) -> Option<(usize, usize)> {
        let segs: Vec<&str> = name.split("::").collect();
        let k = segs.iter().position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))?;
        if segs.len() < k + 3 || segs[..k].iter().any(|s| s.contains('<')) {
            return None;
        }
        let (module, ty, tail) = (segs[..k].join("::"), segs[k], segs[k + 1..].join("::"));
        let prefix = match module.is_empty() {
            true => "<impl at ".to_string(),
            false => format!("{module}::<impl at "),
        };
        let suffix = format!(">::{tail}");
        let mut found = self.index.fns.iter().filter(|(key, _)| {
            let Some(span) = key.strip_prefix(prefix.as_str()).and_then(|r| r.strip_suffix(suffix.as_str())) else { return false };
            let Some(s) = crate::mirparse::items::parse_span(span).filter(|_| !span.contains('>')) else { return false };
            let header = crate::export::spans::source_text_at(std::path::Path::new(&s.file), &s).unwrap_or_default();
            matches!(crate::export::callee::impl_header(&header, None), (None, t) if t == ty)
        });
        let (_, &r) = found.next()?;
        found.next().is_none().then_some(r)
    }

    /// The crate's one function whose last path segment is `name`'s,
    /// outside impls and closures (for names the crate re-exports).
    fn unique_fn(&self, name: &str) -> Option<(&String, (usize, usize))> {
        let last = name.rsplit("::").next()?;
        let tail = format!("::{last}");
        let mut found = self.index.fns.iter().filter(|(n, _)| (n.ends_with(&tail) || *n == last) && !n.contains('<') && !n.contains('{') && !n.contains('['));
        let (n, &r) = found.next()?;
        found.next().is_none().then_some((n, r))
    }

    /// A function the kernel crate names by a path the crate re-exports
    /// (`libm::scalbn`, defined as `math::scalbn::scalbn`): the one
    /// function of the crate with that last segment, outside impls and
    /// closures; its name in the crate's spelling and its body. None when
    /// there is no such function or several.
    pub fn reexported_body(&self, name: &str, full: &str) -> Option<(String, Result<Body, (Code, String)>)> {
        let (n, r) = self.unique_fn(name)?;
        Some((n.clone(), self.body_at(r, full)?))
    }

    fn body_at(&self, r: (usize, usize), full: &str) -> Option<Result<Body, (Code, String)>> {
        let text = self.in_core_spelling(&self.read(r));
        let text = one_line_const_body(&text).unwrap_or(text);
        Some(self.parse_body(&text, full).map_err(|m| {
            let known = m.contains("does not read yet");
            (if known { Code::Unsupported } else { Code::MirParse }, m)
        }))
    }

    /// The MIR text of body `name` in the kernel crate's spelling (for
    /// instances: mono.rs substitutes its type parameters).
    pub fn body_text(&self, name: &str) -> Option<String> {
        let r = self.item(name)?;
        let text = self.in_core_spelling(&self.read(r));
        Some(one_line_const_body(&text).unwrap_or(text))
    }

    /// Constant `name` of the crate when rustc prints it on one line
    /// (`const xxh32_common::PRIME_3: u32 = const 3266489917_u32;`: no
    /// body), named `full` (the kernel's path).
    pub fn one_line_const(&self, name: &str, full: &str) -> Option<crate::mirparse::ast::ConstItem> {
        let r = self.item(name)?;
        let text = self.read(r);
        if !text.starts_with("const ") || !text.trim_end().ends_with(';') || text.trim_end().contains('\n') {
            return None;
        }
        let mut c = parse_mir_file(&self.in_core_spelling(&text)).ok()?.consts.into_iter().next()?;
        c.name = full.to_string();
        Some(c)
    }

    fn parse_body(&self, text: &str, full: &str) -> Result<Body, String> {
        let k = &self.krate;
        let file = parse_mir_file(text).map_err(|e| match const_fn_call(text).filter(|_| !e.msg.contains("does not read yet")) {
            Some(c) => format!(
                "{k}'s MIR of `{full}` does not parse: it calls through an inline `const` of function pointer \
                 type (`{c}`), which mir-export does not read yet"
            ),
            None => format!("{k}'s MIR of `{full}` does not parse: {}", e.msg),
        })?;
        let mut body = file.bodies.into_iter().next().ok_or_else(|| format!("no body of `{full}` in {k}'s MIR"))?;
        fold_runtime_checks(&mut body);
        body.name = full.to_string();
        if let Ok(p) = crate::mirparse::parser::parse_str(full, |p| p.path(true)) {
            body.path = p;
        }
        Ok(body)
    }

    /// Item `path` of the crate (the crate's spelling, as its own MIR
    /// prints it: `core_api::Wrapper`, a root item `Eager`) as the kernel
    /// spells it: through the crate's root re-export of a private module's
    /// item (`arrayvec::arrayvec::ArrayVec` → `arrayvec::ArrayVec`), else
    /// under the crate's prefix.
    pub fn kernel_item_path(&self, path: &str) -> String {
        let segs: Vec<&str> = path.split("::").collect();
        let hit = (2..=segs.len()).rev().find_map(|n| self.index.reexports.get(&segs[..n].join("::")).map(|name| (n, name)));
        match hit {
            Some((n, name)) => [vec![self.krate.as_str(), name.as_str()], segs[n..].to_vec()].concat().join("::"),
            None => format!("{}::{path}", self.krate),
        }
    }

    /// The crate this is the MIR of (`core`, `libm`).
    pub fn krate(&self) -> &str {
        &self.krate
    }

    /// The type of the constant or promoted `name` (the crate's spelling),
    /// read from its body's first line (`const exp::HALF: [f64; 2] = {`),
    /// in the kernel crate's spelling.
    pub fn const_type(&self, name: &str) -> Option<String> {
        if let Some(c) = self.one_line_const(name, name) {
            return Some(c.ty.to_string());
        }
        let (s, _) = self.item(name)?;
        let head = self.read((s, (s + 4096).min(self.len())));
        let line = self.in_core_spelling(head.lines().next()?);
        let rest = line.strip_prefix("const ")?;
        let name_len = item_name(rest)?.len();
        let typed = rest[name_len..].strip_prefix(": ")?;
        // a body, or a one-line constant (`: &str = const "00";`)
        typed.strip_suffix(" = {").or_else(|| typed.split_once(" = const ").map(|(t, _)| t)).map(str::to_string)
    }

    fn len(&self) -> usize {
        match &self.text {
            Text::Memory(t) => t.len(),
            Text::File(f) => f.metadata().map_or(0, |m| m.len() as usize),
        }
    }

    /// The path (the crate's spelling) of the one trait named `name` that
    /// has a default method `method` (a body `PATH::name::method`).
    pub fn trait_method(&self, name: &str, method: &str) -> Option<String> {
        let tail = format!("::{name}::{method}");
        let mut found = self.index.fns.keys().filter(|k| k.ends_with(&tail) && !k.contains('<'));
        let k = found.next()?;
        found.next().is_none().then(|| k[..k.len() - method.len() - 2].to_string())
    }

    /// The path (the crate's spelling) of the trait that a call names
    /// `printed` (the crate's spelling, `iter::Iterator` or a bare
    /// `Iterator`) whose default method `method` it calls: `printed` itself
    /// when it has that body, else the one trait of that name with that
    /// default method defined in `printed`'s module or below it (a
    /// re-export: `iter::Iterator` is `iter::traits::iterator::Iterator`).
    pub fn default_method_trait(&self, printed: &str, method: &str) -> Option<String> {
        if self.index.fns.contains_key(&format!("{printed}::{method}")) {
            return Some(printed.to_string());
        }
        let (module, name) = printed.rsplit_once("::").map_or(("", printed), |(m, n)| (m, n));
        let t = self.trait_method(name, method)?;
        (module.is_empty() || t.starts_with(&format!("{module}::"))).then_some(t)
    }

    /// The crate's trait impl methods named `method` (`<impl at ..>::next`
    /// bodies, the crate's spelling, with `@@K` for the `K`th of a macro's
    /// that print alike), for a call `<T as Tr>::method`.
    pub fn impl_methods(&self, method: &str) -> Vec<String> {
        let tail = format!(">::{method}");
        let mut v: Vec<String> = self.index.fns.keys().filter(|n| undup(n).ends_with(&tail) && n.contains("<impl at ")).cloned().collect();
        v.sort();
        v
    }

    /// The allocation of the crate's static `path` (its spelling), imported.
    pub fn static_alloc(&self, path: &str) -> Option<u32> {
        self.index.statics.get(path).map(|id| id + self.alloc_base)
    }

    /// Whether export allocation `id` is one of this crate's.
    pub fn owns_alloc(&self, id: u32) -> bool {
        id.checked_sub(self.alloc_base).is_some_and(|n| n < ALLOC_SPAN)
    }

    /// Imported allocation `id` (`alloc_base + the crate's id`).
    pub fn alloc(&self, id: u32) -> Option<Result<Alloc, String>> {
        let own = id.checked_sub(self.alloc_base).filter(|&n| n < ALLOC_SPAN)?;
        let &r = self.index.allocs.get(&own)?;
        let text = self.in_core_spelling(&self.read(r));
        let file = match parse_mir_file(&text) {
            Ok(f) => f,
            Err(e) => return Some(Err(format!("{}'s allocation alloc{own} does not parse: {}", self.krate, e.msg))),
        };
        let mut a = file.allocs.into_iter().next()?;
        a.id = id;
        a.static_name = a.static_name.map(|n| self.in_core_spelling(&n));
        Some(Ok(a))
    }

    /// `text` of the crate with its paths as other crates print them
    /// (core's `slice::sort::...` → `core::slice::sort::...`; a
    /// dependency's root items too: `Hasher` → `crc32fast::Hasher`) and
    /// allocation ids moved by its `alloc_base`.
    pub fn in_core_spelling(&self, text: &str) -> String {
        let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        let b = text.as_bytes();
        let mut i = 0;
        let mut prev: Option<char> = None;
        let mut prev_word = "";
        while i < b.len() {
            let c = text[i..].chars().next().expect("in bounds");
            // string constants are copied as they are
            if c == '"' && prev != Some('\'') {
                let mut k = i + 1;
                while k < b.len() && b[k] != b'"' && b[k] != b'\n' {
                    k += if b[k] == b'\\' { 2 } else { 1 };
                }
                let end = (k + 1).min(b.len());
                out.push_str(&text[i..end]);
                prev = Some('"');
                i = end;
                continue;
            }
            // an impl at the crate's root (`fn <impl at src/lib.rs:395:1:
            // 395:52>::try_fill_bytes(`) is `rand_core::<impl at ..>` to
            // other crates, as an impl in a module is `m::<impl at ..>`
            if c == '<' && prev != Some(':') && text[i..].starts_with("<impl at ") && self.krate != "core" {
                out.push_str(&self.krate);
                out.push_str("::<");
                prev = Some('<');
                i += 1;
                continue;
            }
            // after `{closure@`, a path (another crate's closure named by its
            // parent: sha2's `{closure@digest::generic_array::impls::<impl
            // ..>::default::{closure#0}}`), never a span's file name
            let path_after = || text[i..].find(|ch: char| !is_ident(ch)).is_some_and(|k| text[i + k..].starts_with("::"));
            let starts_word = is_ident(c) && !prev.is_some_and(|p| is_ident(p) || p == ':' || p == '/' || p == '.' || (p == '@' && !path_after()) || p == '\'');
            if !starts_word {
                out.push(c);
                i += c.len_utf8();
                prev = Some(c);
                continue;
            }
            let end = text[i..].find(|ch: char| !is_ident(ch)).map_or(text.len(), |k| i + k);
            let word = &text[i..end];
            let after = &text[end..];
            let path_start = after.starts_with("::") && self.index.roots.contains(word);
            // a root item used without a path: a type, a call, a constant
            // (not a `debug NAME =>` name or a `name: T` field)
            let root_item = self.index.root_items.contains(word)
                && prev_word != "debug"
                && (after.starts_with("::") || after.starts_with(" {") || after.chars().next().is_none_or(|n| "<(;,)>]}".contains(n)));
            if path_start && !self.index.reexports.is_empty() {
                // the longest re-exported prefix of the path
                let mut segs = vec![word];
                let mut at = end;
                while let Some(r) = text[at..].strip_prefix("::") {
                    let n = r.find(|ch: char| !is_ident(ch)).unwrap_or(r.len());
                    if n == 0 {
                        break;
                    }
                    segs.push(&r[..n]);
                    at += 2 + n;
                }
                let hit = (2..=segs.len()).rev().find_map(|n| {
                    let p = segs[..n].join("::");
                    self.index.reexports.get(&p).map(|name| (n, name))
                });
                if let Some((n, name)) = hit {
                    let skip: usize = segs[..n].iter().map(|s| s.len()).sum::<usize>() + 2 * (n - 1);
                    out.push_str(&self.krate);
                    out.push_str("::");
                    out.push_str(name);
                    prev = name.chars().last();
                    prev_word = segs[n - 1];
                    i += skip;
                    continue;
                }
            }
            let other = (!path_start && !root_item && after.starts_with("::"))
                .then(|| self.respell.iter().find(|(p, _)| text[i..].starts_with(p.as_str()) && text[i + p.len()..].starts_with("::")))
                .flatten();
            if let Some((p, kernel)) = other {
                // another crate's path, as the kernel spells that crate
                out.push_str(kernel);
                prev = kernel.chars().last();
                prev_word = p.rsplit("::").next().unwrap_or(p);
                i += p.len();
                continue;
            }
            if path_start || root_item {
                out.push_str(&self.krate);
                out.push_str("::");
                out.push_str(word);
            } else if let Some(n) = word.strip_prefix("alloc").and_then(|n| n.parse::<u32>().ok()) {
                out.push_str(&format!("alloc{}", n + self.alloc_base));
            } else {
                out.push_str(word);
            }
            prev = word.chars().last();
            prev_word = word;
            i = end;
        }
        out
    }
}

/// A call whose callee is an unevaluated inline constant of fn-pointer
/// type (`_1 = const sort::partition::<T, F>::{constant#0}(move _2)`): the
/// constant, as written.
fn const_fn_call(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rhs = l.split_once(" = const ")?.1;
        let k = rhs.find("}(")?;
        let callee = &rhs[..k + 1];
        callee.contains("::{constant#").then(|| callee.to_string())
    })
}

/// `switchInt(UbChecks)` is `switchInt(const false)` (parser.rs): the
/// switch becomes a `goto` to its `0` target, and the blocks no longer
/// reachable from `bb0` (the precondition checks) become `unreachable`
/// without statements, so that their calls need not resolve. The same
/// as rustc's codegen, which never generates the branch not taken.
pub fn fold_runtime_checks(body: &mut Body) {
    use crate::mirparse::ast::{ConstVal, Operand, TerminatorKind};
    let mut folded = false;
    for b in &mut body.blocks {
        if let TerminatorKind::SwitchInt { discr: Operand::Const(c), targets, otherwise } = &b.terminator.kind {
            if let ConstVal::Bool(v) = c.val {
                let t = targets.iter().find(|t| t.0 == v as u128).map_or(*otherwise, |t| t.1);
                b.terminator.kind = TerminatorKind::Goto(t);
                folded = true;
            }
        }
    }
    if !folded {
        return;
    }
    let mut seen = vec![false; body.blocks.len()];
    let mut todo = vec![0usize];
    while let Some(k) = todo.pop() {
        if k >= seen.len() || std::mem::replace(&mut seen[k], true) {
            continue;
        }
        todo.extend(successors(&body.blocks[k].terminator.kind).into_iter().map(|s| s as usize));
    }
    for (k, b) in body.blocks.iter_mut().enumerate() {
        if !seen[k] {
            b.statements.clear();
            b.terminator.kind = TerminatorKind::Unreachable;
        }
    }
}

fn successors(t: &crate::mirparse::ast::TerminatorKind) -> Vec<u32> {
    use crate::mirparse::ast::TerminatorKind as T;
    match t {
        T::Goto(b) | T::Drop { target: b, .. } | T::Assert { target: b, .. } => vec![*b],
        T::SwitchInt { targets, otherwise, .. } => targets.iter().map(|t| t.1).chain([*otherwise]).collect(),
        T::Call { target, .. } | T::InlineAsm { target } => target.iter().copied().collect(),
        T::Return | T::Unreachable | T::UnwindResume | T::UnwindTerminate => Vec::new(),
    }
}

/// `name`, or `name@@K` for its `K`th body of that name.
fn dup_key(fns: &HashMap<String, (usize, usize)>, name: &str) -> String {
    if !fns.contains_key(name) {
        return name.to_string();
    }
    (2..).map(|k| format!("{name}@@{k}")).find(|n| !fns.contains_key(n)).expect("a free key")
}

/// The body name of an index key (without `@@K`).
pub fn undup(key: &str) -> &str {
    match key.rsplit_once("@@") {
        Some((n, k)) if k.chars().all(|c| c.is_ascii_digit()) => n,
        _ => key,
    }
}

fn note_root(roots: &mut BTreeSet<String>, name: &str) {
    let root = name.split("::").next().unwrap_or("");
    if !root.is_empty() && !root.starts_with('<') && root.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        roots.insert(root.to_string());
    }
}

/// The item's name in `fn NAME(`/`static NAME: `, up to the `(` or `: `
/// at depth 0.
/// The name of an inline constant's body that starts at `line`
/// (`PATH::{constant#N}: T = {` at the start of the line), else None.
fn inline_const_header(line: &str) -> Option<&str> {
    if !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '<') || !line.trim_end().ends_with("= {") {
        return None;
    }
    item_name(line).filter(|n| n.ends_with('}') && n.rsplit("::").next().is_some_and(|l| l.starts_with("{constant#")))
}

/// A one-line constant's text (`const P: &str = const "00";`) as the
/// body it stands for (`_0 = const "00"; return;`), which a constant of
/// the export is; None for any other text.
fn one_line_const_body(text: &str) -> Option<String> {
    let line = text.trim_end();
    let rest = line.strip_prefix("const ").filter(|l| !l.contains('\n'))?.strip_suffix(';')?;
    let name = item_name(rest)?;
    let (ty, value) = rest[name.len()..].strip_prefix(": ")?.split_once(" = const ")?;
    Some(format!("const {name}: {ty} = {{\n let mut _0: {ty};\n bb0: {{\n _0 = const {value}; // scope 0 at -\n return; // scope 0 at -\n }}\n}}\n"))
}

fn item_name(rest: &str) -> Option<&str> {
    let mut depth = 0i32;
    let b = rest.as_bytes();
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'<' | b'{' | b'[' => depth += 1,
            b'>' if k > 0 && b[k - 1] == b'-' => {}
            b'>' | b'}' | b']' => depth -= 1,
            b'(' if depth == 0 => return Some(&rest[..k]),
            b':' if depth == 0 && b.get(k + 1) == Some(&b' ') => return Some(&rest[..k]),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIR: &str = "fn unicode::n::lookup(_1: char) -> bool {
    let mut _0: bool;                    // return place in scope 0 at /l/core/src/unicode/n.rs:3:1: 3:2
    bb0: {
        _0 = unicode::skip_search::<3>(copy _1, const <static(DefId(0:4 ~ core[1eb9]::unicode::n::T))>) -> [return: bb1, unwind unreachable]; // scope 0 at /l/core/src/unicode/n.rs:4:5: 4:9
    }
}

// MIR FOR CTFE
fn unicode::n::lookup(_1: char) -> bool {
    x
}

static unicode::n::T: [u8; 2] = {
    let mut _0: [u8; 2];
}

alloc7 (static: unicode::n::T, size: 2, align: 1) {
    01 02                                           │ ..
}

slice::sort::unstable::quicksort::partition::{constant#0}: for<'a, 'b, 'c> fn(&'a mut [T], &'b T, &'c mut F) -> usize = {
    let mut _0: for<'a, 'b, 'c> fn(&'a mut [T], &'b T, &'c mut F) -> usize; // return place in scope 0 at /l/core/src/slice/sort/unstable/quicksort.rs:124:25: 124:53

    bb0: {
        ConstEvalCounter; // scope 0 at -
        _0 = slice::sort::unstable::quicksort::inst_partition::<T, F>() -> [return: bb1, unwind: bb2]; // scope 0 at -
    }

    bb1: {
        return; // scope 0 at -
    }

    bb2 (cleanup): {
        resume; // scope 0 at -
    }
}
";

    #[test]
    fn indexes_and_respells() {
        let lib = Library::from_text(MIR.to_string());
        assert!(lib.index.roots.contains("unicode"));
        let (back, version) = Index::parse(&lib.index.serialize()).unwrap();
        assert_eq!(version, INDEX_VERSION);
        assert_eq!((back.fns, back.allocs, back.statics, back.roots), (lib.index.fns.clone(), lib.index.allocs.clone(), lib.index.statics.clone(), lib.index.roots.clone()));
        // an inline constant's body, printed without `const`
        let text = lib.body_text("slice::sort::unstable::quicksort::partition::{constant#0}").unwrap();
        assert!(text.starts_with("core::slice::sort::unstable::quicksort::partition::{constant#0}: for<'a, 'b, 'c> fn("), "{text}");
        assert!(text.trim_end().ends_with('}') && text.contains("resume;"), "{text}");
        let body = lib.body("slice::sort::unstable::quicksort::partition::{constant#0}", "core::slice::sort::unstable::quicksort::partition::{constant#0}");
        assert!(matches!(body, Some(Ok(b)) if b.kind == crate::mirparse::ast::BodyKind::Const && b.blocks.len() == 3));
        let text = lib.body_text("unicode::n::lookup").unwrap();
        assert!(text.starts_with("fn core::unicode::n::lookup(_1: char)"), "{text}");
        assert!(text.contains("core::unicode::skip_search::<3>"), "{text}");
        assert!(text.contains("core[1eb9]::unicode::n::T"), "{text}");
        assert!(text.contains("/l/core/src/unicode/n.rs"), "{text}");
        assert_eq!(lib.in_core_spelling("_1 = const \"alloc7 \\\" unicode::x\"; alloc7 unicode::x"), "_1 = const \"alloc7 \\\" unicode::x\"; alloc1073741831 core::unicode::x");
        let id = lib.static_alloc("unicode::n::T").unwrap();
        assert_eq!(id, ALLOC_BASE + 7);
        let a = lib.alloc(id).unwrap().unwrap();
        assert_eq!((a.id, a.size, a.static_name.as_deref()), (id, 2, Some("core::unicode::n::T")));
    }

    /// An index of version 1 (before inline constants' bodies), under the
    /// legacy name, is completed from the MIR text and written as the
    /// current format's file; the legacy file is left to its mir-export.
    #[test]
    fn upgrades_an_old_index() {
        let dir = std::env::temp_dir().join(format!("oxide-idx-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("core.mir");
        fs::write(&file, MIR).unwrap();
        let mut old = Library::index_of(MIR);
        old.fns.retain(|n, _| !n.contains("{constant#"));
        let v1 = old.serialize().replacen(&format!("oxide-core-mir-index {INDEX_VERSION}"), "oxide-core-mir-index 1", 1);
        fs::write(legacy_index_file(&file), &v1).unwrap();
        assert!(has_index(&file));
        let index = read_index(&file).unwrap();
        assert!(index.fns.contains_key("slice::sort::unstable::quicksort::partition::{constant#0}"));
        assert!(index.fns.contains_key("unicode::n::lookup"));
        let (again, version) = Index::parse(&fs::read_to_string(index_file(&file)).unwrap()).unwrap();
        assert_eq!((version, again.fns.len()), (INDEX_VERSION, index.fns.len()));
        assert_eq!(fs::read_to_string(legacy_index_file(&file)).unwrap(), v1);
        let _ = fs::remove_dir_all(&dir);
    }

    /// A dependency's new build removes the files of its older builds,
    /// never its own MIR and indexes (of any format).
    #[test]
    fn a_dependency_keeps_its_own_indexes() {
        let (prefix, keep) = ("dep-libm-45e9-1.96.0-", "dep-libm-45e9-1.96.0-ff86");
        for own in ["dep-libm-45e9-1.96.0-ff86.mir", "dep-libm-45e9-1.96.0-ff86.v2.idx", "dep-libm-45e9-1.96.0-ff86.idx"] {
            assert!(!is_stale_dep_file(own, prefix, keep), "{own}");
        }
        assert!(is_stale_dep_file("dep-libm-45e9-1.96.0-0aa1.v2.idx", prefix, keep));
        assert!(is_stale_dep_file("dep-libm-45e9-1.96.0-ff86aa.mir", prefix, keep));
        assert!(!is_stale_dep_file("dep-libm-2741-1.96.0-0aa1.mir", prefix, keep));
    }

    /// Indexes of different formats coexist in one cache directory: each
    /// format's file is named by its version, and this mir-export reads
    /// its own, whatever a newer or older one wrote beside it.
    #[test]
    fn index_formats_coexist() {
        let named = index_file(Path::new("/c/core-1.95.0-0123456789ab-00ff.mir"));
        assert_eq!(named, Path::new(&format!("/c/core-1.95.0-0123456789ab-00ff.v{INDEX_VERSION}.idx")));
        let dir = std::env::temp_dir().join(format!("oxide-idx-formats-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("core-1.95.0-x.mir");
        fs::write(&file, MIR).unwrap();
        assert!(!has_index(&file));
        let index = Library::index_of(MIR);
        fs::write(index_file(&file), index.serialize()).unwrap();
        // a newer format's index (which this one could not parse), and a
        // legacy one of format 1, beside it
        let newer = file.with_extension(format!("v{}.idx", INDEX_VERSION + 1));
        let newer_text = format!("oxide-core-mir-index {}\nX a new kind of line\n", INDEX_VERSION + 1);
        fs::write(&newer, &newer_text).unwrap();
        assert!(Index::parse(&newer_text).is_none());
        fs::write(legacy_index_file(&file), "oxide-core-mir-index 1\n").unwrap();
        let read = read_index(&file).unwrap();
        assert_eq!(read.fns, index.fns);
        assert_eq!(fs::read_to_string(&newer).unwrap(), newer_text);
        assert_eq!(fs::read_to_string(legacy_index_file(&file)).unwrap(), "oxide-core-mir-index 1\n");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn compacts_statement_spans_only() {
        let s = compact(MIR);
        assert!(s.contains(" let mut _0: bool; // return place in scope 0 at /l/core/src/unicode/n.rs:3:1"), "{s}");
        assert!(s.contains("unwind unreachable]; // scope 0 at -\n"), "{s}");
        assert!(!s.contains("n.rs:4:5"));
        // it still parses, and indexes as the original
        let lib = Library::from_text(s);
        let body = lib.body("unicode::n::lookup", "core::unicode::n::lookup").unwrap().unwrap();
        assert_eq!(body.blocks.len(), 1);
        assert!(lib.alloc(ALLOC_BASE + 7).unwrap().is_ok());
    }

    #[test]
    fn runtime_checks_fold_away() {
        let text = "fn f(_1: usize) -> () {
    let mut _0: (); // return place in scope 0 at /l/a.rs:1:1: 1:2
    bb0: {
        switchInt(UbChecks) -> [0: bb2, otherwise: bb1]; // scope 0 at -
    }
    bb1: {
        _0 = core::slice::index::precondition_check(copy _1) -> [return: bb2, unwind unreachable]; // scope 0 at -
    }
    bb2: {
        return; // scope 0 at -
    }
}
";
        let lib = Library::from_text(text.to_string());
        let b = lib.body("f", "core::f").unwrap().unwrap();
        use crate::mirparse::ast::TerminatorKind as T;
        assert_eq!(b.blocks[0].terminator.kind, T::Goto(2));
        assert_eq!(b.blocks[1].terminator.kind, T::Unreachable);
        assert_eq!(b.blocks[2].terminator.kind, T::Return);
    }

    #[test]
    fn visible_paths_follow_reexports_to_the_end() {
        let direct: HashMap<String, String> = [
            ("iter::adapters::map::Map", "iter::adapters::Map"),
            ("iter::adapters::Map", "iter::Map"),
            ("ops::control_flow::ControlFlow", "ops::ControlFlow"),
            ("iter::traits::iterator::Iterator", "iter::traits::Iterator"),
            ("iter::traits::Iterator", "iter::Iterator"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let v = visible_closure(&direct);
        assert_eq!(v["iter::adapters::map::Map"], "iter::Map");
        assert_eq!(v["ops::control_flow::ControlFlow"], "ops::ControlFlow");
        assert_eq!(v["iter::traits::iterator::Iterator"], "iter::Iterator");
        let mut lib = Library::from_text("fn iter::traits::iterator::Iterator::fold(_1: Self) -> () {\n}\n".into());
        lib.index.reexports = v;
        assert_eq!(
            lib.in_core_spelling("_3 = iter::adapters::map::Map::<I, F> { iter: move _1 }; iter::traits::iterator::Iterator::fold"),
            "_3 = core::iter::Map::<I, F> { iter: move _1 }; core::iter::Iterator::fold"
        );
        // and back, to find the body
        assert!(lib.body_text("iter::Iterator::fold").is_some());
    }

    #[test]
    fn crates_reached_through_reexports_are_spelled_by_the_first() {
        // sha2 0.10, digest 0.10, crypto-common 0.1, generic-array 0.14, as in Debian
        let src = |t: &str| root_items(t).crates;
        let exports = HashMap::from([
            ("sha2".to_string(), src("pub use digest::{self, Digest};\npub use core_api::{Sha256VarCore};")),
            ("digest".to_string(), src("pub use block_buffer;\npub use crypto_common;\npub use crypto_common::{generic_array, typenum, typenum::consts, Output};")),
            ("crypto_common".to_string(), src("pub use generic_array;\npub use generic_array::typenum;")),
            ("generic_array".to_string(), src("extern crate serde;\npub extern crate typenum;")),
            ("block_buffer".to_string(), src("pub use generic_array;")),
        ]);
        let ext = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let externs = HashMap::from([
            (String::new(), ext(&["sha2", "oxide_device"])),
            ("sha2".to_string(), ext(&["digest", "cfg_if"])),
            ("digest".to_string(), ext(&["block_buffer", "crypto_common"])),
            ("crypto_common".to_string(), ext(&["generic_array", "typenum"])),
            ("generic_array".to_string(), ext(&["typenum"])),
            ("block_buffer".to_string(), ext(&["generic_array"])),
        ]);
        let p = CratePaths::new(externs, exports);
        assert_eq!(p.prefix_of("digest"), "sha2::digest");
        assert_eq!(p.prefix_of("typenum"), "sha2::digest::typenum");
        assert_eq!(p.prefix_of("generic_array"), "sha2::digest::generic_array");
        assert_eq!(p.prefix_of("block_buffer"), "sha2::digest::block_buffer");
        assert_eq!(p.prefix_of("sha2"), "sha2");
        let path = "sha2::digest::typenum::UInt<sha2::digest::typenum::UTerm, B1>";
        assert_eq!(p.crate_prefix("", path), Some(("sha2::digest::typenum".len(), "typenum".to_string())));
        assert_eq!(p.crate_prefix("", "sha2::Sha256VarCore"), Some((4, "sha2".to_string())));
        assert_eq!(p.crate_prefix("", "core::mem::swap"), None);
        // digest's own text names typenum through crypto_common
        let r = p.respellings("digest");
        assert!(r.contains(&("crypto_common::typenum".to_string(), "sha2::digest::typenum".to_string())), "{r:?}");
        let mut lib = Library::from_text("fn f(_1: crypto_common::typenum::B1) -> () {\n}\n".into());
        lib.respell = r;
        assert_eq!(lib.in_core_spelling("_2 = crypto_common::typenum::B1; _3 = block_buffer::Eager; x::crypto_common::y"), "_2 = sha2::digest::typenum::B1; _3 = sha2::digest::block_buffer::Eager; x::crypto_common::y");
        // a closure of another crate named by its parent's path; a span stays
        let t = "_4 = {closure@crypto_common::typenum::f::{closure#0}}; _5 = {closure@src/lib.rs:3:1: 3:4}";
        assert_eq!(lib.in_core_spelling(t), "_4 = {closure@sha2::digest::typenum::f::{closure#0}}; _5 = {closure@src/lib.rs:3:1: 3:4}");
    }

    #[test]
    fn root_items_and_reexports() {
        let src = "//! doc { not code }\n#![no_std]\nmod arrayvec;\npub mod float;\n\
                   pub use crate::arrayvec::{ArrayVec, IntoIter as Iter, inner::{Deep}};\n\
                   pub use float::Float;\npub(crate) use x::Hidden;\npub use core::hash::Hash;\npub use a::{Base as Cascade, b::Hash as Hs};\n\
                   pub struct Hasher { state: u32 }\nstatic mut COUNT: u32 = 0;\npub const fn combine() {}\n\
                   impl Hasher { fn inner() { struct NotRoot; } }\nconst S: &str = \"mod fake;\";\n";
        let r = root_items(src);
        assert_eq!(r.mods, vec![("arrayvec".to_string(), false), ("float".to_string(), true)]);
        assert_eq!(r.items, vec!["Hasher", "COUNT", "combine", "S"]);
        assert_eq!(
            r.uses,
            vec![
                ("ArrayVec".to_string(), "arrayvec::ArrayVec".to_string()),
                ("Iter".to_string(), "arrayvec::IntoIter".to_string()),
                ("Deep".to_string(), "arrayvec::inner::Deep".to_string()),
                ("Float".to_string(), "float::Float".to_string()),
                ("Hash".to_string(), "core::hash::Hash".to_string()),
                ("Cascade".to_string(), "a::Base".to_string()),
                ("Hs".to_string(), "a::b::Hash".to_string()),
            ]
        );
    }

    /// `pub use m::*` of a private module: its `pub` items (not
    /// `pub(crate)` ones, nor a name the root declares itself) print at
    /// the root.
    #[test]
    fn glob_reexports_of_private_modules() {
        let dir = std::env::temp_dir().join(format!("oxide-globs-{}", std::process::id()));
        fs::create_dir_all(dir.join("slicevec")).unwrap();
        fs::write(dir.join("arrayvec.rs"), "pub struct ArrayVec<A> { len: u16, data: A }\npub(crate) fn helper() {}\npub struct Shadowed;\nfn private() {}\n").unwrap();
        fs::write(dir.join("slicevec/mod.rs"), "pub struct SliceVec;\npub fn ambiguous() {}\n").unwrap();
        fs::write(dir.join("arrayvec_drain.rs"), "pub fn ambiguous() {}\n").unwrap();
        fs::write(dir.join("public.rs"), "pub struct Public;\n").unwrap();
        let root = root_items("mod arrayvec;\npub use arrayvec::*;\nmod slicevec;\npub use crate::slicevec::*;\npub mod public;\npub use public::*;\npub struct Shadowed;\nmod arrayvec_drain;\npub use arrayvec_drain::*;\n");
        assert_eq!(root.globs, ["arrayvec", "slicevec", "public", "arrayvec_drain"]);
        let private: Vec<&String> = root.mods.iter().filter(|m| !m.1).map(|m| &m.0).collect();
        let mut found = glob_reexports(&root, &private, &dir);
        found.sort();
        let want = [("arrayvec::ArrayVec", "ArrayVec"), ("slicevec::SliceVec", "SliceVec")];
        assert_eq!(found, want.map(|(p, n)| (p.to_string(), n.to_string())));
        let _ = fs::remove_dir_all(&dir);
    }

    /// A constant rustc prints on one line (no body) is indexed, and read
    /// with its type and value.
    #[test]
    fn one_line_constants() {
        let text = "const xxh32_common::PRIME_3: u32 = const 3266489917_u32;\n\nconst xxh32_common::TABLE: [u8; 2] = {\n    let mut _0: [u8; 2];\n\n    bb0: {\n        _0 = [const 1_u8, const 2_u8];\n        return;\n    }\n}\n";
        let lib = Library::from_text(text.to_string());
        assert!(lib.index.fns.contains_key("xxh32_common::PRIME_3") && lib.index.fns.contains_key("xxh32_common::TABLE"));
        let c = lib.one_line_const("xxh32_common::PRIME_3", "xxhash_rust::xxh32_common::PRIME_3").unwrap();
        assert_eq!((c.name.as_str(), c.ty.to_string()), ("xxhash_rust::xxh32_common::PRIME_3", "u32".to_string()));
        assert_eq!(c.value.val, crate::mirparse::ast::ConstVal::Int { negative: false, text: "3266489917".into() });
        assert_eq!(lib.const_type("xxh32_common::PRIME_3").as_deref(), Some("u32"));
        // a constant with a body is none
        assert!(lib.one_line_const("xxh32_common::TABLE", "t").is_none());
        assert_eq!(lib.const_type("xxh32_common::TABLE").as_deref(), Some("[u8; 2]"));
    }

    #[test]
    fn a_dependency_is_spelled_as_the_kernel_crate_sees_it() {
        let text = "fn arrayvec::new(_1: u32) -> arrayvec::ArrayVec<u32, 4> {
    debug Hasher => _1;
    let mut _0: arrayvec::ArrayVec<u32, 4>; // return place in scope 0 at /r/src/arrayvec.rs:1:1: 1:2
    let mut _2: Hasher;
    bb0: {
        _2 = combine(copy _1) -> [return: bb1, unwind unreachable]; // scope 0 at -
    }
    bb1: {
        _0 = arrayvec::ArrayVec::<u32, 4>::from(alloc3, copy _2.state: u32) -> [return: bb2, unwind unreachable]; // scope 0 at -
    }
    bb2: {
        return; // scope 0 at -
    }
}
";
        let mut lib = Library::from_text(text.to_string());
        lib.krate = "av".into();
        lib.alloc_base = DEP_ALLOC_BASE + ALLOC_SPAN;
        lib.index.root_items.extend(["Hasher".to_string(), "combine".to_string()]);
        lib.index.reexports.insert("arrayvec::ArrayVec".into(), "ArrayVec".into());
        let t = lib.body_text("arrayvec::new").unwrap();
        assert!(t.starts_with("fn av::arrayvec::new(_1: u32) -> av::ArrayVec<u32, 4> {"), "{t}");
        // a debug name and a field stay; a root type, function and
        // allocation are the crate's
        assert!(t.contains("debug Hasher => _1;"), "{t}");
        assert!(t.contains("let mut _2: av::Hasher;"), "{t}");
        assert!(t.contains("_2 = av::combine(copy _1)"), "{t}");
        assert!(t.contains("av::ArrayVec::<u32, 4>::from(alloc1358954499, copy _2.state: u32)"), "{t}");
        assert!(lib.owns_alloc(DEP_ALLOC_BASE + ALLOC_SPAN + 3) && !lib.owns_alloc(ALLOC_BASE + 3));
    }

    #[test]
    fn a_promoted_is_found_under_the_reexported_spelling() {
        let text = "const math::atan::atan::promoted[1]: &[f64; 4] = {
    let mut _0: &[f64; 4]; // return place in scope 0 at /r/src/math/atan.rs:1:1: 1:2
    bb0: {
        return; // scope 0 at -
    }
}
";
        let mut lib = Library::from_text(text.to_string());
        lib.krate = "libm".into();
        lib.index.roots.insert("math".into());
        lib.index.reexports.insert("math::atan::atan".into(), "atan".into());
        // the text of `math::atan::atan` names it `libm::atan::promoted[1]`
        assert_eq!(lib.const_type("atan::promoted[1]").as_deref(), Some("&[f64; 4]"));
        assert!(lib.body("atan::promoted[1]", "libm::atan::promoted[1]").is_some_and(|b| b.is_ok()));
        assert!(lib.const_type("atan::promoted[2]").is_none() && lib.const_type("tan::promoted[1]").is_none());
        // through a glob re-export (no `U` line): the one function `atan`
        let glob = Library::from_text(format!("{text}fn math::atan::atan(_1: f64) -> f64 {{\n    bb0: {{\n        return;\n    }}\n}}\n"));
        assert_eq!(glob.const_type("atan::promoted[1]").as_deref(), Some("&[f64; 4]"));
    }

    #[test]
    fn spans_become_absolute() {
        let t = "let _1: {closure@src/a.rs:3:4: 3:9}; // in scope 0 at src/a.rs:1:2: 1:3\n<impl at /abs/b.rs:1:1: 2:2>::f at - \"x at src/q.rs:1\"";
        let a = absolute_spans(t, Path::new("/reg/k-1.0"));
        assert_eq!(a, "let _1: {closure@/reg/k-1.0/src/a.rs:3:4: 3:9}; // in scope 0 at /reg/k-1.0/src/a.rs:1:2: 1:3\n<impl at /abs/b.rs:1:1: 2:2>::f at - \"x at /reg/k-1.0/src/q.rs:1\"");
    }

    #[test]
    fn macro_impls_that_print_alike_are_all_kept() {
        let body = |ret: &str| format!("fn <impl at /r/src/m.rs:3:9: 3:30>::one() -> {ret} {{\n    let mut _0: {ret}; // return place in scope 0 at /r/src/m.rs:3:9: 3:30\n    bb0: {{\n        return; // scope 0 at -\n    }}\n}}\n");
        let lib = Library::from_text(format!("{}\n{}", body("u8"), body("f64")));
        let mut names = lib.impl_methods("one");
        names.sort();
        assert_eq!(names, vec!["<impl at /r/src/m.rs:3:9: 3:30>::one", "<impl at /r/src/m.rs:3:9: 3:30>::one@@2"]);
        assert_eq!(undup(&names[1]), names[0]);
        assert!(lib.body_text(&names[1]).unwrap().contains("-> f64"));
        assert_eq!(undup("f::{closure#0}"), "f::{closure#0}");
    }

    #[test]
    fn default_methods_through_reexports() {
        let body = |name: &str| format!("fn {name}(_1: &Self) -> usize {{\n    let mut _0: usize; // return place in scope 0 at /l/a.rs:1:1: 1:2\n    bb0: {{\n        return; // scope 0 at -\n    }}\n}}\n");
        let lib = Library::from_text(format!("{}\n{}", body("iter::adapters::zip::TrustedLen::size"), body("iter::traits::iterator::Iterator::zip")));
        assert_eq!(lib.default_method_trait("iter::TrustedLen", "size").as_deref(), Some("iter::adapters::zip::TrustedLen"));
        assert_eq!(lib.default_method_trait("Iterator", "zip").as_deref(), Some("iter::traits::iterator::Iterator"));
        assert_eq!(lib.default_method_trait("iter::traits::iterator::Iterator", "zip").as_deref(), Some("iter::traits::iterator::Iterator"));
        // not defined under the printed module
        assert_eq!(lib.default_method_trait("slice::TrustedLen", "size"), None);
        assert_eq!(lib.default_method_trait("iter::TrustedLen", "zip"), None);
    }

    #[test]
    fn cache_key_follows_the_rustc() {
        let a = RustcInfo { release: "1.96.0".into(), commit_hash: "ac68faa20c58cbccd".into(), verbose: "rustc 1.96.0 (ac68faa20)".into(), ..RustcInfo::default() };
        let b = RustcInfo { commit_hash: "0123456789abcdef".into(), ..a.clone() };
        let c = RustcInfo { verbose: "rustc 1.96.0 (ac68faa20)\nLLVM version: 21".into(), ..a.clone() };
        assert_ne!(cache_file(&a), cache_file(&b));
        assert_ne!(cache_file(&a), cache_file(&c));
        assert_eq!(cache_file(&a), cache_file(&a.clone()));
    }
}
