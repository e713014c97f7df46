/* SPDX-License-Identifier: MIT */
/*
 * elfsec.h - open an ELF file with libelf and walk its sections, by name or
 * by type (elfsec.c): the one way pinpoint reads ELF files (the table
 * sections, the dynamic section of the libraries an executable loads, the
 * symbols of a relinked module, a binary's .comment).
 *
 * The file is untrusted input: the walk checks what libelf gives it, and
 * a file it cannot read is an error with a reason, never a crash.
 */
#ifndef PINPOINT_ELFSEC_H
#define PINPOINT_ELFSEC_H

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>

/* An open ELF file. */
struct pp_elf {
	Elf *elf;
	int fd;
	char why[200]; /* after a failure: what was wrong, without the path */
};

/*
 * Open regular file @path for reading with libelf (read on demand: a file
 * truncated under the reader is an error, not a SIGBUS).  Returns 0; -errno
 * of open(2); -ENOEXEC when it is not a regular file, not ELF, or libelf
 * cannot be used.  On failure @e->why says which, and nothing is left open.
 */
int pp_elf_open(struct pp_elf *e, const char *path);

/* Close what pp_elf_open() opened; a closed or zeroed @e is left as it is. */
void pp_elf_close(struct pp_elf *e);

/*
 * Call @fn(@e, section, its header, @arg) for each section of @e, in order,
 * whose name is @name (NULL: any name) and whose type is @type (SHT_NULL: any
 * type).  Stops at the first non-zero return of @fn and returns it: a
 * negative one an error, a positive one "found, stop".  Returns 0 when all
 * were seen, -ENOEXEC with @e->why when a section header, or with @name the
 * section names, cannot be read.
 */
typedef int pp_elf_section_fn(struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, void *arg);
int pp_elf_sections(struct pp_elf *e, const char *name, GElf_Word type, pp_elf_section_fn *fn,
		    void *arg);

/*
 * The number of entries of a section of fixed-size entries (symbols,
 * dynamic entries) and its data, NULL when it has none or cannot be read.
 */
Elf_Data *pp_elf_entries(Elf_Scn *scn, const GElf_Shdr *sh, size_t *n);

/*
 * A libelf call on @e failed while reading @what: @e->why says "corrupt ELF
 * file: @what: <libelf's reason>".  Returns -ENOEXEC.
 */
int pp_elf_bad(struct pp_elf *e, const char *what);

#endif /* PINPOINT_ELFSEC_H */
