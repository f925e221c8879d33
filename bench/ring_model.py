#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.0-or-later
"""ringlame's frame ring, replayed: predicts the wall time of an encode on
more workers than this machine has, from a trace of it (--trace FILE, taken
at --threads 1 or 2).

The measured task durations are replayed through the ring's rules
(src/Tasks/ring/ring.c): Dispatch, Resolve, Encode and each ReplayGain
channel are serial (one at a time; Dispatch, Resolve and Encode in frame
order), Prepare and Search run on any worker, at most `slots` frames are in
flight (4 * workers, at most 256: the ring's default), and a free worker
takes the first ready task in pick_task's order: Encode's forked items >
Encode > Resolve > Search > Prepare > gain0, gain1 > Dispatch > Finish.
Encode forks its channel loops (encode-side events of a trace taken at 2+
threads): the items an idle worker can take run beside it, the rest Encode
runs itself.  From a 1-thread trace Encode is replayed as one serial block
(no split known).  Gain tasks are replayed as per-frame work pushed by
Dispatch (each channel's total over the frames) and run in batches.

What-if options (for a --threads 1 trace, where every search was kept):
--accept P or --accept N:P,N:P,... keeps only a share P of the searches
(P per worker count N: the one of the largest N listed at or below the
count; the kept ones evenly spread over the frames); a rejected frame's
Encode runs its search again, half of it as a forked item (the two
channels' loops).  --searches K runs K searches per frame (each as long as
the traced one: several assumed states), Encode waiting for all of them.
--solve X@N finds the P at which N workers reach X times the 1-worker time
(P = 1 there, as at one thread).  A trace taken at 2+ threads also tells
the redo cost: the searches Encode redid (thrown away) as a share of all
task time.

Not modelled: cache and memory-bandwidth contention, the scheduler lock,
wake-up latency, the I/O thread (reads and writes overlap the ring), the
gain feed's bound.  So the curve is an upper bound on the speed-up.

A TRACE may be several traces of the same run joined with "+": each task
then counts with its fastest of them (for a loaded machine).

usage: ring_model.py TRACE[:LABEL] ... [--workers 1,2,4,...] [--svg OUT.svg]
       [--accept P|N:P,...] [--searches K] [--solve X@N]
"""
import heapq
import json
import sys
from collections import defaultdict

WORKERS = [1, 2, 4, 8, 16, 32, 64]
SERIAL = ("dispatch", "resolve", "encode", "gain0", "gain1")


def load(path):
    """Per-frame durations (seconds) and totals from a trace file."""
    with open(path) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    per = defaultdict(dict)            # stage -> frame -> seconds
    side = defaultdict(list)           # frame -> [item seconds]
    gain = {"gain0": 0.0, "gain1": 0.0}
    extra_dispatch = 0.0               # dispatch calls that cut no frame
    finish = 0.0
    redo = {}                          # frame -> 1 when Encode redid its search
    t_end = 0.0
    threads = set()
    for e in events:
        name, dur = e["name"], e["dur"] * 1e-6
        t_end = max(t_end, (e["ts"] + e["dur"]) * 1e-6)
        if name in ("read", "write", "decode"):
            continue
        threads.add(e["tid"])
        fr = e.get("args", {}).get("frame", -1)
        if name == "encode-side":
            side[fr].append(dur)
        elif name in gain:
            gain[name] += dur
        elif name == "finish":
            finish += dur
        elif name == "dispatch" and fr < 0:
            extra_dispatch += dur
        else:
            per[name][fr] = dur
            if name == "encode":
                redo[fr] = e.get("args", {}).get("redo", 0)
    n = len(per["encode"])
    frames = []
    for t in range(n):
        d = {s: per[s].get(t, 0.0) for s in ("dispatch", "prepare", "resolve", "search", "encode")}
        d["dispatch"] += extra_dispatch / n
        items = side.get(t, [])
        # Encode waited for the items others ran: its own work is the rest
        d["encode"] = max(d["encode"] - sum(items), 0.0) if items else d["encode"]
        d["items"] = items
        d["gain0"] = gain["gain0"] / n
        d["gain1"] = gain["gain1"] / n
        d["redo"] = redo.get(t, 0)
        frames.append(d)
    return {"frames": frames, "finish": finish, "span": t_end, "threads": len(threads)}


def rejected(tr, share):
    """The trace with only `share` of the searches kept: a rejected frame's
    Encode runs its search again, half of it on a forked item."""
    if share >= 1:
        return tr
    out = []
    for t, f in enumerate(tr["frames"]):
        f = dict(f)
        # evenly spread: frame t is rejected when the count of rejections
        # up to it steps
        if int((t + 1) * (1 - share)) > int(t * (1 - share)):
            f["encode"] += f["search"] / 2
            f["items"] = list(f["items"]) + [f["search"] / 2]
        out.append(f)
    return dict(tr, frames=out)


def share_at(accept, workers):
    """The kept share for a worker count from --accept's table."""
    best = 1.0
    for n, p in sorted(accept.items()):
        if n <= workers:
            best = p
    return best


