/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt.h - printf engine over a character sink (lib/fmt.c).  Used by printk,
 * kdb output and the tests; never allocates.
 * Supports %d %i %u %x %X %o %c %s %p %% with flags '-' '0' '+' ' ' '#',
 * width and precision (also '*'), and length modifiers hh h l ll z t j.
 * %pS prints a kernel address as symbol+0xoff/0xsize when a symbol
 * resolver is installed (fmt_set_symbol_resolver()).
 */
#ifndef EKDB_FMT_H
#define EKDB_FMT_H

#include <ekdb/types.h>

typedef void (*fmt_putc_fn)(void *arg, char c);

int fmt_vformat(fmt_putc_fn putc, void *arg, const char *fmt, va_list ap);
int fmt_format(fmt_putc_fn putc, void *arg, const char *fmt, ...) __printf(3, 4);
int ekdb_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ekdb_snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Resolver for %pS: write "name+0xoff/0xsize" into buf, return length or 0. */
typedef int (*fmt_symbol_fn)(u64 addr, char *buf, size_t size);
void fmt_set_symbol_resolver(fmt_symbol_fn fn);

#endif
