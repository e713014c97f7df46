# lit configuration of the pinpoint pass tests (test/pass).
#
# Run through ctest (test "pass-lit") or directly on the build tree:
#   lit -v <build>/test/pass
# Substitutions: %clang %clangxx %opt %llc %FileCheck %not %readelf %objcopy
# %dwarfdump
# %plugin (pinpoint-pass.so), %ppcc / %ppcxx (clang / clang++ with the
# plugin), %dump (pp-table-dump.py), %trace-rt (Inputs/trace-rt.c),
# %ppinc (include/), %runtime (libpinpoint-rt.a, feature "pinpoint-runtime"),
# %pp-layers (feature "pinpoint-layers").  Features llvm-<major>,
# lld, llvmgold (LTO with the default linker).
import os

import lit.formats

config.name = "pinpoint-pass"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pp_obj_dir, "out")


def tool(name):
    return os.path.join(config.llvm_tools_dir, name)


plugin = config.pp_plugin
subs = [
    ("%clangxx", config.clangxx),
    ("%clang", config.clang),
    ("%ppcxx", "%s -fpass-plugin=%s" % (config.clangxx, plugin)),
    ("%ppcc", "%s -fpass-plugin=%s" % (config.clang, plugin)),
    ("%opt", tool("opt")),
    ("%llc", tool("llc")),
    ("%FileCheck", tool("FileCheck")),
    ("%not", tool("not")),
    ("%readelf", tool("llvm-readelf")),
    ("%objcopy", tool("llvm-objcopy")),
    ("%dwarfdump", tool("llvm-dwarfdump")),
    ("%plugin", plugin),
    ("%dump", "%s %s" % (config.python, os.path.join(config.pp_src_dir, "pp-table-dump.py"))),
    ("%trace-rt", os.path.join(config.pp_src_dir, "Inputs", "trace-rt.c")),
    ("%ppinc", config.pp_include_dir),
    ("%inputs", os.path.join(config.pp_src_dir, "Inputs")),
    ("%python", config.python),
]
if config.pp_runtime:
    config.available_features.add("pinpoint-runtime")
    subs.append(("%runtime", config.pp_runtime))
if config.pp_layers:
    config.available_features.add("pinpoint-layers")
    subs.append(("%pp-layers", config.pp_layers))
config.substitutions.extend(subs)
config.available_features.add("llvm-%d" % config.llvm_major)
if os.uname().machine == "x86_64":
    config.available_features.add("x86_64")
if os.path.exists(tool("ld.lld")):
    config.available_features.add("lld")
if os.path.exists(os.path.join(config.llvm_tools_dir, "..", "lib", "LLVMgold.so")):
    config.available_features.add("llvmgold")
