/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fbbench.c - test_fbbench[=KiB] (default 64): the speed of the screen
 * console (io/vga) for `make bench`, TSC-timed, reported in the log:
 *
 *   fbbench: screen <W>x<H> <format>, <cols>x<rows> cells
 *   fbbench: printk-style <N> chars in <us> us: <cps> chars/s
 *        (80-byte lines, drawn after each line, as the printk console does)
 *   fbbench: kdb-style <N> chars in <us> us: <cps> chars/s
 *        (byte by byte into the grid, drawn once at the end, as ekgdboc=kbd does)
 *   fbbench: full-screen scroll <us> us (mean of <k>, every row full; copying pixel rows instead: <us> us)
 *        (row r of that test is the alphabet starting at letter r % 26)
 *   fbbench: <cps> chars/s, scroll <us> us        <- the summary line
 *
 * Or "fbbench: no screen (...)" when there is no framebuffer.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/apic.h>
#include <asm/processor.h>
#include <ekdb/string.h>
#include "../io/vga/vga.h"


#define FBBENCH_LINE	80
#define SCROLL_ROUNDS	32

static u64 tsc_to_us(u64 cycles)
{
	u64 khz = tsc_khz ? tsc_khz : 1000000;

	return cycles * 1000 / khz;
}

static u64 per_second(u64 n, u64 us)
{
	return us ? n * 1000000 / us : 0;
}

static void make_line(char *line, unsigned k)
{
	for (unsigned i = 0; i < FBBENCH_LINE - 1; i++)
		line[i] = (char)(0x21 + (i + k) % 94);
	line[FBBENCH_LINE - 1] = '\n';
}

/* Row @r of the scroll test: the alphabet from letter r % 26, cols wide. */
static void full_row(char *buf, unsigned cols, unsigned r)
{
	for (unsigned i = 0; i < cols; i++)
		buf[i] = (char)('A' + (i + r) % 26);
}

/* Mean cost of one '\n' + draw with every row full and unlike its neighbours. */
static u64 scroll_cost(const struct vga_screen_info *info, bool by_copy)
{
	char full[VGA_SCREEN_ROW_MAX];
	u64 t0, us = 0;

	vga_screen_scroll_by_copy(by_copy);
	for (unsigned r = 0; r < info->rows; r++) {
		full_row(full, info->cols, r);
		vga_screen_write("\n", 1);
		vga_screen_write(full, info->cols);
	}
	vga_screen_sync();
	for (unsigned k = 0; k < SCROLL_ROUNDS; k++) {
		t0 = rdtsc();
		vga_screen_write("\n", 1);
		vga_screen_sync();
		us += tsc_to_us(rdtsc() - t0);
		full_row(full, info->cols, info->rows + k);
		vga_screen_write(full, info->cols);
		vga_screen_sync();
	}
	vga_screen_scroll_by_copy(false);
	return us / SCROLL_ROUNDS;
}

void fbbench_run(const char *arg)
{
	struct vga_screen_info info;
	char line[FBBENCH_LINE];
	u64 kib = 0, n, t0, us_printk, us_kdb, us_scroll, us_copy;
	int err = vga_screen_init();

	for (; *arg >= '0' && *arg <= '9'; arg++)
		kib = kib * 10 + (u64)(*arg - '0');
	if (!kib || kib > 16384)
		kib = 64;
	if (err || !vga_screen_info(&info)) {
		pr_err("fbbench: no screen (error %d): boot with a GOP framebuffer\n", err);
		return;
	}
	pr_info("fbbench: screen %ux%u %s, %ux%u cells\n", info.width, info.height, info.kind,
		info.cols, info.rows);
	n = kib * 1024 / FBBENCH_LINE * FBBENCH_LINE;

	t0 = rdtsc();
	for (u64 i = 0; i < n / FBBENCH_LINE; i++) {
		make_line(line, (unsigned)i);
		vga_screen_write(line, FBBENCH_LINE);
		vga_screen_sync();
	}
	us_printk = tsc_to_us(rdtsc() - t0);

	t0 = rdtsc();
	for (u64 i = 0; i < n / FBBENCH_LINE; i++) {
		make_line(line, (unsigned)i + 7);
		for (unsigned j = 0; j < FBBENCH_LINE; j++)
			vga_screen_write(&line[j], 1);
	}
	vga_screen_sync();
	us_kdb = tsc_to_us(rdtsc() - t0);

	us_scroll = scroll_cost(&info, false);
	us_copy = scroll_cost(&info, true);
	vga_screen_write("\n", 1);
	vga_screen_sync();

	pr_info("fbbench: printk-style %llu chars in %llu us: %llu chars/s\n",
		(unsigned long long)n, (unsigned long long)us_printk,
		(unsigned long long)per_second(n, us_printk));
	pr_info("fbbench: kdb-style %llu chars in %llu us: %llu chars/s\n",
		(unsigned long long)n, (unsigned long long)us_kdb,
		(unsigned long long)per_second(n, us_kdb));
	pr_info("fbbench: full-screen scroll %llu us (mean of %u, every row full; "
		"copying pixel rows instead: %llu us)\n",
		(unsigned long long)us_scroll, SCROLL_ROUNDS, (unsigned long long)us_copy);
	pr_info("fbbench: %llu chars/s, scroll %llu us\n",
		(unsigned long long)per_second(n, us_printk), (unsigned long long)us_scroll);
}
