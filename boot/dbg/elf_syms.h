/* SPDX-License-Identifier: GPL-2.0 */
/* elf_syms.h - one symbol's value from an ELF64 file's .symtab (pure, host-tested). */
#ifndef BOOT_DBG_ELF_SYMS_H
#define BOOT_DBG_ELF_SYMS_H

#include <stdint.h>

/*
 * ldr_elf_symbol - the value of the first symbol called @name in the
 * SHT_SYMTAB of the ELF64 file at @file (@size bytes; any alignment).
 * Returns 0 and *@value, or -1 when the file has no such symbol or its
 * section or symbol tables lie outside the file.
 */
int ldr_elf_symbol(const void *file, uint64_t size, const char *name, uint64_t *value);

#endif
