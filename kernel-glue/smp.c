/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smp.c - per-CPU data and AP bring-up: each enabled MADT CPU is started
 * with INIT-SIPI-SIPI (Intel SDM vol. 3, 9.4.4.1) through trampoline.S,
 * one at a time, with a bounded wait for each.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/acpi.h>
#include <kernel/apic.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <ekdb/string.h>
#include <ekdb/ekdb.h>

#define INIT_DEASSERT_MS	10	/* INIT -> first SIPI */
#define SIPI_DELAY_US		200	/* between the two SIPIs */
#define AP_ONLINE_TIMEOUT_MS	2000	/* TCG with several vCPUs can be slow */

struct percpu percpu_area[NR_CPUS];
bool percpu_ready;
unsigned int nr_cpu_ids = 1;

/* Mirrors trampoline_data in trampoline.S. */
struct trampoline_data {
	u64 gdt[4];
	u16 gdtr_limit;
	u32 gdtr_base;
	u16 pad0;
	u32 jmp32_offset;
	u16 jmp32_cs;
	u16 pad1;
	u32 jmp64_offset;
	u16 jmp64_cs;
	u16 pad2;
	u32 cr3;
	u32 pad3;
	u64 stack;		/* top of the AP's idle stack */
	u64 entry;		/* smp_ap_start */
	u64 cpu;		/* its logical number (first argument) */
	u64 gs_base;		/* &percpu_area[cpu] */
} __packed;

_Static_assert(sizeof(struct trampoline_data) == 96, "trampoline.S layout");
_Static_assert(offsetof(struct trampoline_data, stack) == 64, "trampoline.S layout");

extern const char trampoline_start[], trampoline_end[], trampoline_data[];
extern const char trampoline_protected[], trampoline_long[];

static volatile bool smp_boot_done;

/* An AP runs this before its IDT is loaded: no breakpoint may be here. */
__ekdb_nobp void percpu_init_cpu(unsigned int cpu)
{
	struct percpu *pc = &percpu_area[cpu];

	pc->self = pc;
	pc->cpu = cpu;
	wrmsr(MSR_GS_BASE, (u64)pc);
}

/* The debugger's stop path calls this before it takes breakpoints out. */
static __ekdb_nobp unsigned debugger_cpu_id(void)
{
	return smp_processor_id();
}

void percpu_init_boot_cpu(void)
{
	struct percpu *pc = &percpu_area[0];

	percpu_init_cpu(0);
	pc->apic_id = apic_id();	/* from CPUID: the APIC is not mapped yet */
	pc->curr_task = &init_task;
	pc->idle_task = &init_task;
	pc->slice = SCHED_SLICE_TICKS;
	pc->online = true;
	__atomic_store_n(&percpu_ready, true, __ATOMIC_RELEASE);
	ekdb_set_cpu_id_fn(debugger_cpu_id);
	ekdb_set_roundup_fn(apic_send_nmi_allbutself);
}

int smp_apic_to_cpu(u32 id)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (percpu_area[cpu].apic_id == id && percpu_area[cpu].idle_task)
			return (int)cpu;
	return -1;
}

/* An AP, once it can take traps (breakpoints here work: CPU#n stops). */
static void __noreturn __noinline smp_ap_online(unsigned int cpu)
{
	struct percpu *pc = &percpu_area[cpu];

	apic_setup_cpu();
	pc->apic_id = apic_id();
	pc->slice = SCHED_SLICE_TICKS;
	pc->jiffies_seen = jiffies;
	apic_timer_start();
	pr_info("smp: CPU %u (APIC id %u) online\n", cpu, pc->apic_id);
	__atomic_store_n(&pc->online, true, __ATOMIC_RELEASE);

	/* The boot CPU removes the identity map once every AP is up. */
	while (!READ_ONCE(smp_boot_done))
		cpu_relax();
	write_cr3(read_cr3());		/* forget its TLB entries too */
	cpu_idle_loop();
}

/*
 * The first C an AP runs, on its idle stack, GS base already set.  Until
 * x86_idt_load() an int3 or #DB here is a triple fault, so this part is
 * __ekdb_nobp: the debugger refuses breakpoints in it.
 */
static void __noreturn __ekdb_nobp smp_ap_start(u64 cpu_arg)
{
	unsigned int cpu = (unsigned int)cpu_arg;

	x86_gdt_init_cpu(cpu);		/* reloads %gs: write the GS base again */
	percpu_init_cpu(cpu);
	x86_idt_load();
	/*
	 * The debugger's armed set on this CPU, and the CPU a thread of the
	 * debugger, as soon as it can take #DB and NMI: every store of the
	 * kernel code after this line (its own percpu_area[cpu].apic_id
	 * included) is seen by a watchpoint.  Before it only the GDT, the GS
	 * base and percpu_init_cpu's self/cpu fields are written (issue 19).
	 */
	ekdb_cpu_online(cpu);
	smp_ap_online(cpu);
}

