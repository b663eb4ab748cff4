/* SPDX-License-Identifier: GPL-2.0 */
/* cmdline.c - gets the kernel command line from the load options or \EFI\ekdb\cmdline.txt. */
#include "loader.h"
#include "cmdline_parse.h"

static EFI_STATUS too_long(const CHAR16 *where)
{
	return ldr_fail(EFI_BAD_BUFFER_SIZE, L"command line too long (limit %d bytes) in %s",
			EKDB_CMDLINE_MAX - 1, where);
}

static EFI_STATUS from_file(struct loader *L)
{
	struct ekdb_bootinfo *bi = L->bi;
	enum ekdb_cmdline_result r;
	EFI_STATUS st;
	UINTN size;
	void *data;

	st = ldr_read_file(L, EKDB_CMDLINE_PATH, &data, &size);
	if (EFI_ERROR(st)) {
		ldr_info(L"no command line: no usable load options and %s: %r",
			 EKDB_CMDLINE_PATH, st);
		bi->cmdline_source = EKDB_CMDLINE_NONE;
		return EFI_SUCCESS;
	}
	r = ekdb_cmdline_from_file(data, size, bi->cmdline, EKDB_CMDLINE_MAX, &bi->cmdline_len);
	FreePool(data);
	if (r == EKDB_CMDLINE_TOO_LONG)
		return too_long(EKDB_CMDLINE_PATH);
	if (r != EKDB_CMDLINE_OK)
		return ldr_fail(EFI_INVALID_PARAMETER,
				L"%s is not one line of printable ASCII text", EKDB_CMDLINE_PATH);
	bi->cmdline_source = EKDB_CMDLINE_FILE;
	ldr_info(L"command line (file %s): %a", EKDB_CMDLINE_PATH, bi->cmdline);
	return EFI_SUCCESS;
}

EFI_STATUS ldr_get_cmdline(struct loader *L)
{
	struct ekdb_bootinfo *bi = L->bi;
	enum ekdb_cmdline_result r;

	r = ekdb_cmdline_from_options(L->li->LoadOptions, L->li->LoadOptionsSize,
				      bi->cmdline, EKDB_CMDLINE_MAX, &bi->cmdline_len);
	switch (r) {
	case EKDB_CMDLINE_OK:
		bi->cmdline_source = EKDB_CMDLINE_LOAD_OPTIONS;
		ldr_info(L"command line (load options): %a", bi->cmdline);
		return EFI_SUCCESS;
	case EKDB_CMDLINE_TOO_LONG:
		return too_long(L"the load options");
	case EKDB_CMDLINE_NOT_TEXT:
		ldr_info(L"load options (%d bytes) are not text: ignored",
			 L->li->LoadOptionsSize);
		break;
	case EKDB_CMDLINE_ABSENT:
		break;
	}
	bi->cmdline[0] = 0;
	bi->cmdline_len = 0;
	return from_file(L);
}
