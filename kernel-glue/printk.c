/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk.c - the kernel log: one ring buffer that keeps the boot log from
 * the first line, and the consoles it is written to.
 *
 * Each stored line is "<L>text\n" (L = level digit), so kdb's dmesg can
 * show levels.  A console that registers late gets the log so far first.
 * printk works before anything is set up: static storage, a spinlock that
 * gives up waiting (bounded) so an oops or the debugger can always print.
 */
#include <kernel/printk.h>
#include <kernel/time.h>
#include <kernel/spinlock.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>

#define LOG_BUF_SIZE	(256 * 1024)	/* bytes of text kept; the boot log fits many times */
#define MAX_CONSOLES	8
#define LINE_MAX	1024
#define LOCK_SPINS	50000000UL	/* give up waiting for a wedged lock (oops path) */

static char log_buf[LOG_BUF_SIZE];
static u64 log_head;			/* total bytes ever written */
static struct ekdb_console *consoles[MAX_CONSOLES];
static spinlock_t logbuf_lock;
static void (*debugger_hook)(const char *s, size_t len);
static bool line_open;			/* last record did not end in '\n' (KERN_CONT) */
static int last_level = LOGLEVEL_DEFAULT;	/* level a KERN_CONT piece inherits */

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
bool ignore_loglevel;

static bool lock_bounded(void)
{
	for (unsigned long i = 0; i < LOCK_SPINS; i++)
		if (spin_trylock(&logbuf_lock))
			return true;
	return false;	/* somebody died holding it: print anyway */
}

static void log_store(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += len;
}

/*
 * The stored form of a record is Linux's syslog form, what kdb's dmesg
 * prints: "<level>[seconds.micros] text\n".  Consoles get the text only.
 */
static void log_prefix(int level, u64 ts)
{
	char p[32];
	int n = ekdb_snprintf(p, sizeof(p), "<%d>[%5llu.%06llu] ", level,
			      (unsigned long long)(ts / 1000000000ull),
			      (unsigned long long)(ts % 1000000000ull / 1000));

	log_store(p, (size_t)n);
}

__ekdb_nobp size_t log_buf_len(void)
{
	return log_head < LOG_BUF_SIZE ? log_head : LOG_BUF_SIZE;
}

__ekdb_nobp u64 log_buf_first_seq(void)
{
	return log_head < LOG_BUF_SIZE ? 0 : log_head - LOG_BUF_SIZE;
}

__ekdb_nobp size_t log_buf_copy(size_t pos, char *buf, size_t len)
{
	size_t avail = log_buf_len();
	u64 start = log_buf_first_seq();
	size_t n;

	if (pos >= avail)
		return 0;
	n = MIN(len, avail - pos);
	for (size_t i = 0; i < n; i++)
		buf[i] = log_buf[(start + pos + i) % LOG_BUF_SIZE];
	return n;
}

static bool level_shown(int level)
{
	return ignore_loglevel || level < console_loglevel;
}

static void console_emit(struct ekdb_console *con, const char *s, size_t len)
{
	if (con && con->enabled && con->write)
		con->write(con, s, len);
}

/* Write the stored log (levels stripped, filtered) to one console. */
static __ekdb_nobp void console_replay(struct ekdb_console *con)
{
	char line[LINE_MAX];
	size_t pos = 0, n = 0;
	char c;

	while (log_buf_copy(pos++, &c, 1)) {
		if (n < sizeof(line) - 1)
			line[n++] = c;
		if (c != '\n')
			continue;
		if (n >= 3 && line[0] == '<' && line[2] == '>') {
			int level = line[1] - '0';
			size_t skip = 3;

			if (skip < n && line[skip] == '[') {	/* the timestamp and its blank */
				while (skip < n && line[skip] != ']')
					skip++;
				skip += 2;
			}
			if (level_shown(level) && skip <= n)
				console_emit(con, line + skip, n - skip);
		} else {
			console_emit(con, line, n);
		}
		n = 0;
	}
}

__ekdb_nobp int register_console(struct ekdb_console *con)
{
	for (unsigned i = 0; i < MAX_CONSOLES; i++) {
		if (consoles[i])
			continue;
		con->enabled = true;
		if (con->replay)
			console_replay(con);
		consoles[i] = con;
		return 0;
	}
	return -1;
}

void unregister_console(struct ekdb_console *con)
{
	for (unsigned i = 0; i < MAX_CONSOLES; i++)
		if (consoles[i] == con)
			consoles[i] = NULL;
}

void printk_set_debugger_hook(void (*fn)(const char *s, size_t len))
{
	debugger_hook = fn;
}

struct line_buf {
	char *buf;
	size_t size, len;
};

static void line_putc(void *arg, char c)
{
	struct line_buf *b = arg;

	if (b->len < b->size - 1)
		b->buf[b->len++] = c;
}

int vprintk(const char *fmt, va_list ap)
{
	char text[LINE_MAX];
	struct line_buf lb = { text, sizeof(text), 0 };
	int level = LOGLEVEL_DEFAULT;
	bool cont = false, locked;
	u64 flags, ts = local_clock_ns();
	size_t start;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		fmt += 2;
	}
	fmt_vformat(line_putc, &lb, fmt, ap);
	text[lb.len] = 0;

	flags = local_irq_save();	/* an interrupt handler may printk too */
	locked = lock_bounded();
	if (cont)
		level = last_level;
	last_level = level;
	if (!(cont && line_open)) {
		if (line_open)
			log_store("\n", 1);
		log_prefix(level, ts);
	}
	/* each line of the record carries the prefix, as Linux's record_print_text() */
	start = 0;
	for (size_t i = 0; i < lb.len; i++) {
		if (text[i] != '\n')
			continue;
		log_store(text + start, i + 1 - start);
		start = i + 1;
		if (start < lb.len)
			log_prefix(level, ts);
	}
	if (start < lb.len)
		log_store(text + start, lb.len - start);
	line_open = lb.len == 0 ? line_open : text[lb.len - 1] != '\n';
	if (level_shown(level)) {
		for (unsigned i = 0; i < MAX_CONSOLES; i++)
			console_emit(consoles[i], text, lb.len);
	}
	if (debugger_hook)
		debugger_hook(text, lb.len);
	if (locked)
		spin_unlock(&logbuf_lock);
	local_irq_restore(flags);
	return (int)lb.len;
}

/*
 * console_write - text for the consoles only, not the log (a terminal's
 * echo and a shell's output: dmesg keeps kernel messages).
 */
void console_write(const char *s, size_t len)
{
	bool locked;
	u64 flags;

	flags = local_irq_save();
	locked = lock_bounded();
	for (unsigned i = 0; i < MAX_CONSOLES; i++)
		console_emit(consoles[i], s, len);
	if (locked)
		spin_unlock(&logbuf_lock);
	local_irq_restore(flags);
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
