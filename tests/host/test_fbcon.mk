# SPDX-License-Identifier: GPL-2.0
# The renderer draws with the generated font: vga.mk makes it (and links it
# into the kernel too).
include io/vga/vga.mk
test_fbcon_SRCS := io/vga/fbcon.c io/vga/textgrid.c $(FONT_C)
