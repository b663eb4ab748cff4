/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_mem.c - memory packets: m M (hex), X x (binary).  A range that runs
 * past 2^64 ("m ffffffffffffff80,100") is refused whole with E22
 * (EKDB_ERANGE), before the target is asked: never a reply that goes on
 * at address 0.  Writes the target refuses (the debugger's own code, data
 * and bss) come back as E01.
 */
#include "gdb_int.h"
#include <ekdb/range.h>

/* Bytes read from the target per call; the reply is built chunk by chunk. */
#define GDB_MEM_CHUNK	128

/* Parse "addr,len" and, if @sep, the separator after it. */
static int rx_addr_len(const char **p, u64 *addr, u64 *len, char sep)
{
	if (rx_hex(p, addr) || !rx_char(p, ',') || rx_hex(p, len))
		return -EKDB_EINVAL;
	if (sep ? !rx_char(p, sep) : **p != '\0')
		return -EKDB_EINVAL;
	return 0;
}

/*
 * Read up to @len bytes at @addr, handing each chunk to @emit until it
 * takes less than it was given (the reply is full).  Returns the bytes read or a negative error
 * when not even one byte could be read.
 */
static long mem_read_chunks(struct gdb_session *s, u64 addr, u64 len,
			    size_t (*emit)(struct gdb_session *s, const u8 *b, size_t n))
{
	u8 chunk[GDB_MEM_CHUNK];
	u64 done = 0;
	size_t used;
	long r;

	while (done < len) {
		size_t want = (size_t)MIN(len - done, (u64)sizeof(chunk));

		r = s->target->ops->mem_read(s->target, addr + done, chunk, want);
		if (r <= 0) {
			if (!done)
				return r < 0 ? r : -EKDB_EFAULT;
			break;
		}
		if ((size_t)r > want)
			r = (long)want;
		used = emit(s, chunk, (size_t)r);
		done += used;
		if (used < (size_t)r || (size_t)r < want)
			break;	/* short read: hit an unmapped page */
	}
	return (long)done;
}

static size_t emit_hex(struct gdb_session *s, const u8 *b, size_t n)
{
	tx_hex(s, b, n);
	return s->out_overflow ? 0 : n;
}

/** gdb_cmd_mem_read - "m addr,len": hex bytes; a short read returns what was read. */
void gdb_cmd_mem_read(struct gdb_session *s, const char *a, size_t len)
{
	u64 addr, n;
	long r;

	if (rx_addr_len(&a, &addr, &n, 0))
		return tx_err(s, -EKDB_EINVAL);
	if (ekdb_range_wraps(addr, n))
		return tx_err(s, -EKDB_ERANGE);
	n = MIN(n, (u64)(s->bufsize / 2));
	if (!n)
		return;
	r = mem_read_chunks(s, addr, n, emit_hex);
	if (r <= 0)
		tx_err(s, r < 0 ? (int)r : -EKDB_EFAULT);
}

static void mem_write(struct gdb_session *s, u64 addr, const u8 *data, u64 n)
{
	long r;

	if (!n)
		return tx_ok(s);
	if (ekdb_range_wraps(addr, n))
		return tx_err(s, -EKDB_ERANGE);
	r = s->target->ops->mem_write(s->target, addr, data, (size_t)n);
	if (r < 0)
		return tx_err(s, (int)r);
	if ((u64)r != n)
		return tx_err(s, -EKDB_EFAULT);
	tx_ok(s);
}

/** gdb_cmd_mem_write - "M addr,len:hex"; decoded in place in inbuf. */
void gdb_cmd_mem_write(struct gdb_session *s, const char *a, size_t len)
{
	const char *start = a;
	u64 addr, n;
	long r;

	if (rx_addr_len(&a, &addr, &n, ':'))
		return tx_err(s, -EKDB_EINVAL);
	len -= (size_t)(a - start);
	if (n > len / 2 || len != 2 * n)
		return tx_err(s, -EKDB_EINVAL);
	r = hex_decode((char *)a, a, len);
	if (r < 0)
		return tx_err(s, (int)r);
	mem_write(s, addr, (const u8 *)a, n);
}

/** gdb_cmd_mem_write_bin - "X addr,len:binary"; "X addr,0:" probes support. */
void gdb_cmd_mem_write_bin(struct gdb_session *s, const char *a, size_t len)
{
	const char *start = a;
	u64 addr, n;
	long r;

	if (rx_addr_len(&a, &addr, &n, ':'))
		return tx_err(s, -EKDB_EINVAL);
	len -= (size_t)(a - start);
	r = bin_unescape((u8 *)a, a, len);
	if (r < 0 || (u64)r != n)
		return tx_err(s, -EKDB_EINVAL);
	mem_write(s, addr, (const u8 *)a, n);
}

static size_t emit_bin(struct gdb_session *s, const u8 *b, size_t n)
{
	size_t used;

	s->outlen += bin_escape(s->outbuf + s->outlen, tx_room(s), b, n, &used);
	return used;
}

/**
 * gdb_cmd_mem_read_bin - "x addr,len": binary read.  With gdb's
 * binary-upload feature the data is prefixed by 'b'; otherwise (lldb) it
 * is sent raw.  "x addr,0" answers OK so a client can probe for it.
 */
void gdb_cmd_mem_read_bin(struct gdb_session *s, const char *a, size_t len)
{
	u64 addr, n;
	long r;

	if (rx_addr_len(&a, &addr, &n, 0))
		return tx_err(s, -EKDB_EINVAL);
	if (!n)
		return tx_ok(s);
	if (ekdb_range_wraps(addr, n))
		return tx_err(s, -EKDB_ERANGE);
	if (s->gdb_binary_upload)
		tx_char(s, 'b');
	n = MIN(n, (u64)s->bufsize);
	r = mem_read_chunks(s, addr, n, emit_bin);
	if (r <= 0) {
		s->outlen = 0;
		tx_err(s, r < 0 ? (int)r : -EKDB_EFAULT);
	}
}
