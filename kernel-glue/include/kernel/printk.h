/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk.h - kernel log: levels, the ring buffer every line goes to, and
 * the console list it is written to (kernel-glue/printk.c).
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <ekdb/types.h>
#include <ekdb/port.h>

/* Linux's level prefixes: SOH + digit. */
#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#define LOGLEVEL_DEFAULT	4	/* level of a line with no prefix */
#define CONSOLE_LOGLEVEL_DEFAULT 7	/* print levels below this */

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/*
 * A console: something printk writes finished text to.  Registered
 * consoles get every line at or below console_loglevel; a console
 * registered late first gets the whole log so far (replay), like Linux's
 * CON_PRINTBUFFER, so the boot log is never lost.  The kernel's console
 * type is the debugger's porting interface's (struct ekdb_console in
 * <ekdb/port.h>): the early debugger's drivers register theirs through it.
 */
int register_console(struct ekdb_console *con);
/* console_write - write to every console, bypassing the log (echo, shell output). */
void console_write(const char *s, size_t len);
void unregister_console(struct ekdb_console *con);

extern int console_loglevel;
extern bool ignore_loglevel;

/*
 * The log ring buffer: records "<level>text\n".  log_buf_read() copies
 * out the stored text from @pos; used by kdb's dmesg.
 */
size_t log_buf_len(void);		/* bytes of text currently stored */
size_t log_buf_copy(size_t pos, char *buf, size_t len);
u64 log_buf_first_seq(void);		/* how many bytes were lost (0 when none) */

/* A hook called with each finished line (kgdbcon); NULL to remove. */
void printk_set_debugger_hook(void (*fn)(const char *s, size_t len));

#endif
