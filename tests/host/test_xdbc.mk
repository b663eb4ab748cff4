# SPDX-License-Identifier: GPL-2.0
test_xdbc_SRCS := earlyio/xhci/xhci_ring.c earlyio/xhci-dbc/xdbc_dev.c
