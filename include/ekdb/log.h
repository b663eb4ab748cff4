/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - the debugger's log lines, written to the host's log through the
 * porting interface (<ekdb/port.h>: ekdb_port()->vprintk).  Levels and
 * pr_*() as Linux's, so a line reads the same in any host.  For the
 * debugger's folders only: a host has its own printk.
 */
#ifndef EKDB_LOG_H
#define EKDB_LOG_H

#include <ekdb/types.h>

#define EKDB_KERN_SOH	"\001"
#define KERN_EMERG	EKDB_KERN_SOH "0"
#define KERN_ERR	EKDB_KERN_SOH "3"
#define KERN_WARNING	EKDB_KERN_SOH "4"
#define KERN_NOTICE	EKDB_KERN_SOH "5"
#define KERN_INFO	EKDB_KERN_SOH "6"
#define KERN_DEBUG	EKDB_KERN_SOH "7"
#define KERN_CONT	EKDB_KERN_SOH "c"

/* ekdb_printk - one message for the host's log; dropped when the host has no log. */
int ekdb_printk(const char *fmt, ...) __printf(1, 2);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...)	ekdb_printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	ekdb_printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	ekdb_printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	ekdb_printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	ekdb_printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	ekdb_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	ekdb_printk(KERN_CONT fmt, ##__VA_ARGS__)

#endif
