# ekdb top-level Makefile.  `make` builds build/kernel.elf and build/esp/.
# See README.md for the targets and the layout (its "Layout" table).

BUILD      ?= build
# make run: stop at the kdb prompt in setup_arch, on the terminal
CMDLINE    ?= earlyprintk=serial,ttyS0,115200 ekgdboc=ttyS0 kgdbwait
# make debug: gdb on ttyS1 (a local socket), the boot log on ttyS0
DEBUG_CMDLINE ?= earlyprintk=serial,ttyS0,115200 ekgdboc=ttyS1 kgdbwait
# the command-line file written into build/esp (a plain boot)
ESP_CMDLINE ?= earlyprintk=serial,ttyS0,115200 loglevel=7
PYTHON     ?= /usr/bin/python3
V          ?= 0
Q          := $(if $(filter 1,$(V)),,@)

CC         := gcc
LD         := ld
OBJCOPY    := objcopy
NM         := nm
HOSTCC     ?= gcc

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

# ---------------------------------------------------------------- kernel
# Every directory below is compiled into the kernel; a new .c or .S file in
# one of them is picked up without touching this Makefile.
include debugger.mk	# DEBUGGER_DIRS, DEBUGGER_CFLAGS (shared with Linux's Kbuild)
KERNEL_DIRS := $(DEBUGGER_DIRS) selftest kernel-glue kernel-glue/mm kernel-glue/drivers \
               scripts/gdb	# gdb_scripts.S: the .debug_gdb_scripts entry (the gdb helpers)

# Code that must never reach the allocator (checked by tools/check-early.sh).
EARLY_DIRS  := early io/serial io/vga io/kbd io/ehci-dbgp io/xhci io/xhci-dbc io/xhci-kbd selftest

# The arch's include path (asm/...), for every directory but the debugger's
# arch-neutral ones (ARCH_NEUTRAL_DIRS, debugger.mk): those reach the
# architecture through <ekdb/arch.h> (docs/layers.md; make check-layers checks
# their #includes).
ARCH_INC := -Iarch/x86/include
arch_inc = $(if $(filter $(ARCH_NEUTRAL_DIRS),$(patsubst %/,%,$(dir $(1)))),,$(ARCH_INC))

KCFLAGS := $(DEBUGGER_CFLAGS) -Iinclude -MMD -MP
# Only the host (the reference kernel) sees its own headers: the debugger's
# folders reach the kernel through <ekdb/port.h> (make check-layers).
HOST_DIRS := kernel-glue scripts/gdb
$(foreach d,$(HOST_DIRS),$(eval $(BUILD)/k/$(d)/%.o: KCFLAGS += -Ikernel-glue/include))
$(foreach d,$(HOST_DIRS),$(eval $(BUILD)/k/$(d)/%.o: KASFLAGS += -Ikernel-glue/include))
KASFLAGS := $(filter-out -std=gnu11 -Wstrict-prototypes -Wmissing-prototypes,$(KCFLAGS)) -D__ASSEMBLY__ \
            $(ARCH_INC)
# Probe builds (tests only): PROBE_CFLAGS=-DEKDB_PROBE_DELAY_<WINDOW> widens
# one race window of the stop path so a test can show the fix holds
# (tests/integration/probe_build.py builds them under build/probe/).
KCFLAGS += $(PROBE_CFLAGS)
# Trace builds (tests only): STOPTRACE=1 compiles the kernel's own code with
# -finstrument-functions, and kernel-glue/stoptrace.c records every kernel
# function entered while the debugger runs (tests/integration/test_stop_trace.py,
# built under build/probe/stoptrace/ by probe_build.py).  head64.c runs
# before the kernel's own page tables: not instrumented.
ifeq ($(STOPTRACE),1)
$(BUILD)/k/kernel-glue/%.c.o: KCFLAGS += -DEKDB_STOPTRACE -finstrument-functions \
	-finstrument-functions-exclude-file-list=kernel-glue/head64.c
endif

# The debugger's own code is built for size (SIZE_DIRS, debugger.mk).
$(foreach d,$(SIZE_DIRS),$(eval $(BUILD)/k/$(d)/%.o: KCFLAGS += -Os))

