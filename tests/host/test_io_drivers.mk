# SPDX-License-Identifier: GPL-2.0
# Run-time kgdboc= over the late drivers' registry (core/late/runtime.c),
# with the real transport registry and kgdboc parser (its serial words
# through the 16550's own option parser, io/serial/serial_opt.c).
test_io_drivers_SRCS := core/late/runtime.c core/transport.c core/kgdboc.c io/serial/serial_opt.c lib/parse.c lib/fmt.c
