/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdb.h - what the kernel calls to host the debugger.
 *
 *  ekdb_early_init()   in setup_arch(), right after parse_early_param():
 *                      brings up the transport named by ekgdboc=, takes
 *                      the debug vectors (#DB, #BP), stops if kgdbwait.
 *  ekdb_handle_die()   from the oops path before printing: the debugger
 *                      stops there first when it is enabled.
 *  ekdb_poll_break()   from a periodic tick: a Ctrl-C on a transport
 *                      breaks into the debugger.
 *  ekdb_cpu_online()   from SMP bring-up: the CPU becomes a thread.
 *  ekdb_set_roundup_fn() from SMP bring-up: how to send the round-up NMI.
 *  kgdb_breakpoint()   stop right here (kgdbwait, sysrq-g).
 */
#ifndef EKDB_EKDB_H
#define EKDB_EKDB_H

#include <ekdb/types.h>

struct x86_regs;
struct ekdb_task;
struct ekdb_module;
struct ekdb_sysinfo;

/*
 * What the debugger asks of the kernel it lives in (kdb ps/bt of tasks,
 * dmesg, mdp, lsmod, summary, reboot, sr).  Every member may be NULL:
 * kdb then says "Not available".  Called with the machine stopped: no
 * locks, no allocation, no sleeping.  Semantics as the ekdb_target ops of
 * the same names (include/ekdb/target.h).
 */
struct ekdb_kernel_ops {
	int (*task_get)(int index, struct ekdb_task *task);
	long (*log_read)(u64 pos, char *buf, size_t len);
	long (*phys_read)(u64 paddr, void *buf, size_t len);
	int (*mod_get)(int index, struct ekdb_module *mod);
	int (*sys_info)(struct ekdb_sysinfo *info);
	int (*reboot)(void);
	int (*sysrq)(char key);
	int (*percpu_offset)(unsigned cpu, u64 *offset);
	int (*task_signal)(int pid, int sig);
};

/* ekdb_set_kernel_ops - install the kernel's services (static storage; any time). */
void ekdb_set_kernel_ops(const struct ekdb_kernel_ops *ops);

void ekdb_early_init(void);
bool ekdb_enabled(void);
bool ekdb_handle_die(const char *what, struct x86_regs *regs);
bool ekdb_poll_break(struct x86_regs *regs);
void ekdb_cpu_online(unsigned cpu);
void ekdb_set_cpu_id_fn(unsigned (*fn)(void));
/* ekdb_set_roundup_fn - how to NMI every other CPU (the debugger stops them all). */
void ekdb_set_roundup_fn(bool (*fn)(void));
void kgdb_breakpoint(void);

#endif
