/* SPDX-License-Identifier: GPL-2.0 */
/* fmt.c - a small printf engine over a character sink; never allocates. */
#include <ekdb/fmt.h>
#include <ekdb/string.h>

static fmt_symbol_fn fmt_symbol_resolver;

void fmt_set_symbol_resolver(fmt_symbol_fn fn)
{
	fmt_symbol_resolver = fn;
}

struct fmt_out {
	fmt_putc_fn putc;
	void *arg;
	int count;
};

static void out_c(struct fmt_out *o, char c)
{
	o->putc(o->arg, c);
	o->count++;
}

static void out_pad(struct fmt_out *o, char c, int n)
{
	while (n-- > 0)
		out_c(o, c);
}

/* Emit a string honouring width, precision and '-' */
static void out_str(struct fmt_out *o, const char *s, int width, int prec, bool left)
{
	int len;

	if (!s)
		s = "(null)";
	len = (int)strnlen(s, prec >= 0 ? (size_t)prec : (size_t)-1);
	if (!left)
		out_pad(o, ' ', width - len);
	for (int i = 0; i < len; i++)
		out_c(o, s[i]);
	if (left)
		out_pad(o, ' ', width - len);
}

struct num_spec {
	unsigned base;
	bool upper, left, zero, plus, space, alt, neg;
	int width, prec;
};

static void out_num(struct fmt_out *o, u64 v, const struct num_spec *sp)
{
	const char *digits = sp->upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, zeros, pad;
	char sign = 0;
	const char *prefix = "";

	do {
		tmp[n++] = digits[v % sp->base];
		v /= sp->base;
	} while (v);
	if (sp->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;
	if (sp->neg)
		sign = '-';
	else if (sp->plus)
		sign = '+';
	else if (sp->space)
		sign = ' ';
	if (sp->alt && sp->base == 16)
		prefix = sp->upper ? "0X" : "0x";
	else if (sp->alt && sp->base == 8 && !(n && tmp[n - 1] == '0'))
		prefix = "0";
	zeros = sp->prec > n ? sp->prec - n : 0;
	pad = sp->width - n - zeros - (sign ? 1 : 0) - (int)strlen(prefix);
	if (sp->zero && !sp->left && sp->prec < 0) {
		zeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!sp->left)
		out_pad(o, ' ', pad);
	if (sign)
		out_c(o, sign);
	for (; *prefix; prefix++)
		out_c(o, *prefix);
	out_pad(o, '0', zeros);
	while (n)
		out_c(o, tmp[--n]);
	if (sp->left)
		out_pad(o, ' ', pad);
}

/*
 * The flags, width, precision and length of the conversion that starts at
 * @fmt (just past its '%'): the result is where its conversion character is.
 * @lng: -2 hh, -1 h, 0 int, 1 long (also z, t, j), 2 long long.
 */
static const char *parse_spec(const char *fmt, struct num_spec *sp, int *lng, va_list *ap)
{
	for (;; fmt++) {
		if (*fmt == '-')
			sp->left = true;
		else if (*fmt == '0')
			sp->zero = true;
		else if (*fmt == '+')
			sp->plus = true;
		else if (*fmt == ' ')
			sp->space = true;
		else if (*fmt == '#')
			sp->alt = true;
		else
			break;
	}
	if (*fmt == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		fmt++;
	} else {
		while (isdigit(*fmt))
			sp->width = sp->width * 10 + (*fmt++ - '0');
	}
	if (*fmt == '.') {
		fmt++;
		sp->prec = 0;
		if (*fmt == '*') {
			sp->prec = va_arg(*ap, int);
			fmt++;
		} else {
			while (isdigit(*fmt))
				sp->prec = sp->prec * 10 + (*fmt++ - '0');
		}
	}
	for (;; fmt++) {
		if (*fmt == 'h')
			(*lng)--;
		else if (*fmt == 'l')
			(*lng)++;
		else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j')
			*lng = 1;
		else
			break;
	}
	return fmt;
}

/* The integer argument of length @lng, its magnitude (sp->neg: it was negative). */
static u64 int_arg(va_list *ap, int lng, bool is_signed, struct num_spec *sp)
{
	u64 v;

	if (is_signed) {
		s64 sv;

		if (lng >= 1)
			sv = lng == 1 ? va_arg(*ap, long) : va_arg(*ap, long long);
		else
			sv = va_arg(*ap, int);
		if (lng == -1)
			sv = (short)sv;
		else if (lng <= -2)
			sv = (signed char)sv;
		sp->neg = sv < 0;
		return sp->neg ? -(u64)sv : (u64)sv;
	}
	if (lng >= 1)
		v = lng == 1 ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned long long);
	else
		v = va_arg(*ap, unsigned int);
	if (lng == -1)
		v = (unsigned short)v;
	else if (lng <= -2)
		v = (unsigned char)v;
	return v;
}

/* %p, and %pS / %ps (a symbol when the resolver knows one): past the conversion. */
static const char *out_pointer(struct fmt_out *o, const char *fmt, u64 addr, struct num_spec *sp)
{
	if (fmt[1] == 'S' || fmt[1] == 's') {
		char sym[128];

		fmt++;
		if (fmt_symbol_resolver && fmt_symbol_resolver(addr, sym, sizeof(sym)) > 0) {
			out_str(o, sym, sp->width, -1, sp->left);
			return fmt;
		}
	}
	sp->base = 16;
	sp->alt = true;
	out_num(o, addr, sp);
	return fmt;
}

int fmt_vformat(fmt_putc_fn putc, void *arg, const char *fmt, va_list ap)
{
	struct fmt_out o = { putc, arg, 0 };
	va_list aq;

	va_copy(aq, ap);	/* a va_list parameter cannot be passed on by address */
	for (; *fmt; fmt++) {
		struct num_spec sp = { .base = 10, .prec = -1 };
		int lng = 0;
		bool is_signed = false;

		if (*fmt != '%') {
			out_c(&o, *fmt);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &lng, &aq);
		switch (*fmt) {
		case '%':
			out_c(&o, '%');
			continue;
		case 'c': {
			char s[2] = { (char)va_arg(aq, int), 0 };

			out_str(&o, s, sp.width, -1, sp.left);
			continue;
		}
		case 's':
			out_str(&o, va_arg(aq, const char *), sp.width, sp.prec, sp.left);
			continue;
		case 'p':
			fmt = out_pointer(&o, fmt, (u64)(uintptr_t)va_arg(aq, void *), &sp);
			continue;
		case 'd':
		case 'i':
			is_signed = true;
			break;
		case 'u':
			break;
		case 'x':
			sp.base = 16;
			break;
		case 'X':
			sp.base = 16;
			sp.upper = true;
			break;
		case 'o':
			sp.base = 8;
			break;
		case '\0':
			fmt--;
			continue;
		default:
			out_c(&o, '%');
			out_c(&o, *fmt);
			continue;
		}
		out_num(&o, int_arg(&aq, lng, is_signed, &sp), &sp);
	}
	va_end(aq);
	return o.count;
}

int fmt_format(fmt_putc_fn putc, void *arg, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vformat(putc, arg, fmt, ap);
	va_end(ap);
	return n;
}

struct snbuf {
	char *buf;
	size_t size, pos;
};

static void sn_putc(void *arg, char c)
{
	struct snbuf *b = arg;

	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

int ekdb_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct snbuf b = { buf, size, 0 };
	int n = fmt_vformat(sn_putc, &b, fmt, ap);

	if (size)
		buf[b.pos < size ? b.pos : size - 1] = 0;
	return n;
}

int ekdb_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ekdb_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
