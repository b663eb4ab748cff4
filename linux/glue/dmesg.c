// SPDX-License-Identifier: GPL-2.0
/*
 * kdb's dmesg on Linux (stopped.log_read): Linux's printk ring as one
 * stream of "<level>[seconds] text" lines, the records kdb_dmesg() of
 * Linux's own kdb shows.  Read through kmsg_dump_get_line(), which is
 * lock-free (the printk ringbuffer's readers take no lock: safe while
 * the machine is stopped, whatever a stopped CPU held).  kdb reads the
 * stream from 0 in chunks: the line being read and its place in the
 * stream are kept, so each chunk costs one record, not the whole log.
 */
#include <linux/kmsg_dump.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "glue.h"

/* one record as text: at most LOG_LINE_MAX plus its prefixes */
static char ekdb_dmesg_line[1024];
static size_t ekdb_dmesg_len;		/* bytes in ekdb_dmesg_line */
static u64 ekdb_dmesg_start;		/* its place in the stream */
static struct kmsg_dump_iter ekdb_dmesg_iter;

__ekdb_linux_nobp long ekdb_linux_log_read(u64 pos, char *buf, size_t len)
{
	size_t n;

	if (pos == 0 || pos < ekdb_dmesg_start) {
		kmsg_dump_rewind(&ekdb_dmesg_iter);
		ekdb_dmesg_start = 0;
		ekdb_dmesg_len = 0;
	}
	while (pos >= ekdb_dmesg_start + ekdb_dmesg_len) {
		size_t l;

		if (!kmsg_dump_get_line(&ekdb_dmesg_iter, true, ekdb_dmesg_line,
					sizeof(ekdb_dmesg_line), &l))
			return 0;
		ekdb_dmesg_start += ekdb_dmesg_len;
		ekdb_dmesg_len = l;
	}
	n = min_t(size_t, len, ekdb_dmesg_start + ekdb_dmesg_len - pos);
	memcpy(buf, ekdb_dmesg_line + (pos - ekdb_dmesg_start), n);
	return n;
}
NOKPROBE_SYMBOL(ekdb_linux_log_read);
