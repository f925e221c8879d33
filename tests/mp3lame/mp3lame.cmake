# SPDX-License-Identifier: LGPL-2.0-or-later
# The drop-in libmp3lame.so.0 against Debian's libmp3lame 3.100, both loaded
# side by side (tests/mp3lame/mp3lame_compare.c); included from
# tests/CMakeLists.txt.
#   mp3lame_compare_self    Debian's library against itself: must compare equal
#   mp3lame_compare_catch   the same with the second side perturbed: every case must be caught
#   mp3lame_compare_shim    Debian's library against build/mp3lame/libmp3lame.so.0
#   mp3lame_misuse          threads at once, lame_close mid-stream, calls in the wrong order
# Label mp3lame.  Longer campaigns: bench/mp3lame_campaign.sh.
set(RL_MP3LAME_DIR ${CMAKE_CURRENT_LIST_DIR})
set(RL_DEBIAN_LIBMP3LAME /usr/lib/x86_64-linux-gnu/libmp3lame.so.0)
add_library(rlt_mp3lame STATIC ${RL_MP3LAME_DIR}/mp3lame_lib.c ${RL_MP3LAME_DIR}/mp3lame_symbols.c
            ${RL_MP3LAME_DIR}/mp3lame_case.c ${RL_MP3LAME_DIR}/mp3lame_signal.c ${RL_MP3LAME_DIR}/mp3lame_run.c)
target_link_libraries(rlt_mp3lame PUBLIC ${CMAKE_DL_LIBS} m rl_build_flags)
add_executable(mp3lame_compare ${RL_MP3LAME_DIR}/mp3lame_compare.c)
target_link_libraries(mp3lame_compare PRIVATE rlt_mp3lame)

add_test(NAME mp3lame_compare_self
         COMMAND mp3lame_compare --first ${RL_DEBIAN_LIBMP3LAME} --second ${RL_DEBIAN_LIBMP3LAME} --cases 120)
add_test(NAME mp3lame_compare_catch
         COMMAND mp3lame_compare --first ${RL_DEBIAN_LIBMP3LAME} --second ${RL_DEBIAN_LIBMP3LAME} --cases 40
                 --expect-mismatch)
add_executable(mp3lame_misuse ${RL_MP3LAME_DIR}/mp3lame_misuse.c)
target_link_libraries(mp3lame_misuse PRIVATE rlt_mp3lame Threads::Threads)
add_test(NAME mp3lame_misuse_self
         COMMAND mp3lame_misuse --first ${RL_DEBIAN_LIBMP3LAME} --second ${RL_DEBIAN_LIBMP3LAME})
set(RL_MP3LAME_TESTS mp3lame_compare_self mp3lame_compare_catch mp3lame_misuse_self)
if(TARGET mp3lame_shim)
  add_test(NAME mp3lame_compare_shim
           COMMAND mp3lame_compare --first ${RL_DEBIAN_LIBMP3LAME} --second $<TARGET_SONAME_FILE:mp3lame_shim>
                   --cases 200)
  add_test(NAME mp3lame_misuse_shim
           COMMAND mp3lame_misuse --first ${RL_DEBIAN_LIBMP3LAME} --second $<TARGET_SONAME_FILE:mp3lame_shim>)
  list(APPEND RL_MP3LAME_TESTS mp3lame_compare_shim mp3lame_misuse_shim)
endif()
set_tests_properties(${RL_MP3LAME_TESTS} PROPERTIES LABELS mp3lame TIMEOUT 300 SKIP_RETURN_CODE 77
                     FAIL_REGULAR_EXPRESSION "[1-9][0-9]* failed")
if(RL_ASAN_BUILD)
  # Debian's library takes a failed calloc for a negative sample count as its
  # error (-2): ASan must return NULL there, not abort
  set_tests_properties(${RL_MP3LAME_TESTS} PROPERTIES LABELS "mp3lame;asan" ENVIRONMENT
    "ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:allocator_may_return_null=1;UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
endif()
