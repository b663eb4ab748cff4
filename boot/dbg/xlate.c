/* SPDX-License-Identifier: GPL-2.0 */
/* xlate.c - kernel link addresses -> where the loader placed the image (pure). */
#include "xlate.h"

uint64_t ldr_xlate(const struct ldr_xlate_map *m, uint64_t addr, size_t len, size_t *chunk)
{
	uint64_t end = m->virt + m->size;

	*chunk = len;
	if (!len)
		return addr;
	if (m->size && addr >= m->virt && addr < end) {
		if (len > end - addr)
			*chunk = (size_t)(end - addr);
		return m->phys + (addr - m->virt);
	}
	/* below the image but running into it: stop at its start */
	if (m->size && addr < m->virt && len > m->virt - addr)
		*chunk = (size_t)(m->virt - addr);
	return addr;
}

int ldr_xlate_in_kernel(const struct ldr_xlate_map *m, uint64_t addr, uint64_t len)
{
	return m->size && addr >= m->virt && addr - m->virt < m->size &&
	       len <= m->size - (addr - m->virt);
}
