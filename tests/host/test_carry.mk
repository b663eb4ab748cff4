# SPDX-License-Identifier: GPL-2.0
# The debugger state carried across the jump (core/carry.c) through the real
# breakpoint table (core/bp.c) and the real gdb and kdb sessions
# (KDB_HOST_SRCS, tests/host/test_kdb.mk: expanded when the rule is made).
test_carry_SRCS = core/carry.c core/bp.c $(KDB_HOST_SRCS)
