test_fmt_SRCS := lib/fmt.c
