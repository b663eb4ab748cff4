/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_port.c - the host simulator's side of the porting interface
 * (<ekdb/port.h>), the third host beside the reference kernel
 * (kernel-glue/debug_port.c, debug_glue.c) and the loader (boot/dbg/glue.c):
 * the simulated kernel's tasks, log, modules, system summary, per-CPU
 * areas, signals, reboot and sysrq, over the machine sim_target_init()
 * attached (its threads, its RAM).  Its log sink is host_log.c's vprintk
 * (host_log_port).  docs/porting.md walks through it.
 */
#include <string.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "sim_port.h"

/* The simulated machine the services describe (sim_target_init()). */
static struct sim_target *machine;

/* The stored form of the kernel's log (kernel-glue/printk.c): "<level>[seconds] text". */
static const char sim_log_text[] =
	"<5>[    0.000000] Linux version 0.1-sim (ekdb) #1\n"
	"<6>[    0.000000] Command line: earlyprintk=serial ekgdboc=ttyS0 kgdbwait\n"
	"<6>[    0.012345] kgdb: Registered I/O driver ekgdboc (ttyS0)\n"
	"<6>[    0.012400] kgdb: Waiting for connection from remote gdb...\n"
	"<6>[    1.500000] Memory: 131072K total\n";

static const struct ekdb_task sim_tasks[] = {
	{ .addr = SIM_RAM0_BASE + 0x200, .pid = 0, .comm = "swapper/0", .state = 'R',
	  .cpu = 0, .running = true, .is_idle = true },
	{ .addr = SIM_RAM0_BASE + 0x400, .pid = 1, .comm = "kheartbeat", .state = 'S',
	  .cpu = 0, .rip = SIM_SLEEP_IP, .rsp = SIM_SLEEP_SP,
	  .rbp = SIM_FRAME_BASE },
	{ .addr = SIM_RAM0_BASE + 0x600, .pid = 2, .comm = "kworker", .state = 'R',
	  /* stopped on its first instruction: no frame chain yet (rbp 0); its
	   * stack ends just above the first frame's return address */
	  .cpu = 1, .rip = SIM_TEXT_BASE + 0x110, .rsp = SIM_FRAME_BASE - 0x18, .rbp = 0,
	  .stack_base = SIM_FRAME_BASE - 0x800, .stack_top = SIM_FRAME_BASE + 0x10 },
	{ .addr = SIM_RAM0_BASE + 0x800, .pid = 3, .comm = "oldtask", .state = 'X',
	  .cpu = 0 },
};

static int sim_task_get(int index, struct ekdb_task *task)
{
	struct sim_target *s = machine;

	if (index < 0 || index >= s->ntasks || index >= (int)ARRAY_SIZE(sim_tasks))
		return -EKDB_ENOENT;
	*task = sim_tasks[index];
	return 0;
}

static long sim_log_read(u64 pos, char *buf, size_t len)
{
	struct sim_target *s = machine;
	size_t n;

	if (!s->log || pos >= s->log_len)
		return 0;
	n = MIN(len, s->log_len - (size_t)pos);
	memcpy(buf, s->log + pos, n);
	return (long)n;
}

/* Physical memory is RAM0 at physical 0x1000 (same as its virtual address). */
static long sim_phys_read(u64 paddr, void *buf, size_t len)
{
	if (paddr < SIM_RAM0_BASE || paddr >= SIM_RAM0_BASE + SIM_RAM0_SIZE)
		return -EKDB_EFAULT;
	len = MIN(len, SIM_RAM0_BASE + SIM_RAM0_SIZE - paddr);
	memcpy(buf, sim_target_mem(machine, paddr), len);
	return (long)len;
}

static int sim_mod_get(int index, struct ekdb_module *mod)
{
	static const char *const names[] = { "serial", "printk", "page_alloc" };

	if (index < 0 || index >= (int)ARRAY_SIZE(names))
		return -EKDB_ENOENT;
	memset(mod, 0, sizeof(*mod));
	strlcpy(mod->name, names[index], sizeof(mod->name));
	mod->addr = SIM_TEXT_BASE + 0x800 + 0x100 * (u64)index;
	mod->size = 0x1000 * (u64)(index + 1);
	strlcpy(mod->state, "Live", sizeof(mod->state));
	return 0;
}

static int sim_sys_info(struct ekdb_sysinfo *info)
{
	memset(info, 0, sizeof(*info));
	strlcpy(info->sysname, "ekdb", sizeof(info->sysname));
	strlcpy(info->release, "0.1-sim", sizeof(info->release));
	strlcpy(info->version, "#1 host simulation", sizeof(info->version));
	strlcpy(info->machine, "x86_64", sizeof(info->machine));
	info->uptime_ms = 61500;
	info->ncpus = (unsigned)machine->nthreads;
	info->mem_total_kb = 131072;
	info->mem_free_kb = 100000;
	info->have_mem = true;
	info->realtime_s = 1764770400 + 3723;	/* 2025-12-03 15:02:03 UTC */
	info->loads[0] = 2048 + 1024;		/* 1.50 */
	info->loads[1] = 256;			/* 0.12 */
	info->loads[2] = 0;
	return 0;
}

/* Each simulated CPU's per-CPU area is 0x40 bytes after the previous one. */
static int sim_percpu_offset(unsigned cpu, u64 *offset)
{
	if (cpu >= (unsigned)machine->nthreads)
		return -EKDB_ENOENT;
	*offset = 0x40 * (u64)cpu;
	return 0;
}

static int sim_task_signal(int pid, int sig)
{
	struct sim_target *s = machine;

	if (pid < 0 || pid >= s->ntasks || sim_tasks[pid].state == 'X')
		return -EKDB_EINVAL;
	s->last_signal = sig;
	s->last_signal_pid = pid;
	return 0;
}

static int sim_reboot(void)
{
	machine->reboots++;
	return -EKDB_EIO;	/* a real reboot does not return */
}

static int sim_sysrq(char key)
{
	if (key != 'h' && key != 'm' && key != 't')
		return -EKDB_EINVAL;
	machine->last_sysrq = key;
	return 0;
}

const struct ekdb_stopped_ops sim_port_stopped = {
	.task_get = sim_task_get,
	.log_read = sim_log_read,
	.phys_read = sim_phys_read,
	.mod_get = sim_mod_get,
	.sys_info = sim_sys_info,
	.reboot = sim_reboot,
	.sysrq = sim_sysrq,
	.percpu_offset = sim_percpu_offset,
	.task_signal = sim_task_signal,
};

void sim_port_attach(struct sim_target *s)
{
	machine = s;
	s->host = sim_port_stopped;
	s->log = sim_log_text;
	s->log_len = sizeof(sim_log_text) - 1;
	s->ntasks = (int)ARRAY_SIZE(sim_tasks);
}
