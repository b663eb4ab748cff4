test_kdb_cmds_shell_SRCS = $(KDB_HOST_SRCS)
