/* SPDX-License-Identifier: GPL-2.0 */
/* cpu.c - the debugger's one per-CPU array and "which CPU am I". */
#include "debug_core.h"
#include <ekdb/ekdb.h>

struct dbg_cpu dbg_cpus[NR_CPUS];
static unsigned (*cpu_id_fn)(void);

void ekdb_set_cpu_id_fn(unsigned (*fn)(void))
{
	cpu_id_fn = fn;
}

unsigned dbg_this_cpu(void)
{
	unsigned c = cpu_id_fn ? cpu_id_fn() : 0;

	return c < NR_CPUS ? c : 0;
}

void ekdb_cpu_online(unsigned cpu)
{
	if (cpu < NR_CPUS)
		dbg_cpus[cpu].online = true;
}

unsigned dbg_cpu_count(void)
{
	unsigned n = 1;

	for (unsigned c = 0; c < NR_CPUS; c++)
		if (dbg_cpus[c].online)
			n = c + 1;
	return n;
}
