# Host tests of the kdb shell (see tests/host/host.mk for the convention):
# kdb/ + gdbstub (gdb_sniff) + lib over the sim target and the sim channel.
include arch/x86/tdesc.mk
KDB_HOST_SRCS := $(sort $(wildcard kdb/*.c)) gdbstub/packet.c gdbstub/session.c \
                 gdbstub/dispatch.c gdbstub/cmd_mem.c gdbstub/cmd_reg.c gdbstub/cmd_break.c \
                 gdbstub/cmd_run.c gdbstub/cmd_query.c gdbstub/cmd_thread.c \
                 gdbstub/cmd_monitor.c lib/fmt.c lib/hex.c lib/parse.c lib/errno.c \
                 $(X86_TDESC_SRCS) arch/x86/insn.c arch/x86/frame.c tests/host/sim_target.c tests/host/sim_port.c tests/host/sim_chan.c \
                 $(BUILD)/host/gen/kdb_cmds.c

# The initial command file, generated for the host build (kdb/kdb.mk does the kernel's).
$(BUILD)/host/gen/kdb_cmds.c: kdb/kdb_cmds tools/gen-kdb-cmds.py
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/gen-kdb-cmds.py kdb/kdb_cmds > $@

test_kdb_SRCS := $(KDB_HOST_SRCS)
