/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pci.h - PCI configuration space through the legacy 0xCF8/0xCFC ports
 * (configuration mechanism #1): enough for drivers to find their device
 * and its BARs.  Bus/device/function are packed as bus << 8 | dev << 3 | fn.
 */
#ifndef KERNEL_PCI_H
#define KERNEL_PCI_H

#include <ekdb/types.h>

#define PCI_VENDOR_ID		0x00
#define PCI_DEVICE_ID		0x02
#define PCI_COMMAND		0x04
#define PCI_STATUS		0x06
#define PCI_CLASS_REVISION	0x08	/* class code in 31:8 */
#define PCI_CAPABILITY_LIST	0x34
#define PCI_HEADER_TYPE		0x0e
#define PCI_BAR0		0x10

#define PCI_COMMAND_IO		0x1
#define PCI_COMMAND_MEMORY	0x2
#define PCI_COMMAND_MASTER	0x4
#define PCI_STATUS_CAP_LIST	0x10

u32 pci_read32(u32 bdf, u8 off);
u16 pci_read16(u32 bdf, u8 off);
void pci_write32(u32 bdf, u8 off, u32 v);
void pci_write16(u32 bdf, u8 off, u16 v);
u8 pci_read8(u32 bdf, u8 off);
void pci_write8(u32 bdf, u8 off, u8 v);

/* pci_find_capability - config offset of capability @id of @bdf, or 0. */
u8 pci_find_capability(u32 bdf, u8 id);
/* pci_for_each_function - @fn(bdf, device << 16 | vendor, @arg) for each function until it says true. */
void pci_for_each_function(bool (*fn)(u32 bdf, u32 id, void *arg), void *arg);
/* pci_find_class - the @index'th (0-based) function of class code @class (24 bits). */
bool pci_find_class(u32 class, unsigned index, u32 *bdf);

/* pci_find_device - the first function with @vendor:@device: true and *@bdf. */
bool pci_find_device(u16 vendor, u16 device, u32 *bdf);

/*
 * pci_bar - memory BAR @n of @bdf: its physical base and size (sized by
 * the usual write-ones probe, decoding off meanwhile).  false when the BAR
 * is not implemented, is an I/O BAR or is unassigned (base 0).
 */
bool pci_bar(u32 bdf, unsigned n, u64 *base, u64 *size);
/*
 * pci_bar_address - memory BAR @n's address as programmed, not sized (the
 * device may be live: a debug port in use); 0 for an I/O BAR or none.
 */
u64 pci_bar_address(u32 bdf, unsigned n);

#endif
