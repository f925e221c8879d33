#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.0-or-later
"""Runs Audacity headless and sends it scripting commands (tests/clients/audacity.sh).

usage: audacity_pipe.py [--maps FILE] [--pref /GROUP/KEY=VALUE]... HOME_DIR COMMAND...

Starts an Xvfb server of its own (-displayfd picks a free display) and
Audacity on it, with HOME_DIR as a throwaway home whose audacity.cfg enables
mod-script-pipe, then sends each COMMAND ("Import2: Filename=...",
"SetPreference: Name=... Value=...", "Export2: Filename=...") through the
module's pipes /tmp/audacity_script_pipe.{to,from}.UID and requires
"BatchCommand finished: OK" for each; an Export2 must also report its file and
leave it non-empty.  The environment is passed on unchanged (LD_LIBRARY_PATH,
LD_DEBUG), so the caller chooses the libmp3lame.so.0 Audacity loads;
--maps FILE writes the libmp3lame files mapped into Audacity's process after
the last command (from /proc/PID/maps), one a line; each --pref is written
into audacity.cfg before the start (what "SetPreference:" would set, without
a command's round trip).

Every step has a deadline: a command that opens a dialog instead of answering
(a path that cannot be written, a sample rate the exporter does not take) is
a timeout, not a hang.  Xvfb and Audacity run in process groups of their own
and are killed with them at the end, whatever happened.  The pipes' names are
fixed per user, so concurrent runs take turns on a lock file.

Exit status: 0 when every command succeeded, 1 otherwise (the reason on
stderr, with the end of Audacity's log).  AUDACITY_PIPE_TRACE=1 prints each
step's time on stderr.
"""

import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import time

MODULE = "/usr/lib/audacity/modules/mod-script-pipe.so"
START_TIMEOUT = 60      # Xvfb, then Audacity until its pipe server answers
COMMAND_TIMEOUT = 60    # one command, an export included
LOCK_TIMEOUT = 120      # another run holding the pipes


class Failure(Exception):
    pass


START = time.monotonic()


def trace(what):
    if os.environ.get("AUDACITY_PIPE_TRACE") == "1":
        print("audacity_pipe: %7.2f s %s" % (time.monotonic() - START, what), file=sys.stderr)


def config_text(home, prefs):
    # The module must be listed with its path and modification time (local
    # time, as Audacity compares it) or Audacity asks about it in a dialog.
    mtime = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(os.stat(MODULE).st_mtime))
    return "\n".join([
        "PrefsVersion=1.1.1r1",
        "[Version]", "Major=3", "Minor=2", "Micro=4",
        "[Module]", "mod-script-pipe=1",
        "[ModulePath]", "mod-script-pipe=" + MODULE,
        "[ModuleDateTime]", "mod-script-pipe=" + mtime,
        # unsaved projects live here, not in the shared /var/tmp/audacity-USER
        "[Directories]", "TempDir=" + os.path.join(home, "tmp"),
        "[GUI]", "ShowSplashScreen=0",
        "[AudioFiles]", "ShowId3Dialog=0",
        ] + pref_lines(prefs) + [""])


def pref_lines(prefs):
    """The INI lines of PREFS, pairs ("/GROUP/KEY", VALUE)."""
    groups = {}
    for path, value in prefs:
        group, key = path.strip("/").rsplit("/", 1)
        groups.setdefault(group, []).append("%s=%s" % (key, value))
    lines = []
    for group, entries in groups.items():
        lines += ["[%s]" % group] + entries
    return lines


