#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.0-or-later
"""Writes ringlame's man page, ringlame.1 (roff, man macros).

NAME, SYNOPSIS and DESCRIPTION are written here; OPTIONS and the sections
after it are docs/options.md (its tables: one .TP entry per row); EXIT
STATUS is the "Exit status:" list of the comment at the top of
src/Cli/main.c; then SEE ALSO.  Python 3 standard library only.  CMake runs
it at build time (cmake/install.cmake):

    gen_manpage.py --options docs/options.md --main src/Cli/main.c \\
                   --version 0.1.0 --output build/man/ringlame.1
"""
import argparse
import os
import re
import sys

# ---------------------------------------------------------------- roff text

def escape(text):
    """Plain text -> roff text (no markup)."""
    text = text.replace("\\", "\\e")
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        elif ch == "\u2212":            # minus sign
            out.append("\\-")
        else:
            out.append("\\[u%04X]" % ord(ch))
    return "".join(out)


def code_text(text):
    """Text inside `code`: dashes are real minus signs (options)."""
    return escape(text).replace("-", "\\-")


INLINE = re.compile(r"`([^`]*)`|\*\*(.+?)\*\*|\[([^\]]+)\]\([^)]*\)")


def inline(text):
    """Markdown inline markup (code, bold, links) -> roff."""
    text = text.replace("\\|", "|")
    out = []
    pos = 0
    for m in INLINE.finditer(text):
        out.append(escape(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append("\\fB" + code_text(m.group(1)) + "\\fR")
        elif m.group(2) is not None:
            out.append("\\fB" + inline(m.group(2)) + "\\fR")
        else:
            out.append(inline(m.group(3)))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def text_line(roff):
    """A roff text line must not start with a control character."""
    if roff.startswith((".", "'")):
        return "\\&" + roff
    return roff


def quoted(roff):
    return '"' + roff.replace('"', '\\(dq') + '"'

# ------------------------------------------------------------- markdown body

def split_row(line):
    """'| a | b \\| c |' -> ['a', 'b \\| c'] (escaped bars stay)."""
    cells = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip() for c in cells[1:-1]]


def table(rows, out):
    """A Markdown table: one .TP per row, the first cell as the tag."""
    header = split_row(rows[0])
    for row in rows[2:]:
        cells = split_row(row)
        out.append(".TP")
        out.append(text_line(inline(cells[0])))
        first = True
        for name, cell in zip(header[1:], cells[1:]):
            if not cell:
                continue
            if not first:
                out.append(".br")
            if name in ("Meaning", "Effect") or (first and len(header) == 2):
                out.append(text_line(inline(cell)))
            else:
                out.append(text_line("\\fI" + escape(name) + ":\\fR " + inline(cell)))
            first = False


def heading_text(text):
    return re.sub(r"`([^`]*)`", r"\1", text)


def markdown(lines, out):
    """Converts docs/options.md's body (after its title) to roff."""
    i = 0
    para = []

    def flush():
        nonlocal para
        if para:
            out.append(text_line(inline(" ".join(para))))
            para = []

    while i < len(lines):
        line = lines[i].rstrip("\n")
        s = line.strip()
        if not s:
            flush()
            i += 1
            continue
        if s.startswith("```"):
            flush()
            out.append(".PP")
            out.append(".RS 4")
            out.append(".nf")
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                out.append(text_line(escape(lines[i].rstrip("\n"))))
                i += 1
            out.append(".fi")
            out.append(".RE")
            out.append(".PP")
            i += 1
            continue
        if s.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i].rstrip("\n"))
                i += 1
            table(rows, out)
            out.append(".PP")
            continue
        m = re.match(r"(#{2,3})\s+(.*)", s)
        if m:
            flush()
            title = heading_text(m.group(2))
            if m.group(1) == "##":
                if title.startswith("Options of"):
                    title = "LAME OPTIONS"
                out.append(".SH " + quoted(escape(title.upper())))
            else:
                out.append(".SS " + quoted(escape(title)))
            i += 1
            continue
        m = re.match(r"[-*]\s+(.*)", s)
        if m:
            flush()
            para = [m.group(1)]
            i += 1
            while i < len(lines):
                nxt = lines[i]
                if not nxt.strip() or re.match(r"\s*([-*]\s|\||#|```)", nxt):
                    break
                para.append(nxt.strip())
                i += 1
            out.append(".IP \\(bu 2")
            flush()
            continue
        if not para:
            out.append(".PP")
        para.append(s)
        i += 1
    flush()

# ------------------------------------------------------------- exit statuses

