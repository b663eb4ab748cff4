/* SPDX-License-Identifier: GPL-2.0 */
/* errno.c - EKDB_E* codes to the messages kdb and printk show. */
#include <ekdb/errno.h>
#include <ekdb/types.h>

static const struct {
	int code;
	const char *msg;
} ekdb_errors[] = {
	{ EKDB_EPERM, "Permission denied" },
	{ EKDB_ENOENT, "No such entry" },
	{ EKDB_EIO, "I/O error" },
	{ EKDB_E2BIG, "Too long" },
	{ EKDB_EAGAIN, "Try again" },
	{ EKDB_ENOMEM, "Out of memory" },
	{ EKDB_EFAULT, "Bad address" },
	{ EKDB_EBUSY, "Busy" },
	{ EKDB_EEXIST, "Already exists" },
	{ EKDB_ENODEV, "No such device" },
	{ EKDB_EINVAL, "Invalid argument" },
	{ EKDB_ENOSPC, "No free slot" },
	{ EKDB_EPIPE, "Stalled" },
	{ EKDB_ERANGE, "Out of range" },
	{ EKDB_ENOSYS, "Not implemented" },
	{ EKDB_ETIMEDOUT, "Timed out" },
	{ EKDB_EJUMPWIN, "In the kernel's jump window: a breakpoint cannot fire there" },
};

const char *ekdb_strerror(int err)
{
	if (err < 0)
		err = -err;
	for (size_t i = 0; i < ARRAY_SIZE(ekdb_errors); i++)
		if (ekdb_errors[i].code == err)
			return ekdb_errors[i].msg;
	return "Unknown error";
}
