# Fuzz targets (libFuzzer, clang, ASan + UBSan).  Included by the top-level Makefile.
#   make fuzz        run every fuzzer for FUZZ_SECONDS each (default 60), one
#                    after the other; FUZZ_RUNS=N runs N inputs each instead
#   make fuzz-smoke  replay each seed corpus once, then fuzz FUZZ_SMOKE_SECONDS
#                    each (for make check: 5 targets, well under a minute)
#   make fuzz-merge  minimise what `make fuzz` found into tests/fuzz/corpus/
#   make fuzz-NAME / fuzz-smoke-NAME / fuzz-merge-NAME: one target
# Targets: gdb-packet, kdb-line, handoff (the loader->kernel handoff record),
# bootinfo (the boot-info record), cmdline (the kernel command line).
# New corpus entries found by `make fuzz` land in $(BUILD)/fuzz/corpus-*; the
# seeds in tests/fuzz/corpus/ change only through fuzz-merge.

include arch/x86/tdesc.mk	# X86_TDESC_SRCS: the register table and target.xml

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_SMOKE_SECONDS ?= 6
FUZZ_RUNS     ?=
FUZZ_LIMIT     = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS))
FUZZ_CFLAGS   := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
                 -Iinclude -Itests/host -Iarch/x86/include -DEKDB_HOST \
                 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                 -fno-omit-frame-pointer

FUZZ_GDB_SRCS := $(sort $(wildcard gdbstub/*.c)) lib/fmt.c lib/hex.c lib/parse.c $(X86_TDESC_SRCS) \
                 tests/host/sim_target.c tests/host/sim_port.c tests/host/sim_chan.c

$(BUILD)/fuzz/fuzz_gdb_packet: tests/fuzz/fuzz_gdb_packet.c $(FUZZ_GDB_SRCS) $(wildcard gdbstub/*.h include/ekdb/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

# fuzz_run_rules NAME BINARY CORPUS MAXLEN: `fuzz-NAME` runs BINARY for
# FUZZ_SECONDS; `fuzz-smoke-NAME` replays the seed corpus, then a short run.
define fuzz_run_rules
.PHONY: fuzz-$(1) fuzz-smoke-$(1) fuzz-merge-$(1)
fuzz: fuzz-$(1)
fuzz-smoke: fuzz-smoke-$(1)
fuzz-merge: fuzz-merge-$(1)

fuzz-$(1): $(2)
	@mkdir -p $(BUILD)/fuzz/corpus-$(3)
	$$(Q)$$< $$(FUZZ_LIMIT) -max_len=$(4) -print_final_stats=1 \
		-artifact_prefix=$(BUILD)/fuzz/$(1)- $(BUILD)/fuzz/corpus-$(3) tests/fuzz/corpus/$(3)

fuzz-merge-$(1): $(2)
	@mkdir -p $(BUILD)/fuzz/corpus-$(3) $(BUILD)/fuzz/merged-$(3)
	$$(Q)rm -f $(BUILD)/fuzz/merged-$(3)/*
	$$(Q)$$< -merge=1 -use_counters=0 -max_len=$(4) $(BUILD)/fuzz/merged-$(3) tests/fuzz/corpus/$(3) $(BUILD)/fuzz/corpus-$(3)
	$$(Q)rm -f tests/fuzz/corpus/$(3)/* && cp $(BUILD)/fuzz/merged-$(3)/* tests/fuzz/corpus/$(3)/

fuzz-smoke-$(1): $(2)
	$$(Q)$$< -runs=0 tests/fuzz/corpus/$(3)
	@mkdir -p $(BUILD)/fuzz/corpus-$(3)-smoke
	$$(Q)$$< -max_total_time=$$(FUZZ_SMOKE_SECONDS) -max_len=$(4) \
		$(BUILD)/fuzz/corpus-$(3)-smoke tests/fuzz/corpus/$(3)
endef

.PHONY: fuzz fuzz-smoke fuzz-merge
$(eval $(call fuzz_run_rules,gdb-packet,$(BUILD)/fuzz/fuzz_gdb_packet,gdb,16384))

# ---- kdb command line (fuzz_kdb_line) ----
FUZZ_KDB_SRCS := $(sort $(wildcard kdb/*.c)) $(sort $(wildcard gdbstub/*.c)) lib/fmt.c lib/hex.c \
                 lib/parse.c lib/errno.c $(X86_TDESC_SRCS) arch/x86/insn.c arch/x86/frame.c \
                 tests/host/sim_target.c tests/host/sim_port.c \
                 tests/host/sim_chan.c $(BUILD)/fuzz/gen/kdb_cmds.c

$(BUILD)/fuzz/gen/kdb_cmds.c: kdb/kdb_cmds tools/gen-kdb-cmds.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/gen-kdb-cmds.py kdb/kdb_cmds > $@

$(BUILD)/fuzz/fuzz_kdb_line: tests/fuzz/fuzz_kdb_line.c $(FUZZ_KDB_SRCS) $(wildcard kdb/*.h include/ekdb/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

$(eval $(call fuzz_run_rules,kdb-line,$(BUILD)/fuzz/fuzz_kdb_line,kdb,4096))

# ---- the handoff record (fuzz_handoff): dbg_handoff_check/import/unplant over the real table ----
FUZZ_HANDOFF_SRCS := core/handoff.c core/bp.c core/port.c $(FUZZ_KDB_SRCS)

$(BUILD)/fuzz/fuzz_handoff: tests/fuzz/fuzz_handoff.c $(FUZZ_HANDOFF_SRCS) $(wildcard core/*.h kdb/*.h include/ekdb/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

$(eval $(call fuzz_run_rules,handoff,$(BUILD)/fuzz/fuzz_handoff,handoff,8192))

# ---- the kernel command line (fuzz_cmdline): tokenizer, early params, loader's parsers ----
FUZZ_CMDLINE_SRCS := lib/cmdline.c lib/parse.c io/serial/serial_opt.c core/kgdboc.c core/opts.c early/transports.c \
                     kdb/cmd_enable.c io/ehci-dbgp/dbgp_opt.c boot/dbg/opts.c boot/cmdline_parse.c

$(BUILD)/fuzz/fuzz_cmdline: tests/fuzz/fuzz_cmdline.c $(FUZZ_CMDLINE_SRCS) early/param.c $(wildcard early/*.h include/ekdb/*.h boot/*.h boot/dbg/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter-out early/param.c,$(filter %.c,$^))

$(eval $(call fuzz_run_rules,cmdline,$(BUILD)/fuzz/fuzz_cmdline,cmdline,2048))

# ---- the boot-info record (fuzz_bootinfo): bootinfo_check, then the kernel's first uses ----
FUZZ_BOOTINFO_SRCS := lib/bootinfo.c lib/cmdline.c kernel-glue/mm/memblock.c tests/host/host_log.c

$(BUILD)/fuzz/fuzz_bootinfo: tests/fuzz/fuzz_bootinfo.c $(FUZZ_BOOTINFO_SRCS) $(wildcard include/ekdb/*.h)
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Ikernel-glue/include -o $@ $(filter %.c,$^)

$(eval $(call fuzz_run_rules,bootinfo,$(BUILD)/fuzz/fuzz_bootinfo,bootinfo,24576))
