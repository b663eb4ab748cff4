# SPDX-License-Identifier: GPL-2.0
# Host test of kmalloc, mm_init() and the boot self-test on a malloc'd arena.
test_kmalloc_SRCS := tests/host/host_log.c kernel-glue/mm/memblock.c kernel-glue/mm/page_alloc.c \
                     kernel-glue/mm/kmalloc.c kernel-glue/mm/init.c kernel-glue/mm/selftest.c
$(BUILD)/host/test_kmalloc: HOST_CFLAGS += -Ikernel-glue/include
