# SPDX-License-Identifier: GPL-2.0
test_hid_kbd_SRCS := earlyio/xhci-kbd/hid_kbd.c earlyio/kbd/scancode.c
