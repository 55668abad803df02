#!/usr/bin/env python3
"""Generate railmpi's Fortran interface from the MPI Forum's API and the C header.

    python3 tools/gen_fortran.py            # rewrite the generated files
    python3 tools/gen_fortran.py --check    # exit 1 if they are stale (nothing written)
    python3 tools/gen_fortran.py --header H --rust R --mpif F   # other paths (tests)

Inputs:
  include/mpi.h (generated from src/abi by build.rs/cbindgen): which C functions the library
  exports (its `PMPI_X` prototypes: names only, in order) and the constants' values (its
  #defines: railmpi's values, which the standard does not give);
  the MPI Forum's machine-readable API (pympistandard 0.2.0's apis.json, read through
  tools/mpi_api.py as tools/gen_c.py reads it; `make api-deps` installs it into
  build/api-venv): each procedure's C parameters -- names, kinds (BUFFER, STATUS, STRING,
  WEIGHT, COMMUNICATOR ...), directions, array lengths, C types -- and its `use mpi`
  rendering, whose parameters a rule-bound procedure must have one to one with C's, IERROR
  last. The MPI-1 procedures the standard removed (MPI_Address, MPI_Type_extent ...), which
  MPICH's ABI keeps, are described by MPI1_REMOVED below.

Outputs:
  src/abi/fortran/generated.rs  the `mpi_x_` / `pmpi_x_` entry points (gfortran's naming),
                                one pair per C function it can bind, each calling the C
                                `PMPI_X` (declared with the standard's parameters);
  include/mpif.h                every integer constant of mpi.h as a Fortran PARAMETER, plus
                                the Fortran-only ones and the COMMON blocks that carry
                                MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... by address.
                                Values are MPICH's Fortran ones: the MPI_MAX_* string lengths
                                are C's minus one (no NUL), the predefined attribute keyvals
                                C's plus one (support.rs maps them back).

Both are checked in. Re-run after `make header`; functions added to the C library are picked
up automatically. A procedure with a parameter the rules below do not cover is left out
(never bound wrongly) and listed at the end of generated.rs and on stderr.

Parameter rules (the standard's C parameter, by kind and type -> Fortran binding, gfortran
conventions):
  int / handle / MPI_Aint / MPI_Offset / MPI_Count by value  -> by reference, dereferenced
  pointers to int, handles, MPI_Aint ...                     -> passed through (same layout:
                                                                MPI_Fint is int, handles are
                                                                MPICH's integers, LOGICAL is
                                                                0/1 with gfortran)
  choice buffers (kind BUFFER)                               -> MPI_BOTTOM / MPI_IN_PLACE
                                                                recognised by address
  MPI_Status *status / array (kind STATUS)                   -> INTEGER(MPI_STATUS_SIZE)
                                                                arrays (same layout as C);
                                                                MPI_STATUS(ES)_IGNORE by address
  weights (kind WEIGHT), error codes (ERROR_CODE array)     -> MPI_UNWEIGHTED,
                                                                MPI_WEIGHTS_EMPTY,
                                                                MPI_ERRCODES_IGNORE by address
  strings (kind STRING; in: const char *, out: char *)       -> CHARACTER*(*) with gfortran's
                                                                hidden size_t length appended
                                                                after ierror; input trimmed,
                                                                output blank-padded
  MPI_User_function, *_errhandler_function (kind FUNCTION)   -> the procedure's address (the
                                                                Fortran and C calling
                                                                conventions agree for these)
  void *baseptr (kind C_BUFFER: memory MPI allocates)        -> passed through
  int return value                                           -> INTEGER ierror, last argument
Special cases (SPECIAL below, matched on the standard's C parameter types, skipped if those
change):
MPI_Init and MPI_Init_thread (no argc/argv), MPI_Wtime and MPI_Wtick (DOUBLE PRECISION
functions), MPI_Pcontrol (no IERROR), MPI_Aint_add/diff (INTEGER(KIND=MPI_ADDRESS_KIND)
functions), attribute get/set (the value itself is the attribute; predefined keyvals are C's
plus one, as in MPICH), keyval creation (Fortran copy/delete procedures called through C
trampolines in support.rs), MPI_Buffer_detach, MPI_Info_create_env (no argc/argv),
MPI_Grequest_start (Fortran query/free/cancel subroutines called through C trampolines in
support.rs), MPI_Register_datarep (procedures passed on, MPI_CONVERSION_FN_NULL as NULL;
railmpi's C function takes them as `void *`, so its declaration is EXTERNS's, not the
standard's).
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_api  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "mpi.h")
RUST_OUT = os.path.join(ROOT, "src", "abi", "fortran", "generated.rs")
MPIF_OUT = os.path.join(ROOT, "include", "mpif.h")

# ---------------------------------------------------------------------------------------
# The procedures and their parameters
# ---------------------------------------------------------------------------------------

SCALARS = {"MPI_Aint", "MPI_Offset", "MPI_Count"}  # 8-byte integers (long on LP64)
# Callback types whose Fortran form has the C calling convention (all arguments by
# reference): the procedure's address is passed on unchanged.
PASS_CALLBACKS = {
    "MPI_User_function",
    "MPI_Comm_errhandler_function",
    "MPI_Handler_function",
    "MPI_Win_errhandler_function",
    "MPI_File_errhandler_function",
    "MPI_Session_errhandler_function",
}
RUST_KEYWORDS = {
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
    "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
}
# Locals the generated bodies use; a parameter with one of these names is renamed.
RESERVED_LOCALS = {"rc", "ierror"}


def rust_name(name):
    """A parameter's name in Rust (a keyword or a local of the bodies gets a `_`)."""
    return name + "_" if name in RUST_KEYWORDS or name in RESERVED_LOCALS else name