static struct trampoline_data *trampoline_setup(u64 page)
{
	size_t size = (size_t)(trampoline_end - trampoline_start);
	u64 data_off = (u64)(trampoline_data - trampoline_start);
	struct trampoline_data *td;

	if (size > PAGE_SIZE)
		panic("smp: trampoline is %zu bytes, more than a page", size);
	memcpy(__va(page), trampoline_start, size);
	td = (struct trampoline_data *)((u8 *)__va(page) + data_off);
	td->gdtr_limit = sizeof(td->gdt) - 1;
	td->gdtr_base = (u32)(page + data_off + offsetof(struct trampoline_data, gdt));
	td->jmp32_offset = (u32)(page + (u64)(trampoline_protected - trampoline_start));
	td->jmp32_cs = 0x08;
	td->jmp64_offset = (u32)(page + (u64)(trampoline_long - trampoline_start));
	td->jmp64_cs = 0x18;
	td->cr3 = (u32)read_cr3();
	td->entry = (u64)smp_ap_start;
	return td;
}

static bool wait_online(unsigned int cpu, unsigned int ms)
{
	for (unsigned int i = 0; i < ms * 10; i++) {
		if (__atomic_load_n(&percpu_area[cpu].online, __ATOMIC_ACQUIRE))
			return true;
		udelay(100);
	}
	return false;
}

static bool start_cpu(unsigned int cpu, u32 id, struct trampoline_data *td, u64 page)
{
	struct percpu *pc = &percpu_area[cpu];
	struct task_struct *idle = sched_create_idle(cpu);
	bool up = false;

	if (!idle) {
		pr_err("smp: no memory for CPU %u's idle task: skipped\n", cpu);
		return false;
	}
	pc->self = pc;
	pc->cpu = cpu;
	pc->apic_id = id;
	pc->idle_task = idle;
	pc->curr_task = idle;
	pc->online = false;
	td->stack = (u64)idle->stack + idle->stack_size;
	td->cpu = cpu;
	td->gs_base = (u64)pc;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	if (!apic_send_init(id))
		pr_warn("smp: INIT IPI to APIC id %u stuck in the ICR\n", id);
	mdelay(INIT_DEASSERT_MS);
	for (int i = 0; i < 2 && !up; i++) {
		apic_send_sipi(id, (u8)(page >> 12));
		udelay(SIPI_DELAY_US);
		up = READ_ONCE(pc->online);
	}
	if (!up)
		up = wait_online(cpu, AP_ONLINE_TIMEOUT_MS);
	if (up)
		return true;

	/* Park it (a late start would find the next CPU's stack) and move on. */
	apic_send_init(id);
	pr_err("smp: CPU %u (APIC id %u) did not come up within %u ms: skipped\n",
	       cpu, id, AP_ONLINE_TIMEOUT_MS);
	idle->state = TASK_DEAD;
	pc->idle_task = NULL;
	pc->curr_task = NULL;
	return false;
}

void smp_init(void)
{
	u32 boot_id = apic_id();
	u64 page = boot_params.trampoline_phys;
	struct trampoline_data *td;
	unsigned int next = 1, n;

	percpu_area[0].apic_id = boot_id;
	if (!acpi_info.found || acpi_info.cpu_count <= 1) {
		pr_info("smp: the MADT lists %u CPU(s): nothing to start\n", acpi_info.cpu_count);
		goto out;
	}
	if (!apic_available()) {
		pr_warn("smp: no local APIC: staying on one CPU\n");
		goto out;
	}
	if (!page || page >= SZ_1M || (page & (PAGE_SIZE - 1))) {
		pr_warn("smp: the loader reserved no AP trampoline page below 1 MiB (0x%llx): staying on one CPU\n",
			(unsigned long long)page);
		goto out;
	}
	if (read_cr3() >> 32) {
		pr_warn("smp: kernel page tables above 4 GiB: staying on one CPU\n");
		goto out;
	}
	td = trampoline_setup(page);
	paging_map_low_identity(true);
	for (unsigned int i = 0; i < acpi_info.cpu_count; i++) {
		u32 id = acpi_info.cpus[i].apic_id;

		if (id == boot_id || !acpi_info.cpus[i].enabled)
			continue;
		if (next >= NR_CPUS) {
			pr_warn("smp: more CPUs than NR_CPUS=%d: APIC id %u and later ignored\n",
				NR_CPUS, id);
			break;
		}
		if (start_cpu(next, id, td, page))
			next++;
	}
	nr_cpu_ids = next;
	WRITE_ONCE(smp_boot_done, true);
	paging_map_low_identity(false);
out:
	WRITE_ONCE(smp_boot_done, true);
	n = num_online_cpus();
	pr_info("smp: Brought up 1 node, %u CPU%s\n", n, n == 1 ? "" : "s");
}
