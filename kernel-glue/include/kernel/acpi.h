/* SPDX-License-Identifier: GPL-2.0 */
/* acpi.h - the few ACPI facts the kernel needs: CPUs and interrupt controllers from the MADT. */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include <ekdb/types.h>
#include <asm/smp.h>

struct acpi_cpu {
	u8 apic_id;
	u8 acpi_id;
	bool enabled;
};

struct acpi_info {
	bool found;			/* RSDP, XSDT/RSDT and MADT all valid */
	u64 lapic_base;			/* physical */
	u64 ioapic_base;		/* physical, 0 if none */
	unsigned cpu_count;		/* enabled CPUs listed in the MADT (<= NR_CPUS) */
	unsigned cpu_ignored;		/* listed beyond NR_CPUS */
	struct acpi_cpu cpus[NR_CPUS];
};

extern struct acpi_info acpi_info;

/* acpi_boot_table_init - find and check the tables, fill acpi_info. */
void acpi_boot_table_init(void);

/*
 * acpi_parse_madt - pure MADT walker (host-tested): fill @info from the
 * MADT at @madt of @len bytes.  Returns 0 or -EKDB_EINVAL.
 */
int acpi_parse_madt(const void *madt, size_t len, struct acpi_info *info);
/* acpi_checksum_ok - the bytes of a table sum to zero. */
bool acpi_checksum_ok(const void *table, size_t len);

#endif
