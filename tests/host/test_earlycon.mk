# SPDX-License-Identifier: GPL-2.0
test_earlycon_SRCS := io/serial/earlycon_opt.c io/serial/spcr.c io/serial/serial_opt.c \
	lib/parse.c lib/fmt.c
