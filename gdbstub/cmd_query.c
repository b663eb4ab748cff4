/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_query.c - connection queries: qSupported QStartNoAckMode qXfer:features qAttached qOffsets. */
#include "gdb_int.h"

/* Longest annex name we accept in qXfer:features:read ("target.xml", ...). */
#define GDB_ANNEX_MAX	64

static void xfer_window(struct gdb_session *s, const char *doc, size_t size, u64 off, u64 n);

/* Does gdb's qSupported list (after "qSupported:") contain @feature? */
static bool gdb_has_feature(const char *list, const char *feature)
{
	size_t n = strlen(feature);

	while (*list) {
		if (!strncmp(list, feature, n) && (list[n] == ';' || list[n] == '\0'))
			return true;
		while (*list && *list != ';')
			list++;
		if (*list == ';')
			list++;
	}
	return false;
}

/**
 * gdb_cmd_supported - "qSupported[:features]": a (re)connecting gdb.
 * Resets what a previous gdb negotiated (packet.c has already left
 * no-ack mode) and tells gdb our packet size and features.
 */
/* gdb_set_plain (<ekdb/gdbstub.h>): offer what Linux's gdbstub offers, no more. */
static bool plain;

void gdb_set_plain(bool on)
{
	plain = on;
}

bool gdb_plain(void)
{
	return plain;
}

void gdb_cmd_supported(struct gdb_session *s, const char *a, size_t len)
{
	size_t size;

	rx_char(&a, ':');
	s->gdb_swbreak = !plain && gdb_has_feature(a, "swbreak+");
	s->gdb_hwbreak = !plain && gdb_has_feature(a, "hwbreak+");
	s->gdb_binary_upload = gdb_has_feature(a, "binary-upload+");
	s->g_thread = 0;
	s->c_thread = 0;
	s->thread_iter = 0;
	s->stop_func = 0;	/* a new gdb shows its first stop's whole frame */
	/* a new gdb knows nothing of what a vanished one planted (Linux: '?') */
	if (s->target->ops->bp_drop_owner)	/* the last gdb's are orphans now */
		s->target->ops->bp_drop_owner(s->target, EKDB_BP_BY_GDB);

	tx_str(s, "PacketSize=");
	tx_hex_u64(s, s->bufsize - 1);
	if (plain)
		return;	/* gdb's own register layout, acks, no stop reasons */
	if (s->target->ops->features_xml)
		tx_str(s, ";qXfer:features:read+");
	if (s->target->ops->libraries_xml && s->target->ops->libraries_xml(s->target, &size))
		tx_str(s, ";qXfer:libraries:read+");
	if (s->target->ops->libraries_svr4_xml && s->target->ops->libraries_svr4_xml(s->target, &size))
		tx_str(s, ";qXfer:libraries-svr4:read+");
	tx_str(s, ";vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+");
	if (s->gdb_binary_upload)
		tx_str(s, ";binary-upload+");
}

/** gdb_cmd_no_ack - "QStartNoAckMode": OK (still acked), then no more '+'/'-'. */
void gdb_cmd_no_ack(struct gdb_session *s, const char *a, size_t len)
{
	if (plain)
		return;		/* not offered: "" (unsupported) */
	if (*a)
		return tx_err(s, -EKDB_EINVAL);
	s->no_ack = true;
	tx_ok(s);
}

/**
 * gdb_cmd_xfer_features - "qXfer:features:read:annex:off,len": a window of
 * the target description, 'm' when more follows, 'l' for the last part.
 */
void gdb_cmd_xfer_features(struct gdb_session *s, const char *a, size_t len)
{
	char annex[GDB_ANNEX_MAX];
	const char *doc;
	size_t i = 0, size = 0;
	u64 off, n;

	while (a[i] && a[i] != ':') {
		if (i + 1 >= sizeof(annex))
			return tx_err(s, -EKDB_E2BIG);
		annex[i] = a[i];
		i++;
	}
	annex[i] = '\0';
	a += i;
	if (!rx_char(&a, ':') || rx_hex(&a, &off) || !rx_char(&a, ',') ||
	    rx_hex(&a, &n) || *a)
		return tx_err(s, -EKDB_EINVAL);
	if (plain)
		return;		/* not offered: "" (unsupported) */
	doc = s->target->ops->features_xml ?
	      s->target->ops->features_xml(s->target, annex, &size) : NULL;
	xfer_window(s, doc, size, off, n);
}

/**
 * gdb_cmd_xfer_libraries - "qXfer:libraries:read::off,len": the images
 * gdb loads symbols for (the target's libraries_xml), windowed as above.
 */
void gdb_cmd_xfer_libraries(struct gdb_session *s, const char *a, size_t len)
{
	const char *doc;
	size_t size = 0;
	u64 off, n;

	if (!rx_char(&a, ':') || rx_hex(&a, &off) || !rx_char(&a, ',') || rx_hex(&a, &n) || *a)
		return tx_err(s, -EKDB_EINVAL);
	doc = s->target->ops->libraries_xml ?
	      s->target->ops->libraries_xml(s->target, &size) : NULL;
	xfer_window(s, doc, size, off, n);
}

/** gdb_cmd_xfer_libraries_svr4 - "qXfer:libraries-svr4:read::off,len": the same images, SVR4 form. */
void gdb_cmd_xfer_libraries_svr4(struct gdb_session *s, const char *a, size_t len)
{
	const char *doc;
	size_t size = 0;
	u64 off, n;

	if (!rx_char(&a, ':') || rx_hex(&a, &off) || !rx_char(&a, ',') || rx_hex(&a, &n) || *a)
		return tx_err(s, -EKDB_EINVAL);
	doc = s->target->ops->libraries_svr4_xml ?
	      s->target->ops->libraries_svr4_xml(s->target, &size) : NULL;
	xfer_window(s, doc, size, off, n);
}

/* The window [off, off + n) of @doc: 'm' data when more follows, 'l' data for the last part. */
static void xfer_window(struct gdb_session *s, const char *doc, size_t size, u64 off, u64 n)
{
	size_t want, used;

	if (!doc)
		return tx_err(s, -EKDB_ENOENT);
	if (off >= size)
		return tx_char(s, 'l');
	want = (size_t)MIN(n, (u64)(size - off));
	tx_char(s, 'm');
	s->outlen += bin_escape(s->outbuf + s->outlen, tx_room(s),
				(const u8 *)doc + off, want, &used);
	if (off + used >= size)
		s->outbuf[0] = 'l';
}

/** gdb_cmd_attached - "qAttached": we attached to an existing "process" (1). */
void gdb_cmd_attached(struct gdb_session *s, const char *a, size_t len)
{
	tx_char(s, '1');
}

/**
 * gdb_cmd_offsets - "qOffsets": where the kernel runs (KASLR).  With the
 * image's run-time base, "TextSeg=base": gdb moves the first segment to
 * it and every later one by the same offset (it uses the last base given
 * for segments past it), so .rodata moves too; "Text=;Data=;Bss=" would
 * move only those three sections and leave every const table at its link
 * address in gdb's eyes.  Without a base, the offsets.
 */
void gdb_cmd_offsets(struct gdb_session *s, const char *a, size_t len)
{
	u64 off = s->target->text_offset;

	if (s->target->text_base) {
		tx_str(s, "TextSeg=");
		tx_hex_u64(s, s->target->text_base);
		return;
	}
	tx_str(s, "Text=");
	tx_hex_u64(s, off);
	tx_str(s, ";Data=");
	tx_hex_u64(s, off);
	tx_str(s, ";Bss=");
	tx_hex_u64(s, off);
}
