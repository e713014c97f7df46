# Installation and packaging: the CMake package find_package(Pinpoint) (for
# an install prefix and for the build tree), header, man pages, and the
# Debian package (cpack -G DEB).
#
# Installed layout (relative to the prefix; core/paths.h finds lib/pinpoint
# from bin/):
#   bin/pinpoint, bin/pinpoint-layers, bin/pinpoint-cc, bin/pinpoint-c++
#   lib/pinpoint/pinpoint-pass.so, libpinpoint-rt.so, libpinpoint-rt.a
#   lib/cmake/Pinpoint/PinpointConfig.cmake (+ Version, Targets)
#   include/pinpoint/abi.h, abi_x86_64.h (which abi.h includes)
#   share/man/man1/pinpoint.1.gz, pinpoint-cc.1.gz, pinpoint-layers.1.gz (gzip -9n)
#   share/doc/pinpoint/copyright (machine-readable, the MIT license of LICENSE)
include(CMakePackageConfigHelpers)

set(PINPOINT_INSTALL_CMAKEDIR lib/cmake/Pinpoint)

# The exported runtime targets: Pinpoint::runtime, Pinpoint::runtime_static.
set_target_properties(pinpoint-rt-shared PROPERTIES EXPORT_NAME runtime)
set_target_properties(pinpoint-rt-static PROPERTIES EXPORT_NAME runtime_static)
target_link_libraries(pinpoint-rt-static INTERFACE Threads::Threads)
foreach(t pinpoint-rt-shared pinpoint-rt-static)
  target_include_directories(${t} INTERFACE
    $<BUILD_INTERFACE:${PINPOINT_INCLUDE_DIR}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# Installed package.
set(PINPOINT_PLUGIN_PATH ${PINPOINT_INSTALL_PKGLIBDIR}/pinpoint-pass.so)
set(PINPOINT_CC_PATH ${CMAKE_INSTALL_BINDIR}/pinpoint-cc)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/PinpointConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake-install/PinpointConfig.cmake
  INSTALL_DESTINATION ${PINPOINT_INSTALL_CMAKEDIR}
  PATH_VARS PINPOINT_PLUGIN_PATH PINPOINT_CC_PATH)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/PinpointConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(EXPORT PinpointTargets NAMESPACE Pinpoint:: DESTINATION ${PINPOINT_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_BINARY_DIR}/cmake-install/PinpointConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/PinpointConfigVersion.cmake
  DESTINATION ${PINPOINT_INSTALL_CMAKEDIR})

# Build-tree package: -DPinpoint_DIR=<build>/cmake uses the plugin and
# runtime where they are built.
set(PINPOINT_PLUGIN_PATH pass/pinpoint-pass.so)
set(PINPOINT_CC_PATH tools/pinpoint-cc)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/PinpointConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/PinpointConfig.cmake
  INSTALL_DESTINATION ${PROJECT_BINARY_DIR}/cmake
  INSTALL_PREFIX ${PROJECT_BINARY_DIR}
  PATH_VARS PINPOINT_PLUGIN_PATH PINPOINT_CC_PATH)
export(EXPORT PinpointTargets NAMESPACE Pinpoint::
  FILE ${PROJECT_BINARY_DIR}/cmake/PinpointTargets.cmake)

install(FILES ${PINPOINT_INCLUDE_DIR}/pinpoint/abi.h ${PINPOINT_INCLUDE_DIR}/pinpoint/abi_x86_64.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pinpoint)
# Man pages compressed as Debian installs them: gzip -9n (no name, no time
# stamp, so the package is reproducible).
find_program(PINPOINT_GZIP gzip REQUIRED)
set(pp_man_gz)
foreach(page pinpoint pinpoint-cc pinpoint-layers)
  set(gz ${PROJECT_BINARY_DIR}/man/${page}.1.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${PINPOINT_GZIP} -9n -c ${PROJECT_SOURCE_DIR}/man/${page}.1 > ${gz}
    DEPENDS ${PROJECT_SOURCE_DIR}/man/${page}.1
    COMMENT "Compressing the man page ${page}.1" VERBATIM)
  list(APPEND pp_man_gz ${gz})
endforeach()
add_custom_target(pinpoint-man ALL DEPENDS ${pp_man_gz})
install(FILES ${pp_man_gz} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The copyright file of a Debian package, in the machine-readable format,
# with the license text of LICENSE (after its title and copyright line, indented).
file(READ ${PROJECT_SOURCE_DIR}/LICENSE pp_license)
string(REGEX REPLACE "^MIT License\n\nCopyright[^\n]*\n\n" "" pp_license "${pp_license}")
string(REGEX REPLACE "\n+$" "" pp_license "${pp_license}")
string(REGEX REPLACE "\n\n" "\n.\n" pp_license "${pp_license}")
string(REGEX REPLACE "\n" "\n " PINPOINT_LICENSE_BODY " ${pp_license}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/copyright.in ${PROJECT_BINARY_DIR}/doc/copyright @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/doc/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/pinpoint)

# Debian package: cpack -G DEB in the build directory.
set(CPACK_PACKAGE_NAME pinpoint)
set(CPACK_PACKAGE_VENDOR "pinpoint")
set(CPACK_PACKAGE_CONTACT "pinpoint maintainers <pinpoint@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "name the call that made a C or C++ program slower between two builds")
set(CPACK_PACKAGE_DESCRIPTION
  "pinpoint compiles a program with an LLVM pass plugin that records each\n\
function's calls, measures a function in two builds of the program and,\n\
when it got slower, narrows the slowdown down, layer by layer of calls,\n\
to the call that costs it.  Includes the driver, the clang plugin for\n\
LLVM ${PINPOINT_LLVM_MAJOR}, the runtime, compiler wrappers and a CMake package.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# lld: the driver links each revision again in other code layouts with ld.lld.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "clang-${PINPOINT_LLVM_MAJOR}, lld-${PINPOINT_LLVM_MAJOR}, libc6, libelf1, libgsl27, libjansson4, libstdc++6")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
include(CPack)
