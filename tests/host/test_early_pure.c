/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_early_pure.c - host tests of the pure pieces under the early
 * debugger and the kernel: serial option parsing, boot-info checks, the
 * MADT walker, DR7 encoding, and single-step flag fix-ups (over a fake
 * memory accessor).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <ekdb/bootinfo_check.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <kernel/acpi.h>
#include <asm/debugreg.h>
#include <asm/fixup.h>
#include <asm/processor.h>
#include <asm/sstep.h>
#include "../../io/serial/uart16550.h"

/* ---- fake memory for sstep.c: a small stack and code area ---- */
static u8 fake_mem[256];
#define FAKE_BASE 0x1000ULL

size_t arch_dbg_probe_read(void *dst, u64 src, size_t len)
{
	size_t n = 0;

	for (; n < len && src + n >= FAKE_BASE && src + n < FAKE_BASE + sizeof(fake_mem); n++)
		((u8 *)dst)[n] = fake_mem[src + n - FAKE_BASE];
	return n;
}

size_t arch_dbg_probe_write(u64 dst, const void *src, size_t len)
{
	size_t n = 0;

	for (; n < len && dst + n >= FAKE_BASE && dst + n < FAKE_BASE + sizeof(fake_mem); n++)
		fake_mem[dst + n - FAKE_BASE] = ((const u8 *)src)[n];
	return n;
}