def fastest(paths):
    """Traces of one input at one thread count (A+B+...), each task as
    long as its fastest run: a loaded machine's preemptions are left out."""
    trs = [load(p) for p in paths]
    n = min(len(t["frames"]) for t in trs)
    frames = []
    for i in range(n):
        runs = [t["frames"][i] for t in trs]
        d = dict(runs[0])
        for k in ("dispatch", "prepare", "resolve", "search", "encode", "gain0", "gain1"):
            d[k] = min(f[k] for f in runs)
        frames.append(d)
    return {"frames": frames, "finish": min(t["finish"] for t in trs),
            "span": min(t["span"] for t in trs), "threads": trs[0]["threads"]}


def simulate(tr, workers, slots=None, searches=1):
    """The predicted wall time (seconds) on `workers` threads."""
    fr = tr["frames"]
    n = len(fr)
    slots = slots or min(4 * workers, 256)
    now = 0.0
    free = workers
    heap = []          # (end, seq, kind, frame)
    seq = 0
    cut = prep_take = resolved = search_take = encoded = 0
    prepared = set()
    nsearched = defaultdict(int)
    disp_run = res_run = enc_run = False
    gain_run = [False, False]
    gain_pending = [0.0, 0.0]
    side_free = []     # items of the running Encode free for others
    finish_done = False

    def start(kind, frame, dur):
        nonlocal seq, free
        heapq.heappush(heap, (now + dur, seq, kind, frame))
        seq += 1
        free -= 1

    while True:
        progressed = True
        while free > 0 and progressed:
            progressed = False
            if side_free:
                start("side", -1, side_free.pop())
            elif not enc_run and encoded < resolved and nsearched[encoded] == searches:
                enc_run = True
                f = fr[encoded]
                items = list(f["items"])
                own = f["encode"]
                # idle workers (after this one) take items at once
                others = min(free - 1, len(items))
                taken, rest = items[:others], items[others:]
                start("encode", encoded, own + sum(rest))
                side_free.extend(taken)
            elif not res_run and resolved < prep_take and resolved in prepared:
                res_run = True
                start("resolve", resolved, fr[resolved]["resolve"])
            elif search_take < resolved * searches:
                start("search", search_take // searches, fr[search_take // searches]["search"])
                search_take += 1
            elif prep_take < cut:
                start("prepare", prep_take, fr[prep_take]["prepare"])
                prep_take += 1
            elif not gain_run[0] and gain_pending[0] > 0:
                gain_run[0] = True
                start("gain0", -1, gain_pending[0])
                gain_pending[0] = 0.0
            elif not gain_run[1] and gain_pending[1] > 0:
                gain_run[1] = True
                start("gain1", -1, gain_pending[1])
                gain_pending[1] = 0.0
            elif not disp_run and cut < n and cut - encoded < slots:
                disp_run = True
                start("dispatch", cut, fr[cut]["dispatch"])
            elif (cut == n and encoded == n and not finish_done and not any(gain_run)
                  and gain_pending == [0.0, 0.0]):
                finish_done = True
                start("finish", -1, tr["finish"])
            else:
                break
            progressed = True
        if not heap:
            return now
        now, _, kind, frame = heapq.heappop(heap)
        free += 1
        if kind == "dispatch":
            disp_run = False
            cut += 1
            gain_pending[0] += fr[frame]["gain0"]
            gain_pending[1] += fr[frame]["gain1"]
        elif kind == "prepare":
            prepared.add(frame)
        elif kind == "resolve":
            res_run = False
            resolved += 1
        elif kind == "search":
            nsearched[frame] += 1
        elif kind == "encode":
            enc_run = False
            encoded += 1
        elif kind in ("gain0", "gain1"):
            gain_run[kind == "gain1"] = False


def redo_cost(tr, work):
    """Searches Encode redid, and their thrown-away search time's share."""
    fr = tr["frames"]
    n = sum(f["redo"] for f in fr)
    lost = sum(f["search"] for f in fr if f["redo"])
    return n, 100.0 * n / max(len(fr), 1), 100.0 * lost / work


def speedups(tr, accept, searches):
    """[(workers, wall, speed-up)] against the trace at 1 worker, every search kept."""
    base = simulate(tr, 1)
    return [(n, w, base / w) for n in WORKERS
            for w in [simulate(rejected(tr, share_at(accept, n)), n,
                               searches=searches if n > 1 else 1)]]


def solve(tr, target, workers, searches):
    """The kept share at which `workers` reach `target` times 1 worker."""
    base = simulate(tr, 1)
    lo, hi = 0.0, 1.0
    if base / simulate(tr, workers, searches=searches) < target:
        return None
    for _ in range(20):
        mid = (lo + hi) / 2
        if base / simulate(rejected(tr, mid), workers, searches=searches) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def chains(tr):
    """Each serial chain's total (seconds) and all task time."""
    fr = tr["frames"]
    tot = {s: sum(f[s] for f in fr) for s in SERIAL}   # Encode: without its forked items
    work = sum(f[s] for f in fr for s in ("dispatch", "prepare", "resolve", "search", "encode",
                                          "gain0", "gain1")) + sum(sum(f["items"]) for f in fr)
    return tot, work + tr["finish"]


def svg(curves, path):
    """Predicted speed-up against workers (log2 axis), one line per trace."""
    w, h, ml, mr, mt, mb = 640, 420, 60, 170, 30, 50
    pw, ph = w - ml - mr, h - mt - mb
    ymax = max(max(s for _, s in pts) for _, pts in curves)
    ytop = max(2, int(ymax + 1.999))
    xs = WORKERS

    def X(n):
        import math
        return ml + pw * math.log2(n) / math.log2(xs[-1])

    def Y(s):
        return mt + ph * (1 - s / ytop)

    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="14">ringlame: predicted speed-up of the frame ring'
           '</text>' % ml]
    for n in xs:
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>'
                   % (X(n), mt, X(n), mt + ph))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (X(n), mt + ph + 16, n))
    step = 1 if ytop <= 10 else 2
    for s in range(0, ytop + 1, step):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
                   % (ml, Y(s), ml + pw, Y(s)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%d</text>' % (ml - 6, Y(s) + 4, s))
    out.append('<text x="%d" y="%d" text-anchor="middle">workers (--threads)</text>'
               % (ml + pw // 2, h - 10))
    out.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">'
               'speed-up over 1 worker</text>' % (mt + ph // 2, mt + ph // 2))
    for i, (label, pts) in enumerate(curves):
        c = colors[i % len(colors)]
        d = " ".join("%s%.1f,%.1f" % ("M" if j == 0 else "L", X(n), Y(s))
                     for j, (n, s) in enumerate(pts))
        out.append('<path d="%s" fill="none" stroke="%s" stroke-width="2"/>' % (d, c))
        for n, s in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (X(n), Y(s), c))
        ly = mt + 10 + 20 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                   % (ml + pw + 12, ly, ml + pw + 32, ly, c))
        out.append('<text x="%d" y="%d">%s</text>' % (ml + pw + 36, ly + 4,
                                                      label.replace("&", "&amp;")
                                                      .replace("<", "&lt;")))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main(argv):
    global WORKERS
    paths, svg_path = [], None
    accept, searches, target = {}, 1, None
    i = 0
    while i < len(argv):
        if argv[i] == "--accept":
            for part in argv[i + 1].split(","):
                n, _, p = part.rpartition(":")
                accept[int(n) if n else 1] = float(p)
            i += 2
        elif argv[i] == "--searches":
            searches = int(argv[i + 1])
            i += 2
        elif argv[i] == "--solve":
            x, _, n = argv[i + 1].partition("@")
            target = (float(x), int(n))
            i += 2
        elif argv[i] == "--svg":
            svg_path = argv[i + 1]
            i += 2
        elif argv[i] == "--workers":
            WORKERS = [int(x) for x in argv[i + 1].split(",")]
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    if not paths:
        print("\n".join(__doc__.strip().splitlines()[-2:]), file=sys.stderr)
        return 2
    curves = []
    for arg in paths:
        path, _, label = arg.partition(":")
        tr = fastest(path.split("+")) if "+" in path else load(path)
        tot, work = chains(tr)
        cap = max(SERIAL, key=lambda s: tot[s])
        print("%s (%s): %d frames, traced on %d threads, trace span %.3f s, task time %.3f s"
              % (label or path, path, len(tr["frames"]), tr["threads"], tr["span"], work))
        print("  serial chains: " + ", ".join("%s %.3f s (%.1f%%)" % (s, tot[s], 100 * tot[s] / work)
                                              for s in SERIAL))
        print("  the cap: %s, %.3f s: at most %.1fx" % (cap, tot[cap], work / tot[cap]))
        if tr["threads"] > 1:
            print("  searches redone: %d (%.2f%%), their searches %.2f%% of task time"
                  % redo_cost(tr, work))
        pts = []
        print("  %8s %12s %9s %7s  %s" % ("workers", "wall (s)", "speed-up", "kept", "the cap there"))
        for n, wall, x in speedups(tr, accept, searches):
            t2, w2 = chains(rejected(tr, share_at(accept, n)))
            c2 = max(SERIAL, key=lambda s: t2[s])
            pts.append((n, x))
            print("  %8d %12.3f %8.2fx %6.1f%%  %s %.1f%% (at most %.1fx)"
                  % (n, wall, x, 100 * share_at(accept, n), c2, 100 * t2[c2] / w2, w2 / t2[c2]))
        if target:
            p = solve(tr, target[0], target[1], searches)
            print("  %.1fx at %d workers: %s" % (target[0], target[1],
                  "not reached even with every search kept" if p is None
                  else "needs %.1f%% of the searches kept" % (100 * p)))
        curves.append((label or path, pts))
    if svg_path:
        svg(curves, svg_path)
        print("wrote", svg_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
