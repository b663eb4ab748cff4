/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scancode.c - set-1 scan codes to terminal bytes (see scancode.h).
 * US layout; the keypad gives digits (as with Num Lock on).
 */
#include "scancode.h"

#define SC_RELEASE	0x80
#define SC_E0		0xe0
#define SC_E1		0xe1

enum {
	SC_ENTER = 0x1c, SC_LCTRL = 0x1d, SC_LSHIFT = 0x2a, SC_RSHIFT = 0x36,
	SC_LALT = 0x38, SC_CAPS = 0x3a,
	SC_SYSRQ = 0x54,		/* PrtSc while Alt is down */
	SC_E0_PRTSC = 0x37,		/* E0 37: PrtSc (SysRq when Alt is down) */
};

/* Unshifted and shifted characters for scan codes 0x00..0x58; 0 = none. */
static const char plain[0x59] = {
	0, 0x1b, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', KBD_BACKSPACE, '\t',
	'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r', 0, 'a', 's',
	'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`', 0, '\\', 'z', 'x', 'c', 'v',
	'b', 'n', 'm', ',', '.', '/', 0, '*', 0, ' ', 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, '7', '8', '9', '-', '4', '5', '6', '+', '1',
	'2', '3', '0', '.', 0, 0, '\\', 0, 0,
};

static const char shifted[0x59] = {
	0, 0x1b, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', KBD_BACKSPACE, '\t',
	'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\r', 0, 'A', 'S',
	'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~', 0, '|', 'Z', 'X', 'C', 'V',
	'B', 'N', 'M', '<', '>', '?', 0, '*', 0, ' ', 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, '7', '8', '9', '-', '4', '5', '6', '+', '1',
	'2', '3', '0', '.', 0, 0, '|', 0, 0,
};

/* E0-prefixed keys: the escape sequence after "ESC [". */
static const struct {
	u8 code;
	const char *seq;
} e0_keys[] = {
	{ 0x48, "A" }, { 0x50, "B" }, { 0x4d, "C" }, { 0x4b, "D" },
	{ 0x47, "1~" }, { 0x4f, "4~" }, { 0x53, "3~" }, { 0x52, "2~" },
	{ 0x49, "5~" }, { 0x51, "6~" },
};

void kbd_reset(struct kbd_state *s)
{
	*s = (struct kbd_state){ 0 };
}

static int put_seq(char *out, const char *seq)
{
	int n = 0;

	out[n++] = 0x1b;
	out[n++] = '[';
	while (*seq && n < KBD_SEQ_MAX)
		out[n++] = *seq++;
	return n;
}

/* Modifier make/break; returns true when @code was a modifier. */
static bool modifier(struct kbd_state *s, u8 code, bool e0, bool down)
{
	switch (code) {
	case SC_LSHIFT:
		if (!e0)		/* E0 2A / E0 AA: fake shifts around PrtSc etc. */
			s->lshift = down;
		return true;
	case SC_RSHIFT:
		if (!e0)
			s->rshift = down;
		return true;
	case SC_LCTRL:
		*(e0 ? &s->rctrl : &s->lctrl) = down;
		return true;
	case SC_LALT:
		*(e0 ? &s->ralt : &s->lalt) = down;
		return true;
	case SC_CAPS:
		if (down && !e0)
			s->caps_lock = !s->caps_lock;
		return true;
	default:
		return false;
	}
}

static int e0_key(struct kbd_state *s, u8 code, char *out)
{
	if (code == SC_ENTER) {		/* keypad Enter */
		s->enter_down = true;
		out[0] = '\r';
		return 1;
	}
	if (code == 0x35) {		/* keypad / */
		out[0] = '/';
		return 1;
	}
	for (unsigned i = 0; i < ARRAY_SIZE(e0_keys); i++)
		if (e0_keys[i].code == code)
			return put_seq(out, e0_keys[i].seq);
	return 0;
}

int kbd_feed(struct kbd_state *s, u8 status, u8 data, char *out)
{
	bool e0 = s->e0, release = data & SC_RELEASE, shift;
	u8 code = data & ~SC_RELEASE;
	char c;

	if (status & I8042_STR_AUXDATA)
		return 0;			/* a mouse byte */
	if (s->e1_skip) {
		s->e1_skip--;
		return 0;
	}
	if (data == SC_E0) {
		s->e0 = true;
		return 0;
	}
	s->e0 = false;
	if (data == SC_E1) {
		s->e1_skip = 5;			/* Pause: E1 1D 45 E1 9D C5 */
		return 0;
	}
	if (data == 0x00 || data == 0xfa || data == 0xfe || data == 0xff)
		return 0;			/* error, ACK, resend, overrun */
	if (modifier(s, code, e0, !release))
		return 0;
	if ((!e0 && code == SC_SYSRQ) || (e0 && code == SC_E0_PRTSC && (s->lalt || s->ralt))) {
		s->sysrq_down = !release;
		return 0;
	}
	if (s->sysrq_down && !release && !e0 && (s->lalt || s->ralt)) {
		/* Alt+SysRq+key: a sysrq command, not typing */
		if (code < sizeof(plain) && plain[code])
			s->sysrq_key = plain[code];
		return 0;
	}
	if (release) {
		if (code == SC_ENTER)
			s->enter_down = false;
		return 0;
	}
	if (e0)
		return e0_key(s, code, out);
	if (code >= sizeof(plain) || !plain[code])
		return 0;			/* F keys, Num Lock, ...: nothing */
	if (code == SC_ENTER)
		s->enter_down = true;
	shift = s->lshift || s->rshift;
	c = plain[code];
	if (c >= 'a' && c <= 'z' && s->caps_lock)
		shift = !shift;
	if (shift)
		c = shifted[code];
	if (s->lctrl || s->rctrl) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			c = (char)(c & 0x1f);
		else if (c == '[' || c == '\\' || c == ']')
			c = (char)(c & 0x1f);
		else if (c == ' ' || c == '@' || c == '2')
			c = 0;			/* Ctrl-Space / Ctrl-@: NUL, dropped */
		if (!c)
			return 0;
	}
	out[0] = c;
	return 1;
}

char kbd_sysrq_take(struct kbd_state *s)
{
	char k = s->sysrq_key;

	s->sysrq_key = 0;
	return k;
}
