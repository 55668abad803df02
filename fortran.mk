# fortran.mk — railmpi's Fortran support. Included by the Makefile; works alone too
# (`make -f fortran.mk fortran-build`, after `make build`).
#
#   fortran-deps   install gfortran (Debian package, as root) when it is missing
#   fortran-build  on top of `make build`: build/include/mpif.h, build/include/mpi.mod
#                  (`use mpi`) and build/include/mpi_f08.mod (`use mpi_f08`), the build/bin/mpif90 wrapper (with mpifort and mpif77 links), and
#                  build/lib/libmpichfort.so.12 and libmpifort.so.12 links to libmpi.so.12, so
#                  LD_LIBRARY_PATH=build/lib swaps railmpi in for Debian MPICH's Fortran
#                  library too (libmpi.so.12 exports the mpi_x_ symbols and COMMON blocks)
#   fortran-abi-build  on top of `make build` and `make abi`: Fortran over the MPI-5
#                  standard ABI (MPI-5.0 §21.4): build/lib/libmpifort_abi.so
#                  (modules/fortran_abi, built with the workspace: it calls libmpi_abi.so.1's
#                  C functions only), build/include/abi/mpif.h, mpi.mod and mpi_f08.mod, and
#                  build/bin/mpif90_abi, which links both libraries
#   fortran-gen    regenerate src/abi/fortran/generated.rs and include/mpif.h (tools/gen_fortran.py),
#                  include/mpi_f08.f90 and src/abi/fortran/f08_generated.rs (tools/gen_f08.py):
#                  the procedures include/mpi.h declares, their parameters and Fortran
#                  renderings from the MPI Forum's API (pympistandard, as for tools/gen_c.py:
#                  `make api-deps` installs it into build/api-venv), the constants' values
#                  from include/mpi.h (run after `make header`); and
#                  modules/fortran_abi/src/generated.rs and f08_generated.rs,
#                  include/abi/mpif.h and mpi_f08.f90 (tools/gen_fortran_abi.py, from
#                  include/mpi_abi.h)
#   fortran-check  fail if any of those is stale
#   fortran-tests  run the Fortran cases (c_tests/cases/90_fortran.sh; it builds the programs
#                  in c_tests/fortran/ with build/bin/mpif90 and with mpif90.mpich)

BUILD    ?= $(CURDIR)/build
PYTHON   ?= python3
# The compiler mpi.mod is built with (a .mod file is specific to the compiler that wrote it).
GFORTRAN ?= gfortran

# `make deps` installs gfortran with the other Debian packages (cmake: the test that CMake's
# FindMPI finds the Fortran bindings, mpi_f08 included).
DEB_PKGS += gfortran cmake

.PHONY: fortran-deps fortran-build fortran-abi-build fortran-gen fortran-check fortran-tests

fortran-deps:
	@command -v $(GFORTRAN) >/dev/null 2>&1 || dpkg -s gfortran >/dev/null 2>&1 || { \
	    echo "installing: gfortran"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gfortran >/dev/null; \
	}

fortran-build: fortran-deps $(BUILD)/include/mpif.h $(BUILD)/include/mpi.mod \
		$(BUILD)/include/mpi_f08.mod $(BUILD)/bin/mpif90
	@test -e $(BUILD)/lib/libmpi.so.12 || { echo "fortran-build: run 'make build' first" >&2; exit 1; }
	@for l in libmpichfort.so.12 libmpichfort.so libmpifort.so.12 libmpifort.so; do \
	    ln -sf libmpi.so.12 $(BUILD)/lib/$$l; \
	done
	@ln -sf mpif90 $(BUILD)/bin/mpifort
	@ln -sf mpif90 $(BUILD)/bin/mpif77

$(BUILD)/include/mpif.h: include/mpif.h
	@mkdir -p $(BUILD)/include
	@install -m 644 $< $@

# -fsyntax-only: the module holds only constants, COMMON blocks and EXTERNALs, so programs
# need mpi.mod but no object file.
$(BUILD)/include/mpi.mod: include/mpi_module.f90 include/mpif.h | fortran-deps
	@mkdir -p $(BUILD)/include
	$(GFORTRAN) -fsyntax-only -Iinclude -J$(BUILD)/include $<

