# SPDX-License-Identifier: GPL-2.0
# Host test of kernel-glue/mm/memblock.c.
test_memblock_SRCS := tests/host/host_log.c kernel-glue/mm/memblock.c
$(BUILD)/host/test_memblock: HOST_CFLAGS += -Ikernel-glue/include
