/* SPDX-License-Identifier: GPL-2.0 */
/*
 * glue.c - the loader lifetime of the one debugger: what the kernel
 * provides to the debug core elsewhere (session storage, kernel ops, the
 * trap vectors, which addresses hold code), and the loader's start, stop
 * and release.  One CPU (the boot processor: the firmware starts no
 * others for the loader), no round-up, polled 16550 only.
 */
#include "ldr_dbg.h"
#include "glue.h"
#include "libxml.h"
#include "elf_syms.h"
#include "x86_idt.h"
#include "../../io/serial/serial.h"
#include <asm/desc.h>
#include <asm/processor.h>
#include <ekdb/bootinfo.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/gdbstub.h>
#include <ekdb/kdb.h>
#include <ekdb/port.h>
#include <ekdb/string.h>

#define LDR_GDB_BUFSIZE 4096

static char gdb_inbuf[LDR_GDB_BUFSIZE];
static char gdb_outbuf[LDR_GDB_BUFSIZE];
static struct gdb_session ldr_gdb_session;
static struct kdb_session ldr_kdb_session;

static const struct ekdb_sessions ldr_store = {
	.gdb = &ldr_gdb_session, .kdb = &ldr_kdb_session,
	.gdb_in = gdb_inbuf, .gdb_out = gdb_outbuf, .gdb_bufsize = LDR_GDB_BUFSIZE,
};
static const struct ekdb_bootinfo *ldr_bi;
static struct ldr_dbg_image ldr_image;
static bool armed;
static u64 ldr_ksym_table;		/* run-time address of the kernel's __ksym_num, 0: none */

extern char _text[], _etext[];		/* the loader's code (gnu-efi's link script) */

/* The loader has no early printk console: the serial line is the debugger's alone. */
struct uart_port *early_serial_console_port(void)
{
	return NULL;
}

struct uart_port *early_serial_console_of(const struct uart_regs *r)
{
	return NULL;
}

void ldr_dbg_kernel_map(struct ldr_xlate_map *m)
{
	m->virt = ldr_bi ? ldr_bi->kernel_virt : 0;
	m->phys = ldr_bi ? ldr_bi->kernel_phys : 0;
	m->size = ldr_bi ? ldr_bi->kernel_size : 0;
}

/* Software breakpoints go in the loader's code or anywhere in the placed kernel image. */
static bool ldr_code_addr(u64 addr)
{
	struct ldr_xlate_map m;

	if (addr >= (u64)_text && addr < (u64)_etext)
		return true;
	ldr_dbg_kernel_map(&m);
	return ldr_xlate_in_kernel(&m, addr, 1);
}

/* qXfer:libraries:read: the loader ELF (with DWARF) at its real base. */
static const char *ldr_libraries(size_t *len)
{
	static char xml[512];
	const struct ldr_lib lib = { .path = LDR_DBG_SYMFILE, .base = ldr_image.base };
	long n = ldr_libraries_xml(xml, sizeof(xml), &lib, 1);

	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return xml;
}

static const char *ldr_libraries_svr4(size_t *len)
{
	static char xml[512];
	const struct ldr_lib lib = { .path = LDR_DBG_SYMFILE, .base = ldr_image.base };
	long n = ldr_libraries_svr4_xml(xml, sizeof(xml), &lib, 1);

	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return xml;
}

static long ldr_phys_read(u64 paddr, void *buf, size_t len)
{
	/* the firmware maps physical memory 1:1; the image's link range is not physical */
	struct ldr_xlate_map m;

	ldr_dbg_kernel_map(&m);
	if (ldr_xlate_in_kernel(&m, paddr, 1) || (m.size && paddr < m.virt && paddr + len > m.virt))
		return -EKDB_EFAULT;
	return ekdb_mem_read(paddr, buf, len);
}

static int ldr_sys_info(struct ekdb_sysinfo *info)
{
	strlcpy(info->sysname, "ekdb", sizeof(info->sysname));
	strlcpy(info->release, "loader", sizeof(info->release));
	strlcpy(info->version, "UEFI loader, boot services up", sizeof(info->version));
	strlcpy(info->machine, "x86_64", sizeof(info->machine));
	info->ncpus = 1;
	return 0;
}

/* The loader's side of the porting interface: no log, no tasks, no allocator. */
static const struct ekdb_port_ops ldr_port = {
	.stopped = {
		.phys_read = ldr_phys_read,
		.sys_info = ldr_sys_info,
	},
	.sym_lookup = ldr_sym_lookup,
	.sym_by_name = ldr_sym_by_name,
	.sym_get = ldr_sym_get,
};

/* A fault in the loader (not one a fault-safe access fixed up): the debugger sees it. */
static bool ldr_fault(struct pt_regs *regs)
{
	return ekdb_handle_die("fault in the UEFI loader", regs);
}

