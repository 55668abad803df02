"""The MPI Forum's machine-readable API, as railmpi's generators read it.

`apis.json` of the `pympistandard` package (0.2.0; `make api-deps` installs it into
build/api-venv) is the standard's own source of its language bindings: every procedure's
parameters with their kind (BUFFER, RANK, COMMUNICATOR, STATUS, STRING ...), direction,
array length, and their C, Fortran 2008 (`mpi_f08`) and Fortran 90 (`use mpi`, mpif.h)
renderings. tools/gen_c.py (the C entry points), tools/gen_fortran.py (mpif.h and the `use
mpi` entry points) and tools/gen_f08.py (the `mpi_f08` module) take procedures and
parameters from here; `Param` is one C parameter with what the standard says of it.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_SITE = os.path.join(ROOT, "build", "api-venv", "lib")
PYMPISTANDARD = "0.2.0"

# Kinds of the handle parameters: their C type is the handle type (MPI_Comm, ...).
HANDLE_KINDS = {
    "COMMUNICATOR", "DATATYPE", "GROUP", "REQUEST", "OPERATION", "WINDOW", "FILE", "INFO",
    "ERRHANDLER", "MESSAGE", "SESSION",
}
# Kinds of the procedure parameters (their C type is a callback type, `func_type`).
CALLBACK_KINDS = {"FUNCTION", "FUNCTION_SMALL", "POLYFUNCTION"}


def load_standard(tool):
    """Import pympistandard (for `tool`, named in errors): from build/api-venv when `make
    api-deps` made it, else from PYTHONPATH."""
    if os.path.isdir(VENV_SITE):
        for py in sorted(os.listdir(VENV_SITE)):
            site = os.path.join(VENV_SITE, py, "site-packages")
            if os.path.isdir(site):
                sys.path.insert(0, site)
    try:
        import pympistandard
    except ImportError:
        sys.exit(
            f"{tool}: the pympistandard package is missing; `make api-deps` installs it "
            "into build/api-venv"
        )
    if pympistandard.__version__ != PYMPISTANDARD:
        sys.exit(f"{tool}: pympistandard {PYMPISTANDARD} needed, found {pympistandard.__version__}")
    pympistandard.use_api_version(1)
    return pympistandard


def procedures(std):
    """The standard's procedures by MPI name (MPI_Send ...)."""
    return {proc._parseset["name"]: proc for proc in std.PROCEDURES.values()}


class Param:
    """One parameter of a procedure's C binding (its int form): `name`, `kind` (the
    standard's), `direction` ("in", "out", "inout") and the C type in parts: `base` (int,
    void, char, MPI_Comm, a callback type ...), `depth` (pointer levels, an array's `[]`
    counting as one), `const`, `rows` (the 3 of `int ranges[][3]`, else None) and `array`
    (the standard gives it a length; `length` is that length: another parameter's name, or
    `*` where it is the size of a group). `f08` and `f90` are pympistandard's renderings of the
    parameter in the Fortran bindings (None where it has none there)."""

    def __init__(self, name, kind, base, depth=0, direction="in", const=False, array=False,
                 rows=None, f08=None, f90=None, length=None):
        self.name, self.kind, self.base, self.depth = name, kind, base, depth
        self.length = length
        self.direction, self.const, self.array, self.rows = direction, const, array, rows
        self.f08, self.f90 = f08, f90

    def c_type(self):
        """The C type, normalised: `const int *`, `MPI_Comm`, `char ***`; a callback's is its
        type name (a parameter of function type is a function pointer)."""
        if self.kind in CALLBACK_KINDS or self.depth == 0:
            return self.base
        return ("const " if self.const else "") + self.base + " " + "*" * self.depth

    def c_text(self):
        """The C declaration, for messages: `const int *ranks`, `int count`."""
        if self.kind == "VARARGS":
            return "..."
        t = self.c_type()
        return t + self.name if t.endswith("*") else f"{t} {self.name}"


def c_params(proc):
    """The parameters of the C binding of a standard's procedure (int form), in order."""
    f08 = proc.express.f08
    f90 = proc.express.f90
    f08 = {q.name: q for q in f08.parameters} if f08 is not None else {}
    f90 = {q.name.lower(): q for q in f90.parameters} if f90 is not None else {}
    out = []
    for q in proc.express.iso_c.parameters:
        d = q._parseset
        if d["kind"] == "VARARGS":
            out.append(Param(d["name"], "VARARGS", "..."))
            continue
        depth = q.pointer_level + (1 if q.array == "[]" else 0)
        if d["kind"] == "ARGUMENT_LIST" and depth == 1:
            depth = 2  # MPI_Info_create_env's `char *argv[]`, which 0.2.0 renders `char argv[]`
        rows = None
        if q.array.startswith("[]["):
            rows = int(q.array[3:-1])
        out.append(
            Param(
                d["name"],
                d["kind"],
                q.base_type,
                depth=depth,
                direction=d["param_direction"],
                const=bool(q.constant),
                array=d["length"] is not None,
                length=d["length"],
                rows=rows,
                f08=f08.get(d["name"]),
                f90=f90.get(d["name"].lower()),
            )
        )
    return out


def write_outputs(tool, outputs, check, summary, left=(), quiet=False, verb="not bound"):
    """Writes each (path, text) of `outputs` whose file differs (with `check`: writes
    nothing and reports them), prints `summary`, and, unless `quiet`, the procedures left
    out (`left`: (C name, why)). Returns the exit status: 1 when `check` finds one stale."""
    stale = []
    for path, text in outputs:
        try:
            with open(path) as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old != text:
            stale.append(os.path.relpath(path, ROOT))
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    if check:
        if stale:
            print(f"{tool}: stale: {' '.join(stale)} (run `python3 tools/{tool}.py`)",
                  file=sys.stderr)
            return 1
        print(f"{tool}: up to date ({summary})")
        return 0
    print(f"{tool}: {summary}; {'wrote ' + ' '.join(stale) if stale else 'no changes'}")
    if not quiet:
        for cname, why in left:
            print(f"  {verb}: MPI_{cname[5:]}: {why}", file=sys.stderr)
    return 0
