/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <ekdb/arch.h> - what the debugger's arch-neutral folders (core/,
 * gdbstub/, kdb/) ask of the architecture, without its include path.
 *
 * The register frame a trap leaves on the stack is struct pt_regs (Linux's
 * name): its layout is arch/<arch>/include/asm/regs.h's business, the
 * neutral code only holds pointers to it and reaches into it through the
 * arch_dbg_* hooks below.  arch/x86/ implements them (the files named at
 * each hook); a port to another architecture
 * implements the same list.  Everything here may run on the stop path:
 * implementations are debugger code (arch/<arch>/ is placed between
 * __ekdb_text_start and __ekdb_text_end).
 */
#ifndef EKDB_ARCH_H
#define EKDB_ARCH_H

#include <ekdb/types.h>

/* Most CPUs the kernel and the debugger handle; raise it to support more. */
#define NR_CPUS 16

/* The trap frame: opaque outside arch/ (struct x86 layout: asm/regs.h). */
struct pt_regs;

/* ------------------------------------------------------------ the trap frame */
/*
 * The core reads a trap frame only through the arch's accessors, which are
 * inline (asm/debug_trap.h: arch_dbg_pc, arch_dbg_set_pc,
 * arch_dbg_trap_vector, arch_dbg_trap_error): a stop does not call out of
 * core/ for every field.  The neutral folders read frames from memory
 * (kdb's ef) through arch_dbg_frame_reg below.
 */

/* ------------------------------------------------------------ memory */
/*
 * arch_dbg_mm_generation - a value that changes whenever the CPU moves to
 * other page tables (the loader's, the early kernel's, the final ones):
 * the early drivers map their registers again when it does
 * (ekdb_io_map_get(), <ekdb/port.h>).  x86: CR3, arch/x86/cpu_state.c.
 */
u64 arch_dbg_mm_generation(void);
/*
 * arch_dbg_probe_read - copy @len bytes from address @src without
 * crashing on a bad one: the number of bytes copied before the first
 * fault (== @len when all went well).  x86: arch/x86/fixup.c (an exception
 * fixup table).
 */
size_t arch_dbg_probe_read(void *dst, u64 src, size_t len);
/*
 * arch_dbg_probe_write - the same for a store.  Does not lift write
 * protection: patching text is arch_dbg_text_poke().
 */
size_t arch_dbg_probe_write(u64 dst, const void *src, size_t len);
/*
 * arch_dbg_text_poke - write into read-only kernel text (a breakpoint
 * instruction, a restored byte): the number of bytes written, short when
 * the address faults.  x86: arch/x86/text_poke.c (a CR0.WP window).
 */
size_t arch_dbg_text_poke(u64 addr, const void *src, size_t len);
/*
 * arch_dbg_probe_set_xlate - a host whose debugger addresses are not the
 * CPU's (the loader: the kernel image's link addresses, where it placed
 * the image) gives the three accessors above its translation: @fn returns
 * the address to touch for @addr and in *@chunk how many of @len bytes are
 * contiguous there.  NULL (the kernel): addresses are used as they are.
 * Called once, before the debugger is on; @fn runs on the stop path.
 */
typedef u64 (*arch_dbg_probe_xlate_fn)(u64 addr, size_t len, size_t *chunk);
void arch_dbg_probe_set_xlate(arch_dbg_probe_xlate_fn fn);

/* ------------------------------------------------------------ kdb's needs */
/*
 * arch_dbg_insn_is_branch - does the instruction at @insn (@len bytes
 * readable) transfer control?  kdb's ssb steps until it does.  Pure byte
 * inspection (host tests call it too).  x86: arch/x86/insn.c.
 */
bool arch_dbg_insn_is_branch(const u8 *insn, size_t len);
/* arch_dbg_vector_has_error - does trap @vector push an error code (kdb's orig_ax)? */
bool arch_dbg_vector_has_error(u64 vector);
/*
 * arch_dbg_frame_size - bytes of a struct pt_regs in memory, at most
 * ARCH_DBG_FRAME_MAX (kdb's ef reads one from an address).
 */
#define ARCH_DBG_FRAME_MAX	256
size_t arch_dbg_frame_size(void);
/*
 * arch_dbg_frame_reg - register @name (gdb's name: "rax", "rip", "eflags";
 * "orig_ax": the error code, ~0 for a trap without one) of the frame
 * @frame read from memory: 0, or -EKDB_ENOENT when the frame has no such
 * register (kdb's ef keeps the live value then).
 */
int arch_dbg_frame_reg(const void *frame, const char *name, u64 *val);

/* ------------------------------------------------------------ the register file */
/*
 * The registers gdb and kdb see in a stopped CPU's captured state (struct
 * arch_dbg_state: opaque here, the core holds it), in gdb's numbering for
 * the arch's target description (arch/x86/dbg_regs.c over the one register
 * table, arch/x86/regs_table.c).
 */
struct arch_dbg_state;
struct ekdb_reg_layout;
/* arch_dbg_reg_count - how many registers gdb sees (numbers 0..count-1). */
unsigned arch_dbg_reg_count(void);
/* arch_dbg_reg_name - gdb's name of register @n ("rax", "eflags"), NULL past the end. */
const char *arch_dbg_reg_name(unsigned n);
/* arch_dbg_reg_size - bytes of register @n, 0 past the end. */
unsigned arch_dbg_reg_size(unsigned n);
/*
 * arch_dbg_reg_get - register @n of @st into @buf (little endian; *@size
 * gets its size).  0, -EKDB_EINVAL past the end, -EKDB_ENOENT when the
 * state does not hold it.
 */
int arch_dbg_reg_get(const struct arch_dbg_state *st, unsigned n, u8 *buf, size_t *size);
/*
 * arch_dbg_reg_set - register @n of @st from @buf (@size must be its size).
 * Only registers the resume writes back may change: -EKDB_EPERM for the
 * others, -EKDB_EINVAL past the end or for a wrong size.
 */
int arch_dbg_reg_set(struct arch_dbg_state *st, unsigned n, const u8 *buf, size_t size);
/* arch_dbg_reg_layout - which registers 'g' carries and a stop reply expedites. */
void arch_dbg_reg_layout(struct ekdb_reg_layout *layout);
/* arch_dbg_features_xml - the target description document @annex, NULL if none. */
const char *arch_dbg_features_xml(const char *annex, size_t *len);

#endif
