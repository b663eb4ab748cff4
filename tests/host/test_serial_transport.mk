# SPDX-License-Identifier: GPL-2.0
test_serial_transport_SRCS := earlyio/serial/serial_transport.c earlyio/serial/serial_opt.c lib/parse.c lib/fmt.c
