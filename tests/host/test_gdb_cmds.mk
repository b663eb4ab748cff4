# Handler tables for every gdb packet (sources listed in test_gdb_packet.mk).
test_gdb_cmds_SRCS = $(GDBSIM_SRCS)
