test_kdb_pager_SRCS = $(KDB_HOST_SRCS)
