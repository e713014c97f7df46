# Finds the LLVM the pass plugin is built for, and the clang of the same major.
#
# Default: Debian 12's llvm-14.  Another install: -DPINPOINT_LLVM_DIR=/usr/lib/llvm-19
# (or -DLLVM_DIR=<prefix>/lib/cmake/llvm).
set(PINPOINT_LLVM_DIR "/usr/lib/llvm-14" CACHE PATH
    "Prefix of the LLVM installation to build the pass plugin for")
set(PINPOINT_SUPPORTED_LLVM_MAJORS 14 19)

find_package(LLVM CONFIG
  HINTS "${PINPOINT_LLVM_DIR}/lib/cmake/llvm" "${LLVM_DIR}" NO_DEFAULT_PATH)
if(NOT LLVM_FOUND)
  find_package(LLVM CONFIG)
endif()
if(NOT LLVM_FOUND)
  message(FATAL_ERROR
    "LLVM not found under ${PINPOINT_LLVM_DIR}: install it with "
    "'apt-get install llvm-14-dev clang-14' or set -DPINPOINT_LLVM_DIR=<prefix>")
endif()
set(PINPOINT_LLVM_MAJOR ${LLVM_VERSION_MAJOR})
if(NOT PINPOINT_LLVM_MAJOR IN_LIST PINPOINT_SUPPORTED_LLVM_MAJORS)
  message(WARNING "LLVM ${LLVM_PACKAGE_VERSION} is not one of the tested majors "
                  "(${PINPOINT_SUPPORTED_LLVM_MAJORS})")
endif()

find_program(PINPOINT_CLANG NAMES clang clang-${PINPOINT_LLVM_MAJOR}
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
find_program(PINPOINT_CLANGXX NAMES clang++ clang++-${PINPOINT_LLVM_MAJOR}
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
if(NOT PINPOINT_CLANG OR NOT PINPOINT_CLANGXX)
  message(FATAL_ERROR "clang ${PINPOINT_LLVM_MAJOR} not found in ${LLVM_TOOLS_BINARY_DIR}: "
                      "install it with 'apt-get install clang-${PINPOINT_LLVM_MAJOR}'")
endif()
message(STATUS "pinpoint: LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}, "
               "clang ${PINPOINT_CLANG}")