def _p(name, kind, base, depth=0, direction="in", array=False):
    return mpi_api.Param(name, kind, base, depth, direction, array=array)


# The MPI-1 procedures the standard removed (MPI-3.0), which MPICH's ABI keeps and the
# standard's API no longer describes: their C parameters as MPICH declares them.
MPI1_REMOVED = {
    "MPI_Address": [_p("location", "BUFFER", "void", 1),
                    _p("address", "DISPLACEMENT", "MPI_Aint", 1, "out")],
    "MPI_Type_extent": [_p("datatype", "DATATYPE", "MPI_Datatype"),
                        _p("extent", "DISPLACEMENT", "MPI_Aint", 1, "out")],
    "MPI_Type_lb": [_p("datatype", "DATATYPE", "MPI_Datatype"),
                    _p("displacement", "DISPLACEMENT", "MPI_Aint", 1, "out")],
    "MPI_Type_ub": [_p("datatype", "DATATYPE", "MPI_Datatype"),
                    _p("displacement", "DISPLACEMENT", "MPI_Aint", 1, "out")],
    "MPI_Type_hvector": [_p("count", "POLYDTYPE_NUM_ELEM_NNI", "int"),
                         _p("blocklength", "POLYDTYPE_NUM_ELEM_NNI", "int"),
                         _p("stride", "POLYDTYPE_STRIDE_BYTES", "MPI_Aint"),
                         _p("oldtype", "DATATYPE", "MPI_Datatype"),
                         _p("newtype", "DATATYPE", "MPI_Datatype", 1, "out")],
    "MPI_Type_hindexed": [_p("count", "POLYDTYPE_NUM_ELEM_NNI", "int"),
                          _p("array_of_blocklengths", "POLYDTYPE_NUM_ELEM_NNI", "int", 1,
                             array=True),
                          _p("array_of_displacements", "DISPLACEMENT", "MPI_Aint", 1, array=True),
                          _p("oldtype", "DATATYPE", "MPI_Datatype"),
                          _p("newtype", "DATATYPE", "MPI_Datatype", 1, "out")],
    "MPI_Type_struct": [_p("count", "POLYDTYPE_NUM_ELEM_NNI", "int"),
                        _p("array_of_blocklengths", "POLYDTYPE_NUM_ELEM_NNI", "int", 1,
                           array=True),
                        _p("array_of_displacements", "DISPLACEMENT", "MPI_Aint", 1, array=True),
                        _p("array_of_types", "DATATYPE", "MPI_Datatype", 1, array=True),
                        _p("newtype", "DATATYPE", "MPI_Datatype", 1, "out")],
    "MPI_Errhandler_create": [_p("function", "FUNCTION", "MPI_Handler_function", 1),
                              _p("errhandler", "ERRHANDLER", "MPI_Errhandler", 1, "out")],
    "MPI_Errhandler_set": [_p("comm", "COMMUNICATOR", "MPI_Comm"),
                           _p("errhandler", "ERRHANDLER", "MPI_Errhandler")],
    "MPI_Errhandler_get": [_p("comm", "COMMUNICATOR", "MPI_Comm"),
                           _p("errhandler", "ERRHANDLER", "MPI_Errhandler", 1, "out")],
}


