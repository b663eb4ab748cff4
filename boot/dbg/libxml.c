/* SPDX-License-Identifier: GPL-2.0 */
/* libxml.c - <library-list> for qXfer:libraries:read (pure). */
#include "libxml.h"

struct out {
	char *buf;
	size_t size, len;
	int overflow;
};

static void put(struct out *o, const char *s)
{
	for (; *s; s++) {
		if (o->len + 1 >= o->size) {
			o->overflow = 1;
			return;
		}
		o->buf[o->len++] = *s;
	}
}

static void put_escaped(struct out *o, const char *s)
{
	char one[2] = { 0, 0 };

	for (; *s; s++) {
		switch (*s) {
		case '&': put(o, "&amp;"); break;
		case '<': put(o, "&lt;"); break;
		case '>': put(o, "&gt;"); break;
		case '"': put(o, "&quot;"); break;
		case '\'': put(o, "&apos;"); break;
		default: one[0] = *s; put(o, one); break;
		}
	}
}

static void put_hex(struct out *o, uint64_t v)
{
	char tmp[19];
	int i = 18;

	tmp[i] = 0;
	do {
		tmp[--i] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	put(o, tmp + i);
}

long ldr_libraries_xml(char *buf, size_t size, const struct ldr_lib *libs, unsigned n)
{
	struct out o = { buf, size, 0, 0 };

	if (!size)
		return -1;
	put(&o, "<library-list>");
	for (unsigned i = 0; i < n; i++) {
		put(&o, "<library name=\"");
		put_escaped(&o, libs[i].path);
		put(&o, "\"><segment address=\"");
		put_hex(&o, libs[i].base);
		put(&o, "\"/></library>");
	}
	put(&o, "</library-list>");
	buf[o.len] = 0;
	return o.overflow ? -1 : (long)o.len;
}

long ldr_libraries_svr4_xml(char *buf, size_t size, const struct ldr_lib *libs, unsigned n)
{
	struct out o = { buf, size, 0, 0 };

	if (!size)
		return -1;
	put(&o, "<library-list-svr4 version=\"1.0\">");
	for (unsigned i = 0; i < n; i++) {
		put(&o, "<library name=\"");
		put_escaped(&o, libs[i].path);
		put(&o, "\" lm=\"0x0\" l_addr=\"");
		put_hex(&o, libs[i].base);
		put(&o, "\" l_ld=\"0x0\"/>");
	}
	put(&o, "</library-list-svr4>");
	buf[o.len] = 0;
	return o.overflow ? -1 : (long)o.len;
}
