/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/glue/: Linux's side of ekdb's port (docs/porting.md, docs/linux.md).
 * These files are compiled by Linux's Kbuild with Linux's headers and flags
 * (linux/ekdb.kbuild), unlike the debugger's own folders; they include
 * ekdb's public headers only.  One job per file:
 *   port.c    the services ekdb asks of Linux (struct ekdb_port_ops)
 *   params.c  ekdb.<name>= on the command line, and the start in setup_arch()
 *   traps.c   int3, #DB and fault fixups handed to ekdb first
 *   io.c      the screen, memory Linux has not mapped, device registers
 *   text.c    where software breakpoints may go (.text, .init.text)
 */
#ifndef EKDB_LINUX_GLUE_H
#define EKDB_LINUX_GLUE_H

#include <linux/types.h>

struct ekdb_port_ops;

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

#endif /* EKDB_LINUX_GLUE_H */
