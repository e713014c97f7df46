/* SPDX-License-Identifier: MIT */
/*
 * inlined.c - the calls that came into a function by inlining.
 *
 * After optimisation, a call of an inlined function's code is an ordinary
 * call instruction of the function it was inlined into (the host), with its
 * own file:line:col and, in its debug location, the call sites it was
 * inlined through (inlinedAt; the outermost is a call of the host's
 * source).  The late phase lists such calls in the host's call list, so
 * that they are timed as the host's own are:
 *
 *	call 2  SHA512_Pad        sha512.c:310:2  inlined
 *	call 3  SHA512_Transform  sha512.c:280:3  via call 2, timed
 *	call 4  be64enc_vect      sha512.c:284:2  via call 2, inlined
 *	call 5  memcpy            sha512.c:95:3   via call 4, timed
 *
 * The places form a tree: the host's source calls at its root, in source
 * order; under a call inlined into the host, the places of the inlined
 * function's code, by line and column in its source (then callee), with
 * what that code inlined in turn below them.  The list is the tree in
 * pre-order: a call is followed by what was inlined at it, so that a range
 * of calls holds whole inlined calls, and the order follows the source,
 * not where the optimiser moved the code.  A place is an inlined call when
 * code of that inlining is left in the host (fate inlined), a call when a
 * call instruction survives there (timed), or both; every copy of a call
 * (unrolled, duplicated) is the same place: the same path of call sites,
 * line:col and callee.
 *
 * A call of inlined code without a line, or whose outermost call site is
 * none of the host's source calls, is not listed: its time stays part of
 * the host's own body.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"

/* Deeper inlining than this is left to the host's own body. */
#define PP_INLINE_DEPTH 64

/* What a place is: where in the tree, and which call or inlining. */
struct key {
	uint32_t fn;	 /* the host's index in m->funcs */
	uint32_t parent; /* the node it came through + 1; 0: the host's source */
	uint32_t line, col, callee;
	uint32_t kind; /* enum pp_call_kind */
};

struct slot {
	struct key k;
	uint32_t node; /* + 1; 0: an empty slot */
};

struct pp_inl_map {
	struct slot *v;
	uint32_t n, cap; /* cap a power of 2 */
};

/* A place while the tree is built. */
struct node {
	struct pp_call c;
	uint32_t parent; /* node + 1, 0 at the root */
};

struct tree {
	struct node *v;
	uint32_t n, cap;
};

/* One host's tree being built (@t) or looked up (@t NULL). */
struct walk {
	struct pp_module *m;
	struct pp_func *f;
	uint32_t fi;
	struct tree *t;
};

static uint32_t hash_key(const struct key *k)
{
	uint32_t v[6] = {k->fn, k->parent, k->line, k->col, k->callee, k->kind}, h = 2166136261u;

	for (int i = 0; i < 6; i++)
		h = (h ^ v[i]) * 16777619u;
	return h ^ h >> 15;
}

static bool same_key(const struct key *a, const struct key *b)
{
	return a->fn == b->fn && a->parent == b->parent && a->line == b->line && a->col == b->col &&
	       a->callee == b->callee && a->kind == b->kind;
}

static struct slot *map_slot(struct slot *v, uint32_t cap, const struct key *k)
{
	for (uint32_t i = hash_key(k) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!v[i].node || same_key(&v[i].k, k))
			return &v[i];
}

