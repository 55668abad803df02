#!/usr/bin/env python3
"""Generate railmpi's MPI-5.0 standard ABI (libmpi_abi.so.1) from the MPI Forum's API.

    python3 tools/gen_abi.py            # rewrite the outputs
    python3 tools/gen_abi.py --check    # exit 1 if one is stale (nothing written)

The standard ABI (MPI-5.0 chapter 20, Annex A) fixes handles as pointers to incomplete
structs with small values for the predefined ones, the constants' values and MPI_Status.
railmpi's core speaks the MPICH ABI (src/abi: `PMPI_X` entry points over MPICH's values), so
the standard ABI is a translating layer over those entry points, generated here from what
each parameter *is* (its kind in the standard's API description, as gen_c.py uses it):

  handles (COMMUNICATOR, DATATYPE, ...)   predefined ones by table, railmpi's own by value
  RANK, TAG                               the wildcards and MPI_PROC_NULL / MPI_ROOT
  STATUS                                  the standard's layout <-> MPICH's, fields mapped
  BUFFER                                  MPI_IN_PLACE, MPI_BUFFER_AUTOMATIC
  THREAD_LEVEL, COMBINER, ASSERT, ...     enumerations and mode bits by table
  the return code and error code params   error classes by table

Inputs: the standard (pympistandard, as gen_c.py), tools/abi_std.txt (the standard ABI's
constants), tools/mpich_abi.txt (which MPICH-ABI constants railmpi has) and the `PMPI_X`
functions of src/abi (what railmpi implements). Outputs, checked in:
  src/abi_std/values.rs        the constants and the translation tables
  src/abi_std/entry_points.rs  one `PMPI_X` per procedure (build.rs adds `MPI_X`)
  include/mpi_abi.h            the header (the standard's values and prototypes)
Procedures taking callbacks, and a few others, are written by hand in src/abi_std/extra.rs
(HAND below); those with a parameter no rule covers are left out and listed at the end of
entry_points.rs.
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_c  # noqa: E402  (the standard's loader and the C-to-Rust parameter rules)

ROOT = gen_c.ROOT
TABLE = os.path.join(ROOT, "tools", "abi_std.txt")
OUT_VALUES = os.path.join(ROOT, "src", "abi_std", "values.rs")
OUT_ENTRIES = os.path.join(ROOT, "src", "abi_std", "entry_points.rs")
OUT_HEADER = os.path.join(ROOT, "include", "mpi_abi.h")

# Handle types: the C type -> the name of its conversion functions.
HANDLES = {
    "MPI_Comm": "comm",
    "MPI_Datatype": "datatype",
    "MPI_Group": "group",
    "MPI_Op": "op",
    "MPI_Info": "info",
    "MPI_Errhandler": "errhandler",
    "MPI_Request": "request",
    "MPI_Win": "win",
    "MPI_File": "file",
    "MPI_Session": "session",
    "MPI_Message": "message",
}
# Their null values in the MPICH ABI (the initial value of an output's stand-in).
MPICH_NULL = {
    "MPI_Comm": "m::MPI_COMM_NULL",
    "MPI_Datatype": "m::MPI_DATATYPE_NULL",
    "MPI_Group": "m::MPI_GROUP_NULL",
    "MPI_Op": "m::MPI_OP_NULL",
    "MPI_Info": "m::MPI_INFO_NULL",
    "MPI_Errhandler": "m::MPI_ERRHANDLER_NULL",
    "MPI_Request": "m::MPI_REQUEST_NULL",
    "MPI_Win": "m::MPI_WIN_NULL",
    "MPI_File": "m::MPI_FILE_NULL",
    "MPI_Session": "m::MPI_SESSION_NULL",
    "MPI_Message": "m::MPI_MESSAGE_NULL",
}

# Integer enumerations: table name -> the constants (by name) it maps.
ENUMS = [
    ("code", r"^(MPI_SUCCESS|MPI_ERR_(?!LASTCODE)\w+|MPI_T_ERR_\w+)$"),
    ("thread", r"^MPI_THREAD_"),
    ("order", r"^MPI_ORDER_"),
    ("distribute", r"^MPI_DISTRIBUTE_"),
    ("combiner", r"^MPI_COMBINER_"),
    ("typeclass", r"^MPIX?_TYPECLASS_"),
    ("compare", r"^MPI_(IDENT|CONGRUENT|SIMILAR|UNEQUAL)$"),
    ("topology", r"^MPI_(CART|GRAPH|DIST_GRAPH)$"),
    ("split", r"^MPI_COMM_TYPE_"),
    ("lock", r"^MPI_LOCK_"),
    ("flavor", r"^MPI_WIN_FLAVOR_"),
    ("model", r"^MPI_WIN_(UNIFIED|SEPARATE)$"),
    ("whence", r"^MPI_SEEK_"),
    (
        "keyval",
        r"^MPI_(KEYVAL_INVALID|TAG_UB|IO|HOST|WTIME_IS_GLOBAL|APPNUM|LASTUSEDCODE|"
        r"UNIVERSE_SIZE|WIN_BASE|WIN_DISP_UNIT|WIN_SIZE|WIN_CREATE_FLAVOR|WIN_MODEL)$",
    ),
    ("verbosity", r"^MPI_T_VERBOSITY_"),
    ("bind", r"^MPI_T_BIND_"),
    ("scope", r"^MPI_T_SCOPE_"),
    ("pvar_class", r"^MPI_T_PVAR_CLASS_"),
    ("cb_safety", r"^MPI_T_CB_"),
    ("source_order", r"^MPI_T_SOURCE_(UN)?ORDERED$"),
]
# Bit sets: each bit maps on its own (file access modes and window assertions).
BITS = [("mode", r"^MPI_MODE_")]

# Parameter kinds -> the enumeration their values come from.
ENUM_KINDS = {
    "THREAD_LEVEL": "thread",
    "COMM_COMPARISON": "compare",
    "GROUP_COMPARISON": "compare",
    "TOPOLOGY_TYPE": "topology",
    "COMBINER": "combiner",
    "LOCK_TYPE": "lock",
    "UPDATE_MODE": "whence",
    "ORDER": "order",
    "DISTRIB_ENUM": "distribute",
    "DTYPE_DISTRIBUTION": "darg",
    "SPLIT_TYPE": "split",
    "TYPECLASS": "typeclass",
    "KEYVAL": "keyval",
    "ERROR_CODE": "code",
    "ERROR_CLASS": "code",
    "TOOL_VAR_VERBOSITY": "verbosity",
    "BIND_TYPE": "bind",
    "VARIABLE_SCOPE": "scope",
    "PVAR_CLASS": "pvar_class",
    "SOURCE_ORDERING": "source_order",
    "CALLBACK_SAFETY": "cb_safety",
}
BIT_KINDS = {"ASSERT": "mode", "ACCESS_MODE": "mode"}

# Arrays whose length the standard gives as '*': (procedure without _c, parameter) ->
# a Rust expression over the parameters.
LENGTHS = {
    ("MPI_Waitall", "array_of_statuses"): "count",
    ("MPI_Testall", "array_of_statuses"): "count",
    ("MPI_Request_get_status_all", "array_of_statuses"): "count",
    ("MPI_Waitsome", "array_of_statuses"): "incount",
    ("MPI_Testsome", "array_of_statuses"): "incount",
    ("MPI_Request_get_status_some", "array_of_statuses"): "incount",
}
for f in ("MPI_Alltoallw", "MPI_Ialltoallw", "MPI_Alltoallw_init"):
    LENGTHS[(f, "sendtypes")] = "cv::unless_in_place(sendbuf, cv::remote_size(comm))"
    LENGTHS[(f, "recvtypes")] = "cv::remote_size(comm)"
for f in ("MPI_Neighbor_alltoallw", "MPI_Ineighbor_alltoallw", "MPI_Neighbor_alltoallw_init"):
    LENGTHS[(f, "sendtypes")] = "cv::degrees(comm).1"
    LENGTHS[(f, "recvtypes")] = "cv::degrees(comm).0"

# Written by hand in src/abi_std/extra.rs (callbacks, attribute values, the ABI's own
# calls, handle conversions) and fortran.rs (the Fortran registration calls).
HAND = {
    "MPI_Abi_get_version",
    "MPI_Abi_get_info",
    "MPI_Abi_get_fortran_info",
    "MPI_Abi_set_fortran_info",
    "MPI_Abi_get_fortran_booleans",
    "MPI_Abi_set_fortran_booleans",
    "MPI_Comm_get_attr",
    "MPI_Win_get_attr",
    "MPI_Attr_get",
    "MPI_Pcontrol",
    "MPI_Status_c2f",
    "MPI_Status_f2c",
}
HANDLE_INT_CONV = re.compile(r"^MPI_(Comm|Type|Group|Info|Request|Op|Errhandler|Win|Message|Session|File)_(toint|fromint|c2f|f2c)$")


def read_abi_table():
    rows = []
    with open(TABLE) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                rows.append(line.split())
    return rows


def mpich_names():
    """The MPICH ABI's integer and handle constants (tools/mpich_abi.txt, via gen_c.py)."""
    return set(gen_c.mpich_constants())


