/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pseudofs.h - the few Linux files the console shell knows (pseudofs.c):
 * /proc/sysrq-trigger, /sys/module/kgdboc/parameters/kgdboc and
 * /sys/module/kdb/parameters/cmd_enable, and nothing else.
 */
#ifndef KERNEL_PSEUDOFS_H
#define KERNEL_PSEUDOFS_H

#include <ekdb/types.h>

/* pseudofs_init - after the drivers: the run-time kgdboc can find its devices. */
void pseudofs_init(void);
/*
 * pseudofs_read - the contents of @path into @buf (NUL-terminated);
 * length, or -errno: -ENOENT (no such file), -EIO (write-only).
 */
long pseudofs_read(const char *path, char *buf, size_t len);
/* pseudofs_write - @len bytes of @buf to @path: 0 or -errno (Linux's, for the shell). */
int pseudofs_write(const char *path, const char *buf, size_t len);
/* The C library's text for a Linux errno (what a shell prints). */
const char *pseudofs_strerror(int err);

#endif
