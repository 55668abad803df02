#!/usr/bin/env python3
"""Generate railmpi's Fortran library over the MPI-5 standard ABI (MPI-5.0 §21.4).

    python3 tools/gen_fortran_abi.py            # rewrite the generated files
    python3 tools/gen_fortran_abi.py --check    # exit 1 if they are stale (nothing written)

The standard ABI fixes C only; a Fortran binding sits on top of it and reaches the library
through the C ABI alone: handles go through MPI_X_fromint / MPI_X_toint, a Fortran status
is the C status (MPI_F_STATUS_SIZE INTEGERs), constants are the ABI's values. So
`libmpifort_abi.so` (modules/fortran_abi) runs over any `libmpi_abi.so.1` -- railmpi's or
MPICH 5's.

Inputs: include/mpi_abi.h (tools/gen_abi.py's: which C functions the ABI has, the
constants' values) and the MPI Forum's API (as tools/gen_fortran.py reads it).
Outputs:
  modules/fortran_abi/src/generated.rs  the `mpi_x_` / `pmpi_x_` entry points (gfortran's
                                        naming), each calling the ABI's `PMPI_X`, and the
                                        ABI constants the support code needs;
  include/abi/mpif.h                    mpif.h with the ABI's values (`use mpi` includes it);
  include/abi/mpi_f08.f90,              the `mpi_f08` module and its choice-buffer entry
  modules/fortran_abi/src/f08_generated.rs  points (tools/gen_f08.py's, over the entry
                                        points above: handle types hold MPI_X_toint's
                                        INTEGER, MPI_Status is the ABI's 8 INTEGERs).

The rules are tools/gen_fortran.py's (strings, buffers, statuses, indices, special
addresses), with these differences:
  handles (by value, scalar in/out/inout, arrays)  -> Fortran INTEGERs, converted by the
      ABI's MPI_X_fromint before the call and MPI_X_toint after it (arrays copied; an
      array's length is the parameter the standard names, or the size of the group for
      MPI_Alltoallw's type arrays, the neighbour counts for MPI_Neighbor_alltoallw's);
  predefined attribute keyvals                     -> C's values (no MPICH "+1");
  callbacks of MPI_Op_create and the *_create_errhandler calls -> C trampolines that
      convert the handle arguments and call the Fortran procedure (support.rs: one
      trampoline per distinct procedure, from a fixed pool);
  keyval copy/delete procedures, generalized requests -> common.rs's trampolines;
  MPI_Register_datarep's procedures                -> trampolines over a state that holds
      them and the extra state (MPI_CONVERSION_FN_NULL becomes NULL).
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_f08  # noqa: E402
import gen_fortran as gf  # noqa: E402
import mpi_api  # noqa: E402

ROOT = gf.ROOT
HEADER = os.path.join(ROOT, "include", "mpi_abi.h")
RUST_OUT = os.path.join(ROOT, "modules", "fortran_abi", "src", "generated.rs")
MPIF_OUT = os.path.join(ROOT, "include", "abi", "mpif.h")
F08_OUT = os.path.join(ROOT, "include", "abi", "mpi_f08.f90")
F08_RUST_OUT = os.path.join(ROOT, "modules", "fortran_abi", "src", "f08_generated.rs")

# Handle type -> the X of MPI_X_fromint / MPI_X_toint.
CONV = {
    "MPI_Comm": "Comm", "MPI_Datatype": "Type", "MPI_Group": "Group", "MPI_Info": "Info",
    "MPI_Request": "Request", "MPI_Op": "Op", "MPI_Errhandler": "Errhandler",
    "MPI_Win": "Win", "MPI_Message": "Message", "MPI_Session": "Session",
    "MPI_File": "File",
}
# The null handle of each handle type (its name in mpi_abi.h); NULL_HANDLES gets their
# values from the header (render_rust) before any binding is made.
NULL_NAMES = {
    "MPI_Comm": "MPI_COMM_NULL", "MPI_Datatype": "MPI_DATATYPE_NULL", "MPI_Group": "MPI_GROUP_NULL",
    "MPI_Info": "MPI_INFO_NULL", "MPI_Request": "MPI_REQUEST_NULL", "MPI_Op": "MPI_OP_NULL",
    "MPI_Errhandler": "MPI_ERRHANDLER_NULL", "MPI_Win": "MPI_WIN_NULL",
    "MPI_Message": "MPI_MESSAGE_NULL", "MPI_Session": "MPI_SESSION_NULL", "MPI_File": "MPI_FILE_NULL",
}
NULL_HANDLES = {}
# No Fortran binding: C only (handle and status conversions, large-count forms, MPI_T).
NO_FORTRAN = re.compile(r"_(c2f|f2c|f082c|c2f08|f082f|f2f08|toint|fromint)$|_c$|^PMPI_T_")


def fromint(base, expr):
    return f"PMPI_{CONV[base]}_fromint({expr})"


def toint(base, expr):
    return f"PMPI_{CONV[base]}_toint({expr})"


class Abi:
    """The hooks gen_fortran.generic_binding calls (see there)."""

    @staticmethod
    def rekind(cp, args):
        for a in args:
            p = a.param
            if p.kind in mpi_api.CALLBACK_KINDS:
                raise gf.Unsupported(f"`{a.text}` (a callback with C handles)")
            if p.base not in CONV:
                continue
            a.ctype = p.base
            if p.depth == 0:
                a.kind, a.ftype = "h_val", "*const MPI_Fint"
            elif p.depth == 1 and p.array:
                a.kind, a.ftype = "h_array", "*mut MPI_Fint"
                a.length = array_length(cp, a, args)
            elif p.depth == 1:
                a.kind, a.ftype = "h_" + p.direction, "*mut MPI_Fint"
            else:
                raise gf.Unsupported(f"`{a.text}`")

    @staticmethod
    def pre_post(cp, a, pre, post):
        n, base = a.name, a.ctype
        if a.kind in ("h_in", "h_inout"):
            pre.append(f"let mut {n}_h = {fromint(base, '*' + n)};")
            if a.kind == "h_inout":
                post.append(f"*{n} = f_handle_out({n}_h, {NULL_HANDLES[base]}, PMPI_{CONV[base]}_toint);")
        elif a.kind == "h_out":
            # The null handle unless the call writes one (a failed MPI_File_open leaves
            # MPI_FILE_NULL, as the C call's variable would be).
            pre.append(f"let mut {n}_h = {fromint(base, NULL_HANDLES[base])};")
            post.append(f"*{n} = f_handle_out({n}_h, {NULL_HANDLES[base]}, PMPI_{CONV[base]}_toint);")
        elif a.kind == "h_array":
            conv = CONV[base]
            direction = a.param.direction
            if direction == "out":
                pre.append(f"let mut {n}_v: Vec<{base}> = vec![null_mut(); {a.length}];")
            else:
                pre.append(f"let mut {n}_v = f_handles_in({n}, {a.length}, PMPI_{conv}_fromint);")
            if direction == "out":
                post.append(f"if rc == MPI_SUCCESS {{ f_handles_out(&{n}_v, {n}, PMPI_{conv}_toint); }}")
            elif direction == "inout":
                post.append(f"f_handles_out(&{n}_v, {n}, PMPI_{conv}_toint);")

    @staticmethod
    def call_arg(a):
        n = a.name
        return {
            "h_val": fromint(a.ctype, "*" + n) if a.ctype in CONV else None,
            "h_in": f"&raw mut {n}_h",
            "h_inout": f"&raw mut {n}_h",
            "h_out": f"&raw mut {n}_h",
            "h_array": f"{n}_v.as_mut_ptr()",
        }.get(a.kind) or gf.c_call_arg(a)


def array_length(cp, a, args):
    """The Rust expression for the length of handle array `a` (in the Fortran arguments)."""
    length = a.param.length
    names = {x.param.name: x for x in args}
    if length in names and names[length].kind == "val":
        return f"f_len(*{names[length].name})"
    if length == "*" and "comm" in names:
        if "neighbor" in cp.cname.lower():
            side = "true" if a.param.name.startswith("send") else "false"
            return f"f_neighbor_len(*comm, {side})"
        return "f_group_len(*comm)"
    raise gf.Unsupported(f"`{a.text}`: no length for the array ({length})")


def h_param(base, name, mutable=False):
    return f"{name}: *{'mut' if mutable else 'const'} MPI_Fint"


def sp(params, body, ret=""):
    return params, body, ret


IERROR = gf.IERROR

# Special cases: gen_fortran's that have no handles, and the ABI's own.
SPECIAL = {k: gf.SPECIAL[k] for k in (
    "PMPI_Init", "PMPI_Init_thread", "PMPI_Wtime", "PMPI_Wtick", "PMPI_Buffer_detach",
    "PMPI_Pcontrol", "PMPI_Aint_add", "PMPI_Aint_diff", "PMPI_Comm_create_keyval",
    "PMPI_Type_create_keyval", "PMPI_Win_create_keyval", "PMPI_Keyval_create",
)}


def get_attr(handle, kind, value_t):
    """MPI_X_GET_ATTR: the value itself; a predefined attribute's C value points to it."""
    cast = "" if value_t == "MPI_Aint" else f" as {value_t}"
    return (
        [handle, "int", "void *", "int *"],
        lambda c: sp(
            [h_param(handle, "obj"), "keyval: *const c_int", f"attribute_val: *mut {value_t}",
             "flag: *mut c_int", IERROR],
            [
                "let mut v: *mut c_void = null_mut();",
                f"let rc = {c}({fromint(handle, '*obj')}, *keyval, &raw mut v as *mut c_void, flag);",
                "if rc == MPI_SUCCESS && *flag != 0 {",
                f"    *attribute_val = f_attr_value(AttrObj::{kind}, *keyval, v){cast};",
                "}",
                "set_ierror(ierror, rc);",
            ],
        ),
    )


