# Stop replies and their registers (sources listed in test_gdb_packet.mk).
test_gdb_stop_SRCS = $(GDBSIM_SRCS)
