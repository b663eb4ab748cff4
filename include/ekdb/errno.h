/* SPDX-License-Identifier: GPL-2.0 */
/*
 * errno.h - the one error vocabulary of ekdb.  Functions return 0 or a
 * negative EKDB_E* code; gdbstub turns it into "Enn" (nn = the positive
 * value, two hex digits) and kdb into a message (ekdb_strerror()).
 */
#ifndef EKDB_ERRNO_H
#define EKDB_ERRNO_H

#define EKDB_EPERM	1	/* operation not permitted (cmd_enable, nokprobe range) */
#define EKDB_ENOENT	2	/* no such breakpoint/symbol/thread */
#define EKDB_EIO	5	/* device error */
#define EKDB_E2BIG	7	/* argument list / packet too long */
#define EKDB_EAGAIN	11	/* not now: try again later (device busy, NAK) */
#define EKDB_ENOMEM	12	/* table full */
#define EKDB_EFAULT	14	/* bad address: the access faulted */
#define EKDB_EBUSY	16	/* slot or device busy */
#define EKDB_EEXIST	17	/* already exists */
#define EKDB_ENODEV	19	/* no such device */
#define EKDB_EINVAL	22	/* invalid argument */
#define EKDB_ENOSPC	28	/* no free slot (e.g. a fifth hardware breakpoint) */
#define EKDB_EPIPE	32	/* the device refused (USB STALL) */
#define EKDB_ERANGE	34	/* value out of range */
#define EKDB_ENOSYS	38	/* not implemented */
#define EKDB_ETIMEDOUT	110	/* bounded hardware wait expired */
/* in the kernel's jump window (_start .. the debugger's takeover): no vectors yet, it cannot fire */
#define EKDB_EJUMPWIN	200

const char *ekdb_strerror(int err);

#endif
