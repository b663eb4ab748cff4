test_ekdbts_SRCS := core/ekdbts_wire.c lib/parse.c
