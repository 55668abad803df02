#!/usr/bin/env python3
"""c_tests/tools/f08_calls.py MPI_F08_F90 [--keywords] [--mpi40]: a Fortran subroutine that calls every
generic procedure of railmpi's mpi_f08 module (include/mpi_f08.f90) once, with variables of
the types, kinds and ranks its interface declares (by keyword with --keywords, but for the
calls with an `index`, which MPICH names otherwise), and compares handles of each type.
Compiled, never run: 90_fortran.sh (fortran.f08_calls_mpich) checks that MPICH's mpi_f08
accepts the same calls, i.e. that railmpi's interfaces are the standard's. --mpi40 leaves out
the procedures MPI 4.1 added (Debian's MPICH 4.0.2 has none of them)."""
import re
import sys

text = open(sys.argv[1]).read()
keywords = "--keywords" in sys.argv[2:]
mpi40 = "--mpi40" in sys.argv[2:]
# New in MPI 4.1 (MPI-4.1 Annex B.1).
MPI41 = re.compile(
    r"MPI_(Status_[gs]et_(source|tag|error)|Request_get_status_(any|all|some)"
    r"|Remove_error_(class|code|string)|Type_get_value_index|Buffer_i?flush"
    r"|(Comm|Session)_(attach|detach|flush|iflush)_buffer|Get_hw_resource_info)$"
)
decls, calls, n = [], [], 0
for m in re.finditer(r"^  interface (MPI_\w+)\n(.*?)^  end interface \1\n", text, re.S | re.M):
    name, body = m.group(1), m.group(2).replace("&\n        ", "")
    head = re.search(r"^    (subroutine|.* function) \w+\((.*?)\)", body, re.M)
    kind, args = head.group(1), [a.strip() for a in head.group(2).split(",") if a.strip()]
    types = {d.group(2): (d.group(1), d.group(3) or "")
             for d in re.finditer(r"^      (.*?) :: (\w+)(\(.*\))?$", body, re.M)}
    if mpi40 and MPI41.match(name):
        continue
    if keywords and "index" in args:
        continue  # MPICH 4.0 names MPI-3.1's `index` `indx` (MPI_Waitany, MPI_Graph_get, ...)
    if keywords and mpi40 and name == "MPI_Precv_init":
        continue  # MPICH 4.0.2 names its `source` `dest` (MPICH 5 has it right)
    actuals = []
    for a in args:
        t, dims = types[a]
        n += 1
        v = f"v{n}"
        if t.startswith("procedure("):
            decls.append(f"  {t} :: {v}")
        elif t.startswith("type(*)"):
            decls.append(f"  integer :: {v}(4)")
        else:
            base = re.sub(r", (intent\(\w+\)|optional|asynchronous)", "", t)
            # Output strings as long as MPI's longest (MPI-3.1 declares them with the
            # MPI_MAX_* lengths, which MPICH's module checks).
            base = base.replace("character(len=*)", "character(len=8192)")
            shape = {"": "", "(*)": "(4)", "(3, *)": "(3, 4)"}.get(dims, dims)
            decls.append(f"  {base} :: {v}{shape}")
        actuals.append(f"{a}={v}" if keywords else v)
    if kind == "subroutine":
        calls.append(f"  call {name}({', '.join(actuals)})")
    else:
        n += 1
        decls.append(f"  {kind.replace(' function', '')} :: r{n}")
        calls.append(f"  r{n} = {name}({', '.join(actuals)})")
# The handle comparisons.
decls.append("  logical :: same")
for t in ("MPI_Comm", "MPI_Datatype", "MPI_Group", "MPI_Request", "MPI_Op", "MPI_Win",
          "MPI_File", "MPI_Info", "MPI_Errhandler", "MPI_Message"):
    n += 1
    decls.append(f"  type({t}) :: h{n}")
    calls.append(f"  same = h{n} == h{n} .and. .not. (h{n} /= h{n}) .and. h{n} .eq. h{n}")
out = ["subroutine f08_calls()", "  use mpi_f08", "  use, intrinsic :: iso_c_binding, only: c_ptr",
       "  implicit none"]
for line in decls + calls:
    while len(line) > 120:
        cut = line.rfind(", ", 0, 110)
        out.append(line[:cut + 1] + " &")
        line = "      " + line[cut + 2:]
    out.append(line)
out.append("end subroutine f08_calls")
print("\n".join(out))
