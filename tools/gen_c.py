#!/usr/bin/env python3
"""Generate railmpi's C entry points from the MPI Forum's description of the API, and the
MPICH ABI's constants from their table.

    python3 tools/gen_c.py            # rewrite the outputs below
    python3 tools/gen_c.py --check    # exit 1 if one is stale (nothing written)

Inputs:
  the MPI Forum's machine-readable API (`apis.json` of the `pympistandard` package, 0.2.0,
  the standard's own source of its language bindings): every procedure's parameters with
  their *kind* (BUFFER, POLYXFER_NUM_ELEM_NNI, RANK, REQUEST, STATUS ...), direction and C
  rendering, and whether it has a large-count (`_c`) form. `make api-deps` installs the
  package into build/api-venv; the generator finds it there (or on PYTHONPATH), through
  tools/mpi_api.py, which loads it for tools/gen_fortran.py and tools/gen_f08.py too.
  tools/c_api.txt: railmpi's table -- which procedures are bound here and which core call
  implements each (see its header).
  tools/mpich_abi.txt: the MPICH ABI's integer and handle constants with MPICH 4.0's values
  (`int NAME VALUE`, `handle TYPE NAME VALUE`, `alias NAME OTHER`, as tools/abi_std.txt has
  the standard ABI's; see its header).

Outputs, checked in (a `make test` case runs --check):
  src/abi/consts/generated.rs  the constants of tools/mpich_abi.txt as Rust `pub const`
                               items, in its order and with its comments (src/abi/consts.rs
                               re-exports them; cbindgen writes them into include/mpi.h)
  src/abi/callbacks.h          the C callback types of the standard (build.rs puts them into
                               include/mpi.h; tools/gen_abi.py into mpi_abi.h)
  src/abi/entry_points.rs      the C entry points, described below

For each c_api.txt line, `PMPI_X` and, where the standard has one, `PMPI_X_c` (build.rs adds
the `MPI_X` aliases and cbindgen the prototypes of include/mpi.h). Each entry point is what DESIGN
§abi asks of a shim: it runs inside the error boundary (`shim::run*`: the error goes to the
handler of the call's communicator, window or file, a panic becomes MPI_ERR_INTERN), checks
and converts its arguments by kind, and calls the core. Conversions by kind:

  non-negative element counts and array lengths (int, MPI_Count) -> usize, MPI_ERR_COUNT
                                                                   when negative
  non-negative sizes in bytes                                     -> usize, MPI_ERR_ARG
  a single REQUEST or MESSAGE out argument                        -> MPI_ERR_ARG when NULL
  a single STATUS out argument                                    -> MPI_ERR_ARG when NULL
                                                                   (MPI_STATUS_IGNORE is not)
  everything else                                                 -> passed as it is

and under the table's `slices` flag (see its header), input arrays whose length is another
parameter:
  the length parameter                                            -> usize, checked by kind
  an integer array of a POLY* kind (int in one form, MPI_Count or
  MPI_Aint in the other)                                          -> &[i64] (widened)
  any other array (handles, enums ...)                            -> &[T], as it is
  (MPI_ERR_ARG for a NULL array of positive length),

so one core function, written once over usize counts, serves the int and the large-count
entry point; an out count (MPI_Get_count) is written through `args::CountOut`, which both
`*mut c_int` and `*mut MPI_Count` implement. Counts of other kinds (a datatype constructor's,
or any under the table's `raw-counts` flag: a collective's count is significant only at some
processes) reach the core as they are, int or MPI_Count, through `args::Int`.

Procedures the standard removed (MPI-1's MPI_Type_struct, MPI_Errhandler_set ...), which
its API no longer describes but MPICH's ABI keeps, take their C prototype from a `proto`
line of the table: no parameter is converted there (unless the line names the procedure
that replaced it, `like MPI_Other`, whose parameters of the same names lend their kinds), and the error handler is that of the
first input communicator, window, file or session, as above.

These checks run before the core's own (initialization, communicator, datatype, rank, tag):
a call with several bad arguments may report the count's class where MPICH, which checks the
communicator first, reports MPI_ERR_COMM. Legal either way (MPI leaves the choice open).
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_api  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tools", "c_api.txt")
OUT = os.path.join(ROOT, "src", "abi", "entry_points.rs")
# The callback types of include/mpi.h (build.rs inserts them).
CALLBACKS_OUT = os.path.join(ROOT, "src", "abi", "callbacks.h")
PYMPISTANDARD = mpi_api.PYMPISTANDARD

# Kinds of the non-negative counts converted to usize.
# Kinds of the non-negative counts converted to usize: elements and array lengths
# (MPI_ERR_COUNT when negative, as MPICH), sizes in bytes (MPI_ERR_ARG, as MPICH).
COUNT_KINDS = {"POLYXFER_NUM_ELEM_NNI", "XFER_NUM_ELEM_NNI", "ARRAY_LENGTH_NNI"}
SIZE_KINDS = {"POLYNUM_BYTES_NNI", "NUM_BYTES_NNI"}
# C scalar types -> Rust (consts.rs defines the MPI ones under their C names).
C_SCALARS = {
    "int": "c_int",
    "void": "c_void",
    "char": "c_char",
    "double": "f64",
}


def load_standard():
    return mpi_api.load_standard("gen_c.py")


# Old names the standard keeps for callback types (MPI-2's `_fn`, MPI-1's handler), and
# the ABI that has each (both, or only MPICH's).
CALLBACK_ALIASES = [
    ("MPI_Comm_errhandler_function", "MPI_Handler_function", "mpich"),
    ("MPI_Comm_errhandler_function", "MPI_Comm_errhandler_fn", "both"),
    ("MPI_Win_errhandler_function", "MPI_Win_errhandler_fn", "both"),
    ("MPI_File_errhandler_function", "MPI_File_errhandler_fn", "both"),
    ("MPI_Session_errhandler_function", "MPI_Session_errhandler_fn", "both"),
]


def callback_typedefs(std, abi):
    """The standard's callback types as C function types (`typedef R (NAME)(...)`, so that a
    parameter declared with one is a function pointer, as in MPICH), large-count forms
    included, then the old names of `abi` ("mpich" or "std")."""
    out = []
    for cb in sorted(std.CALLBACKS.values(), key=lambda c: c._parseset["name"]):
        forms = [cb.express.iso_c]
        if cb.has_embiggenment():
            forms.append(cb.express.embiggen.iso_c)
        for form in forms:
            text = str(form).replace("\\ldots", "...")
            m = re.fullmatch(r"typedef (.+?) (MPI_\w+)\((.*)\)", text)
            if m is None:
                sys.exit(f"gen_c.py: unexpected callback rendering {text!r}")
            ret, name, params = m.groups()
            params = re.sub(r"(\w)\* ", r"\1 *", params)
            out.append(f"typedef {ret} ({name})({params});")
    for old, alias, which in CALLBACK_ALIASES:
        if which == "both" or which == abi:
            out.append(f"typedef {old} {alias};")
    return out


# The Rust types of the callback types (src/abi/consts/callback_types.rs).
CALLBACK_TYPES_OUT = os.path.join(ROOT, "src", "abi", "consts", "callback_types.rs")


def rust_c_type(text):
    """The Rust type of a C parameter (`int *flag`, `MPI_Comm oldcomm`) or return type:
    MPI's types keep their C names (consts.rs defines them)."""
    m = re.fullmatch(r"(?:const\s+)?(\w+)\s*(\**)\s*\w*", text.strip())
    if m is None:
        sys.exit(f"gen_c.py: unexpected C parameter {text!r}")
    rust = C_SCALARS.get(m.group(1), m.group(1))
    for _ in m.group(2):
        rust = f"*mut {rust}"
    return rust


