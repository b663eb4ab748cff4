test_ekdbts_SRCS := selftest/ekdbts_wire.c lib/parse.c
