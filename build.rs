//! Build script: generates the C header and the MPI_X symbol aliases of libmpi.so.
//!
//! 1. cbindgen reads `src/abi/` (from `src/abi/mod.rs`, following its `mod` items) with
//!    `cbindgen.toml` and renders types, integer constants and the prototypes of the
//!    `#[no_mangle] pub unsafe extern "C" fn PMPI_X` shims.
//! 2. The output is post-processed (see `postprocess`) and written to `$OUT_DIR/mpi.h`
//!    (always that path). `make header` copies it to `include/mpi.h`, which is checked in;
//!    the unit test `abi::consts::tests::header_is_fresh` fails when the two differ.
//! 3. For every `PMPI_X` found, the cdylib gets `MPI_X` as an exported alias of the same
//!    code (`--defsym` plus a version script), and the soname `libmpi.so.12`. Tools that
//!    define `MPI_X` themselves (PMPI interposition) take precedence over the alias. So do
//!    the `mpi_f08` entry points `PMPI_X_f08ts` (src/abi/fortran, not in the header).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

/// The MPICH soname: binaries linked against MPICH's libmpi.so.12 load railmpi instead.
const SONAME: &str = "libmpi.so.12";
/// The MPI-5.0 standard ABI's soname (the `std-abi` build).
const STD_ABI_SONAME: &str = "libmpi_abi.so.1";

/// C callback typedefs (generated from the standard by tools/gen_c.py) and `extern` data,
/// inserted at the top of the `extern "C"` block: after cbindgen's typedefs (they use
/// MPI_Comm, MPI_Status, ...) and before the prototypes (which use them). They are C function
/// types, as in MPICH, which cbindgen cannot express; the Rust side (`src/abi/consts.rs`) has
/// them as nullable function pointers.
const CALLBACKS: &str = concat!(
    include_str!("src/abi/callbacks.h"),
    "
/* Data exported by the library (MPICH declares these extern too). */
extern int * const MPI_UNWEIGHTED;
extern struct MPIR_T_pvar_handle_s * const MPI_T_PVAR_ALL_HANDLES;
extern int * const MPI_WEIGHTS_EMPTY;
extern MPI_Fint *MPI_F_STATUS_IGNORE;
extern MPI_Fint *MPI_F_STATUSES_IGNORE;
"
);

fn main() {
    println!("cargo:rerun-if-changed=src/abi");
    println!("cargo:rerun-if-changed=src/abi_std");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");

    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));

    let config = cbindgen::Config::from_file(manifest.join("cbindgen.toml"))
        .unwrap_or_else(|e| panic!("cbindgen.toml: {e}"));
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(manifest.join("src/abi/mod.rs"))
        .generate()
        .unwrap_or_else(|e| panic!("cbindgen could not read src/abi: {e}"));
    let mut raw = Vec::new();
    bindings.write(&mut raw);
    let raw = String::from_utf8(raw).expect("cbindgen wrote UTF-8");

    let (header, mut pmpi) = postprocess(&raw);
    write_if_changed(&out_dir.join("mpi.h"), &header);

    // The standard-ABI build (feature `std-abi`): libmpi_abi.so.1, whose `MPI_X` are
    // aliases of src/abi_std's `PMPI_X` (the MPICH-ABI ones are `MPICH_PMPI_X` there).
    let std_abi = env::var_os("CARGO_FEATURE_STD_ABI").is_some();
    if std_abi {
        pmpi = abi_std_pmpi(&manifest);
    } else {
        pmpi.extend(fortran_pmpi(&manifest));
    }
    let soname = if std_abi { STD_ABI_SONAME } else { SONAME };
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    // Never unloaded (dlclose keeps it): the library's threads (progress, launcher watch,
    // RMA helpers) run its code until the process ends, and so does its exit handler
    // (runtime::env's on_exit, which glibc does not drop when a library goes).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    if !pmpi.is_empty() {
        let mut script = String::from("{\n  global:\n");
        for name in &pmpi {
            let alias = &name[1..]; // PMPI_X -> MPI_X
            println!("cargo:rustc-cdylib-link-arg=-Wl,--defsym={alias}={name}");
            writeln!(script, "    {alias};").unwrap();
        }
        script.push_str("};\n");
        // A second anonymous version script beside rustc's: rust-lld (rustc's default linker
        // on x86_64 Linux) and gold merge them; GNU ld (bfd) rejects it ("anonymous version
        // tag cannot be combined with other version tags").
        let script_path = out_dir.join("mpi_aliases.map");
        write_if_changed(&script_path, &script);
        println!(
            "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
            script_path.display()
        );
    }
}

