# SPDX-License-Identifier: GPL-2.0
"""lx-ps and $lx_task_by_pid(): the task list of kernel-glue/sched.c
(task_list_head -> init_task -> ... linked by next_task, append only)."""

import gdb

from ekdb_gdb import utils

MAX_TASKS = 100000      # a list longer than this is a corrupted list


def sched_running():
    return bool(utils.var("sched_up", "kernel-glue/sched.c"))


def task_list():
    """Every struct task_struct * in creation order."""
    t = utils.var("task_list_head")
    seen = set()
    while int(t):
        if int(t) in seen or len(seen) > MAX_TASKS:
            raise utils.Error(f"the task list loops at 0x{int(t):x}: corrupted?")
        seen.add(int(t))
        yield t
        t = utils.load(t.dereference(), "a task_struct")["next_task"]


def task_comm(t):
    try:
        return t["comm"].string().split("\0")[0]
    except (gdb.MemoryError, UnicodeDecodeError):
        return "?"


def state_char(t):
    """As kernel-glue's task_state_char(): R running/runnable, S, X dead."""
    s = str(t["state"])
    return {"TASK_RUNNING": "R", "TASK_RUNNABLE": "R", "TASK_SLEEPING": "S",
            "TASK_DEAD": "X"}.get(s, "?")


class LxPs(gdb.Command):
    """List the kernel's tasks (kernel-glue/sched.c's task list).

Usage: lx-ps
Columns as Linux's lx-ps: the task_struct address, the pid, the name.
Before sched_init() (at kgdbwait) only the boot context, swapper/0, exists:
lx-ps says so."""

    def __init__(self):
        super().__init__("lx-ps", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("lx-ps", arg)
        utils.need_target("lx-ps")
        rows = [f"{'TASK':>10} {'PID':>12} {'COMM':>7}"]
        for t in task_list():
            rows.append(f"0x{int(t):016x} {int(t['pid']):^5} {task_comm(t)}")
        gdb.write("\n".join(rows) + "\n")
        if not sched_running():
            gdb.write("lx-ps: the scheduler is not running yet (sched_init() has not run): "
                      "no tasks besides the boot context swapper/0\n")


class LxTaskByPid(gdb.Function):
    """The struct task_struct of pid PID.

Usage: $lx_task_by_pid(PID)   e.g.  p $lx_task_by_pid(1).comm"""

    def __init__(self):
        super().__init__("lx_task_by_pid")

    def invoke(self, pid=None, *extra):
        if pid is None or extra or pid.type.strip_typedefs().code != gdb.TYPE_CODE_INT:
            raise utils.Error("usage: $lx_task_by_pid(PID), PID an integer")
        utils.need_target("$lx_task_by_pid")
        for t in task_list():
            if int(t["pid"]) == int(pid):
                return t.dereference()
        raise utils.Error(f"$lx_task_by_pid: no task with pid {int(pid)}"
                          + ("" if sched_running() else
                             " (the scheduler is not running yet: only swapper/0 exists)"))


LxPs()
LxTaskByPid()
