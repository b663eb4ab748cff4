/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libxml.h - gdb's library list (qXfer:libraries:read) for the images the
 * loader debugger knows: one <library> per image, named by the path of its
 * ELF file on the machine gdb runs on, with the address its first segment
 * (ELF vaddr 0 for the loader) really sits at.  Pure, host-tested.
 */
#ifndef BOOT_DBG_LIBXML_H
#define BOOT_DBG_LIBXML_H

#include <stddef.h>
#include <stdint.h>

struct ldr_lib {
	const char *path;	/* absolute path of the ELF with DWARF */
	uint64_t base;		/* runtime address of its first PT_LOAD */
};

/*
 * ldr_libraries_xml - the document for @n libraries into @buf (NUL
 * terminated).  '&', '<', '>', '"' and '\'' in a path are escaped.
 * Returns its length, or -1 when it does not fit in @size bytes.
 */
long ldr_libraries_xml(char *buf, size_t size, const struct ldr_lib *libs, unsigned n);

/*
 * ldr_libraries_svr4_xml - the same list as qXfer:libraries-svr4:read's
 * <library-list-svr4>, which lldb asks for first: l_addr is the load bias
 * (base minus the first segment's link address, which is 0 for the
 * loader); there is no link_map (lm="0x0") and no dynamic section address
 * a debugger could use (l_ld="0x0").  Same return values.
 */
long ldr_libraries_svr4_xml(char *buf, size_t size, const struct ldr_lib *libs, unsigned n);

#endif
