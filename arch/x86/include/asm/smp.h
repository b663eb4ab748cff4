/* SPDX-License-Identifier: GPL-2.0 */
/* smp.h - CPU count limit shared by every per-CPU array: NR_CPUS, <ekdb/arch.h>. */
#ifndef ASM_X86_SMP_H
#define ASM_X86_SMP_H

#include <ekdb/arch.h>

#endif