def kill_group(proc, grace):
    """Ends PROC's process group: SIGTERM, then SIGKILL after GRACE s (0: at once)."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM if grace > 0 else signal.SIGKILL)
        proc.wait(grace if grace > 0 else None)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


class Pipe:
    """The two FIFOs of mod-script-pipe, read and written with deadlines."""

    def __init__(self, to_name, from_name, deadline):
        # The server opens "to" for reading first, then "from" for writing:
        # open in the same order.  O_NONBLOCK on "to" fails with ENXIO until
        # the server has it open, which lets the wait have a deadline.
        while True:
            try:
                self.to_fd = os.open(to_name, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise Failure("Audacity's pipe server did not open " + to_name)
                time.sleep(0.05)
        os.set_blocking(self.to_fd, True)
        self.from_fd = os.open(from_name, os.O_RDONLY | os.O_NONBLOCK)
        self.pending = b""

    def send(self, line):
        os.write(self.to_fd, (line + "\n").encode())

    def read_line(self, deadline):
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.from_fd], [], [], left)
            if ready:
                chunk = os.read(self.from_fd, 65536)
                if not chunk:   # no writer yet, or the server has gone
                    time.sleep(0.02)
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace")

    def command(self, line, timeout):
        """Sends LINE; returns (status line, output lines) or None on timeout."""
        self.send(line)
        return self.read_reply(time.monotonic() + timeout)

    def read_reply(self, deadline):
        out = []
        while True:
            got = self.read_line(deadline)
            if got is None:
                return None
            if got.startswith("BatchCommand finished:"):
                # the reply ends with an empty line
                self.read_line(time.monotonic() + 5)
                return got, out
            out.append(got)

    def synchronise(self, deadline):
        """Waits until Audacity answers commands.

        A command that arrives before the project window exists gets an empty
        line and never a status.  Each probe echoes its own token, so a late
        answer to an earlier probe cannot be taken for the last one's."""
        token = 0
        while time.monotonic() < deadline:
            token += 1
            reply = self.command("Message: Text=ringlame-sync-%d" % token, 1)
            while reply is not None:
                status, out = reply
                if status == "BatchCommand finished: OK" and "ringlame-sync-%d" % token in out:
                    return
                reply = self.read_reply(time.monotonic() + 1)
        raise Failure("Audacity's pipe server answered nothing in %d s" % START_TIMEOUT)


def export_path(line):
    """The file of an Export2 command: Filename="PATH" or Filename=PATH."""
    match = re.search(r'Filename=(?:"([^"]*)"|(\S+))', line)
    if match is None:
        raise Failure("'%s' names no Filename" % line)
    return match.group(1) if match.group(1) is not None else match.group(2)


def start_xvfb(log):
    rd, wr = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wr), "-nolisten", "tcp", "-noreset",
                             "-screen", "0", "1280x1024x24"],
                            pass_fds=(wr,), stdout=log, stderr=log, start_new_session=True)
    os.close(wr)
    deadline = time.monotonic() + START_TIMEOUT
    number = b""
    while not number.endswith(b"\n"):
        if not select.select([rd], [], [], max(0, deadline - time.monotonic()))[0]:
            break
        chunk = os.read(rd, 64)
        if not chunk:
            break
        number += chunk
    os.close(rd)
    if not number.strip().isdigit():
        kill_group(xvfb, 5)
        raise Failure("Xvfb did not start (no display number)")
    return ":" + number.decode().strip(), xvfb


def write_maps(pid, path):
    names = set()
    with open("/proc/%d/maps" % pid) as maps:
        for line in maps:
            fields = line.split(None, 5)
            if len(fields) == 6 and "libmp3lame" in fields[5]:
                names.add(fields[5].strip())
    with open(path, "w") as out:
        out.writelines(name + "\n" for name in sorted(names))


