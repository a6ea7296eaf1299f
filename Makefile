# `make` builds the release binary; `make EXE=path` also copies it there
# (OpenBench builds engines this way).
#
# `make pgo` builds it profile-guided instead (Stockfish's
# `profile-build`): a build that counts its branches and calls runs
# `bench` (every variant's positions), and the release build lays out and
# inlines its code by those counts. The moves are the same (bench's node
# counts do not change), only faster: see docs/building.md. It
# needs LLVM's llvm-profdata of the compiler's own version (`rustup
# component add llvm-tools`).
EXE ?=
PROFDATA ?= $(firstword $(wildcard $(shell rustc --print sysroot)/lib/rustlib/*/bin/llvm-profdata))
PGO_DATA := $(CURDIR)/target/pgo-data

# Copies the binary just built to EXE, where one is given.
define copy-exe
$(if $(EXE),cp target/release/protean $(EXE))
endef

.PHONY: all pgo
all:
	cargo build --release --locked
	$(copy-exe)

pgo:
ifeq ($(PROFDATA),)
	$(error llvm-profdata not found: rustup component add llvm-tools, or give PROFDATA=path)
endif
	rm -rf $(PGO_DATA)
	RUSTFLAGS="-C target-cpu=native -C profile-generate=$(PGO_DATA)" \
		cargo build --release --locked -p protean --target-dir target/pgo-instrumented
	target/pgo-instrumented/release/protean bench > /dev/null
	$(PROFDATA) merge -o $(PGO_DATA)/merged.profdata $(PGO_DATA)
	RUSTFLAGS="-C target-cpu=native -C profile-use=$(PGO_DATA)/merged.profdata" \
		cargo build --release --locked -p protean
	$(copy-exe)
