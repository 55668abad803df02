#!/usr/bin/env python3
"""Generate railmpi's Fortran interface from the C header.

    python3 tools/gen_fortran.py            # rewrite the generated files
    python3 tools/gen_fortran.py --check    # exit 1 if they are stale (nothing written)
    python3 tools/gen_fortran.py --header H --rust R --mpif F   # other paths (tests)

Reads include/mpi.h (itself generated from src/abi by build.rs/cbindgen) and writes

  src/abi/fortran/generated.rs  the `mpi_x_` / `pmpi_x_` entry points (gfortran's naming),
                                one pair per `int PMPI_X(...)` prototype it can bind, each
                                calling the C `PMPI_X`;
  include/mpif.h                every integer constant of mpi.h as a Fortran PARAMETER, plus
                                the Fortran-only ones and the COMMON blocks that carry
                                MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... by address.
                                Values are MPICH's Fortran ones: the MPI_MAX_* string lengths
                                are C's minus one (no NUL), the predefined attribute keyvals
                                C's plus one (support.rs maps them back).

Both are checked in. Re-run after `make header`; functions added to the C library are picked
up automatically. A prototype with an argument the rules below do not cover is left out
(never bound wrongly) and listed at the end of generated.rs and on stderr.

Argument rules (C prototype -> Fortran binding, gfortran conventions):
  int / handle / MPI_Aint / MPI_Offset / MPI_Count by value  -> by reference, dereferenced
  pointers to int, handles, MPI_Aint ...                     -> passed through (same layout:
                                                                MPI_Fint is int, handles are
                                                                MPICH's integers, LOGICAL is
                                                                0/1 with gfortran)
  choice buffers (void *buf, sendbuf, ...)                   -> MPI_BOTTOM / MPI_IN_PLACE
                                                                recognised by address
  MPI_Status *status / *statuses                             -> INTEGER(MPI_STATUS_SIZE)
                                                                arrays (same layout as C);
                                                                MPI_STATUS(ES)_IGNORE by address
  weights (int *sourceweights, ...)                          -> MPI_UNWEIGHTED,
                                                                MPI_WEIGHTS_EMPTY by address
  const char * / char *                                      -> CHARACTER*(*) with gfortran's
                                                                hidden size_t length appended
                                                                after ierror; input trimmed,
                                                                output blank-padded
  MPI_User_function, *_errhandler_function                   -> the procedure's address (the
                                                                Fortran and C calling
                                                                conventions agree for these)
  int return value                                           -> INTEGER ierror, last argument
Special cases (SPECIAL below, matched on the C parameter types, skipped if those change):
MPI_Init and MPI_Init_thread (no argc/argv), MPI_Wtime and MPI_Wtick (DOUBLE PRECISION
functions), MPI_Pcontrol (no IERROR), MPI_Aint_add/diff (INTEGER(KIND=MPI_ADDRESS_KIND)
functions), attribute get/set (the value itself is the attribute; predefined keyvals are C's
plus one, as in MPICH), keyval creation (Fortran copy/delete procedures called through C
trampolines in support.rs), MPI_Buffer_detach, MPI_Info_create_env (no argc/argv),
MPI_Grequest_start (Fortran query/free/cancel subroutines called through C trampolines in
support.rs), MPI_Register_datarep (procedures passed on, MPI_CONVERSION_FN_NULL as NULL).
By rule: Waitany/Testany/Waitsome/Testsome return 1-based indices; the MPI-1 calls
MPI_Address, MPI_Type_extent/lb/ub/hvector/hindexed/struct take default-INTEGER addresses
(converted; overflow is MPI_ERR_ARG).
MPI-IO: a file handle is MPI_File_c2f's INTEGER (MPI_File_f2c gives the C handle; an
MPI_File * is converted back after the call); MPI_Offset is INTEGER(KIND=MPI_OFFSET_KIND).
A file error handler's procedure is passed on (railmpi's C handle holds the INTEGER in its
first four bytes, so the handler reads its own handle).
Not bound, by design: the _c (large-count) and MPI_T_ calls, handle conversions (_c2f/_f2c),
arrays of strings (MPI_Comm_spawn*). The procedures with no C function (MPI_F_SYNC_REG,
MPI_CONVERSION_FN_NULL) are written by hand in support.rs, MPI_SIZEOF (generic: it needs the
argument's type) is an interface in the `mpi` module (include/mpi_module.f90).
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "mpi.h")
RUST_OUT = os.path.join(ROOT, "src", "abi", "fortran", "generated.rs")
MPIF_OUT = os.path.join(ROOT, "include", "mpif.h")

# ---------------------------------------------------------------------------------------
# Header parsing
# ---------------------------------------------------------------------------------------

SCALARS = {"MPI_Aint", "MPI_Offset", "MPI_Count"}  # 8-byte integers (long on LP64)
# Callback types whose Fortran form has the C calling convention (all arguments by
# reference): the procedure's address is passed on unchanged.
PASS_CALLBACKS = {
    "MPI_User_function",
    "MPI_Comm_errhandler_function",
    "MPI_Handler_function",
    "MPI_Comm_errhandler_fn",
    "MPI_Win_errhandler_function",
    "MPI_Win_errhandler_fn",
    "MPI_File_errhandler_function",
    "MPI_File_errhandler_fn",
    "MPI_Session_errhandler_function",
    "MPI_Session_errhandler_fn",
}
# Choice buffers: MPI_BOTTOM and MPI_IN_PLACE are recognised by address.
BUFFER_NAMES = {
    "buf", "buffer", "sendbuf", "recvbuf", "inbuf", "outbuf", "inoutbuf", "origin_addr",
    "result_addr", "compare_addr", "location", "base", "userbuf", "filebuf",
}
# `void *` that receives a pointer (Fortran: INTEGER(KIND=MPI_ADDRESS_KIND) or TYPE(C_PTR)).
POINTER_OUT_NAMES = {"baseptr"}
WEIGHT_NAMES = {"sourceweights", "destweights", "weights"}
ERRCODE_NAMES = {"array_of_errcodes"}
STATUSES_NAMES = {"statuses", "array_of_statuses"}
# Calls that return strings (MPI_Comm_get_name, MPI_Info_get, MPI_Error_string, ...).
STR_OUT_FUNCS = re.compile(r"_(get|Get)(_|$)|^PMPI_(Error_string|Open_port|Lookup_name)$")
RUST_KEYWORDS = {
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
}
# Locals the generated bodies use; a parameter with one of these names is renamed.
RESERVED_LOCALS = {"rc", "ierror"}


class Header:
    def __init__(self, text):
        self.int_types = set()  # typedef int X (handles, MPI_Fint)
        self.long_types = set()  # typedef long X
        self.callbacks = set()  # callback typedef names
        self.defines = []  # (name, raw value) in header order
        self.protos = []  # (ret, name, [args]) for PMPI_X
        for line in text.splitlines():
            m = re.match(r"^typedef (int|long) (\w+);$", line)
            if m:
                (self.int_types if m.group(1) == "int" else self.long_types).add(m.group(2))
                continue
            m = re.match(r"^typedef \w+ \((\w+)\)\(", line)
            if m:
                self.callbacks.add(m.group(1))
                continue
            m = re.match(r"^typedef (\w+) (\w+);$", line)
            if m and m.group(1) in self.callbacks:
                self.callbacks.add(m.group(2))
                continue
            m = re.match(r"^#define (MPI\w*) (.+)$", line)
            if m:
                self.defines.append((m.group(1), m.group(2).strip()))
                continue
            m = re.match(r"^(\w[\w ]*?[\w*]) ?(PMPI_\w+)\((.*)\);$", line)
            if m:
                ret = m.group(1).strip()
                args = [] if m.group(3).strip() in ("", "void") else split_args(m.group(3))
                self.protos.append((ret, m.group(2), args))
        self.handles = self.int_types - {"MPI_Fint"}


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Unsupported(Exception):
    pass


class Arg:
    """One C parameter: `kind` says how the Fortran binding passes it."""

    def __init__(self, text, hdr, cname):
        self.text = text
        m = re.match(r"^(const )?(\w+) \( ?\*(\w+)\)\[(\d+)\]$", text)
        if m:  # int (*ranges)[3]
            const, base, self.name, n = m.groups()
            self.ctype = f"*{'const' if const else 'mut'} [{rust_base(base, hdr)}; {n}]"
            self.kind = "ptr"
            self.ftype = self.ctype
            self.fix_name()
            return
        m = re.match(r"^(const )?(\w+) ?(\*+)? ?(const )?(\w+)$", text)
        if not m:
            raise Unsupported(f"argument syntax `{text}`")
        const, base, stars, _, self.name = m.groups()
        self.fix_name()
        depth = len(stars or "")
        self.const = bool(const)
        self.base = base
        self.depth = depth
        if base == "MPI_File" and depth <= 1:
            # Fortran holds MPI_File_c2f's INTEGER; the C handle is a pointer.
            self.kind = "file_val" if depth == 0 else "file_inout"
            self.ctype = "MPI_File" if depth == 0 else "*mut MPI_File"
            self.ftype = "*const MPI_Fint" if depth == 0 else "*mut MPI_Fint"
            return
        if base in ("MPI_Fint", "MPI_File") or base.startswith("MPI_F08"):
            raise Unsupported(f"`{text}` (C/Fortran conversion)")
        if base == "char":
            if depth == 1:
                # A string the C call writes must be one that MPI returns: a non-const
                # `char *` elsewhere may be an input missing its `const`.
                if not const and not STR_OUT_FUNCS.search(cname):
                    raise Unsupported(f"`{text}`: a non-const string in a call that returns none")
                self.kind = "str_in" if const else "str_out"
                self.ctype = "*const c_char" if const else "*mut c_char"
                self.ftype = self.ctype
                return
            raise Unsupported(f"`{text}` (array of strings)")
        if base in hdr.callbacks:
            # `T name` (a parameter of function type, as cbindgen writes it) and `T *name`
            # are both a function pointer.
            if depth <= 1 and base in PASS_CALLBACKS:
                self.kind = "pass"
                self.ctype = self.ftype = base
                return
            raise Unsupported(f"`{text}` (callback with a Fortran calling convention of its own)")
        if base == "void":
            if depth != 1:
                raise Unsupported(f"`{text}`")
            self.ctype = "*const c_void" if const else "*mut c_void"
            self.ftype = self.ctype
            if self.name in BUFFER_NAMES:
                self.kind = "buf"
            elif self.name in POINTER_OUT_NAMES:
                self.kind = "ptr"
            else:
                raise Unsupported(f"`{text}` (not a choice buffer)")
            return
        rb = rust_base(base, hdr)
        if depth == 0:
            self.kind = "val"
            self.ctype = rb
            self.ftype = f"*const {rb}"
            return
        if depth > 1:
            raise Unsupported(f"`{text}`")
        self.ctype = self.ftype = f"*{'const' if const else 'mut'} {rb}"
        if base == "MPI_Status":
            if const:
                self.kind = "ptr"
            elif self.name in STATUSES_NAMES:
                self.kind = "statuses"
            else:
                self.kind = "status"
        elif base == "int" and self.name in WEIGHT_NAMES:
            self.kind = "weights"
        elif base == "int" and self.name in ERRCODE_NAMES:
            self.kind = "errcodes"
        else:
            self.kind = "ptr"

    def fix_name(self):
        if self.name in RUST_KEYWORDS or self.name in RESERVED_LOCALS:
            self.name = self.name + "_"


def c_param(text, hdr):
    """(name, Rust type) of a C parameter, for the extern declaration of the C function."""
    if text == "...":
        return "", "..."
    m = re.match(r"^(const )?(\w+) \( ?\*(\w+)\)\[(\d+)\]$", text)
    if m:
        const, base, name, n = m.groups()
        return name, f"*{'const' if const else 'mut'} [{rust_base(base, hdr)}; {n}]"
    m = re.match(r"^(const )?(\w+) ?(\*+)? ?(const )?(\w+)$", text)
    if not m:
        raise Unsupported(f"argument syntax `{text}`")
    const, base, stars, _, name = m.groups()
    if name in RUST_KEYWORDS or name in RESERVED_LOCALS:
        name += "_"
    depth = len(stars or "")
    if base in hdr.callbacks and depth <= 1:
        return name, base
    t = {"void": "c_void", "char": "c_char"}.get(base) or rust_base(base, hdr)
    if depth == 0:
        return name, t
    ptr = ("*const " if const else "*mut ") + t
    for _ in range(depth - 1):
        ptr = "*mut " + ptr
    return name, ptr


def rust_base(base, hdr):
    if base == "int":
        return "c_int"
    if base == "double":
        return "f64"
    if base in hdr.handles or base in SCALARS or base in ("MPI_Status", "MPI_File"):
        return base
    if base in hdr.long_types:
        return base
    raise Unsupported(f"type `{base}`")


# ---------------------------------------------------------------------------------------
# Rust generation
# ---------------------------------------------------------------------------------------


def fortran_name(cname):
    """PMPI_Comm_rank -> comm_rank (the part after the prefix, lower case)."""
    return cname[len("PMPI_"):].lower()


def c_call_arg(a):
    return {
        "val": f"*{a.name}",
        "ptr": a.name,
        "pass": a.name,
        "buf": f"f_buf({a.name} as *mut c_void)",
        "status": f"f_status({a.name})",
        "statuses": f"f_statuses({a.name})",
        "weights": f"f_weights({a.name} as *mut c_int)",
        "errcodes": f"f_errcodes({a.name})",
        "str_in": f"{a.name}_c.as_ptr()",
        "str_out": f"{a.name}_c.as_mut_ptr()",
        "int_val": f"*{a.name} as MPI_Aint",
        "int_array": f"{a.name}_a.as_ptr() as {a.ctype}",
        "int_out": f"&raw mut {a.name}_a",
        "file_val": f"crate::abi::file::PMPI_File_f2c(*{a.name})",
        "file_inout": f"&raw mut {a.name}_h",
    }[a.kind]


class Binding:
    """A Fortran entry point: parameter list (Rust), body lines, and the C prototype used."""

    def __init__(self, cname, params, body, externs):
        self.cname = cname
        self.params = params  # list of "name: type"
        self.body = body  # list of lines (without indentation)
        self.externs = externs  # list of C prototypes (name, rust params, rust ret)
        self.ret = ""  # Rust return type suffix, e.g. " -> f64"


def extern_decl(ret, cname, args_text, hdr):
    rp = ", ".join(": ".join(p for p in c_param(a, hdr) if p) for a in args_text)
    rret = {"int": " -> c_int", "double": " -> f64"}.get(ret) or f" -> {rust_base(ret, hdr)}"
    return f"fn {cname}({rp}){rret};"


# MPI-1 calls whose address-sized arguments are default INTEGERs in Fortran (MPI-2 added
# the MPI_ADDRESS_KIND versions): converted both ways; an address that does not fit is
# MPI_ERR_ARG, as in MPICH.
MPI1_INTEGER_AINT = {
    "PMPI_Address", "PMPI_Type_extent", "PMPI_Type_lb", "PMPI_Type_ub", "PMPI_Type_hvector",
    "PMPI_Type_hindexed", "PMPI_Type_struct",
}


def mpi1_integer_aint(cname, args):
    """Re-kinds the MPI_Aint arguments of an MPI-1 call (see MPI1_INTEGER_AINT)."""
    count = next((a for a in args if a.name == "count" and a.kind == "val"), None)
    for a in args:
        if getattr(a, "base", None) != "MPI_Aint":
            continue
        if a.depth == 0:
            a.kind, a.ftype = "int_val", "*const c_int"
        elif a.name.startswith("array_of_"):
            if count is None or count.ctype != "c_int":
                raise Unsupported(f"`{a.text}`: no INTEGER count for the array")
            a.kind, a.ftype, a.count = "int_array", "*const c_int", count.name
        else:
            a.kind, a.ftype = "int_out", "*mut c_int"


def generic_binding(ret, cname, args, args_text, hdr):
    if ret != "int":
        raise Unsupported(f"returns `{ret}`")
    if cname in MPI1_INTEGER_AINT:
        mpi1_integer_aint(cname, args)
    params, hidden, pre, post = [], [], [], []
    names = {a.name for a in args}
    for a in args:
        params.append(f"{a.name}: {a.ftype}")
        if a.kind == "int_array":
            pre.append(f"let {a.name}_a = f_aint_array({a.name}, *{a.count});")
        elif a.kind == "int_out":
            pre.append(f"let mut {a.name}_a: MPI_Aint = 0;")
            post.append(f"let rc = f_aint_out(rc, {a.name}_a, {a.name});")
        elif a.kind == "file_inout":
            # MPI_File_open writes the handle, MPI_File_close sets it to MPI_FILE_NULL; a
            # failed open, or a close that freed the handle and then failed, leaves
            # MPI_FILE_NULL, which the Fortran variable gets too.
            pre.append(f"let mut {a.name}_h = crate::abi::file::PMPI_File_f2c(*{a.name});")
            post.append(f"if rc == MPI_SUCCESS || {a.name}_h == MPI_FILE_NULL {{")
            post.append(f"    *{a.name} = crate::abi::file::PMPI_File_c2f({a.name}_h);")
            post.append("}")
        if a.kind in ("str_in", "str_out"):
            flen = f"{a.name}_flen"
            if flen in names:
                raise Unsupported(f"name clash on `{flen}`")
            hidden.append(f"{flen}: usize")
            if a.kind == "str_in":
                trim = "f_str_in_info" if cname.startswith("PMPI_Info_") else "f_str_in"
                pre.append(f"let {a.name}_c = {trim}({a.name}, {flen});")
            else:
                pre.append(f"let mut {a.name}_c = FStrOut::new({flen});")
                cond = "rc == MPI_SUCCESS"
                if any(b.name == "flag" and b.ctype == "*mut c_int" for b in args):
                    cond += " && *flag != 0"  # MPI_Info_get: the value only if found
                post.append(f"if {cond} {{")
                post.append(f"    {a.name}_c.copy_to({a.name}, {flen});")
                post.append("}")
    params.append("ierror: *mut MPI_Fint")
    params += hidden
    call = f"let rc = {cname}({', '.join(c_call_arg(a) for a in args)});"
    body = pre + [call] + post + index_fixup(cname, args) + ["set_ierror(ierror, rc);"]
    return Binding(cname, params, body, [extern_decl(ret, cname, args_text, hdr)])


# 1-based indices in Fortran (MPI's Fortran binding of the *any / *some calls), by position:
# (count, requests, INDEX, ...) and (incount, requests, OUTCOUNT, INDICES, ...).
def any_fixup(args):
    i = args[2].name
    return [f"if rc == MPI_SUCCESS && *{i} >= 0 {{", f"    *{i} += 1;", "}"]


def some_fixup(args):
    return [f"f_indices_to_fortran(rc, {args[2].name}, {args[3].name});"]


INDEX_FIXUPS = {
    "PMPI_Waitany": any_fixup,
    "PMPI_Testany": any_fixup,
    "PMPI_Waitsome": some_fixup,
    "PMPI_Testsome": some_fixup,
}


def index_fixup(cname, args):
    fix = INDEX_FIXUPS.get(cname)
    if fix is None:
        return []
    n = 3 if fix is any_fixup else 4
    if len(args) < n or any(a.ctype != "*mut c_int" for a in args[2:n]):
        raise Unsupported("index arguments not where MPI puts them")
    return fix(args)


# Special cases: C name -> (the C parameter TYPES expected, builder). A special case is
# emitted only when the header has the function with exactly those parameter types (names
# do not matter: the bindings name their own parameters and call the C function by
# position); a changed prototype is skipped (and listed) rather than bound wrongly. A
# builder returns (Fortran parameters, body lines, Rust return type suffix).


def sp(params, body, ret=""):
    return params, body, ret


IERROR = "ierror: *mut MPI_Fint"

SPECIAL = {
    "PMPI_Init": (
        ["int *", "char ***"],
        lambda c: sp(
            [IERROR],
            [f"let rc = {c}(null_mut(), null_mut());", "set_ierror(ierror, rc);"],
        ),
    ),
    "PMPI_Init_thread": (
        ["int *", "char ***", "int", "int *"],
        lambda c: sp(
            ["required: *const c_int", "provided: *mut c_int", IERROR],
            [
                f"let rc = {c}(null_mut(), null_mut(), *required, provided);",
                "set_ierror(ierror, rc);",
            ],
        ),
    ),
    # DOUBLE PRECISION functions.
    "PMPI_Wtime": ([], lambda c: sp([], [f"{c}()"], " -> f64")),
    "PMPI_Wtick": ([], lambda c: sp([], [f"{c}()"], " -> f64")),
    # MPI_BUFFER_DETACH(BUFFER_ADDR, SIZE, IERROR): the C call stores a pointer, which has no
    # use in Fortran; it must not land in the user's buffer.
    "PMPI_Buffer_detach": (
        ["void *", "int *"],
        lambda c: sp(
            ["buffer_addr: *mut c_void", "size: *mut c_int", IERROR],
            [
                "let _ = buffer_addr;",
                "let mut addr: *mut c_void = null_mut();",
                f"let rc = {c}(&raw mut addr as *mut c_void, size);",
                "set_ierror(ierror, rc);",
            ],
        ),
    ),
    # MPI_PCONTROL(LEVEL): no IERROR (bound only if the C function is not variadic).
    "PMPI_Pcontrol": (
        ["int"],
        lambda c: sp(["level: *const c_int"], [f"{c}(*level);"]),
    ),
    # INTEGER(KIND=MPI_ADDRESS_KIND) functions.
    "PMPI_Aint_add": (
        ["MPI_Aint", "MPI_Aint"],
        lambda c: sp(["base: *const MPI_Aint", "disp: *const MPI_Aint"], [f"{c}(*base, *disp)"],
                     " -> MPI_Aint"),
    ),
    "PMPI_Aint_diff": (
        ["MPI_Aint", "MPI_Aint"],
        lambda c: sp(["addr1: *const MPI_Aint", "addr2: *const MPI_Aint"],
                     [f"{c}(*addr1, *addr2)"], " -> MPI_Aint"),
    ),
}


def get_attr(handle, kind, value_t):
    """MPI_X_GET_ATTR(OBJ, KEYVAL, ATTRIBUTE_VAL, FLAG, IERROR): Fortran gets the value
    (INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER for MPI_ATTR_GET), also of one it set
    (`from_fortran`: C would get its address)."""
    cast = "" if value_t == "MPI_Aint" else f" as {value_t}"
    return (
        [handle, "int", "void *", "int *"],
        lambda c: sp(
            [
                f"obj: *const {handle}",
                "keyval: *const c_int",
                f"attribute_val: *mut {value_t}",
                "flag: *mut c_int",
                IERROR,
            ],
            [
                "let k = f_keyval(*keyval);",
                "let mut v: *mut c_void = null_mut();",
                f"let rc = from_fortran(|| {c}(*obj, k, &raw mut v as *mut c_void, flag));",
                "if rc == MPI_SUCCESS && *flag != 0 {",
                f"    *attribute_val = f_attr_value(AttrObj::{kind}, k, v){cast};",
                "}",
                "set_ierror(ierror, rc);",
            ],
        ),
    )


def set_attr(handle, value_t):
    """MPI_X_SET_ATTR(OBJ, KEYVAL, ATTRIBUTE_VAL, IERROR): the value itself is stored as the
    C `void *`, marked Fortran's (`from_fortran`: C's get returns its address)."""
    return (
        [handle, "int", "void *"],
        lambda c: sp(
            [f"obj: *const {handle}", "keyval: *const c_int", f"attribute_val: *const {value_t}",
             IERROR],
            [
                "let v = *attribute_val as MPI_Aint as *mut c_void;",
                f"let rc = from_fortran(|| {c}(*obj, f_keyval(*keyval), v));",
                "set_ierror(ierror, rc);",
            ],
        ),
    )


for _name, _handle, _kind in (
    ("Comm", "MPI_Comm", "Comm"),
    ("Type", "MPI_Datatype", "Type"),
    ("Win", "MPI_Win", "Win"),
):
    SPECIAL[f"PMPI_{_name}_get_attr"] = get_attr(_handle, _kind, "MPI_Aint")
    SPECIAL[f"PMPI_{_name}_set_attr"] = set_attr(_handle, "MPI_Aint")
# MPI-1: INTEGER values.
SPECIAL["PMPI_Attr_get"] = get_attr("MPI_Comm", "Comm", "c_int")
SPECIAL["PMPI_Attr_put"] = set_attr("MPI_Comm", "c_int")


def keyval(copy_t, delete_t, aint_extra):
    """MPI_X_CREATE_KEYVAL(COPY_FN, DELETE_FN, KEYVAL, EXTRA_STATE, IERROR): the Fortran
    procedures and the extra state go into an FKeyval that the C trampolines call through
    (support.rs). MPI_KEYVAL_CREATE (MPI-1) has INTEGER values and extra state."""
    extra_t = "MPI_Aint" if aint_extra else "c_int"
    aint = "true" if aint_extra else "false"
    return (
        [copy_t, delete_t, "int *", "void *"],
        lambda c: sp(
            ["copy_fn: FCopyFn", "delete_fn: FDeleteFn", "keyval: *mut c_int",
             f"extra_state: *const {extra_t}", IERROR],
            [
                f"let state = FKeyval::new(copy_fn, delete_fn, *extra_state as MPI_Aint, {aint});",
                f"let rc = {c}(",
                "    Some(f_copy_trampoline),",
                "    Some(f_delete_trampoline),",
                "    keyval,",
                "    state as *mut c_void,",
                ");",
                "if rc != MPI_SUCCESS {",
                "    FKeyval::free(state);",
                "}",
                "set_ierror(ierror, rc);",
            ],
        ),
    )


SPECIAL["PMPI_Comm_create_keyval"] = keyval(
    "MPI_Comm_copy_attr_function", "MPI_Comm_delete_attr_function", True)
SPECIAL["PMPI_Type_create_keyval"] = keyval(
    "MPI_Type_copy_attr_function", "MPI_Type_delete_attr_function", True)
SPECIAL["PMPI_Win_create_keyval"] = keyval(
    "MPI_Win_copy_attr_function", "MPI_Win_delete_attr_function", True)
SPECIAL["PMPI_Keyval_create"] = keyval("MPI_Copy_function", "MPI_Delete_function", False)

# MPI_INFO_CREATE_ENV(INFO, IERROR): Fortran has no argc/argv (as MPI_INIT).
SPECIAL["PMPI_Info_create_env"] = (
    ["int", "char **", "MPI_Info *"],
    lambda c: sp(
        ["info: *mut MPI_Info", IERROR],
        [f"let rc = {c}(0, null_mut(), info);", "set_ierror(ierror, rc);"],
    ),
)

# MPI_INFO_GET_STRING(INFO, KEY, BUFLEN, VALUE, FLAG, IERROR): Fortran's BUFLEN counts
# characters, no NUL: at most that many (and the CHARACTER's length) are written, none when
# 0, and the value's length comes back (C counts the NUL both ways).
SPECIAL["PMPI_Info_get_string"] = (
    ["MPI_Info", "const char *", "int *", "char *", "int *"],
    lambda c: sp(
        ["info: *const MPI_Info", "key: *const c_char", "buflen: *mut c_int",
         "value: *mut c_char", "flag: *mut c_int", IERROR, "key_flen: usize",
         "value_flen: usize"],
        [
            "let key_c = f_str_in_info(key, key_flen);",
            "let mut value_c = FStrOut::new(value_flen);",
            "let want = *buflen;",
            "let mut cap = if want <= 0 { want } else { (want as usize).min(value_flen) as c_int + 1 };",
            f"let rc = {c}(*info, key_c.as_ptr(), &mut cap, value_c.as_mut_ptr(), flag);",
            "if rc == MPI_SUCCESS && *flag != 0 {",
            "    *buflen = cap - 1;",
            "    if want > 0 {",
            "        value_c.copy_to(value, value_flen);",
            "    }",
            "}",
            "set_ierror(ierror, rc);",
        ],
    ),
)

# MPI_GREQUEST_START(QUERY_FN, FREE_FN, CANCEL_FN, EXTRA_STATE, REQUEST, IERROR): the Fortran
# procedures are subroutines (IERROR last, EXTRA_STATE an INTEGER(KIND=MPI_ADDRESS_KIND) by
# reference, COMPLETE a LOGICAL); they and the extra state's address go into an FGrequest
# that C trampolines call through (support.rs), as for keyvals. The address, as MPICH: the
# procedures update the caller's variable (MPICH's f77/pt2pt/greqf checks it after free_fn).
SPECIAL["PMPI_Grequest_start"] = (
    ["MPI_Grequest_query_function", "MPI_Grequest_free_function",
     "MPI_Grequest_cancel_function", "void *", "MPI_Request *"],
    lambda c: sp(
        ["query_fn: FGreqQueryFn", "free_fn: FGreqFreeFn", "cancel_fn: FGreqCancelFn",
         "extra_state: *mut MPI_Aint", "request: *mut MPI_Request", IERROR],
        [
            "let state = FGrequest::new(query_fn, free_fn, cancel_fn, extra_state);",
            f"let rc = {c}(",
            "    Some(f_greq_query_trampoline),",
            "    Some(f_greq_free_trampoline),",
            "    Some(f_greq_cancel_trampoline),",
            "    state as *mut c_void,",
            "    request,",
            ");",
            "if rc != MPI_SUCCESS {",
            "    FGrequest::free(state);",
            "}",
            "set_ierror(ierror, rc);",
        ],
    ),
)

# MPI_REGISTER_DATAREP(DATAREP, READ_CONVERSION_FN, WRITE_CONVERSION_FN, DTYPE_FILE_EXTENT_FN,
# EXTRA_STATE, IERROR): the C call takes the procedures as `void *` (railmpi has no
# user-defined representations, so it only checks the name and never calls them): their
# addresses are passed on, MPI_CONVERSION_FN_NULL as NULL; the extra state by value.
SPECIAL["PMPI_Register_datarep"] = (
    ["const char *", "void *", "void *", "void *", "void *"],
    lambda c: sp(
        ["datarep: *const c_char", "read_conversion_fn: *mut c_void",
         "write_conversion_fn: *mut c_void", "dtype_file_extent_fn: *mut c_void",
         "extra_state: *const MPI_Aint", IERROR, "datarep_flen: usize"],
        [
            "let datarep_c = f_str_in(datarep, datarep_flen);",
            f"let rc = {c}(",
            "    datarep_c.as_ptr(),",
            "    f_conversion_fn(read_conversion_fn),",
            "    f_conversion_fn(write_conversion_fn),",
            "    dtype_file_extent_fn,",
            "    *extra_state as *mut c_void,",
            ");",
            "set_ierror(ierror, rc);",
        ],
    ),
)


def param_type(text, hdr):
    """The type part of a C parameter, normalised: `const int *x` -> `const int *`; a
    callback `T *f` -> `T` (both are function pointers)."""
    t = re.sub(r"\w+$", "", text.strip()).strip()
    t = re.sub(r"\s*\*\s*", " *", t).replace("* *", "**").replace("* *", "**").strip()
    if "*" not in t and t.startswith("const "):
        t = t[len("const "):]  # a const value parameter is just a value
    words = t.replace("*", " ").split()
    base = words[-1] if words else ""
    if base in hdr.callbacks:
        return base
    return t


def special_binding(hdr, ret, cname, args_text):
    want, build = SPECIAL[cname]
    # A variadic tail (`int MPI_Pcontrol(const int level, ...)`) is not part of the match.
    got = [param_type(a, hdr) for a in args_text if a != "..."]
    if got != [param_type(w + " x", hdr) for w in want]:
        raise Unsupported(f"prototype differs from the special case ({', '.join(args_text)})")
    params, body, rret = build(cname)
    b = Binding(cname, params, body, [extern_decl(ret, cname, args_text, hdr)])
    b.ret = rret
    return b


def is_special(cname):
    return cname in SPECIAL


# Functions that have no Fortran binding by definition.
# (MPI_T_ is C only in MPI; _c are the large-count forms, which `use mpi` does not have.)
NO_FORTRAN = re.compile(r"_(c2f|f2c|f082c|c2f08|f082f|f2f08)$|_c$|^PMPI_T_")


def render_rust(hdr):
    bindings, skipped = [], []
    for ret, cname, args_text in hdr.protos:
        if NO_FORTRAN.search(cname):
            skipped.append((cname, "no Fortran binding (C only, or large-count)"))
            continue
        try:
            if is_special(cname):
                b = special_binding(hdr, ret, cname, args_text)
            else:
                args = [Arg(a, hdr, cname) for a in args_text]
                b = generic_binding(ret, cname, args, args_text, hdr)
        except Unsupported as e:
            skipped.append((cname, str(e)))
            continue
        bindings.append(b)

    out = []
    w = out.append
    w("// @generated by tools/gen_fortran.py from include/mpi.h. DO NOT EDIT;")
    w("// re-run `python3 tools/gen_fortran.py` after `make header`.")
    w("//")
    w("// Fortran entry points in gfortran's naming: `pmpi_x_` calls the C `PMPI_X`, and")
    w("// `mpi_x_` calls `pmpi_x_` (the profiling interface for Fortran tools). Arguments come")
    w("// by reference, `ierror` last, then gfortran's hidden CHARACTER lengths. The rules")
    w("// are in the generator's docstring; helpers are in `support.rs`.")
    w("")
    w("use super::support::*;")
    w("use crate::abi::consts::*;")
    w("#[allow(unused_imports)]")
    w("use std::os::raw::{c_char, c_int, c_void};")
    w("#[allow(unused_imports)]")
    w("use std::ptr::null_mut;")
    w("")
    w("/// Number of C functions with a Fortran binding here.")
    w(f"pub const BOUND: usize = {len(bindings)};")
    w("")
    w('extern "C" {')
    for b in bindings:
        for e in b.externs:
            w(f"    {e}")
    w("}")
    for b in bindings:
        fname = fortran_name(b.cname)
        sig = ", ".join(b.params)
        call_args = ", ".join(p.split(":")[0] for p in b.params)
        w("")
        w("#[no_mangle]")
        w(f'pub unsafe extern "C" fn pmpi_{fname}_({sig}){b.ret} {{')
        for line in b.body:
            w(f"    {line}")
        w("}")
        w("")
        w("#[no_mangle]")
        w(f'pub unsafe extern "C" fn mpi_{fname}_({sig}){b.ret} {{')
        w(f"    pmpi_{fname}_({call_args})")
        w("}")
    w("")
    w(f"// Not bound ({len(skipped)}):")
    for cname, why in skipped:
        w(f"//   MPI_{cname[5:]}: {why}")
    return "\n".join(out) + "\n", bindings, skipped


# ---------------------------------------------------------------------------------------
# mpif.h generation
# ---------------------------------------------------------------------------------------

# Pointer-valued C constants: in Fortran, variables in COMMON blocks (below).
MPIF_COMMON_NAMES = {
    "MPI_BOTTOM", "MPI_IN_PLACE", "MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE",
    "MPI_ERRCODES_IGNORE", "MPI_ARGV_NULL", "MPI_ARGVS_NULL",
}
# Predefined attribute keyvals: Fortran's are C's + 1, as in MPICH (whose attribute code
# tells the languages apart by the low bit); support.rs maps them back (f_keyval).
FORTRAN_KEYVALS = {
    "MPI_TAG_UB", "MPI_HOST", "MPI_IO", "MPI_WTIME_IS_GLOBAL", "MPI_UNIVERSE_SIZE",
    "MPI_LASTUSEDCODE", "MPI_APPNUM", "MPI_WIN_BASE", "MPI_WIN_SIZE", "MPI_WIN_DISP_UNIT",
    "MPI_WIN_CREATE_FLAVOR", "MPI_WIN_MODEL",
}
# 8-byte constants (Fortran INTEGER(KIND=MPI_OFFSET_KIND)).
MPIF_INT8 = {"MPI_DISPLACEMENT_CURRENT"}

MPIF_HEAD = """\
!     mpif.h: the Fortran interface of railmpi (MPICH ABI: handles
!     are INTEGERs with MPICH's values, a status is an INTEGER array
!     of MPI_STATUS_SIZE laid out as C's MPI_Status).
!
!     GENERATED FILE, do not edit: tools/gen_fortran.py writes it
!     from include/mpi.h. Valid as fixed-form and as free-form source
!     (code in columns 7-72, comments start with ! in column 1).
!
!     Status indices (1-based) and kinds.
      INTEGER MPI_SOURCE, MPI_TAG, MPI_ERROR
      PARAMETER (MPI_SOURCE=3, MPI_TAG=4, MPI_ERROR=5)
      INTEGER MPI_STATUS_SIZE
      PARAMETER (MPI_STATUS_SIZE=5)
      INTEGER MPI_ADDRESS_KIND, MPI_OFFSET_KIND, MPI_COUNT_KIND
      PARAMETER (MPI_ADDRESS_KIND=8, MPI_OFFSET_KIND=8)
      PARAMETER (MPI_COUNT_KIND=8)
      INTEGER MPI_INTEGER_KIND
      PARAMETER (MPI_INTEGER_KIND=4)
      LOGICAL MPI_SUBARRAYS_SUPPORTED
      PARAMETER (MPI_SUBARRAYS_SUPPORTED=.FALSE.)
      LOGICAL MPI_ASYNC_PROTECTS_NONBLOCKING
      PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)
