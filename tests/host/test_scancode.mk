# SPDX-License-Identifier: GPL-2.0
test_scancode_SRCS := io/kbd/scancode.c
