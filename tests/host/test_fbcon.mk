# SPDX-License-Identifier: GPL-2.0
# The renderer draws with the generated font: vga.mk makes it (and links it
# into the kernel too).
include earlyio/vga/vga.mk
test_fbcon_SRCS := earlyio/vga/fbcon.c earlyio/vga/textgrid.c $(FONT_C)
