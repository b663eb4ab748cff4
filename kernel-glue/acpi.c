/* SPDX-License-Identifier: GPL-2.0 */
/* acpi.c - find the MADT through RSDP -> XSDT (or RSDT) and read the CPUs from it. */
#include <kernel/acpi.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#ifndef EKDB_HOST
#include <kernel/mm.h>
#endif

struct acpi_info acpi_info;

struct rsdp {
	char signature[8];	/* "RSD PTR " */
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt;
	u32 length;		/* revision >= 2 */
	u64 xsdt;
	u8 ext_checksum;
	u8 reserved[3];
} __packed;

struct sdt_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

struct madt {
	struct sdt_header h;
	u32 lapic_addr;
	u32 flags;
} __packed;

#define MADT_LAPIC		0
#define MADT_IOAPIC		1
#define MADT_INT_OVERRIDE	2
#define MADT_LAPIC_OVERRIDE	5
#define MADT_X2APIC		9

bool acpi_checksum_ok(const void *table, size_t len)
{
	const u8 *p = table;
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += p[i];
	return sum == 0;
}

int acpi_parse_madt(const void *table, size_t len, struct acpi_info *info)
{
	const struct madt *m = table;
	const u8 *p, *end;

	if (len < sizeof(*m) || m->h.length > len || memcmp(m->h.signature, "APIC", 4))
		return -EKDB_EINVAL;
	info->lapic_base = m->lapic_addr;
	p = (const u8 *)table + sizeof(*m);
	end = (const u8 *)table + m->h.length;
	while (p + 2 <= end) {
		u8 type = p[0], elen = p[1];

		if (elen < 2 || p + elen > end)
			return -EKDB_EINVAL;
		if (type == MADT_LAPIC && elen >= 8) {
			u32 flags;

			memcpy(&flags, p + 4, 4);
			if (flags & 1) {	/* enabled */
				if (info->cpu_count < NR_CPUS) {
					struct acpi_cpu *c = &info->cpus[info->cpu_count++];

					c->acpi_id = p[2];
					c->apic_id = p[3];
					c->enabled = true;
				} else {
					info->cpu_ignored++;
				}
			}
		} else if (type == MADT_IOAPIC && elen >= 12 && !info->ioapic_base) {
			u32 addr;

			info->ioapic_id = p[2];
			memcpy(&addr, p + 4, 4);
			info->ioapic_base = addr;
			memcpy(&info->ioapic_gsi_base, p + 8, 4);
		} else if (type == MADT_INT_OVERRIDE && elen >= 10 && p[2] == 0 && p[3] < 16 &&
			   info->override_count < ACPI_MAX_OVERRIDES) {
			/* bus 0 (ISA), source IRQ, GSI, MPS INTI flags */
			struct acpi_irq_override *o = &info->overrides[info->override_count++];

			o->source = p[3];
			memcpy(&o->gsi, p + 4, 4);
			memcpy(&o->flags, p + 8, 2);
		} else if (type == MADT_LAPIC_OVERRIDE && elen >= 12) {
			memcpy(&info->lapic_base, p + 4, 8);
		}
		p += elen;
	}
	info->found = true;
	return 0;
}

#ifndef EKDB_HOST
static const struct sdt_header *map_table(u64 phys)
{
	const struct sdt_header *h = __va(phys);

	if (!phys || h->length < sizeof(*h) || h->length > 1024 * 1024 ||
	    !acpi_checksum_ok(h, h->length))
		return NULL;
	return h;
}

void acpi_boot_table_init(void)
{
	const struct rsdp *rsdp;
	const struct sdt_header *root;
	bool xsdt;
	unsigned entries;

	if (!boot_params.rsdp) {
		pr_warn("ACPI: no RSDP from the loader: one CPU only\n");
		return;
	}
	rsdp = __va(boot_params.rsdp);
	if (memcmp(rsdp->signature, "RSD PTR ", 8) || !acpi_checksum_ok(rsdp, 20)) {
		pr_warn("ACPI: RSDP at 0x%llx is invalid: one CPU only\n",
			(unsigned long long)boot_params.rsdp);
		return;
	}
	xsdt = rsdp->revision >= 2 && rsdp->xsdt;
	root = map_table(xsdt ? rsdp->xsdt : rsdp->rsdt);
	pr_info("ACPI: RSDP 0x%llx (v%u %.6s), %s 0x%llx\n", (unsigned long long)boot_params.rsdp,
		rsdp->revision, rsdp->oem_id, xsdt ? "XSDT" : "RSDT",
		(unsigned long long)(xsdt ? rsdp->xsdt : rsdp->rsdt));
	if (!root) {
		pr_warn("ACPI: root table invalid: one CPU only\n");
		return;
	}
	entries = (root->length - sizeof(*root)) / (xsdt ? 8 : 4);
	for (unsigned i = 0; i < entries; i++) {
		const u8 *ent = (const u8 *)(root + 1) + i * (xsdt ? 8 : 4);
		u64 phys = 0;
		const struct sdt_header *t;

		memcpy(&phys, ent, xsdt ? 8 : 4);
		t = map_table(phys);
		if (!t)
			continue;
		pr_info("ACPI: %.4s 0x%016llx %06x (v%02u %.6s)\n", t->signature,
			(unsigned long long)phys, t->length, t->revision, t->oem_id);
		if (!memcmp(t->signature, "APIC", 4) &&
		    acpi_parse_madt(t, t->length, &acpi_info) == 0)
			pr_info("ACPI: MADT: %u CPUs, local APIC 0x%llx, I/O APIC 0x%llx, %u IRQ overrides%s\n",
				acpi_info.cpu_count, (unsigned long long)acpi_info.lapic_base,
				(unsigned long long)acpi_info.ioapic_base, acpi_info.override_count,
				acpi_info.cpu_ignored ? " (more CPUs than NR_CPUS: ignored)" : "");
	}
	if (!acpi_info.found)
		pr_warn("ACPI: no valid MADT: one CPU only\n");
}
#endif
