# SPDX-License-Identifier: GPL-2.0
test_dbgp_SRCS := io/ehci-dbgp/dbgp_xfer.c io/ehci-dbgp/dbgp_port.c \
                  tests/host/dbgp_mock.c
