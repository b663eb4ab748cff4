# SPDX-License-Identifier: GPL-2.0
test_usb_desc_SRCS := io/xhci-kbd/usb_desc.c