def set_attr(handle, value_t):
    """MPI_X_SET_ATTR: the value itself is stored as the C `void *`."""
    return (
        [handle, "int", "void *"],
        lambda c: sp(
            [h_param(handle, "obj"), "keyval: *const c_int", f"attribute_val: *const {value_t}",
             IERROR],
            [
                "let v = *attribute_val as MPI_Aint as *mut c_void;",
                f"let rc = {c}({fromint(handle, '*obj')}, *keyval, v);",
                "set_ierror(ierror, rc);",
            ],
        ),
    )


for _name, _handle in (("Comm", "MPI_Comm"), ("Type", "MPI_Datatype"), ("Win", "MPI_Win")):
    SPECIAL[f"PMPI_{_name}_get_attr"] = get_attr(_handle, _name, "MPI_Aint")
    SPECIAL[f"PMPI_{_name}_set_attr"] = set_attr(_handle, "MPI_Aint")
SPECIAL["PMPI_Attr_get"] = get_attr("MPI_Comm", "Comm", "c_int")
SPECIAL["PMPI_Attr_put"] = set_attr("MPI_Comm", "c_int")

SPECIAL["PMPI_Info_create_env"] = (
    ["int", "char **", "MPI_Info *"],
    lambda c: sp(
        [h_param("MPI_Info", "info", True), IERROR],
        [
            "let mut info_h: MPI_Info = null_mut();",
            f"let rc = {c}(0, null_mut(), &raw mut info_h);",
            f"if rc == MPI_SUCCESS {{ *info = {toint('MPI_Info', 'info_h')}; }}",
            "set_ierror(ierror, rc);",
        ],
    ),
)


