/* SPDX-License-Identifier: GPL-2.0 */
/* x86_idt.h - the loader's IDT over the firmware's (x86_idt.c). */
#ifndef BOOT_DBG_X86_IDT_H
#define BOOT_DBG_X86_IDT_H

#include <ekdb/types.h>

/* Copy the firmware's IDT, point the debugger's vectors at the entry stubs, load it. */
void ldr_idt_take(void);
/* Load the firmware's IDT again (a boot that fails returns to the firmware). */
void ldr_idt_give_back(void);
/* Does the loader's IDT route @vec to the debugger? */
bool ldr_idt_is_ours(unsigned vec);

#endif
