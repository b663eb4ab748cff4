/* SPDX-License-Identifier: GPL-2.0 */
/* pci_early.h - PCI configuration space through ports 0xCF8/0xCFC (mechanism #1). */
#ifndef ASM_X86_PCI_EARLY_H
#define ASM_X86_PCI_EARLY_H

#include <ekdb/types.h>

u32 early_pci_read32(u8 bus, u8 slot, u8 func, u8 off);
u16 early_pci_read16(u8 bus, u8 slot, u8 func, u8 off);
u8 early_pci_read8(u8 bus, u8 slot, u8 func, u8 off);
void early_pci_write32(u8 bus, u8 slot, u8 func, u8 off, u32 val);
void early_pci_write16(u8 bus, u8 slot, u8 func, u8 off, u16 val);
void early_pci_write8(u8 bus, u8 slot, u8 func, u8 off, u8 val);

#endif
