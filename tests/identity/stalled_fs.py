#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.0-or-later
"""A FUSE file system that stalls, for the batch tests: a hung network
mount, made without libfuse (the kernel's FUSE protocol over /dev/fuse,
root only).

  stalled_fs.py all MOUNTPOINT READY
      answers the kernel's INIT and nothing else: every stat, opendir or
      open on the mount waits in the kernel (a fatal signal ends the wait:
      the requests are never read, so the kernel can drop them).
  stalled_fs.py read MOUNTPOINT READY NAME SIZE
      one folder holding NAME, a regular file of SIZE bytes: lookups,
      attributes, folder listings and opens are answered, every read
      waits for ever (until the reader's thread is interrupted, as by
      exit_group: the kernel's INTERRUPT is answered with EINTR, as a
      careful server does, so that the process can end).

READ is a file created once the mount is up.  The mount goes away with
the process's mount namespace (run it under unshare -m) or umount -l.
"""
import ctypes
import signal
import os
import stat
import struct
import sys

LOOKUP, FORGET, GETATTR, OPEN, READ, RELEASE = 1, 2, 3, 14, 15, 18
FLUSH, INIT, OPENDIR, READDIR, RELEASEDIR = 25, 26, 27, 28, 29
INTERRUPT, DESTROY, BATCH_FORGET = 36, 38, 42
ENOENT, EINTR, ENOSYS = 2, 4, 38
FOPEN_DIRECT_IO = 1
IN_HEADER = struct.Struct("<IIQQIIII")
ROOT, FILE = 1, 2


def attr(ino, mode, size, nlink):
    # fuse_attr: ino size blocks atime mtime ctime, their nsec, mode nlink
    # uid gid rdev blksize flags
    t = 1700000000
    return struct.pack("<QQQQQQIIIIIIIIII", ino, size, (size + 511) // 512,
                       t, t, t, 0, 0, 0, mode, nlink, 0, 0, 0, 4096, 0)


class Server:
    def __init__(self, fd, mode, name=b"", size=0):
        self.fd, self.mode, self.name, self.size = fd, mode, name, size
        self.reads = set()      # READs left unanswered

    def reply(self, unique, err=0, body=b""):
        os.write(self.fd, struct.pack("<IiQ", 16 + len(body), -err, unique) + body)

    def node_attr(self, node):
        if node == ROOT:
            return attr(ROOT, stat.S_IFDIR | 0o755, 0, 2)
        return attr(FILE, stat.S_IFREG | 0o644, self.size, 1)

    def listing(self, offset, size):
        out = b""
        for i, (ino, typ, nm) in enumerate([(ROOT, 4, b"."), (ROOT, 4, b".."),
                                            (FILE, 8, self.name)]):
            if i < offset:
                continue
            ent = struct.pack("<QQII", ino, i + 1, len(nm), typ) + nm
            ent += b"\0" * (-len(ent) % 8)
            if len(out) + len(ent) > size:
                break
            out += ent
        return out

    def serve(self, ready):
        while True:
            try:
                msg = os.read(self.fd, (1 << 20) + 4096)
            except OSError:
                return          # unmounted
            _, op, unique, node, _, _, _, _ = IN_HEADER.unpack_from(msg)
            body = msg[IN_HEADER.size:]
            if op == INIT:
                # fuse_init_out of protocol 7.31: no readahead, 128 KiB writes
                self.reply(unique, 0, struct.pack("<IIIIHHIIHHI7I", 7, 31, 0, 0, 16, 12,
                                                  131072, 1, 0, 0, 0, *([0] * 7)))
                open(ready, "w").close()
                if self.mode == "all":
                    while True:         # never read again: every request waits
                        signal.pause()
            elif op in (FORGET, BATCH_FORGET):
                pass
            elif op == INTERRUPT:
                (target,) = struct.unpack_from("<Q", body)
                if target in self.reads:
                    self.reads.discard(target)
                    self.reply(target, EINTR)
            elif op == DESTROY:
                return
            elif op == LOOKUP:
                nm = body.split(b"\0", 1)[0]
                if node == ROOT and nm == self.name:
                    self.reply(unique, 0, struct.pack("<QQQQII", FILE, 0, 3600, 3600, 0, 0)
                               + self.node_attr(FILE))
                else:
                    self.reply(unique, ENOENT)
            elif op == GETATTR:
                self.reply(unique, 0, struct.pack("<QII", 3600, 0, 0) + self.node_attr(node))
            elif op in (OPEN, OPENDIR):
                self.reply(unique, 0, struct.pack("<QII", node, FOPEN_DIRECT_IO if op == OPEN
                                                  else 0, 0))
            elif op == READDIR:
                _, offset, size = struct.unpack_from("<QQI", body)
                self.reply(unique, 0, self.listing(offset, size))
            elif op == READ:
                self.reads.add(unique)          # stalls
            elif op in (RELEASE, RELEASEDIR, FLUSH):
                self.reply(unique)
            else:
                self.reply(unique, ENOSYS)


def main():
    if len(sys.argv) not in (4, 6) or sys.argv[1] not in ("all", "read"):
        sys.exit(__doc__)
    mode, mnt, ready = sys.argv[1], sys.argv[2], sys.argv[3]
    fd = os.open("/dev/fuse", os.O_RDWR)
    opts = "fd=%d,rootmode=40755,user_id=0,group_id=0,allow_other" % fd
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"ringlame-stall", mnt.encode(), b"fuse.ringlame-stall", 0,
                  opts.encode()) != 0:
        e = ctypes.get_errno()
        sys.exit("stalled_fs: mount %s: %s" % (mnt, os.strerror(e)))
    name = sys.argv[4].encode() if mode == "read" else b""
    size = int(sys.argv[5]) if mode == "read" else 0
    Server(fd, mode, name, size).serve(ready)


if __name__ == "__main__":
    main()
