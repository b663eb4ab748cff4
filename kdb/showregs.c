/* SPDX-License-Identifier: GPL-2.0 */
/*
 * showregs.c - Linux 6.x's x86-64 formats for what bt and ef print:
 * dump_stack's "CPU: N PID: N Comm: ..." line, __show_regs() (RIP with
 * the Code: bytes, RSP/EFLAGS, the general registers, and for ef the
 * segment, control and debug registers), and show_trace_log_lvl()'s
 * "Call Trace:" with <TASK> markers: every kernel text address found on
 * the stack is printed, those the frame-pointer chain vouches for plain,
 * the others after "? ".  The data come from the abstract target.
 */
#include "kdb.h"

#define CODE_PROLOGUE	42	/* Linux's show_opcodes(): bytes before rip */
#define CODE_EPILOGUE	21	/* and after */
#define SCAN_MAX_WORDS	2048	/* stack words looked at without a frame chain above */
#define CHAIN_MAX	64	/* frames followed */

/** kdb_is_text - is @addr inside a function of the kernel (nm type T/t)? */
bool kdb_is_text(struct kdb_session *s, u64 addr, struct ksym *sym)
{
	struct ksym k;
	u64 off;

	if (!sym)
		sym = &k;
	return kdb_sym_by_addr(s, addr, sym, &off) && (sym->type == 'T' || sym->type == 't') &&
	       (!sym->size || off < sym->size);
}

/* Linux's %pS: "name+0xoff/0xsize", or the bare hex value. */
static void print_pS(struct kdb_session *s, u64 addr)
{
	char buf[128];

	if (kdb_sym_fmt(s, addr, buf, sizeof(buf)))
		kdb_printf(s, "%s", buf);
	else
		kdb_printf(s, "0x%llx", (unsigned long long)addr);
}

/** kdb_show_cpu_line - dump_stack_print_info()'s first line for what @cpu runs. */
void kdb_show_cpu_line(struct kdb_session *s, int cpu)
{
	struct ekdb_sysinfo si;
	struct ekdb_task t;
	size_t vlen;

	memset(&si, 0, sizeof(si));
	if (kdb_host(s)->sys_info)
		kdb_host(s)->sys_info(&si);
	if (!kdb_current_task(s, cpu, &t)) {
		memset(&t, 0, sizeof(t));
		ekdb_snprintf(t.comm, sizeof(t.comm), "swapper/%d", cpu);
	}
	for (vlen = 0; si.version[vlen] && si.version[vlen] != ' '; vlen++)
		;
	kdb_printf(s, "CPU: %d PID: %d Comm: %.20s Not tainted %s %.*s\n", cpu, t.pid, t.comm,
		   si.release, (int)vlen, si.version);
	if (si.hw_name[0])
		kdb_printf(s, "Hardware name: %s\n", si.hw_name);
}

/* show_opcodes(): 42 bytes before rip, <the byte at rip>, 21 after. */
static void show_code(struct kdb_session *s, u64 ip)
{
	u8 code[CODE_PROLOGUE + 1 + CODE_EPILOGUE];
	u64 start = ip - CODE_PROLOGUE;

	if (s->target->ops->mem_read(s->target, start, code, sizeof(code)) != (long)sizeof(code)) {
		kdb_printf(s, "Code: Unable to access opcode bytes at 0x%llx.\n",
			   (unsigned long long)start);
		return;
	}
	kdb_printf(s, "Code:");
	for (int i = 0; i < (int)sizeof(code); i++)
		kdb_printf(s, i == CODE_PROLOGUE ? " <%02x>" : " %02x", code[i]);
	kdb_printf(s, "\n");
}

/** kdb_show_regs - __show_regs(): SHOW_REGS_SHORT, or SHOW_REGS_ALL when @all. */
void kdb_show_regs(struct kdb_session *s, const struct kdb_frame *f, bool all)
{
	kdb_printf(s, "RIP: %04x:", (unsigned)(f->cs & 0xffff));
	print_pS(s, f->ip);
	kdb_printf(s, "\n");
	show_code(s, f->ip);
	kdb_printf(s, "RSP: %04x:%016llx EFLAGS: %08llx", (unsigned)(f->ss & 0xffff),
		   (unsigned long long)f->sp, (unsigned long long)f->flags);
	if (f->orig_ax != ~0ull)
		kdb_printf(s, " ORIG_RAX: %016llx\n", (unsigned long long)f->orig_ax);
	else
		kdb_printf(s, "\n");
	kdb_printf(s, "RAX: %016llx RBX: %016llx RCX: %016llx\n", (unsigned long long)f->ax,
		   (unsigned long long)f->bx, (unsigned long long)f->cx);
	kdb_printf(s, "RDX: %016llx RSI: %016llx RDI: %016llx\n", (unsigned long long)f->dx,
		   (unsigned long long)f->si, (unsigned long long)f->di);
	kdb_printf(s, "RBP: %016llx R08: %016llx R09: %016llx\n", (unsigned long long)f->bp,
		   (unsigned long long)f->r8, (unsigned long long)f->r9);
	kdb_printf(s, "R10: %016llx R11: %016llx R12: %016llx\n", (unsigned long long)f->r10,
		   (unsigned long long)f->r11, (unsigned long long)f->r12);
	kdb_printf(s, "R13: %016llx R14: %016llx R15: %016llx\n", (unsigned long long)f->r13,
		   (unsigned long long)f->r14, (unsigned long long)f->r15);
	if (!all || !f->have_sys)
		return;
	kdb_printf(s, "FS:  %016llx(%04x) GS:%016llx(%04x) knlGS:%016llx\n",
		   (unsigned long long)f->fs_base, (unsigned)(f->fs & 0xffff),
		   (unsigned long long)f->gs_base, (unsigned)(f->gs & 0xffff),
		   (unsigned long long)f->k_gs_base);
	kdb_printf(s, "CS:  %04llx DS: %04x ES: %04x CR0: %016llx\n", (unsigned long long)f->cs,
		   (unsigned)(f->ds & 0xffff), (unsigned)(f->es & 0xffff), (unsigned long long)f->cr0);
	kdb_printf(s, "CR2: %016llx CR3: %016llx CR4: %016llx\n", (unsigned long long)f->cr2,
		   (unsigned long long)f->cr3, (unsigned long long)f->cr4);
	/* Linux prints the debug registers only when they differ from their reset values */
	if (f->dr[0] || f->dr[1] || f->dr[2] || f->dr[3] || f->dr[4] != 0xffff0ff0ull ||
	    f->dr[5] != 0x400) {
		kdb_printf(s, "DR0: %016llx DR1: %016llx DR2: %016llx\n", (unsigned long long)f->dr[0],
			   (unsigned long long)f->dr[1], (unsigned long long)f->dr[2]);
		kdb_printf(s, "DR3: %016llx DR6: %016llx DR7: %016llx\n", (unsigned long long)f->dr[3],
			   (unsigned long long)f->dr[4], (unsigned long long)f->dr[5]);
	}
}

