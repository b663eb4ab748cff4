/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_poke.h - write into read-only kernel text (int3 patching).
 *
 * The kernel text is mapped read-only.  arch_dbg_text_poke() opens a short
 * CR0.WP window: with interrupts off on this CPU, WP is cleared so the
 * supervisor may write through the read-only mapping, the bytes are
 * written with the fault-safe accessor, and WP is restored.  The window
 * covers only the write itself.  (A writable alias would be the choice on
 * a machine with many CPUs running; here the other CPUs are stopped by
 * the debugger while it patches.)
 */
#ifndef ASM_X86_TEXT_POKE_H
#define ASM_X86_TEXT_POKE_H

#include <ekdb/arch.h>	/* arch_dbg_text_poke() */

#endif
