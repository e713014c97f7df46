// SPDX-License-Identifier: MIT
//
// plugin.cpp - registers the pinpoint pass with the new pass manager, and
// provides the few operations the LLVM-C API lacks.  The pass itself is C
// (instrument.c and friends).
//
// Usage:
//   clang -fpass-plugin=pinpoint-pass.so ...     (every -O level, -O0 too)
//   opt -load-pass-plugin=pinpoint-pass.so -passes=pinpoint ...
//
// In clang's default pipelines the early phase runs at the pipeline start,
// before inlining, so call lists are those of the source at every -O level;
// the late phase runs last in the optimisation pipeline (also at -O0 and at
// the end of the ThinLTO and full LTO pre-link pipelines), so the probes
// never hinder inlining, unrolling or vectorisation.

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "pass.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <link.h>

using namespace llvm;

namespace
{

enum Phase { Early, Late, Both };

template <Phase P> struct PinpointPhase : PassInfoMixin<PinpointPhase<P>> {
	PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
	{
		bool Changed;

		if (P == Early)
			Changed = pp_record_module(wrap(&M));
		else if (P == Late)
			Changed = pp_probe_module(wrap(&M));
		else
			Changed = pp_instrument_module(wrap(&M));
		return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
	}
	// Also run on optnone functions, i.e. everything at -O0.
	static bool isRequired()
	{
		return true;
	}
	static StringRef name()
	{
		return P == Early ? "PinpointRecordPass" : P == Late ? "PinpointProbePass" : "PinpointPass";
	}
};

} // namespace

static bool parsePipelineElement(StringRef Name, ModulePassManager &MPM,
				 ArrayRef<PassBuilder::PipelineElement>)
{
	if (Name == "pinpoint")
		MPM.addPass(PinpointPhase<Both>());
	else if (Name == "pinpoint-early")
		MPM.addPass(PinpointPhase<Early>());
	else if (Name == "pinpoint-late")
		MPM.addPass(PinpointPhase<Late>());
	else
		return false;
	return true;
}

static void registerCallbacks(PassBuilder &PB)
{
	PB.registerPipelineParsingCallback(parsePipelineElement);
	// Before inlining and every other optimisation: call lists are those
	// of the source at every -O level.
	PB.registerPipelineStartEPCallback(
	    [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(PinpointPhase<Early>()); });
	// After all of it: probes where the optimised code still calls.
	PB.registerOptimizerLastEPCallback(
	    [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(PinpointPhase<Late>()); });
}

// The LLVM major of the libLLVM this process loaded ("libLLVM-14.so.1",
// "libLLVM.so.19.1"), 0 when LLVM is linked in statically.
static int hostLLVMMajor(struct dl_phdr_info *Info, size_t, void *Data)
{
	const char *Base = Info->dlpi_name ? strrchr(Info->dlpi_name, '/') : nullptr;
	const char *P;

	Base = Base ? Base + 1 : Info->dlpi_name;
	if (!Base || strncmp(Base, "libLLVM", 7))
		return 0;
	P = Base + 7;
	if (*P == '-')
		P++;
	else if (!strncmp(P, ".so.", 4))
		P += 4;
	else
		return 0;
	*static_cast<int *>(Data) = atoi(P);
	return 1;
}

// A plugin built for another LLVM major would crash the compiler: refuse it
// with one line, before anything of LLVM's is called.
extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default"))) PassPluginLibraryInfo
llvmGetPassPluginInfo()
{
	int Host = 0;

	dl_iterate_phdr(hostLLVMMajor, &Host);
	if (Host && Host != LLVM_VERSION_MAJOR) {
		fprintf(stderr,
			"pinpoint: this plugin is for LLVM %d but was loaded by LLVM %d: use "
			"clang-%d, or pinpoint-cc\n",
			LLVM_VERSION_MAJOR, Host, LLVM_VERSION_MAJOR);
		return {0, "pinpoint", PP_VERSION, nullptr};
	}
	return {LLVM_PLUGIN_API_VERSION, "pinpoint", PP_VERSION, registerCallbacks};
}

// What LLVM-C cannot do.

extern "C" void pp_append_used(LLVMModuleRef Mod, LLVMValueRef *GVs, unsigned N)
{
	SmallVector<GlobalValue *, 16> Values;
	for (unsigned I = 0; I < N; I++)
		Values.push_back(cast<GlobalValue>(unwrap(GVs[I])));
	appendToUsed(*unwrap(Mod), Values);
}

extern "C" void pp_append_compiler_used(LLVMModuleRef Mod, LLVMValueRef *GVs, unsigned N)
{
	SmallVector<GlobalValue *, 16> Values;
	for (unsigned I = 0; I < N; I++)
		Values.push_back(cast<GlobalValue>(unwrap(GVs[I])));
	if (!Values.empty())
		appendToCompilerUsed(*unwrap(Mod), Values);
}

