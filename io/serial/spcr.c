/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spcr.c - bare `earlycon`: the console the firmware describes in the
 * ACPI Serial Port Console Redirection table (SPCR), read the way Linux's
 * drivers/acpi/spcr.c reads it: a 16550 kind of interface, its Generic
 * Address (system I/O, or memory accessed 8 or 32 bits wide), the baud
 * rate code.  Pure (host-tested); spcr_find.c finds the table.
 */
#include "earlycon.h"
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>

/* SPCR offsets (ACPI SPCR, revision 2) */
#define SPCR_INTERFACE		36
#define SPCR_GAS_SPACE		40
#define SPCR_GAS_ACCESS		43
#define SPCR_GAS_ADDR		44
#define SPCR_BAUD		58
#define SPCR_MIN_LEN		80

/* DBG2 port subtypes Linux's SPCR code takes as an 8250 ("uart") */
#define DBG2_16550_COMPATIBLE	0x0000
#define DBG2_16550_SUBSET	0x0001
#define DBG2_16550_WITH_GAS	0x0012

#define GAS_SYSTEM_MEMORY	0
#define GAS_SYSTEM_IO		1
#define GAS_ACCESS_BYTE		1
#define GAS_ACCESS_DWORD	3

u64 spcr_get_le(const u8 *p, unsigned n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

bool spcr_sum_ok(const u8 *p, size_t len)
{
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum = (u8)(sum + p[i]);
	return sum == 0;
}

int spcr_to_earlycon(const void *table, size_t len, char *buf, size_t buflen)
{
	const u8 *t = table;
	const char *iotype;
	u32 baud;
	u64 addr;

	if (!t || len < SPCR_MIN_LEN || memcmp(t, "SPCR", 4) || spcr_get_le(t + 4, 4) != len ||
	    !spcr_sum_ok(t, len))
		return -EKDB_EINVAL;
	switch (t[SPCR_INTERFACE]) {
	case DBG2_16550_COMPATIBLE:
	case DBG2_16550_SUBSET:
	case DBG2_16550_WITH_GAS:
		break;
	default:
		return -EKDB_ENOSYS;		/* a PL011, a SBSA UART ...: not an 8250 */
	}
	addr = spcr_get_le(t + SPCR_GAS_ADDR, 8);
	if (t[SPCR_GAS_SPACE] == GAS_SYSTEM_IO)
		iotype = "io";
	else if (t[SPCR_GAS_SPACE] == GAS_SYSTEM_MEMORY && t[SPCR_GAS_ACCESS] == GAS_ACCESS_DWORD)
		iotype = "mmio32";
	else if (t[SPCR_GAS_SPACE] == GAS_SYSTEM_MEMORY)
		iotype = "mmio";
	else
		return -EKDB_ENOSYS;
	switch (t[SPCR_BAUD]) {
	case 0: baud = 0; break;	/* "as is": the firmware set the line up */
	case 3: baud = 9600; break;
	case 4: baud = 19200; break;
	case 6: baud = 57600; break;
	case 7: baud = 115200; break;
	default: return -EKDB_ENOSYS;
	}
	if (baud)
		ekdb_snprintf(buf, buflen, "uart,%s,0x%llx,%u", iotype, (unsigned long long)addr, baud);
	else
		ekdb_snprintf(buf, buflen, "uart,%s,0x%llx", iotype, (unsigned long long)addr);
	return 0;
}
