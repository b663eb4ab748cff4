# SPDX-License-Identifier: GPL-2.0
# The stop path's break-in (core/entry.c) with everything around it faked.
test_break_in_SRCS := core/entry.c
