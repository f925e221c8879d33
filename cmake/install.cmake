# SPDX-License-Identifier: LGPL-2.0-or-later
# Installation (docs/building.md): included at the end of the top-level
# CMakeLists.txt.  `cmake --install <build> [--prefix <dir>]` puts in place
#   lib/libringlame.so.X.Y.Z (+ links), lib/libringlame.a
#   include/ringlame/ringlame.h, include/ringlame/version.h (generated)
#   lib/pkgconfig/ringlame.pc
#   lib/cmake/ringlame/ringlame{Config,ConfigVersion,Targets*}.cmake
#     (imported targets ringlame::ringlame, shared, and ringlame::ringlame_static)
#   bin/ringlame, share/man/man1/ringlame.1 (scripts/gen_manpage.py)
# (lib is CMAKE_INSTALL_LIBDIR: GNUInstallDirs).  tests/install/ checks it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RL_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})
set(RL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ringlame)

# ---- the shared library exports ringlame_* only ----
target_link_options(ringlame_shared PRIVATE
  "LINKER:--version-script=${RL_CMAKE_DIR}/ringlame.map")
set_property(TARGET ringlame_shared APPEND PROPERTY LINK_DEPENDS ${RL_CMAKE_DIR}/ringlame.map)

# the names programs use, installed (ringlame::) and in a parent project
# that adds this tree with add_subdirectory
set_target_properties(ringlame_shared PROPERTIES EXPORT_NAME ringlame)
set_target_properties(ringlame_static PROPERTIES EXPORT_NAME ringlame_static)
add_library(ringlame::ringlame ALIAS ringlame_shared)
add_library(ringlame::ringlame_static ALIAS ringlame_static)

# ---- libraries, headers, command ----
install(TARGETS ringlame_shared ringlame_static EXPORT ringlameTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/ringlame/ringlame.h
              ${PROJECT_BINARY_DIR}/include/ringlame/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ringlame)
install(TARGETS ringlame RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- CMake package ----
install(EXPORT ringlameTargets NAMESPACE ringlame::
        FILE ringlameTargets.cmake DESTINATION ${RL_INSTALL_CMAKEDIR})
configure_package_config_file(${RL_CMAKE_DIR}/ringlameConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/ringlameConfig.cmake
  INSTALL_DESTINATION ${RL_INSTALL_CMAKEDIR})
# the soname changes with the major version: so does compatibility
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/ringlameConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/ringlameConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/ringlameConfigVersion.cmake
        DESTINATION ${RL_INSTALL_CMAKEDIR})

# ---- pkg-config: paths relative to the .pc file, so that
# `cmake --install --prefix <dir>` and DESTDIR give a working file ----
function(rl_pc_path out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(RL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  # from <prefix>/<libdir>/pkgconfig back to <prefix>
  file(RELATIVE_PATH _rl_up "/rl/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/rl")
  string(REGEX REPLACE "/$" "" _rl_up "${_rl_up}")
  set(RL_PC_PREFIX "\${pcfiledir}/${_rl_up}")
endif()
rl_pc_path(RL_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
rl_pc_path(RL_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
configure_file(${RL_CMAKE_DIR}/ringlame.pc.in ${PROJECT_BINARY_DIR}/cmake/ringlame.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/ringlame.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- the man page, from docs/options.md (scripts/gen_manpage.py) ----
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(RL_MANPAGE ${PROJECT_BINARY_DIR}/man/ringlame.1)
  add_custom_command(OUTPUT ${RL_MANPAGE}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/gen_manpage.py
            --options ${PROJECT_SOURCE_DIR}/docs/options.md
            --main ${PROJECT_SOURCE_DIR}/src/Cli/main.c
            --version ${PROJECT_VERSION} --output ${RL_MANPAGE}
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/gen_manpage.py
            ${PROJECT_SOURCE_DIR}/docs/options.md ${PROJECT_SOURCE_DIR}/src/Cli/main.c
    COMMENT "Generating man page ringlame.1"
    VERBATIM)
  add_custom_target(ringlame_manpage ALL DEPENDS ${RL_MANPAGE})
  install(FILES ${RL_MANPAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "python3 not found: no man page (ringlame.1)")
endif()