!
!     Constants of the C header.
"""

MPIF_TAIL = """\
!
!     Special addresses, recognised by the library by address. The
!     COMMON block names and layouts are MPICH's, so programs built with
!     MPICH's mpif.h or mpi module work too.
      INTEGER MPI_BOTTOM, MPI_IN_PLACE
      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)
      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)
      INTEGER MPI_ERRCODES_IGNORE(1)
      CHARACTER*1 MPI_ARGVS_NULL(1,1)
      CHARACTER*1 MPI_ARGV_NULL(1)
      INTEGER MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY
      COMMON /MPIPRIV1/ MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE
      COMMON /MPIPRIV2/ MPI_STATUSES_IGNORE, MPI_ERRCODES_IGNORE
      COMMON /MPIPRIVC/ MPI_ARGVS_NULL, MPI_ARGV_NULL
      COMMON /MPIFCMB5/ MPI_UNWEIGHTED
      COMMON /MPIFCMB9/ MPI_WEIGHTS_EMPTY
      SAVE /MPIPRIV1/, /MPIPRIV2/, /MPIPRIVC/
      SAVE /MPIFCMB5/, /MPIFCMB9/
!
!     Functions.
      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK
      DOUBLE PRECISION MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK
!     Not MPI_AINT_ADD and MPI_AINT_DIFF: programs declare them
!     themselves, as MPICH's mpif.h does not (its f77/rma/aintf);
!     the mpi module declares them.
!     Predefined attribute copy and delete procedures.
      EXTERNAL MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, MPI_DUP_FN
      EXTERNAL MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN
      EXTERNAL MPI_COMM_DUP_FN
      EXTERNAL MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN
      EXTERNAL MPI_TYPE_DUP_FN
      EXTERNAL MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN
      EXTERNAL MPI_WIN_DUP_FN
