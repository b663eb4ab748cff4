# Fuzz targets (libFuzzer, clang).  Included by the top-level Makefile.
#   make fuzz        run each fuzzer for FUZZ_SECONDS (default 60)
#   make fuzz-smoke  replay the seed corpus once, then fuzz ~10 s (for make check)
# New corpus entries found by `make fuzz` land in $(BUILD)/fuzz/corpus-*; the
# seeds in tests/fuzz/corpus/ are never modified.

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_CFLAGS   := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
                 -Iinclude -Itests/host -Iarch/x86/include -DEKDB_HOST \
                 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                 -fno-omit-frame-pointer

FUZZ_GDB_SRCS := $(sort $(wildcard gdbstub/*.c)) lib/hex.c lib/parse.c arch/x86/regs_table.c \
                 tests/host/sim_target.c tests/host/sim_chan.c

$(BUILD)/fuzz/fuzz_gdb_packet: tests/fuzz/fuzz_gdb_packet.c $(FUZZ_GDB_SRCS) $(wildcard gdbstub/*.h include/ekdb/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

.PHONY: fuzz fuzz-smoke fuzz-gdb-packet fuzz-smoke-gdb-packet
fuzz: fuzz-gdb-packet
fuzz-smoke: fuzz-smoke-gdb-packet

fuzz-gdb-packet: $(BUILD)/fuzz/fuzz_gdb_packet
	@mkdir -p $(BUILD)/fuzz/corpus-gdb
	$(Q)$< -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -print_final_stats=1 \
		$(BUILD)/fuzz/corpus-gdb tests/fuzz/corpus/gdb

fuzz-smoke-gdb-packet: $(BUILD)/fuzz/fuzz_gdb_packet
	$(Q)$< -runs=0 tests/fuzz/corpus/gdb
	@mkdir -p $(BUILD)/fuzz/corpus-gdb-smoke
	$(Q)$< -max_total_time=$(FUZZ_SMOKE_SECONDS) -max_len=16384 \
		$(BUILD)/fuzz/corpus-gdb-smoke tests/fuzz/corpus/gdb

# ---- kdb command line (fuzz_kdb_line) ----
FUZZ_KDB_SRCS := $(sort $(wildcard kdb/*.c)) $(sort $(wildcard gdbstub/*.c)) lib/fmt.c lib/hex.c \
                 lib/parse.c lib/errno.c arch/x86/regs_table.c tests/host/sim_target.c \
                 tests/host/sim_chan.c $(BUILD)/fuzz/gen/kdb_cmds.c

$(BUILD)/fuzz/gen/kdb_cmds.c: kdb/kdb_cmds tools/gen-kdb-cmds.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/gen-kdb-cmds.py kdb/kdb_cmds > $@

$(BUILD)/fuzz/fuzz_kdb_line: tests/fuzz/fuzz_kdb_line.c $(FUZZ_KDB_SRCS) $(wildcard kdb/*.h include/ekdb/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

.PHONY: fuzz-kdb-line fuzz-smoke-kdb-line
fuzz: fuzz-kdb-line
fuzz-smoke: fuzz-smoke-kdb-line

fuzz-kdb-line: $(BUILD)/fuzz/fuzz_kdb_line
	@mkdir -p $(BUILD)/fuzz/corpus-kdb
	$(Q)$< -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
		$(BUILD)/fuzz/corpus-kdb tests/fuzz/corpus/kdb

fuzz-smoke-kdb-line: $(BUILD)/fuzz/fuzz_kdb_line
	$(Q)$< -runs=0 tests/fuzz/corpus/kdb
	@mkdir -p $(BUILD)/fuzz/corpus-kdb-smoke
	$(Q)$< -max_total_time=$(FUZZ_SMOKE_SECONDS) -max_len=4096 \
		$(BUILD)/fuzz/corpus-kdb-smoke tests/fuzz/corpus/kdb