# Standard-ABI handles whose MPICH-ABI constant is the null handle (MPICH lacks the object)
# but which railmpi has, under a handle of its own.
OWN_HANDLES = {"MPI_INTEGER16": "crate::abi::builtin_types::INTEGER16"}


def mpich_value(name):
    """The Rust expression of MPICH-ABI constant `name` (railmpi's own for OWN_HANDLES)."""
    return OWN_HANDLES.get(name, f"m::{name}")


def mpich_functions():
    """railmpi's `PMPI_X` C entry points: name -> Rust path."""
    out = {}
    base = os.path.join(ROOT, "src", "abi")
    for dirpath, _, files in os.walk(base):
        if "fortran" in dirpath:
            continue
        for fn in files:
            if not fn.endswith(".rs"):
                continue
            path = os.path.join(dirpath, fn)
            mod = os.path.relpath(path, os.path.join(ROOT, "src"))[:-3].replace(os.sep, "::")
            for name in re.findall(r'extern "C" fn PMPI_(\w+)\(', open(path).read()):
                out["MPI_" + name] = f"crate::{mod}::PMPI_{name}"
    return out


def intval(s):
    return int(s, 0)


def render_values(rows, have):
    out = [
        "//! GENERATED by tools/gen_abi.py from tools/abi_std.txt -- do not edit.",
        "//!",
        "//! The MPI-5.0 standard ABI's constants, and the translation of each kind of value to",
        "//! and from railmpi's MPICH ABI (src/abi/consts.rs, as `m::`). Values with no",
        "//! counterpart pass through unchanged (a handle railmpi made is its MPICH value).",
        "",
        "#![allow(unreachable_patterns, dead_code, clippy::unreadable_literal, clippy::match_overlapping_arm)]",
        "",
        "use super::types::{handle, user_in, user_out};",
        "use super::types::*;",
        "use crate::abi::consts as m;",
        "use std::os::raw::c_int;",
        "",
    ]
    handles = {t: [] for t in HANDLES}
    ints = []
    for r in rows:
        if r[0] == "handle":
            _, ty, name, val = r
            out.append(f"pub const {name}: {ty} = handle({val});")
            handles[ty].append((name, intval(val)))
        elif r[0] == "int":
            _, name, val = r
            if name in ("MPI_VERSION", "MPI_SUBVERSION"):
                continue
            out.append(f"pub const {name}: c_int = {val};")
            ints.append((name, intval(val)))
    out.append("")
    for ty, fname in HANDLES.items():
        rows_ = handles[ty]
        if ty == "MPI_File":
            continue  # a pointer in both ABIs: `convert::file_in`/`file_out`
        ins = [f"        {v:#x} => {mpich_value(n)}," for n, v in rows_ if n in have]
        outs = [f"        {mpich_value(n)} => {v:#x}," for n, v in rows_ if n in have]
        out += [
            f"/// {ty}: standard ABI -> MPICH ABI.",
            "#[inline]",
            f"pub fn {fname}_in(h: {ty}) -> m::{ty} {{",
            "    match h as usize {",
            *ins,
            "        v => user_in(v),",
            "    }",
            "}",
            "",
            f"/// {ty}: MPICH ABI -> standard ABI.",
            "#[inline]",
            f"pub fn {fname}_out(h: m::{ty}) -> {ty} {{",
            "    handle(match h {",
            *outs,
            "        h => user_out(h),",
            "    })",
            "}",
            "",
        ]
    for tname, pat in ENUMS:
        members = [(n, v) for n, v in ints if re.match(pat, n) and n in have]
        ins = [f"        {v} => m::{n}," for n, v in members]
        outs = [f"        m::{n} => {v}," for n, v in members]
        out += [
            f"/// {tname}: standard ABI -> MPICH ABI (others unchanged).",
            "#[inline]",
            f"pub fn {tname}_in(v: c_int) -> c_int {{",
            "    match v {",
            *ins,
            "        v => v,",
            "    }",
            "}",
            "",
            f"/// {tname}: MPICH ABI -> standard ABI (others unchanged).",
            "#[inline]",
            f"pub fn {tname}_out(v: c_int) -> c_int {{",
            "    match v {",
            *outs,
            "        v => v,",
            "    }",
            "}",
            "",
        ]
    for tname, pat in BITS:
        members = [(n, v) for n, v in ints if re.match(pat, n) and n in have]
        ins = [f"    if v & {v} != 0 {{\n        r |= m::{n};\n    }}" for n, v in members]
        outs = [f"    if v & m::{n} != 0 {{\n        r |= {v};\n    }}" for n, v in members]
        out += [
            f"/// {tname} bits: standard ABI -> MPICH ABI (unknown bits dropped).",
            f"pub fn {tname}_in(v: c_int) -> c_int {{",
            "    let mut r = 0;",
            *ins,
            "    r",
            "}",
            "",
            f"/// {tname} bits: MPICH ABI -> standard ABI.",
            f"pub fn {tname}_out(v: c_int) -> c_int {{",
            "    let mut r = 0;",
            *outs,
            "    r",
            "}",
            "",
        ]
    return "\n".join(out) + "\n"


