# SPDX-License-Identifier: GPL-2.0
# core/mem.c (user reads and writes) and core/bp.c (the debugger's own
# ranges, breakpoint ranges) against fake memory: the refusals of issue 19.
test_core_mem_SRCS = core/mem.c core/bp.c core/port.c
