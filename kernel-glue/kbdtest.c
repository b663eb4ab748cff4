/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbdtest.c - test-only kernel parameters for the local console, run at
 * the end of boot (run_boot_tests):
 *
 *   test_kbd[=SECONDS]  (default 60) a tiny line editor on the keyboard
 *       transport (io/kbd) echoing on the screen (io/vga):
 *       printable keys insert, Backspace erases, Left/Right/Home/End move,
 *       Enter or Ctrl-C ends.  First it draws a \b/\r/\t check line.
 *       On the serial console (raw, not the log, so the screen keeps only
 *       the editor line):  "kbdtest: key 0x.." per byte received.
 *       In the log:  "kbdtest: ready", "kbdtest: line '<text>'" (or
 *       "kbdtest: interrupted '<text>'", "kbdtest: timeout '<text>'"),
 *       "kbdtest: done".
 *   test_kbd_mouse  with test_kbd: before the editor starts, turn the PS/2
 *       mouse on (aux port enabled, data reporting on, no IRQ12), so that
 *       mouse motion really reaches the i8042 as AUXDATA bytes the keyboard
 *       transport must drop.  Logs "kbdtest: mouse on (ack 0x..)" or
 *       "kbdtest: mouse not enabled (...)".
 *   test_fbbench[=KiB]  see fbbench.c.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/apic.h>
#include <asm/processor.h>
#include <asm/io.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include "../io/kbd/kbd.h"
#include "../io/vga/vga.h"
#include "../io/serial/serial.h"
#include "drivers/i8042_kbd.h"


#define KBDTEST_LINE	120

static struct ekdb_transport *kt;

static void out(const char *s)
{
	while (*s)
		kt->putc(kt, (u8)*s++);
}

static void serial_note(const char *fmt, ...)
{
	struct uart_port *port = early_serial_console_port();
	char buf[64];
	va_list ap;
	int n;

	if (!port)
		return;
	va_start(ap, fmt);
	n = ekdb_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	uart_write(port, buf, (size_t)MIN(n, (int)sizeof(buf) - 1));
}

/* The \b \r \t check line, and what the grid holds afterwards (in the log). */
static void screen_check(void)
{
	char row[VGA_SCREEN_ROW_MAX];

	out("xxxxxxxxxxxxx\rbs-test: abcd\b\bXY\n");
	out("tab:\tT|\n");
	kt->flush(kt);
	for (u16 y = 0; vga_screen_row(y, row, sizeof(row)); y++)
		if (!strncmp(row, "bs-test:", 8) || !strncmp(row, "tab:", 4))
			pr_info("kbdtest: grid '%s'\n", row);
}

/* test_kbd_mouse: the i8042 commands a PS/2 mouse driver sends (bounded waits). */
#define I8042_DATA	0x60
#define I8042_CMD	0x64
#define MOUSE_WAIT	1000000

static bool i8042_idle(void)
{
	for (unsigned i = 0; i < MOUSE_WAIT; i++)
		if (!(inb(I8042_CMD) & I8042_STR_IBF))
			return true;
	return false;
}

static bool i8042_reply(u8 *status, u8 *data)
{
	for (unsigned i = 0; i < MOUSE_WAIT; i++) {
		u8 st = inb(I8042_CMD);

		if (st & I8042_STR_OBF) {
			*status = st;
			*data = inb(I8042_DATA);
			return true;
		}
	}
	return false;
}

static void mouse_on(void)
{
	u8 cfg, st = 0, ack = 0;

	if (!i8042_idle())
		goto busy;
	outb(I8042_CMD, 0x20);			/* read configuration */
	if (!i8042_reply(&st, &cfg) || !i8042_idle())
		goto busy;
	outb(I8042_CMD, 0x60);			/* write configuration: */
	if (!i8042_idle())
		goto busy;
	outb(I8042_DATA, cfg & ~0x22);		/* aux clock on, no IRQ12 */
	if (!i8042_idle())
		goto busy;
	outb(I8042_CMD, 0xa8);			/* enable the aux port */
	if (!i8042_idle())
		goto busy;
	outb(I8042_CMD, 0xd4);			/* next data byte to the mouse: */
	if (!i8042_idle())
		goto busy;
	outb(I8042_DATA, 0xf4);			/* enable data reporting */
	if (!i8042_reply(&st, &ack))
		goto busy;
	if (!(st & I8042_STR_AUXDATA) || ack != 0xfa) {
		pr_err("kbdtest: mouse not enabled (status 0x%02x reply 0x%02x)\n", st, ack);
		return;
	}
	pr_info("kbdtest: mouse on (ack 0x%02x)\n", ack);
	return;
busy:
	pr_err("kbdtest: mouse not enabled (controller timeout)\n");
}