!     The null data conversion procedure (MPI_REGISTER_DATAREP).
      EXTERNAL MPI_CONVERSION_FN_NULL
"""


def c_int_value(raw, values):
    """The integer value of a #define's text, or None if it is not an integer constant."""
    v = raw.strip()
    m = re.match(r"^\(\((\w+)\)(0x[0-9a-fA-F]+|\d+)\)$", v)  # ((MPI_Comm)0x44000000)
    if m:
        n = int(m.group(2), 0)
    elif re.match(r"^\(-\d+\)$", v):
        n = int(v[1:-1])
    elif re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", v):
        n = int(v, 0)
    elif re.match(r"^MPI\w*$", v) and v in values:
        return values[v]
    else:
        return None
    return n


def render_mpif(hdr):
    values = {}
    body = []
    for name, raw in hdr.defines:
        if name in MPIF_COMMON_NAMES or name.startswith("MPI_F_") or "(" in name:
            continue
        n = c_int_value(raw, values)
        if n is None:
            continue
        if name in FORTRAN_KEYVALS:
            n += 1
        elif name.startswith("MPI_MAX_") and "(" not in raw:
            n -= 1  # string lengths: C counts the terminating NUL, Fortran does not
        if name in MPIF_INT8:
            values[name] = n
            body.append(f"      INTEGER*8 {name}")
        else:
            if n >= 2**31:
                n -= 2**32  # a handle such as 0x8c000000, as C converts it to int
            if not -(2**31) <= n < 2**31:
                continue
            values[name] = n
            body.append(f"      INTEGER {name}")
        lit = str(n) if n != -(2**31) else "(-2147483647-1)"
        body.append(f"      PARAMETER ({name}={lit})")
    text = MPIF_HEAD + "\n".join(body) + "\n" + MPIF_TAIL
    for i, line in enumerate(text.splitlines(), 1):
        if len(line) > 72:
            raise SystemExit(f"mpif.h line {i} is longer than 72 columns: {line}")
    return text


