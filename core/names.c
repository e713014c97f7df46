// SPDX-License-Identifier: MIT
/*
 * names.c - the names a report gives functions (names.h): each distinct
 * demangled name short, then with its parameters where short names
 * collide, then whole where those still do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/cxxname.h"
#include "core/names.h"
#include "core/table.h"

void pp_names_init(struct pp_names *nm)
{
	memset(nm, 0, sizeof(*nm));
}

static struct pp_name *find(const struct pp_names *nm, const char *full)
{
	for (size_t i = 0; i < nm->n; i++)
		if (!strcmp(nm->v[i].full, full))
			return &nm->v[i];
	return NULL;
}

const char *pp_names_get(struct pp_names *nm, const char *linkage)
{
	const char *full = pp_demangle(linkage);
	struct pp_name *v;

	if (!nm)
		return full;
	v = find(nm, full);
	if (nm->settled)
		return v && v->shown ? v->shown : full;
	if (v)
		return full;
	if (nm->n == nm->cap) {
		size_t cap = nm->cap ? 2 * nm->cap : 16;

		v = realloc(nm->v, cap * sizeof(*v));
		if (!v) {
			nm->err = -ENOMEM;
			return full;
		}
		nm->v = v;
		nm->cap = cap;
	}
	nm->v[nm->n++] = (struct pp_name){.full = full, .cxx = full != linkage};
	return full;
}

/*
 * Name @v in the form of @level: 0 short, 1 with its parameters, 2 whole.
 * A name that is not C++ (pp_demangle() left it) is always whole.
 */
static int shorten(struct pp_name *v, int level)
{
	size_t len = strlen(v->full) + 1;

	if (!v->shown)
		v->shown = malloc(len);
	if (!v->shown)
		return -ENOMEM;
	if (level >= 2 || !v->cxx) {
		memcpy(v->shown, v->full, len);
		return 0;
	}
	return pp_cxx_short_name(v->full, level ? PP_CXX_PARAMS : 0, v->shown, len);
}

/* Whether name @i reads as another one does. */
static bool collides(const struct pp_names *nm, size_t i)
{
	for (size_t j = 0; j < nm->n; j++)
		if (j != i && !strcmp(nm->v[i].shown, nm->v[j].shown))
			return true;
	return false;
}

int pp_names_settle(struct pp_names *nm)
{
	unsigned char *level = NULL, *raise = NULL;
	int err = nm->err;
	bool again = true;

	if (!err && nm->n) {
		level = calloc(nm->n, 2);
		err = level ? 0 : -ENOMEM;
		raise = level + nm->n;
	}
	for (size_t i = 0; !err && i < nm->n; i++)
		err = shorten(&nm->v[i], 0);
	/* each round, the names that collide take the next form; whole names
	 * differ, so it ends */
	while (!err && again) {
		again = false;
		for (size_t i = 0; i < nm->n; i++)
			raise[i] = level[i] < 2 && collides(nm, i);
		for (size_t i = 0; !err && i < nm->n; i++)
			if (raise[i]) {
				err = shorten(&nm->v[i], ++level[i]);
				again = true;
			}
	}
	free(level);
	nm->settled = !err;
	return err;
}

void pp_names_free(struct pp_names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->v[i].shown);
	free(nm->v);
	memset(nm, 0, sizeof(*nm));
}
