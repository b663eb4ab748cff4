/* SPDX-License-Identifier: GPL-2.0 */
/* apic.h - the local APIC: enable, EOI, IPIs (INIT, SIPI, fixed, NMI) and its timer. */
#ifndef KERNEL_APIC_H
#define KERNEL_APIC_H

#include <ekdb/types.h>

#define LOCAL_TIMER_VECTOR	0xec	/* periodic local APIC timer, HZ per second */
#define RESCHEDULE_VECTOR	0xfd	/* "look at the run queue" IPI */
#define SPURIOUS_APIC_VECTOR	0xff	/* SVR vector; never needs an EOI */

/**
 * apic_init() - boot CPU: map the local APIC, mask the 8259 PICs, enable
 * the APIC and install the spurious and timer handlers.
 *
 * Called from time_init().  Returns false when there is no usable local
 * APIC (then there is no timer and no SMP).
 */
bool apic_init(void);

/** apic_setup_cpu() - enable this CPU's local APIC (SVR, TPR, LVTs). */
void apic_setup_cpu(void);

/** apic_available() - true once apic_init() succeeded. */
bool apic_available(void);

/** apic_id() - the local APIC id of the calling CPU. */
u32 apic_id(void);

/** apic_eoi() - signal end of interrupt to the local APIC. */
void apic_eoi(void);

/**
 * apic_send_init() / apic_send_sipi() - the AP start-up IPIs.
 * @apic_id: target
 * @vector: SIPI start page (physical address >> 12)
 * Return: false if the previous IPI never left the ICR (bounded wait).
 */
bool apic_send_init(u32 apic_id);
bool apic_send_sipi(u32 apic_id, u8 vector);

/**
 * apic_send_ipi() - fixed-delivery interrupt @vector to @apic_id.
 * Return: false if the ICR stayed busy.
 */
bool apic_send_ipi(u32 apic_id, u8 vector);

/**
 * apic_send_nmi() - send an NMI to one CPU (the debugger's roundup).
 * @apic_id: the target's local APIC id (percpu_area[n].apic_id)
 *
 * Callable with interrupts off and from exception context.
 * Return: false if the ICR stayed busy.
 */
bool apic_send_nmi(u32 apic_id);

/**
 * apic_send_nmi_allbutself() - NMI to every other CPU (ICR shorthand).
 *
 * CPUs that are not online (never started) ignore it.
 * Return: false if the ICR stayed busy.
 */
bool apic_send_nmi_allbutself(void);

/**
 * apic_timer_calibrate() - measure the APIC timer (and TSC) against the
 * 8254 PIT.  Boot CPU, interrupts off.  Return: timer Hz at divide-by-16.
 */
u64 apic_timer_calibrate(void);

/** apic_timer_start() - start this CPU's periodic timer at HZ on LOCAL_TIMER_VECTOR. */
void apic_timer_start(void);

/** apic_timer_stop() - mask this CPU's timer. */
void apic_timer_stop(void);

/* Calibration results (0 until apic_timer_calibrate()). */
extern u64 apic_timer_hz;	/* timer input clock after the /16 divider */
extern u64 tsc_khz;		/* TSC frequency */

#endif /* KERNEL_APIC_H */