static int map_put(struct pp_inl_map *map, const struct key *k, uint32_t node)
{
	struct slot *s;

	if ((map->n + 1) * 2 > map->cap) {
		uint32_t cap = map->cap ? map->cap * 2 : 256;
		struct slot *v = calloc(cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (uint32_t i = 0; i < map->cap; i++)
			if (map->v[i].node)
				*map_slot(v, cap, &map->v[i].k) = map->v[i];
		free(map->v);
		map->v = v;
		map->cap = cap;
	}
	s = map_slot(map->v, map->cap, k);
	if (s->node) /* the first of two source calls alike */
		return 0;
	s->k = *k;
	s->node = node + 1;
	map->n++;
	return 0;
}

static int64_t map_get(const struct pp_inl_map *map, const struct key *k)
{
	const struct slot *s = map->cap ? map_slot(map->v, map->cap, k) : NULL;

	return s && s->node ? (int64_t)s->node - 1 : -1;
}

static struct node *new_node(struct tree *t)
{
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		struct node *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	return memset(&t->v[t->n++], 0, sizeof(struct node));
}

/* Line and column of source call @k of the host. */
static const struct pp_call *own_call(const struct walk *w, uint32_t k)
{
	if (w->t)
		return &w->t->v[k].c;
	return &w->m->calls[w->f->first_call + w->m->own[w->f->first_own + k]];
}

/* The strtab offset of a name: added while the tree is built, only found
 * afterwards (the table is emitted by then). */
static int name_off(const struct walk *w, const char *s, size_t len, bool add, uint32_t *off)
{
	if (!s)
		return -ENOENT;
	if (add)
		return pp_strtab_add(&w->m->strtab, s, len, off);
	return pp_strtab_find(&w->m->strtab, s, len, off);
}

/*
 * The node under @parent at @loc's line:col, calling (or inlining)
 * @name of @kind; while the tree is built it is made when missing.  Under
 * the root only the host's source calls are found: by the key, else by
 * line:col alone (a name the debug info spells otherwise).  Returns the
 * node, -1 when there is none, or -ENOMEM.
 */
static int64_t child(const struct walk *w, uint32_t parent, LLVMMetadataRef loc, const char *name,
		     size_t len, uint8_t kind)
{
	struct key k = {w->fi, parent, LLVMDILocationGetLine(loc), LLVMDILocationGetColumn(loc),
			0,     kind};
	bool make = w->t && parent;
	struct node *n;
	int64_t got;
	int err;

	bool direct = kind == PP_CALL_DIRECT || kind == PP_CALL_INVOKE;

	if (direct && (!name || !len)) {
		if (parent)
			return -1;
		err = -ENOENT;
	} else {
		err = name_off(w, name, len, make, &k.callee);
	}
	if (err && err != -ENOENT)
		return err;
	got = err ? -1 : map_get(w->m->inl, &k);
	if (got >= 0 || !k.line)
		return got;
	if (!parent) {
		for (uint32_t i = 0; i < w->f->nown; i++) {
			const struct pp_call *c = own_call(w, i);

			if (c->line == k.line && c->col == k.col)
				return i;
		}
		return -1;
	}
	if (!make)
		return -1;
	n = new_node(w->t);
	if (!n)
		return -ENOMEM;
	n->parent = parent;
	n->c.callee = k.callee;
	n->c.line = k.line;
	n->c.col = k.col;
	n->c.kind = kind;
	err = pp_file_of_scope(w->m, LLVMDILocationGetScope(loc), &n->c.file);
	if (!err)
		err = map_put(w->m->inl, &k, w->t->n - 1);
	return err ? err : (int64_t)w->t->n - 1;
}

/* The kind of a listed call, and its callee's name ("" when indirect). */
static uint8_t call_kind(LLVMValueRef call, const char **name, size_t *len)
{
	LLVMValueRef callee = pp_direct_callee(call);
	bool invoke = LLVMIsAInvokeInst(call) != NULL;

	*name = "";
	*len = 0;
	if (!callee)
		return invoke ? PP_CALL_INVOKE_INDIRECT : PP_CALL_INDIRECT;
	*name = LLVMGetValueName2(callee, len);
	return invoke ? PP_CALL_INVOKE : PP_CALL_DIRECT;
}

/*
 * The place of @inst (at @loc, which has an inlinedAt) in the host's tree:
 * each call site it was inlined through from the outermost in, then, for a
 * listed call, the call itself.  Returns the node of the call (-1 for
 * anything else: an instruction is only walked to make its inlinings'
 * nodes), -1 when it has no place, or -ENOMEM.
 */
static int64_t place(const struct walk *w, LLVMValueRef inst, LLVMMetadataRef loc)
{
	LLVMMetadataRef at[PP_INLINE_DEPTH];
	uint32_t n = 0, parent = 0;
	const char *name;
	size_t len;
	int64_t node;
	uint8_t kind;

	for (LLVMMetadataRef a = LLVMDILocationGetInlinedAt(loc); a;
	     a = LLVMDILocationGetInlinedAt(a)) {
		if (n == PP_INLINE_DEPTH)
			return -1;
		at[n++] = a;
	}
	/* at[n - 1] is in the host; the code inlined at at[i] is at at[i - 1] (loc). */
	while (n-- > 0) {
		LLVMMetadataRef inner = n ? at[n - 1] : loc;

		name = pp_scope_function_name(LLVMDILocationGetScope(inner), &len);
		node = child(w, parent, at[n], name, len, PP_CALL_DIRECT);
		if (node < 0)
			return node;
		if (w->t && parent)
			w->t->v[node].c.inlined = true;
		parent = (uint32_t)node + 1;
	}
	if (!(LLVMIsACallInst(inst) || LLVMIsAInvokeInst(inst)) || !pp_is_listed_call(inst) ||
	    (LLVMIsACallInst(inst) && pp_is_musttail_call(inst)))
		return -1;
	kind = call_kind(inst, &name, &len);
	node = child(w, parent, loc, name, len, kind);
	/* a call of inlined code passes its callback as any call does */
	if (node >= 0 && w->t && parent) {
		int err = pp_call_callback(w->m, inst, &w->t->v[node].c.callback);

		if (err)
			return err;
	}
	return node;
}

/* A node to order under its parent: by line, column, callee, kind. */
struct kid {
	uint32_t id, parent, line, col;
	const char *callee;
	uint8_t kind;
};

static int cmp_kid(const void *pa, const void *pb)
{
	const struct kid *a = pa, *b = pb;
	int c;

	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	c = strcmp(a->callee, b->callee);
	if (c)
		return c;
	return a->kind < b->kind ? -1 : a->kind > b->kind;
}

struct order {
	const struct tree *t;
	struct kid *kids;
	uint32_t *first_kid, *nkids, *pos;
	struct pp_call *out;
	uint32_t nout;
};

/* Node @id, then what was inlined at it, into o->out (depth <= PP_INLINE_DEPTH + 1). */
static void emit(struct order *o, uint32_t id)
{
	const struct node *n = &o->t->v[id];

	o->pos[id] = o->nout;
	o->out[o->nout] = n->c;
	o->out[o->nout].via = n->parent ? o->pos[n->parent - 1] + 1 : 0;
	o->nout++;
	for (uint32_t i = 0; i < o->nkids[id]; i++)
		emit(o, o->kids[o->first_kid[id] + i].id);
}

/* Lays out @t (the host @f's tree) into @out; the nodes' places into m->node_pos. */
static int lay_out(struct pp_module *m, struct pp_func *f, const struct tree *t,
		   struct pp_call *out)
{
	struct order o = {t, NULL, NULL, NULL, NULL, out, 0};
	uint32_t nown = f->nown, nnew = t->n - nown;
	int err = -ENOMEM;

	o.kids = malloc((nnew + 1) * sizeof(*o.kids));
	o.first_kid = calloc(t->n, sizeof(*o.first_kid));
	o.nkids = calloc(t->n, sizeof(*o.nkids));
	o.pos = m->node_pos + f->first_node;
	if (!o.kids || !o.first_kid || !o.nkids)
		goto out;
	for (uint32_t i = 0; i < nnew; i++) {
		const struct node *n = &t->v[nown + i];

		o.kids[i] = (struct kid){
		    nown + i, n->parent, n->c.line, n->c.col, m->strtab.buf + n->c.callee,
		    n->c.kind};
	}
	qsort(o.kids, nnew, sizeof(*o.kids), cmp_kid);
	for (uint32_t i = nnew; i-- > 0;) {
		uint32_t p = o.kids[i].parent - 1;

		o.first_kid[p] = i;
		o.nkids[p]++;
	}
	for (uint32_t k = 0; k < nown; k++)
		emit(&o, k);
	for (uint32_t k = 0; k < nown; k++)
		m->own[f->first_own + k] = o.pos[k];
	err = 0;
out:
	free(o.kids);
	free(o.first_kid);
	free(o.nkids);
	return err;
}

/* Host @f's tree: its source calls, and the places of what was inlined into it. */
static int build_tree(struct pp_module *m, struct pp_func *f, uint32_t fi, struct tree *t)
{
	const struct walk w = {m, f, fi, t};
	LLVMMetadataRef last = NULL;
	int64_t got = 0;

	for (uint32_t k = 0; k < f->nown; k++) {
		const struct pp_call *c = &m->calls[f->first_call + k];
		struct key key = {fi, 0, c->line, c->col, c->callee, c->kind};
		struct node *n = new_node(t);

		if (!n || map_put(m->inl, &key, k))
			return -ENOMEM;
		n->c = *c;
	}
	if (!f->fn || !LLVMGetSubprogram(f->fn))
		return 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fn); bb && got >= -1;
	     bb = LLVMGetNextBasicBlock(bb)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && got >= -1;
		     i = LLVMGetNextInstruction(i)) {
			LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(i);
			LLVMMetadataRef at = loc ? LLVMDILocationGetInlinedAt(loc) : NULL;

			/* Debug intrinsics outlive the code they describe. */
			if (!at || LLVMIsADbgInfoIntrinsic(i))
				continue;
			/* Neighbours mostly come from one inlining, whose places are made. */
			if (at == last && !LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
				continue;
			last = at;
			got = place(&w, i, loc);
		}
	}
	return got < -1 ? (int)got : 0;
}

