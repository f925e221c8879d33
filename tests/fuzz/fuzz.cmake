# ringlame fuzz targets (tests/fuzz, docs/reliability.md); included from
# tests/CMakeLists.txt, so paths and targets are those of the tests folder.
#
# Every build: each target's LLVMFuzzerTestOneInput linked with
# tests/fuzz/standalone_main.c runs the target's seed corpus and its named
# regression inputs (tests/fuzz/corpus/<t>, tests/fuzz/regress/<t>) as one
# CTest test, label fuzz_regress:  ctest --test-dir build -L fuzz_regress
# With -DRL_FUZZ=ON and clang (tests/fuzz/run.sh) the libFuzzer binaries
# fuzz_<t> are built too, against a sanitized copy of the core library.
option(RL_FUZZ "Build the libFuzzer targets (clang; -fsanitize=fuzzer,address,undefined)" OFF)
set(RL_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(RL_FUZZ_TARGETS pcm args encode)
foreach(t IN LISTS RL_FUZZ_TARGETS)
  add_executable(fuzz_${t}_standalone ${RL_FUZZ_DIR}/fuzz_${t}.c ${RL_FUZZ_DIR}/standalone_main.c)
  target_link_libraries(fuzz_${t}_standalone PRIVATE ringlame_core)
  add_test(NAME fuzz_regress_${t}
           COMMAND fuzz_${t}_standalone ${RL_FUZZ_DIR}/corpus/${t} ${RL_FUZZ_DIR}/regress/${t})
  set_tests_properties(fuzz_regress_${t} PROPERTIES LABELS fuzz_regress TIMEOUT 300)
endforeach()
if(RL_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RL_FUZZ=ON needs clang: -DCMAKE_C_COMPILER=clang")
  endif()
  # every UBSan check aborts, except shift-base, float-cast-overflow and
  # signed-integer-overflow: recoverable so that tests/fuzz/ubsan.supp can
  # silence known, reported ones (run.sh sets halt_on_error=1: any other
  # report still ends the run)
  set(RL_FUZZ_SAN -fsanitize=address,undefined -fno-sanitize-recover=all
                  -fsanitize-recover=shift-base,float-cast-overflow,signed-integer-overflow
                  -fno-omit-frame-pointer -g)
  # the core library's sources, as the top-level CMakeLists.txt globs them
  add_library(ringlame_core_fuzz STATIC ${RL_ENCODER_SRC} ${RL_TASKS_SRC} ${RL_IO_SRC} ${RL_CLI_SRC})
  target_include_directories(ringlame_core_fuzz PUBLIC
    ${PROJECT_SOURCE_DIR}/src/Encoder ${PROJECT_SOURCE_DIR}/src/Tasks
    ${PROJECT_SOURCE_DIR}/src/Io ${PROJECT_SOURCE_DIR}/src/Cli)
  target_compile_options(ringlame_core_fuzz PRIVATE ${RL_FUZZ_SAN} -fsanitize=fuzzer-no-link)
  # the encoder's number crunching without comparison tracing (two thirds of
  # the encode target's time went into __sanitizer_cov_trace_cmp*); the
  # parsers (Io, Cli) keep it: it finds magic values and option names
  set_source_files_properties(${RL_ENCODER_SRC} ${RL_TASKS_SRC} PROPERTIES
                              COMPILE_OPTIONS -fno-sanitize-coverage=trace-cmp)
  target_link_libraries(ringlame_core_fuzz PUBLIC PkgConfig::SNDFILE PkgConfig::URING Threads::Threads m)
  foreach(t IN LISTS RL_FUZZ_TARGETS)
    add_executable(fuzz_${t} ${RL_FUZZ_DIR}/fuzz_${t}.c)
    target_compile_options(fuzz_${t} PRIVATE ${RL_FUZZ_SAN} -fsanitize=fuzzer)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(fuzz_${t} PRIVATE ringlame_core_fuzz)
  endforeach()
endif()
