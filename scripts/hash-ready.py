#!/usr/bin/env python3
"""How long a big table takes to be ready, and whether the first search pays for it.

    python3 scripts/hash-ready.py                          # 1, 4 and 16 GiB, Threads = cores
    python3 scripts/hash-ready.py --mib 1024,4096 --threads 2 --movetime 3000

For each size, a fresh engine process gets `setoption name Threads` and then `setoption name
Hash value MIB`; the script times `setoption` + `isready` until `readyok` (the table is
allocated and cleared by all threads, so its memory is in place), repeats that for `Clear
Hash` and `ucinewgame`, then searches one middle-game position for `--movetime` ms twice,
with `ucinewgame` between, and prints each search's nodes per second: the first search on
the fresh table against the second's, on memory the first one certainly touched. Huge pages: the engine asks for transparent huge pages
(`MADV_HUGEPAGE`); to compare without them, run once with
`echo never > /sys/kernel/mm/transparent_hugepage/enabled` (as root; restore `madvise`). The
script prints the kernel's setting and the engine's `AnonHugePages` after the clear.
Run it on an otherwise idle machine with enough free memory.
"""

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

FEN = "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1"


class Uci:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, pred):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine exited unexpectedly")
            line = line.strip()
            lines.append(line)
            if line.startswith("info string error"):
                print(f"  engine: {line}", file=sys.stderr)
            if pred(line):
                return lines

    def timed(self, cmd):
        """Seconds from `cmd` + `isready` to `readyok`."""
        start = time.perf_counter()
        self.send(cmd)
        self.send("isready")
        self.wait(lambda l: l == "readyok")
        return time.perf_counter() - start

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=30)


def thp_setting():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return f.read().strip()
    except OSError:
        return "unknown"


def anon_huge_mib(pid):
    """The process's memory in transparent huge pages (MiB), from /proc/PID/smaps_rollup."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1]) >> 10
    except OSError:
        pass
    return None


def last_nps(lines):
    for line in reversed(lines):
        t = line.split()
        if t and t[0] == "info" and "nps" in t:
            return int(t[t.index("nps") + 1])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/engram"))
    ap.add_argument("--mib", default="1024,4096,16384")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--movetime", type=int, default=5000, help="ms per search (0: no searches)")
    ap.add_argument("--no-clear", action="store_true",
                    help="search right after `setoption name Hash` (no Clear Hash, ucinewgame)")
    a = ap.parse_args()
    print(f"transparent huge pages: {thp_setting()}; Threads {a.threads}", file=sys.stderr)
    print("| Hash | setoption Hash → readyok | Clear Hash | ucinewgame | in huge pages "
          "| 1st search nodes/s | 2nd search nodes/s |")
    print("|---|---|---|---|---|---|---|")
    for mib in [int(x) for x in a.mib.split(",")]:
        e = Uci([a.engine])
        e.send("uci")
        e.wait(lambda l: l == "uciok")
        e.timed(f"setoption name Threads value {a.threads}")
        t_hash = e.timed(f"setoption name Hash value {mib}")
        huge = anon_huge_mib(e.p.pid)
        t_clear = t_new = float("nan")
        if not a.no_clear:
            t_clear = e.timed("setoption name Clear Hash")
            t_new = e.timed("ucinewgame")
        nps = []
        if a.movetime > 0:
            for i in range(2):
                if i > 0:
                    e.timed("ucinewgame")
                e.send(f"position fen {FEN}")
                e.send(f"go movetime {a.movetime}")
                nps.append(last_nps(e.wait(lambda l: l.startswith("bestmove"))))
        e.quit()
        fmt = lambda n: f"{n / 1e6:.2f} M" if n else "–"
        print(f"| {mib} MiB | {t_hash:.3f} s | {t_clear:.3f} s | {t_new:.3f} s | "
              f"{'?' if huge is None else f'{huge} MiB'} | "
              f"{fmt(nps[0]) if nps else '–'} | {fmt(nps[1]) if nps else '–'} |", flush=True)


if __name__ == "__main__":
    main()