extern "C" void pp_append_global_ctor(LLVMModuleRef Mod, LLVMValueRef Fn, int Priority,
				      LLVMValueRef Key)
{
	appendToGlobalCtors(*unwrap(Mod), cast<Function>(unwrap(Fn)), Priority,
			    Key ? cast<Constant>(unwrap(Key)) : nullptr);
}

extern "C" void pp_erase_named_metadata(LLVMModuleRef Mod, const char *Name)
{
	if (NamedMDNode *N = unwrap(Mod)->getNamedMetadata(Name))
		unwrap(Mod)->eraseNamedMetadata(N);
}

extern "C" bool pp_is_musttail_call(LLVMValueRef Call)
{
	auto *CI = dyn_cast<CallInst>(unwrap(Call));
	return CI && CI->isMustTailCall();
}

// The function a debug-info scope (of a location) is in, by its linkage
// name, or its name for C (inlined.c): LLVM-C reads neither a scope's
// parent nor a subprogram's name.
extern "C" const char *pp_scope_function_name(LLVMMetadataRef Scope, size_t *Len)
{
	auto *S = dyn_cast_or_null<DILocalScope>(unwrap(Scope));
	DISubprogram *SP = S ? S->getSubprogram() : nullptr;
	StringRef N;

	if (!SP)
		return nullptr;
	N = SP->getLinkageName();
	if (N.empty())
		N = SP->getName();
	*Len = N.size();
	return N.data();
}

extern "C" void pp_copy_fast_math_flags(LLVMValueRef From, LLVMValueRef To)
{
	auto *F = dyn_cast<Instruction>(unwrap(From));
	auto *T = dyn_cast<Instruction>(unwrap(To));
	if (F && T && isa<FPMathOperator>(F) && isa<FPMathOperator>(T))
		T->copyFastMathFlags(F);
}

extern "C" void pp_remark(LLVMValueRef Fn, const char *Name, const char *Msg)
{
	const Function *F = cast<Function>(unwrap(Fn));
	OptimizationRemark R("pinpoint", Name, F);

	R << Msg;
	F->getContext().diagnose(R);
}

// The armed clone of a function (dispatch.c): LLVM-C cannot copy a
// function body.  The clone is local, never inlined (its only caller is the
// original's musttail dispatch, which must stay a call), and goes to
// .text.unlikely so that the clones do not come between the originals.
extern "C" LLVMValueRef pp_clone_function(LLVMValueRef Fn, const char *Name)
{
	Function *F = cast<Function>(unwrap(Fn));
	ValueToValueMapTy VMap;
	Function *C = CloneFunction(F, VMap);

	C->setName(Name);
	C->setLinkage(GlobalValue::InternalLinkage);
	C->setVisibility(GlobalValue::DefaultVisibility);
	C->setDLLStorageClass(GlobalValue::DefaultStorageClass);
	C->setComdat(nullptr);
	C->removeFnAttr(Attribute::AlwaysInline);
	C->addFnAttr(Attribute::NoInline);
	C->setSectionPrefix("unlikely");
	return wrap(C);
}

// Whether a function can dispatch to a clone by a musttail call: not
// variadic, returns, no block whose address is taken (a blockaddress still
// names the original's blocks, so the clone's indirectbr would jump back
// into the original), no parameter a tail call cannot forward.
extern "C" bool pp_can_clone(LLVMValueRef Fn)
{
	Function *F = cast<Function>(unwrap(Fn));

	if (F->isVarArg() || F->doesNotReturn() || F->hasFnAttribute(Attribute::ReturnsTwice) ||
	    F->hasPrefixData() || F->hasPrologueData())
		return false;
	for (const Argument &A : F->args())
		if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
		    A.hasAttribute(Attribute::SwiftError))
			return false;
	for (const BasicBlock &BB : *F)
		if (BB.hasAddressTaken())
			return false;
	return true;
}

// Whether M is code of an executable (-fPIE, or not position-independent):
// its runtime's thread block is then in static TLS, which the probes' entry
// points find without a call that might clobber vector registers (abi.h,
// 3.), and what it refers to resolves within the link unit.
static bool executable(const Module *M)
{
	return M->getPIELevel() != PIELevel::Default || M->getPICLevel() == PICLevel::NotPIC;
}

// Whether a call's probes may be sleds (jumps.c) that leave the vector
// registers to the runtime: M is an executable's and not for LTO, whose
// link-time inlining could carry a sled away from the function its thunk's
// section goes with.
extern "C" bool pp_sleds_ok(LLVMModuleRef Mod)
{
	const Module *M = unwrap(Mod);

	return executable(M) && !M->getModuleFlag("EnableSplitLTOUnit");
}

