# gdbstub plain mode, ekdb on Linux (sources listed in test_gdb_packet.mk).
test_gdb_plain_SRCS = $(GDBSIM_SRCS)
