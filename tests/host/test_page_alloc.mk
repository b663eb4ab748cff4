# SPDX-License-Identifier: GPL-2.0
# Host test of the buddy allocator (kernel-glue/mm/page_alloc.c) on a malloc'd arena.
test_page_alloc_SRCS := tests/host/host_log.c kernel-glue/mm/memblock.c kernel-glue/mm/page_alloc.c
$(BUILD)/host/test_page_alloc: HOST_CFLAGS += -Ikernel-glue/include
