# Host test for the loader's pure command line extraction (boot/cmdline_parse.c).
test_cmdline_parse_SRCS := boot/cmdline_parse.c
