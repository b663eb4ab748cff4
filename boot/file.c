/* SPDX-License-Identifier: GPL-2.0 */
/* file.c - opening the loader's own volume and reading whole files from it. */
#include "loader.h"

EFI_STATUS ldr_open_root(struct loader *L)
{
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, L->li->DeviceHandle,
			       &FileSystemProtocol, (void **)&fs);
	if (EFI_ERROR(st))
		return ldr_fail(st, L"the volume the loader was started from has no file system: %r", st);
	st = uefi_call_wrapper(fs->OpenVolume, 2, fs, &L->root);
	if (EFI_ERROR(st)) {
		L->root = NULL;
		return ldr_fail(st, L"cannot open the loader's volume: %r", st);
	}
	return EFI_SUCCESS;
}

EFI_STATUS ldr_read_file(struct loader *L, const CHAR16 *path, void **data, UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS st;
	UINTN want, got;
	void *buf;

	*data = NULL;
	*size = 0;
	st = uefi_call_wrapper(L->root->Open, 5, L->root, &f, (CHAR16 *)path,
			       EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(f);
	if (!info) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_DEVICE_ERROR;
	}
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		FreePool(info);
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_NOT_FOUND;
	}
	want = info->FileSize;
	FreePool(info);
	st = uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, want ? want : 1, &buf);
	if (EFI_ERROR(st)) {
		uefi_call_wrapper(f->Close, 1, f);
		return st;
	}
	got = want;
	st = uefi_call_wrapper(f->Read, 3, f, &got, buf);
	uefi_call_wrapper(f->Close, 1, f);
	if (!EFI_ERROR(st) && got != want)
		st = EFI_END_OF_FILE;
	if (EFI_ERROR(st)) {
		FreePool(buf);
		return st;
	}
	*data = buf;
	*size = want;
	return EFI_SUCCESS;
}
