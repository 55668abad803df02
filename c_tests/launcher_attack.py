#!/usr/bin/env python3
"""c_tests/launcher_attack.py — attacks on a multi-host job of our mpiexec (97_launcher_attacks).

Runs as root; the attackers run as another user (nobody, through setpriv). Every wait is
bounded: a job still running past its bound is killed (its process group) and the check
fails. Each mode prints what it saw, then "verdict: ok" (exit 0) or "verdict: FAIL: ..."
(exit 1). CMD is the whole mpiexec command line.

  timing [--attackers N] [--hold S] -- CMD
      CMD once undisturbed, once with N idle connections from another user held to
      mpiexec's listening port for S seconds: status 0 both times, every output line of the
      attacked run within 2 s of the undisturbed run's, the run as long within 2 s, a
      bounded number of "refused a connection" warnings.
  kill [--attackers N] -- CMD
      CMD's ranks print "pid RANK PID" and sleep; the last rank is SIGKILLed: undisturbed,
      then while N idle connections are held. mpiexec must exit 137 within 3 s (and within
      2 s of the undisturbed run) both times.
  flood [--conns N] -- CMD
      CMD once undisturbed; once while mpiexec's descriptor limit is cut (prlimit) to what
      it has open plus a few and another user opens N connections at once: status 0, the
      ranks' lines and the end as in timing, a handful of warning lines, little output and
      CPU time (no spin).
  linkdown --link DEV [--after S | --ready N] [--down-for S] [--within S] -- CMD
      Takes DEV (the host side of a namespace's veth) down once N lines "up ..." came (or
      S seconds after the start), up again after --down-for seconds (else once the job
      ended): without --down-for, the job must end non-zero within --within seconds of the
      link going down and the namespace's processes of this case must be gone; with it,
      the job must end with status 0.
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

ATTACKER = r"""
import socket, sys, time, select
host, port, n, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
socks = []
for _ in range(n):
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex((host, port))
    socks.append(s)
# Wait (bounded) until the connects completed: the listener's queue took them.
deadline = time.time() + 5
left = list(socks)
while left and time.time() < deadline:
    _, w, _ = select.select([], left[:500], [], 0.2)
    left = [s for s in left if s not in w]
print("attacker: %d of %d connected as uid %d" % (n - len(left), n, __import__("os").getuid()),
      flush=True)
