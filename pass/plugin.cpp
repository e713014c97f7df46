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
// In clang's default pipelines the pass runs at the pipeline start, before
// inlining, so call lists are those of the source at every -O level.

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "pass.h"

using namespace llvm;

namespace
{

struct PinpointPass : PassInfoMixin<PinpointPass> {
	PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
	{
		return pp_instrument_module(wrap(&M)) ? PreservedAnalyses::none()
						      : PreservedAnalyses::all();
	}
	// Also run on optnone functions, i.e. everything at -O0.
	static bool isRequired()
	{
		return true;
	}
};

} // namespace

static bool parsePipelineElement(StringRef Name, ModulePassManager &MPM,
				 ArrayRef<PassBuilder::PipelineElement>)
{
	if (Name != "pinpoint")
		return false;
	MPM.addPass(PinpointPass());
	return true;
}

static void registerCallbacks(PassBuilder &PB)
{
	PB.registerPipelineParsingCallback(parsePipelineElement);
	// Before inlining and every other optimisation: call lists are those
	// of the source at every -O level.
	PB.registerPipelineStartEPCallback(
	    [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(PinpointPass()); });
}

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default"))) PassPluginLibraryInfo
llvmGetPassPluginInfo()
{
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

extern "C" void pp_append_global_ctor(LLVMModuleRef Mod, LLVMValueRef Fn, int Priority,
				      LLVMValueRef Key)
{
	appendToGlobalCtors(*unwrap(Mod), cast<Function>(unwrap(Fn)), Priority,
			    Key ? cast<Constant>(unwrap(Key)) : nullptr);
}

extern "C" bool pp_is_musttail_call(LLVMValueRef Call)
{
	auto *CI = dyn_cast<CallInst>(unwrap(Call));
	return CI && CI->isMustTailCall();
}

extern "C" void pp_copy_fast_math_flags(LLVMValueRef From, LLVMValueRef To)
{
	auto *F = dyn_cast<Instruction>(unwrap(From));
	auto *T = dyn_cast<Instruction>(unwrap(To));
	if (F && T && isa<FPMathOperator>(F) && isa<FPMathOperator>(T))
		T->copyFastMathFlags(F);
}
