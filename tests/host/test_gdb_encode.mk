# Reply encodings: RLE, spans, hex and binary escaping (sources listed in test_gdb_packet.mk).
test_gdb_encode_SRCS = $(GDBSIM_SRCS)