def render_callback_types(std):
    """src/abi/consts/callback_types.rs: each callback type of callback_typedefs as the
    nullable function pointer a Rust shim takes (C's function types are cbindgen's blind
    spot: build.rs writes those from src/abi/callbacks.h)."""
    out = [
        "// GENERATED by tools/gen_c.py from the MPI Forum's API -- do not edit. The callback",
        "// types as nullable function pointers, one for each typedef of src/abi/callbacks.h",
        "// (the same parameters, in C), included by consts.rs's `c_only` module, which",
        "// cbindgen does not see.",
        "",
    ]
    for line in callback_typedefs(std, "mpich"):
        m = re.fullmatch(r"typedef (\w+) \((MPI_\w+)\)\((.*)\);", line)
        if m is None:
            old, alias = re.fullmatch(r"typedef (MPI_\w+) (MPI_\w+);", line).groups()
            out.append(f"pub type {alias} = {old};")
            continue
        ret, name, params = m.groups()
        args = [("..." if p.strip() == "..." else rust_c_type(p)) for p in params.split(",")]
        rret = "" if ret == "void" else f" -> {rust_c_type(ret)}"
        out.append(f"pub type {name} = Option<unsafe extern \"C\" fn({', '.join(args)}){rret}>;")
    return rustfmt("\n".join(out) + "\n")