# mpi_f08: interfaces only (procedures bind to libmpi's entry points, special variables to its
# storage), so again no object file. -Wno-c-binding-type: MPI's f08 interfaces use default
# INTEGER and LOGICAL, which gfortran warns may not be interoperable (they are int there).
$(BUILD)/include/mpi_f08.mod: include/mpi_f08.f90 | fortran-deps
	@mkdir -p $(BUILD)/include
	$(GFORTRAN) -fsyntax-only -Wno-c-binding-type -J$(BUILD)/include $<

# The C wrapper, for FC (RAILMPI_FC, default gfortran); gfortran 10 and later reject calls
# of one implicit-interface routine with different buffer types unless told otherwise.
$(BUILD)/bin/mpif90: tools/mpicc.in fortran.mk
	@mkdir -p $(BUILD)/bin
	@sed -e 's/@LANG@/FC/' -e 's/@DEFAULT_CC@/gfortran/' -e 's/@VERSION@/$(VERSION)/' \
	    -e 's|@CFLAGS@|-I$$prefix/include|' -e 's/@LIB@/mpi/' -e 's/@ABI@/MPICH ABI/' \
	    -e 's/mpicc: it adds/mpif90: it adds/' \
	    -e '/^cflags=/a\
case "$$($$cc --version 2>/dev/null | head -n 1)" in *"GNU Fortran"*) [ "$$($$cc -dumpversion | cut -d. -f1)" -ge 10 ] 2>/dev/null \&\& cflags="$$cflags -fallow-argument-mismatch" ;; esac' \
	    tools/mpicc.in > $@.tmp
	@chmod 755 $@.tmp && mv $@.tmp $@

# The `mpi` module over the standard ABI: mpi_module.f90 compiled next to the ABI's mpif.h
# (a copy, since gfortran looks for an INCLUDE beside its source first).
fortran-abi-build: fortran-deps
	@test -e $(BUILD)/lib/libmpi_abi.so.1 || { echo "fortran-abi-build: run 'make abi' first" >&2; exit 1; }
	@mkdir -p $(BUILD)/include/abi $(BUILD)/fortran-abi $(BUILD)/bin
	@install -m 755 $(CURDIR)/target/release/libmpifort_abi.so $(BUILD)/lib/libmpifort_abi.so
	@install -m 644 include/abi/mpif.h $(BUILD)/include/abi/mpif.h
	@install -m 644 include/mpi_module.f90 include/abi/mpif.h $(BUILD)/fortran-abi/
	$(GFORTRAN) -fsyntax-only -J$(BUILD)/include/abi $(BUILD)/fortran-abi/mpi_module.f90
	$(GFORTRAN) -fsyntax-only -Wno-c-binding-type -J$(BUILD)/include/abi include/abi/mpi_f08.f90
	@sed -e 's/@LANG@/FC/' -e 's/@DEFAULT_CC@/gfortran/' -e 's/@VERSION@/$(VERSION)/' \
	    -e 's|@CFLAGS@|-I$$prefix/include/abi|' -e 's/@LIB@/mpifort_abi -lmpi_abi/' \
	    -e 's/@ABI@/MPI-5 standard ABI/' -e 's/mpicc: it adds/mpif90_abi: it adds/' \
	    -e '/^cflags=/a\
case "$$($$cc --version 2>/dev/null | head -n 1)" in *"GNU Fortran"*) [ "$$($$cc -dumpversion | cut -d. -f1)" -ge 10 ] 2>/dev/null \&\& cflags="$$cflags -fallow-argument-mismatch" ;; esac' \
	    tools/mpicc.in > $(BUILD)/bin/mpif90_abi.tmp
	@chmod 755 $(BUILD)/bin/mpif90_abi.tmp && mv $(BUILD)/bin/mpif90_abi.tmp $(BUILD)/bin/mpif90_abi

fortran-gen:
	$(PYTHON) tools/gen_fortran.py
	$(PYTHON) tools/gen_f08.py
	$(PYTHON) tools/gen_fortran_abi.py

fortran-check:
	$(PYTHON) tools/gen_fortran.py --check
	$(PYTHON) tools/gen_f08.py --check
	$(PYTHON) tools/gen_fortran_abi.py --check

fortran-tests: fortran-build
	bash c_tests/harness.sh $(BUILD) 90_fortran
