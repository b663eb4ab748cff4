/* SPDX-License-Identifier: GPL-2.0 */
/* tsc_early.h - a microsecond clock usable before the timers are set up. */
#ifndef ASM_X86_TSC_EARLY_H
#define ASM_X86_TSC_EARLY_H

#include <ekdb/types.h>

/* TSC kHz, calibrated against the PIT on first use (then cached); 0 if it failed. */
u64 early_tsc_khz(void);
/* Microseconds since an arbitrary origin (the TSC through the calibration). */
u64 early_now_us(void);

#endif
