/* SPDX-License-Identifier: MIT */
/*
 * srcloc.c - source file names and lines for the table, from debug info.
 *
 * A file is "directory/filename" of the DIFile of a scope, or the filename
 * alone when it is absolute or has no directory.  Functions without a
 * DISubprogram (no -g) get the module's source file name and line 0.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

int pp_file_of_scope(struct pp_module *m, LLVMMetadataRef scope, uint32_t *off)
{
	LLVMMetadataRef file;
	const char *dir, *name;
	unsigned dlen = 0, nlen = 0;
	char *path;
	int err;

	*off = 0;
	if (!scope)
		return 0;
	file = LLVMDIScopeGetFile(scope);
	if (!file)
		return 0;
	dir = LLVMDIFileGetDirectory(file, &dlen);
	name = LLVMDIFileGetFilename(file, &nlen);
	if (!name || !nlen)
		return 0;
	if (!dir || !dlen || name[0] == '/')
		return pp_strtab_add(&m->strtab, name, nlen, off);

	path = malloc((size_t)dlen + nlen + 2);
	if (!path)
		return -ENOMEM;
	memcpy(path, dir, dlen);
	path[dlen] = '/';
	memcpy(path + dlen + 1, name, nlen);
	err = pp_strtab_add(&m->strtab, path, (size_t)dlen + 1 + nlen, off);
	free(path);
	return err;
}

int pp_func_srcloc(struct pp_module *m, LLVMValueRef fn, uint32_t *file, uint32_t *line)
{
	LLVMMetadataRef sp = LLVMGetSubprogram(fn);
	int err;

	*file = m->module_name;
	*line = 0;
	if (!sp)
		return 0;
	err = pp_file_of_scope(m, sp, file);
	if (err)
		return err;
	if (!*file)
		*file = m->module_name;
	*line = LLVMDISubprogramGetLine(sp);
	return 0;
}

LLVMMetadataRef pp_func_entry_loc(struct pp_module *m, LLVMValueRef fn)
{
	LLVMMetadataRef sp = LLVMGetSubprogram(fn);

	if (!sp)
		return NULL;
	return LLVMDIBuilderCreateDebugLocation(m->ctx, LLVMDISubprogramGetLine(sp), 0, sp, NULL);
}
