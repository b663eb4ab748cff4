/* SPDX-License-Identifier: GPL-2.0 */
/* diag.c - kdb diagnostic codes to messages ("diag: -N: text"), and target errors to diagnostics. */
#include "kdb.h"

static const char *const kdb_msgs[KDB_DIAG_MAX] = {
	[KDB_NOTFOUND] = "Command Not Found",
	[KDB_ARGCOUNT] = "Improper argument count, see usage.",
	[KDB_BADWIDTH] = "Illegal value for BYTESPERWORD use 1, 2, 4 or 8, "
			 "8 is only allowed on 64 bit systems",
	[KDB_BADRADIX] = "Illegal value for RADIX use 8, 10 or 16",
	[KDB_NOTENV] = "Cannot find environment variable",
	[KDB_NOENVVALUE] = "Environment variable should have value",
	[KDB_NOTIMP] = "Command not implemented",
	[KDB_ENVFULL] = "Environment full",
	[KDB_ENVBUFFULL] = "Environment buffer full",
	[KDB_TOOMANYBPT] = "Too many breakpoints defined",
	[KDB_TOOMANYDBREGS] = "More breakpoints than db registers defined",
	[KDB_DUPBPT] = "Duplicate breakpoint address",
	[KDB_BPTNOTFOUND] = "Breakpoint not found",
	[KDB_BADMODE] = "Invalid IDMODE",
	[KDB_BADINT] = "Illegal numeric value",
	[KDB_INVADDRFMT] = "Invalid symbolic address format",
	[KDB_BADREG] = "Invalid register name",
	[KDB_BADCPUNUM] = "Invalid cpu number",
	[KDB_BADLENGTH] = "Invalid length field",
	[KDB_NOBP] = "No Breakpoint exists",
	[KDB_BADADDR] = "Invalid address",
	[KDB_NOPERM] = "Permission denied",
};

/**
 * kdb_diag_msg - the message of diagnostic @diag (positive or negative).
 */
const char *kdb_diag_msg(int diag)
{
	if (diag < 0)
		diag = -diag;
	if (diag <= 0 || diag >= KDB_DIAG_MAX || !kdb_msgs[diag])
		return "Unknown diag";
	return kdb_msgs[diag];
}

/**
 * kdb_err_to_diag - map a target's -EKDB_E* error to the kdb diagnostic a
 * user should read.
 */
int kdb_err_to_diag(int err)
{
	switch (-err) {
	case EKDB_EFAULT: return -KDB_BADADDR;
	case EKDB_ERANGE: return -KDB_BADADDR;	/* a range past 2^64 */
	case EKDB_EPERM: return -KDB_NOPERM;
	case EKDB_EJUMPWIN: return -KDB_NOPERM;
	case EKDB_ENOENT: return -KDB_BPTNOTFOUND;
	case EKDB_ENOSPC: return -KDB_TOOMANYDBREGS;
	case EKDB_ENOMEM: return -KDB_TOOMANYBPT;
	case EKDB_EEXIST: return -KDB_DUPBPT;
	case EKDB_ENOSYS: return -KDB_NOTAVAIL;
	default: return -KDB_BADINT;
	}
}

/** kdb_print_diag - "diag: -N: message", or "Unknown diag N", as Linux's kdb_cmderror(). */
void kdb_print_diag(struct kdb_session *s, int diag)
{
	if (diag > 0)
		diag = -diag;
	if (-diag >= KDB_DIAG_MAX || !kdb_msgs[-diag])
		kdb_printf(s, "Unknown diag %d\n", -diag);
	else
		kdb_printf(s, "diag: %d: %s\n", diag, kdb_diag_msg(diag));
}
