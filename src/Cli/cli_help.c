/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the help texts of the command line (--help, --longhelp, -?,
 * --help dev, --help id3, --version, lame's usage and version lines).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#include "cli_args.h"
#include "version.h"

#define PROG "ringlame"

static void print_heading(FILE *fp)
{
    fprintf(fp,
            "ringlame %s (reproduces LAME 3.100 output)\n"
            "\n"
            "usage: " PROG " [options] <infile> [outfile]\n"
            "\n"
            "    <infile> and/or <outfile> can be \"-\", which means stdin/stdout.\n"
            "\n",
            rl_version());
}

void rl_args_print_usage(FILE *fp, const char *prog)
{
    rl_lame_print_version_line(fp);
    fprintf(fp,
            "usage: %s [options] <infile> [outfile]\n"
            "\n"
            "    <infile> and/or <outfile> can be \"-\", which means stdin/stdout.\n"
            "\n"
            "Try:\n"
            "     \"%s --help\"           for general usage information\n"
            " or:\n"
            "     \"%s --preset help\"    for information on suggested predefined settings\n"
            " or:\n"
            "     \"%s --longhelp\"\n"
            "  or \"%s -?\"              for a complete options list\n\n",
            prog, prog, prog, prog, prog);
}

void rl_args_print_help(FILE *fp)
{
    print_heading(fp);
    fprintf(fp,
            "RECOMMENDED:\n"
            "    " PROG " -V2 input.wav output.mp3\n"
            "\n"
            "OPTIONS:\n"
            "    -b bitrate      constant bitrate in kbps (default: 128)\n"
            "    -h              higher quality (-q 2), a little slower\n"
            "    -f              faster (-q 7), lower quality\n"
            "    -V n            VBR quality, 0 (best) .. 9.999 (smallest); default 4\n"
            "    --preset type   medium, standard, extreme, insane or an average bitrate\n"
            "                    (\"--preset help\" lists them)\n"
            "    --threads n     worker threads (default: the CPUs this process may use)\n"
            "\n"
            "    --longhelp      every option\n"
            "    --license       license information\n");
}

void rl_args_print_longhelp(FILE *fp)
{
    print_heading(fp);
    fprintf(fp,
            "RECOMMENDED:\n"
            "    " PROG " -V2 input.wav output.mp3\n"
            "\n"
            "Every option means what it means to lame 3.100 and gives lame's bytes.\n"
            "\n"
            "  Input:\n"
            "    --scale x       multiply the input by x\n"
            "    --scale-l x, --scale-r x   multiply the left / right channel by x\n"
            "    --gain dB       --scale in decibels, -20 .. +12\n"
            "    --swap-channel  swap left and right (mono input becomes silence, as in lame)\n"
            "    --ignorelength  read a WAV on stdin to its end, whatever its header says\n"
            "    --out-dir dir   folder for the default output name\n"
            "    --nogap f1 f2 ...  gapless set: f1.mp3, f2.mp3, ... encoded as one stream\n"
            "    --nogapout dir  the folder of the set's outputs (default: beside each input)\n"
            "    --nogaptags     give every file of the set its Xing/LAME tag\n"
            "    -r              headerless PCM input; -s kHz its sample rate (also\n"
            "                    overrides a header), --bitwidth 8|16|24|32, --signed,\n"
            "                    --unsigned (8 bit), --little-endian, --big-endian,\n"
            "                    -x byte-swapped\n"
            "    -a              downmix stereo to mono\n"
            "\n"
            "  Rate control:\n"
            "    -b n            CBR bitrate in kbps (default 128); with VBR the minimum\n"
            "    --cbr           constant bitrate\n"
            "    --abr n         average bitrate in kbps (from 8000 up: bits per second)\n"
            "    -V n            VBR quality 0 .. 9.999 (default 4); -v = -V 4\n"
            "    --vbr-new, --vbr-mtrh   the default VBR method; --vbr-old the old one\n"
            "    -B n            VBR maximum bitrate; -F keeps the -b minimum on silence\n"
            "    --preset name   medium, standard, extreme, insane, a bitrate 8 .. 320,\n"
            "                    \"cbr\" before a bitrate for CBR (see --preset help)\n"
            "    --r3mix         the old r3mix preset (VBR at -V 3 tuning)\n"
            "    --comp r        CBR bitrate for a compression ratio r (>= 1)\n"
            "    --freeformat    free format stream (needs -b 8 .. 640)\n"
            "\n"
            "  Quality and psychoacoustics:\n"
            "    -q n            0 (slowest, best) .. 9 (fastest); -h = -q 2, -f = -q 7\n"
            "    -m mode         j(oint), s(tereo), f(orced M/S), d(ual), m(ono), l(eft), r(ight)\n"
            "    -Y              no extra noise control in sfb21 (VBR)\n"
            "    -Z [n]          always compute the short-block masking\n"
            "    --athaa-sensitivity dB   ATH auto-adjust activation offset\n"
            "    -X n[,m]        accepted and ignored (developer option in lame)\n"
            "\n"
            "  Stream:\n"
            "    -p              CRC error protection\n"
            "    -c, -o          copyright bit, not-original bit\n"
            "    -e n|5|c        emphasis bits\n"
            "    --nores         no bit reservoir\n"
            "    --strictly-enforce-ISO, --buffer-constraint default|strict|maximum\n"
            "    -t / -T         leave out / force the Xing/LAME tag frame\n"
            "    --replaygain-fast (default), --noreplaygain\n"
            "    --replaygain-accurate  ReplayGain of the decoded output, its peak in the tag\n"
            "    --clipdetect    --replaygain-accurate's decoding, and whether the output clips\n"
            "\n"
            "  Filters:\n"
            "    --lowpass f, --lowpass-width f     kHz below 50 (lowpass) or 16 (width)\n"
            "    --highpass f, --highpass-width f   kHz below 16 (highpass, width in Hz)\n"
            "    --resample f    output rate in kHz: 8 11 12 16 22 24 32 44 48\n"
            "\n"
            "  Console:\n"
            "    -S, --silent, --quiet   less output (no progress line)\n"
            "    --brief, --verbose, --nohist, --disptime s, --flush\n"
            "\n"
            "  ringlame:\n"
            "    --threads n     worker threads (default: the CPUs this process may use)\n"
            "    --sequential    one thread, no I/O thread (no progress line)\n"
            "    --batch         every name is an input (files; folders walked); outputs\n"
            "                    named as lame names them, under --out-dir mirrored;\n"
            "                    a manifest (.ringlame-manifest.jsonl) lets a rerun skip\n"
            "                    the files already done\n"
            "    --force         with --batch: encode every file again\n"
            "    --shard k/n     with --batch: encode share k of n (0 <= k < n) of the\n"
            "                    files, balanced by size, as planned once in\n"
            "                    .ringlame-plan.n.jsonl; manifest part\n"
            "                    .ringlame-manifest.k-of-n.jsonl (docs/cluster.md)\n"
            "    --merge-manifests  with --batch: join the shards' manifest parts into\n"
            "                    the manifest; encodes nothing; names missing shards\n"
            "                    and planned inputs that no part records\n"
            "    --stall-timeout s  with --batch: give up on a file after s seconds\n"
            "                    without progress (a stalled read; default 120, 0: never)\n"
            "    --trace file    the run's task timeline as Chrome trace JSON (Perfetto)\n"
            "    --simd level    kernels: scalar, sse4.1, avx2 or avx512 (default: the CPU's\n"
            "                    best; RINGLAME_SIMD=level lowers it); same bytes at every level\n"
            "    --compare       also encode with lame (same options) and compare: exit 0\n"
            "                    identical (size, SHA-256), 1 different (a report), 2 no lame;\n"
            "                    with --batch every file (verdicts in the manifest)\n"
            "    --lame path     the lame for --compare (default: lame on PATH)\n"
            "    --compare-to f  compare with an existing MP3 instead of running lame\n"
            "\n"
            "  Accepted without effect, as in lame: --noasm x, -d, -k and the developer\n"
            "  switches (--help dev).  ID3 tags: --help id3.\n"
            "\n"
            "The environment variable LAMEOPT is read before the command line.\n");
}

void rl_args_print_dev_help(FILE *fp)
{
    fprintf(fp,
            "Developer switches.  Like Debian's lame, ringlame only warns about them,\n"
            "takes their argument where they have one, and encodes as without them:\n"
            "\n"
            "    --noath --athshort --athonly --athtype n --athlower x --athaa-type n\n"
            "    --athcurve x --short --noshort --allshort --notemp\n"
            "    --temporal-masking x --nspsytune --nssafejoint --nsmsfix x --ns-bass x\n"
            "    --ns-alto x --ns-treble x --ns-sfb21 x --interch x --shortthreshold x,y\n"
            "    --maskingadjust x --maskingadjustshort x --tune x --substep n --sbgain n\n"
            "    --sfscale --no-preset-tune --debug-file f\n"
            "\n"
            "    -X n[,m] is taken and ignored.  -Z [n] and --athaa-sensitivity x work.\n");
}

/* lame's text, word for word (its --help id3) */
void rl_args_print_id3_help(FILE *fp)
{
    fputs(
            "  ID3 tag options:\n"
            "    --tt <title>    audio/song title (max 30 chars for version 1 tag)\n"
            "    --ta <artist>   audio/song artist (max 30 chars for version 1 tag)\n"
            "    --tl <album>    audio/song album (max 30 chars for version 1 tag)\n"
            "    --ty <year>     audio/song year of issue (1 to 9999)\n"
            "    --tc <comment>  user-defined text (max 30 chars for v1 tag, 28 for v1.1)\n"
            "    --tn <track[/total]>   audio/song track number and (optionally) the total\n"
            "                           number of tracks on the original recording. (track\n"
            "                           and total each 1 to 255. just the track number\n"
            "                           creates v1.1 tag, providing a total forces v2.0).\n"
            "    --tg <genre>    audio/song genre (name or number in list)\n"
            "    --ti <file>     audio/song albumArt (jpeg/png/gif file, v2.3 tag)\n"
            "    --tv <id=value> user-defined frame specified by id and value (v2.3 tag)\n"
            "                    syntax: --tv \"TXXX=description=content\"\n"
            "    --add-id3v2     force addition of version 2 tag\n"
            "    --id3v1-only    add only a version 1 tag\n"
            "    --id3v2-only    add only a version 2 tag\n"
            "    --id3v2-utf16   add following options in unicode text encoding\n"
            "    --id3v2-latin1  add following options in latin-1 text encoding\n"
            "    --space-id3v1   pad version 1 tag with spaces instead of nulls\n"
            "    --pad-id3v2     same as '--pad-id3v2-size 128'\n"
            "    --pad-id3v2-size <value> adds version 2 tag, pad with extra <value> bytes\n"
            "    --genre-list    print alphabetically sorted ID3 genre list and exit\n"
            "    --ignore-tag-errors  ignore errors in values passed for tags\n"
            "\n"
            "    Note: A version 2 tag will NOT be added unless one of the input fields\n"
            "    won't fit in a version 1 tag (e.g. the title string is longer than 30\n"
            "    characters), or the '--add-id3v2' or '--id3v2-only' options are used,\n"
            "    or output is redirected to stdout.\n",
        fp);
}

void rl_args_print_version(FILE *fp)
{
    fprintf(fp,
            "ringlame %s, an MP3 encoder reproducing LAME 3.100 (http://lame.sf.net)\n"
            "\n"
            "Algorithms derived from LAME 3.100, distributed under the GNU Library\n"
            "General Public License, version 2 or later.\n",
            rl_version());
}