def _info_get_string(c):
    params, body, ret = gf.SPECIAL["PMPI_Info_get_string"][1](c)
    params = [h_param("MPI_Info", "info")] + params[1:]
    body = [line.replace("(*info,", f"({fromint('MPI_Info', '*info')},") for line in body]
    return params, body, ret


SPECIAL["PMPI_Info_get_string"] = (gf.SPECIAL["PMPI_Info_get_string"][0], _info_get_string)

SPECIAL["PMPI_Grequest_start"] = (
    gf.SPECIAL["PMPI_Grequest_start"][0],
    lambda c: sp(
        ["query_fn: FGreqQueryFn", "free_fn: FGreqFreeFn", "cancel_fn: FGreqCancelFn",
         "extra_state: *mut MPI_Aint", h_param("MPI_Request", "request", True), IERROR],
        [
            "let state = FGrequest::new(query_fn, free_fn, cancel_fn, extra_state);",
            "let mut request_h: MPI_Request = null_mut();",
            f"let rc = {c}(",
            "    Some(f_greq_query_trampoline),",
            "    Some(f_greq_free_trampoline),",
            "    Some(f_greq_cancel_trampoline),",
            "    state as *mut c_void,",
            "    &raw mut request_h,",
            ");",
            "if rc == MPI_SUCCESS {",
            f"    *request = {toint('MPI_Request', 'request_h')};",
            "} else {",
            "    FGrequest::free(state);",
            "}",
            "set_ierror(ierror, rc);",
        ],
    ),
)

