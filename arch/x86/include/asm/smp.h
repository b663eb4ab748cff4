/* SPDX-License-Identifier: GPL-2.0 */
/* smp.h - CPU count limit shared by every per-CPU array. */
#ifndef ASM_X86_SMP_H
#define ASM_X86_SMP_H

/* Most CPUs the kernel and the debugger handle; raise it to support more. */
#define NR_CPUS 16

#endif
