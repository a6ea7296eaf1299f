# `make` builds the release binary; `make EXE=path` also copies it there
# (OpenBench builds engines this way).
EXE ?=

.PHONY: all
all:
	cargo build --release --locked
ifneq ($(EXE),)
	cp target/release/protean $(EXE)
endif
