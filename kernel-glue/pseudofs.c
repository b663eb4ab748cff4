/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pseudofs.c - the Linux files a kernel developer reaches for in the
 * running system, and only those, for the console shell's `cat` and
 * `echo ... > FILE`:
 *
 *   /proc/sysrq-trigger                     write: a sysrq key (g: the debugger)
 *   /sys/module/kgdboc/parameters/kgdboc    the debugger's I/O (kms, kbd, ttySn)
 *   /sys/module/kdb/parameters/cmd_enable   kdb's command mask (an int)
 *
 * Not a filesystem: a table of three files with show/store as Linux's
 * kernel_param_ops and proc write handlers; errors are Linux's errno.
 */
#include <kernel/kernel.h>
#include <kernel/pseudofs.h>
#include <kernel/sysrq.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include "drivers/kms_debug.h"

#define PSEUDOFS_VALUE_MAX	256

struct pseudo_file {
	const char *path;
	long (*show)(char *buf, size_t len);		/* NULL: write-only (-EIO) */
	int (*store)(const char *buf, size_t len);
};

static int sysrq_store(const char *buf, size_t len)
{
	write_sysrq_trigger(buf, len);
	return 0;
}

static long kgdboc_show(char *buf, size_t len)
{
	size_t n = MIN(ekdb_kgdboc_get(buf, len - 1), len - 2);

	buf[n++] = '\n';	/* Linux's param_get_string: the value and a newline */
	buf[n] = '\0';
	return (long)n;
}

static int kgdboc_store(const char *buf, size_t len)
{
	return ekdb_kgdboc_set(buf);
}

static long cmd_enable_show(char *buf, size_t len)
{
	return ekdb_snprintf(buf, len, "%d\n", ekdb_cmd_enable_get());
}

static int cmd_enable_store(const char *buf, size_t len)
{
	return ekdb_cmd_enable_set(buf);
}

static const struct pseudo_file files[] = {
	{ "/proc/sysrq-trigger", NULL, sysrq_store },
	{ "/sys/module/kgdboc/parameters/kgdboc", kgdboc_show, kgdboc_store },
	{ "/sys/module/kdb/parameters/cmd_enable", cmd_enable_show, cmd_enable_store },
};

static const struct pseudo_file *lookup(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	return NULL;
}

long pseudofs_read(const char *path, char *buf, size_t len)
{
	const struct pseudo_file *f = lookup(path);

	if (!f)
		return -EKDB_ENOENT;
	if (!f->show)
		return -EKDB_EIO;	/* Linux: a proc file with no read handler */
	return f->show(buf, len);
}

int pseudofs_write(const char *path, const char *buf, size_t len)
{
	const struct pseudo_file *f = lookup(path);

	if (!f)
		return -EKDB_ENOENT;
	return f->store(buf, len);
}

const char *pseudofs_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case EKDB_ENOENT: return "No such file or directory";
	case EKDB_EIO: return "Input/output error";
	case EKDB_ENOMEM: return "Cannot allocate memory";
	case EKDB_EBUSY: return "Device or resource busy";
	case EKDB_ENODEV: return "No such device";
	case EKDB_EINVAL: return "Invalid argument";
	case EKDB_ENOSPC: return "No space left on device";
	case EKDB_ERANGE: return "Numerical result out of range";
	case EKDB_EPERM: return "Operation not permitted";
	default: return ekdb_strerror(err);
	}
}

void pseudofs_init(void)
{
	ekdb_set_display_fn(kms_debug_set);	/* kgdboc's kms: the kms driver's hooks */
}
