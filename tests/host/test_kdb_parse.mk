test_kdb_parse_SRCS = $(KDB_HOST_SRCS)
