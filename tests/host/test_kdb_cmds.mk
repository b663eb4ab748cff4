test_kdb_cmds_SRCS = $(KDB_HOST_SRCS)
