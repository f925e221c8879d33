/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the encode session over files, the command's half of the
 * session (session.h): one input file to one output file, or a gapless
 * set (--nogap: n inputs as one stream into n outputs).  It opens the
 * inputs as lame's front end does (the raw layout, -s, MPEG input and its
 * reads), derives the stream's options and tags from the first input,
 * creates the outputs as unnamed files, runs the ring on the file ports and
 * commits the outputs only when the whole run succeeded.
 *
 * Order of calls: rl_file_session_create, rl_file_session_add_input for
 * each input, rl_file_session_add_output for each, rl_file_session_run,
 * rl_file_session_commit; rl_file_session_free at the end (it discards
 * whatever was not committed, so an error anywhere leaves no output).
 * Errors are -errno with the reason in why, naming the file. */
#ifndef RL_SESSION_FILES_H
#define RL_SESSION_FILES_H

#include "session.h"

struct RlPcmReader;
struct RlMp3Writer;
struct RlRawFormat;

typedef struct RlFileSession RlFileSession;

/* One input to one output (nogap 0, files 1), or a gapless set of files
 * (nogap 1).  The settings must outlive the session. */
int  rl_file_session_create(RlFileSession **out, const RlLameSettings *s, int files, int nogap);
void rl_file_session_free(RlFileSession *s);      /* NULL: nothing */

/* Opens the next input (lame's rules for a --nogap set's inputs: no MPEG
 * by name, the encoder delay for the later files).  The first input
 * decides the stream's options (rl_file_session_options); a later one
 * with another rate or channel count is refused with -EXDEV.  -errno and
 * "FILE: problem" in why. */
int  rl_file_session_add_input(RlFileSession *s, const char *path, char *why, size_t whylen);
/* Creates the next output (unnamed until committed).  -errno and the
 * reason (naming the file) in why. */
int  rl_file_session_add_output(RlFileSession *s, const char *path, char *why, size_t whylen);

/* After the first input: the stream's options (lame's input rules
 * applied), and input i's reader (the console watches an MPEG input's
 * decoder through it) and output i's writer. */
const RlOptions *rl_file_session_options(const RlFileSession *s);
/* After the first input: what lame_init_params derives from the stream's
 * options (session.h's rl_session_stream_config), for the console. */
const struct RlConfig *rl_file_session_config(RlFileSession *s, const RlOptions **derived);
/* lame's num_samples for input i: its frames (rl_pcm_frames) less what
 * --decode-mp3delay drops at the start of PCM input; -1 unknown. */
int64_t rl_file_session_frames(const RlFileSession *s, int i);
struct RlPcmReader *rl_file_session_reader(const RlFileSession *s, int i);
struct RlMp3Writer *rl_file_session_writer(const RlFileSession *s, int i);

/* The encode: the tags of each file, the ring on the file ports (direct
 * reads and writes for a set or a sequential run, else the I/O
 * scheduler), lame's reads of MPEG input.  0 or -errno (-EINTR: stopped);
 * why names the file for a tag's error. */
int  rl_file_session_run(RlFileSession *s, const RlSessionRun *run, char *why, size_t whylen);

/* Closes the inputs and names the outputs.  0, or the first -errno with
 * "FILE: problem" in why (the other outputs are committed still). */
int  rl_file_session_commit(RlFileSession *s, char *why, size_t whylen);

/* The input description for rl_pcm_open from lame's options (raw PCM
 * layout, -s, --ignorelength, MPEG input), as lame's front end derives
 * it. */
void rl_file_session_raw_format(const RlLameSettings *s, struct RlRawFormat *raw);

#endif
