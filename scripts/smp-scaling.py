#!/usr/bin/env python3
"""Thread scaling on this machine: time to a fixed depth and nodes per second for 1..N threads,
for Engram and (when it is installed) Stockfish, printed as a Markdown table.

    python3 scripts/smp-scaling.py                      # 1, 2, 4, ... up to the cores
    python3 scripts/smp-scaling.py --threads 1,2,4,8,16 --seconds 1 --positions 6
    python3 scripts/smp-scaling.py --stockfish none     # Engram only

Method (issue 76): each position of an EPD file (default: Bratko-Kopec) is searched from an
empty table (`ucinewgame` before each one; Hash 256 MiB) to a fixed depth, with `go depth D`;
the depth of each engine is the shallowest at which one thread takes about `--seconds` a
position on average (or `--depth` / `--sf-depth`). For every thread count the script reports
the speed-up in time to depth (1-thread time / N-thread time, summed over the positions) and
the nodes per second (and their ratio to one thread's). Time to depth flatters neither Lazy SMP
design: helpers that finish other depths do useful work that this figure does not see; games
are the verdict. Run it on an otherwise idle machine, one engine at a time (it is).

Needs only Python 3 and the engines; builds nothing. Build Engram first
(`cargo build --release`) and, for Stockfish, `bash ../shared/tools/stockfish-avx2.sh`.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Uci:
    """A UCI engine process, driven line by line."""

    def __init__(self, cmd, err=subprocess.DEVNULL):
        self.p = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait(lambda l: l == "uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, pred):
        """Reads lines until one satisfies `pred`; returns all lines read."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine exited unexpectedly")
            line = line.strip()
            lines.append(line)
            if pred(line):
                return lines

    def ready(self):
        self.send("isready")
        self.wait(lambda l: l == "readyok")

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=30)
        except Exception:
            self.p.kill()


def last_nodes(lines):
    """The node count of the last `info` line that has one."""
    for line in reversed(lines):
        t = line.split()
        if t and t[0] == "info" and "nodes" in t:
            return int(t[t.index("nodes") + 1])
    return 0


def run(cmd, threads, hash_mib, fens, depth):
    """Searches each of `fens` to `depth` from an empty table; returns (seconds, nodes) summed."""
    e = Uci(cmd)
    e.send(f"setoption name Threads value {threads}")
    e.send(f"setoption name Hash value {hash_mib}")
    e.ready()
    total_s, total_n = 0.0, 0
    for fen in fens:
        e.send("ucinewgame")
        e.send(f"position fen {fen}")
        e.ready()
        start = time.perf_counter()
        e.send(f"go depth {depth}")
        lines = e.wait(lambda l: l.startswith("bestmove"))
        total_s += time.perf_counter() - start
        total_n += last_nodes(lines)
    e.quit()
    return total_s, total_n


def calibrate(cmd, hash_mib, fens, seconds, name):
    """The shallowest depth at which one thread takes about `seconds` a position."""
    depth = 8
    while True:
        s, _ = run(cmd, 1, hash_mib, fens, depth)
        per = s / len(fens)
        print(f"  {name}: depth {depth}: {per:.2f} s a position", file=sys.stderr)
        if per >= seconds or depth >= 40:
            return depth
        depth += 1


def read_fens(path, count):
    fens = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4:
                fens.append(" ".join(parts[:4]) + " 0 1")
            if len(fens) == count:
                break
    return fens


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cores = os.cpu_count() or 1
    default_threads = []
    t = 1
    while t <= cores:
        default_threads.append(t)
        t *= 2
    if default_threads[-1] != cores:
        default_threads.append(cores)
    ap.add_argument("--engram", default=os.path.join(ROOT, "target/release/engram"))
    ap.add_argument("--stockfish", default=shutil.which("stockfish-15.1-avx2") or "none",
                    help="Stockfish binary, or 'none' (default: stockfish-15.1-avx2 if on PATH)")
    ap.add_argument("--threads", default=",".join(map(str, default_threads)))
    ap.add_argument("--epd", default=os.path.join(ROOT, "../shared/corpora/epd/bratko_kopec.epd"))
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--hash", type=int, default=256, help="MiB")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="target time a position for one thread, to choose the depth")
    ap.add_argument("--depth", type=int, help="Engram's depth (skips calibration)")
    ap.add_argument("--sf-depth", type=int, help="Stockfish's depth (skips calibration)")
    a = ap.parse_args()

    threads = [int(x) for x in a.threads.split(",")]
    if threads[0] != 1:
        threads.insert(0, 1)
    fens = read_fens(a.epd, a.positions)
    engines = [("Engram", [a.engram], a.depth)]
    if a.stockfish != "none":
        engines.append(("Stockfish", [a.stockfish], a.sf_depth))
    print(f"{len(fens)} positions of {os.path.basename(a.epd)}, Hash {a.hash} MiB, "
          f"{cores} logical CPUs", file=sys.stderr)
    results = {}
    depths = {}
    for name, cmd, depth in engines:
        if depth is None:
            depth = calibrate(cmd, a.hash, fens, a.seconds, name)
        depths[name] = depth
        for n in threads:
            s, nodes = run(cmd, n, a.hash, fens, depth)
            results[(name, n)] = (s, nodes)
            print(f"  {name} depth {depth}, {n} threads: {s:.2f} s, {nodes} nodes, "
                  f"{nodes / s / 1e6:.2f} M nodes/s", file=sys.stderr)

    head = "| threads |" + "".join(
        f" {name} (depth {depths[name]}): speed-up / nodes per s (× 1 thread) |" for name, _, _ in engines)
    print(head)
    print("|---|" + "---|" * len(engines))
    for n in threads:
        row = f"| {n} |"
        for name, _, _ in engines:
            s1, n1 = results[(name, 1)]
            s, nodes = results[(name, n)]
            nps, nps1 = nodes / s, n1 / s1
            row += f" {s1 / s:.2f}× / {nps / 1e6:.2f} M ({nps / nps1:.2f}×) |"
        print(row)


if __name__ == "__main__":
    main()
