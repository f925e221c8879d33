/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame fuzz target "encode": a whole encode of a tiny input at fuzzed
 * options, wired as src/Cli/main.c wires it (rl_args_parse, rl_pcm_open,
 * channels and rate from the input, rl_mp3_open), run twice: as
 * --sequential runs it (rl_run_ring on one thread, no pool workers, direct
 * reads and writes) and with the ring at 1-4 threads, a fuzzed ring size, I/O backend and,
 * optionally, the stress hook's random delays.  The two runs must agree:
 * both fail, or both succeed with the same output bytes; abort() otherwise.
 *
 * Input layout (docs/reliability.md):
 *   byte 0   input: bits 0-2 container (0 WAV 16-bit, 1 WAV 24-bit, 2 WAV
 *            8-bit, 3 WAV 32-bit, 4 WAV float, 5 AIFF 16-bit, 6 raw -r,
 *            7 WAV 16-bit on stdin), bit 3 stereo, bits 4-7 sample rate index
 *   byte 1   ring: bits 0-1 threads - 1, bits 2-3 I/O backend (auto, thread,
 *            none, auto), bits 4-6 slots (0 = default, 1, 2, 3, 4, 5, 8, 16),
 *            bit 7 stress delays
 *   byte 2   bits 0-2 option count, bits 3-5 signal repetitions (1 << n),
 *            bit 6 stdin through a pipe, bit 7 raw: 8-bit unsigned/big-endian
 *   byte 3   raw bitwidth (8/16/24/32) in bits 0-1, progress/stats in bit 2
 *   then     per option: a selector byte and up to two argument bytes
 *   rest     the sample bytes (in the container's sample format), repeated
 *            by the repetition count, at most MAX_FRAMES frames.  An
 *            incomplete last frame is kept (the truncated-file case). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "session_files.h"
#include "fuzz_util.h"
#include "mp3_writer.h"
#include "pcm_reader.h"
#include "ring.h"
#include "settings.h"
#include "stress_hook.h"

#define MAX_FRAMES 2304              /* 2 MPEG-1 frames of input (5 with the flush): tiny */
#define MAX_TOKENS 40

static const int k_rates[16] = { 44100, 48000, 32000, 22050, 24000, 16000, 11025, 12000,
                                 8000, 96000, 44100, 48000, 16000, 8000, 7999, 50000 };

/* ---------- the input file ---------- */

typedef struct Buf {
    uint8_t *p;
    size_t n, cap;
} Buf;

static void put(Buf *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2 + 64;
        uint8_t *np = realloc(b->p, cap);
        if (!np)
            abort();
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_le(Buf *b, uint32_t v, int bytes)
{
    uint8_t t[4];
    int i;
    for (i = 0; i < bytes; i++)
        t[i] = (uint8_t)(v >> (8 * i));
    put(b, t, (size_t)bytes);
}

static void put_be(Buf *b, uint32_t v, int bytes)
{
    uint8_t t[4];
    int i;
    for (i = 0; i < bytes; i++)
        t[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
    put(b, t, (size_t)bytes);
}

/* AIFF's 80-bit extended sample rate (integer rates only) */
static void put_be_extended(Buf *b, unsigned rate)
{
    uint8_t t[10];
    int e = 0;
    uint64_t m = rate;
    memset(t, 0, sizeof t);
    if (m) {
        while (!(m & 0x8000000000000000ull)) {
            m <<= 1;
            e++;
        }
        e = 16383 + 63 - e;
        t[0] = (uint8_t)(e >> 8);
        t[1] = (uint8_t)e;
        for (int i = 0; i < 8; i++)
            t[2 + i] = (uint8_t)(m >> (56 - 8 * i));
    }
    put(b, t, sizeof t);
}

/* The samples: the payload repeated `reps` times, at most max_bytes. */
static void put_samples(Buf *b, const uint8_t *p, size_t n, int reps, size_t max_bytes)
{
    size_t total = n * (size_t)reps;
    if (total > max_bytes)
        total = max_bytes;
    while (total > 0 && n > 0) {
        size_t k = total < n ? total : n;
        put(b, p, k);
        total -= k;
    }
}

/* ---------- the command line ---------- */

typedef struct Argv {
    char *v[MAX_TOKENS + 4];
    char store[MAX_TOKENS][48];
    int n;
} Argv;

static void arg(Argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg(Argv *a, const char *fmt, ...)
{
    va_list ap;
    if (a->n >= MAX_TOKENS)
        return;
    va_start(ap, fmt);
    vsnprintf(a->store[a->n], sizeof a->store[0], fmt, ap);
    va_end(ap);
    a->v[a->n] = a->store[a->n];
    a->n++;
}

static const int k_kbps[20] = { 8, 16, 24, 32, 40, 48, 56, 64, 80, 96,
                                112, 128, 144, 160, 192, 224, 256, 320, 7, 640 };
static const char *const k_resample[12] = { "8", "11.025", "12", "16", "22.05", "24",
                                            "32", "44.1", "48", "7", "96", "0" };
static const char *const k_presets[16] = { "medium", "standard", "extreme", "insane", "phone",
                                           "voice", "fm", "tape", "hifi", "cd", "studio",
                                           "radio", "mw-us", "r3mix", "80", "320" };

static const char *const k_float_opts[12] = { "-V", "--scale", "--scale-l", "--scale-r", "--gain",
                                              "--comp", "--athaa-sensitivity", "-s", "--resample",
                                              "--lowpass", "--highpass", "--lowpass-width" };
static const char *const k_weird[14] = { "nan", "inf", "-inf", "-nan", "1e30", "-1e30", "1e-30",
                                         "0", "-0", "4294967296", "1e9", "-1e9", "1e5", "3e38" };
static const char *const k_int_opts[6] = { "-b", "-B", "--abr", "-q", "--preset", "-Z" };
static const char *const k_weird_int[6] = { "99999999999", "-2147483648", "2147483647", "-1",
                                            "0", "4294967296" };

/* One option from a selector byte and two argument bytes. */
static void add_option(Argv *a, FzBytes *b)
{
    unsigned const sel = fz_u8(b), x = fz_u8(b), y = fz_u8(b);
    switch (sel % 50) {
    case 0:  arg(a, "-V"); arg(a, "%u", x % 10); break;
    case 1:  arg(a, "-V"); arg(a, "%u.%03u", x % 10, y * 4); break;
    case 2:  arg(a, "-b"); arg(a, "%d", k_kbps[x % 20]); break;
    case 3:  arg(a, "-B"); arg(a, "%d", k_kbps[x % 20]); break;
    case 4:  arg(a, "-F"); break;
    case 5:  arg(a, "--abr"); arg(a, "%u", 4 + x * 2 + (y & 1)); break;
    case 6:  arg(a, "--cbr"); break;
    case 7:  arg(a, "-q"); arg(a, "%u", x % 10); break;
    case 8:  arg(a, "-m"); arg(a, "%c", "jsfdmlr"[x % 7]); break;
    case 9:  arg(a, "--resample"); arg(a, "%s", k_resample[x % 12]); break;
    case 10: arg(a, "--lowpass"); arg(a, "%u.%u", x / 10, x % 10); break;
    case 11: arg(a, "--highpass"); arg(a, "%u.%u", x / 40, x % 10); break;
    case 12: arg(a, "--lowpass-width"); arg(a, "%u.%u", x / 40, x % 10); break;
    case 13: arg(a, "--highpass-width"); arg(a, "%u.%u", x / 40, x % 10); break;
    case 14: arg(a, "-p"); break;
    case 15: arg(a, "--nores"); break;
    case 16: arg(a, "--strictly-enforce-ISO"); break;
    case 17: arg(a, "-t"); break;
    case 18: arg(a, "--noreplaygain"); break;
    case 19: arg(a, "--scale"); arg(a, "%s%u.%u", y & 1 ? "-" : "", x / 16, x % 16); break;
    case 20: arg(a, "--scale-l"); arg(a, "%u.%u", x / 32, x % 10); break;
    case 21: arg(a, "--scale-r"); arg(a, "%u.%u", x / 32, x % 10); break;
    case 22: arg(a, "--gain"); arg(a, "%d", (int)(x % 40) - 22); break;
    case 23: arg(a, "--swap-channel"); break;
    case 24: arg(a, "-a"); break;
    case 25: arg(a, "--preset"); arg(a, "%s", k_presets[x % 16]); break;
    case 26: arg(a, "--preset"); arg(a, "fast"); arg(a, "%s", k_presets[x % 4]); break;
    case 27: arg(a, "--preset"); arg(a, "cbr"); arg(a, "%d", k_kbps[x % 20]); break;
    case 28: arg(a, "--preset"); arg(a, "%d", 8 + (int)x); break;
    case 29: arg(a, "--vbr-old"); break;
    case 30: arg(a, "--vbr-new"); break;
    case 31: arg(a, "--vbr-mtrh"); break;
    case 32: arg(a, "-v"); break;
    case 33: arg(a, "--r3mix"); break;
    case 34: arg(a, "--comp"); arg(a, "%u.%u", 1 + x / 8, y % 10); break;
    case 35: arg(a, "--freeformat"); arg(a, "-b"); arg(a, "%u", 8 + x * 2 + (y & 1)); break;
    case 36: arg(a, "-Y"); break;
    case 37: arg(a, "-Z"); break;
    case 38: arg(a, "--athaa-sensitivity"); arg(a, "%d", (int)(x % 60) - 30); break;
    case 39: arg(a, "%s", x & 1 ? "-h" : "-f"); break;
    case 40: arg(a, "--buffer-constraint"); arg(a, "%s", x % 3 == 0 ? "default" : x % 3 == 1 ? "strict" : "maximum"); break;
    case 41: arg(a, "%s", x % 3 == 0 ? "-c" : x % 3 == 1 ? "-o" : "-T"); break;
    case 42: arg(a, "-e"); arg(a, "%c", "n5c"[x % 3]); break;
    case 43: arg(a, "--replaygain-fast"); break;
    case 44: arg(a, "-s"); arg(a, "%s", k_resample[x % 12]); break;
    case 45: arg(a, "--abr"); arg(a, "%u", 8 + x); arg(a, "-b"); arg(a, "%d", k_kbps[y % 20]); break;
    case 46: arg(a, "-V"); arg(a, "%u", x % 10); arg(a, "-b"); arg(a, "%d", k_kbps[y % 20]);
             arg(a, "-B"); arg(a, "%d", k_kbps[(x + y) % 20]); break;
    case 47: arg(a, "-m"); arg(a, "m"); break;
    /* values no one types: not-a-number, infinities, out of range */
    case 48: arg(a, "%s", k_float_opts[x % 12]); arg(a, "%s", k_weird[y % 14]); break;
    default: arg(a, "%s", k_int_opts[x % 6]); arg(a, "%s", k_weird_int[y % 6]); break;
    }
}

/* ---------- one encode, as main() does it ---------- */

typedef struct Progress {
    int64_t last, calls;
} Progress;

static void on_progress(void *p, int64_t done, int64_t total)
{
    Progress *pr = p;
    FZ_CHECK(done >= pr->last, "progress went back: %lld after %lld", (long long)done,
             (long long)pr->last);
    (void)total;    /* an estimate (resampling, stdin headers): may be passed */
    pr->last = done;
    pr->calls++;
}

typedef struct RunCfg {
    int threads;                  /* 0: --sequential (one thread inline, direct I/O) */
    int slots, stats;
    RlRingIo io_backend;
    const uint8_t *stdin_data;    /* non-NULL: the input is "-" */
    size_t stdin_len;
    int stdin_pipe;
} RunCfg;

/* 0 and the output in *out, or the failure (<0, nothing in *out). */
static int encode(const RlArgs *parsed, const RunCfg *rc_cfg, const char *out_path,
                  uint8_t **out, size_t *out_len)
{
    RlArgs *a = malloc(sizeof *a);
    RlPcmReader *in = NULL;
    RlMp3Writer *w = NULL;
    RlRawFormat raw;
    char err[512];
    int rc;

    *out = NULL;
    *out_len = 0;
    if (!a)
        abort();
    *a = *parsed;
    if (rc_cfg->stdin_data)
        fz_stdin_from(rc_cfg->stdin_data, rc_cfg->stdin_len, rc_cfg->stdin_pipe);

    /* the input description as src/Cli/main.c builds it */
    rl_file_session_raw_format(&a->lame, &raw);

    rc = rl_pcm_open(&in, a->in_path, &raw, err, sizeof err);
    if (rc < 0)
        goto done;
    if (rl_lame_apply_input(&a->lame, &a->lame.opt, rl_pcm_channels(in), rl_pcm_samplerate(in), err,
                            sizeof err) < 0) {
        rc = -EINVAL;
        goto done;
    }
    unlink(out_path);
    rc = rl_mp3_open(&w, out_path, err, sizeof err);
    if (rc < 0)
        goto done;
    if (rc_cfg->threads == 0) {
        RlRingParams p;
        memset(&p, 0, sizeof p);
        p.threads = 1;
        p.io_backend = RL_RING_IO_DIRECT;
        rc = rl_run_ring(&a->lame.opt, in, w, &p);
    } else {
        RlRingParams p;
        RlRingStats stats;
        Progress pr = { 0, 0 };
        memset(&p, 0, sizeof p);
        p.threads = rc_cfg->threads;
        p.slots = rc_cfg->slots;
        p.io_backend = rc_cfg->io_backend;
        if (rc_cfg->stats) {
            p.stats = &stats;
            p.progress = on_progress;
            p.progress_arg = &pr;
        }
        rc = rl_run_ring(&a->lame.opt, in, w, &p);
        if (rc == 0 && rc_cfg->stats)
            FZ_CHECK(stats.frames >= 0 && stats.search_redos >= 0 && stats.search_redos <= stats.frames,
                     "ring stats: %lld frames, %lld redos", (long long)stats.frames,
                     (long long)stats.search_redos);
    }
    {
        int const rc2 = rl_mp3_close(w, rc == 0);
        if (rc == 0)
            rc = rc2;
    }
    if (rc == 0) {
        rc = fz_read_file(out_path, out, out_len);
        FZ_CHECK(rc == 0, "encode succeeded but %s cannot be read (%d)", out_path, rc);
    } else {
        FZ_CHECK(access(out_path, F_OK) != 0, "failed encode (%d) left %s", rc, out_path);
    }
done:
    rl_pcm_close(in);
    free(a);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FzBytes b = { data, size };
    unsigned const in_byte = fz_u8(&b), ring_byte = fz_u8(&b), misc = fz_u8(&b), misc2 = fz_u8(&b);
    int const kind = (int)(in_byte & 7), stereo = (in_byte >> 3) & 1;
    int const channels = stereo ? 2 : 1, rate = k_rates[in_byte >> 4];
    static const int k_slots[8] = { 0, 1, 2, 3, 4, 5, 8, 16 };
    static const RlRingIo k_io[4] = { RL_RING_IO_AUTO, RL_RING_IO_THREAD, RL_RING_IO_DIRECT, RL_RING_IO_AUTO };
    int const nopts = (int)(misc & 7), reps = 1 << ((misc >> 3) & 7);
    int const raw_bits = 8 << (misc2 & 3);
    int sample_bytes, i, rc_seq, rc_ring;
    Argv av;
    Buf file = { NULL, 0, 0 };
    char in_path[320], seq_path[320], ring_path[320];
    RlArgs *parsed;
    RunCfg seq, ring;
    uint8_t *out_seq = NULL, *out_ring = NULL;
    size_t len_seq = 0, len_ring = 0;
    FILE *devnull;

    memset(&av, 0, sizeof av);
    arg(&av, "ringlame");
    for (i = 0; i < nopts; i++)
        add_option(&av, &b);

    /* the input file */
    switch (kind) {
    case 1: sample_bytes = 3; break;
    case 2: sample_bytes = 1; break;
    case 3: case 4: sample_bytes = 4; break;
    case 6: sample_bytes = raw_bits / 8; break;
    default: sample_bytes = 2; break;
    }
    {
        size_t const max_bytes = (size_t)MAX_FRAMES * (size_t)channels * (size_t)sample_bytes;
        size_t data_len = b.n * (size_t)reps;
        if (data_len > max_bytes)
            data_len = max_bytes;
        if (kind == 5) {              /* AIFF, 16-bit big-endian */
            uint32_t const nframes = (uint32_t)(data_len / (size_t)(channels * 2));
            put(&file, "FORM", 4);
            put_be(&file, (uint32_t)(4 + 8 + 18 + 8 + 8 + data_len), 4);
            put(&file, "AIFFCOMM", 8);
            put_be(&file, 18, 4);
            put_be(&file, (uint32_t)channels, 2);
            put_be(&file, nframes, 4);
            put_be(&file, 16, 2);
            put_be_extended(&file, (unsigned)rate);
            put(&file, "SSND", 4);
            put_be(&file, (uint32_t)(8 + data_len), 4);
            put_be(&file, 0, 4);
            put_be(&file, 0, 4);
        } else if (kind != 6) {       /* WAV */
            int const bits = sample_bytes * 8, fmt = kind == 4 ? 3 : 1;
            put(&file, "RIFF", 4);
            put_le(&file, (uint32_t)(36 + data_len), 4);
            put(&file, "WAVEfmt ", 8);
            put_le(&file, 16, 4);
            put_le(&file, (uint32_t)fmt, 2);
            put_le(&file, (uint32_t)channels, 2);
            put_le(&file, (uint32_t)rate, 4);
            put_le(&file, (uint32_t)(rate * channels * sample_bytes), 4);
            put_le(&file, (uint32_t)(channels * sample_bytes), 2);
            put_le(&file, (uint32_t)bits, 2);
            put(&file, "data", 4);
            put_le(&file, (uint32_t)data_len, 4);
        }
        put_samples(&file, b.p, b.n, reps, data_len);
    }

    /* the command line: options, then (raw) the input description */
    if (kind == 6) {
        arg(&av, "-r");
        arg(&av, "-s");
        arg(&av, "%g", rate / 1000.0);
        arg(&av, "--bitwidth");
        arg(&av, "%d", raw_bits);
        if (!stereo) {
            arg(&av, "-m");
            arg(&av, "m");
        }
        if (misc & 0x80)
            arg(&av, "%s", raw_bits == 8 ? "--unsigned" : "--big-endian");
        else if (raw_bits == 8)
            arg(&av, "--signed");
    }
    if (kind == 7) {
        snprintf(in_path, sizeof in_path, "-");
    } else {
        fz_path(in_path, sizeof in_path, kind == 5 ? "in.aiff" : kind == 6 ? "in.raw" : "in.wav");
        fz_write_file(in_path, file.p, file.n);
    }
    fz_path(seq_path, sizeof seq_path, "seq.mp3");
    fz_path(ring_path, sizeof ring_path, "ring.mp3");
    arg(&av, "%s", in_path);
    arg(&av, "%s", seq_path);      /* parsed, not used: each run names its own output */
    av.v[av.n] = NULL;

    parsed = malloc(sizeof *parsed);
    devnull = fopen("/dev/null", "w");
    if (!parsed || !devnull)
        abort();
    if (rl_args_parse(parsed, av.n, av.v, NULL, getenv("RINGLAME_SIMD"), devnull, devnull) != RL_ARGS_OK
        || (parsed->lame.raw_input && parsed->lame.raw_signed == 0 && parsed->lame.raw_bitwidth != 8)) {
        /* a refused command line is the args target's business */
        if (getenv("RL_FUZZ_VERBOSE"))
            fprintf(stderr, "encode: command line refused\n");
        fclose(devnull);
        free(parsed);
        free(file.p);
        return 0;
    }
    fclose(devnull);
    if (getenv("RL_FUZZ_VERBOSE")) {     /* what an input does, for seeds and reports */
        fprintf(stderr, "encode: ringlame");
        for (i = 1; i < av.n; i++)
            fprintf(stderr, " %s", av.v[i]);
        fprintf(stderr, " (%zu input bytes)\n", file.n);
    }

    memset(&seq, 0, sizeof seq);
    if (kind == 7) {
        seq.stdin_data = file.p;
        seq.stdin_len = file.n;
        seq.stdin_pipe = (misc >> 6) & 1;
    }
    ring = seq;
    ring.threads = 1 + (int)(ring_byte & 3);
    ring.io_backend = k_io[(ring_byte >> 2) & 3];
    ring.slots = k_slots[(ring_byte >> 4) & 7];
    ring.stats = (misc2 >> 2) & 1;

    rc_seq = encode(parsed, &seq, seq_path, &out_seq, &len_seq);
    if (ring_byte & 0x80)
        rl_stress_set((unsigned)size * 2654435761u, 20);
    rc_ring = encode(parsed, &ring, ring_path, &out_ring, &len_ring);
    rl_stress_set(0, 0);

    if (getenv("RL_FUZZ_VERBOSE"))
        fprintf(stderr, "encode: sequential %d (%zu bytes), ring %d threads %d slots io %d%s: "
                "%d (%zu bytes)\n", rc_seq, len_seq, ring.threads, ring.slots, ring.io_backend,
                ring_byte & 0x80 ? " stress" : "", rc_ring, len_ring);
    FZ_CHECK((rc_seq == 0) == (rc_ring == 0),
             "--sequential returned %d, the ring (%d threads, %d slots, io %d) %d",
             rc_seq, ring.threads, ring.slots, ring.io_backend, rc_ring);
    if (rc_seq == 0) {
        size_t k = 0;
        while (k < len_seq && k < len_ring && out_seq[k] == out_ring[k])
            k++;
        FZ_CHECK(len_seq == len_ring && k == len_seq,
                 "--sequential and the ring (%d threads, %d slots, io %d) differ: %zu and %zu "
                 "bytes, first difference at byte %zu",
                 ring.threads, ring.slots, ring.io_backend, len_seq, len_ring, k);
    }
    unlink(seq_path);
    unlink(ring_path);
    free(out_seq);
    free(out_ring);
    free(parsed);
    free(file.p);
    return 0;
}
