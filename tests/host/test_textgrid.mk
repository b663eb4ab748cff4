# SPDX-License-Identifier: GPL-2.0
test_textgrid_SRCS := io/vga/textgrid.c