class Skip(Exception):
    pass


def convert_param(proc_name, p, params):
    """(before-call lines, argument expression, after-call lines) for one parameter."""
    n, k, d, ty = p["name"], p["kind"], p["dir"], p["type"]
    bare = ty.replace("*const ", "").replace("*mut ", "")
    level = ty.count("*")
    base = proc_name[:-2] if proc_name.endswith("_c") else proc_name
    if base == "MPI_T_event_get_info" and p["array"]:
        # railmpi has no events: the call fails before it would look at the arrays.
        return [], "std::ptr::null_mut()", []
    if bare in HANDLES:
        fname = HANDLES[bare]
        if level == 0:
            return [], f"v::{fname}_in({n})" if bare != "MPI_File" else f"cv::file_in({n})", []
        conv_in = f"v::{fname}_in" if bare != "MPI_File" else "cv::file_in"
        conv_out = f"v::{fname}_out" if bare != "MPI_File" else "cv::file_out"
        if p["array"]:
            length = LENGTHS.get((base, n))
            if length is None:
                length = p.get("length")
                if length is None or length == "*" or not re.match(r"^\w+$", str(length)):
                    raise Skip(f"{n}: an array of {bare} of length {length!r}")
                length = f"cv::len({length})"
            if d == "in":
                return (
                    [f"let {n}_v = cv::array_in({n} as *const _, {length}, {conv_in});"],
                    f"cv::aptr(&{n}_v, {n})",
                    [],
                )
            pre = f"let mut {n}_v = cv::array_in({n} as *const _, {length}, {conv_in});"
            if d == "out":
                pre = f"let mut {n}_v = cv::array_new({n}, {length}, {MPICH_NULL[bare]});"
            return [pre], f"cv::aptr_mut(&mut {n}_v, {n})", [f"cv::array_back({n}, &{n}_v, {conv_out});"]
        init = MPICH_NULL[bare] if d == "out" else f"cv::read_or({n}, {MPICH_NULL[bare]}, {conv_in})"
        return (
            [f"let mut {n}_t = {init};"],
            f"cv::ptr({n}, &mut {n}_t)",
            [f"cv::write({n}, {n}_t, {conv_out});"],
        )
    if k == "STATUS":
        if p["array"]:
            length = LENGTHS.get((base, n))
            if length is None:
                raise Skip(f"{n}: statuses of unknown number")
            return (
                [f"let mut {n}_v = cv::statuses_new({n}, cv::len({length}));"],
                f"cv::statuses_ptr(&mut {n}_v, {n})",
                [f"cv::statuses_back({n}, &{n}_v, cv::len({length}));"],
            )
        if d == "in":
            return [f"let {n}_t = cv::status_in({n});"], f"cv::status_cptr({n}, &{n}_t)", []
        if d == "inout":
            return (
                [f"let mut {n}_t = cv::status_read({n});"],
                f"cv::status_ptr({n}, &mut {n}_t)",
                [f"cv::status_back({n}, &{n}_t);"],
            )
        # An output status: only the fields the call wrote go back (MPI_Iprobe, MPI_Test
        # ... leave it as it was when nothing came).
        return (
            [f"let mut {n}_t = cv::STATUS_UNSET;"],
            f"cv::status_ptr({n}, &mut {n}_t)",
            [f"cv::status_written({n}, &{n}_t);"],
        )
    if k in ("RANK", "RANK_NNI") and level == 0:
        return [], f"cv::rank_in({n})", []
    if k == "RANK" and not p["array"] and d == "out":
        return [], n, [f"cv::out_in_place({n}, cv::rank_out);"]
    if k == "RANK" and base == "MPI_Group_translate_ranks":
        if d == "in":
            return [f"let {n}_v = cv::array_in({n} as *const _, cv::len(n), cv::rank_in);"], f"cv::aptr(&{n}_v, {n})", []
        return [], n, [f"cv::array_in_place({n}, cv::len(n), cv::rank_out);"]
    if k == "TAG" and level == 0:
        return [], f"cv::tag_in({n})", []
    if k == "TAG" and level == 1 and d == "out":
        return [], n, [f"cv::out_in_place({n}, cv::tag_out);"]
    if base == "MPI_Type_get_contents" and n == "array_of_integers":
        # A subarray's or darray's order and distributions are among the integers.
        return [], n, [f"cv::contents_ints(datatype, {n}, cv::len(max_integers));"]
    if n == "buffer_addr" and d == "out":
        # MPI_Buffer_detach and kin: the address detached (`void **` in C), maybe
        # MPI_BUFFER_AUTOMATIC.
        return [], n, [f"cv::detached({n});"]
    if base == "MPI_Get_address":
        return [], f"{n}.cast()", []  # an address, whatever it is
    if k in ("BUFFER", "C_BUFFER") and level == 1 and bare == "c_void":
        return [], f"cv::buf({n})", []
    if k in ("ERROR_CODE", "ERROR_CLASS") and level == 0:
        return [], f"v::code_in({n})", []
    if k in ("ERROR_CODE", "ERROR_CLASS") and level == 1 and d == "out":
        return [], n, [f"cv::out_in_place({n}, v::code_out);"]
    if k in ENUM_KINDS or k in BIT_KINDS:
        t = ENUM_KINDS.get(k) or BIT_KINDS[k]
        # (`darg`: one value among plain numbers, in convert.rs.)
        t = f"cv::{t}" if t == "darg" else f"v::{t}"
        if level == 0:
            return [], f"{t}_in({n})", []
        if p["array"] and d == "in":
            return [f"let {n}_v = cv::array_in({n} as *const _, cv::len(ndims), {t}_in);"], f"cv::aptr(&{n}_v, {n})", []
        if d == "out":
            return [], n, [f"cv::out_in_place({n}, {t}_out);"]
        if d == "inout":
            return [f"cv::out_in_place({n}, {t}_in);"], n, [f"cv::out_in_place({n}, {t}_out);"]
    if k == "PVAR" and level == 0:
        return [], f"cv::pvar_handle_in({n})", []
    if k == "WEIGHT":
        return [], f"cv::weights({n})", []
    if k == "OFFSET" and base == "MPI_File_set_view":
        return [], f"cv::disp_in({n})", []
    if k in ("FUNCTION", "POLYFUNCTION", "EVENT_CB_FUNCTION", "EVENT_FREE_CB_FUNCTION",
             "EVENT_DROP_CB_FUNCTION"):
        # Kept as the address it is: abi::callbacks calls it with standard-ABI arguments.
        return [], f"cv::func({n})", []
    if k == "VARARGS" or k.startswith("F90_") or k == "F08_STATUS":
        raise Skip(f"{n}: kind {k}")
    if level >= 1:
        # Passed on as it is (strings, plain ints, user data); `cast` bridges spellings
        # of the same C type (`char *argv[]` as `char **`).
        return [], f"{n}.cast()", []
    return [], n, []


