/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconsole.c - the console's input queue and a small shell that reads it.
 *
 * Drivers (the 16550 IRQ driver, a keyboard driver) call
 * console_input_char() from their interrupt handlers; the "kconsole"
 * thread takes the bytes, echoes them, edits the line (Backspace, Ctrl-U;
 * escape sequences such as arrow keys are skipped) and runs a command on
 * Enter.  Its output goes to the consoles, not to the log.  It shows typed
 * input has a real consumer: every byte is either echoed or part of a
 * command's output, exactly once.
 *
 *   ekdb:/# help
 *   ekdb:/# echo TEXT      print TEXT ("..." and '...' quote)
 *   ekdb:/# echo TEXT > FILE   write TEXT and a newline to one of the Linux files
 *   ekdb:/# cat FILE       show one of them (pseudofs.c: /proc/sysrq-trigger,
 *                          /sys/module/kgdboc/parameters/kgdboc,
 *                          /sys/module/kdb/parameters/cmd_enable)
 *   ekdb:/# uptime         time since boot, CPUs, tasks
 *   ekdb:/# ps             the tasks (pid, state, CPU, name)
 *   ekdb:/# dmesg          the kernel log
 *   ekdb:/# panic [TEXT]   panic() (the debugger stops there when enabled)
 *   ekdb:/# stat           console input counters
 */
#include <kernel/kernel.h>
#include <kernel/console.h>
#include <kernel/printk.h>
#include <kernel/pseudofs.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>

#define KCONSOLE_PROMPT		"ekdb:/# "
#define KCONSOLE_LINE_MAX	256
#define KCONSOLE_WAIT_MS	100	/* re-check the queue at least this often */

static char inq[CONSOLE_INPUT_SIZE];
static unsigned int inq_head, inq_tail;		/* head: next write; tail: next read */
static DEFINE_SPINLOCK(inq_lock);
static struct task_struct *kconsole_task;
u64 console_input_count, console_input_dropped;

__ekdb_nobp void console_input_char(char c)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&inq_lock, flags);
	if (inq_head - inq_tail < CONSOLE_INPUT_SIZE) {
		inq[inq_head++ % CONSOLE_INPUT_SIZE] = c;
		console_input_count++;
		queued = true;
	} else {
		console_input_dropped++;
	}
	spin_unlock_irqrestore(&inq_lock, flags);
	if (queued && kconsole_task)
		wake_up_process(kconsole_task);
}

int console_input_read(void)
{
	unsigned long flags;
	int c = -1;

	spin_lock_irqsave(&inq_lock, flags);
	if (inq_tail != inq_head)
		c = (u8)inq[inq_tail++ % CONSOLE_INPUT_SIZE];
	spin_unlock_irqrestore(&inq_lock, flags);
	return c;
}

static void con_puts(const char *s)
{
	console_write(s, strlen(s));
}

static __printf(1, 2) void con_printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ekdb_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, MIN((size_t)n, sizeof(buf) - 1));
}

static int ps_one(struct task_struct *t, void *arg)
{
	con_printf("%5d  %c  %3d  %s\n", t->pid, task_state_char(t), t->cpu, t->comm);
	return 0;
}