class Header:
    """What gen_fortran reads of include/mpi.h: the names of the C functions the library
    exports (its `PMPI_X` prototypes, in order) and the #defines (the constants' values)."""

    def __init__(self, text):
        self.defines = []  # (name, raw value) in header order
        self.names = []  # PMPI_X in header order
        for line in text.splitlines():
            m = re.match(r"^#define (MPI\w*) (.+)$", line)
            if m:
                self.defines.append((m.group(1), m.group(2).strip()))
                continue
            m = re.match(r"^\w[\w ]*?[\w*] ?(PMPI_\w+)\(.*\);$", line)
            if m:
                self.names.append(m.group(1))


class CProc:
    """A C function of the library with its standard's description: `proc` (pympistandard's
    procedure, None for MPI1_REMOVED's), the return type and the parameters (mpi_api.Param)."""

    def __init__(self, cname, proc, ret, params):
        self.cname, self.proc, self.ret, self.params = cname, proc, ret, params


def c_procedures(hdr, std):
    """The C functions of mpi.h, in its order: (C name, CProc or None where the standard's
    API, and MPI1_REMOVED, have no such procedure)."""
    procs = mpi_api.procedures(std)
    out = []
    for cname in hdr.names:
        name = "MPI_" + cname[len("PMPI_"):]
        proc = procs.get(name)
        if proc is not None:
            ret = proc.express.iso_c.return_type
            out.append((cname, CProc(cname, proc, ret, mpi_api.c_params(proc))))
        elif name in MPI1_REMOVED:
            out.append((cname, CProc(cname, None, "int", MPI1_REMOVED[name])))
        else:
            out.append((cname, None))
    return out


class Unsupported(Exception):
    pass


class Arg:
    """One C parameter (mpi_api.Param): `kind` says how the Fortran binding passes it."""

    def __init__(self, p):
        self.param = p
        self.text = p.c_text()
        self.name = rust_name(p.name)
        self.const, self.base, self.depth = p.const, p.base, p.depth
        if p.rows:  # int ranges[][3]
            self.ctype = f"*{'const' if p.const else 'mut'} [{rust_base(p)}; {p.rows}]"
            self.kind = "ptr"
            self.ftype = self.ctype
            return
        if p.kind == "VARARGS":
            raise Unsupported("variadic")
        depth, base = p.depth, p.base
        if p.kind == "FILE" and depth <= 1:
            # Fortran holds MPI_File_c2f's INTEGER; the C handle is a pointer.
            self.kind = "file_val" if depth == 0 else "file_inout"
            self.ctype = "MPI_File" if depth == 0 else "*mut MPI_File"
            self.ftype = "*const MPI_Fint" if depth == 0 else "*mut MPI_Fint"
            return
        if base == "char":
            if depth == 1 and p.kind == "STRING":
                self.kind = "str_in" if p.direction == "in" else "str_out"
                self.ctype = "*const c_char" if p.const else "*mut c_char"
                self.ftype = self.ctype
                return
            raise Unsupported(f"`{self.text}` (array of strings)")
        if p.kind in mpi_api.CALLBACK_KINDS:
            # A parameter of function type is a function pointer.
            if depth <= 1 and base in PASS_CALLBACKS:
                self.kind = "pass"
                self.ctype = self.ftype = base
                return
            raise Unsupported(f"`{self.text}` (callback with a Fortran calling convention of its own)")
        if base == "void":
            if depth != 1:
                raise Unsupported(f"`{self.text}`")
            self.ctype = "*const c_void" if p.const else "*mut c_void"
            self.ftype = self.ctype
            if p.kind == "BUFFER":  # a choice buffer
                self.kind = "buf"
            elif p.kind == "C_BUFFER":  # receives a pointer (memory MPI allocates)
                self.kind = "ptr"
            else:
                raise Unsupported(f"`{self.text}` (not a choice buffer)")
            return
        rb = rust_base(p)
        if depth == 0:
            self.kind = "val"
            self.ctype = rb
            self.ftype = f"*const {rb}"
            return
        if depth > 1:
            raise Unsupported(f"`{self.text}`")
        self.ctype = self.ftype = f"*{'const' if p.const else 'mut'} {rb}"
        if p.kind == "STATUS":
            if p.const:
                self.kind = "ptr"
            elif p.array:
                self.kind = "statuses"
            else:
                self.kind = "status"
        elif p.kind == "WEIGHT":
            self.kind = "weights"
        elif p.kind == "ERROR_CODE" and p.array:
            self.kind = "errcodes"
        else:
            self.kind = "ptr"


