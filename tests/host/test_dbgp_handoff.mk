# SPDX-License-Identifier: GPL-2.0
test_dbgp_handoff_SRCS := io/ehci-dbgp/dbgp_xfer.c io/ehci-dbgp/dbgp_port.c \
                          io/ehci-dbgp/dbgp_chan.c io/ehci-dbgp/dbgp_takeover.c \
                          tests/host/dbgp_mock.c tests/host/host_log.c lib/errno.c \
                          core/port.c
