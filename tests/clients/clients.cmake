# SPDX-License-Identifier: LGPL-2.0-or-later
# Real programs through the drop-in libmp3lame.so.0 (tests/clients/lib.sh):
# ffmpeg, sox, gst-launch-1.0 and Audacity (headless, on Xvfb, through its
# scripting pipe), each run with the system's library and with
# LD_LIBRARY_PATH=build/mp3lame, must write identical files.  Skipped (77)
# where the client is not installed (scripts/setup.sh installs them).
# Included from tests/CMakeLists.txt; label clients.
if(TARGET mp3lame_shim)
  foreach(client ffmpeg sox gst audacity)
    add_test(NAME clients_${client}
             COMMAND ${RL_BASH} ${CMAKE_CURRENT_LIST_DIR}/${client}.sh $<TARGET_FILE_DIR:mp3lame_shim>
                     $<TARGET_FILE:gen_signal> ${CMAKE_CURRENT_BINARY_DIR}/clients-work/${client})
    set_tests_properties(clients_${client} PROPERTIES LABELS clients TIMEOUT 600 SKIP_RETURN_CODE 77
                         FAIL_REGULAR_EXPRESSION "[1-9][0-9]* failed")
  endforeach()
  # mod-script-pipe's pipes are named by user id alone: one Audacity at a time
  set_tests_properties(clients_audacity PROPERTIES RESOURCE_LOCK audacity_script_pipe)
endif()
