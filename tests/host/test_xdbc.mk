# SPDX-License-Identifier: GPL-2.0
test_xdbc_SRCS := io/xhci/xhci_ring.c io/xhci-dbc/xdbc_dev.c