def render_entry(cname, proc, proto, mpich_path, large):
    params = gen_c.params_of(proc, proto, large)
    lengths = {q["name"]: q["length"] for q in proc._parseset["parameters"]}
    for p in params:
        p["length"] = lengths.get(p["name"])
    pre, args, post = [], [], []
    for p in params:
        b, a, c = convert_param(cname, p, params)
        pre += b
        args.append(a)
        post += c
    rk = proc._parseset["return_kind"]
    ret = proto[: proto.index(cname + "(")].strip()
    rty = {"int": "c_int", "double": "f64"}.get(ret, ret)
    sig = ", ".join(f"{p['name']}: {p['type']}" for p in params)
    call = f"{mpich_path}({', '.join(args)})"
    lines = ["#[no_mangle]", f'pub unsafe extern "C" fn P{cname}({sig}) -> {rty} {{']
    for l in pre:
        lines.append("    " + l)
    if rk in ("ERROR_CODE", "ERROR_CLASS"):
        lines.append(f"    let rc = {call};")
        for l in post:
            lines.append("    " + l)
        lines.append("    v::code_out(rc)")
    else:
        if post:
            raise Skip("outputs of a call without an error code")
        lines.append(f"    {call}")
    lines.append("}")
    return "\n".join(lines)


def exported(std, have_fns):
    """(name, proc, proto, large, mpich path) of each procedure generated, and those left out."""
    out, left = [], []
    for proc in sorted(std.PROCEDURES.values(), key=lambda p: p._parseset["name"]):
        ps = proc._parseset
        name = ps["name"]
        a = ps["attributes"]
        if a.get("callback") or a.get("predefined_function") or not a.get("c_expressible", True):
            continue
        if not name.startswith("MPI_"):
            continue
        forms = [(name, str(proc.express.iso_c), False)]
        if proc.has_embiggenment():
            forms.append((name + "_c", str(proc.express.embiggen.iso_c), True))
        for cname, proto, large in forms:
            if cname in HAND or HANDLE_INT_CONV.match(cname):
                continue
            path = have_fns.get(cname)
            if path is None:
                left.append((cname, "not in railmpi"))
                continue
            try:
                text = render_entry(cname, proc, proto, path, large)
            except Skip as e:
                left.append((cname, str(e)))
                continue
            out.append((cname, proto, text))
    return out, left