# ---------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the outputs are stale")
    ap.add_argument("--header", default=HEADER)
    ap.add_argument("--rust", default=RUST_OUT)
    ap.add_argument("--mpif", default=MPIF_OUT)
    ap.add_argument("-q", "--quiet", action="store_true", help="do not list skipped functions")
    opts = ap.parse_args()

    with open(opts.header) as f:
        hdr = Header(f.read())
    if not hdr.protos:
        raise SystemExit(f"{opts.header}: no PMPI_ prototypes found")
    rust, bindings, skipped = render_rust(hdr)
    mpif = render_mpif(hdr)

    stale = []
    for path, text in ((opts.rust, rust), (opts.mpif, mpif)):
        try:
            with open(path) as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old != text:
            stale.append(path)
            if not opts.check:
                with open(path, "w") as f:
                    f.write(text)
    rel = [os.path.relpath(p, ROOT) for p in stale]
    if opts.check:
        if stale:
            print(
                f"gen_fortran: stale: {' '.join(rel)} (run `python3 tools/gen_fortran.py`)",
                file=sys.stderr,
            )
            return 1
        print(f"gen_fortran: up to date ({len(bindings)} functions bound, {len(skipped)} not)")
        return 0
    print(
        f"gen_fortran: {len(bindings)} functions bound, {len(skipped)} not; "
        f"{'wrote ' + ' '.join(rel) if rel else 'no changes'}"
    )
    if not opts.quiet:
        for cname, why in skipped:
            print(f"  not bound: MPI_{cname[5:]}: {why}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