/// The `PMPI_X` entry points of the `mpi_f08` module (`PMPI_Send_f08ts`, ...), which
/// cbindgen does not see: their `MPI_X` names are aliases too, as MPI-3.1 section 17.1.5
/// wants for profiling tools.
fn fortran_pmpi(manifest: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for file in ["f08_generated.rs", "f08_support.rs"] {
        let path = manifest.join("src/abi/fortran").join(file);
        let text =
            fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for line in text.lines() {
            let Some((_, rest)) = line.split_once("extern \"C\" fn PMPI_") else {
                continue;
            };
            if !line.trim_start().starts_with("pub ") {
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push(format!("PMPI_{name}"));
        }
    }
    out
}

/// The standard ABI's `PMPI_X` entry points (src/abi_std: generated and by hand).
fn abi_std_pmpi(manifest: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for file in ["entry_points.rs", "extra.rs", "fortran.rs", "removed.rs"] {
        let path = manifest.join("src/abi_std").join(file);
        let text =
            fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for line in text.lines() {
            // `fn PMPI_X(`, or a line of extra.rs's `int_conversions!` (`MPI_Type PMPI_A ...,`).
            if let Some((_, rest)) = line.split_once("fn PMPI_") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push(format!("PMPI_{name}"));
            } else if line.starts_with("    MPI_") && line.trim_end().ends_with(',') {
                let words = line.trim().trim_end_matches(',').split_whitespace();
                out.extend(words.filter(|w| w.starts_with("PMPI_")).map(String::from));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Writes `text` to `path` unless it already holds exactly that.
fn write_if_changed(path: &std::path::Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }
}

/// Turns cbindgen's output into the header; returns it and the `PMPI_X` names, sorted.
///
/// - `#define X (T)N` becomes `#define X ((T)0xHHHHHHHH)` (MPICH's spelling of handles);
///   other positive values of 2^24 and above are written in hex, negative ones in parentheses.
/// - Each `PMPI_X` prototype gets an identical `MPI_X` one; all `MPI_X` prototypes come
///   first, then the `PMPI_X` ones (and other `MPI*` functions such as `MPIR_Dup_fn`).
///   Prototypes of functions, and `#define`s, whose names are not MPI's are left out (cbindgen
///   takes every `pub const` and `#[no_mangle]` function it finds under src/abi).
/// - `CALLBACKS` goes at the top of the `extern "C"` block.
/// - C++-style comments become C comments, so the header is C89-clean.
fn postprocess(raw: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = raw.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len() * 2);
    let mut mpi_protos = Vec::new();
    let mut pmpi_protos = Vec::new();
    let mut pmpi_names = Vec::new();
    let mut protos_at = None;
    let mut callbacks_inserted = false;

    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(name) = prototype_name(line) {
            protos_at.get_or_insert(out.len());
            // cbindgen spells struct parameters `struct MPI_Status *`; MPICH, `MPI_Status *`.
            let line = &line.replace("(struct ", "(").replace(" struct ", " ");
            // MPI_Pcontrol is variadic in C; the Rust shim takes the level only (the extra
            // arguments of a variadic call are the caller's to clean up on x86-64 and arm64).
            let line = &line.replace("Pcontrol(int level)", "Pcontrol(const int level, ...)");
            if let Some(rest) = name.strip_prefix("PMPI_") {
                mpi_protos.push(line.replacen(name, &format!("MPI_{rest}"), 1));
                pmpi_protos.push(line.to_string());
                pmpi_names.push(name.to_string());
            } else if name.starts_with("MPI") {
                pmpi_protos.push(line.to_string());
            } else {
                println!("cargo:warning=mpi.h: leaving out `{name}` (not an MPI name)");
            }
        } else if line.is_empty()
            && lines
                .get(i + 1)
                .is_some_and(|l| prototype_name(l).is_some())
        {
            // Blank lines before prototypes: the grouped block supplies its own.
        } else if line.is_empty()
            && lines
                .get(i + 1)
                .is_some_and(|next| same_one_liner(&out, next))
        {
            // cbindgen puts a blank line after every item; keep runs of #defines and
            // one-line typedefs together.
        } else if let Some(def) = line.strip_prefix("#define ") {
            let name = def.split(' ').next().unwrap_or(def);
            // RAILMPI: cbindgen.toml's own mark that this is railmpi's header.
            if name.starts_with("MPI") || name.starts_with("PMPI_") || name == "RAILMPI" {
                out.push(format!("#define {}", rewrite_define(def)));
            } else {
                // A `pub const` elsewhere in src/abi: not part of the C interface.
                println!(
                    "cargo:warning=mpi.h: leaving out constant `{name}` (not an MPI name; \
                     make it pub(crate) to silence this)"
                );
            }
        } else if line == "extern \"C\" {" {
            // cbindgen: `#ifdef __cplusplus` / `extern "C" {` / `#endif // __cplusplus`.
            out.push(line.to_string());
            if lines.get(i + 1).is_some_and(|l| l.starts_with("#endif")) {
                out.push("#endif /* __cplusplus */".to_string());
                i += 1;
            }
            out.push(String::new());
            out.push(CALLBACKS.trim_end().to_string());
            callbacks_inserted = true;
        } else {
            out.push(c_comments(line));
        }
        i += 1;
    }
    assert!(
        callbacks_inserted,
        "cbindgen wrote no extern \"C\" block (no functions in src/abi?)"
    );

    // Both groups sorted by name (cbindgen's order), MPI_X first as in MPICH's header.
    let at = protos_at.expect("no prototypes in cbindgen's output");
    let mut block = vec![String::new()];
    block.extend(mpi_protos);
    block.push(String::new());
    block.extend(pmpi_protos);
    block.push(String::new());
    out.splice(at..at, block);

    let mut text = out.join("\n");
    text.push('\n');
    // Collapse runs of blank lines left by the regrouping.
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    pmpi_names.sort();
    (text, pmpi_names)
}

/// Whether `next` and the last line written are both `#define`s or both one-line typedefs.
fn same_one_liner(out: &[String], next: &str) -> bool {
    let kind = |l: &str| {
        if l.starts_with("#define ") {
            1
        } else if l.starts_with("typedef ") && l.ends_with(';') {
            2
        } else {
            0
        }
    };
    out.last()
        .is_some_and(|prev| kind(prev) != 0 && kind(prev) == kind(next))
}

/// The function name if `line` is a one-line prototype `RET NAME(ARGS);`.
fn prototype_name(line: &str) -> Option<&str> {
    if line.starts_with(['#', '/', ' ', '*', '}']) || line.starts_with("typedef") {
        return None;
    }
    if !line.ends_with(");") {
        return None;
    }
    let head = &line[..line.find('(')?];
    let name = head.rsplit([' ', '*']).next()?;
    let ident = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (ident && head.len() > name.len()).then_some(name)
}

/// Rewrites the value part of `NAME VALUE` (see `postprocess`).
fn rewrite_define(def: &str) -> String {
    let Some((name, value)) = def.split_once(' ') else {
        return def.to_string();
    };
    let parse = |v: &str| v.strip_suffix('u').unwrap_or(v).parse::<u64>().ok();
    if let Some(rest) = value.strip_prefix('(') {
        if let Some((ty, num)) = rest.split_once(')') {
            if let Some(n) = parse(num) {
                return format!("{name} (({ty})0x{n:08x})");
            }
        }
    } else if let Some(num) = value.strip_prefix('-') {
        if parse(num).is_some() {
            return format!("{name} ({value})");
        }
    } else if let Some(n) = parse(value) {
        if n >= 1 << 24 {
            return format!("{name} 0x{n:08x}");
        }
    }
    def.to_string()
}

/// `#endif // X` and `}  // X` as C comments.
fn c_comments(line: &str) -> String {
    match line.split_once("// ") {
        Some((code, comment)) if code.trim_start().starts_with(['#', '}']) => {
            format!("{}/* {} */", code, comment.trim_end())
        }
        _ => line.to_string(),
    }
}
