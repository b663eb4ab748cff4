/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_break.c - breakpoint and watchpoint packets: Z0-Z4 and z0-z4.  The
 * kind (a watchpoint's length) from an address must not run past 2^64:
 * E22 (EKDB_ERANGE) before the target is asked.
 */
#include "gdb_int.h"
#include <ekdb/range.h>

/*
 * Parse "type,addr,kind" (gdb may append ";cond" or ";cmds" lists, which
 * we do not evaluate on the target).  Returns 0, 1 for a type we do not
 * know (empty reply: unsupported) or -EKDB_EINVAL.
 */
static int rx_bp(const char *a, enum ekdb_bp_type *type, u64 *addr, u64 *kind)
{
	u64 t;

	if (rx_hex(&a, &t) || !rx_char(&a, ','))
		return -EKDB_EINVAL;
	if (rx_hex(&a, addr) || !rx_char(&a, ',') || rx_hex(&a, kind))
		return -EKDB_EINVAL;
	if (*a && *a != ';')
		return -EKDB_EINVAL;
	if (t > EKDB_BP_ACCESS)
		return 1;
	if (*kind > 0xffff)
		return -EKDB_EINVAL;
	*type = (enum ekdb_bp_type)t;
	return 0;
}

static void bp_cmd(struct gdb_session *s, const char *a, bool set)
{
	const struct ekdb_target_ops *ops = s->target->ops;
	enum ekdb_bp_type type;
	u64 addr, kind;
	int r;

	r = rx_bp(a, &type, &addr, &kind);
	if (r < 0)
		return tx_err(s, r);
	if (r > 0 || (set ? !ops->bp_set : !ops->bp_remove))
		return;	/* unsupported: empty reply lets gdb fall back */
	if (ekdb_range_wraps(addr, kind))
		return tx_err(s, -EKDB_ERANGE);
	if (set)
		r = ops->bp_set(s->target, EKDB_BP_BY_GDB, type, addr, (unsigned)kind);
	else
		r = ops->bp_remove(s->target, type, addr, (unsigned)kind);
	if (r == -EKDB_EJUMPWIN) {
		/* gdb takes "E." + text as an error; `set debug remote 1` shows why */
		tx_str(s, "E.address in the kernel's jump window (_start to the debugger's "
			  "takeover): a breakpoint cannot fire there");
		return;
	}
	if (r < 0)
		return tx_err(s, r);
	tx_ok(s);
}

/** gdb_cmd_bp_set - "Z type,addr,kind": errors from the target come back as Enn. */
void gdb_cmd_bp_set(struct gdb_session *s, const char *a, size_t len)
{
	bp_cmd(s, a, true);
}

/** gdb_cmd_bp_remove - "z type,addr,kind". */
void gdb_cmd_bp_remove(struct gdb_session *s, const char *a, size_t len)
{
	bp_cmd(s, a, false);
}
