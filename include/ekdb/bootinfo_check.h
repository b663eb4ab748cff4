/* SPDX-License-Identifier: GPL-2.0 */
/* bootinfo_check.h - validation of the loader's boot-info record (lib/bootinfo.c). */
#ifndef EKDB_BOOTINFO_CHECK_H
#define EKDB_BOOTINFO_CHECK_H

#include <ekdb/bootinfo.h>
#include <ekdb/types.h>

/*
 * bootinfo_check - is @bi a record this kernel understands?
 * Checks magic, version, size, the command line's termination and length,
 * the memory map count and entries (page aligned, no overflow), the
 * framebuffer description.  Returns NULL when good, else a static string
 * saying what is wrong.
 */
const char *bootinfo_check(const struct ekdb_bootinfo *bi);

#endif
