/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the command's exit statuses, lame's where lame defines one
 * (lame 3.100's frontend: main's return value as the process status). */
#ifndef RL_EXIT_STATUS_H
#define RL_EXIT_STATUS_H

/* a command line lame refuses (unknown option, excess argument, bad value,
 * -?, --preset help, no arguments) */
#define RL_EXIT_USAGE 1
/* lame's -1 from main: an input or output it cannot open ("Can't init
 * infile" / "Can't init outfile", input == output, a --nogap file), or
 * settings lame_init_params refuses for the input ("fatal error during
 * initialization") */
#define RL_EXIT_OPEN 255
/* lame's 1 from a write that failed ("Error writing mp3 output"); lame
 * keeps what it wrote, ringlame leaves no named output (a stream keeps
 * what it got).  A closed pipe ends both by SIGPIPE instead. */
#define RL_EXIT_WRITE 1
/* ringlame's own: any other failure after the encode began (a read error,
 * a thread or signal handler that cannot be set up); nothing is left
 * behind.  lame has no status of its own there: it exits 0 after a read
 * error, keeping what it wrote. */
#define RL_EXIT_IO 2

#endif
