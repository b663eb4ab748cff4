/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/glue/: Linux's side of ekdb's port (docs/porting.md, docs/linux.md).
 * These files are compiled by Linux's Kbuild with Linux's headers and flags
 * (linux/ekdb.kbuild), unlike the debugger's own folders; they include
 * ekdb's public headers only.  One job per file:
 *   port.c    the services ekdb asks of Linux (struct ekdb_port_ops)
 *   params.c  ekdb.<name>= on the command line, and the start in setup_arch()
 *   traps.c   int3, #DB, NMI and fault fixups handed to ekdb first
 *   io.c      the screen, memory Linux has not mapped, device registers
 *   text.c    where software breakpoints may go (.text, .init.text)
 *   nobp.c    where no breakpoint may go: the glue's stop path, Linux's
 *             entry code, a secondary CPU before its IDT, the Linux
 *             functions the stop path calls
 *   smp.c     which CPU am I, the NMI round-up, CPUs (re)loading ekdb's DR7
 *   tasks.c   the task list for kdb's ps/btp (stopped.task_get)
 *   dmesg.c   Linux's printk ring for kdb's dmesg (stopped.log_read)
 *   handoff.c the handoff to Linux's kgdb/kdb: breakpoints, the line
 *   screen.c  the screen after the handoff: console ekdbfb, then fbcon
 *   kbd.c     the keyboard for Linux's kdb when kgdboc takes ekdb's line
 */
#ifndef EKDB_LINUX_GLUE_H
#define EKDB_LINUX_GLUE_H

#include <linux/compiler.h>
#include <linux/types.h>

struct ekdb_port_ops;
struct ekdb_task;
struct pt_regs;

/*
 * The glue's stop-path code (what ekdb runs while it holds the machine):
 * Linux's link puts it between __ekdb_nobp_text_start and
 * __ekdb_nobp_text_end (linux/patches/0020), where ekdb refuses
 * breakpoints (text.c), as it refuses them in its own code.
 */
#define __ekdb_linux_nobp	notrace __section(".text..ekdb_nobp")
extern char __ekdb_nobp_text_start[], __ekdb_nobp_text_end[];

/* port.c */
extern const struct ekdb_port_ops ekdb_linux_port;

/* io.c: port members (struct ekdb_port_ops .framebuffer, .map_io) */
struct ekdb_framebuffer;
const struct ekdb_framebuffer *ekdb_linux_framebuffer(void);
void *ekdb_linux_map_unmapped(u64 phys, u64 len);
void *ekdb_linux_map_io(u64 phys, u64 len);

/* text.c: struct ekdb_port_ops .text_addr */
bool ekdb_linux_text_addr(u64 addr);

/* traps.c: ekdb_early_init() ran, the traps go to ekdb first. */
extern bool ekdb_linux_started;
/* Linux's kdb draws on ekdb's screen after the handoff (console ekdbfb) */
extern bool ekdb_linux_screen_lent;
int ekdb_linux_nmi(unsigned int type, struct pt_regs *regs);

/* screen.c: Linux's kdb on ekdb's screen (ekdbfb), until fbcon takes it */
bool ekdb_linux_screen_handoff(void);
void ekdb_linux_screen_stop_begin(void);
void ekdb_linux_screen_stop_end(void);

/* smp.c, nobp.c: before ekdb_early_init() */
void ekdb_linux_smp_init(void);
void ekdb_linux_nobp_init(void);
/* nobp.c: the APIC functions the round-up calls, again as a CPU comes up */
void ekdb_linux_nobp_apic(void);

/* tasks.c, dmesg.c, smp.c: members of ekdb_linux_port.stopped */
int ekdb_linux_task_get(int index, struct ekdb_task *task);
long ekdb_linux_log_read(u64 pos, char *buf, size_t len);
int ekdb_linux_percpu_offset(unsigned int cpu, u64 *offset);

/* kbd.c: from the kgdb I/O driver ekdb's deinit (handoff.c) */
void ekdb_linux_kbd_handover(void);

#endif /* EKDB_LINUX_GLUE_H */
