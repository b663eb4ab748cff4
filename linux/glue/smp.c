// SPDX-License-Identifier: GPL-2.0
/*
 * ekdb on Linux's CPUs: which CPU am I (smp_processor_id()), the round-up
 * (an NMI to every other CPU, as Linux's kgdb_roundup_cpus() on x86; the
 * NMI handler is ekdb_linux_nmi(), traps.c), cpu_init() clearing a CPU's
 * debug registers (linux/patches/0021: the boot CPU's in trap_init(), a
 * secondary CPU's as it comes up: ekdb loads its hardware breakpoints and
 * watchpoints again, and a new CPU is stopped with the others from then
 * on), and kdb's per_cpu (Linux's __per_cpu_offset).
 */
#include <linux/cpumask.h>
#include <linux/ekdb.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>

#include <ekdb/ekdb.h>
#include <ekdb/errno.h>

#include "glue.h"

/* The stop path asks this before anything else. */
static __ekdb_linux_nobp unsigned int ekdb_linux_cpu_id(void)
{
	return raw_smp_processor_id();
}
NOKPROBE_SYMBOL(ekdb_linux_cpu_id);

/*
 * The CPUs ekdb stops: the boot CPU and each one that came up since
 * (ekdb_linux_cpu_online()), whether or not Linux has put it into
 * cpu_online_mask yet: a CPU stopped in start_secondary() before
 * set_cpu_online() must still round up the boot CPU, which waits for it.
 */
static struct cpumask ekdb_linux_cpus;

/* NMI the others, one by one (no shorthand: a CPU Linux has not started keeps still). */
static __ekdb_linux_nobp bool ekdb_linux_roundup(void)
{
	apic->send_IPI_mask_allbutself(&ekdb_linux_cpus, NMI_VECTOR);
	return true;
}
NOKPROBE_SYMBOL(ekdb_linux_roundup);

/* kdb's per_cpu: where CPU @cpu's copy of a per-CPU variable is from its symbol. */
__ekdb_linux_nobp int ekdb_linux_percpu_offset(unsigned int cpu, u64 *offset)
{
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EKDB_ENOENT;
	*offset = per_cpu_offset(cpu);
	return 0;
}
NOKPROBE_SYMBOL(ekdb_linux_percpu_offset);

void __init ekdb_linux_smp_init(void)
{
	cpumask_set_cpu(raw_smp_processor_id(), &ekdb_linux_cpus);
	ekdb_set_cpu_id_fn(ekdb_linux_cpu_id);
	ekdb_set_roundup_fn(ekdb_linux_roundup);
	if (register_nmi_handler(NMI_LOCAL, ekdb_linux_nmi, 0, "ekdb") ||
	    register_nmi_handler(NMI_UNKNOWN, ekdb_linux_nmi, 0, "ekdb"))
		pr_warn("ekdb: no NMI handler: other CPUs are not stopped with the one in ekdb\n");
}

/*
 * cpu_init(), right after it cleared the debug registers (kgdb puts its
 * own back there too): on the boot CPU in trap_init(), on a secondary
 * CPU as it comes up, its IDT loaded.
 */
void ekdb_linux_cpu_online(unsigned int cpu)
{
	if (!ekdb_linux_started)
		return;
	ekdb_linux_nobp_apic();	/* before the round-up can reach this CPU */
	cpumask_set_cpu(cpu, &ekdb_linux_cpus);
	ekdb_cpu_online(cpu);
}