# MPI_OP_CREATE(USER_FN, COMMUTE, OP, IERROR) and MPI_X_CREATE_ERRHANDLER(FN, ERRHANDLER,
# IERROR): the C library gets a trampoline bound to the Fortran procedure (support.rs);
# MPI_ERR_INTERN when the pool has no trampoline left.
SPECIAL["PMPI_Op_create"] = (
    ["MPI_User_function", "int", "MPI_Op *"],
    lambda c: sp(
        ["user_fn: FUserFn", "commute: *const c_int", h_param("MPI_Op", "op", True), IERROR],
        [
            "let Some(tramp) = OP_POOL.bind(user_fn) else {",
            "    return set_ierror(ierror, MPI_ERR_INTERN);",
            "};",
            "let mut op_h: MPI_Op = null_mut();",
            f"let rc = {c}(tramp, *commute, &raw mut op_h);",
            f"if rc == MPI_SUCCESS {{ *op = {toint('MPI_Op', 'op_h')}; }}",
            "set_ierror(ierror, rc);",
        ],
    ),
)
for _obj in ("Comm", "Win", "File", "Session"):
    SPECIAL[f"PMPI_{_obj}_create_errhandler"] = (
        [f"MPI_{_obj}_errhandler_function", "MPI_Errhandler *"],
        (lambda obj: lambda c: sp(
            ["function: FErrhandlerFn", h_param("MPI_Errhandler", "errhandler", True), IERROR],
            [
                f"let Some(tramp) = {obj.upper()}_ERRHANDLER_POOL.bind(function) else {{",
                "    return set_ierror(ierror, MPI_ERR_INTERN);",
                "};",
                "let mut errhandler_h: MPI_Errhandler = null_mut();",
                f"let rc = {c}(tramp, &raw mut errhandler_h);",
                f"if rc == MPI_SUCCESS {{ *errhandler = {toint('MPI_Errhandler', 'errhandler_h')}; }}",
                "set_ierror(ierror, rc);",
            ],
        ))(_obj),
    )


SPECIAL["PMPI_Register_datarep"] = (
    gf.SPECIAL["PMPI_Register_datarep"][0],
    lambda c: sp(
        ["datarep: *const c_char", "read_conversion_fn: FConversionFn",
         "write_conversion_fn: FConversionFn", "dtype_file_extent_fn: FExtentFn",
         "extra_state: *const MPI_Aint", IERROR, "datarep_flen: usize"],
        [
            "let datarep_c = f_str_in(datarep, datarep_flen);",
            "let state = FDatarep::new(read_conversion_fn, write_conversion_fn, dtype_file_extent_fn, *extra_state);",
            f"let rc = {c}(",
            "    datarep_c.as_ptr(),",
            "    FDatarep::read_trampoline(state),",
            "    FDatarep::write_trampoline(state),",
            "    Some(f_datarep_extent_trampoline),",
            "    state as *mut c_void,",
            ");",
            "if rc != MPI_SUCCESS {",
            "    FDatarep::free(state);",
            "}",
            "set_ierror(ierror, rc);",
        ],
    ),
)


def special_binding(cp):
    want, build = SPECIAL[cp.cname]
    got = [p.c_type() for p in cp.params if p.kind != "VARARGS"]
    if got != want:
        raise gf.Unsupported(f"parameters differ from the special case ({', '.join(got)})")
    params, body, rret = build(cp.cname)
    b = gf.Binding(cp, params, body, [gf.extern_decl(cp)])
    b.ret = rret
    return b


