/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcpy.c - memcpy and memset, the two functions the compiler may call on
 * its own, for a host without a C runtime (the kernel).  The loader links
 * GNU-EFI's libefi ones instead (boot/dbg/dbg.mk).
 */
#include <ekdb/string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;

	while (n--)
		*d++ = (u8)c;
	return dst;
}
