# SPDX-License-Identifier: GPL-2.0
test_early_pure_SRCS := io/serial/serial_opt.c lib/parse.c lib/bootinfo.c kernel-glue/acpi.c \
	arch/x86/debugreg.c arch/x86/sstep.c
