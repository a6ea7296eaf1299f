# `make` builds the release binary; `make EXE=path` also copies it there
# (OpenBench builds engines this way).
#
# `make pgo` builds it profile-guided instead (Stockfish's
# `profile-build`): a build that counts its branches and calls runs
# `bench` in every variant, and the release build lays out and inlines its
# code by those counts. The moves are the same (bench's node counts do
# not change), only faster: see the README's bench section. It needs LLVM's
# llvm-profdata of the compiler's own version (`rustup component add
# llvm-tools`).
EXE ?=
PROFDATA ?= $(firstword $(wildcard $(shell rustc --print sysroot)/lib/rustlib/*/bin/llvm-profdata))
PGO_DATA := $(CURDIR)/target/pgo-data
VARIANTS := standard perfect onedim beyond flexichess

.PHONY: all pgo
all:
	cargo build --release --locked
ifneq ($(EXE),)
	cp target/release/protean $(EXE)
endif

pgo:
ifeq ($(PROFDATA),)
	$(error llvm-profdata not found: rustup component add llvm-tools, or give PROFDATA=path)
endif
	rm -rf $(PGO_DATA)
	RUSTFLAGS="-C target-cpu=native -C profile-generate=$(PGO_DATA)" \
		cargo build --release --locked -p protean --target-dir target/pgo-instrumented
	for v in $(VARIANTS); do target/pgo-instrumented/release/protean bench --variant $$v > /dev/null || exit 1; done
	$(PROFDATA) merge -o $(PGO_DATA)/merged.profdata $(PGO_DATA)
	RUSTFLAGS="-C target-cpu=native -C profile-use=$(PGO_DATA)/merged.profdata" \
		cargo build --release --locked -p protean
ifneq ($(EXE),)
	cp target/release/protean $(EXE)
endif
