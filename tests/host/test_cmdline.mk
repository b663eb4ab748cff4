test_cmdline_SRCS := lib/cmdline.c lib/parse.c
