# SPDX-License-Identifier: GPL-2.0
"""lx-cpus, $lx_per_cpu() and $lx_current(): kernel-glue's per-CPU records
(struct percpu percpu_area[NR_CPUS], <kernel/percpu.h>)."""

import gdb

from ekdb_gdb import utils
from ekdb_gdb.tasks import task_comm


def percpu_area():
    return utils.var("percpu_area")


def nr_cpus():
    area = percpu_area()
    return area.type.sizeof // area.type.target().sizeof


def percpu_ready():
    return bool(utils.var("percpu_ready"))


def cpu_arg(cpu, fname):
    """A CPU number from a function argument (default: the selected thread's)."""
    if cpu is None:
        return utils.selected_cpu()
    if cpu.type.strip_typedefs().code != gdb.TYPE_CODE_INT:
        raise utils.Error(f"{fname}: the CPU must be an integer")
    n = int(cpu)
    if not 0 <= n < nr_cpus():
        raise utils.Error(f"{fname}: no CPU {n} (NR_CPUS is {nr_cpus()})")
    return n


def percpu(n):
    return utils.load(percpu_area()[n], f"percpu_area[{n}]")


def current_task(n, fname):
    if not percpu_ready():
        raise utils.Error(f"{fname}: per-CPU data is not set up yet "
                          "(percpu_init_boot_cpu() has not run)")
    t = percpu(n)["curr_task"]
    if not int(t):
        raise utils.Error(f"{fname}: CPU {n} has no current task "
                          + ("(it is not online)" if not bool(percpu(n)["online"])
                             else "yet"))
    return t


class LxCurrent(gdb.Function):
    """The task running on a CPU, as a struct task_struct.

Usage: $lx_current([CPU])   e.g.  p $lx_current().comm,  p $lx_current(1).pid
CPU defaults to the CPU of gdb's selected thread (thread N is CPU N-1).
Read from percpu_area[CPU].curr_task (kernel-glue's `current`)."""

    def __init__(self):
        super().__init__("lx_current")

    def invoke(self, cpu=None, *extra):
        if extra:
            raise utils.Error("usage: $lx_current([CPU])")
        utils.need_target("$lx_current")
        return current_task(cpu_arg(cpu, "$lx_current"), "$lx_current").dereference()


class LxPerCpu(gdb.Function):
    """A member of a CPU's per-CPU record (struct percpu).

Usage: $lx_per_cpu("FIELD"[, CPU])   e.g.  p $lx_per_cpu("ticks", 1)
FIELD is a member of struct percpu (kernel-glue/include/kernel/percpu.h:
cpu, apic_id, curr_task, idle_task, online, ticks, nr_switches, ...);
CPU defaults to the CPU of gdb's selected thread."""

    def __init__(self):
        super().__init__("lx_per_cpu")

    def invoke(self, field=None, cpu=None, *extra):
        usage = 'usage: $lx_per_cpu("FIELD"[, CPU])'
        if field is None or extra:
            raise utils.Error(usage)
        try:
            name = field.string()
        except gdb.error:
            raise utils.Error(usage + ": FIELD is a string, e.g. \"ticks\"")
        utils.need_target("$lx_per_cpu")
        names = [f.name for f in percpu_area().type.target().fields()]
        if name not in names:
            raise utils.Error(f"$lx_per_cpu: struct percpu has no member {name!r} "
                              f"(it has: {', '.join(names)})")
        return percpu(cpu_arg(cpu, "$lx_per_cpu"))[name]


class LxCpus(gdb.Command):
    """List the CPUs: per-CPU record, APIC id, state, current task, ticks.

Usage: lx-cpus
One line per CPU that may come online (nr_cpu_ids) or is online, from
percpu_area[] (kernel-glue/include/kernel/percpu.h); '*' marks the CPU of
gdb's selected thread."""

    def __init__(self):
        super().__init__("lx-cpus", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("lx-cpus", arg)
        utils.need_target("lx-cpus")
        if not percpu_ready():
            gdb.write("lx-cpus: per-CPU data is not set up yet "
                      "(percpu_init_boot_cpu() has not run)\n")
            return
        sel = utils.selected_cpu()
        possible = int(utils.var("nr_cpu_ids"))
        gdb.write(f"  CPU  APIC  STATE    PERCPU              CURRENT                           "
                  f"TICKS  SWITCHES\n")
        for n in range(nr_cpus()):
            p = percpu(n)
            online = bool(p["online"])
            if n >= max(possible, 1) and not online:
                continue
            t = p["curr_task"]
            if int(t):
                tv = utils.load(t.dereference(), "a task_struct")
                cur = f"0x{int(t):016x} {task_comm(tv)} ({int(tv['pid'])})"
            else:
                cur = "-"
            mark = "*" if n == sel else " "
            gdb.write(f"{mark}{n:>4}  {int(p['apic_id']):>4}  "
                      f"{'online' if online else 'offline':<7}  0x{int(p.address):016x}  "
                      f"{cur:<32}  {int(p['ticks']):>5}  {int(p['nr_switches']):>8}\n")


LxCurrent()
LxPerCpu()
LxCpus()