def render_callbacks(std):
    return "\n".join(
        [
            "/* GENERATED by tools/gen_c.py from the MPI Forum's API -- do not edit.",
            "   The callback types, as C function types (as in MPICH): a parameter declared",
            "   with one of them is a function pointer. build.rs puts them into mpi.h. */",
        ]
        + callback_typedefs(std, "mpich")
    ) + "\n"


# The MPICH ABI's constants: tools/mpich_abi.txt -> src/abi/consts/generated.rs.
MPICH_TABLE = os.path.join(ROOT, "tools", "mpich_abi.txt")
CONSTS_OUT = os.path.join(ROOT, "src", "abi", "consts", "generated.rs")


def read_mpich_table():
    """tools/mpich_abi.txt: its rows (split into words, with their line numbers) and the
    comment lines and blank lines after the file's header, in order: [(lineno, words or
    None, comment text or None)]."""
    items = []
    in_header = True
    with open(MPICH_TABLE) as f:
        for lineno, line in enumerate(f, 1):
            text = line.strip()
            if in_header:
                if text.startswith("#"):
                    continue
                in_header = False
            if text.startswith("#"):
                items.append((lineno, None, text[1:].strip()))
            elif text:
                items.append((lineno, text.split("#", 1)[0].split(), None))
            elif items and items[-1] != (None, None, ""):
                items.append((None, None, ""))
    return items


def mpich_constants():
    """The MPICH ABI's constants by name -> their Rust type (c_int or the handle type), as
    tools/mpich_abi.txt gives them (tools/gen_abi.py asks which ones railmpi has)."""
    types = {}
    for lineno, words, _ in read_mpich_table():
        if words is None:
            continue
        where = f"{MPICH_TABLE}:{lineno}"
        kind = words[0]
        if kind == "number" and len(words) == 5:
            continue
        if kind == "int" and len(words) in (3, 4):
            name, ty, val = words[1], "c_int", words[2]
            if not -(2**31) <= int(val, 0) < 2**31:
                sys.exit(f"{where}: {name}'s value {val} is not a C int")
        elif (kind, len(words)) == ("handle", 4):
            ty, name, val = words[1:]
            if not re.fullmatch(r"0x[0-9a-f]{8}", val):
                sys.exit(f"{where}: a handle's value is 8 lowercase hex digits, not {val}")
        elif (kind, len(words)) == ("alias", 3):
            name, other = words[1:]
            if other not in types:
                sys.exit(f"{where}: {name} names {other}, which no line above defines")
            ty = types[other]
        else:
            sys.exit(
                f"{where}: not `int NAME VALUE [ENUM::VARIANT]`, `handle TYPE NAME VALUE`, "
                "`alias NAME OTHER` or `number ENUM PATH TO FROM`"
            )
        if name in types:
            sys.exit(f"{where}: {name} is defined twice")
        types[name] = ty
    return types


def rust_literal(val):
    """A value of the table as a Rust literal: hex in groups of four digits (`0x4c00_0101`),
    decimal as it is."""
    if not val.startswith("0x"):
        return val
    digits = val[2:]
    groups = []
    while digits:
        groups.insert(0, digits[-4:])
        digits = digits[:-4]
    return "0x" + "_".join(groups)