# The ABI constants support.rs uses (integers; pointer constants as addresses).
RUST_CONSTS = [
    "MPI_SUCCESS", "MPI_ERR_IN_STATUS", "MPI_ERR_INTERN", "MPI_UNDEFINED", "MPI_TAG_UB",
    "MPI_HOST", "MPI_IO", "MPI_WTIME_IS_GLOBAL", "MPI_UNIVERSE_SIZE", "MPI_LASTUSEDCODE",
    "MPI_APPNUM", "MPI_WIN_BASE", "MPI_WIN_SIZE", "MPI_WIN_DISP_UNIT", "MPI_WIN_CREATE_FLAVOR",
    "MPI_WIN_MODEL", "MPI_F_STATUS_SIZE", "MPI_CART", "MPI_GRAPH", "MPI_DIST_GRAPH",
    "MPI_ERR_BUFFER", "MPI_COMM_WORLD",
]
RUST_ADDRS = [
    "MPI_BOTTOM", "MPI_IN_PLACE", "MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE",
    "MPI_UNWEIGHTED", "MPI_WEIGHTS_EMPTY",
]


def render_rust(hdr, std):
    values = dict(hdr.defines)
    for base, name in NULL_NAMES.items():
        NULL_HANDLES[base] = str(gf.c_int_value(values[name], {}))
    bindings, skipped = gf.bind_all(
        hdr, std, NO_FORTRAN,
        lambda cp: special_binding(cp) if cp.cname in SPECIAL else gf.generic_binding(cp, Abi))
    out = []
    w = out.append
    w("// @generated by tools/gen_fortran_abi.py from the MPI Forum's API and include/mpi_abi.h.")
    w("// DO NOT EDIT; re-run `python3 tools/gen_fortran_abi.py`.")
    w("//")
    w("// Fortran entry points over the MPI-5 standard ABI, in gfortran's naming: `pmpi_x_`")
    w("// calls the ABI's C `PMPI_X`, `mpi_x_` calls `pmpi_x_`. Handles are converted with")
    w("// MPI_X_fromint / MPI_X_toint; the rules are in the generator's docstring.")
    w("")
    w("use self::abi::*;")
    w("use crate::support::*;")
    w("use crate::types::*;")
    w("#[allow(unused_imports)]")
    w("use std::os::raw::{c_char, c_int, c_void};")
    w("#[allow(unused_imports)]")
    w("use std::ptr::null_mut;")
    w("")
    w("/// The ABI's constants the support code uses (mpi_abi.h).")
    w("pub mod abi {")
    w("    use std::os::raw::c_int;")
    for name in RUST_CONSTS:
        n = gf.c_int_value(values[name], {})
        w(f"    pub const {name}: c_int = {n};")
    for name in RUST_ADDRS:
        m = re.match(r"^\(\(\w+\s*\*\)\s*(0x[0-9a-fA-F]+|\d+)\)$", values[name])
        if not m:
            raise SystemExit(f"gen_fortran_abi: {name} is not a pointer constant: {values[name]}")
        w(f"    pub const {name}: usize = {int(m.group(1), 0)};")
    w("}")
    w("")
    w('extern "C" {')
    seen = set()
    for b in bindings:
        for e in b.externs:
            w(f"    {e}")
            seen.add(b.cname)
    # The handle conversions the bindings call.
    for conv in sorted(set(CONV.items())):
        base, x = conv
        for name, decl in ((f"PMPI_{x}_fromint", f"fn PMPI_{x}_fromint(i: c_int) -> {base};"),
                           (f"PMPI_{x}_toint", f"fn PMPI_{x}_toint(h: {base}) -> c_int;")):
            if name not in seen:
                w(f"    pub {decl}")
    w("}")
    out += gf.render_entry_points(bindings, skipped)
    return "\n".join(out) + "\n", bindings, skipped


# gen_fortran's head with the ABI's words, status indices and size.
MPIF_HEAD = """\
!     mpif.h of railmpi's Fortran library over the MPI-5 standard ABI
!     (libmpifort_abi over libmpi_abi.so.1): handles are the INTEGERs
!     of MPI_X_toint, constants the ABI's, a status an INTEGER array of
!     MPI_STATUS_SIZE laid out as the ABI's C MPI_Status.
!
!     GENERATED FILE, do not edit: tools/gen_fortran_abi.py writes it
!     from include/mpi_abi.h. Valid as fixed-form and as free-form
!     source (code in columns 7-72, comments start with ! in column 1).
!
""" + gf.MPIF_HEAD[gf.MPIF_HEAD.index("!     Status indices"):].replace(
    "PARAMETER (MPI_SOURCE=3, MPI_TAG=4, MPI_ERROR=5)",
    "PARAMETER (MPI_SOURCE=1, MPI_TAG=2, MPI_ERROR=3)",
).replace("PARAMETER (MPI_STATUS_SIZE=5)", "PARAMETER (MPI_STATUS_SIZE=8)")
assert "MPI_STATUS_SIZE=8" in MPIF_HEAD and "MPI_ERROR=3" in MPIF_HEAD