static void test_serial_options(void **state)
{
	struct uart_port p;

	assert_int_equal(uart_parse_options("", &p), 0);
	assert_int_equal(p.regs.addr, 0x3f8);
	assert_int_equal(p.baud, 115200);
	assert_int_equal(uart_parse_options("ttyS1", &p), 0);
	assert_int_equal(p.regs.addr, 0x2f8);
	assert_int_equal(uart_parse_options("ttyS3,9600", &p), 0);
	assert_int_equal(p.regs.addr, 0x2e8);
	assert_int_equal(p.baud, 9600);
	assert_int_equal(uart_parse_options("0x3e8,38400", &p), 0);
	assert_int_equal(p.regs.addr, 0x3e8);
	assert_int_equal(p.baud, 38400);
	assert_int_equal(uart_parse_options("ttyS0,115200n8", &p), 0);
	/* bad inputs */
	assert_int_equal(uart_parse_options("ttyS4", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS9,115200", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyUSB0", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS0,banana", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS0,0", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS0,999999", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS0,100000", &p), -EKDB_EINVAL);	/* no exact divisor */
	assert_int_equal(uart_parse_options("0x0", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("0xzz", &p), -EKDB_EINVAL);
	assert_int_equal(uart_parse_options("ttyS00000000000000000000001", &p), -EKDB_EINVAL);
}

static struct ekdb_bootinfo *good_bootinfo(void)
{
	struct ekdb_bootinfo *bi = calloc(1, sizeof(*bi));

	bi->magic = EKDB_BOOTINFO_MAGIC;
	bi->version = EKDB_BOOTINFO_VERSION;
	bi->size = sizeof(*bi);
	bi->kernel_phys = 0x1000000;
	bi->kernel_virt = 0xffffffff80200000ULL;
	bi->kernel_size = 0x100000;
	strcpy(bi->cmdline, "earlyprintk=serial");
	bi->cmdline_len = (u32)strlen(bi->cmdline);
	bi->mmap_count = 1;
	bi->mmap[0] = (struct ekdb_mmap_entry){ 0x100000, 0x1000000, EKDB_MEM_USABLE, 7 };
	bi->fb = (struct ekdb_framebuffer){ .base = 0x80000000, .size = 1280 * 800 * 4,
		.width = 1280, .height = 800, .pitch = 5120, .bpp = 32, .format = EKDB_FB_BGRX8 };
	return bi;
}

static void test_bootinfo_check(void **state)
{
	struct ekdb_bootinfo *bi = good_bootinfo();

	assert_null(bootinfo_check(bi));
	assert_non_null(bootinfo_check(NULL));
	bi->magic ^= 1;
	assert_string_equal(bootinfo_check(bi), "bad boot-info magic");
	bi->magic ^= 1;
	bi->version = 99;
	assert_non_null(bootinfo_check(bi));
	bi->version = EKDB_BOOTINFO_VERSION;
	bi->size--;
	assert_non_null(bootinfo_check(bi));
	bi->size++;
	bi->cmdline_len++;
	assert_string_equal(bootinfo_check(bi), "command line length mismatch");
	bi->cmdline_len--;
	memset(bi->cmdline, 'x', sizeof(bi->cmdline));
	assert_string_equal(bootinfo_check(bi), "command line not terminated");
	strcpy(bi->cmdline, "earlyprintk=serial");
	bi->mmap_count = EKDB_MMAP_MAX + 1;
	assert_non_null(bootinfo_check(bi));
	bi->mmap_count = 1;
	bi->mmap[0].base = 0x100001;
	assert_string_equal(bootinfo_check(bi), "memory map entry not page aligned");
	bi->mmap[0].base = 0xfffffffffffff000ULL;
	assert_string_equal(bootinfo_check(bi), "memory map entry wraps");
	bi->mmap[0].base = 0x100000;
	bi->mmap[0].type = 42;
	assert_non_null(bootinfo_check(bi));
	bi->mmap[0].type = EKDB_MEM_USABLE;
	bi->fb.pitch = 100;
	assert_string_equal(bootinfo_check(bi), "framebuffer pitch smaller than a line");
	bi->fb.pitch = 5120;
	/* found by fuzz_bootinfo: map_direct() took the wrapped end for a small one */
	bi->fb.base = 0xfffffffffff00000ULL;
	assert_string_equal(bootinfo_check(bi), "framebuffer wraps past the top of the address space");
	bi->fb.format = EKDB_FB_VGA_TEXT;
	assert_string_equal(bootinfo_check(bi), "framebuffer wraps past the top of the address space");
	bi->fb.format = EKDB_FB_NONE;
	assert_null(bootinfo_check(bi));
	free(bi);
}

/* A MADT with 3 enabled CPUs, 1 disabled, an I/O APIC, and one override. */
static size_t build_madt(u8 *buf)
{
	size_t n = 44;

	memset(buf, 0, 256);
	memcpy(buf, "APIC", 4);
	buf[36] = 0x00; buf[37] = 0x00; buf[38] = 0xe0; buf[39] = 0xfe;	/* 0xfee00000 */
	for (int i = 0; i < 4; i++) {
		u8 *e = buf + n;

		e[0] = 0; e[1] = 8; e[2] = (u8)i; e[3] = (u8)(i * 2);
		e[4] = i == 2 ? 0 : 1;	/* CPU 2 disabled */
		n += 8;
	}
	buf[n] = 1; buf[n + 1] = 12; buf[n + 2] = 3;	/* I/O APIC id 3 */
	buf[n + 4] = 0x00; buf[n + 5] = 0x00; buf[n + 6] = 0xc0; buf[n + 7] = 0xfe;
	buf[n + 8] = 0;					/* GSI base 0 */
	n += 12;
	/* overrides as QEMU's: IRQ 0 -> GSI 2 (conforms); IRQ 9 -> GSI 9, level, active high */
	buf[n] = 2; buf[n + 1] = 10; buf[n + 2] = 0; buf[n + 3] = 0; buf[n + 4] = 2;
	n += 10;
	buf[n] = 2; buf[n + 1] = 10; buf[n + 2] = 0; buf[n + 3] = 9; buf[n + 4] = 9;
	buf[n + 8] = ACPI_MPS_LEVEL | ACPI_MPS_ACTIVE_HIGH;
	n += 10;
	/* an override for a bus other than ISA: ignored */
	buf[n] = 2; buf[n + 1] = 10; buf[n + 2] = 1; buf[n + 3] = 4; buf[n + 4] = 20;
	n += 10;
	u32 len = (u32)n;
	memcpy(buf + 4, &len, 4);
	return n;
}

static void test_madt(void **state)
{
	u8 buf[256];
	size_t len = build_madt(buf);
	struct acpi_info info;

	memset(&info, 0, sizeof(info));
	assert_int_equal(acpi_parse_madt(buf, len, &info), 0);
	assert_true(info.found);
	assert_int_equal(info.cpu_count, 3);
	assert_int_equal(info.cpus[2].apic_id, 6);
	assert_true(info.lapic_base == 0xfee00000);
	assert_true(info.ioapic_base == 0xfec00000);
	assert_int_equal(info.ioapic_id, 3);
	assert_int_equal(info.ioapic_gsi_base, 0);
	assert_int_equal(info.override_count, 2);
	assert_int_equal(info.overrides[0].source, 0);
	assert_int_equal(info.overrides[0].gsi, 2);
	assert_int_equal(info.overrides[0].flags, 0);
	assert_int_equal(info.overrides[1].source, 9);
	assert_int_equal(info.overrides[1].gsi, 9);
	assert_int_equal(info.overrides[1].flags & ACPI_MPS_TRIGGER_MASK, ACPI_MPS_LEVEL);
	/* bad inputs: wrong signature, truncated, an entry of length 0 or past the end */
	memset(&info, 0, sizeof(info));
	buf[0] = 'X';
	assert_int_equal(acpi_parse_madt(buf, len, &info), -EKDB_EINVAL);
	buf[0] = 'A';
	assert_int_equal(acpi_parse_madt(buf, 20, &info), -EKDB_EINVAL);
	assert_int_equal(acpi_parse_madt(buf, len - 1, &info), -EKDB_EINVAL);
	buf[44 + 1] = 0;
	assert_int_equal(acpi_parse_madt(buf, len, &info), -EKDB_EINVAL);
	buf[44 + 1] = 200;
	assert_int_equal(acpi_parse_madt(buf, len, &info), -EKDB_EINVAL);
}

static void test_dr7_encoding(void **state)
{
	/* slot 0, execute: G0 only, RW=00 LEN=00 */
	assert_true(x86_dr7_slot(0, DR_RW_EXEC, 8) == 0x2);
	/* slot 1, write, 4 bytes: G1 (bit 3), RW1=01 at bits 20-21, LEN1=11 at 22-23 */
	assert_true(x86_dr7_slot(1, DR_RW_WRITE, 4) == ((1ULL << 3) | (1ULL << 20) | (3ULL << 22)));
	/* slot 3, access, 8 bytes: LEN=10 */
	assert_true(x86_dr7_slot(3, DR_RW_ACCESS, 8) == ((1ULL << 7) | (3ULL << 28) | (2ULL << 30)));
	/* slot 2, 2 bytes: LEN=01 */
	assert_true((x86_dr7_slot(2, DR_RW_WRITE, 2) >> 26 & 3) == 1);
	assert_true(x86_dr7_slot_mask(2) == ((3ULL << 4) | (0xfULL << 24)));
}

static void test_sstep_classify(void **state)
{
	static const u8 pushf[] = { 0x9c }, popf[] = { 0x66, 0x9d }, iret[] = { 0x48, 0xcf };
	static const u8 cli[] = { 0xfa }, sti[] = { 0xfb }, mov[] = { 0x48, 0x89, 0xe5 };
	static const u8 prefixes_only[] = { 0x66, 0x67, 0xf3 };

	assert_int_equal(x86_classify_insn(pushf, 1), X86_STEP_PUSHF);
	assert_int_equal(x86_classify_insn(popf, 2), X86_STEP_POPF);
	assert_int_equal(x86_classify_insn(iret, 2), X86_STEP_IRET);
	assert_int_equal(x86_classify_insn(cli, 1), X86_STEP_CLI);
	assert_int_equal(x86_classify_insn(sti, 1), X86_STEP_STI);
	assert_int_equal(x86_classify_insn(mov, 3), X86_STEP_OTHER);
	assert_int_equal(x86_classify_insn(prefixes_only, 3), X86_STEP_OTHER);
	assert_int_equal(x86_classify_insn(NULL, 0), X86_STEP_OTHER);
}

static void test_sstep_pushf_fixup(void **state)
{
	struct pt_regs r = { 0 };
	struct arch_dbg_step st = { 0 };
	u64 pushed;

	fake_mem[0] = 0x9c;				/* pushf at FAKE_BASE */
	r.rip = FAKE_BASE;
	r.rflags = X86_EFLAGS_IF | 0x2;
	arch_dbg_step_prepare(&r, &st);
	assert_true(r.rflags & X86_EFLAGS_TF);
	assert_false(r.rflags & X86_EFLAGS_IF);		/* no interrupts during the step */
	/* the CPU ran pushf: it stored TF set and IF clear at the new rsp */
	r.rsp = FAKE_BASE + 0x80;
	pushed = r.rflags;
	arch_dbg_probe_write(r.rsp, &pushed, 8);
	r.rip++;
	arch_dbg_step_finish(&r, &st);
	arch_dbg_probe_read(&pushed, r.rsp, 8);
	assert_false(pushed & X86_EFLAGS_TF);		/* program never sees our TF */
	assert_true(pushed & X86_EFLAGS_IF);		/* ...and sees its own IF */
	assert_false(r.rflags & X86_EFLAGS_TF);
	assert_true(r.rflags & X86_EFLAGS_IF);
}

static void test_sstep_flag_insns(void **state)
{
	struct pt_regs r = { 0 };
	struct arch_dbg_step st = { 0 };

	/* cli: IF stays off after the step even though it was on before */
	fake_mem[0] = 0xfa;
	r.rip = FAKE_BASE;
	r.rflags = X86_EFLAGS_IF | 0x2;
	arch_dbg_step_prepare(&r, &st);
	arch_dbg_step_finish(&r, &st);
	assert_false(r.rflags & (X86_EFLAGS_IF | X86_EFLAGS_TF));
	/* sti: IF on afterwards */
	fake_mem[0] = 0xfb;
	r.rflags = 0x2;
	arch_dbg_step_prepare(&r, &st);
	arch_dbg_step_finish(&r, &st);
	assert_true(r.rflags & X86_EFLAGS_IF);
	assert_false(r.rflags & X86_EFLAGS_TF);
	/* popf: flags are what it loaded (IF off here), TF cleared */
	fake_mem[0] = 0x9d;
	r.rflags = X86_EFLAGS_IF | 0x2;
	arch_dbg_step_prepare(&r, &st);
	r.rflags = 0x2 | X86_EFLAGS_TF;			/* as loaded + our TF still pending */
	arch_dbg_step_finish(&r, &st);
	assert_false(r.rflags & X86_EFLAGS_IF);
	/* ordinary instruction: the original IF comes back */
	fake_mem[0] = 0x90;
	r.rflags = X86_EFLAGS_IF | 0x2;
	arch_dbg_step_prepare(&r, &st);
	arch_dbg_step_finish(&r, &st);
	assert_true(r.rflags & X86_EFLAGS_IF);
	assert_false(r.rflags & X86_EFLAGS_TF);
	/* unreadable pc: still steps, as an ordinary instruction */
	r.rip = 0xdead0000;
	arch_dbg_step_prepare(&r, &st);
	assert_int_equal(st.insn, X86_STEP_OTHER);
	arch_dbg_step_finish(&r, &st);
	assert_false(r.rflags & X86_EFLAGS_TF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serial_options),
		cmocka_unit_test(test_bootinfo_check),
		cmocka_unit_test(test_madt),
		cmocka_unit_test(test_dr7_encoding),
		cmocka_unit_test(test_sstep_classify),
		cmocka_unit_test(test_sstep_pushf_fixup),
		cmocka_unit_test(test_sstep_flag_insns),
	};
	return cmocka_run_group_tests_name("early_pure", tests, NULL, NULL);
}
