test_kdb_edit_SRCS = $(KDB_HOST_SRCS)
