#!/usr/bin/env python3
"""What a hash file is worth: the time and nodes to reach the same depth again.

For each position (ten of `engram bench`'s, or --fens FILE with one FEN a line):
  * full table: a fresh engine searches to --depth and saves the table (`Save Hash to File`);
    a second fresh engine loads it (`Load Hash from File`) and searches to the same depth.
    Reported: load time, and nodes and time to the depth, empty table versus reloaded.
  * compact memory, for each --thresholds value T: `engram analyse --memory M --memory-depth T`
    twice; reported: the memory's size and the second run's nodes versus the first.

Node counts are exact (one thread); times need an otherwise idle machine.

  python3 scripts/hash-payoff.py --engine target/release/engram --depth 16
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

POSITIONS = [
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K2R w KQkq - 0 1",
]


class Uci:
    def __init__(self, engine):
        self.p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, pred):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine exited")
            if pred(line):
                return line.strip()

    def search(self, fen, depth):
        """(nodes, milliseconds) at `depth`."""
        self.send(f"position fen {fen}")
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        nodes = None
        while True:
            line = self.until(lambda l: (l.startswith(f"info depth {depth} ") and " nodes " in l)
                              or l.startswith("bestmove"))
            if line.startswith("bestmove"):
                return nodes, (time.perf_counter() - start) * 1000
            words = line.split()
            nodes = int(words[words.index("nodes") + 1])

    def sync(self):
        self.send("isready")
        self.until(lambda l: l.strip() == "readyok")

    def quit(self):
        self.send("quit")
        self.p.wait()


def full_table(engine, fen, depth, hash_mib, path):
    a = Uci(engine)
    a.send(f"setoption name Hash value {hash_mib}")
    a.send(f"setoption name Hash File value {path}")
    a.sync()
    cold_nodes, cold_ms = a.search(fen, depth)
    a.send("setoption name Save Hash to File")
    a.until(lambda l: l.startswith("info string"))
    a.quit()
    b = Uci(engine)
    b.send(f"setoption name Hash value {hash_mib}")
    b.send(f"setoption name Hash File value {path}")
    b.sync()
    t = time.perf_counter()
    b.send("setoption name Load Hash from File")
    b.until(lambda l: l.startswith("info string"))
    load_ms = (time.perf_counter() - t) * 1000
    warm_nodes, warm_ms = b.search(fen, depth)
    b.quit()
    return cold_nodes, cold_ms, warm_nodes, warm_ms, load_ms


def analyse(engine, fen, depth, memory, threshold):
    out = subprocess.run([engine, "analyse", "--fen", fen, "--depth", str(depth), "--json",
                          "--memory", memory, "--memory-depth", str(threshold)],
                         capture_output=True, text=True, check=True).stdout
    result = [json.loads(l) for l in out.splitlines() if '"type":"result"' in l][0]
    return result["nodes"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/engram")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--thresholds", default="2,4,6,8,10,12")
    ap.add_argument("--fens")
    args = ap.parse_args()
    fens = POSITIONS if not args.fens else [l.strip() for l in open(args.fens) if l.strip()]
    tmp = tempfile.mkdtemp()

    print(f"## Full table, Hash {args.hash}, depth {args.depth}\n")
    print("| position | nodes empty | nodes reloaded | ms empty | ms reloaded | load ms |")
    print("|---|---|---|---|---|---|")
    node_ratios, time_ratios = [], []
    for i, fen in enumerate(fens):
        cn, cm, wn, wm, lm = full_table(args.engine, fen, args.depth, args.hash, os.path.join(tmp, "t.hash"))
        node_ratios.append(wn / cn)
        time_ratios.append(wm / cm)
        print(f"| {i + 1} | {cn} | {wn} | {cm:.0f} | {wm:.0f} | {lm:.0f} |")
    print(f"\nreloaded / empty: nodes median {statistics.median(node_ratios):.3f} "
          f"(range {min(node_ratios):.3f}-{max(node_ratios):.3f}), "
          f"time median {statistics.median(time_ratios):.3f} "
          f"(range {min(time_ratios):.3f}-{max(time_ratios):.3f})\n")

    if not args.thresholds:
        return
    print(f"## Compact memory, depth {args.depth}: second run / first run\n")
    print("| memory depth >= | entries per position (median) | bytes per position (median) | nodes second / first (median) | range |")
    print("|---|---|---|---|---|")
    for t in [int(x) for x in args.thresholds.split(",")]:
        ratios, sizes = [], []
        for fen in fens:
            mem = os.path.join(tmp, f"m{t}.mem")
            if os.path.exists(mem):
                os.remove(mem)
            first = analyse(args.engine, fen, args.depth, mem, t)
            sizes.append(os.path.getsize(mem))
            second = analyse(args.engine, fen, args.depth, mem, t)
            ratios.append(second / first)
        entries = statistics.median([(s - 128) / 16 for s in sizes])
        print(f"| {t} | {entries:.0f} | {statistics.median(sizes):.0f} | "
              f"{statistics.median(ratios):.3f} | {min(ratios):.3f}-{max(ratios):.3f} |")


if __name__ == "__main__":
    main()
