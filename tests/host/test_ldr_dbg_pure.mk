# SPDX-License-Identifier: GPL-2.0
# Host test for the loader debugger's pure parts: address translation,
# the library lists, the ELF symbol lookup (boot/dbg/).
test_ldr_dbg_pure_SRCS := boot/dbg/xlate.c boot/dbg/libxml.c boot/dbg/elf_syms.c
