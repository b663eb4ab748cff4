/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ldr_dbg.h - the debugger in the UEFI loader (the loader lifetime), as
 * boot/ calls it.  No UEFI types: boot/debugger.c does the UEFI side.
 *
 *   ldr_dbg_start()    after the command line: transport (the 16550 of
 *                      ekgdboc=), the loader's IDT over the firmware's, the
 *                      debug core with kdb and gdb.  From here a fault or a
 *                      breakpoint in the loader enters the debugger.
 *   ldr_dbg_wait()     ekdb.loader=wait: stop (kgdb_breakpoint) once the
 *                      kernel is placed and the boot-info record is built.
 *   ldr_dbg_release()  a failed boot goes back to the firmware: its IDT back.
 *
 * Where the kernel is comes from one place only: the boot-info record's
 * kernel_phys / kernel_virt / kernel_size (read at each access, so a
 * randomized base set there later is followed).
 */
#ifndef BOOT_DBG_LDR_DBG_H
#define BOOT_DBG_LDR_DBG_H

#include <stdint.h>
#include "opts.h"

struct ekdb_bootinfo;

/* The loader image as UEFI loaded it (LoadedImage->ImageBase / ImageSize). */
struct ldr_dbg_image {
	uint64_t base;
	uint64_t size;
};

/* 0, or a negative EKDB_E* code (the message for it: ekdb_strerror()). */
int ldr_dbg_start(const struct ldr_dbg_opts *o, const struct ldr_dbg_image *img,
		  const struct ekdb_bootinfo *bi);
/* The kernel ELF file, once the image is placed: kdb's symbols come from its kallsyms table. */
void ldr_dbg_kernel_file(const void *file, uint64_t size);
void ldr_dbg_wait(void);
void ldr_dbg_release(void);
/*
 * ldr_dbg_handoff - after ExitBootServices, right before the jump: the debugger
 * state into @bi->dbg for the kernel (core/handoff.c).  0 or -EKDB_E*.
 */
int ldr_dbg_handoff(struct ekdb_bootinfo *bi);
/* A short text for ldr_dbg_start's error code. */
const char *ldr_dbg_strerror(int err);
/* Is the loader debugger armed (started and not released)? */
int ldr_dbg_armed(void);

#endif
