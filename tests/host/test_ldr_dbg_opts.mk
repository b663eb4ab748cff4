# SPDX-License-Identifier: GPL-2.0
# Host test for the loader debugger's parameters (boot/dbg/opts.c).
test_ldr_dbg_opts_SRCS := boot/dbg/opts.c kdb/cmd_enable.c lib/cmdline.c lib/parse.c io/serial/serial_opt.c