def render_entries(done, left):
    head = """//! GENERATED by tools/gen_abi.py from the MPI Forum's API (pympistandard) -- do not edit.
//!
//! The standard ABI's entry points: each converts its arguments to the MPICH ABI by kind
//! (`values`, `convert`), calls railmpi's MPICH-ABI entry point, and converts the outputs
//! and the return code back. build.rs adds the `MPI_X` name of each `PMPI_X`.

#![allow(clippy::too_many_arguments, clippy::missing_safety_doc, unused_mut, unused_variables)]

use super::convert as cv;
use super::types::*;
use super::values as v;
use crate::abi::consts as m;
use std::os::raw::{c_char, c_int, c_void};
"""
    body = "\n\n".join(t for _, _, t in done)
    tail = [f"\n// Left out ({len(left)}):"] + [f"//   {n}: {why}" for n, why in left]
    return head + "\n" + body + "\n" + "\n".join(tail) + "\n"


HEADER_TYPES = """\
typedef intptr_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef MPI_Offset MPI_Count;
typedef int MPI_Fint;

typedef struct {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int MPI_internal[5];
} MPI_Status;
"""

# The tool interface's types, which the callback types (from the standard) use.
HEADER_TOOL_TYPES = """\
typedef struct MPI_T_enum_t *MPI_T_enum;
typedef struct MPI_T_cvar_handle_t *MPI_T_cvar_handle;
typedef struct MPI_T_pvar_handle_t *MPI_T_pvar_handle;
typedef struct MPI_T_pvar_session_t *MPI_T_pvar_session;
typedef struct MPI_T_event_registration_t *MPI_T_event_registration;
typedef struct MPI_T_event_instance_t *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0x00,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED = 0x03,
    MPI_T_CB_REQUIRE_THREAD_SAFE = 0x0F,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 0x3F
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
    MPI_T_SOURCE_ORDERED = 1,
    MPI_T_SOURCE_UNORDERED = 2
} MPI_T_source_order;
"""


