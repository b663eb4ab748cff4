# SPDX-License-Identifier: GPL-2.0
# Run-time kgdboc= over the late drivers' registry (core/late/runtime.c),
# with the real transport registry and kgdboc parser.
test_io_drivers_SRCS := core/late/runtime.c core/transport.c core/kgdboc.c lib/fmt.c