def render_consts():
    """src/abi/consts/generated.rs: `pub const` items in the table's order (cbindgen keeps
    it), with its comments. A handle is `0x... as MPI_Handle`, which cbindgen prints
    `((MPI_Handle)0x...)` as MPICH's header does; one above i32::MAX is written
    `0x8c00_0000_u32 as MPI_Datatype` (rustc wraps it, as C converts the unsigned literal)."""
    types = mpich_constants()
    out = [
        "//! GENERATED by tools/gen_c.py from tools/mpich_abi.txt -- do not edit; `make c-gen`",
        "//! rewrites it.",
        "//!",
        "//! The MPICH ABI's integer and handle constants (MPICH 4.0's values). `super`",
        "//! (src/abi/consts.rs) defines their types and re-exports them; cbindgen puts them into",
        "//! include/mpi.h in this order.",
        "",
        "use super::*;",
        "use std::os::raw::c_int;",
        "",
    ]
    numbers = {}  # ENUM -> (path, to, from, [(variant, constant)])
    for lineno, words, comment in read_mpich_table():
        if words is None:
            out.append(f"// {comment}" if comment else "")
        elif words[0] == "number":
            numbers[words[1]] = (words[2], words[3], words[4], [])
        elif words[0] == "int":
            out.append(f"pub const {words[1]}: c_int = {rust_literal(words[2])};")
            if len(words) == 4:
                enum, _, variant = words[3].partition("::")
                if enum not in numbers or not variant:
                    sys.exit(f"{MPICH_TABLE}:{lineno}: {words[3]} is no ENUM::VARIANT of a `number` line above")
                if variant in (v for v, _ in numbers[enum][3]):
                    sys.exit(f"{MPICH_TABLE}:{lineno}: {words[3]} has a number already")
                numbers[enum][3].append((variant, words[1]))
        elif words[0] == "handle":
            ty, name, val = words[1:]
            lit = rust_literal(val) + ("_u32" if int(val, 16) > 0x7FFFFFFF else "")
            out.append(f"pub const {name}: {ty} = {lit} as {ty};")
        else:
            out.append(f"pub const {words[1]}: {types[words[1]]} = {words[2]};")
    # A `number` line's functions: each variant's number (rustc says when one is missing),
    # and the variant a number is.
    for enum, (path, to, frm, arms) in numbers.items():
        if to != "-":
            out += ["", f"/// MPICH's number of each `{enum}` (the table's lines that name one)."]
            out += [f"pub const fn {to}(v: {path}) -> c_int {{", f"    use {path} as E;", "    match v {"]
            out += [f"        E::{variant} => {name}," for variant, name in arms]
            out += ["    }", "}"]
        if frm != "-":
            out += ["", f"/// The `{enum}` MPICH's number `n` is (None: no `{enum}`)."]
            out += [f"pub const fn {frm}(n: c_int) -> Option<{path}> {{", f"    use {path} as E;", "    match n {"]
            out += [f"        {name} => Some(E::{variant})," for variant, name in arms]
            out += ["        _ => None,", "    }", "}"]
    return rustfmt("\n".join(out).rstrip("\n") + "\n")


