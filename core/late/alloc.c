/* SPDX-License-Identifier: GPL-2.0 */
/*
 * alloc.c - the full core's way to the host's allocators (<ekdb/port.h>),
 * used by the late init (init.c) to move the early tables and sessions
 * into allocated storage.  The only reader of the port's allocation
 * members: early code that calls one of these is caught by
 * tools/check-early.sh (core/late/ is outside the allocator-free link it
 * checks).  Each returns NULL (or does nothing) when
 * the host has no allocator.
 */
#include "late.h"
#include <ekdb/port.h>

void *dbg_kmalloc(size_t size)
{
	const struct ekdb_port_ops *p = ekdb_port();

	return p->kmalloc ? p->kmalloc(size) : NULL;
}

void *dbg_kzalloc(size_t size)
{
	const struct ekdb_port_ops *p = ekdb_port();

	return p->kzalloc ? p->kzalloc(size) : NULL;
}

void dbg_kfree(const void *ptr)
{
	const struct ekdb_port_ops *p = ekdb_port();

	if (p->kfree)
		p->kfree(ptr);
}

/* 0 when the host has no page allocator: no order fits */
unsigned int dbg_page_max_order(void)
{
	const struct ekdb_port_ops *p = ekdb_port();

	return p->alloc_pages ? p->page_max_order : 0;
}

void *dbg_alloc_pages(unsigned int order)
{
	const struct ekdb_port_ops *p = ekdb_port();

	return p->alloc_pages ? p->alloc_pages(order) : NULL;
}

/* While the machine is stopped (the breakpoint table grows): never waits. */
void *dbg_alloc_pages_nowait(unsigned int order)
{
	const struct ekdb_port_ops *p = ekdb_port();

	return p->stopped.alloc_pages_nowait ? p->stopped.alloc_pages_nowait(order) : NULL;
}

void dbg_free_pages(void *addr, unsigned int order)
{
	const struct ekdb_port_ops *p = ekdb_port();

	if (p->free_pages)
		p->free_pages(addr, order);
}

/* false: the host cannot take the range back (it stays reserved) */
bool dbg_release_range(u64 start, u64 end, bool unmap)
{
	const struct ekdb_port_ops *p = ekdb_port();

	if (!p->release_range)
		return false;
	p->release_range(start, end, unmap);
	return true;
}
