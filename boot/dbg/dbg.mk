# boot/dbg/dbg.mk - the debugger inside the UEFI loader (the loader lifetime).
#
# The same debug core, gdbstub, kdb, lib, x86 trap code and 16550 driver the
# kernel links, compiled a second time with the loader's flags into
# $(BUILD)/boot/ekdb/, plus the loader-only glue in boot/dbg/ (its IDT on top
# of the firmware's, memory access that translates the kernel image's link
# addresses to where the loader placed it, storage, the stop).  boot/dbg/loader.lds
# gathers all of it between __ekdb_text_start and __ekdb_text_end (no
# breakpoints in the debugger itself), as kernel.lds does in the kernel.
# Included by boot/boot.mk.

LDR_DBG_SHARED := \
	lib/cmdline.c lib/errno.c lib/fmt.c lib/hex.c lib/kallsyms.c lib/parse.c lib/string.c \
	arch/x86/cpu_state.c arch/x86/debug_trap.c arch/x86/debugreg.c arch/x86/fixup.c \
	arch/x86/hw_breakpoint.c arch/x86/idt.c arch/x86/regs_table.c arch/x86/sstep.c \
	arch/x86/tdesc.c arch/x86/text_poke.c arch/x86/entry.S \
	core/bp.c core/cpu.c core/display.c core/entry.c core/frontend.c core/mem.c \
	core/port.c core/target.c core/transport.c core/carry.c core/reenter.c \
	$(wildcard gdbstub/*.c) $(wildcard kdb/*.c) \
	earlyio/serial/uart16550.c earlyio/serial/serial_opt.c earlyio/serial/serial_transport.c
LDR_DBG_GLUE := $(sort $(wildcard boot/dbg/*.c boot/dbg/*.S))

LDR_DBG_OBJS := $(patsubst %,$(BUILD)/boot/ekdb/%.o,$(LDR_DBG_SHARED)) \
		$(BUILD)/boot/ekdb/gen/kdb_cmds.c.o $(BUILD)/boot/ekdb/gen/x86_tdesc.c.o \
		$(patsubst boot/dbg/%,$(BUILD)/boot/dbg/%.o,$(LDR_DBG_GLUE))

# The kernel's debugger flags that matter (no FPU/SSE registers, frame
# pointers for kdb's bt), on top of the loader's (-fpic, no red zone).
LDR_DBG_CFLAGS := $(BOOT_CFLAGS) -Iarch/x86/include \
		  -mgeneral-regs-only -fno-omit-frame-pointer -fno-optimize-sibling-calls \
		  -Wstrict-prototypes -Wmissing-prototypes -Wvla -Os
# fixup.c's byte accessors work on the addresses they are given; the loader's
# x86_probe_read/x86_probe_write (boot/dbg/mem.c) translate first, then call them.
$(BUILD)/boot/ekdb/arch/x86/fixup.c.o: LDR_DBG_CFLAGS += \
	-Dx86_probe_read=ldr_probe_read_raw -Dx86_probe_write=ldr_probe_write_raw
# GNU-EFI's libefi already defines memset and memcpy (the compiler's own calls
# go there): lib/string.c's copies get other names in the loader.
$(BUILD)/boot/ekdb/lib/string.c.o: LDR_DBG_CFLAGS += -Dmemset=ekdb_lib_memset -Dmemcpy=ekdb_lib_memcpy
# kdb's symbols in the loader (boot/dbg/ksyms.c joins two tables): the
# kernel's table inside the placed image, which lib/kallsyms.c reads through
# pointers (ldr_kern_kallsyms_*), and the loader's own (ldr_self_kallsyms_*),
# generated from a first link of the loader like the kernel's (gen-kallsyms.py).
$(BUILD)/boot/ekdb/lib/kallsyms.c.o: LDR_DBG_CFLAGS += \
	'-D__ksym_num=(*ldr_ksym_num)' '-D__ksym_addresses=(*ldr_ksym_addresses)' \
	'-D__ksym_sizes=(*ldr_ksym_sizes)' '-D__ksym_name_offsets=(*ldr_ksym_name_offsets)' \
	'-D__ksym_names=(*ldr_ksym_names)' -Dkallsyms_count=ldr_kern_kallsyms_count -Dkallsyms_get=ldr_kern_kallsyms_get -Dkallsyms_lookup=ldr_kern_kallsyms_lookup -Dkallsyms_lookup_name=ldr_kern_kallsyms_lookup_name -Dkallsyms_sprint=ldr_kern_kallsyms_sprint
$(BUILD)/boot/ekdb/lib/kallsyms_self.c.o: lib/kallsyms.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $< (the loader's own table)"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) -Dkallsyms_count=ldr_self_kallsyms_count -Dkallsyms_get=ldr_self_kallsyms_get -Dkallsyms_lookup=ldr_self_kallsyms_lookup -Dkallsyms_lookup_name=ldr_self_kallsyms_lookup_name -Dkallsyms_sprint=ldr_self_kallsyms_sprint -c $< -o $@
LDR_DBG_OBJS += $(BUILD)/boot/ekdb/lib/kallsyms_self.c.o
# The loader ELF that gdb reads, by its absolute path (qXfer:libraries:read).
$(BUILD)/boot/dbg/glue.c.o: LDR_DBG_CFLAGS += -DLDR_DBG_SYMFILE='"$(abspath $(BUILD)/boot/loader.so)"'

$(BUILD)/boot/ekdb/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) -c $< -o $@

$(BUILD)/boot/ekdb/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  EFIAS   $<"
	$(Q)$(CC) $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(LDR_DBG_CFLAGS)) -D__ASSEMBLY__ -Wa,--noexecstack -c $< -o $@

$(BUILD)/boot/ekdb/gen/%.c.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) -c $< -o $@

$(BUILD)/boot/dbg/%.c.o: boot/dbg/%.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(LDR_DBG_CFLAGS) -c $< -o $@

$(BUILD)/boot/dbg/%.S.o: boot/dbg/%.S
	@mkdir -p $(dir $@)
	@echo "  EFIAS   $<"
	$(Q)$(CC) $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(LDR_DBG_CFLAGS)) -D__ASSEMBLY__ -Wa,--noexecstack -c $< -o $@

-include $(LDR_DBG_OBJS:.o=.d)

# Flags above differ per object: a change here rebuilds them all.
$(LDR_DBG_OBJS): boot/dbg/dbg.mk
