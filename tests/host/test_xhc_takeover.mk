# SPDX-License-Identifier: GPL-2.0
test_xhc_takeover_SRCS := io/xhci/xhci_ring.c io/xhci-kbd/xhc.c io/xhci-kbd/xhc_dev.c io/xhci-kbd/xhc_hub.c \
                 io/xhci-kbd/xhc_poll.c io/xhci-kbd/usbkbd_takeover.c io/xhci-kbd/hid_kbd.c \
                 io/xhci-kbd/usb_desc.c io/kbd/scancode.c tests/host/xhci_mock.c tests/host/host_log.c \
                 lib/errno.c core/port.c
