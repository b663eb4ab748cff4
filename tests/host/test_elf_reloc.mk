# Host test for the loader's pure kernel relocation (boot/elf_reloc.c, KASLR).
test_elf_reloc_SRCS := boot/elf_reloc.c
