# Host test for the loader's pure ELF validation (boot/elf_check.c).
test_elf_check_SRCS := boot/elf_check.c
