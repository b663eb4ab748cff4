# SPDX-License-Identifier: GPL-2.0
test_hid_kbd_SRCS := io/xhci-kbd/hid_kbd.c io/kbd/scancode.c
