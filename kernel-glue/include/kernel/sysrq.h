/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysrq.h - Linux's magic SysRq keys (kernel-glue/sysrq.c): a keyboard
 * driver calls handle_sysrq() for the key pressed with Alt+SysRq held.
 *   g  enter the debugger (kgdb/kdb: "Keyboard Entry")
 *   h  list the keys
 *   t  the tasks and their states
 *   b  reboot at once
 */
#ifndef KERNEL_SYSRQ_H
#define KERNEL_SYSRQ_H

#include <ekdb/types.h>

struct pt_regs;

/* @regs: the interrupted context (the debugger shows it).  Interrupt context. */
void handle_sysrq(char key, struct pt_regs *regs);
/* A write to /proc/sysrq-trigger (Linux's rules: first byte, or each after '_').  Process context. */
void write_sysrq_trigger(const char *buf, size_t len);

#endif
