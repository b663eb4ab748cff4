/* SPDX-License-Identifier: GPL-2.0 */
/* host_log.c - a thread-safe printk for host tests that keeps what was printed. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <kernel/printk.h>
#include "host_log.h"

static char logbuf[1 << 17];
static size_t loglen;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

int vprintk(const char *fmt, va_list ap)
{
	int n;

	pthread_mutex_lock(&log_lock);
	n = vsnprintf(logbuf + loglen, sizeof(logbuf) - loglen, fmt, ap);
	if (n > 0)
		loglen = loglen + (size_t)n >= sizeof(logbuf) ? sizeof(logbuf) - 1 : loglen + (size_t)n;
	pthread_mutex_unlock(&log_lock);
	return n;
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

/* The host tests' log sink (<ekdb/port.h>): a test that runs debugger code which logs installs it. */
const struct ekdb_port_ops host_log_port = {
	.vprintk = vprintk,
};

bool log_has(const char *s)
{
	return strstr(logbuf, s) != NULL;
}

void log_clear(void)
{
	loglen = 0;
	logbuf[0] = '\0';
}

const char *log_text(void)
{
	return logbuf;
}
