# boot/dbg/dbg.mk - the debugger inside the UEFI loader (the loader lifetime).
#
# The same debug core, gdbstub, kdb, lib, x86 trap code and 16550 driver the
# kernel links, compiled a second time with the loader's flags (no symbol
# renamed: the same sources, the same interfaces) into $(BUILD)/boot/ekdb/,
# plus the loader-only glue in boot/dbg/ (its IDT on top
# of the firmware's, memory access that translates the kernel image's link
# addresses to where the loader placed it, storage, the stop).  boot/dbg/loader.lds
# gathers all of it between __ekdb_text_start and __ekdb_text_end (no
# breakpoints in the debugger itself), as kernel.lds does in the kernel.
# Included by boot/boot.mk.

LDR_DBG_SHARED := \
	lib/cmdline.c lib/errno.c lib/fmt.c lib/hex.c lib/ksym_table.c lib/parse.c lib/string.c \
	arch/x86/cpu_state.c arch/x86/debug_trap.c arch/x86/debugreg.c arch/x86/fixup.c \
	arch/x86/hw_breakpoint.c arch/x86/idt.c arch/x86/regs_table.c arch/x86/sstep.c \
	arch/x86/tdesc.c arch/x86/text_poke.c arch/x86/entry.S arch/x86/insn.c arch/x86/frame.c \
	arch/x86/dbg_regs.c \
	core/bp.c core/cpu.c core/display.c core/entry.c core/frontend.c core/mem.c \
	core/port.c core/start.c core/target.c core/transport.c core/handoff.c core/reenter.c \
	$(wildcard gdbstub/*.c) $(wildcard kdb/*.c) \
	io/serial/uart16550.c io/serial/serial_opt.c io/serial/serial_transport.c
LDR_DBG_GLUE := $(sort $(wildcard boot/dbg/*.c boot/dbg/*.S))

LDR_DBG_OBJS := $(patsubst %,$(BUILD)/boot/ekdb/%.o,$(LDR_DBG_SHARED)) \
		$(BUILD)/boot/ekdb/gen/kdb_cmds.c.o $(BUILD)/boot/ekdb/gen/x86_tdesc.c.o \
		$(patsubst boot/dbg/%,$(BUILD)/boot/dbg/%.o,$(LDR_DBG_GLUE))

# The kernel's debugger flags that matter (no FPU/SSE registers, frame
# pointers for kdb's bt), on top of the loader's (-fpic, no red zone).
LDR_DBG_CFLAGS := $(BOOT_CFLAGS) \
		  -mgeneral-regs-only -fno-omit-frame-pointer -fno-optimize-sibling-calls \
		  -Wstrict-prototypes -Wmissing-prototypes -Wvla -Os
# Not linked here: lib/memcpy.c (GNU-EFI's libefi has memcpy and memset,
# the compiler's own calls go there).  The symbols are the port's sym_*
# members: boot/dbg/ksyms.c answers them over two tables, the placed
# kernel's and the loader's own, through lib/ksym_table.c.  The accessors
# of arch/x86/fixup.c translate the kernel image's link addresses through
# the hook boot/dbg/mem.c gives them (arch_dbg_probe_set_xlate).

# The loader ELF that gdb reads, by its absolute path (qXfer:libraries:read).
$(BUILD)/boot/dbg/glue.c.o: LDR_DBG_CFLAGS += -DLDR_DBG_SYMFILE='"$(abspath $(BUILD)/boot/loader.so)"'

$(BUILD)/boot/ekdb/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) $(call arch_inc,$<) -c $< -o $@

$(BUILD)/boot/ekdb/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  EFIAS   $<"
	$(Q)$(CC) $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(LDR_DBG_CFLAGS)) $(ARCH_INC) -D__ASSEMBLY__ -Wa,--noexecstack -c $< -o $@

$(BUILD)/boot/ekdb/gen/%.c.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) $(call arch_inc,$<) -c $< -o $@

$(BUILD)/boot/dbg/%.c.o: boot/dbg/%.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) $(call arch_inc,$<) -c $< -o $@

$(BUILD)/boot/dbg/%.S.o: boot/dbg/%.S
	@mkdir -p $(dir $@)
	@echo "  EFIAS   $<"
	$(Q)$(CC) $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(LDR_DBG_CFLAGS)) $(ARCH_INC) -D__ASSEMBLY__ -Wa,--noexecstack -c $< -o $@

-include $(LDR_DBG_OBJS:.o=.d)

# Flags above differ per object: a change here rebuilds them all.
$(LDR_DBG_OBJS): boot/dbg/dbg.mk
