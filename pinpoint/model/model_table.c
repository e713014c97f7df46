// SPDX-License-Identifier: MIT
/*
 * model_table.c - a model's functions and calls as the pass would have
 * embedded them: one blob of the table format (abi.h), read back by the
 * same reader as a binary's (core/table.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pinpoint/abi.h"
#include "pinpoint/log.h"
#include "pinpoint/model/model.h"

struct strtab {
	char *p;
	size_t n, cap;
	bool oom;
};

/* @s's offset in @t, added at its end (offset 0 is ""). */
static uint32_t str_add(struct strtab *t, const char *s)
{
	size_t len = strlen(s) + 1;
	uint32_t off;

	if (!*s)
		return 0;
	if (t->n + len > t->cap) {
		size_t cap = (t->n + len) * 2;
		char *p = realloc(t->p, cap);

		if (!p) {
			t->oom = true;
			return 0;
		}
		t->p = p;
		t->cap = cap;
	}
	off = (uint32_t)t->n;
	memcpy(t->p + t->n, s, len);
	t->n += len;
	return off;
}

/* Revision @r's tables as one section, malloc'ed, its size in *@size; NULL: out of memory. */
static void *encode(const struct pp_model *m, int r, size_t *size)
{
	struct strtab t = {0};
	struct pp_table_header h;
	struct pp_table_func *fr = NULL;
	struct pp_table_call *cr = NULL;
	uint32_t nf = 0, nc = 0;
	size_t total, off_calls, off_str;
	unsigned char *d = NULL;

	t.p = malloc(256); /* offset 0 is "" */
	if (!t.p)
		return NULL;
	t.p[0] = '\0';
	t.n = 1;
	t.cap = 256;
	for (size_t i = 0; i < m->nfns; i++)
		nc += (uint32_t)m->fns[i].ncalls;
	fr = calloc(m->nfns + 1, sizeof(*fr));
	cr = calloc(nc + 1, sizeof(*cr));
	if (!fr || !cr)
		goto out;
	nc = 0;
	for (size_t i = 0; i < m->nfns; i++) {
		const struct pp_model_fn *f = &m->fns[i];
		struct pp_table_func *x = &fr[nf];

		if (!f->in[r] || f->external)
			continue;
		nf++;
		x->name = str_add(&t, f->name);
		x->file = str_add(&t, f->file);
		x->line = f->line;
		x->first_call = nc;
		x->linkage = PP_LINK_EXTERNAL;
		x->flags = PP_FUNC_EMITTED;
		for (size_t k = 0; k < f->ncalls; k++) {
			const struct pp_model_call *c = &f->calls[k];
			struct pp_table_call *y = &cr[nc];

			if (!c->in[r])
				continue;
			nc++;
			x->ncalls++;
			y->callee = c->fn >= 0 ? str_add(&t, m->fns[c->fn].name) : 0;
			y->file = str_add(&t, f->file);
			y->line = c->line;
			y->col = c->col;
			y->kind = c->fn >= 0 ? PP_CALL_DIRECT : PP_CALL_INDIRECT;
			y->fate = PP_FATE_TIMED;
		}
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, PP_TABLE_MAGIC, sizeof(h.magic));
	h.version = PP_TABLE_VERSION;
	h.nfuncs = nf;
	h.ncalls = nc;
	h.funcs_off = sizeof(h);
	off_calls = sizeof(h) + (size_t)nf * sizeof(*fr);
	off_str = off_calls + (size_t)nc * sizeof(*cr);
	h.module = str_add(&t, m->fns[m->entry].file);
	h.producer = str_add(&t, "pinpoint program model");
	if (t.oom)
		goto out;
	total = (off_str + t.n + PP_TABLE_ALIGN - 1) / PP_TABLE_ALIGN * PP_TABLE_ALIGN;
	if (total > UINT32_MAX)
		goto out;
	h.calls_off = (uint32_t)off_calls;
	h.strtab_off = (uint32_t)off_str;
	h.strtab_size = (uint32_t)t.n;
	h.size = (uint32_t)total;
	d = calloc(1, total);
	if (!d)
		goto out;
	memcpy(d, &h, sizeof(h));
	memcpy(d + sizeof(h), fr, (size_t)nf * sizeof(*fr));
	memcpy(d + off_calls, cr, (size_t)nc * sizeof(*cr));
	memcpy(d + off_str, t.p, t.n);
	*size = total;
out:
	free(fr);
	free(cr);
	free(t.p);
	return d;
}

int pp_model_tables(const struct pp_model *m, int r, struct pp_program *prog)
{
	size_t size = 0;
	void *blob = encode(m, r, &size);
	const char *why;
	int err;

	if (!blob) {
		pr_err("%s: out of memory", m->path);
		return -EINVAL;
	}
	err = pp_program_add_section(prog, blob, size, m->path);
	free(blob);
	if (!err)
		return 0;
	why = pp_program_error(prog);
	pr_err("%s: %s", m->path, why && *why ? why : pp_table_strerror(err));
	return -EINVAL;
}
