/* SPDX-License-Identifier: GPL-2.0 */
/* acpi.c - finds the ACPI RSDP in the UEFI configuration table. */
#include "loader.h"

void ldr_find_rsdp(struct loader *L)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
	UINT64 rsdp10 = 0, rsdp20 = 0;
	UINTN i;

	for (i = 0; i < ST->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];

		if (!CompareGuid(&t->VendorGuid, &acpi20))
			rsdp20 = (UINT64)(UINTN)t->VendorTable;
		else if (!CompareGuid(&t->VendorGuid, &acpi10))
			rsdp10 = (UINT64)(UINTN)t->VendorTable;
	}
	if (rsdp20) {
		L->bi->rsdp = rsdp20;
		ldr_info(L"RSDP at 0x%lx (ACPI 2.0 or later)", rsdp20);	/* no '+': gdb may be listening */
	} else if (rsdp10) {
		L->bi->rsdp = rsdp10;
		ldr_info(L"RSDP at 0x%lx (ACPI 1.0)", rsdp10);
	} else {
		L->bi->rsdp = 0;
		ldr_info(L"no ACPI RSDP in the UEFI configuration table");
	}
}
