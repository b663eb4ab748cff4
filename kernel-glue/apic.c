/* SPDX-License-Identifier: GPL-2.0 */
/*
 * apic.c - the local APIC (xAPIC, memory mapped through the direct map):
 * enable, EOI, IPIs including the NMI the debugger rounds CPUs up with,
 * the 8259 PICs masked, and the timer calibrated against the 8254 PIT.
 * Register layout: Intel SDM vol. 3, 11.4.1 (table 11-1).
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/acpi.h>
#include <kernel/apic.h>
#include <ekdb/ekdb.h>
#include <kernel/time.h>
#include <asm/desc.h>
#include <asm/io.h>
#include <asm/processor.h>

/* Local APIC registers (offsets from the base) */
#define APIC_ID		0x020
#define APIC_VERSION	0x030
#define APIC_TPR	0x080
#define APIC_EOI	0x0b0
#define APIC_SVR	0x0f0
#define APIC_ESR	0x280
#define APIC_ICR_LOW	0x300
#define APIC_ICR_HIGH	0x310
#define APIC_LVT_TIMER	0x320
#define APIC_LVT_LINT0	0x350
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370
#define APIC_TIMER_INIT	0x380
#define APIC_TIMER_CUR	0x390
#define APIC_TIMER_DIV	0x3e0

#define APIC_SVR_ENABLE		(1u << 8)
#define APIC_LVT_MASKED		(1u << 16)
#define APIC_TIMER_PERIODIC	(1u << 17)
#define APIC_TIMER_DIV_16	0x3
#define APIC_BASE_MSR_ENABLE	(1ULL << 11)
#define APIC_BASE_MSR_ADDR	0x0000000ffffff000ULL

/* ICR (SDM vol. 3, 11.6.1) */
#define ICR_FIXED		0x000
#define ICR_NMI			0x400
#define ICR_INIT		0x500
#define ICR_STARTUP		0x600
#define ICR_BUSY		(1u << 12)
#define ICR_LEVEL_ASSERT	(1u << 14)
#define ICR_ALLBUTSELF		(3u << 18)

#define ICR_WAIT_LOOPS		1000000	/* ~ms on hardware; the ICR is idle in QEMU */

/* 8254 PIT and port 0x61 (channel 2 gate, OUT2 readback) */
#define PIT_HZ			1193182UL
#define PIT_CH2			0x42
#define PIT_MODE		0x43
#define PORT_61			0x61
#define CALIBRATE_MS		50
#define CALIBRATE_LATCH		(PIT_HZ * CALIBRATE_MS / 1000)	/* 59659 < 65536 */
#define CALIBRATE_LOOPS		50000000UL	/* give up on a PIT that never ends */
#define CALIBRATE_RUNS		3
#define FALLBACK_TIMER_HZ	(1000000000UL / 16)	/* QEMU's 1 GHz APIC clock /16 */

u64 apic_timer_hz;
u64 tsc_khz;
static volatile u8 *apic_base;
static u32 apic_period;		/* timer initial count for one tick */

static inline u32 apic_read(u32 reg)
{
	return readl(apic_base + reg);
}

static inline void apic_write(u32 reg, u32 v)
{
	writel(v, apic_base + reg);
}

bool apic_available(void)
{
	return apic_base != NULL;
}

u32 apic_id(void)
{
	if (!apic_base) {
		u32 a, b, c, d;

		cpuid(1, 0, &a, &b, &c, &d);
		return b >> 24;
	}
	return apic_read(APIC_ID) >> 24;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

static __ekdb_nobp bool icr_wait_idle(void)
{
	for (unsigned long i = 0; i < ICR_WAIT_LOOPS; i++) {
		if (!(apic_read(APIC_ICR_LOW) & ICR_BUSY))
			return true;
		cpu_relax();
	}
	return false;
}

/* Write the ICR (destination first; the low write sends) with interrupts off. */
static __ekdb_nobp bool apic_icr_write(u32 dest, u32 low)
{
	u64 flags;
	bool ok;

	if (!apic_base)
		return false;
	flags = local_irq_save();
	ok = icr_wait_idle();
	if (ok) {
		apic_write(APIC_ICR_HIGH, dest << 24);
		apic_write(APIC_ICR_LOW, low);
		ok = icr_wait_idle();
	}
	local_irq_restore(flags);
	return ok;
}

bool apic_send_init(u32 id)
{
	return apic_icr_write(id, ICR_INIT | ICR_LEVEL_ASSERT);
}

bool apic_send_sipi(u32 id, u8 vector)
{
	return apic_icr_write(id, ICR_STARTUP | ICR_LEVEL_ASSERT | vector);
}

__ekdb_nobp bool apic_send_ipi(u32 id, u8 vector)
{
	return apic_icr_write(id, ICR_FIXED | ICR_LEVEL_ASSERT | vector);
}

bool apic_send_nmi(u32 id)
{
	return apic_icr_write(id, ICR_NMI | ICR_LEVEL_ASSERT);
}

/* The debugger's round-up (its stop path, breakpoints still armed). */
__ekdb_nobp bool apic_send_nmi_allbutself(void)
{
	return apic_icr_write(0, ICR_NMI | ICR_LEVEL_ASSERT | ICR_ALLBUTSELF);
}

/* The 8259s are never used: mask every line (OCW1) so none can fire. */
static void mask_8259(void)
{
	outb(0xa1, 0xff);
	outb(0x21, 0xff);
}

void apic_setup_cpu(void)
{
	u64 msr = rdmsr(MSR_IA32_APIC_BASE);

	if (!(msr & APIC_BASE_MSR_ENABLE))
		wrmsr(MSR_IA32_APIC_BASE, msr | APIC_BASE_MSR_ENABLE);
	apic_write(APIC_TPR, 0);			/* accept every priority */
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);	/* no ExtINT from the 8259 */
	apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED | 0xfe);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_APIC_VECTOR);
	apic_eoi();					/* drop anything the firmware left in service */
}