MPIF_TAIL = gf.MPIF_TAIL.replace(
    "MPICH's, so programs built with\n!     MPICH's mpif.h or mpi module work too.",
    "railmpi's (this library's\n!     support.rs looks up where the program's copies are).",
)
for _old, _new in (("MPIPRIV1", "RMPIABI1"), ("MPIPRIV2", "RMPIABI2"), ("MPIPRIVC", "RMPIABIC"),
                   ("MPIFCMB5", "RMPIABI5"), ("MPIFCMB9", "RMPIABI9")):
    MPIF_TAIL = MPIF_TAIL.replace(_old, _new)


class F08Abi(gen_f08.Flavor):
    """gen_f08's module over the standard ABI."""

    head = gen_f08.F08_HEAD.replace(
        "include/mpi.h (the design is in its docstring).",
        "include/mpi_abi.h, through tools/gen_fortran_abi.py (the design is in gen_f08's\n"
        "! docstring): the module of libmpifort_abi, over the MPI-5 standard ABI.",
    ).replace(
        "MPI_STATUS_SIZE = 5", "MPI_STATUS_SIZE = 8"
    ).replace(
        "MPI_SOURCE = 3, MPI_TAG = 4, MPI_ERROR = 5", "MPI_SOURCE = 1, MPI_TAG = 2, MPI_ERROR = 3"
    ).replace(
        "of mpif.h and `use mpi` (MPICH's values)", "of mpif.h and `use mpi` (MPI_X_toint's)"
    ).replace("of libmpi (mpi_x_)", "of libmpifort_abi (mpi_x_)")
    status = """\
  ! Laid out as INTEGER(MPI_STATUS_SIZE) and the standard ABI's C MPI_Status.
  type, bind(C) :: MPI_Status
    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
    integer(c_int), private :: internal(5)
  end type MPI_Status

"""
    special_vars = gen_f08.F08_SPECIAL_VARS.replace('name="railmpi_f08_', 'name="rmpiabi_f08_').replace(
        "libmpi's variables", "libmpifort_abi's variables")
    mpif = staticmethod(lambda hdr: gf.render_mpif(hdr, MPIF_HEAD, MPIF_TAIL, fortran_keyvals=set()))
    generator = "tools/gen_fortran_abi.py"
    source = "include/mpi_abi.h"
    preamble = ["use crate::f08_support::*;", "use crate::generated::*;", "#[allow(unused_imports)]",
                "use crate::types::*;"]
    aliases = True


for _old in ("MPI_STATUS_SIZE = 8", "MPI_ERROR = 3", "MPI_X_toint's", "mpi_abi.h"):
    assert _old in F08Abi.head, _old


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the outputs are stale")
    ap.add_argument("-q", "--quiet", action="store_true", help="do not list skipped functions")
    opts = ap.parse_args()
    with open(HEADER) as f:
        hdr = gf.Header(f.read())
    if not hdr.names:
        raise SystemExit(f"{HEADER}: no PMPI_ prototypes found")

    std = gf.load_standard()
    rust, bindings, skipped = render_rust(hdr, std)
    procs, left = gen_f08.procedures(hdr, std, bindings)
    outputs = (
        (RUST_OUT, rust),
        (MPIF_OUT, F08Abi.mpif(hdr)),
        (F08_OUT, gen_f08.render_f08(hdr, procs, F08Abi)),
        (F08_RUST_OUT, gen_f08.render_rust(procs, F08Abi)),
    )
    summary = (f"{len(bindings)} functions bound, {len(skipped)} not; mpi_f08: "
               f"{len(procs) + 1} procedures, {len(left)} left out")
    return mpi_api.write_outputs("gen_fortran_abi", outputs, opts.check, summary,
                                 skipped + left, opts.quiet)

if __name__ == "__main__":
    sys.exit(main())