def run(home, commands, maps_path, prefs):
    uid = os.getuid()
    to_name = "/tmp/audacity_script_pipe.to.%d" % uid
    from_name = "/tmp/audacity_script_pipe.from.%d" % uid
    cfg_dir = os.path.join(home, ".config", "audacity")
    os.makedirs(cfg_dir, exist_ok=True)
    os.makedirs(os.path.join(home, "tmp"), exist_ok=True)
    with open(os.path.join(cfg_dir, "audacity.cfg"), "w") as cfg:
        cfg.write(config_text(home, prefs))
    log_name = os.path.join(home, "audacity.log")
    log = open(log_name, "w")

    lock = open("/tmp/audacity_script_pipe.lock.%d" % uid, "w")
    deadline = time.monotonic() + LOCK_TIMEOUT
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise Failure("another Audacity run held the script pipes for %d s" % LOCK_TIMEOUT)
            time.sleep(0.2)
    # a pipe left by a killed run would be opened before Audacity replaces it
    for name in (to_name, from_name):
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass

    env = dict(os.environ, HOME=home,
               XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_DATA_HOME=os.path.join(home, ".local", "share"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"),
               NO_AT_BRIDGE="1")
    for var in ("XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY"):
        env.pop(var, None)
    xvfb = audacity = None
    try:
        display, xvfb = start_xvfb(log)
        env["DISPLAY"] = display
        audacity = subprocess.Popen(["audacity"], env=env, stdin=subprocess.DEVNULL,
                                    stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + START_TIMEOUT
        while not (os.path.exists(to_name) and os.path.exists(from_name)):
            if audacity.poll() is not None:
                raise Failure("Audacity exited (status %d) before its pipes existed" % audacity.returncode)
            if time.monotonic() > deadline:
                raise Failure("no %s after %d s (is mod-script-pipe enabled?)" % (to_name, START_TIMEOUT))
            time.sleep(0.05)
        trace("pipes exist")
        pipe = Pipe(to_name, from_name, deadline)
        pipe.synchronise(deadline)
        trace("Audacity answers")
        for line in commands:
            trace(line)
            reply = pipe.command(line, COMMAND_TIMEOUT)
            if reply is None:
                raise Failure("no answer to '%s' in %d s (a dialog?)" % (line, COMMAND_TIMEOUT))
            status, out = reply
            if status != "BatchCommand finished: OK":
                raise Failure("'%s': %s %s" % (line, status, " ".join(out)))
            if line.startswith("Export2:"):
                path = export_path(line)
                if not any(path in o for o in out):
                    raise Failure("'%s' answered '%s', not its file" % (line, " ".join(out)))
                if not os.path.isfile(path) or os.path.getsize(path) == 0:
                    raise Failure("'%s' wrote no file" % line)
        trace("done")
        if maps_path is not None:
            write_maps(audacity.pid, maps_path)
    finally:
        # Audacity's state is all in HOME_DIR: no need for a clean exit
        kill_group(audacity, 0)
        kill_group(xvfb, 5)
        trace("Xvfb and Audacity ended")
        log.close()
        for name in (to_name, from_name):
            try:
                os.unlink(name)
            except FileNotFoundError:
                pass
        lock.close()
    return 0


def main(argv):
    args = argv[1:]
    maps_path = None
    prefs = []
    while len(args) > 1 and args[0] in ("--maps", "--pref"):
        if args[0] == "--maps":
            maps_path = args[1]
        elif re.fullmatch(r"(/[^/=\s]+){2,}=[^\n]*", args[1]):
            prefs.append(tuple(args[1].split("=", 1)))
        else:
            print("audacity_pipe: --pref takes /GROUP/KEY=VALUE, not '%s'" % args[1], file=sys.stderr)
            return 1
        args = args[2:]
    if len(args) < 2:
        print("usage: audacity_pipe.py [--maps FILE] [--pref /GROUP/KEY=VALUE]... HOME_DIR COMMAND...",
              file=sys.stderr)
        return 1
    home = os.path.abspath(args[0])

    def terminated(signum, frame):
        raise Failure("terminated by signal %d" % signum)
    # a caller's timeout ends the run through the cleanup, not around it
    signal.signal(signal.SIGTERM, terminated)
    signal.signal(signal.SIGINT, terminated)
    try:
        return run(home, args[1:], maps_path, prefs)
    except Failure as why:
        print("audacity_pipe: %s" % why, file=sys.stderr)
        try:
            with open(os.path.join(home, "audacity.log"), errors="replace") as log:
                tail = log.read()[-1500:]
            print("--- end of %s/audacity.log ---\n%s" % (home, tail), file=sys.stderr)
        except OSError:
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