time.sleep(hold)
"""


class Job:
    """CMD started in its own process group, its output lines timestamped."""

    def __init__(self, cmd, env=None):
        self.t0 = time.monotonic()
        self.lines = []  # (seconds since start, text)
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, env=env)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.ended = None
        self.cpu = 0.0

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.append((time.monotonic() - self.t0, raw.decode(errors="replace")))

    def wait_line(self, pattern, count=1, bound=20):
        rx = re.compile(pattern)
        until = time.monotonic() + bound
        while time.monotonic() < until:
            found = [l for _, l in list(self.lines) if rx.search(l)]
            if len(found) >= count:
                return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        return None

    def wait(self, bound):
        """The exit status, or None when it runs past `bound` seconds (then killed)."""
        until = time.monotonic() + bound
        while time.monotonic() < until:
            self._sample_cpu()
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            self.reader.join(5)
            return None
        self.ended = time.monotonic() - self.t0
        self.reader.join(5)
        return self.proc.returncode

    def _sample_cpu(self):
        try:
            with open("/proc/%d/stat" % self.proc.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            self.cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass

    def text(self):
        return "".join(l for _, l in self.lines)

    def dump(self, title):
        print("---- %s (%d lines) ----" % (title, len(self.lines)))
        for t, l in self.lines[:60]:
            print("%7.2f  %s" % (t, l.rstrip("\n")))
        if len(self.lines) > 60:
            print("        ... %d more lines" % (len(self.lines) - 60))


def listening_port(pid, bound=10):
    """mpiexec's listening address (host, port), from ss."""
    until = time.monotonic() + bound
    while time.monotonic() < until:
        out = subprocess.run(["ss", "-Hltnp"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if "pid=%d," % pid in line:
                local = line.split()[3]
                host, port = local.rsplit(":", 1)
                return host.strip("[]"), int(port)
        time.sleep(0.05)
    return None


def attack(addr, n, hold):
    """n connections from user nobody to addr, held for `hold` s; returns once they are up."""
    p = subprocess.Popen(
        ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
         "/usr/bin/python3", "-c", ATTACKER, addr[0], str(addr[1]), str(n), str(hold)],
        stdout=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, cwd="/")
    line = p.stdout.readline().strip()
    print(line)
    return p


def end_attack(p):
    try:
        p.wait(15)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def warnings(job):
    return [l for _, l in job.lines if "refused a connection" in l or "accepting a connection" in l]


def verdict(problems):
    if problems:
        print("verdict: FAIL: " + "; ".join(problems))
        return 1
    print("verdict: ok")
    return 0


def opts(argv, spec):
    """--name value options (defaults in spec) before `--`, then the command."""
    vals = dict(spec)
    i = 0
    while i < len(argv) and argv[i] != "--":
        name = argv[i].lstrip("-").replace("-", "_")
        vals[name] = type(spec.get(name, ""))(argv[i + 1])
        i += 2
    return vals, argv[i + 1:]


def compare(base, job, problems):
    """The attacked run `job` against the undisturbed `base`: as long within 2 s, each
    rank's line ("tick ...") within 2 s of its undisturbed time."""
    if base.ended is None or job.ended is None:
        return
    print("durations: undisturbed %.2f s, attacked %.2f s" % (base.ended, job.ended))
    if abs(job.ended - base.ended) > 2:
        problems.append("the attacked run took %.2f s, the undisturbed %.2f s"
                        % (job.ended, base.ended))
    ticks = lambda j: {l.strip(): t for t, l in j.lines if l.startswith("tick")}
    a, b = ticks(base), ticks(job)
    if set(a) != set(b) or not a:
        problems.append("rank lines %s attacked, %s undisturbed" % (sorted(b), sorted(a)))
    for line in sorted(set(a) & set(b)):
        print("line %r: undisturbed %.2f s, attacked %.2f s" % (line, a[line], b[line]))
        if abs(b[line] - a[line]) > 2:
            problems.append("%r came %.2f s late" % (line, b[line] - a[line]))


def undisturbed(cmd, bound):
    """The job run once without attackers, to compare with: (job, status)."""
    base = Job(cmd)
    st0 = base.wait(bound)
    base.dump("undisturbed")
    return base, st0


def mode_timing(argv):
    o, cmd = opts(argv, {"attackers": 3, "hold": 8.0, "bound": 40.0})
    base, st0 = undisturbed(cmd, o["bound"])
    job = Job(cmd)
    addr = listening_port(job.proc.pid)
    att = attack(addr, o["attackers"], o["hold"]) if addr else None
    st1 = job.wait(o["bound"])
    if att:
        end_attack(att)
    job.dump("attacked")
    problems = []
    if addr is None:
        problems.append("no listening port found for mpiexec")
    if st0 != 0:
        problems.append("the undisturbed run ended with %s" % st0)
    if st1 != 0:
        problems.append("the attacked run ended with %s (None: still running after %g s)"
                        % (st1, o["bound"]))
    compare(base, job, problems)
    w = warnings(job)
    print("warnings: %d" % len(w))
    if len(w) > 12:
        problems.append("%d warning lines" % len(w))
    return verdict(problems)


def mode_kill(argv):
    o, cmd = opts(argv, {"attackers": 4, "bound": 30.0})
    took = []
    problems = []
    for attacked in (False, True):
        title = "attacked" if attacked else "undisturbed"
        job = Job(cmd)
        att = None
        pids = job.wait_line(r"^pid \d+ \d+", count=2)
        if attacked:
            addr = listening_port(job.proc.pid)
            if addr is None:
                problems.append("no listening port found for mpiexec")
            else:
                att = attack(addr, o["attackers"], 10)
                time.sleep(0.5)  # they sit in mpiexec's accept queue or handshake now
        if not pids:
            problems.append("%s: the ranks never started" % title)
            job.wait(1)
            continue
        victim = max((l.split() for l in pids), key=lambda f: int(f[1]))
        t = time.monotonic()
        os.kill(int(victim[2]), signal.SIGKILL)
        st = job.wait(o["bound"])
        dt = time.monotonic() - t
        if att:
            end_attack(att)
        job.dump(title)
        print("%s: mpiexec ended %.2f s after the SIGKILL of rank %s, status %s"
              % (title, dt, victim[1], st))
        took.append(dt)
        if st != 137:
            problems.append("%s: status %s, not 137" % (title, st))
        if dt > 3:
            problems.append("%s: ended %.2f s after the kill" % (title, dt))
        if attacked and len(warnings(job)) > 12:
            problems.append("%d warning lines" % len(warnings(job)))
    if len(took) == 2 and took[1] - took[0] > 2:
        problems.append("the attacked run ended %.2f s later" % (took[1] - took[0]))
    return verdict(problems)


def mode_flood(argv):
    o, cmd = opts(argv, {"conns": 500, "spare_fds": 4, "bound": 40.0})
    base, st0 = undisturbed(cmd, o["bound"])
    job = Job(cmd)
    problems = []
    addr = listening_port(job.proc.pid)
    att = None
    if addr is None:
        problems.append("no listening port found for mpiexec")
    else:
        # Both proxies are in (their ranks write at once); then descriptors run short.
        job.wait_line(r"^tick", count=2)
        n = len(os.listdir("/proc/%d/fd" % job.proc.pid))
        lim = n + o["spare_fds"]
        subprocess.run(["prlimit", "--pid", str(job.proc.pid), "--nofile=%d:%d" % (lim, lim)],
                       check=False)
        print("mpiexec has %d descriptors open; its limit is now %d" % (n, lim))
        att = attack(addr, o["conns"], 3)
    st = job.wait(o["bound"])
    if att:
        end_attack(att)
    job.dump("flooded")
    out = job.text()
    w = warnings(job)
    print("status %s, %d warning lines, %d bytes of output, %.2f s CPU in %s s"
          % (st, len(w), len(out), job.cpu, job.ended))
    if st0 != 0:
        problems.append("the undisturbed run ended with %s" % st0)
    if st != 0:
        problems.append("status %s (None: still running after %g s)" % (st, o["bound"]))
    compare(base, job, problems)
    if len(w) > 12:
        problems.append("%d warning lines" % len(w))
    if len(out) > 8192:
        problems.append("%d bytes of output" % len(out))
    if job.ended and job.cpu > 0.5 * job.ended:
        problems.append("mpiexec used %.2f s CPU in %.2f s (spinning)" % (job.cpu, job.ended))
    return verdict(problems)


def ns_of_link(dev):
    m = re.match(r"rmv(\d+)$", dev)
    return "rmh%s" % m.group(1) if m else None


def case_pids(ns):
    """Processes of namespace `ns` that carry this case's CT_CASE_TAG."""
    tag = os.environ.get("CT_CASE_TAG")
    out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout
    pids = []
    for p in out.split():
        try:
            with open("/proc/%s/environ" % p, "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if tag is None or ("CT_CASE_TAG=%s" % tag).encode() in env:
            pids.append(p)
    return pids


def mode_linkdown(argv):
    o, cmd = opts(argv, {"link": "rmv1", "after": 0.0, "ready": 0, "down_for": 0.0,
                         "within": 10.0, "bound": 60.0})
    problems = []
    job = Job(cmd)
    if o["ready"]:
        if not job.wait_line(r"^up ", count=o["ready"]):
            problems.append("the ranks never started")
    else:
        time.sleep(o["after"])
    t = time.monotonic()
    subprocess.run(["ip", "link", "set", o["link"], "down"], check=False)
    print("link %s down at %.2f s" % (o["link"], t - job.t0))
    try:
        if o["down_for"]:
            time.sleep(o["down_for"])
            subprocess.run(["ip", "link", "set", o["link"], "up"], check=False)
            print("link %s up again after %.2f s" % (o["link"], time.monotonic() - t))
            st = job.wait(o["bound"])
            job.dump("job")
            print("job ended with status %s" % st)
            if st != 0:
                problems.append("status %s (None: still running after %g s)" % (st, o["bound"]))
            return verdict(problems)
        st = job.wait(o["within"])
        dt = time.monotonic() - t
        job.dump("job")
        print("job ended %.2f s after the link went down, status %s" % (dt, st))
        if st is None:
            problems.append("still running %g s after the link went down" % o["within"])
        elif st == 0:
            problems.append("status 0")
        # The proxy cut off with its ranks must go too (it finds the root gone, or mpiexec
        # ended its launcher), before the link comes back.
        ns = ns_of_link(o["link"])
        left = case_pids(ns) if ns else []
        until = time.monotonic() + 5
        while left and time.monotonic() < until:
            time.sleep(0.1)
            left = case_pids(ns)
        if left:
            problems.append("processes left in %s: %s" % (ns, " ".join(left)))
        return verdict(problems)
    finally:
        subprocess.run(["ip", "link", "set", o["link"], "up"], check=False)
        ns = ns_of_link(o["link"])
        if ns:
            restore(ns)


PROBE = r"""
import socket, sys
s = socket.socket()
s.settimeout(1)
r = s.connect_ex(("10.77.0.1", 9))
sys.exit(0 if r in (0, 111) else 1)
"""


def restore(ns):
    """Until the host `ns` reaches the bridge again (bounded): its neighbour entries,
    failed while the link was down, would refuse the next case's first connection."""
    until = time.monotonic() + 10
    while time.monotonic() < until:
        subprocess.run(["ip", "-n", ns, "neigh", "flush", "all"], check=False)
        subprocess.run(["ip", "neigh", "flush", "dev", "rmbr0"], check=False,
                       stderr=subprocess.DEVNULL)
        # Reachable: the root namespace answers (a refusal from port 9 will do).
        if subprocess.run(["ip", "netns", "exec", ns, "/usr/bin/python3", "-c", PROBE],
                          check=False).returncode == 0:
            return
        time.sleep(0.2)
    print("%s does not reach 10.77.0.1 again" % ns)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    modes = {"timing": mode_timing, "kill": mode_kill, "flood": mode_flood,
             "linkdown": mode_linkdown}
    return modes[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