def c_param(p):
    """(name, Rust type) of a C parameter, for the extern declaration of the C function."""
    if p.kind == "VARARGS":
        return "", "..."
    name = rust_name(p.name)
    if p.rows:
        return name, f"*{'const' if p.const else 'mut'} [{rust_base(p)}; {p.rows}]"
    if p.kind in mpi_api.CALLBACK_KINDS and p.depth <= 1:
        return name, p.base
    t = {"void": "c_void", "char": "c_char"}.get(p.base) or rust_base(p)
    if p.depth == 0:
        return name, t
    ptr = ("*const " if p.const else "*mut ") + t
    for _ in range(p.depth - 1):
        ptr = "*mut " + ptr
    return name, ptr


def rust_base(p):
    """The Rust type of a parameter's C base type (consts.rs has MPI's under their C names)."""
    base = p.base
    if base == "int":
        return "c_int"
    if base == "double":
        return "f64"
    if base in SCALARS or base == "MPI_Status" or p.kind in mpi_api.HANDLE_KINDS:
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
    """A Fortran entry point: parameter list (Rust), body lines, and the C prototype used;
    `cproc` is the C function it binds (CProc)."""

    def __init__(self, cproc, params, body, externs):
        self.cproc = cproc
        self.cname = cproc.cname
        self.params = params  # list of "name: type"
        self.body = body  # list of lines (without indentation)
        self.externs = externs  # list of C prototypes (name, rust params, rust ret)
        self.ret = ""  # Rust return type suffix, e.g. " -> f64"


def extern_decl(cp):
    """The declaration of the C function (its parameters the standard's)."""
    rp = ", ".join(": ".join(x for x in c_param(p) if x) for p in cp.params)
    rret = {"int": " -> c_int", "double": " -> f64"}.get(cp.ret) or f" -> {cp.ret}"
    return f"fn {cp.cname}({rp}){rret};"


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
        if a.base != "MPI_Aint":
            continue
        if a.depth == 0:
            a.kind, a.ftype = "int_val", "*const c_int"
        elif a.param.array:
            if count is None or count.ctype != "c_int":
                raise Unsupported(f"`{a.text}`: no INTEGER count for the array")
            a.kind, a.ftype, a.count = "int_array", "*const c_int", count.name
        else:
            a.kind, a.ftype = "int_out", "*mut c_int"


