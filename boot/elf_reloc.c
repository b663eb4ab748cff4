/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_reloc.c - moves the loaded kernel image to a randomized base (KASLR).
 *
 * The kernel is linked with ld --emit-relocs, so its ELF keeps one
 * .rela.<section> per patched section.  Moving the image by delta means:
 *  R_X86_64_64          the 64-bit address stored at the site, + delta
 *  R_X86_64_32S / _32   the 32-bit address stored at the site, + delta
 *                       (the new value must still fit: the caller keeps
 *                       the image in the top 2 GiB for 32S)
 *  R_X86_64_PC32/PLT32/PC64 nothing between two places of the image;
 *                       - delta when the target is an absolute symbol
 * References to absolute symbols (SHN_ABS: constants from the linker
 * script or .set) keep their value, as Linux's arch/x86/tools/relocs.
 */
#include "elf_reloc.h"
#include "elf_check.h"

static void rd(void *dst, const uint8_t *src, uint64_t n)
{
	uint8_t *d = dst;

	while (n--)
		*d++ = *src++;
}

static void wr(uint8_t *dst, const void *src, uint64_t n)
{
	const uint8_t *s = src;

	while (n--)
		*dst++ = *s++;
}

static int in_file(uint64_t off, uint64_t len, uint64_t file_size)
{
	return off <= file_size && len <= file_size - off;
}

const char *ekdb_elf_relocate(const void *file, uint64_t file_size, uint8_t *image,
			      uint64_t link_base, uint64_t span, int64_t delta,
			      struct ekdb_reloc_stats *stats)
{
	const uint8_t *f = file;
	struct ekdb_elf64_ehdr eh;
	unsigned int nrela = 0;

	*stats = (struct ekdb_reloc_stats){ 0 };
	if (file_size < sizeof(eh))
		return "file too small for an ELF header";
	rd(&eh, f, sizeof(eh));
	if (eh.e_shnum == 0 || eh.e_shentsize != sizeof(struct ekdb_elf64_shdr) ||
	    !in_file(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(struct ekdb_elf64_shdr), file_size))
		return "no usable section headers (cannot relocate)";

	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		struct ekdb_elf64_shdr rs, ts, ss;
		uint64_t n;

		rd(&rs, f + eh.e_shoff + (uint64_t)i * sizeof(rs), sizeof(rs));
		if (rs.sh_type != EKDB_SHT_RELA)
			continue;
		if (rs.sh_info >= eh.e_shnum || rs.sh_link >= eh.e_shnum)
			return "relocation section names a section that does not exist";
		rd(&ts, f + eh.e_shoff + (uint64_t)rs.sh_info * sizeof(ts), sizeof(ts));
		if (!(ts.sh_flags & EKDB_SHF_ALLOC))
			continue;	/* debug info: gdb's business, not the image's */
		rd(&ss, f + eh.e_shoff + (uint64_t)rs.sh_link * sizeof(ss), sizeof(ss));
		if (ss.sh_type != EKDB_SHT_SYMTAB || ss.sh_entsize != sizeof(struct ekdb_elf64_sym) ||
		    !in_file(ss.sh_offset, ss.sh_size, file_size))
			return "relocation section without a usable symbol table";
		if (rs.sh_entsize != sizeof(struct ekdb_elf64_rela) ||
		    !in_file(rs.sh_offset, rs.sh_size, file_size))
			return "relocation section out of the file";
		nrela++;
		n = rs.sh_size / sizeof(struct ekdb_elf64_rela);
		for (uint64_t k = 0; k < n; k++) {
			struct ekdb_elf64_rela r;
			struct ekdb_elf64_sym sym;
			uint32_t type, symi;
			uint64_t off, v64;
			uint32_t v32;
			int abs;

			rd(&r, f + rs.sh_offset + k * sizeof(r), sizeof(r));
			type = (uint32_t)r.r_info;
			symi = (uint32_t)(r.r_info >> 32);
			if ((uint64_t)symi >= ss.sh_size / sizeof(sym))
				return "relocation names a symbol that does not exist";
			rd(&sym, f + ss.sh_offset + (uint64_t)symi * sizeof(sym), sizeof(sym));
			abs = sym.st_shndx == EKDB_SHN_ABS;
			if (type == EKDB_R_X86_64_NONE)
				continue;
			if (r.r_offset < link_base || r.r_offset - link_base > span ||
			    span - (r.r_offset - link_base) < (type == EKDB_R_X86_64_64 ||
							       type == EKDB_R_X86_64_PC64 ? 8 : 4))
				return "relocation site outside the image";
			off = r.r_offset - link_base;
			if (symi != 0 && sym.st_shndx == EKDB_SHN_UNDEF)
				return "relocation against an undefined symbol";
			switch (type) {
			case EKDB_R_X86_64_64:
				if (abs) {
					stats->skipped++;
					break;
				}
				rd(&v64, image + off, 8);
				v64 += (uint64_t)delta;
				wr(image + off, &v64, 8);
				stats->abs64++;
				break;
			case EKDB_R_X86_64_32S:
			case EKDB_R_X86_64_32: {
				int64_t nv;

				if (abs) {
					stats->skipped++;
					break;
				}
				rd(&v32, image + off, 4);
				if (type == EKDB_R_X86_64_32S) {
					nv = (int64_t)(int32_t)v32 + delta;
					if (nv != (int64_t)(int32_t)nv)
						return "R_X86_64_32S site out of range after the move";
					stats->abs32s++;
				} else {
					nv = (int64_t)(uint64_t)v32 + delta;
					if (nv < 0 || nv > 0xffffffffLL)
						return "R_X86_64_32 site out of range after the move";
					stats->abs32++;
				}
				v32 = (uint32_t)nv;
				wr(image + off, &v32, 4);
				break;
			}
			case EKDB_R_X86_64_PC32:
			case EKDB_R_X86_64_PLT32:
			case EKDB_R_X86_64_PC64:
				if (!abs) {
					stats->skipped++;
					break;
				}
				/* the site moves, the absolute target does not */
				if (type == EKDB_R_X86_64_PC64) {
					rd(&v64, image + off, 8);
					v64 -= (uint64_t)delta;
					wr(image + off, &v64, 8);
				} else {
					int64_t nv;

					rd(&v32, image + off, 4);
					nv = (int64_t)(int32_t)v32 - delta;
					if (nv != (int64_t)(int32_t)nv)
						return "PC-relative reference to an absolute symbol out of range";
					v32 = (uint32_t)nv;
					wr(image + off, &v32, 4);
				}
				stats->pc_abs++;
				break;
			default:
				return "unsupported relocation type";
			}
		}
	}
	if (!nrela && delta)
		return "the kernel keeps no relocations (link it with --emit-relocs)";
	return 0;
}