/* printk_stack_address(): " [? ]name+0xoff/0xsize" named by the call before a return address. */
static void stack_address(struct kdb_session *s, u64 addr, bool reliable)
{
	struct ksym sym;

	kdb_printf(s, " %s", reliable ? "" : "? ");
	if (kdb_is_text(s, addr - 1, &sym))
		kdb_printf(s, "%s+0x%llx/0x%llx\n", sym.name, (unsigned long long)(addr - sym.addr),
			   (unsigned long long)sym.size);
	else
		kdb_printf(s, "0x%llx\n", (unsigned long long)addr);
}

/*
 * A sleeping task's resume point @ip: the context switch that put it to
 * sleep pushed it as its return address, below the caller's frame (Linux's
 * inactive_task_frame, whose ret_addr the unwinder starts from).  When it
 * is there, that slot is the first reliable frame and the scan prints it in
 * its place; otherwise (the host saved it elsewhere) it is printed first.
 */
static void ip_first_slot(struct kdb_session *s, const struct kdb_frame *f, u64 ip, u64 end,
			  u64 *slots, int *nslots)
{
	u64 w;

	for (u64 p = f->sp & ~7ull; p < end; p += 8) {
		if (s->target->ops->mem_read(s->target, p, &w, 8) != 8)
			break;
		if (w == ip) {
			slots[(*nslots)++] = p;
			return;
		}
	}
	stack_address(s, ip, true);
}

/*
 * kdb_show_trace - show_trace_log_lvl(): "Call Trace:", <TASK>, the
 * register block when @regs, then the stack from f->sp upwards.  The
 * frame-pointer chain from f->bp marks the return-address slots whose
 * text addresses are reliable; any other text address on the stack is
 * shown with "? ".  @ip_first: a saved rip (a sleeping task's resume
 * point) printed as the first frame when it is not 0.
 */
void kdb_show_trace(struct kdb_session *s, const struct kdb_frame *f, bool regs, u64 ip_first)
{
	const struct ekdb_target_ops *o = s->target->ops;
	u64 slots[CHAIN_MAX + 1], fp = f->bp, top = 0, fr[2];
	int nslots = 0;

	kdb_printf(s, "Call Trace:\n <TASK>\n");
	if (regs)
		kdb_show_regs(s, f, false);
	/* the chain: each frame is [saved rbp][return address], going up the stack */
	while (fp && nslots < CHAIN_MAX && fp >= f->sp &&
	       o->mem_read(s->target, fp, fr, sizeof(fr)) == (long)sizeof(fr)) {
		slots[nslots++] = fp + 8;
		top = fp + 16;
		if (fr[0] <= fp)
			break;
		fp = fr[0];
	}
	if (!top)
		top = f->sp + 8 * SCAN_MAX_WORDS;
	/* never past the task's own stack (a thread stopped on its first instruction has no chain) */
	if (f->stack_top && f->sp >= f->stack_base && f->sp < f->stack_top && top > f->stack_top)
		top = f->stack_top;
	/* below the first frame of the chain, or anywhere the scan goes without one */
	if (!regs && ip_first && kdb_is_text(s, ip_first - 1, NULL))
		ip_first_slot(s, f, ip_first, nslots ? slots[0] - 8 : top, slots, &nslots);
	for (u64 p = f->sp & ~7ull; p < top && !kdb_interrupted(s); p += 8) {
		bool reliable = false;
		u64 w;

		if (o->mem_read(s->target, p, &w, 8) != 8)
			break;
		if (!kdb_is_text(s, w - 1, NULL))
			continue;
		for (int i = 0; i < nslots; i++)
			reliable |= slots[i] == p;
		stack_address(s, w, reliable);
	}
	kdb_printf(s, " </TASK>\n");
}