KSRCS := $(sort $(foreach d,$(KERNEL_DIRS),$(wildcard $(d)/*.c $(d)/*.S)))
KOBJS := $(patsubst %,$(BUILD)/k/%.o,$(KSRCS))
include kdb/kdb.mk		# the compiled-in kdb_cmds file
include io/vga/vga.mk	# the console font, converted at build time
include arch/x86/tdesc.mk	# gdb's target.xml, generated from the register table

$(BUILD)/k/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) $(call arch_inc,$<) -c $< -o $@

$(BUILD)/k/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

KLDS := kernel-glue/kernel.lds
KLDFLAGS := -nostdlib --emit-relocs -z max-page-size=4096 -z noexecstack --no-warn-rwx-segments -T $(KLDS)

# Two-pass link: pass 1 without a symbol table, then the table generated from
# pass 1 is linked in.  The table lives in its own section after .bss, so it
# cannot move any other symbol; tools/gen-kallsyms.py --verify checks that.
$(BUILD)/kallsyms0.S:
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/gen-kallsyms.py --empty > $@

$(BUILD)/kallsyms%.o: $(BUILD)/kallsyms%.S
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

$(BUILD)/kernel.pass1.elf: $(KOBJS) $(BUILD)/kallsyms0.o $(KLDS)
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(BUILD)/kallsyms0.o

$(BUILD)/kallsyms1.S: $(BUILD)/kernel.pass1.elf tools/gen-kallsyms.py
	$(Q)$(NM) -n -S $< | $(PYTHON) tools/gen-kallsyms.py > $@

$(BUILD)/kernel.elf: $(KOBJS) $(BUILD)/kallsyms1.o $(KLDS) $(BUILD)/kernel.pass1.elf
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KOBJS) $(BUILD)/kallsyms1.o
	$(Q)$(PYTHON) tools/gen-kallsyms.py --verify $(BUILD)/kernel.pass1.elf $@

-include $(KOBJS:.o=.d)

# ---------------------------------------------------------------- loader
include boot/boot.mk

# ---------------------------------------------------------------- ESP tree
ESP := $(BUILD)/esp
$(ESP)/EFI/ekdb/kernel.elf: $(BUILD)/kernel.elf
	@mkdir -p $(dir $@)
	$(Q)$(OBJCOPY) --strip-debug $< $@

$(ESP)/EFI/ekdb/cmdline.txt: FORCE
	@mkdir -p $(dir $@)
	$(Q)if [ ! -f $@ ] || [ "$$(cat $@)" != "$(ESP_CMDLINE)" ]; then printf '%s\n' "$(ESP_CMDLINE)" > $@; fi

$(ESP)/EFI/BOOT/BOOTX64.EFI: $(BUILD)/boot/BOOTX64.EFI
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

ESP_FILES := $(ESP)/EFI/BOOT/BOOTX64.EFI $(ESP)/EFI/ekdb/kernel.elf $(ESP)/EFI/ekdb/cmdline.txt

# ---------------------------------------------------------------- host tools
# The launcher's TCP serial relay (tools/tcp_relay.py says why it exists).
HOST_TOOLS := $(BUILD)/tools/tcp-relay
$(BUILD)/tools/tcp-relay: tools/tcp-relay/tcp_relay.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -O2 -Wall -Wextra -Werror -o $@ $<

.PHONY: all kernel esp
all: $(BUILD)/kernel.elf $(ESP_FILES) $(HOST_TOOLS)
kernel: $(BUILD)/kernel.elf
esp: $(ESP_FILES)

# ---------------------------------------------------------------- host tests
include tests/host/host.mk
-include tests/fuzz/fuzz.mk

# ---------------------------------------------------------------- user targets
.PHONY: deps run debug check check-host check-docs check-early check-layers check-integration bench fuzz clean FORCE
FORCE:

deps:
	$(Q)tools/deps.sh

run: deps all
	tools/ekdb-qemu --cmdline "$(CMDLINE)" --serial stdio $(RUNFLAGS)

debug: deps all
	tools/ekdb-debug "$(DEBUG_CMDLINE)"

# Every path, test, make target and README parameter the docs name exists.
check-docs:
	$(Q)$(PYTHON) tools/check-docs.py

check-early: $(KOBJS)
	$(Q)tools/check-early.sh $(BUILD) $(EARLY_DIRS)

# The debugger's folders include only their layer's headers (docs/layers.md).
check-layers: $(KOBJS) $(LDR_DBG_OBJS)
	$(Q)tools/check-layers.sh $(BUILD)


# Two QEMU machines at a time (pytest-xdist; the tests are independent), and
# a hang costs one test at most PYTEST_TIMEOUT seconds, not the whole run.
PYTEST_JOBS    ?= 2
PYTEST_TIMEOUT ?= 900
# test_linux*.py boot `make linux`'s kernel; their module fixture runs
# `make linux` (a few seconds when the cache holds this tree's build), and
# make check builds it before the integration tests, outside their
# per-test timeout (about 9 minutes on a machine without the cache:
# docs/testing.md).
check-integration: all
	$(Q)cd tests/integration && $(PYTHON) -m pytest -q -ra -p no:cacheprovider \
		-n $(PYTEST_JOBS) --timeout $(PYTEST_TIMEOUT) $(PYTEST_FLAGS)

check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(MAKE) --no-print-directory check-early
	$(Q)$(MAKE) --no-print-directory check-docs
	$(Q)$(MAKE) --no-print-directory check-layers
	$(Q)$(MAKE) --no-print-directory check-host
	$(Q)$(MAKE) --no-print-directory check-gdbsim
	$(Q)$(MAKE) --no-print-directory fuzz-smoke
	$(Q)$(MAKE) --no-print-directory linux
	$(Q)$(MAKE) --no-print-directory check-integration

bench: deps all
	$(Q)tools/bench.sh $(BUILD) $(EARLY_DIRS)

# ---------------------------------------------------------------- Linux
# make linux: Debian's Linux 6.1 with ekdb built in (docs/linux.md):
# build/linux/bzImage, vmlinux and initramfs.cpio.gz; the Linux build itself
# is cached (LINUX_CACHE, default ~/.cache/ekdb-linux).  make linux-run
# boots it and stops in setup_arch() at ekdb's kdb prompt on the terminal.
LINUX_CMDLINE ?= console=ttyS0,115200 earlyprintk=serial,ttyS0,115200 ekdb.ekgdboc=ttyS0 ekdb.kgdbwait
.PHONY: linux linux-run check-linux
linux:
	$(Q)linux/build.sh $(BUILD)/linux

LINUX_TEST_FILES = $(notdir $(sort $(wildcard tests/integration/test_linux*.py)))
check-linux: linux
	$(Q)cd tests/integration && $(PYTHON) -m pytest -q -ra -p no:cacheprovider \
		-n $(PYTEST_JOBS) --timeout $(PYTEST_TIMEOUT) $(PYTEST_FLAGS) $(LINUX_TEST_FILES)

linux-run: linux
	tools/ekdb-qemu --linux $(BUILD)/linux/bzImage --initrd $(BUILD)/linux/initramfs.cpio.gz \
		--cmdline "$(LINUX_CMDLINE)" --serial stdio $(RUNFLAGS)

clean:
	rm -rf $(BUILD)