def exit_statuses(main_c):
    """The "Exit status:" list in main.c's first comment after the SPDX line: [(codes, text)]."""
    with open(main_c, encoding="utf-8") as f:
        src = f.read()
    # the first comment that is not the SPDX line
    m = None
    for c in re.finditer(r"/\*(.*?)\*/", src, re.S):
        if "SPDX-License-Identifier" not in c.group(1):
            m = c
            break
    if not m:
        sys.exit("gen_manpage: no comment at the top of " + main_c)
    lines = [re.sub(r"^\s*\*?", "", ln) for ln in m.group(1).splitlines()]
    try:
        start = next(i for i, ln in enumerate(lines) if ln.strip() == "Exit status:")
    except StopIteration:
        sys.exit("gen_manpage: no 'Exit status:' in " + main_c)
    items = []
    for ln in lines[start + 1:]:
        e = re.match(r"\s{1,4}(\d+(?:\s*/\s*\d+)*)\s+(\S.*)", ln)
        if e:
            items.append([e.group(1), e.group(2).strip()])
        elif items and re.match(r"\s{5,}\S", ln):
            items[-1][1] += " " + ln.strip()
        else:
            break
    if not items:
        sys.exit("gen_manpage: empty exit status list in " + main_c)
    return items

# -------------------------------------------------------------------- page

HEAD = r""".SH NAME
ringlame \- MP3 encoder with LAME 3.100's output, on every core
.SH SYNOPSIS
.B ringlame
[\fIoptions\fR] \fIinput\fR [\fIoutput\fR]
.br
.B ringlame
[\fIoptions\fR] \fB\-\fR [\fIoutput\fR|\fB\-\fR]
.SH DESCRIPTION
.B ringlame
encodes PCM audio to MP3 and writes exactly the bytes that
.BR lame (1)
3.100 writes for the same input and options: the same frames, the same
Xing/LAME tag and the same ReplayGain value.
It takes lame's command line.
The input is any file libsndfile opens (WAV, AIFF, FLAC, Ogg Vorbis, ...),
a WAV or AIFF stream on stdin (\fB\-\fR), or headerless PCM (\fB\-r\fR).
Without an output name the output is \fIinput\fR.mp3;
\fB\-\fR writes to stdout.
.PP
One file is encoded on all cores: a ring of frame records moves through
the encoder's stages on \fB\-\-threads\fR worker threads, and the output is
the same bytes for every thread count.
A failed or interrupted encode leaves no output file behind.
.SH OPTIONS
"""

TAIL = r""".SH ENVIRONMENT
.TP
.B LAMEOPT
options read before the command line, as by lame
.SH SEE ALSO
.BR lame (1),
.BR sndfile\-info (1)
.PP
The library: \fIringlame/ringlame.h\fR, \fBpkg\-config ringlame\fR,
CMake \fBfind_package(ringlame)\fR.
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--options", required=True, help="docs/options.md")
    ap.add_argument("--main", required=True, help="src/Cli/main.c")
    ap.add_argument("--version", required=True)
    ap.add_argument("--output", required=True)
    args = ap.parse_args()

    with open(args.options, encoding="utf-8") as f:
        md = f.read().splitlines()
    if not md or not md[0].startswith("# "):
        sys.exit("gen_manpage: %s does not start with a '# ' title" % args.options)

    out = ['.\\" SPDX-License-Identifier: LGPL-2.0-or-later',
           '.\\" Generated by scripts/gen_manpage.py from docs/options.md and',
           '.\\" src/Cli/main.c: edit those, not this file.',
           ".TH RINGLAME 1 \"\" %s \"User Commands\"" % quoted("ringlame " + args.version),
           # option names must not be hyphenated; ragged right
           ".nh", ".ad l"]
    out.extend(HEAD.rstrip("\n").split("\n"))
    markdown(md[1:], out)
    out.append(".SH \"EXIT STATUS\"")
    for codes, text in exit_statuses(args.main):
        out.append(".TP")
        out.append(text_line(escape(codes)))
        out.append(text_line(inline(text)))
    out.extend(TAIL.rstrip("\n").split("\n"))

    # no empty lines (roff takes them as blank output lines); no .PP right
    # before a heading or another paragraph macro
    clean = []
    for ln in out:
        if not ln.strip():
            continue
        if clean and clean[-1] == ".PP" and re.match(r"\.(SH|SS|PP|TP|IP)\b", ln):
            clean.pop()
        clean.append(ln)
    while clean and clean[-1] == ".PP":
        clean.pop()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write("\n".join(clean) + "\n")


if __name__ == "__main__":
    main()
