# SPDX-License-Identifier: GPL-2.0
test_earlycon_SRCS := earlyio/serial/earlycon_opt.c earlyio/serial/spcr.c earlyio/serial/serial_opt.c \
	lib/parse.c lib/fmt.c