def render_header(std, rows, protos):
    out = [
        "/*",
        " * mpi_abi.h: the MPI-5.0 standard ABI of railmpi (libmpi_abi.so.1): handles are",
        " * pointers to incomplete structs, constants and MPI_Status as the standard fixes them.",
        " * railmpi implements MPI 4.1 (MPI_VERSION) through the ABI of version 1.0.",
        " *",
        " * GENERATED FILE, do not edit: tools/gen_abi.py writes it from tools/abi_std.txt and the",
        " * MPI Forum's API.",
        " */",
        "#ifndef MPI_H_ABI",
        "#define MPI_H_ABI",
        "",
        "#include <stdint.h>",
        "",
        "#if defined(__cplusplus)",
        'extern "C" {',
        "#endif",
        "",
        "#define MPI_VERSION 4",
        "#define MPI_SUBVERSION 1",
        "",
        HEADER_TYPES,
    ]
    for ty in HANDLES:
        out.append(f"typedef struct MPI_ABI_{ty[4:]} *{ty};")
    out.append("")
    skip_types = {"MPI_T_cb_safety", "MPI_T_source_order"}
    for r in rows:
        if r[0] == "handle":
            _, ty, name, val = r
            out.append(f"#define {name} (({ty}){val})")
        elif r[0] == "int":
            _, name, val = r
            if name in ("MPI_VERSION", "MPI_SUBVERSION") or name.startswith("MPI_T_CB_") or name.startswith("MPI_T_SOURCE_"):
                continue
            out.append(f"#define {name} {val}")
        elif r[0] == "alias":
            _, name, other = r
            if name.startswith("MPI_ABI_"):
                continue
            out.append(f"#define {name} {other}")
        elif r[0] == "ptr":
            _, cty, name, val = r
            if cty.startswith("MPI_Offset"):
                out.append(f"#define {name} (({cty}){val})")
            else:
                out.append(f"#define {name} (({cty}){val})")
    out += ["", HEADER_TOOL_TYPES] + gen_c.callback_typedefs(std, "std") + [""]
    for name, proto in protos:
        out.append(proto + ";")
    for name, proto in protos:
        out.append(proto.replace(" " + name + "(", " P" + name + "(", 1) + ";")
    out += ["", "#if defined(__cplusplus)", "}", "#endif", "#endif /* MPI_H_ABI */", ""]
    return "\n".join(out)


