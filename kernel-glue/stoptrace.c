/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stoptrace.c - the stop-path recorder (issue 33), in trace builds only.
 *
 * Which kernel functions run while the debugger runs is measured, not
 * guessed from a call graph (which misses every call through a function
 * pointer: the EHCI late driver's register accessors were found this way).
 * A trace build (`make STOPTRACE=1`, tests/integration/probe_build.py's
 * trace_esp()) compiles the kernel's own folders (kernel-glue/) with
 * -finstrument-functions: every function entry calls
 * __cyg_profile_func_enter() below, inlined ones included.  When the CPU
 * runs the debugger at that moment (ekdb_cpu_in_debugger(): stopped,
 * leaving, parked, taking a trap, polling for a break-in from the tick,
 * sending a kgdbcon packet), the function's address goes into
 * stoptrace_fns[] once.  tests/integration/test_stop_trace.py drives every
 * transport in both lifetimes, reads the table out of the machine (QMP
 * memsave) and checks that each function recorded is __ekdb_nobp in the
 * normal build (docs/testing.md, "The stop path, measured").
 *
 * Nothing here may be instrumented, nor call anything that is: the hooks
 * read the CPU number straight from the GS base (struct percpu), and the
 * debug core (core/, never instrumented) answers the question.
 */
#ifdef EKDB_STOPTRACE
#include <kernel/percpu.h>
#include <ekdb/ekdb.h>

#define __notrace	__attribute__((no_instrument_function))

#define STOPTRACE_SLOTS	4096	/* open addressing; a few hundred functions are expected */

/* Read by the test: the recorded entry addresses (0: free), how many, how many did not fit. */
u64 stoptrace_fns[STOPTRACE_SLOTS];
u32 stoptrace_count;
u32 stoptrace_lost;

static __notrace unsigned int cpu_number(bool *known)
{
	u32 lo, hi;
	const struct percpu *p;

	*known = true;
	if (!__atomic_load_n(&percpu_ready, __ATOMIC_ACQUIRE))
		return 0;	/* the boot CPU alone, before its GS base is set */
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(0xc0000101u));	/* GS base */
	p = (const struct percpu *)(((u64)hi << 32) | lo);
	if (!p) {
		*known = false;	/* an AP before percpu_init_cpu(): not the debugger's */
		return 0;
	}
	return p->cpu;
}

static __notrace void record(u64 fn)
{
	u64 h = (fn >> 4) * 0x9e3779b97f4a7c15ull;

	for (unsigned int n = 0; n < STOPTRACE_SLOTS; n++) {
		u64 *slot = &stoptrace_fns[(h + n) % STOPTRACE_SLOTS];
		u64 old = __atomic_load_n(slot, __ATOMIC_RELAXED);

		if (old == fn)
			return;
		if (!old) {
			if (__atomic_compare_exchange_n(slot, &old, fn, false, __ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				__atomic_add_fetch(&stoptrace_count, 1, __ATOMIC_RELAXED);
				return;
			}
			if (old == fn)
				return;	/* the other CPU put it there */
		}
	}
	__atomic_add_fetch(&stoptrace_lost, 1, __ATOMIC_RELAXED);
}

void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

__notrace void __cyg_profile_func_enter(void *fn, void *site)
{
	bool known;
	unsigned int cpu = cpu_number(&known);

	if (known && ekdb_cpu_in_debugger(cpu))
		record((u64)fn);
}

__notrace void __cyg_profile_func_exit(void *fn, void *site)
{
}
#endif