def rustfmt(text):
    """rustfmt's layout, so that `cargo fmt` leaves a generated file as it is."""
    return subprocess.run(
        ["rustfmt", "--edition", "2021", "--emit", "stdout"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout


class Entry:
    """A line of tools/c_api.txt."""

    def __init__(self, lineno, name, call, flags, out=None):
        self.lineno = lineno
        self.name = name
        self.call = call
        # `=> param`: the call's value is written to the output parameter `param`.
        self.out = out
        self.flags = set(flags)
        for f in self.flags:
            if f not in {"on", "world", "file-null", "code", "int-only", "raw-counts", "bare", "tool", "slices"}:
                sys.exit(f"{TABLE}:{lineno}: unknown flag {f!r}")


def table_lines():
    """The table's logical lines with the number of their first: comments dropped, and an
    indented line continuing the one before (long calls wrap: after a comma, or before a
    `.method`, which joins without a space)."""
    lines = []
    with open(TABLE) as f:
        for n, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0]
            if not text.strip():
                continue
            if text[0] in " \t" and lines:
                more = text.strip()
                lines[-1][1] += more if more.startswith(".") else " " + more
            else:
                lines.append([n, text.strip()])
    return lines


def read_table():
    """The table's entries, and the C prototypes its `proto` lines give (name -> text)."""
    entries = []
    protos = {}
    for n, line in table_lines():
        if line.startswith("proto "):
            m = re.match(r"^proto\s+(int\s+(MPI_\w+)\s*\(.*\))(?:\s+like\s+(MPI_\w+))?$", line)
            if not m:
                sys.exit(f"{TABLE}:{n}: cannot read prototype {line!r}")
            protos[m.group(2)] = (m.group(1), m.group(3))
            continue
        m = re.match(r"^(MPI_\w+)\s+(.+?)\s+=>\s+(\w+)\s*(.*)$", line)
        if m:
            entries.append(Entry(n, m.group(1), m.group(2), m.group(4).split(), m.group(3)))
            continue
        # (A path may name a generic's parameters: `attr::free_keyval_of::<attr::WinAttrs>(`.)
        m = re.match(r"^(MPI_\w+)\s+([\w:.<>]+\(.*\))\s*(.*)$", line)
        if not m:
            sys.exit(f"{TABLE}:{n}: cannot read {line!r}")
        entries.append(Entry(n, m.group(1), m.group(2), m.group(3).split()))
    return entries, protos


# The kind of a parameter of a prototype the table gives (a procedure the standard's API
# does not have), by its C type: the handles that choose the error handler; no other
# parameter is checked or converted.
PROTO_KINDS = {"MPI_Comm": "COMMUNICATOR", "MPI_Win": "WINDOW", "MPI_File": "FILE", "MPI_Session": "SESSION"}


def params_of_proto(proto, like=None):
    """The parameters of a prototype the table gives, each an input unless a pointer; with
    `like` (the standard procedure that replaced it, `proto ... like MPI_Other`), a
    parameter of the same name there lends its kind, direction and length, so that the
    old call's arguments are checked and read as the new one's are."""
    same = {}
    if like is not None:
        same = {d["name"]: d for d in like._parseset["parameters"] if not d["large_only"]}
    out = []
    for text in split_params(proto):
        name, ty = rust_param(text)
        d = same.get(name)
        out.append(
            {
                "name": name,
                "type": ty,
                "kind": d["kind"] if d else PROTO_KINDS.get(ty, "OTHER"),
                "dir": d["param_direction"] if d else ("out" if ty.startswith("*") else "in"),
                "array": bool(d and d["length"] is not None),
                "length": d["length"] if d else None,
            }
        )
    return out


def split_params(proto):
    """`int MPI_X(const int a[], MPI_Comm comm)` -> ['const int a[]', 'MPI_Comm comm']."""
    inner = proto[proto.index("(") + 1 : proto.rindex(")")].strip()
    if inner in ("", "void"):
        return []
    return [p.strip() for p in inner.split(",")]


def rust_param(text):
    """A C parameter -> (name, Rust type)."""
    m = re.match(r"^(const\s+)?(\w+)\s+(\w+)\[\]\[(\d+)\]$", text)
    if m:
        # `int ranges[][3]`: a pointer to arrays of 3 (MPI_Group_range_incl).
        const, base, name, n = m.groups()
        ptr = "*const" if const else "*mut"
        return name, f"{ptr} [{C_SCALARS.get(base, base)}; {n}]"
    m = re.match(r"^(const\s+)?([\w ]+?)\s*(\*+)?\s*(\w+)(\[\])?$", text)
    if not m:
        sys.exit(f"gen_c.py: cannot translate C parameter {text!r}")
    const, base, stars, name, array = m.groups()
    level = len(stars or "") + (1 if array else 0)
    rust = C_SCALARS.get(base, base)
    if re.search(r"_function(_c)?$", base) and level == 1:
        # `MPI_User_function *user_fn`: C's callback types are function types, the pointer
        # to one is what consts.rs calls MPI_User_function (a nullable fn pointer).
        return name, rust
    if level == 0:
        return name, rust
    # The outermost pointer is const when the C declaration says so of the pointee.
    ty = rust
    for i in range(level):
        ty = ("*const " if const and i == 0 else "*mut ") + ty
    return name, ty


def params_of(proc, proto, large):
    """Parameters of one C rendering (the large-count one if `large`) with their kinds."""
    kinds = [
        p
        for p in proc._parseset["parameters"]
        if "c_parameter" not in p["suppress"] and (large or not p["large_only"])
    ]
    texts = split_params(proto)
    if len(kinds) != len(texts):
        sys.exit(f"gen_c.py: {proto}: {len(texts)} C parameters, {len(kinds)} in the standard")
    out = []
    for desc, text in zip(kinds, texts):
        name, ty = rust_param(text)
        out.append(
            {
                "name": name,
                "type": ty,
                "kind": desc["kind"],
                "dir": desc["param_direction"],
                "array": desc["length"] is not None or text.endswith("[]"),
                # The standard's length expression of an array: a parameter's name, "*"
                # (known otherwise: the communicator's size ...), or [name, "3"] for the
                # rows of `int ranges[][3]`.
                "length": desc["length"],
            }
        )
    return out


# Under the `slices` flag: the check of an array's length parameter, by its kind (the class
# each shim gave before the generator read its arrays): an element count is MPI_ERR_COUNT
# when negative, as MPICH's; a number of dimensions that must be positive (a subarray's,
# a darray's) and any other length are MPI_ERR_ARG.
LENGTH_CHECKS = {"POLYDTYPE_NUM_ELEM_NNI": "elems", "ARRAY_LENGTH_PI": "positive_len"}


def array_length(p, names):
    """The name of the parameter that gives array `p`'s length (the rows of `ranges[][3]`
    count), or None when the standard gives no such parameter ("*", or not an array)."""
    length = p.get("length")
    if isinstance(length, list):
        length = length[0]
    return length if length in names else None


def slice_reads(params):
    """Under `slices`: {length parameter: check function}, and {input array: its length
    parameter} for the input arrays whose length is another parameter."""
    names = {q["name"] for q in params if not q["array"]}
    arrays = {p["name"]: array_length(p, names) for p in params if p["dir"] == "in" and p["array"]}
    arrays = {a: n for a, n in arrays.items() if n is not None}
    kinds = {q["name"]: q["kind"] for q in params}
    lengths = {n: LENGTH_CHECKS.get(kinds[n], "len") for n in arrays.values()}
    return lengths, arrays


def conversions(params, raw_counts, slices=False):
    """The statements that check and convert arguments by kind, in parameter order."""
    lines = []
    # The MPI-IO chapter gives its counts kind POLYXFER_NUM_ELEM (without _NNI), yet a
    # negative one is erroneous there too: MPI_ERR_COUNT, as MPICH's ROMIO says.
    file_call = any(p["kind"] == "FILE" for p in params)
    lengths, arrays = slice_reads(params) if slices else ({}, {})
    for p in params:
        n, k = p["name"], p["kind"]
        if file_call and k == "POLYXFER_NUM_ELEM":
            k = "POLYXFER_NUM_ELEM_NNI"
        if n in lengths or (slices and k == "POLYDTYPE_NUM_ELEM_NNI" and not p["array"]):
            # A length (or a constructor's count, block length): checked, then a usize.
            f = lengths.get(n, "elems")
            lines.append(f'let {n} = args::{f}({n}, "{n}")?;')
        elif n in arrays:
            # Read where the array comes in the parameter order (a NULL array of positive
            # length is MPI_ERR_ARG). An integer array whose C type differs between the
            # call and its large-count form (a POLY kind) is widened to i64, so that one
            # core function serves both forms; any other is borrowed as it is.
            widen = k.startswith("POLY") and re.search(r"\b(c_int|MPI_Count|MPI_Aint)$", p["type"])
            if widen:
                lines.append(f'let {n} = &args::ints({n}, {arrays[n]}, "{n}")?;')
            else:
                lines.append(f'let {n} = args::slice({n}, {arrays[n]}, "{n}")?;')
        elif k in COUNT_KINDS and p["dir"] == "in" and not p["array"] and not raw_counts:
            lines.append(f"let {n} = args::count({n})?;")
        elif k in SIZE_KINDS and p["dir"] == "in" and not p["array"]:
            lines.append(f"let {n} = args::size({n})?;")
        elif k in ("REQUEST", "MESSAGE") and p["dir"] == "out" and not p["array"]:
            lines.append(f'args::out_ptr({n}, "{n}")?;')
        elif k == "STATUS" and p["dir"] == "out" and not p["array"]:
            lines.append(f"args::status_arg({n})?;")
    return lines


def error_target(entry, params):
    """(run function, its object argument) for the call's errors."""
    if "on" in entry.flags:
        return "run_on", "&on"
    if "file-null" in entry.flags:
        return "run_file", "MPI_FILE_NULL"
    if "world" not in entry.flags:
        targets = (
            ("COMMUNICATOR", "run"),
            ("WINDOW", "run_win"),
            ("FILE", "run_file"),
            ("SESSION", "run_session"),
        )
        nulls = {
            "COMMUNICATOR": "MPI_COMM_NULL",
            "WINDOW": "MPI_WIN_NULL",
            "FILE": "MPI_FILE_NULL",
            "SESSION": "MPI_SESSION_NULL",
        }
        for kind, run in targets:
            for p in params:
                if p["kind"] == kind and p["dir"] == "in" and not p["array"]:
                    return run, p["name"]
                # The object a call frees (MPI_Session_finalize): read before the call.
                if p["kind"] == kind and p["dir"] == "inout" and not p["array"]:
                    return run, f"shim::deref_or({p['name']}, {nulls[kind]})"
        # A call that makes an object and is given its error handler (MPI_Session_init,
        # MPI_Comm_create_from_group): errors go to that handler, the object NULL.
        for p in params:
            if p["kind"] == "ERRHANDLER" and p["dir"] == "in":
                made = "MPI_SESSION_NULL" if any(q["kind"] == "SESSION" for q in params) else "MPI_COMM_NULL"
                return "run_errh", f"{p['name']}, {made}"
    return "run", "MPI_COMM_WORLD"


def render_entry(entry, cname, params):
    args_text = ", ".join(p["name"] for p in params)
    call = entry.call.replace("..", args_text) if ".." in entry.call else entry.call
    call = call.replace("@large", "true" if cname.endswith("_c") else "false")
    call = call.replace("@name", f'"{cname}"')
    run, obj = error_target(entry, params)
    sig = ", ".join(f"{p['name']}: {p['type']}" for p in params)
    body = conversions(params, "raw-counts" in entry.flags, "slices" in entry.flags)
    if entry.out is not None:
        # The output is checked before the call (which may make an object), then written.
        if not any(p["name"] == entry.out and p["type"].startswith("*mut") for p in params):
            sys.exit(f"{TABLE}:{entry.lineno}: {cname} has no output parameter {entry.out!r}")
        check = f'args::out_ptr({entry.out}, "{entry.out}")?;'
        if check not in body:  # (not twice: a request's is checked by kind)
            body.append(check)
        call = f"{entry.out}.write({call});\n        Ok(())"
    # In the standard-ABI build (`std-abi`), src/abi_std's entry points take the MPI names
    # and call these under names of their own.
    out = [
        "#[no_mangle]",
        f'#[cfg_attr(feature = "std-abi", export_name = "MPICH_P{cname}")]',
        f'pub unsafe extern "C" fn P{cname}({sig}) -> c_int {{',
    ]
    indent = "    "
    if "tool" in entry.flags:
        # MPI_T: the error is the return code, no handler runs; the core checks its
        # arguments (an MPI_T error class for each). With `=> param` the output is
        # checked first, as elsewhere (no conversions by kind: MPI_T's are the core's).
        if entry.out is None:
            out += [f'{indent}shim::run_tool("{cname}", || {call})', "}"]
        else:
            out.append(f'{indent}shim::run_tool("{cname}", || {{')
            out.append(f'{indent * 2}args::out_ptr({entry.out}, "{entry.out}")?;')
            out.append(f"{indent * 2}{call}")
            out.append(f"{indent}}})")
            out.append("}")
        return "\n".join(out)
    if "bare" in entry.flags:
        # The core call is the whole body (its own error boundary, its own checks).
        out += [f"{indent}{call}", "}"]
        return "\n".join(out)
    if run == "run_on":
        out.append(f"{indent}let on = Cell::new(MPI_COMM_WORLD);")
    if "code" in entry.flags:
        # The core call's Ok is the call's own return code (MPI_Start of a persistent
        # collective whose error went to its communicator's handler already).
        out.append(f"{indent}let mut code = MPI_SUCCESS;")
        body_call = f"code = {call}?;\n{indent * 2}Ok(())"
    else:
        body_call = call
    head = f'shim::{run}("{cname}", {obj}, || '
    if body:
        out.append(f"{indent}let rc = {head}{{" if "code" in entry.flags else f"{indent}{head}{{")
        for line in body:
            out.append(f"{indent * 2}{line}")
        out.append(f"{indent * 2}{body_call}")
        out.append(f"{indent}}}){';' if 'code' in entry.flags else ''}")
    elif "code" in entry.flags:
        out.append(f"{indent}let rc = {head}{{")
        out.append(f"{indent * 2}{body_call}")
        out.append(f"{indent}}});")
    else:
        out.append(f"{indent}{head}{call})")
    if "code" in entry.flags:
        out.append(f"{indent}if rc == MPI_SUCCESS {{ code }} else {{ rc }}")
    out.append("}")
    return "\n".join(out)


def render(std, entries, protos):
    procs = mpi_api.procedures(std)
    chunks = []
    seen = set()
    names = {e.name: e for e in entries}
    for e in entries:
        base = names.get(e.name[:-2]) if e.name.endswith("_c") else None
        if base is not None and "int-only" not in base.flags:
            sys.exit(f"{TABLE}:{e.lineno}: {e.name} has a line of its own: mark {base.name} int-only")
        if e.name in seen:
            sys.exit(f"{TABLE}:{e.lineno}: {e.name} listed twice")
        seen.add(e.name)
        # `MPI_X_c` on a line of its own: the large-count form, with a call of its own (its
        # parameters differ from MPI_X's: MPI_Type_get_envelope_c).
        if e.name in protos:
            # A procedure the standard removed (MPI-1's MPI_Type_struct ...): as the table's
            # prototype says, no large-count form.
            if e.name in procs:
                sys.exit(f"{TABLE}:{e.lineno}: {e.name} is in the standard's API: no prototype")
            proto, like = protos[e.name]
            if like is not None and like not in procs:
                sys.exit(f"{TABLE}:{e.lineno}: {like} is not in the standard's API")
            chunks.append(render_entry(e, e.name, params_of_proto(proto, procs.get(like))))
            continue
        large_only = e.name.endswith("_c") and e.name[:-2] in procs
        proc = procs.get(e.name[:-2] if large_only else e.name)
        if proc is None:
            sys.exit(f"{TABLE}:{e.lineno}: {e.name} is not in the standard's API (a removed "
                     "procedure needs a `proto` line)")
        if large_only:
            if not proc.has_embiggenment():
                sys.exit(f"{TABLE}:{e.lineno}: {e.name[:-2]} has no large-count form")
            proto = str(proc.express.embiggen.iso_c)
            chunks.append(render_entry(e, e.name, params_of(proc, proto, True)))
            continue
        if proc._parseset["return_kind"] not in ("ERROR_CODE", "ERROR_CLASS"):
            sys.exit(f"{TABLE}:{e.lineno}: {e.name} does not return an error code")
        forms = [(e.name, str(proc.express.iso_c))]
        if proc.has_embiggenment() and "int-only" not in e.flags:
            forms.append((e.name + "_c", str(proc.express.embiggen.iso_c)))
        for cname, proto in forms:
            chunks.append(render_entry(e, cname, params_of(proc, proto, cname.endswith("_c"))))
    for name in protos:
        if name not in names:
            sys.exit(f"{TABLE}: a prototype of {name}, which has no line")
    # The core modules the calls name (`module::function(...)`, and `module::CONST` args):
    # a path's first segment, but for paths from the crate root and other crates.
    mods = sorted(
        {m for e in entries for m in re.findall(r"(?<![\w:])([a-z_0-9]+)::", e.call)}
        - {"args", "shim", "std", "super", "crate", "libc"}
    )
    mods = ", ".join(mods)
    head = f"""//! GENERATED by tools/gen_c.py from the MPI Forum's API (pympistandard {PYMPISTANDARD})
//! and tools/c_api.txt -- do not edit; `make c-gen` rewrites it.
//!
//! The C entry points of the procedures the table lists, each with its large-count form:
//! the error boundary, the argument checks by kind, the core call.

// (unused_variables: an argument a call ignores, as the buffer of a split collective's _end;
// redundant_closure: a call without arguments, written as every other; unit_arg: `Ok(f())`
// for a table call f that cannot fail.)
#![allow(clippy::too_many_arguments, clippy::redundant_closure, clippy::unit_arg, unused_imports, unused_variables)]

use super::args;
use super::consts::*;
use super::shim;
use super::{{{mods}}};
use std::cell::Cell;
use std::os::raw::{{c_char, c_int, c_void}};
"""
    return rustfmt(head + "\n" + "\n\n".join(chunks) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the output is stale")
    a = ap.parse_args()
    std = load_standard()
    outputs = (
        (OUT, render(std, *read_table())),
        (CALLBACKS_OUT, render_callbacks(std)),
        (CALLBACK_TYPES_OUT, render_callback_types(std)),
        (CONSTS_OUT, render_consts()),
    )
    for path, text in outputs:
        old = open(path).read() if os.path.exists(path) else None
        if a.check:
            if old != text:
                sys.exit(f"{path} is stale: run `make c-gen` (tools/gen_c.py)")
            continue
        if old != text:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
