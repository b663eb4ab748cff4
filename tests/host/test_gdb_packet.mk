# Host tests for the gdbstub (see tests/host/host.mk for the convention).
# arch/x86/include is needed for the register table used by the sim target;
# X86_TDESC_SRCS (arch/x86/tdesc.mk) adds the generated target.xml.
include arch/x86/tdesc.mk
HOST_CFLAGS += -Iarch/x86/include

GDBSTUB_SRCS := gdbstub/packet.c gdbstub/session.c gdbstub/dispatch.c gdbstub/cmd_mem.c \
                gdbstub/cmd_reg.c gdbstub/cmd_break.c gdbstub/cmd_run.c gdbstub/cmd_query.c \
                gdbstub/cmd_thread.c gdbstub/cmd_monitor.c lib/hex.c lib/parse.c lib/fmt.c \
                $(X86_TDESC_SRCS)
GDBSIM_SRCS  := $(GDBSTUB_SRCS) tests/host/sim_target.c tests/host/sim_port.c tests/host/sim_chan.c

test_gdb_packet_SRCS := $(GDBSIM_SRCS)

# gdb-sim: the stub over the sim target on stdin/stdout, for real gdb.
$(BUILD)/host/gdbsim: tests/host/gdbsim_main.c $(GDBSIM_SRCS)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MF $@.d -o $@ $(filter %.c,$^)
-include $(BUILD)/host/gdbsim.d

.PHONY: check-gdbsim
check-gdbsim: $(BUILD)/host/gdbsim
	$(Q)tests/host/test_gdbsim_real_gdb.sh $(BUILD)/host/gdbsim
	$(Q)tests/host/test_gdbsim_real_lldb.sh $(BUILD)/host/gdbsim
