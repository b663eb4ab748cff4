# SPDX-License-Identifier: GPL-2.0
# The debugger state handed over across the jump (core/handoff.c) through the real
# breakpoint table (core/bp.c) and the real gdb and kdb sessions
# (KDB_HOST_SRCS, tests/host/test_kdb.mk: expanded when the rule is made).
test_handoff_loader_SRCS = core/handoff.c core/bp.c core/port.c $(KDB_HOST_SRCS)
