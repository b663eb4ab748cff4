/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vga.h - the screen device, public side: what the running kernel's kms
 * console (kernel-glue/drivers/kms_console.c) and its tests may use of the
 * debugger's screen console.  Nothing else under io/vga/ is theirs (make
 * check-layers).
 *
 *   vga_console.h  the early screen console (GOP framebuffer or VGA text):
 *                  its grid of text, handed over to a successor
 *   fbcon.h        drawing a text grid on a framebuffer (the kms console's too)
 *   font.h         the bitmap font both draw with
 */
#ifndef IO_VGA_VGA_H
#define IO_VGA_VGA_H

#include "vga_console.h"
#include "fbcon.h"
#include "font.h"

#endif
