/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_mem.c - memory commands as Linux 6.x's kdb has them: md (and its
 * mdW / mdWcN forms), mdr (raw bytes), mds (one word per line with the
 * symbol it points to), mdp (physical), mm / mmW (modify), per_cpu.
 * Every access goes through the target's fault-safe ops; an unreadable
 * address prints "kdb_getarea_size: Bad address 0x..." once per command,
 * as Linux's kdb_getarea_size() does.  Enter on an empty line continues
 * the last dump.  ekdb: a dump or write that would run past the top of
 * the address space is refused before any byte is touched (Linux wraps to
 * address 0), and mm refuses the debugger's own code, data and bss.
 */
#include "kdb.h"

#define KDB_WORD_SIZE	8
#define MDR_MAX		4096	/* ekdb: mdr prints one line; longer is refused */
#define MD_POLL_WORDS	4096	/* zero words scanned between two polls for Ctrl-C (~1 ms in QEMU) */

static u64 get_le(const u8 *p, int bpw)
{
	u64 v = 0;

	for (int i = 0; i < bpw; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

/**
 * kdb_getword - read a @bpw-byte word at @addr (physical when @phys):
 * 0, or -KDB_BADADDR after printing Linux's message (once until a read
 * succeeds again).
 */
int kdb_getword(struct kdb_session *s, u64 addr, int bpw, bool phys, u64 *word)
{
	const struct ekdb_target_ops *o = s->target->ops;
	u8 buf[8];
	long n;

	*word = 0;
	if (phys)
		n = kdb_host(s)->phys_read ? kdb_host(s)->phys_read(addr, buf, (size_t)bpw) : -EKDB_ENOSYS;
	else
		n = o->mem_read(s->target, addr, buf, (size_t)bpw);
	if (n != bpw) {
		if (!phys && !s->getarea_quiet)
			kdb_printf(s, "kdb_getarea_size: Bad address 0x%llx\n", (unsigned long long)addr);
		if (!phys)
			s->getarea_quiet = true;
		return -KDB_BADADDR;
	}
	s->getarea_quiet = false;
	*word = get_le(buf, bpw);
	return 0;
}

/**
 * kdb_check_range - refuse [@addr, @addr + @len) when it runs past 2^64:
 * "CMD: 0xADDR + 0xLEN bytes runs past the end of the address space" and
 * -KDB_BADADDR; 0 when the range is whole (it may end exactly at the top).
 */
int kdb_check_range(struct kdb_session *s, const char *cmd, u64 addr, u64 len)
{
	if (!ekdb_range_wraps(addr, len))
		return 0;
	kdb_printf(s, "%s: 0x%llx + 0x%llx bytes runs past the end of the address space\n", cmd,
		   (unsigned long long)addr, (unsigned long long)len);
	return -KDB_BADADDR;
}

/* The value of one word in RADIX, as Linux's "%16.16lx " and friends. */
static void print_value(struct kdb_session *s, char fmt, int bpw, u64 v)
{
	int w = 2 * bpw;

	if (fmt == 'd')
		kdb_printf(s, "%0*lld ", w, (long long)v);
	else if (fmt == 'o')
		kdb_printf(s, "%0*llo ", w, (unsigned long long)v);
	else
		kdb_printf(s, "%0*llx ", w, (unsigned long long)v);
}

/*
 * One line of md (Linux's kdb_md_line): the address, up to @num words
 * (at most @repeat), then the bytes of the non-symbolic words as text.
 */
static void md_line(struct kdb_session *s, char fmt, u64 addr, bool symbolic, int bpw,
		    int num, int repeat, bool phys)
{
	char cbuf[32] = "";
	size_t c = 0;
	int i;

	if (phys)
		kdb_printf(s, "phys 0x%016llx ", (unsigned long long)addr);
	else
		kdb_printf(s, "0x%016llx ", (unsigned long long)addr);
	for (i = 0; i < num && repeat--; i++) {
		struct ksym sym;
		u64 word, off;

		if (kdb_getword(s, addr, bpw, phys, &word))
			break;
		print_value(s, fmt, bpw, word);
		if (symbolic && kdb_sym_by_addr(s, word, &sym, &off)) {
			if (off)
				kdb_printf(s, "%s+0x%llx", sym.name, (unsigned long long)off);
			else
				kdb_printf(s, "%s", sym.name);
		} else {
			for (int j = 0; j < bpw && c < sizeof(cbuf) - 1; j++) {
				u8 b = (u8)(word >> (8 * j));

				cbuf[c++] = b < 0x80 && isprint(b) ? (char)b : '.';
			}
			cbuf[c] = 0;
		}
		addr += (u64)bpw;
	}
	kdb_printf(s, "%*s %s\n", (num - i) * (2 * bpw + 1) + 1, " ", cbuf);
}

/* mdr: the bytes as one hex string; stops (without newline) at a bad byte. */
static int md_raw(struct kdb_session *s, u64 addr, u64 count)
{
	u64 b;

	if (count > MDR_MAX)
		return -KDB_BADLENGTH;
	if (kdb_check_range(s, "mdr", addr, count))
		return -KDB_BADADDR;
	for (; count && !kdb_interrupted(s); count--, addr++) {
		if (kdb_getword(s, addr, 1, false, &b))
			return 0;
		kdb_printf(s, "%02x", (unsigned)b);
	}
	kdb_printf(s, "\n");
	return 0;
}

/* Words of @bpw bytes in @mdcount 16-byte lines, as an int count (0 .. INT_MAX). */
static int md_words(long mdcount, int bpw)
{
	u64 n = mdcount > 0 && bpw > 0 ? (u64)mdcount * 16 / (u64)bpw : 0;

	return (int)MIN(n, (u64)0x7fffffff);
}

/* How a width digit, an "mdWcN" form or a plain name sets up md; false: not an md form. */
static bool md_form(struct kdb_session *s, const char *name, int *bpw, int *repeat, long *mdcount,
		    bool *raw, bool *phys)
{
	*raw = *phys = false;
	if (!strcmp(name, "mdr")) {
		*raw = true;
		return true;
	}
	if (name[1] && isdigit((unsigned char)name[2])) {
		*bpw = name[2] - '0';
		if (*bpw == 0)
			*bpw = s->md_bpw ? s->md_bpw : 4;
		s->md_bpw = *bpw;
		*repeat = md_words(*mdcount, *bpw);
		if (!name[3])
			return true;
		if (name[3] == 'c' && name[4]) {
			u64 n = 0;
			const char *p = name + 4;

			while (isdigit((unsigned char)*p))
				n = n * 10 + (u64)(*p++ - '0');
			if (*p || n > 0x7fffffff)
				return false;
			*repeat = (int)n;
			*mdcount = (long)((n * (u64)*bpw + 15) / 16);
			s->md_repeat = *repeat;
			return true;
		}
		return false;
	}
	if (!strcmp(name, "md") || !strcmp(name, "mds"))
		return true;
	if (!strcmp(name, "mdp"))
		return *phys = true;
	return false;
}

/*
 * @repeat words of @bpw bytes from *@addr, as lines (one word a line for
 * mds), more than two lines of zeroes in a row suppressed (Linux's kdb_md
 * loop).  *@addr: where it ended.  false: Ctrl-C stopped it.
 */
static bool md_lines(struct kdb_session *s, char fmt, u64 *addrp, int bpw, int repeat,
		     bool symbolic, bool phys)
{
	u64 addr = *addrp;

	while (repeat > 0) {
		int num = symbolic ? 1 : 16 / bpw, n, z;
		u64 a, w;

		if (kdb_interrupted(s))
			return false;
		for (a = addr, z = 0; z < repeat; a += (u64)bpw, z++) {
			if (z && !(z % MD_POLL_WORDS) && kdb_poll_interrupt(s))
				return false;	/* Ctrl-C inside a long run of zeroes */
			if (kdb_getword(s, a, bpw, phys, &w) || w)
				break;
		}
		n = MIN(num, repeat);
		md_line(s, fmt, addr, symbolic, bpw, num, repeat, phys);
		addr += (u64)(bpw * n);
		repeat -= n;
		z = z / num + (z % num != 0);	/* lines; z may be near INT_MAX */
		if (z > 2) {
			int skip = num * (z - 2);

			kdb_printf(s, "0x%016llx-0x%016llx zero suppressed\n", (unsigned long long)addr,
				   (unsigned long long)(addr + (u64)bpw * (u64)skip - 1));
			addr += (u64)bpw * (u64)skip;
			repeat -= skip;
		}
	}
	*addrp = addr;
	return true;
}

/**
 * kdb_cmd_md - md|mds [vaddr [lines [radix]]], mdWcN [vaddr [lines
 * [radix]]], mdp paddr [lines], mdr vaddr bytes.  With no arguments the
 * last dump continues (Enter repeats it).  Linux's kdb_md() semantics.
 */
int kdb_cmd_md(struct kdb_session *s, int argc, const char **argv)
{
	long mdcount = kdb_getenv_int(s, "MDCOUNT", 8);
	int radix = (int)kdb_getenv_int(s, "RADIX", 16);
	int bpw = (int)kdb_getenv_int(s, "BYTESPERWORD", KDB_WORD_SIZE);
	int repeat, next = 1, r;
	bool raw, phys, symbolic = !strcmp(argv[0], "mds");
	char fmt;
	u64 addr, v;

	if (bpw <= 0)
		bpw = KDB_WORD_SIZE;
	repeat = md_words(mdcount, bpw);
	if (!md_form(s, argv[0], &bpw, &repeat, &mdcount, &raw, &phys))
		return -KDB_NOTFOUND;
	if (raw && argc != 2 && !(argc == 0 && s->md_next))
		return -KDB_ARGCOUNT;
	if (argc == 0) {
		if (!s->md_next)
			return -KDB_ARGCOUNT;
		addr = s->md_next;
		radix = s->md_radix;
		bpw = s->md_bpw;
		repeat = s->md_repeat;
		mdcount = raw ? repeat : (long)(((u64)repeat * (u64)bpw + 15) / 16);
	} else {
		r = kdb_getaddrarg(s, argc, argv, &next, &addr);
		if (r)
			return r;
		if (argc > next + 2)
			return -KDB_ARGCOUNT;
		if (argc >= next && !kdb_getularg(argv[next], &v)) {
			mdcount = (long)MIN(v, (u64)0x7fffffff);
			repeat = raw ? (int)mdcount : md_words(mdcount, bpw);
		}
		if (argc >= next + 1 && !kdb_getularg(argv[next + 1], &v))
			radix = (int)MIN(v, (u64)64);
	}
	if (raw) {
		s->md_next = addr + (u64)mdcount;
		s->md_repeat = (int)mdcount;
		s->md_bpw = bpw;
		return md_raw(s, addr, (u64)mdcount);
	}
	switch (radix) {
	case 10: fmt = 'd'; break;
	case 16: fmt = 'x'; break;
	case 8: fmt = 'o'; break;
	default: return -KDB_BADRADIX;
	}
	s->md_radix = radix;
	if (bpw != 1 && bpw != 2 && bpw != 4 && bpw != 8)
		return -KDB_BADWIDTH;
	s->md_repeat = repeat;
	s->md_bpw = bpw;
	if (symbolic) {		/* temporary overrides, not kept for Enter */
		bpw = KDB_WORD_SIZE;
		repeat = (int)mdcount;
	}
	addr &= ~(u64)(bpw - 1);
	if (repeat > 0 && kdb_check_range(s, argv[0], addr, (u64)repeat * (u64)bpw))
		return -KDB_BADADDR;
	if (md_lines(s, fmt, &addr, bpw, repeat, symbolic, phys))
		s->md_next = addr;	/* not when Ctrl-C cut it */
	return 0;
}

/**
 * kdb_cmd_mm - mm / mmW <vaddr> <contents>: write a machine word (or W
 * bytes) and print "0xADDR = 0xCONTENTS" (Linux's kdb_mm()).
 */
int kdb_cmd_mm(struct kdb_session *s, int argc, const char **argv)
{
	int next = 1, r, width;
	u64 addr, contents;
	u8 buf[8];
	long n;

	if (argv[0][2] && (!isdigit((unsigned char)argv[0][2]) || argv[0][3]))
		return -KDB_NOTFOUND;
	if (argc < 2)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &addr);
	if (r)
		return r;
	if (next > argc)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &contents);
	if (r)
		return r;
	if (next != argc + 1)
		return -KDB_ARGCOUNT;
	width = argv[0][2] ? argv[0][2] - '0' : KDB_WORD_SIZE;
	if (width != 1 && width != 2 && width != 4 && width != 8) {
		kdb_printf(s, "kdb_putword: bad width %d\n", width);
		return -KDB_BADWIDTH;
	}
	if (kdb_check_range(s, argv[0], addr, (u64)width))
		return -KDB_BADADDR;
	for (int i = 0; i < width; i++)
		buf[i] = (u8)(contents >> (8 * i));
	/* Linux's kdb_putword(): a plain store; read-only text is a bad address */
	n = (s->target->ops->mem_store ? s->target->ops->mem_store :
	     s->target->ops->mem_write)(s->target, addr, buf, (size_t)width);
	if (n == -EKDB_EPERM) {
		kdb_printf(s, "%s: 0x%llx is the debugger's own code or data: not writable\n",
			   argv[0], (unsigned long long)addr);
		return -KDB_NOPERM;
	}
	if (n != width) {
		kdb_printf(s, "kdb_putarea_size: Bad address 0x%llx\n", (unsigned long long)addr);
		return -KDB_BADADDR;
	}
	kdb_printf(s, "0x%llx = 0x%llx\n", (unsigned long long)addr, (unsigned long long)contents);
	return 0;
}

