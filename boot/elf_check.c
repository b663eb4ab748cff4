/* SPDX-License-Identifier: GPL-2.0 */
/* elf_check.c - pure validation of an in-memory x86-64 kernel ELF (no UEFI, host-testable). */
#include "elf_check.h"

static void copy_bytes(void *dst, const void *src, uint64_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
}

/* a + b without wrapping; returns 0 on overflow. */
static int add_ok(uint64_t a, uint64_t b, uint64_t *sum)
{
	if (a > UINT64_MAX - b)
		return 0;
	*sum = a + b;
	return 1;
}

static int canonical(uint64_t va)
{
	uint64_t top = va >> 47;

	return top == 0 || top == 0x1ffff;
}

void ekdb_elf_phdr(const void *file, unsigned int i, struct ekdb_elf64_phdr *ph)
{
	struct ekdb_elf64_ehdr eh;

	copy_bytes(&eh, file, sizeof(eh));
	copy_bytes(ph, (const uint8_t *)file + eh.e_phoff + (uint64_t)i * eh.e_phentsize,
		   sizeof(*ph));
}

static const char *check_header(const struct ekdb_elf64_ehdr *eh, uint64_t file_size)
{
	uint64_t table_size, table_end;

	if (eh->e_ident[0] != 0x7f || eh->e_ident[1] != 'E' ||
	    eh->e_ident[2] != 'L' || eh->e_ident[3] != 'F')
		return "not an ELF file (bad magic)";
	if (eh->e_ident[4] != EKDB_ELFCLASS64)
		return "not an x86-64 ELF (not ELFCLASS64)";
	if (eh->e_ident[5] != EKDB_ELFDATA2LSB)
		return "not an x86-64 ELF (not little endian)";
	if (eh->e_ident[6] != EKDB_EV_CURRENT || eh->e_version != EKDB_EV_CURRENT)
		return "unknown ELF version";
	if (eh->e_machine != EKDB_EM_X86_64)
		return "not an x86-64 ELF (e_machine is not EM_X86_64)";
	if (eh->e_type == EKDB_ET_DYN)
		return "ELF is ET_DYN (position independent); the kernel must be ET_EXEC";
	if (eh->e_type != EKDB_ET_EXEC)
		return "ELF is not an executable (e_type is not ET_EXEC)";
	if (eh->e_phnum == 0)
		return "ELF has no program headers";
	if (eh->e_phnum > EKDB_ELF_MAX_PHDRS)
		return "ELF has too many program headers";
	if (eh->e_phentsize != sizeof(struct ekdb_elf64_phdr))
		return "ELF program header size is wrong";
	table_size = (uint64_t)eh->e_phnum * eh->e_phentsize;
	if (!add_ok(eh->e_phoff, table_size, &table_end) || table_end > file_size)
		return "ELF program headers truncated (beyond end of file)";
	return 0;
}

static const char *check_segment(const struct ekdb_elf64_phdr *ph, uint64_t file_size)
{
	uint64_t end;

	if (ph->p_memsz < ph->p_filesz)
		return "PT_LOAD segment has memsz < filesz";
	if (!add_ok(ph->p_offset, ph->p_filesz, &end) || end > file_size)
		return "PT_LOAD segment extends beyond the end of the file";
	if (!add_ok(ph->p_vaddr, ph->p_memsz, &end) || end > UINT64_MAX - EKDB_ELF_PAGE)
		return "PT_LOAD segment wraps around the address space";
	if ((ph->p_vaddr - ph->p_offset) % EKDB_ELF_PAGE)
		return "PT_LOAD segment vaddr and file offset are not congruent modulo 4096";
	if (ph->p_align > 1 && (ph->p_align & (ph->p_align - 1)))
		return "PT_LOAD segment alignment is not a power of two";
	if (!canonical(ph->p_vaddr) || !canonical(end - 1))
		return "PT_LOAD segment address is not canonical";
	if (ph->p_vaddr < (4ULL << 30))
		return "PT_LOAD segment below 4 GiB (the kernel must be linked above the identity map)";
	return 0;
}

const char *ekdb_elf_check(const void *file, uint64_t file_size, struct ekdb_elf_image *img)
{
	struct ekdb_elf64_ehdr eh;
	struct ekdb_elf64_phdr ph, other;
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned int i, j, nload = 0;
	int entry_ok = 0;
	const char *err;

	if (!file || file_size < sizeof(eh))
		return "file too small for an ELF header (truncated)";
	copy_bytes(&eh, file, sizeof(eh));
	err = check_header(&eh, file_size);
	if (err)
		return err;

	for (i = 0; i < eh.e_phnum; i++) {
		ekdb_elf_phdr(file, i, &ph);
		if (ph.p_type != EKDB_PT_LOAD || ph.p_memsz == 0)
			continue;
		err = check_segment(&ph, file_size);
		if (err)
			return err;
		for (j = 0; j < i; j++) {
			ekdb_elf_phdr(file, j, &other);
			if (other.p_type != EKDB_PT_LOAD || other.p_memsz == 0)
				continue;
			if (ph.p_vaddr < other.p_vaddr + other.p_memsz &&
			    other.p_vaddr < ph.p_vaddr + ph.p_memsz)
				return "PT_LOAD segments overlap";
		}
		if (ph.p_vaddr < lo)
			lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
		if (eh.e_entry >= ph.p_vaddr && eh.e_entry < ph.p_vaddr + ph.p_memsz)
			entry_ok = 1;
		nload++;
	}
	if (!nload)
		return "ELF has no PT_LOAD segments";
	lo &= ~(EKDB_ELF_PAGE - 1);
	hi = (hi + EKDB_ELF_PAGE - 1) & ~(EKDB_ELF_PAGE - 1);
	if (hi - lo > EKDB_ELF_MAX_SPAN)
		return "kernel image spans more than 1 GiB of virtual addresses";
	if (!entry_ok)
		return "ELF entry point is outside every PT_LOAD segment";
	if (img) {
		img->entry = eh.e_entry;
		img->virt_start = lo;
		img->virt_end = hi;
		img->nload = nload;
	}
	return 0;
}
