#!/usr/bin/env python3
"""c_tests/tcp_stranger.py - a stranger on the network against a job's tcp rail.

usage: tcp_stranger.py MODE LOGDIR CMD...

Runs CMD (a launcher running c_tests/src/tcp_first.c; this script appends the two files the
program waits for), finds rank 1's tcp listening port (/proc: the rank's sockets in LISTEN),
attacks it, lets the program go on and checks the job:

  hello   before rank 1's first messages: Hellos claiming ranks 0 and 2 (no proof), held
          open. The first messages must take under LIMIT s (default 2; undisturbed: a few
          ms), and rank 1 must warn about the stranger, naming its address.
  flood   before the first messages: 1000 connections held open (run the job under
          `ulimit -n 256`). The job must succeed with fewer than 50 lines of stderr.
  replay  once the links are up: a Hello claiming rank 0, which is connected, and a proof
          from another handshake. Rank 1 must warn naming the stranger's address; the job
          must go on unharmed.

Every job must exit 0. Prints one summary line; exits 0 when every check held, else 1.
Python 3 standard library only; traffic goes to the job's own addresses.
"""

import os
import random
import resource
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

HEADER = 48
HELLO, PROOF = 1, 3
VERSION = int(os.environ.get("STRANGER_VERSION", "2"))
LIMIT = float(os.environ.get("STRANGER_LIMIT", "2"))
DEADLINE = time.monotonic() + float(os.environ.get("STRANGER_TIMEOUT", "90"))


def frame(kind, payload):
    """A frame: the 48-byte header (kind, flags 0, length), then the payload."""
    return struct.pack("<BBHI40x", kind, 0, 0, len(payload)) + payload


def hello(rank):
    return frame(HELLO, struct.pack("<II", VERSION, rank) + os.urandom(32))


def listen_addr(pid):
    """The address rank `pid` listens on (its one listening tcp socket)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    with open(f"/proc/{pid}/net/tcp") as f:
        for line in f.readlines()[1:]:
            w = line.split()
            if w[3] == "0A" and w[9] in inodes:
                ip, port = w[1].split(":")
                ip = socket.inet_ntoa(struct.pack("<I", int(ip, 16)))
                return ip, int(port, 16)
    return None


class Job:
    def __init__(self, cmd, logdir):
        self.out_path = os.path.join(logdir, "stranger.stdout")
        self.err_path = os.path.join(logdir, "stranger.stderr")
        self.out = open(self.out_path, "w")
        self.err = open(self.err_path, "w")
        self.lines = []
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.err,
                                  stdin=subprocess.DEVNULL, start_new_session=True, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.out.write(line)
            self.out.flush()
            self.lines.append(line.rstrip("\n"))

    def wait_line(self, prefix, count=1):
        while time.monotonic() < DEADLINE and self.p.poll() is None:
            got = [l for l in self.lines if l.startswith(prefix)]
            if len(got) >= count:
                return got
            time.sleep(0.01)
        return [l for l in self.lines if l.startswith(prefix)]

    def stderr(self):
        self.err.flush()
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def finish(self):
        try:
            rc = self.p.wait(timeout=max(1, DEADLINE - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            rc = self.p.wait()
        time.sleep(0.1)
        return rc


def warned(job, addrs, wait=0.0):
    """Whether the job's stderr has a warning naming one of `addrs` (ip:port)."""
    until = time.monotonic() + wait
    while True:
        text = job.stderr()
        for line in text.splitlines():
            if "WARN" in line and any(a in line for a in addrs):
                return True
        if time.monotonic() >= until:
            return False
        time.sleep(0.05)


def main():
    mode, logdir, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
    go, go2 = os.path.join(logdir, "stranger.go"), os.path.join(logdir, "stranger.go2")
    for f in (go, go2):
        if os.path.exists(f):
            os.unlink(f)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    job = Job(cmd + [go, go2], logdir)
    fails = []
    pids = {}
    for line in job.wait_line("pid ", 3):
        _, r, p = line.split()
        pids[int(r)] = int(p)
    target = listen_addr(pids[1]) if 1 in pids else None
    if target is None:
        open(go, "w").close()
        open(go2, "w").close()
        rc = job.finish()
        print(f"stranger: no listening port of rank 1 found (pids {pids}); job exit {rc}")
        return 1
    socks, addrs = [], []

    def connect(blocking=True):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if blocking:
            s.settimeout(5)
            s.connect(target)
            addrs.append("%s:%d" % s.getsockname())
        else:
            s.setblocking(False)
            s.connect_ex(target)
        socks.append(s)
        return s

    summary = {}
    if mode == "hello":
        for claim in (0, 2):
            connect().sendall(hello(claim))
        time.sleep(0.2)
        open(go, "w").close()
        first = job.wait_line("first messages in ")
        secs = float(first[0].split()[3]) if first else None
        summary["first"] = secs
        if secs is None or secs > LIMIT:
            fails.append(f"first messages took {secs} s (limit {LIMIT} s)")
        if not warned(job, addrs, wait=3):
            fails.append(f"no warning naming {addrs}")
        open(go2, "w").close()
    elif mode == "flood":
        for _ in range(1000):
            connect(blocking=False)
        time.sleep(1)
        open(go, "w").close()
        job.wait_line("first messages in ")
        open(go2, "w").close()
    elif mode == "replay":
        open(go, "w").close()
        if not job.wait_line("first messages in "):
            fails.append("no first messages")
        s = connect()
        s.sendall(hello(0) + frame(PROOF, os.urandom(32)))
        connect().sendall(hello(0))
        if not warned(job, addrs, wait=5):
            fails.append(f"no warning naming {addrs}")
        open(go2, "w").close()
    else:
        print(f"stranger: unknown mode {mode}")
        return 2
    rc = job.finish()
    for s in socks:
        s.close()
    err = job.stderr().splitlines()
    summary.update(rc=rc, stderr_lines=len(err), stranger=",".join(addrs[:2]) or "-")
    if rc != 0:
        fails.append(f"job exit {rc}")
    if mode == "flood" and len(err) >= 50:
        fails.append(f"{len(err)} lines of stderr (limit 50)")
    if not any(l.startswith("ok tcp_first") for l in job.lines):
        fails.append("no ok line")
    print("stranger: mode=%s %s" % (mode, " ".join(f"{k}={v}" for k, v in summary.items())))
    for line in err[:10]:
        print("  stderr| " + line[:300])
    for f in fails:
        print("stranger: FAILED: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
