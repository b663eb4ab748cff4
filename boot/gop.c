/* SPDX-License-Identifier: GPL-2.0 */
/* gop.c - records the firmware's current GOP framebuffer mode in the boot-info record. */
#include "loader.h"

static UINT32 mask_bits(UINT32 m)
{
	UINT32 top = 0;

	while (m) {
		top++;
		m >>= 1;
	}
	return top;
}

static const CHAR16 *format_name(UINT32 f)
{
	switch (f) {
	case EKDB_FB_RGBX8:	return L"RGBX8";
	case EKDB_FB_BGRX8:	return L"BGRX8";
	case EKDB_FB_BITMASK:	return L"BITMASK";
	default:		return L"NONE";
	}
}

void ldr_get_framebuffer(struct loader *L)
{
	EFI_GUID guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	struct ekdb_framebuffer *fb = &L->bi->fb;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mi;
	EFI_PIXEL_BITMASK *pm;
	UINT32 bits;
	EFI_STATUS st;

	ZeroMem(fb, sizeof(*fb));
	fb->format = EKDB_FB_NONE;
	st = uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&gop);
	if (EFI_ERROR(st) || !gop || !gop->Mode || !gop->Mode->Info) {
		ldr_info(L"no GOP framebuffer: continuing without one");
		return;
	}
	mi = gop->Mode->Info;
	switch (mi->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		fb->format = EKDB_FB_RGBX8;
		fb->bpp = 32;
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		fb->format = EKDB_FB_BGRX8;
		fb->bpp = 32;
		break;
	case PixelBitMask:
		pm = &mi->PixelInformation;
		bits = mask_bits(pm->RedMask | pm->GreenMask | pm->BlueMask | pm->ReservedMask);
		fb->format = EKDB_FB_BITMASK;
		fb->bpp = bits <= 8 ? 8 : bits <= 16 ? 16 : bits <= 24 ? 24 : 32;
		fb->red_mask = pm->RedMask;
		fb->green_mask = pm->GreenMask;
		fb->blue_mask = pm->BlueMask;
		fb->reserved_mask = pm->ReservedMask;
		break;
	default:
		ldr_info(L"no GOP framebuffer: continuing without one (mode %d is blt only)",
			 gop->Mode->Mode);
		return;
	}
	if (!gop->Mode->FrameBufferBase) {
		ZeroMem(fb, sizeof(*fb));
		ldr_info(L"no GOP framebuffer: continuing without one (no base address)");
		return;
	}
	fb->base = gop->Mode->FrameBufferBase;
	fb->size = gop->Mode->FrameBufferSize;
	fb->width = mi->HorizontalResolution;
	fb->height = mi->VerticalResolution;
	fb->pitch = mi->PixelsPerScanLine * (fb->bpp / 8);
	ldr_info(L"framebuffer %dx%d %s at 0x%lx pitch %d", fb->width, fb->height,
		 format_name(fb->format), fb->base, fb->pitch);
}
