# pp_add_instrumented_program(<name>
#     SOURCES <file>...          sources (C, or C++ when CXX is given)
#     [CXX]                      compile with clang++
#     [OPT <flags>]              optimisation flags, default -O2
#     [FLAGS <flags>...]         more compiler flags
#     [LINK <args>...]           more link arguments
#     [PLAIN]                    build without the plugin and runtime (a baseline)
#     [SHARED_RUNTIME]           link libpinpoint-rt.so instead of the static runtime
#     [SHARED]                   build a shared library (-shared -fPIC, shared runtime)
#     [OUTPUT_DIR <dir>]         default: the current binary dir
#     [OUTPUT_NAME <file>])      default: <name>
#
# Builds a program with the clang pinpoint's plugin was built for, the plugin,
# -g, -ffunction-sections and the runtime, the way a user's build with
# pinpoint-cc would, and through pinpoint-cc --pinpoint-record-link, which
# leaves the link record <output>.pinpoint-link beside it: the driver can
# link it again in other code layouts.  Target <name> is a custom target; the
# program's path is in the target property PP_PROGRAM.
function(pp_add_instrumented_program name)
  cmake_parse_arguments(A "CXX;PLAIN;SHARED_RUNTIME;SHARED" "OPT;OUTPUT_DIR;OUTPUT_NAME" "SOURCES;FLAGS;LINK" ${ARGN})
  if(NOT A_OPT)
    set(A_OPT -O2)
  endif()
  if(NOT A_OUTPUT_DIR)
    set(A_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(compiler ${PINPOINT_CLANG})
  if(A_CXX)
    set(compiler ${PINPOINT_CLANGXX})
  endif()
  set(srcs)
  foreach(s ${A_SOURCES})
    get_filename_component(abs ${s} ABSOLUTE)
    list(APPEND srcs ${abs})
  endforeach()
  if(NOT A_OUTPUT_NAME)
    set(A_OUTPUT_NAME ${name})
  endif()
  set(out ${A_OUTPUT_DIR}/${A_OUTPUT_NAME})
  set(deps ${srcs} pinpoint-cc)
  if(A_SHARED)
    set(A_SHARED_RUNTIME ON)
    list(PREPEND A_FLAGS -shared -fPIC)
  endif()
  if(A_PLAIN)
    set(instr)
  elseif(A_SHARED_RUNTIME)
    set(instr -fpass-plugin=$<TARGET_FILE:pinpoint-pass>
        $<TARGET_FILE:pinpoint-rt-shared> -Wl,-rpath,$<TARGET_FILE_DIR:pinpoint-rt-shared>)
    list(APPEND deps pinpoint-pass pinpoint-rt-shared)
  else()
    set(instr -fpass-plugin=$<TARGET_FILE:pinpoint-pass> $<TARGET_FILE:pinpoint-rt-static>)
    list(APPEND deps pinpoint-pass pinpoint-rt-static)
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${A_OUTPUT_DIR}
    COMMAND $<TARGET_FILE:pinpoint-cc> --pinpoint-record-link
      ${compiler} ${A_OPT} -g -ffunction-sections ${A_FLAGS} ${srcs} -o ${out} ${instr} ${A_LINK}
      -lpthread -lm
    DEPENDS ${deps}
    COMMENT "Building instrumented ${name}"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${out})
  set_target_properties(${name} PROPERTIES PP_PROGRAM ${out})
endfunction()
