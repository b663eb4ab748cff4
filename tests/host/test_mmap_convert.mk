# Host test for the loader's memory map conversion (boot/mmap_convert.c).
test_mmap_convert_SRCS := boot/mmap_convert.c
