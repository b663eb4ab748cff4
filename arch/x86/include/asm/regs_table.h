/* SPDX-License-Identifier: GPL-2.0 */
/*
 * regs_table.h - the one x86-64 register table (arch/x86/regs_table.c):
 * gdb's amd64 register order, where each register lives in struct
 * arch_dbg_state; the target description is generated from it at build
 * time (arch/x86/tools/gen_tdesc.c, served by arch/x86/tdesc.c).
 * Serves gdb g/G/p/P (via core/target.c and the host sim target), kdb
 * rd/rm, and qXfer:features:read.
 */
#ifndef ASM_X86_REGS_TABLE_H
#define ASM_X86_REGS_TABLE_H

#include <ekdb/types.h>
#include <asm/regs.h>

/* Target description features, in document order. */
enum x86_reg_feature {
	X86_FEAT_CORE = 0,	/* org.gnu.gdb.i386.core (required by gdb) */
	X86_FEAT_SSE,		/* org.gnu.gdb.i386.sse */
	X86_FEAT_SEGMENTS,	/* org.gnu.gdb.i386.segments: fs_base gs_base */
	X86_FEAT_SYSTEM,	/* org.ekdb.x86.system: k_gs_base cr* efer */
	X86_FEAT_DEBUG,		/* org.ekdb.x86.debug: dr0-3 dr6 dr7 */
	X86_FEAT_COUNT,
};

/* Register number of a few registers other code needs by name. */
#define X86_REGNO_RSP	7
#define X86_REGNO_RIP	16
#define X86_REGNO_EFLAGS 17

/* Largest register in bytes (xmm). */
#define X86_REG_MAX_BYTES 16

struct x86_reg_desc {
	const char *name;	/* gdb's name: "rax", "eflags", "fs_base", "cr3" */
	u16 bitsize;		/* 32, 64, 80 or 128 */
	s16 offset;		/* byte offset in struct arch_dbg_state; -1: unavailable */
	const char *type;	/* target description type: "int64", "code_ptr", ... */
	const char *group;	/* "general", "float", "vector", "system"; NULL: gdb decides */
	u8 feature;		/* enum x86_reg_feature */
};

#define X86_REGNO_RBP	6
/* Registers gdb's 'g' carries: rax..rip, eflags, cs..gs (the general file). */
#define X86_REG_G_COUNT	24

struct ekdb_reg_layout;
/**
 * x86_reg_layout - 'g' carries the general registers only (control,
 * segment-base, debug and x87/SSE registers are read with 'p' when gdb
 * wants them); a stop expedites rbp, rsp and rip, as gdbserver does; a
 * breakpoint or watchpoint stop also the six argument registers, which
 * gdb reads to print "func (a=1, b=2)"; a stop in another function than
 * the last one, or on a function's first instruction, all of g.
 */
void x86_reg_layout(struct ekdb_reg_layout *layout);

/** x86_reg_count - number of registers gdb sees. */
unsigned x86_reg_count(void);

/** x86_reg_desc - description of register @n, NULL when out of range. */
const struct x86_reg_desc *x86_reg_desc(unsigned n);

/**
 * x86_reg_lookup - register number for @name ("rax", "%rax", "CR3" —
 * case-insensitive, one optional leading '%'), or -EKDB_ENOENT.
 */
int x86_reg_lookup(const char *name);

/**
 * x86_reg_get - copy register @n out of @st into @buf (little-endian,
 * at least X86_REG_MAX_BYTES bytes).  *@size always gets the register
 * size in bytes.  Returns the size, -EKDB_ENOENT when the register is not
 * kept in arch_dbg_state (gdb shows it as unavailable), or -EKDB_EINVAL.
 */
int x86_reg_get(const struct arch_dbg_state *st, unsigned n, u8 *buf, size_t *size);

/**
 * x86_reg_set - store @size bytes (must equal the register size) into
 * register @n of @st; 32-bit registers are zero-extended.  Returns 0,
 * -EKDB_EINVAL (bad number/size) or -EKDB_EPERM (unavailable register).
 */
int x86_reg_set(struct arch_dbg_state *st, unsigned n, const u8 *buf, size_t size);

/**
 * x86_features_xml - the target description document @annex.  There is
 * one, "target.xml", holding every feature inline; it was generated from
 * the table at build time into read-only data.  Returns it and its length
 * in *@len, or NULL for any other annex (*@len untouched).
 */
const char *x86_features_xml(const char *annex, size_t *len);

/*
 * The generated document ($(BUILD)/gen/x86_tdesc.c, arch/x86/tdesc.mk):
 * x86_tdesc_xml_len bytes plus a NUL.  Use x86_features_xml().
 */
extern const char x86_tdesc_xml[];
extern const size_t x86_tdesc_xml_len;

#endif
