#!/usr/bin/env python3
"""Generate railmpi's `mpi_f08` module (MPI-3.1 §17.1) from the MPI Forum's API.

    python3 tools/gen_f08.py            # rewrite the generated files
    python3 tools/gen_f08.py --check    # exit 1 if they are stale (nothing written)

Binds every procedure that `use mpi` binds (tools/gen_fortran.py's bindings, of the C
functions include/mpi.h declares: functions added there, MPI_File_* included, appear here on
the next run) and that the standard gives an mpi_f08 binding, with the dummies of that
binding as the MPI Forum's machine-readable API renders them (pympistandard 0.2.0, through
tools/mpi_api.py, as for tools/gen_c.py): names, types, kinds, ranks, INTENT, OPTIONAL,
ASYNCHRONOUS, and whether the procedure is a function or has an ierror. The constants'
values are mpif.h's (include/mpi.h's). It writes

  include/mpi_f08.f90              the module: handle types, MPI_Status, constants, special
                                   addresses, callback interfaces, one generic interface per
                                   MPI_X and PMPI_X; built with -fsyntax-only (fortran.mk)
  src/abi/fortran/f08_generated.rs the entry points of the procedures with choice buffers

Design: a module of interfaces only, so no Fortran object code goes into libmpi and nothing
depends on libgfortran. Two kinds of interfaces:

- A procedure without choice buffers is an external procedure whose specific name is the
  generic one (`interface MPI_Comm_rank / subroutine MPI_Comm_rank(...)`), not BIND(C): gfortran
  calls it `mpi_comm_rank_` with every argument by reference and CHARACTER lengths appended,
  which is exactly the `use mpi` entry point in generated.rs. Those already accept what f08
  adds: a handle type is its one INTEGER, TYPE(MPI_Status) has the INTEGER status array's
  layout, a default LOGICAL is 0/1, an absent OPTIONAL ierror arrives as NULL (set_ierror
  skips it) and f08 callbacks have the conventions the `use mpi` ones have. BIND(C) is ruled
  out for them anyway: gfortran rejects a dummy procedure without BIND(C) in a BIND(C)
  interface, and MPI's callback interfaces are not BIND(C).
- A procedure with a choice buffer needs `TYPE(*), DIMENSION(..)`, whose only portable form
  is BIND(C): `MPI_Send_f08ts` with binding label "MPI_Send_f08ts" (the names MPI-3.1 §17.1.5
  gives; PMPI_Send_f08ts likewise) receives each buffer (and any CHARACTER) as a pointer to a
  CFI_cdesc_t (ISO_Fortran_binding.h), the rest by reference. The Rust entry point takes the
  buffer's address and calls the `use mpi` entry. MPI_SUBARRAYS_SUPPORTED is .false.: a
  noncontiguous section is copied in and out around a call that is done with the buffer
  when it returns (as gfortran does for `use mpi`'s implicit interfaces), and is
  MPI_ERR_BUFFER (raised on the call's communicator, window or file) in one that keeps using
  it (nonblocking, persistent, one-sided, attached: the standard declares its buffers
  ASYNCHRONOUS), where a copy would be wrong.

Dummy arguments are the standard's (keyword arguments by its names), in the module's lower
case, but that a string is CHARACTER(LEN=*) and an array whose extent another dummy gives
(`dims(ndims)`, `ranges(3, n)`) is assumed-size (`dims(*)`, `ranges(3, *)`): the entry
points take any length, and a caller's actual argument is not checked against it. F08_FIXES corrects the rendering where apis.json
is not the standard's text (the partitioned calls' buffers). c_tests/tools/f08_calls.py
checks the interfaces against MPICH's mpi_f08. The specific names of the procedures without
buffers are the generic ones (MPI_Comm_rank, not MPI_Comm_rank_f08).

MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE, ... are BIND(C) module variables whose
storage is libmpi's (`railmpi_f08_bottom`, ...; f08_support.rs), recognised by address by the
same helpers as the COMMON blocks. Handle `==`/`/=` are BIND(C) functions in f08_support.rs.
The entry points of MPI_Sizeof (the descriptor's elem_len), MPI_F_sync_reg and
MPI_Status_f2f08/f082f (FORTRAN_ONLY: no C function; their interfaces are the standard's)
are written by hand there. Not provided: the MPI-1 calls MPI-3.0 removed or that the
standard gives no mpi_f08 binding (MPI_Address, MPI_Attr_*, MPI_Keyval_*,
MPI_Errhandler_create/get/set, MPI_Type_extent/lb/ub/hvector/hindexed/struct), those taking
a procedure the module has no interface for (MPI_Grequest_start, MPI_Register_datarep,
MPI_Session_create_errhandler), the C/f08 status conversions (C only), and what `use mpi`
does not bind.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_fortran as gf  # noqa: E402
import mpi_api  # noqa: E402

ROOT = gf.ROOT
F08_OUT = os.path.join(ROOT, "include", "mpi_f08.f90")
RUST_OUT = os.path.join(ROOT, "src", "abi", "fortran", "f08_generated.rs")

# Handle types of mpi_f08 (MPI-3.1 §2.5.1; MPI_Session is MPI-4's, harmless here).
HANDLE_TYPES = [
    "MPI_Comm", "MPI_Datatype", "MPI_Group", "MPI_Request", "MPI_Op", "MPI_Win", "MPI_File",
    "MPI_Info", "MPI_Errhandler", "MPI_Message", "MPI_Session",
]
# The callbacks' abstract interfaces the module declares (F08_CALLBACKS below): a procedure
# taking another kind of procedure is left out.
F08_INTERFACES = {
    "MPI_User_function", "MPI_Comm_copy_attr_function", "MPI_Comm_delete_attr_function",
    "MPI_Type_copy_attr_function", "MPI_Type_delete_attr_function",
    "MPI_Win_copy_attr_function", "MPI_Win_delete_attr_function",
    "MPI_Comm_errhandler_function", "MPI_Win_errhandler_function",
    "MPI_File_errhandler_function",
}
# Declarations where apis.json (pympistandard 0.2.0) is not the standard's text: the
# partitioned calls' buffers are ASYNCHRONOUS (MPI-4.1 section 4.2.2), MPI_Precv_init's is
# written (no INTENT(IN)).
F08_FIXES = {
    ("MPI_Psend_init", "buf"): "type(*), dimension(..), intent(in), asynchronous",
    ("MPI_Precv_init", "buf"): "type(*), dimension(..), asynchronous",
}
# Fortran's own procedures (MPI-3.1 sections 17.1.7, 17.1.18, 17.2.5), with no C function:
# their entry points are in f08_support.rs (MPI_Sizeof_f08ts, MPI_F_sync_reg_f08ts,
# mpi_status_f2f08_, ...); the status conversions serve `use mpi` too.
FORTRAN_ONLY = ["MPI_Sizeof", "MPI_F_sync_reg", "MPI_Status_f2f08", "MPI_Status_f082f"]


def fortran_words(text):
    """The standard's upper-case Fortran in the module's style: keywords in lower case, MPI's
    names as they are (`TYPE(MPI_Comm), INTENT(IN)` -> `type(MPI_Comm), intent(in)`)."""
    return re.sub(r"\w+", lambda m: m.group(0) if m.group(0).startswith("MPI_")
                  else m.group(0).lower(), text)


class Dummy:
    """One Fortran dummy argument: name, declaration, and how the entry point gets it."""

    def __init__(self, name, decl, kind="ref"):
        self.name, self.decl, self.kind = name, decl, kind  # kind: ref, buf, str


def dummy(q, name, dummies):
    """The dummy of pympistandard's F08Parameter `q` of procedure `name` (MPI_X), whose
    dummies are named `dummies`: the standard's declaration but that a string is
    CHARACTER(LEN=*) and an array's extent that another dummy gives is assumed (`*`): the
    entry point takes any length (a string's comes as gfortran's hidden length)."""
    d = q._parseset
    if d["kind"] in mpi_api.CALLBACK_KINDS and d["func_type"] not in F08_INTERFACES:
        raise gf.Unsupported(f"`{q.name}`: no f08 callback interface ({d['func_type']})")
    decl = F08_FIXES.get((name, q.name))
    if decl is None:
        length = "(LEN=*)" if d["kind"] == "STRING" else q.type_length
        attrs = [q.type + length, q.optional, q.intent, q.asynchronous]
        decl = fortran_words(", ".join(a for a in attrs if a))
    shape = q.name_length
    if shape:
        dims = shape[1:-1].split(", ")
        if dims[-1] in dummies:
            dims[-1] = "*"
        shape = f"({', '.join(dims)})"
    kind = {"BUFFER": "buf", "STRING": "str"}.get(d["kind"], "ref")
    return Dummy(q.name, f"{decl} :: {q.name}{shape}", kind)


def wrap(line, indent):
    """A free-form line of at most 100 columns, continued with `&`."""
    out, cur = [], " " * indent + line
    while len(cur) > 100:
        cut = cur.rfind(", ", 0, 96)
        if cut <= indent:
            break
        out.append(cur[:cut + 1] + " &")
        cur = " " * (indent + 4) + cur[cut + 2:]
    out.append(cur)
    return out


class F08Proc:
    """One MPI procedure: its dummies (the standard's f08 rendering), whether it has an
    ierror, and whether it goes through a BIND(C) entry point."""

    def __init__(self, cname, proc):
        self.cname = cname
        f08 = proc.express.f08
        ret = f08.return_type
        self.kind = fortran_words(ret) + " function" if ret else "subroutine"
        qs = [q for q in f08.parameters if q.name != "ierror"]
        self.ierror = len(qs) < len(f08.parameters)
        names = {q.name for q in qs}
        self.dummies = [dummy(q, "MPI_" + cname[len("PMPI_"):], names) for q in qs]
        self.ts = any(d.kind == "buf" for d in self.dummies)
        self.rust_params = None  # the `use mpi` entry's parameters (for ts entries)
        self.cparams = []  # the C function's (mpi_api.Param)

    def keeps_buffers(self):
        """Whether the call keeps using its buffers after it returns (nonblocking,
        persistent, one-sided, attached): the standard declares them ASYNCHRONOUS."""
        return any(d.kind == "buf" and "asynchronous" in d.decl.split(" :: ")[0]
                   for d in self.dummies)

    def generic(self, prefix):
        return prefix + self.cname[len("PMPI_"):]

    def interface(self, prefix):
        """`interface MPI_X` ... `end interface` lines."""
        gname = self.generic(prefix)
        spec = gname + "_f08ts" if self.ts else gname
        names = [d.name for d in self.dummies]
        if self.ierror:
            names.append("ierror")
        head = f"{self.kind} {spec}({', '.join(names)})"
        if self.ts:
            head += f' bind(C, name="{spec}")'
        out = [f"  interface {gname}"]
        out += wrap(head, 4)
        out.append("      import")
        out.append("      implicit none")
        for d in self.dummies:
            out += wrap(d.decl, 6)
        if self.ierror:
            out.append("      integer, optional, intent(out) :: ierror")
        out.append(f"    end {self.kind.split()[-1]} {spec}")
        out.append(f"  end interface {gname}")
        return out


def procedures(hdr, std, bindings=None):
    """The f08 procedures, and the functions left out (name, why); over `bindings` (the `use
    mpi` entry points: by default gen_fortran's)."""
    if bindings is None:
        _, bindings, _ = gf.render_rust(hdr, std)
    procs, left = [], []
    for b in bindings:
        c = b.cname
        proc = b.cproc.proc
        if proc is None or proc.express.f08 is None:
            left.append((c, "not in mpi_f08 (removed or deprecated MPI-1 call)"))
            continue
        if c == "PMPI_Buffer_detach":
            continue  # written by hand (f08_support.rs: TYPE(C_PTR) buffer_addr)
        try:
            p = F08Proc(c, proc)
        except gf.Unsupported as e:
            left.append((c, str(e)))
            continue
        # The `use mpi` entry takes the dummies in order, ierror, then string lengths (but
        # MPI_Pcontrol and the functions, which have no ierror: no buffers either).
        params = [p.split(": ") for p in b.params]
        n = next((i for i, p in enumerate(params) if p[0] == "ierror"), None)
        if p.ierror and (n != len(p.dummies) or any(t != "usize" for _, t in params[n + 1:])):
            left.append((c, "the `use mpi` entry's parameters are not the dummies in order"))
            continue
        p.rust_params, p.cparams = params, b.cproc.params
        procs.append(p)
    procs_std = mpi_api.procedures(std)
    return procs + [F08Proc("P" + name, procs_std[name]) for name in FORTRAN_ONLY], left


# ---------------------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------------------

F08_HEAD = """\
! mpi_f08.f90: railmpi's `mpi_f08` module (MPI-3.1 section 17.1).
!
! GENERATED FILE, do not edit: tools/gen_f08.py writes it from the MPI Forum's API and
! include/mpi.h (the design is in its docstring). An interface-only module, compiled with -fsyntax-only: procedures
! without choice buffers are the `use mpi` entry points of libmpi (mpi_x_), those with
! choice buffers BIND(C) entry points MPI_X_f08ts taking ISO_Fortran_binding descriptors.
! MPI_SUBARRAYS_SUPPORTED = .false.: a noncontiguous section is copied in and out around a
! call that is done with its buffer on return, and is MPI_ERR_BUFFER in one that keeps it.
module mpi_f08
  use, intrinsic :: iso_c_binding, only: c_int, c_ptr
  implicit none

  integer, parameter :: MPI_ADDRESS_KIND = 8, MPI_OFFSET_KIND = 8, MPI_COUNT_KIND = 8
  integer, parameter :: MPI_INTEGER_KIND = 4
  integer, parameter :: MPI_STATUS_SIZE = 5
  integer, parameter :: MPI_SOURCE = 3, MPI_TAG = 4, MPI_ERROR = 5
  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .false.
  ! gfortran gives ASYNCHRONOUS no meaning that would protect a pending buffer.
  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.

  ! Handles: the INTEGER handle of mpif.h and `use mpi` (MPICH's values) in a type of its own.
"""

F08_STATUS = """\
  ! Laid out as INTEGER(MPI_STATUS_SIZE) and C's MPI_Status (MPICH's): the count words
  ! first, then MPI_SOURCE, MPI_TAG, MPI_ERROR.
  type, bind(C) :: MPI_Status
    integer(c_int), private :: count_lo, count_hi_and_cancelled
    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
  end type MPI_Status

"""

F08_SPECIAL_VARS = """\
  ! Special addresses: libmpi's variables (f08_support.rs), recognised by address.
  integer(c_int), bind(C, name="railmpi_f08_bottom"), target :: MPI_BOTTOM
  integer(c_int), bind(C, name="railmpi_f08_in_place"), target :: MPI_IN_PLACE
  type(MPI_Status), bind(C, name="railmpi_f08_status_ignore"), target :: MPI_STATUS_IGNORE
  type(MPI_Status), dimension(1), bind(C, name="railmpi_f08_statuses_ignore"), target :: &
      MPI_STATUSES_IGNORE
  integer(c_int), dimension(1), bind(C, name="railmpi_f08_errcodes_ignore"), target :: &
      MPI_ERRCODES_IGNORE
  integer(c_int), dimension(1), bind(C, name="railmpi_f08_unweighted"), target :: &
      MPI_UNWEIGHTED
  integer(c_int), dimension(1), bind(C, name="railmpi_f08_weights_empty"), target :: &
      MPI_WEIGHTS_EMPTY
  character(len=1), dimension(1), bind(C, name="railmpi_f08_argv_null"), target :: &
      MPI_ARGV_NULL

"""

F08_CALLBACKS = """\
  ! Callbacks (MPI-3.1 section 17.1.2): their conventions are the C ones (values by
  ! reference but the two buffers), so libmpi calls them as it calls C callbacks.
  abstract interface
    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import
      implicit none
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function
@COPY_DELETE@
    subroutine MPI_Comm_errhandler_function(comm, error_code)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: error_code
    end subroutine MPI_Comm_errhandler_function
    subroutine MPI_Win_errhandler_function(win, error_code)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: error_code
    end subroutine MPI_Win_errhandler_function
    subroutine MPI_File_errhandler_function(file, error_code)
      import
      implicit none
      type(MPI_File) :: file
      integer :: error_code
    end subroutine MPI_File_errhandler_function
  end interface

  ! Predefined attribute callbacks (libmpi's mpi_comm_null_copy_fn_, ...).
@PREDEFINED@

  ! MPI_Buffer_detach: the buffer's address comes back as TYPE(C_PTR).
  interface MPI_Buffer_detach
    subroutine MPI_Buffer_detach_f08(buffer_addr, size, ierror) &
        bind(C, name="MPI_Buffer_detach_f08")
      import
      implicit none
      type(c_ptr), intent(out) :: buffer_addr
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Buffer_detach_f08
  end interface MPI_Buffer_detach
  interface PMPI_Buffer_detach
    subroutine PMPI_Buffer_detach_f08(buffer_addr, size, ierror) &
        bind(C, name="PMPI_Buffer_detach_f08")
      import
      implicit none
      type(c_ptr), intent(out) :: buffer_addr
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Buffer_detach_f08
  end interface PMPI_Buffer_detach

"""

COPY_DELETE = """\
    subroutine MPI_{T}_copy_attr_function(old{o}, {o}_keyval, extra_state, attribute_val_in, &
        attribute_val_out, flag, ierror)
      import
      implicit none
      type(MPI_{H}) :: old{o}
      integer :: {o}_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_{T}_copy_attr_function
    subroutine MPI_{T}_delete_attr_function({o}, {o}_keyval, attribute_val, extra_state, ierror)
      import
      implicit none
      type(MPI_{H}) :: {o}
      integer :: {o}_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_{T}_delete_attr_function"""

ATTR_KINDS = [("Comm", "comm", "Comm"), ("Type", "type", "Datatype"), ("Win", "win", "Win")]


def handle_section():
    out = []
    for h in HANDLE_TYPES:
        out += [f"  type, bind(C) :: {h}", "    integer(c_int) :: MPI_VAL", f"  end type {h}"]
    out.append("")
    # ==, /= (.EQ., .NE.): libmpi compares the integers (f08_support.rs: railmpi_f08_comm_eq_,
    # ...). Not BIND(C): a default LOGICAL result of a BIND(C) function is a GNU extension,
    # which -std=f2018 rejects.
    for op, sfx in (("==", "eq"), ("/=", "ne")):
        out.append(f"  interface operator({op})")
        for h in HANDLE_TYPES:
            f = f"railmpi_f08_{h[4:].lower()}_{sfx}"
            out += [
                f"    logical function {f}(x, y)",
                "      import",
                "      implicit none",
                f"      type({h}), intent(in) :: x, y",
                f"    end function {f}",
            ]
        out.append("  end interface")
    out.append("")
    return "\n".join(out) + "\n"


def constants(hdr, mpif):
    """The constants of mpif.h (its text `mpif`: gen_fortran's values), handles typed."""
    types = {}
    for name, raw in hdr.defines:
        m = re.match(r"^\(\((\w+)\)", raw)
        if m and m.group(1) in HANDLE_TYPES:
            types[name] = m.group(1)
    body = mpif.split("!     Constants of the C header.\n", 1)[1].split("\n!\n", 1)[0]
    out, kind8 = ["  ! Constants (as in mpif.h)."], set()
    for line in body.splitlines():
        m = re.match(r"^      INTEGER\*8 (\w+)$", line)
        if m:
            kind8.add(m.group(1))
            continue
        m = re.match(r"^      PARAMETER \((\w+)=(.+)\)$", line)
        if not m:
            continue
        name, lit = m.groups()
        if name in types:
            t = types[name]
            out.append(f"  type({t}), parameter :: {name} = {t}({lit})")
        elif name in kind8:
            out.append(f"  integer(kind=MPI_OFFSET_KIND), parameter :: {name} = {lit}")
        else:
            out.append(f"  integer, parameter :: {name} = {lit}")
    return "\n".join(out) + "\n\n"


class Flavor:
    """What differs between the module over MPICH's ABI (these) and over the standard ABI
    (tools/gen_fortran_abi.py's): the head (status size and indices), MPI_Status, the special
    variables' storage names, mpif.h's text (the constants), the Rust entry points' preamble,
    and whether they define MPI_X_f08ts themselves (libmpi's build.rs makes those aliases)."""

    head = F08_HEAD
    status = F08_STATUS
    special_vars = F08_SPECIAL_VARS
    mpif = staticmethod(gf.render_mpif)
    generator = "tools/gen_f08.py"
    source = "include/mpi.h"
    preamble = [
        "use super::f08_support::*;",
        "use super::generated::*;",
        "#[allow(unused_imports)]",
        "use crate::abi::consts::*;",
    ]
    aliases = False


def render_f08(hdr, procs, flavor=Flavor):
    copy_delete = "\n".join(COPY_DELETE.format(T=t, o=o, H=h) for t, o, h in ATTR_KINDS)
    pre = []
    for t, _, _ in ATTR_KINDS:
        up = t.upper()
        pre.append(f"  procedure(MPI_{t}_copy_attr_function) :: MPI_{up}_NULL_COPY_FN, "
                   f"MPI_{up}_DUP_FN")
        pre.append(f"  procedure(MPI_{t}_delete_attr_function) :: MPI_{up}_NULL_DELETE_FN")
    text = flavor.head + handle_section() + flavor.status + constants(hdr, flavor.mpif(hdr))
    text += flavor.special_vars
    text += F08_CALLBACKS.replace("@COPY_DELETE@", copy_delete).replace(
        "@PREDEFINED@", "\n".join(pre))
    out = ["  ! Procedures: `interface MPI_X` and `interface PMPI_X` for each."]
    for p in procs:
        out += p.interface("MPI_") + p.interface("PMPI_")
    return text + "\n".join(out) + "\n\nend module mpi_f08\n"


# ---------------------------------------------------------------------------------------
# Rust entry points of the procedures with choice buffers
# ---------------------------------------------------------------------------------------


def err_target(p):
    """Where a noncontiguous buffer's MPI_ERR_BUFFER goes: the call's communicator, window or
    file (the first input handle of those kinds), else MPI_COMM_WORLD."""
    errs = {"COMMUNICATOR": "Comm", "WINDOW": "Win", "FILE": "File"}
    for c in p.cparams:
        if c.kind in errs and c.direction == "in" and c.depth == 0:
            return f"F08Err::{errs[c.kind]}(*{gf.rust_name(c.name)})"
    return "F08Err::World"


def render_rust(procs, flavor=Flavor):
    out = []
    w = out.append
    w(f"// @generated by {flavor.generator} from the MPI Forum's API and {flavor.source}.")
    w(f"// DO NOT EDIT; re-run `python3 {flavor.generator}` after `make header`.")
    w("//")
    w("// The BIND(C) entry points of mpi_f08's procedures with choice buffers (MPI-3.1's")
    w("// MPI_X_f08ts names): buffers and strings arrive as CFI descriptors, the rest as the")
    w("// `use mpi` entry points take them; each calls that entry point (generated.rs) with the")
    w("// buffer's address, or, for a noncontiguous section in a call that is done with it on")
    w("// return, a contiguous copy (written back after a call that writes the buffer).")
    if flavor.aliases:
        w("// MPI_X_f08ts calls PMPI_X_f08ts.")
    else:
        w("// MPI_X_f08ts is an alias of PMPI_X_f08ts (build.rs), as for the C functions.")
    w("")
    for line in flavor.preamble:
        w(line)
    w("#[allow(unused_imports)]")
    w("use std::os::raw::{c_char, c_int, c_void};")
    n = sum(1 for p in procs if p.ts and p.rust_params)
    w("")
    w("/// Number of mpi_f08 procedures with an entry point here.")
    w(f"pub const BOUND_TS: usize = {n};")
    for p in procs:
        if not p.ts or not p.rust_params:
            continue  # the `use mpi` entry point, or one of f08_support.rs
        params = p.rust_params
        kinds = [d.kind for d in p.dummies]
        sig, pre, call, post = [], [], [], []
        target = err_target(p)
        # Done with its buffers when it returns (the standard does not declare them
        # ASYNCHRONOUS): a noncontiguous section can be copied.
        blocking = "false" if p.keeps_buffers() else "true"
        for i, (name, t) in enumerate(params):
            if t == "usize":
                continue  # a string's length: the descriptor's elem_len
            k = kinds[i] if i < len(kinds) else "ref"  # the dummies', then ierror
            if k == "buf" and name == "location":
                sig.append(f"{name}: *const CfiDesc")  # MPI_Get_address: its address only
                call.append(f"f08_base({name}) as {t}")
            elif k == "buf":
                sig.append(f"{name}: *const CfiDesc")
                pre += [f"let Some({name}) = f08_buf({name}, {blocking}) else {{",
                        f'    return f08_noncontiguous("MPI_{p.cname[5:]}", {target}, ierror);',
                        "};"]
                call.append(f"{name}.addr() as {t}")
                if blocking == "true" and t.startswith("*mut"):
                    post.append(f"{name}.copy_out();")
            elif k == "str":
                sig.append(f"{name}: *const CfiDesc")
                pre.append(f"let ({name}, {name}_flen) = f08_str({name});")
                call.append(f"{name} as {t}")
            else:
                sig.append(f"{name}: {t}")
                call.append(name)
        call += [name for name, t in params if t == "usize"]
        spec = p.cname[len("PMPI_"):] + "_f08ts"
        fname = gf.fortran_name(p.cname)
        w("")
        w("#[no_mangle]")
        w(f'pub unsafe extern "C" fn PMPI_{spec}({", ".join(sig)}) {{')
        for line in pre:
            w(f"    {line}")
        w(f"    pmpi_{fname}_({', '.join(call)});")
        for line in post:
            w(f"    {line}")
        w("}")
        if flavor.aliases:
            w("")
            w("#[no_mangle]")
            w(f'pub unsafe extern "C" fn MPI_{spec}({", ".join(sig)}) {{')
            w(f"    PMPI_{spec}({', '.join(x.split(':')[0] for x in sig)})")
            w("}")

    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the outputs are stale")
    ap.add_argument("--header", default=gf.HEADER)
    ap.add_argument("--f08", default=F08_OUT)
    ap.add_argument("--rust", default=RUST_OUT)
    ap.add_argument("-q", "--quiet", action="store_true", help="do not list left-out functions")
    opts = ap.parse_args()
    with open(opts.header) as f:
        hdr = gf.Header(f.read())
    procs, left = procedures(hdr, gf.load_standard())
    outputs = ((opts.f08, render_f08(hdr, procs)), (opts.rust, render_rust(procs)))
    ts = sum(1 for p in procs if p.ts)
    summary = f"{len(procs) + 1} procedures ({ts} BIND(C) with buffers), {len(left)} left out"
    return mpi_api.write_outputs("gen_f08", outputs, opts.check, summary, left, opts.quiet,
                                 verb="left out")

if __name__ == "__main__":
    sys.exit(main())
