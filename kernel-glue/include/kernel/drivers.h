/* SPDX-License-Identifier: GPL-2.0 */
/* drivers.h - the reference kernel's device drivers (kernel-glue/drivers/), in start order. */
#ifndef KERNEL_DRIVERS_H
#define KERNEL_DRIVERS_H

/* bochs_kms.c: QEMU's std VGA takes the screen (after the debugger's handoff). */
void bochs_kms_init(void);
/* fbdraw.c: test_fbdraw[=MS]: a kernel thread draws a moving pattern on the kms screen. */
void fbdraw_start(void);

#endif
