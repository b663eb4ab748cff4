/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdesc.c - qXfer:features:read's document: gdb's target.xml, generated
 * at build time from the register table (arch/x86/tools/gen_tdesc.c,
 * arch/x86/tdesc.mk) into read-only data.  Nothing is built at run time.
 */
#include <asm/regs_table.h>
#include <ekdb/string.h>

const char *x86_features_xml(const char *annex, size_t *len)
{
	if (!annex || strcmp(annex, "target.xml"))
		return NULL;
	*len = x86_tdesc_xml_len;
	return x86_tdesc_xml;
}