int pp_expand_calls(struct pp_module *m)
{
	struct pp_call *calls = NULL;
	struct tree t = {0};
	uint32_t ncalls = 0, cap = m->ncalls + 1;
	int err = -ENOMEM;

	m->inl = calloc(1, sizeof(*m->inl));
	m->own = malloc((m->ncalls + 1) * sizeof(*m->own));
	if (!m->inl || !m->own)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		struct pp_func *f = &m->funcs[i];
		uint32_t *pos;

		f->first_own = f->first_call;
		f->nown = f->ncalls;
		t.n = 0;
		err = build_tree(m, f, i, &t);
		if (err)
			goto out;
		err = -ENOMEM;
		pos = realloc(m->node_pos, ((size_t)m->nnodes + t.n + 1) * sizeof(*pos));
		if (!pos)
			goto out;
		m->node_pos = pos;
		f->first_node = m->nnodes;
		f->nnodes = t.n;
		m->nnodes += t.n;
		if (!calls || ncalls + t.n > cap) {
			struct pp_call *c;

			while (ncalls + t.n > cap)
				cap *= 2;
			c = realloc(calls, cap * sizeof(*c));
			if (!c)
				goto out;
			calls = c;
		}
		err = lay_out(m, f, &t, calls + ncalls);
		if (err)
			goto out;
		f->first_call = ncalls;
		f->ncalls = t.n;
		ncalls += t.n;
	}
	free(m->calls);
	m->calls = calls;
	m->ncalls = m->calls_cap = ncalls;
	calls = NULL;
	err = 0;
