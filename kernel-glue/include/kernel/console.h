/* SPDX-License-Identifier: GPL-2.0 */
/*
 * console.h - the kernel console's input side: drivers feed typed bytes
 * in, the console shell (kernel-glue/kconsole.c) reads lines from them.
 * Output goes to the printk consoles (console_write() in <kernel/printk.h>).
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <ekdb/types.h>

#define CONSOLE_INPUT_SIZE	1024	/* bytes queued before the reader takes them */

/**
 * console_input_char() - one byte typed on the console (a serial line, a
 * keyboard).  Any context, including interrupt handlers: queues it and
 * wakes the reader.  When the queue is full the byte is dropped and
 * counted (console_input_dropped).
 */
void console_input_char(char c);

/** console_input_read() - the next queued byte, or -1 when none (any context). */
int console_input_read(void);

/* Bytes queued since boot / dropped because the queue was full. */
extern u64 console_input_count, console_input_dropped;

/**
 * kconsole_start() - start the console shell thread ("kconsole"): a
 * prompt, echo, line editing (Backspace, Ctrl-U) and a few commands.
 * Called at the end of boot unless the kernel parameter "kconsole=off".
 */
void kconsole_start(void);

#endif