HAND_PROTOS = [
    "int MPI_Abi_get_version(int *abi_major, int *abi_minor)",
    "int MPI_Abi_get_info(MPI_Info *info)",
    "int MPI_Abi_get_fortran_info(MPI_Info *info)",
    "int MPI_Abi_set_fortran_info(MPI_Info info)",
    "int MPI_Abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set)",
    "int MPI_Abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)",
    "int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)",
    "int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)",
    "int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)",
    "int MPI_Pcontrol(const int level, ...)",
    "int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)",
    "int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)",
]
for _t, _s in (("Comm", "MPI_Comm"), ("Type", "MPI_Datatype"), ("Group", "MPI_Group"),
               ("Info", "MPI_Info"), ("Request", "MPI_Request"), ("Op", "MPI_Op"),
               ("Errhandler", "MPI_Errhandler"), ("Win", "MPI_Win"), ("Message", "MPI_Message"),
               ("Session", "MPI_Session"), ("File", "MPI_File")):
    HAND_PROTOS += [
        f"int MPI_{_t}_toint({_s} {_t.lower()})",
        f"{_s} MPI_{_t}_fromint(int {_t.lower()})",
        f"MPI_Fint MPI_{_t}_c2f({_s} {_t.lower()})",
        f"{_s} MPI_{_t}_f2c(MPI_Fint {_t.lower()})",
    ]


def rustfmt(text):
    return subprocess.run(
        ["rustfmt", "--edition", "2021", "--emit", "stdout"],
        input=text, capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if an output is stale")
    a = ap.parse_args()
    std = gen_c.load_standard()
    rows = read_abi_table()
    have = mpich_names()
    done, left = exported(std, mpich_functions())
    protos = [(n, p) for n, p, _ in done]
    for hp in HAND_PROTOS:
        protos.append((re.search(r"(MPI_\w+)\(", hp).group(1), hp))
    protos.sort()
    outputs = {
        OUT_VALUES: rustfmt(render_values(rows, have)),
        OUT_ENTRIES: rustfmt(render_entries(done, left)),
        OUT_HEADER: render_header(std, rows, protos),
    }
    stale = False
    for path, text in outputs.items():
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        stale = True
        if not a.check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {path}")
    if a.check and stale:
        sys.exit("the standard ABI's generated files are stale: run `make abi-gen` (tools/gen_abi.py)")


if __name__ == "__main__":
    main()
