/* SPDX-License-Identifier: GPL-2.0 */
/* host_log.h - printk for host tests: everything printed is kept so a test can look for it. */
#ifndef TESTS_HOST_LOG_H
#define TESTS_HOST_LOG_H

#include <stdbool.h>
#include <ekdb/port.h>

extern const struct ekdb_port_ops host_log_port;	/* its vprintk is this log */

bool log_has(const char *s);	/* was @s printed since the last log_clear()? */
void log_clear(void);
const char *log_text(void);	/* everything printed since the last log_clear() */

#endif
