# SPDX-License-Identifier: GPL-2.0
# tdesc.mk - gdb's target description (target.xml), generated at build time.
#
# The host program arch/x86/tools/gen_tdesc.c is linked with the kernel's own
# register table (arch/x86/regs_table.c) and prints the whole document as
# $(BUILD)/gen/x86_tdesc.c (const char x86_tdesc_xml[]): one source of truth,
# no second description to keep in sync.  The kernel links it as
# $(BUILD)/k/arch/x86/x86_tdesc.gen.o (part of the debugger's objects, so
# tools/check-early.sh checks it); the host tests, gdbsim and the fuzzers
# compile the same file (X86_TDESC_SRCS).
#
# Include it from the top-level Makefile right after KOBJS is set
# (`include arch/x86/tdesc.mk`); guarded against double inclusion.
ifndef EKDB_TDESC_MK
EKDB_TDESC_MK := 1

X86_TDESC_GEN   := $(BUILD)/gen/gen_tdesc
X86_TDESC_C     := $(BUILD)/gen/x86_tdesc.c
X86_TDESC_KOBJ  := $(BUILD)/k/arch/x86/x86_tdesc.gen.o
# What a host build links to get x86_features_xml() and the register table.
X86_TDESC_SRCS  := arch/x86/regs_table.c arch/x86/tdesc.c $(X86_TDESC_C)

X86_TDESC_GEN_CFLAGS := -std=gnu11 -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
                        -Iinclude -Ikernel-glue/include -Iarch/x86/include -DEKDB_HOST -MMD -MP

$(X86_TDESC_GEN): arch/x86/tools/gen_tdesc.c arch/x86/regs_table.c arch/x86/tdesc.mk
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(X86_TDESC_GEN_CFLAGS) -MF $@.d -o $@ $(filter %.c,$^)
-include $(X86_TDESC_GEN).d

$(X86_TDESC_C): $(X86_TDESC_GEN)
	@echo "  GEN     $@"
	$(Q)$(X86_TDESC_GEN) > $@.tmp && mv $@.tmp $@

$(X86_TDESC_KOBJ): $(X86_TDESC_C) arch/x86/include/asm/regs_table.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) $(ARCH_INC) -c $< -o $@

KOBJS += $(X86_TDESC_KOBJ)
endif