def generic_binding(cp, abi=None):
    """The binding by rule. `abi` (tools/gen_fortran_abi.py) adapts it to another C ABI:
    `abi.rekind(cp, args)` re-kinds the arguments, `abi.pre_post(cp, a, pre, post)` adds
    the lines around the call for an argument of a kind of its own, `abi.call_arg(a)` says
    how the call passes one."""
    cname = cp.cname
    if cp.ret != "int":
        raise Unsupported(f"returns `{cp.ret}`")
    args = [Arg(p) for p in cp.params]
    if abi is not None:
        abi.rekind(cp, args)
    # The rule binds the C parameters one to one: so does the standard's `use mpi` binding.
    if cp.proc is not None:
        f90 = cp.proc.express.f90
        want = [p.name for p in cp.params] + ["ierror"]
        if f90 is None or [q.name.lower() for q in f90.parameters] != want:
            raise Unsupported("the Fortran binding's parameters are not the C ones")
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
        if abi is not None:
            abi.pre_post(cp, a, pre, post)
    params.append("ierror: *mut MPI_Fint")
    params += hidden
    call_arg = c_call_arg if abi is None else abi.call_arg
    call = f"let rc = {cname}({', '.join(call_arg(a) for a in args)});"
    body = pre + [call] + post + index_fixup(cname, args) + ["set_ierror(ierror, rc);"]
    return Binding(cp, params, body, [extern_decl(cp)])


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
# EXTRA_STATE, IERROR): railmpi's C function takes the procedures as `void *` (it has no
# user-defined representations, so it only checks the name and never calls them; its
# declaration is below): their addresses are passed on, MPI_CONVERSION_FN_NULL as NULL; the
# extra state by value.
SPECIAL["PMPI_Register_datarep"] = (
    ["const char *", "MPI_Datarep_conversion_function", "MPI_Datarep_conversion_function",
     "MPI_Datarep_extent_function", "void *"],
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
EXTERNS = {
    "PMPI_Register_datarep": "fn PMPI_Register_datarep(datarep: *const c_char, "
    "read_conversion_fn: *mut c_void, write_conversion_fn: *mut c_void, "
    "_dtype_file_extent_fn: *mut c_void, _extra_state: *mut c_void) -> c_int;",
}


def special_binding(cp):
    want, build = SPECIAL[cp.cname]
    # A variadic tail (`int MPI_Pcontrol(const int level, ...)`) is not part of the match.
    got = [p.c_type() for p in cp.params if p.kind != "VARARGS"]
    if got != want:
        raise Unsupported(f"parameters differ from the special case ({', '.join(got)})")
    params, body, rret = build(cp.cname)
    b = Binding(cp, params, body, [EXTERNS.get(cp.cname) or extern_decl(cp)])
    b.ret = rret
    return b


def is_special(cname):
    return cname in SPECIAL


# Functions that have no Fortran binding by definition.
# (MPI_T_ is C only in MPI; _c are the large-count forms, which `use mpi` does not have.)
NO_FORTRAN = re.compile(r"_(c2f|f2c|f082c|c2f08|f082f|f2f08)$|_c$|^PMPI_T_")


def bind_all(hdr, std, no_fortran=None, bind=None):
    """The bindings of the header's functions, and those left out with why: (bindings,
    [(C name, reason)]). `bind(cp)` makes one (by default the special case or the rule)."""
    no_fortran = no_fortran or NO_FORTRAN
    bind = bind or (lambda cp: special_binding(cp) if is_special(cp.cname) else generic_binding(cp))
    bindings, skipped = [], []
    for cname, cp in c_procedures(hdr, std):
        if no_fortran.search(cname):
            skipped.append((cname, "no Fortran binding (C only, or large-count)"))
            continue
        if cp is None:
            skipped.append((cname, "not in the standard's API"))
            continue
        try:
            bindings.append(bind(cp))
        except Unsupported as e:
            skipped.append((cname, str(e)))
    return bindings, skipped


def render_entry_points(bindings, skipped):
    """The `pmpi_x_` / `mpi_x_` pairs and the list of what is not bound, as lines."""
    out = []
    w = out.append
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
    return out


def render_rust(hdr, std):
    bindings, skipped = bind_all(hdr, std)
    out = []
    w = out.append
    w("// @generated by tools/gen_fortran.py from the MPI Forum's API and include/mpi.h.")
    w("// DO NOT EDIT; re-run `python3 tools/gen_fortran.py` after `make header`.")
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
    out += render_entry_points(bindings, skipped)
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


def render_mpif(hdr, head=None, tail=None, fortran_keyvals=FORTRAN_KEYVALS):
    """mpif.h: `head`, every integer constant of the header, `tail`; the predefined
    attribute keyvals in `fortran_keyvals` are C's plus one (MPICH's rule)."""
    head, tail = head or MPIF_HEAD, tail or MPIF_TAIL
    values = {}
    body = []
    for name, raw in hdr.defines:
        if name in MPIF_COMMON_NAMES or name.startswith("MPI_F_") or "(" in name:
            continue
        n = c_int_value(raw, values)
        if n is None:
            continue
        if name in fortran_keyvals:
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
    text = head + "\n".join(body) + "\n" + tail
    for i, line in enumerate(text.splitlines(), 1):
        if len(line) > 72:
            raise SystemExit(f"mpif.h line {i} is longer than 72 columns: {line}")
    return text


# ---------------------------------------------------------------------------------------


def load_standard():
    return mpi_api.load_standard("gen_fortran.py")


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
    if not hdr.names:
        raise SystemExit(f"{opts.header}: no PMPI_ prototypes found")
    rust, bindings, skipped = render_rust(hdr, load_standard())
    mpif = render_mpif(hdr)

    summary = f"{len(bindings)} functions bound, {len(skipped)} not"
    return mpi_api.write_outputs("gen_fortran", ((opts.rust, rust), (opts.mpif, mpif)),
                                 opts.check, summary, skipped, opts.quiet)

if __name__ == "__main__":
    sys.exit(main())
