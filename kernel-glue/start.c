/* SPDX-License-Identifier: GPL-2.0 */
/*
 * start.c - start_kernel(): the boot order, one call per stage, named as
 * in Linux: setup_arch -> trap_init -> mm_init -> sched_init ->
 * time_init -> smp_init -> rest_init.
 */
#include <kernel/kernel.h>
#include <kernel/drivers.h>
#include <kernel/console.h>
#include "drivers/serial8250.h"
#include "drivers/i8042_kbd.h"
#include <kernel/irq.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/percpu.h>
#include <kernel/pseudofs.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <asm/desc.h>
#include <ekdb/ekdb.h>
#include <ekdb/ekdbts.h>

/*
 * start_kernel - called by x86_64_start_kernel() (head64.c) with the GDT,
 * IDT, per-CPU data and the debugger (when the loader handed one over) in
 * place: a breakpoint here fires.
 */
void start_kernel(u64 bootinfo_phys)
{
	setup_arch(bootinfo_phys);
	trap_init();
	mm_init();
	mm_kdb_init();			/* the allocator's kdb command (meminfo) */
	ehci_dbgp_init();		/* the USB debug port's late driver (queued for the handoff) */
	xhci_dbc_init();		/* the xHCI DbC's late driver (queued for the handoff) */
	ekdb_late_init();		/* the handoff: the full debug core takes over */
	xhci_dbc_handoff_done();	/* ...and what that did to the DbC */
	run_mm_selftest();		/* test_alloc: before anything else allocates */
	bochs_kms_init();		/* the kms display takes the screen and the console */
	sched_init();			/* tasks, run queue; we are swapper/0 */
	time_init();			/* local APIC, calibrated HZ tick */
	irq_init();			/* I/O APIC: ISA IRQs -> CPU 0, request_irq() */
	smp_init();			/* the other CPUs, each in its idle loop */
	rest_init();
}

/*
 * kernel_init - pid 1: starts the kernel's threads, runs the boot-time
 * tests asked for on the command line (so an oops there happens in a
 * kernel thread), prints "boot complete" and ends.
 */
static int kernel_init(void *unused)
{
	serial8250_init();		/* IRQ-driven ttySn: console input, kgdboc */
	i8042_kbd_init();		/* IRQ-driven PS/2 keyboard: console input, sysrq, kgdboc=kbd */
	ehci_hcd_init();		/* EHCI controllers: claimed, reset, running (debug port kept) */
	xhci_hcd_init();		/* xHCI controllers: claimed, reset, running (DbC enabled again) */
	kthreads_start();
	ekdbts_run_late();		/* ekdbts=: the debugger's self-test, every CPU up */
	run_boot_tests();
	pr_notice("boot complete: %u CPUs online\n", num_online_cpus());
	pseudofs_init();		/* /proc/sysrq-trigger, /sys/module/{kgdboc,kdb}/parameters */
	kconsole_start();		/* the console shell (kconsole=off: none) */
	if (cmdline_has("exit_after_boot"))
		qemu_exit(QEMU_EXIT_SUCCESS);
	return 0;
}

/**
 * rest_init - the end of boot: start kernel_init (pid 1), then the boot
 * context becomes CPU 0's idle task (swapper/0) with interrupts on.
 */
void rest_init(void)
{
	if (!kthread_run(kernel_init, NULL, "kernel_init"))
		panic("rest_init: cannot create kernel_init");
	cpu_idle_loop();
}