static void redraw_tail(const char *line, unsigned len, unsigned pos, unsigned erase)
{
	for (unsigned i = pos; i < len; i++)
		kt->putc(kt, (u8)line[i]);
	for (unsigned i = 0; i < erase; i++)
		kt->putc(kt, ' ');
	for (unsigned i = pos; i < len + erase; i++)
		kt->putc(kt, '\b');
}

static void kbd_selftest(const char *arg)
{
	char line[KBDTEST_LINE + 1];
	unsigned len = 0, pos = 0, esc = 0, secs = 60;
	const char *how = "timeout";
	u64 deadline;
	int err = 0;

	if (*arg) {
		secs = 0;
		for (; *arg >= '0' && *arg <= '9'; arg++)
			secs = secs * 10 + (unsigned)(*arg - '0');
	}
	kt = kbd_screen_transport(&err);
	if (!kt) {
		pr_err("kbdtest: no keyboard (%d)\n", err);
		return;
	}
	if (cmdline_has("test_kbd_mouse"))
		mouse_on();
	screen_check();
	pr_info("kbdtest: ready (%u s)\n", secs);
	out("kbdtest> ");
	kt->flush(kt);
	deadline = rdtsc() + (tsc_khz ? tsc_khz : 2000000) * 1000ULL * secs;
	while (rdtsc() < deadline) {
		int c = kt->getc(kt);

		if (c < 0) {
			cpu_relax();
			continue;
		}
		serial_note("kbdtest: key 0x%02x\n", c);
		if (esc == 1) {
			esc = c == '[' ? 2 : 0;
			continue;
		}
		if (esc >= 2) {
			if (c >= '0' && c <= '9') {
				esc = (unsigned)c;		/* ESC [ n ~ */
				continue;
			}
			if (c == 'D' && pos > 0) {
				pos--;
				kt->putc(kt, '\b');
			} else if (c == 'C' && pos < len) {
				kt->putc(kt, (u8)line[pos++]);
			} else if (c == '~' && esc == '1') {
				for (; pos; pos--)
					kt->putc(kt, '\b');
			} else if (c == '~' && esc == '4') {
				for (; pos < len; pos++)
					kt->putc(kt, (u8)line[pos]);
			} else if (c == '~' && esc == '3' && pos < len) {
				memmove(line + pos, line + pos + 1, len - pos - 1);
				len--;
				redraw_tail(line, len, pos, 1);
			}
			esc = 0;
			kt->flush(kt);
			continue;
		}
		if (c == 0x1b) {
			esc = 1;
		} else if (c == '\r' || c == '\n') {
			how = "line";
			break;
		} else if (c == 0x03) {
			out("^C");
			how = "interrupted";
			break;
		} else if (c == 0x08 || c == 0x7f) {
			if (pos) {
				memmove(line + pos - 1, line + pos, len - pos);
				pos--;
				len--;
				kt->putc(kt, '\b');
				redraw_tail(line, len, pos, 1);
			}
		} else if (c >= 0x20 && c < 0x7f && len < KBDTEST_LINE) {
			memmove(line + pos + 1, line + pos, len - pos);
			line[pos] = (char)c;
			len++;
			kt->putc(kt, (u8)c);
			pos++;
			redraw_tail(line, len, pos, 0);
		}
		kt->flush(kt);
	}
	line[len] = 0;
	out("\n");
	kt->flush(kt);
	kbd_absorb_enter_release(2000000);
	pr_info("kbdtest: %s '%s'\n", how, line);
	pr_info("kbdtest: done\n");
}

/** console_selftests - test_kbd= and test_fbbench=, if given. */
void console_selftests(void)
{
	const char *v;

	v = cmdline_get("test_fbbench");
	if (v)
		fbbench_run(v);
	v = cmdline_get("test_kbd");
	if (v) {
		/* the early polled reader is what is tested: the IRQ driver steps aside */
		i8042_kbd_pause(true);
		kbd_selftest(v);
		i8042_kbd_pause(false);
	}
}