/* Spurious interrupts get no EOI (SDM vol. 3, 11.9). */
static bool spurious_interrupt(struct pt_regs *regs)
{
	return true;
}

/* Reschedule IPI: waking from hlt is all it is for; the idle loop looks at the queue. */
static bool reschedule_interrupt(struct pt_regs *regs)
{
	apic_eoi();
	return true;
}

bool apic_init(void)
{
	u64 msr = rdmsr(MSR_IA32_APIC_BASE);
	u64 phys = msr & APIC_BASE_MSR_ADDR;
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(d & (1u << 9))) {
		pr_warn("apic: this CPU has no local APIC: no timer, one CPU\n");
		return false;
	}
	if (acpi_info.found && acpi_info.lapic_base && acpi_info.lapic_base != phys)
		pr_warn("apic: MADT says local APIC at 0x%llx, MSR says 0x%llx: using the MSR\n",
			(unsigned long long)acpi_info.lapic_base, (unsigned long long)phys);
	mask_8259();
	apic_base = __va(phys);
	x86_set_trap_handler(SPURIOUS_APIC_VECTOR, spurious_interrupt);
	x86_set_trap_handler(RESCHEDULE_VECTOR, reschedule_interrupt);
	x86_set_trap_handler(LOCAL_TIMER_VECTOR, timer_interrupt);
	apic_setup_cpu();
	pr_info("apic: local APIC at 0x%llx, id %u, version 0x%x; 8259 PICs masked\n",
		(unsigned long long)phys, apic_id(), apic_read(APIC_VERSION) & 0xff);
	return true;
}

/*
 * Count the APIC timer (and the TSC) over CALIBRATE_MS of PIT channel 2 in
 * mode 0: OUT2 (port 0x61 bit 5) goes high when the count reaches zero.
 * The speaker stays off (bit 1 clear); the gate (bit 0) starts the count.
 * Returns false if OUT2 never rose (no PIT).
 */
static bool pit_measure(u64 *apic_counts, u64 *tsc_cycles)
{
	unsigned long loops = 0;
	u64 t0, t1;
	u8 p61;

	p61 = inb(PORT_61);
	outb(PORT_61, (p61 & ~0x02) | 0x01);
	outb(PIT_MODE, 0xb0);			/* channel 2, lo/hi byte, mode 0, binary */
	outb(PIT_CH2, CALIBRATE_LATCH & 0xff);
	outb(PIT_CH2, CALIBRATE_LATCH >> 8);
	apic_write(APIC_TIMER_INIT, 0xffffffff);
	t0 = rdtsc();
	while (!(inb(PORT_61) & 0x20) && ++loops < CALIBRATE_LOOPS)
		cpu_relax();
	t1 = rdtsc();
	*apic_counts = 0xffffffffULL - apic_read(APIC_TIMER_CUR);
	*tsc_cycles = t1 - t0;
	apic_write(APIC_TIMER_INIT, 0);
	outb(PORT_61, p61);
	return loops < CALIBRATE_LOOPS && *apic_counts;
}

u64 apic_timer_calibrate(void)
{
	u64 best_apic = ~0ULL, best_tsc = ~0ULL;

	if (!apic_base)
		return 0;
	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	/* Delays (SMIs, a descheduled vCPU) only lengthen a run: keep the shortest. */
	for (int i = 0; i < CALIBRATE_RUNS; i++) {
		u64 a, t;

		if (!pit_measure(&a, &t)) {
			best_apic = ~0ULL;
			break;
		}
		best_apic = MIN(best_apic, a);
		best_tsc = MIN(best_tsc, t);
	}
	if (best_apic == ~0ULL) {
		pr_warn("apic: PIT channel 2 did not count down: assuming a %lu Hz timer\n",
			FALLBACK_TIMER_HZ);
		apic_timer_hz = FALLBACK_TIMER_HZ;
		tsc_khz = 0;
	} else {
		apic_timer_hz = best_apic * 1000 / CALIBRATE_MS;
		tsc_khz = best_tsc / CALIBRATE_MS;
	}
	apic_period = (u32)(apic_timer_hz / HZ);
	if (!apic_period)
		apic_period = 1;
	return apic_timer_hz;
}

void apic_timer_start(void)
{
	if (!apic_base || !apic_period)
		return;
	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	apic_write(APIC_LVT_TIMER, APIC_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, apic_period);
}

void apic_timer_stop(void)
{
	if (!apic_base)
		return;
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TIMER_INIT, 0);
}