extern "C" bool pp_module_for_lto(LLVMModuleRef Mod)
{
	return unwrap(Mod)->getModuleFlag("EnableSplitLTOUnit") != nullptr;
}

// Whether Fn's entry may carry a 5-byte no-op that the runtime patches
// into a jump (entry.c): nothing else claims the entry (naked, a patchable
// entry or prefix of the user's, -mfentry, XRay, an endbr64 of
// -fcf-protection=branch), the module is not for LTO (whose link-time
// optimisation would inline Fn past its no-op, or drop it under the
// function that refers to it; clang marks such modules EnableSplitLTOUnit
// before the pipeline runs), and the entry table's PC-relative reference
// to Fn resolves within the link unit: Fn is local, hidden or protected,
// or bound locally in an executable (dso_local, not -fPIC).
extern "C" bool pp_entry_eligible(LLVMValueRef Fn)
{
	Function *F = cast<Function>(unwrap(Fn));
	const Module *M = F->getParent();
	static const char *const Claims[] = {
	    "patchable-function-entry", "patchable-function-prefix", "patchable-function",
	    "fentry-call",		"function-instrument",	     "xray-skip-entry",
	    "instrument-function-entry"};

	if (F->hasFnAttribute(Attribute::Naked))
		return false;
	for (const char *A : Claims)
		if (F->hasFnAttribute(A))
			return false;
	if (M->getModuleFlag("cf-protection-branch") || M->getModuleFlag("EnableSplitLTOUnit"))
		return false;
	if (F->hasLocalLinkage() || !F->hasDefaultVisibility())
		return true;
	return F->isDSOLocal() && executable(M);
}

// Gives Call (a call with Fn's own arguments) the attributes of Fn's
// return and parameters, which a byval or sret argument needs, and Fn's
// calling convention; with MustTail (right before its ret), makes it a
// musttail call, as LLVM-C cannot in 14.
extern "C" void pp_forward_call(LLVMValueRef Call, LLVMValueRef Fn, bool MustTail)
{
	auto *CI = cast<CallInst>(unwrap(Call));
	Function *F = cast<Function>(unwrap(Fn));
	AttributeList FA = F->getAttributes();
	SmallVector<AttributeSet, 8> Params;

	for (unsigned I = 0; I < F->arg_size(); I++)
		Params.push_back(FA.getParamAttrs(I));
	AttributeList Forwarded =
	    AttributeList::get(F->getContext(), AttributeSet(), FA.getRetAttrs(), Params);

	CI->setAttributes(Forwarded);
	CI->setCallingConv(F->getCallingConv());
	if (MustTail)
		CI->setTailCallKind(CallInst::TCK_MustTail);
}

// At the builder: "asm goto" of the side-effecting Asm, with the one "i"
// operand Op (${0:c} in Asm) and the label Label (${1:l}), falling through
// to Fallthrough (probes.c, the static branches).  LLVM-C has no callbr;
// LLVM 16 made labels "!i" operands of their own, where 14 and 15 pass
// them as blockaddress arguments.
extern "C" LLVMValueRef pp_build_asm_goto(LLVMBuilderRef B, const char *Asm, LLVMValueRef Op,
					  LLVMBasicBlockRef Fallthrough, LLVMBasicBlockRef Label)
{
	IRBuilder<> *IRB = unwrap(B);
	Value *V = unwrap(Op);
	BasicBlock *Target = unwrap(Label);
#if LLVM_VERSION_MAJOR >= 16
	FunctionType *Ty = FunctionType::get(IRB->getVoidTy(), {V->getType()}, false);
	InlineAsm *IA = InlineAsm::get(Ty, Asm, "i,!i", true);

	return wrap(IRB->CreateCallBr(Ty, IA, unwrap(Fallthrough), {Target}, {V}));
#else
	Value *BA = BlockAddress::get(Target);
	FunctionType *Ty =
	    FunctionType::get(IRB->getVoidTy(), {V->getType(), BA->getType()}, false);
	InlineAsm *IA = InlineAsm::get(Ty, Asm, "i,i", true);

	return wrap(IRB->CreateCallBr(Ty, IA, unwrap(Fallthrough), {Target}, {V, BA}));
#endif
}

// The name of Fn's comdat group, NULL when it has none.
extern "C" const char *pp_comdat_name(LLVMValueRef Fn, size_t *Len)
{
	const Comdat *C = cast<Function>(unwrap(Fn))->getComdat();

	if (!C)
		return nullptr;
	*Len = C->getName().size();
	return C->getName().data();
}
