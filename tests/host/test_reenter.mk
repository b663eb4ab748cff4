# SPDX-License-Identifier: GPL-2.0
# The stop path's order and its re-entry recovery (core/entry.c, core/reenter.c), everything around faked.
test_reenter_SRCS := core/entry.c core/reenter.c lib/fmt.c
