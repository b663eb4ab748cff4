# SPDX-License-Identifier: GPL-2.0
test_serial_transport_SRCS := io/serial/serial_transport.c io/serial/serial_opt.c lib/parse.c lib/fmt.c