static int count_one(struct task_struct *t, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

static void cmd_uptime(void)
{
	u64 ms = uptime_ms();
	unsigned int tasks = 0;

	for_each_task(count_one, &tasks);
	con_printf("up %llu.%03llu s, %u CPUs, %u tasks\n", (unsigned long long)ms / 1000,
		   (unsigned long long)ms % 1000, num_online_cpus(), tasks);
}

/* The log without its "<L>" level prefixes, as the console showed it. */
static void cmd_dmesg(void)
{
	char in[128], out[128];
	size_t pos = 0, n, o = 0;
	unsigned int col = 0;		/* bytes of "<L>" matched at the start of this line */
	bool line_start = true;

	while ((n = log_buf_copy(pos, in, sizeof(in))) > 0) {
		pos += n;
		for (size_t i = 0; i < n; i++) {
			char c = in[i];

			/* every record starts with "<L>" (printk.c): strip exactly that */
			if (line_start && ((col == 0 && c == '<') ||
					   (col == 1 && c >= '0' && c <= '9') ||
					   (col == 2 && c == '>'))) {
				line_start = ++col < 3;
				continue;
			}
			line_start = c == '\n';
			col = 0;
			out[o++] = c;
			if (o == sizeof(out)) {
				console_write(out, o);
				o = 0;
			}
		}
	}
	console_write(out, o);
}

/*
 * Quotes as a shell removes them: a '"' or '\'' with a partner later on
 * quotes what is between; a lone one is kept as typed.  In place.
 */
static void unquote(char *s)
{
	char *o = s;

	while (*s) {
		char *end = (*s == '"' || *s == '\'') ? strchr(s + 1, *s) : NULL;

		if (end) {
			memmove(o, s + 1, (size_t)(end - s - 1));
			o += end - s - 1;
			s = end + 1;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/*
 * The redirection of `echo TEXT > /FILE`: the last '>' followed by one
 * absolute path and nothing else (so `echo a>b` and `echo <>?` print as
 * before).  Cuts it off @arg; the path, or NULL.
 */
static char *redirect_target(char *arg)
{
	char *gt = strrchr(arg, '>'), *path, *end;

	if (!gt)
		return NULL;
	for (path = gt + 1; *path == ' '; path++)
		;
	if (*path != '/')
		return NULL;
	for (end = path; *end && *end != ' '; end++)
		;
	if (*end) {
		char *rest = end;

		while (*rest == ' ')
			rest++;
		if (*rest)
			return NULL;
		*end = '\0';
	}
	*gt = '\0';
	for (end = gt; end > arg && end[-1] == ' '; end--)
		end[-1] = '\0';
	return path;
}

static void cmd_echo(char *arg)
{
	char *path = redirect_target(arg);
	char buf[KCONSOLE_LINE_MAX + 1];
	int err;

	unquote(arg);
	if (!path) {
		con_printf("%s\n", arg);
		return;
	}
	/* as the C library's write(): the text and echo's newline, in one go */
	ekdb_snprintf(buf, sizeof(buf), "%s\n", arg);
	err = pseudofs_write(path, buf, strlen(buf));
	if (err == -EKDB_ENOENT)
		con_printf("sh: %s: %s\n", path, pseudofs_strerror(err));
	else if (err)
		con_printf("sh: echo: write error: %s\n", pseudofs_strerror(err));
}

static void cmd_cat(char *arg)
{
	char buf[256];
	long n;

	if (!*arg) {
		con_puts("usage: cat FILE\n");
		return;
	}
	n = pseudofs_read(arg, buf, sizeof(buf));
	if (n < 0)
		con_printf("cat: %s: %s\n", arg, pseudofs_strerror((int)n));
	else
		console_write(buf, (size_t)n);
}

static void run_command(char *line)
{
	char *cmd = line, *arg;

	while (*cmd == ' ')
		cmd++;
	if (!*cmd)
		return;
	arg = strchr(cmd, ' ');
	if (arg) {
		*arg++ = '\0';
		while (*arg == ' ')
			arg++;
	} else {
		arg = cmd + strlen(cmd);
	}
	if (!strcmp(cmd, "help")) {
		con_puts("commands: help, echo TEXT [> FILE], cat FILE, uptime, ps, dmesg, stat, "
			 "panic [TEXT]\n");
	} else if (!strcmp(cmd, "echo")) {
		cmd_echo(arg);
	} else if (!strcmp(cmd, "cat")) {
		cmd_cat(arg);
	} else if (!strcmp(cmd, "uptime")) {
		cmd_uptime();
	} else if (!strcmp(cmd, "ps")) {
		con_puts("  PID  S  CPU  COMMAND\n");
		for_each_task(ps_one, NULL);
	} else if (!strcmp(cmd, "dmesg")) {
		cmd_dmesg();
	} else if (!strcmp(cmd, "stat")) {
		con_printf("console input: %llu bytes, %llu dropped\n",
			   (unsigned long long)console_input_count,
			   (unsigned long long)console_input_dropped);
	} else if (!strcmp(cmd, "panic")) {
		panic("%s", *arg ? arg : "kconsole: panic command");
	} else {
		con_printf("%s: command not found (try help)\n", cmd);
	}
}

/* Skip ESC [ ... final-byte sequences (arrow keys): no half-echoed escapes. */
enum esc_state { ESC_NONE, ESC_SEEN, ESC_CSI };

static int kconsole(void *unused)
{
	char line[KCONSOLE_LINE_MAX];
	size_t len = 0;
	enum esc_state esc = ESC_NONE;
	bool after_cr = false;

	con_puts("\n" KCONSOLE_PROMPT);
	for (;;) {
		int c = console_input_read();

		if (c < 0) {
			/* a wake-up between the check and the sleep costs one period at most */
			msleep(KCONSOLE_WAIT_MS);
			continue;
		}
		if (esc == ESC_SEEN) {
			esc = c == '[' ? ESC_CSI : ESC_NONE;
			continue;
		}
		if (esc == ESC_CSI) {
			if (c >= 0x40 && c <= 0x7e)
				esc = ESC_NONE;
			continue;
		}
		if (c == '\n' && after_cr) {	/* \r\n is one Enter */
			after_cr = false;
			continue;
		}
		after_cr = c == '\r';
		switch (c) {
		case '\r':
		case '\n':
			con_puts("\n");
			line[len] = '\0';
			run_command(line);
			len = 0;
			con_puts(KCONSOLE_PROMPT);
			break;
		case 0x7f:
		case '\b':
			if (len) {
				len--;
				con_puts("\b \b");
			}
			break;
		case 0x15:	/* Ctrl-U: kill the line */
			while (len) {
				len--;
				con_puts("\b \b");
			}
			break;
		case 0x03:	/* Ctrl-C on a line the debugger does not use */
			con_puts("^C\n" KCONSOLE_PROMPT);
			len = 0;
			break;
		case 0x1b:
			esc = ESC_SEEN;
			break;
		default:
			if (c < 0x20 || len >= sizeof(line) - 1)
				break;	/* other controls; a full line takes no more */
			line[len++] = (char)c;
			console_write(&line[len - 1], 1);
			break;
		}
	}
	return 0;
}

void kconsole_start(void)
{
	const char *opt = cmdline_get("kconsole");

	if (opt && !strcmp(opt, "off")) {
		pr_info("kconsole: off (kconsole=off)\n");
		return;
	}
	kconsole_task = kthread_create(kconsole, NULL, "kconsole");
	if (!kconsole_task) {
		pr_err("kconsole: cannot create the thread\n");
		return;
	}
	wake_up_process(kconsole_task);
}
