/* SPDX-License-Identifier: MIT */
/*
 * sites.c - the !pinpoint.site tag of a listed call.
 *
 *	call void @g(), !pinpoint.site !{!"f", i32 2}
 *
 * says: this is call 2 of f's call list.  The early phase tags every listed
 * call; the tags travel with the calls through optimisation (a call the
 * inliner copies into another function keeps its owner's name, so it is
 * recognised as not owned there), and the late phase probes the calls whose
 * owner is the function they are in, then removes the tags.
 * Part of the pass plugin (clang -fpass-plugin=pinpoint-pass.so, or
 * opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint).
 */
#include <string.h>

#include "pass.h"

void pp_tag_site(struct pp_module *m, LLVMValueRef call, LLVMValueRef fn, uint32_t k)
{
	LLVMMetadataRef ops[2];
	size_t len;
	const char *name = LLVMGetValueName2(fn, &len);

	ops[0] = LLVMMDStringInContext2(m->ctx, name, len);
	ops[1] = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(m->ctx), k, 0));
	LLVMSetMetadata(call, m->site_kind,
			LLVMMetadataAsValue(m->ctx, LLVMMDNodeInContext2(m->ctx, ops, 2)));
}

int64_t pp_site_of(struct pp_module *m, LLVMValueRef call, const char *owner, size_t len)
{
	LLVMValueRef md = LLVMGetMetadata(call, m->site_kind);
	LLVMValueRef ops[2];
	const char *s;
	unsigned slen;

	if (!md || LLVMGetMDNodeNumOperands(md) != 2)
		return -1;
	LLVMGetMDNodeOperands(md, ops);
	s = ops[0] ? LLVMGetMDString(ops[0], &slen) : NULL;
	if (!s || slen != len || memcmp(s, owner, len))
		return -1;
	if (!ops[1] || !LLVMIsAConstantInt(ops[1]))
		return -1;
	return (int64_t)LLVMConstIntGetZExtValue(ops[1]);
}

void pp_untag_site(struct pp_module *m, LLVMValueRef call)
{
	if (LLVMGetMetadata(call, m->site_kind))
		LLVMSetMetadata(call, m->site_kind, NULL);
}
