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

/*
 * An ISA interrupt source override (MADT type 2): ISA IRQ @source arrives
 * on global system interrupt @gsi with the polarity/trigger in @flags
 * (ACPI_MPS_*; "conforms" means the bus default: ISA is edge, active high).
 */
struct acpi_irq_override {
	u8 source;			/* ISA IRQ 0-15 */
	u32 gsi;
	u16 flags;
};

#define ACPI_MPS_POLARITY_MASK	0x3
#define ACPI_MPS_ACTIVE_HIGH	0x1
#define ACPI_MPS_ACTIVE_LOW	0x3
#define ACPI_MPS_TRIGGER_MASK	0xc
#define ACPI_MPS_EDGE		0x4
#define ACPI_MPS_LEVEL		0xc

#define ACPI_MAX_OVERRIDES	16

struct acpi_info {
	bool found;			/* RSDP, XSDT/RSDT and MADT all valid */
	u64 lapic_base;			/* physical */
	u64 ioapic_base;		/* physical, 0 if none (the first I/O APIC only) */
	u32 ioapic_gsi_base;		/* first GSI of that I/O APIC */
	u8 ioapic_id;
	unsigned override_count;	/* valid entries of overrides[] */
	struct acpi_irq_override overrides[ACPI_MAX_OVERRIDES];
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
