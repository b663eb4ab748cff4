/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugger.c - the UEFI side of the loader debugger (boot/dbg/): reads
 * ekdb.loader= and ekgdboc= from the command line, says on the loader's
 * console what it does (or why it stays off), and calls boot/dbg/.
 * Without ekdb.loader= nothing here touches the machine.
 */
#include "loader.h"
#include "ldr_dbg.h"

static struct ldr_dbg_opts opts;
static UINT64 tsc_spent;	/* TSC cycles of debugger work on the way (not stopped) */

static UINT64 tsc(void)
{
	UINT32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((UINT64)hi << 32) | lo;
}

void ldr_debugger_start(struct loader *L)
{
	struct ldr_dbg_image img;
	UINT64 t0 = tsc();
	EFI_STATUS st;
	int err;

	ldr_dbg_parse_opts(L->bi->cmdline, &opts);
	if (opts.warning)
		ldr_info(L"%a", opts.warning);
	if (opts.off_reason) {
		ldr_info(L"%a: the loader debugger stays off", opts.off_reason);
		return;
	}
	if (opts.mode == LDR_DBG_OFF)
		return;
	img.base = (UINT64)(UINTN)L->li->ImageBase;
	img.size = L->li->ImageSize;
	err = ldr_dbg_start(&opts, &img, L->bi);
	tsc_spent += tsc() - t0;
	if (err) {
		ldr_info(L"ekgdboc=%a: %a: the loader debugger stays off", opts.ekgdboc,
			 ldr_dbg_strerror(err));
		return;
	}
	/* a stop must not end in the firmware's watchdog reset (5 min after the boot option started) */
	st = uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
	ldr_info(L"debugger armed on %a (ekdb.loader=%a), loader image at 0x%lx%a",
		 opts.ekgdboc, opts.mode == LDR_DBG_WAIT ? "wait" : "on", img.base,
		 EFI_ERROR(st) ? ", the watchdog could not be disabled" : "");
}

void ldr_debugger_kernel_file(struct loader *L, const void *file, UINTN size)
{
	UINT64 t0;

	if (!ldr_dbg_armed())
		return;
	t0 = tsc();
	ldr_dbg_kernel_file(file, size);
	tsc_spent += tsc() - t0;
}

/* ekdb.loader_test=fault: a #GP in the loader, from a named function gdb's bt shows. */
static __attribute__((noinline)) void ldr_test_fault(void)
{
	volatile UINT64 *bad = (volatile UINT64 *)0x8000000000000000ULL;	/* not canonical */

	ldr_info(L"ekdb.loader_test=fault: reading 0x%lx", (UINT64)(UINTN)bad);
	(void)*bad;
}

void ldr_debugger_stop(struct loader *L)
{
	if (opts.test == LDR_DBG_TEST_FAULT)
		ldr_test_fault();
	if (!ldr_dbg_armed())
		return;
	/* what arming cost this boot (docs/bench.md: ekdb.loader=on vs none) */
	ldr_info(L"debugger work so far: %ld TSC cycles", tsc_spent);
	if (opts.mode != LDR_DBG_WAIT)
		return;
	if (opts.line >= 0)
		ldr_info(L"waiting for the debugger on ttyS%d", opts.line);
	else
		ldr_info(L"waiting for the debugger on port 0x%x", opts.port);
	ldr_dbg_wait();
}

/* After ExitBootServices (no console): the session goes to the kernel in the record. */
void ldr_debugger_handoff(struct loader *L)
{
	ldr_dbg_handoff(L->bi);
}

void ldr_debugger_release(struct loader *L)
{
	ldr_dbg_release();
}