/* Nobody handled it (the debugger declined or is inside itself): report and stop here. */
static void ldr_unhandled(struct pt_regs *regs)
{
	static const char hex[] = "0123456789abcdef";
	char line[] = "ekdb loader: unhandled exception 0x00 at rip 0x0000000000000000: halted\r\n";
	char *v = strstr(line, "0x00 ") + 2, *r = strstr(line, "rip 0x") + 6;

	v[0] = hex[(regs->vector >> 4) & 0xf];
	v[1] = hex[regs->vector & 0xf];
	for (int i = 0; i < 16; i++)
		r[i] = hex[(regs->rip >> (60 - 4 * i)) & 0xf];
	ekdb_io_write(line, strlen(line));
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

static const u8 fault_vectors[] = {
	X86_TRAP_DE, X86_TRAP_UD, X86_TRAP_SS, X86_TRAP_GP, X86_TRAP_PF, X86_TRAP_AC,
};

int ldr_dbg_start(const struct ldr_dbg_opts *o, const struct ldr_dbg_image *img,
		  const struct ekdb_bootinfo *bi)
{
	struct ekdb_start start = {
		.sessions = &ldr_store,
		.cmd_enable = o->cmd_enable,
		.lifetime = EKDB_LIFE_LOADER,
		.code_addr = ldr_code_addr,
		.libraries = ldr_libraries,
		.libraries_svr4 = ldr_libraries_svr4,
	};
	struct ekdb_transport *t;
	int err = 0;

	if (armed)
		return -EKDB_EBUSY;
	ldr_mem_init();
	ldr_bi = bi;
	ldr_image = *img;
	t = serial_transport_init(o->ekgdboc, &err);
	if (!t)
		return err ? err : -EKDB_ENODEV;
	ekdb_set_port(&ldr_port);
	for (size_t i = 0; i < sizeof(fault_vectors); i++)
		x86_set_trap_handler(fault_vectors[i], ldr_fault);
	x86_set_default_trap_handler(ldr_unhandled);
	start.io[0] = t;
	err = ekdb_start(&start);	/* #DB, #BP handlers; the core is on */
	if (err)
		return err;
	ldr_idt_take();
	armed = true;
	return 0;
}

/*
 * The kernel's jump window and its own debugger code (core/handoff.c): no
 * breakpoint from the loader there.  Symbols are link addresses; the
 * image runs at kernel_virt (moved by KASLR, if any).
 */
static void ldr_kernel_nobp(const void *file, uint64_t size)
{
	u64 text, ws, we, ns, ne, off;

	if (ldr_elf_symbol(file, size, "_text", &text) ||
	    ldr_elf_symbol(file, size, "__jump_window_start", &ws) ||
	    ldr_elf_symbol(file, size, "__jump_window_end", &we) ||
	    ldr_elf_symbol(file, size, "__ekdb_text_start", &ns) ||
	    ldr_elf_symbol(file, size, "__ekdb_text_end", &ne))
		return;
	off = ldr_bi->kernel_virt - text;
	ekdb_set_jump_window(ws + off, we + off);
	ekdb_set_nobp_range(ns + off, ne + off);
}

void ldr_dbg_kernel_file(const void *file, uint64_t size)
{
	struct ldr_xlate_map m;

	if (!armed)
		return;
	/* gdb's qOffsets: build/kernel.elf's symbols at the moved kernel (KASLR) */
	ekdb_set_text_offset(ldr_bi->kaslr_offset);
	ekdb_set_text_base(ldr_bi->kernel_virt);
	ldr_kernel_nobp(file, size);
	if (ldr_elf_symbol(file, size, "__ksym_num", &ldr_ksym_table))
		return;
	ldr_ksym_table += ldr_bi->kaslr_offset;	/* where the moved image holds it */
	ldr_dbg_kernel_map(&m);
	ldr_ksyms_attach(&m, ldr_ksym_table);
}

/*
 * ldr_dbg_handoff - the last act before the jump (boot services gone): the
 * breakpoints, the line and the session into the boot-info record for the
 * kernel's takeover.  If they cannot travel, nothing is left planted in
 * the kernel.  The loader's debugger is off afterwards either way.
 */
int ldr_dbg_handoff(struct ekdb_bootinfo *bi)
{
	int err;

	if (!armed)
		return 0;
	err = ekdb_handoff_export(&bi->dbg);
	armed = false;
	return err;
}

/*
 * The stop.  While interrupts are on, the firmware's serial terminal may
 * read the debugger's line (OVMF makes every UART a console) and eat what
 * a gdb that connected early sent; from here on they are off, and a NAK
 * makes such a gdb send its packet again now rather than after its timeout.
 */
void ldr_dbg_wait(void)
{
	u64 flags;

	if (!armed)
		return;
	flags = local_irq_save();
	ekdb_io_write("-", 1);
	kgdb_breakpoint();
	local_irq_restore(flags);
}

void ldr_dbg_release(void)
{
	if (!armed)
		return;
	ekdb_shutdown();
	ldr_idt_give_back();
	armed = false;
}

void ldr_dbg_image_range(u64 *base, u64 *size)
{
	*base = ldr_image.base;
	*size = ldr_image.size;
}

int ldr_dbg_armed(void)
{
	return armed;
}

const char *ldr_dbg_strerror(int err)
{
	return ekdb_strerror(err);
}
