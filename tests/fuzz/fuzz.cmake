# SPDX-License-Identifier: LGPL-2.0-or-later
# ringlame fuzz targets (tests/fuzz, docs/reliability.md); included from
# tests/CMakeLists.txt, so paths and targets are those of the tests folder.
#
# Every build: each target's LLVMFuzzerTestOneInput linked with
# tests/fuzz/standalone_main.c runs the target's seed corpus and its named
# regression inputs (tests/fuzz/corpus/<t>, tests/fuzz/regress/<t>) as one
# CTest test, label fuzz_regress:  ctest --test-dir build -L fuzz_regress
# With -DRL_FUZZ=ON and clang (tests/fuzz/run.sh) the libFuzzer binaries
# fuzz_<t> are built too; the whole build is then sanitized.
set(RL_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(RL_FUZZ_TARGETS pcm args encode mp3 manifest)
# the manifest target: --batch's manifest and shard plan, built from the command's files
set(RL_FUZZ_MANIFEST_SRC ${PROJECT_SOURCE_DIR}/src/Cli/batch_manifest.c
    ${PROJECT_SOURCE_DIR}/src/Cli/batch_plan.c ${PROJECT_SOURCE_DIR}/src/Cli/batch_walk.c)
foreach(t IN LISTS RL_FUZZ_TARGETS)
  add_executable(fuzz_${t}_standalone ${RL_FUZZ_DIR}/fuzz_${t}.c ${RL_FUZZ_DIR}/standalone_main.c)
  target_link_libraries(fuzz_${t}_standalone PRIVATE rl_cli_parts ringlame_testlib)
  if(t STREQUAL "manifest")
    target_sources(fuzz_${t}_standalone PRIVATE ${RL_FUZZ_MANIFEST_SRC})
  endif()
  add_test(NAME fuzz_regress_${t}
           COMMAND fuzz_${t}_standalone ${RL_FUZZ_DIR}/corpus/${t} ${RL_FUZZ_DIR}/regress/${t})
  set_tests_properties(fuzz_regress_${t} PROPERTIES LABELS fuzz_regress TIMEOUT 300 SKIP_RETURN_CODE 77)
  if(RL_ASAN_BUILD)   # tests/CMakeLists.txt: an ASan+UBSan build (tests/asan.sh)
    set_tests_properties(fuzz_regress_${t} PROPERTIES LABELS "fuzz_regress;asan" ENVIRONMENT "${RL_ASAN_ENV}")
  endif()
endforeach()
if(RL_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RL_FUZZ=ON needs clang: -DCMAKE_C_COMPILER=clang")
  endif()
  # the library is built with -fsanitize=address,undefined and
  # -fsanitize=fuzzer-no-link (top-level CMakeLists.txt, RL_FUZZ); every UBSan
  # check aborts, except shift-base, float-cast-overflow and
  # signed-integer-overflow: recoverable so that tests/fuzz/ubsan.supp can
  # silence known, reported ones (run.sh sets halt_on_error=1: any other
  # report still ends the run)
  foreach(t IN LISTS RL_FUZZ_TARGETS)
    add_executable(fuzz_${t} ${RL_FUZZ_DIR}/fuzz_${t}.c)
    target_compile_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(fuzz_${t} PRIVATE rl_cli_parts ringlame_testlib)
    if(t STREQUAL "manifest")
      target_sources(fuzz_${t} PRIVATE ${RL_FUZZ_MANIFEST_SRC})
    endif()
  endforeach()
endif()

# mp3lame: random call sequences against the drop-in libmp3lame.so.0
# (src/Mp3lame), linked to the shared library itself
if(TARGET mp3lame_shim)
  add_executable(fuzz_mp3lame_standalone ${RL_FUZZ_DIR}/fuzz_mp3lame.c ${RL_FUZZ_DIR}/standalone_main.c)
  target_link_libraries(fuzz_mp3lame_standalone PRIVATE mp3lame_shim rl_build_flags)
  add_test(NAME fuzz_regress_mp3lame
           COMMAND fuzz_mp3lame_standalone ${RL_FUZZ_DIR}/corpus/mp3lame ${RL_FUZZ_DIR}/regress/mp3lame)
  set_tests_properties(fuzz_regress_mp3lame PROPERTIES LABELS fuzz_regress TIMEOUT 300 SKIP_RETURN_CODE 77)
  if(RL_ASAN_BUILD)
    set_tests_properties(fuzz_regress_mp3lame PROPERTIES LABELS "fuzz_regress;asan" ENVIRONMENT "${RL_ASAN_ENV}")
  endif()
  if(RL_FUZZ)
    add_executable(fuzz_mp3lame ${RL_FUZZ_DIR}/fuzz_mp3lame.c)
    target_compile_options(fuzz_mp3lame PRIVATE -fsanitize=fuzzer)
    target_link_options(fuzz_mp3lame PRIVATE -fsanitize=fuzzer)
    target_link_libraries(fuzz_mp3lame PRIVATE mp3lame_shim rl_build_flags)
  endif()
endif()
