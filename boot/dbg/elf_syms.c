/* SPDX-License-Identifier: GPL-2.0 */
/* elf_syms.c - look a symbol up in an ELF64 file's symbol table (pure). */
#include "elf_syms.h"

#define SHT_SYMTAB	2
#define SHDR_SIZE	64
#define SYM_SIZE	24

static uint64_t rd(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* [off, off + len) inside a file of @size bytes, without overflow */
static int inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

int ldr_elf_symbol(const void *file, uint64_t size, const char *name, uint64_t *value)
{
	const uint8_t *f = file;
	uint64_t shoff, shnum;

	if (size < 64 || f[0] != 0x7f || f[1] != 'E' || f[2] != 'L' || f[3] != 'F' || f[4] != 2)
		return -1;
	shoff = rd(f + 0x28, 8);
	shnum = rd(f + 0x3c, 2);
	if (rd(f + 0x3a, 2) != SHDR_SIZE || !inside(shoff, shnum * SHDR_SIZE, size))
		return -1;
	for (uint64_t i = 0; i < shnum; i++) {
		const uint8_t *sh = f + shoff + i * SHDR_SIZE, *str;
		uint64_t off = rd(sh + 0x18, 8), len = rd(sh + 0x20, 8), link = rd(sh + 0x28, 4);
		uint64_t soff, slen;

		if (rd(sh + 4, 4) != SHT_SYMTAB || link >= shnum || !inside(off, len, size))
			continue;
		str = f + shoff + link * SHDR_SIZE;
		soff = rd(str + 0x18, 8);
		slen = rd(str + 0x20, 8);
		if (!inside(soff, slen, size))
			continue;
		for (uint64_t s = off; s + SYM_SIZE <= off + len; s += SYM_SIZE) {
			uint64_t n = rd(f + s, 4);
			const char *a = name;

			if (n >= slen)
				continue;
			for (; n < slen && *a && f[soff + n] == (uint8_t)*a; n++, a++)
				;
			if (!*a && n < slen && f[soff + n] == 0) {
				*value = rd(f + s + 8, 8);
				return 0;
			}
		}
	}
	return -1;
}