out:
	free(calls);
	free(t.v);
	return err;
}

int64_t pp_call_site(struct pp_module *m, struct pp_func *f, LLVMValueRef call, bool fallback)
{
	const struct walk w = {m, f, (uint32_t)(f - m->funcs), NULL};
	const char *name = m->strtab.buf + f->name;
	LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
	int64_t k;
	unsigned line, col;

	if (loc && LLVMDILocationGetInlinedAt(loc)) {
		k = m->inl ? place(&w, call, loc) : -1;
		return k >= 0 ? (int64_t)m->node_pos[f->first_node + k] : -1;
	}
	k = pp_site_of(m, call, name, strlen(name));
	if (k >= f->nown)
		return -1;
	if (k >= 0)
		return (int64_t)m->own[f->first_own + k];
	if (!fallback || LLVMGetMetadata(call, m->site_kind) || !pp_is_listed_call(call) || !loc)
		return -1;
	/* A call that lost its tag (merged, rewritten): the untimed source
	 * call at its line:col, if there is one. */
	line = LLVMDILocationGetLine(loc);
	col = LLVMDILocationGetColumn(loc);
	for (uint32_t i = 0; line && i < f->nown; i++) {
		const struct pp_call *c = own_call(&w, i);

		if (!c->tagged && c->line == line && c->col == col)
			return (int64_t)m->own[f->first_own + i];
	}
	return -1;
}

void pp_free_expansion(struct pp_module *m)
{
	if (m->inl)
		free(m->inl->v);
	free(m->inl);
	free(m->own);
	free(m->node_pos);
	m->inl = NULL;
	m->own = m->node_pos = NULL;
	m->nnodes = 0;
}