/**
 * kdb_cmd_per_cpu - per_cpu <sym> [<bytes>] [<cpu>]: the per-CPU copy of
 * a variable on every online CPU (or one), as Linux's kdb_per_cpu().  The
 * target's percpu_offset op gives each CPU's distance from CPU 0's copy.
 */
int kdb_cmd_per_cpu(struct kdb_session *s, int argc, const char **argv)
{
	u64 symaddr, bytes = 0, which = ~0ull, off, w;
	unsigned ncpu;
	int next = 1, r;

	if (argc < 1 || argc > 3)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &symaddr);
	if (r)
		return r;
	if (argc >= 2 && kdb_getularg(argv[2], &bytes))
		return -KDB_BADINT;
	if (!bytes)
		bytes = KDB_WORD_SIZE;
	else if (bytes > KDB_WORD_SIZE || (bytes & (bytes - 1)))
		return -KDB_BADWIDTH;
	if (!kdb_host(s)->percpu_offset)
		return -KDB_NOTIMP;
	ncpu = kdb_cpu_count(s);
	if (argc >= 3) {
		if (kdb_getularg(argv[3], &which))
			return -KDB_BADINT;
		if (which >= ncpu || kdb_host(s)->percpu_offset((unsigned)which, &off)) {
			kdb_printf(s, "cpu %lld is not online\n", (long long)which);
			return -KDB_BADCPUNUM;
		}
	}
	for (unsigned cpu = 0; cpu < ncpu && !kdb_interrupted(s); cpu++) {
		u64 addr;

		if ((which != ~0ull && which != cpu) || kdb_host(s)->percpu_offset(cpu, &off))
			continue;
		addr = symaddr + off;
		r = kdb_getword(s, addr, (int)bytes, false, &w);
		if (r) {
			kdb_printf(s, "%5u 0x%016llx - unable to read, diag=%d\n", cpu,
				   (unsigned long long)addr, r);
			continue;
		}
		kdb_printf(s, "%5u ", cpu);
		md_line(s, 'x', addr, bytes == KDB_WORD_SIZE, (int)bytes, 1, 1, false);
	}
	return 0;
}
