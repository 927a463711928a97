#!/usr/bin/env python3
"""Time to depth and bytes exchanged of the cluster build (docs/cluster.md, issue 79).

    cargo build --release -p engram --features cluster && cp target/release/engram /tmp/engram-cluster
    cargo build --release -p engram
    python3 scripts/cluster-measure.py --cluster /tmp/engram-cluster --engram target/release/engram
    python3 scripts/cluster-measure.py ... --sweep "Cluster Depth=2,4,6,8,10"

Each configuration searches the same positions (Bratko-Kopec by default) from an empty table
(`ucinewgame` before each) to a fixed depth with `go depth D`, `--repeats` times, and the
script prints the summed wall time of each repeat, their median, and the speed-up over one
process with one thread (the median against the median). The configurations:

  1x1   one process, `Threads 1` (the baseline; the default build)
  1x2   one process, `Threads 2`
  2x1   `mpirun -np 2` of the cluster build, `Threads 1` per rank, with the cluster options
        given (`--sweep NAME=V1,V2,...` runs 2x1 once per value)

For 2x1 it also reads each rank's summary line from standard error (`cluster rank R: ...`,
printed when the rank quits) and reports the bytes the ranks sent per second of search.
Time to depth is a proxy: what the other rank adds beyond the depth reached is not seen;
games are the verdict (docs/measurements.md). Run it on an otherwise idle machine.
"""

import argparse
import importlib.util
import os
import re
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# The UCI driver and the EPD reader are smp-scaling.py's (a file name with a hyphen).
_spec = importlib.util.spec_from_file_location("smp_scaling", os.path.join(HERE, "smp-scaling.py"))
smp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(smp)


def run(cmd, options, fens, depth):
    """Seconds to search every fen to `depth` (summed), and the bytes/s the ranks reported."""
    with tempfile.TemporaryFile(mode="w+") as err:
        e = smp.Uci(cmd, err)
        for name, value in options.items():
            e.send(f"setoption name {name} value {value}")
        e.ready()
        total = 0.0
        for fen in fens:
            e.send("ucinewgame")
            e.send(f"position fen {fen}")
            e.ready()
            start = time.perf_counter()
            e.send(f"go depth {depth}")
            e.wait(lambda l: l.startswith("bestmove"))
            total += time.perf_counter() - start
        e.quit()
        err.seek(0)
        rates = [float(m.group(1)) for m in re.finditer(r"\((\d+) bytes/s of search\)", err.read())]
    return total, rates


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engram", default=os.path.join(ROOT, "target/release/engram"))
    ap.add_argument("--cluster", required=True, help="the binary built with --features cluster")
    ap.add_argument("--mpirun", default="mpirun -np 2 --bind-to core")
    ap.add_argument("--epd", default=os.path.join(ROOT, "../shared/corpora/epd/bratko_kopec.epd"))
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--depth", type=int, default=17)
    ap.add_argument("--hash", type=int, default=64, help="MiB per process")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for the 2x1 runs")
    ap.add_argument("--sweep", help="NAME=V1,V2,...: 2x1 once per value")
    ap.add_argument("--skip-baselines", action="store_true", help="only 1x1 and the 2x1 runs")
    a = ap.parse_args()

    fens = smp.read_fens(a.epd, a.positions)
    base = {"Hash": a.hash, "Threads": 1}
    cluster_opts = dict(o.split("=", 1) for o in a.option)
    configs = [("1x1", [a.engram], base)]
    if not a.skip_baselines:
        configs.append(("1x2", [a.engram], {**base, "Threads": 2}))
    mpirun = a.mpirun.split() + [a.cluster]
    if a.sweep:
        name, values = a.sweep.split("=", 1)
        for v in values.split(","):
            configs.append((f"2x1 {name} {v}", mpirun, {**base, **cluster_opts, name: v}))
    else:
        configs.append(("2x1", mpirun, {**base, **cluster_opts}))
    print(f"{len(fens)} positions of {os.path.basename(a.epd)}, depth {a.depth}, Hash {a.hash} MiB, "
          f"{a.repeats} repeats", file=sys.stderr)
    rows = []
    for label, cmd, opts in configs:
        times, rates = [], []
        for _ in range(a.repeats):
            s, r = run(cmd, opts, fens, a.depth)
            times.append(s)
            rates += r
            print(f"  {label}: {s:.2f} s {r}", file=sys.stderr)
        rows.append((label, times, rates))
    t1 = statistics.median(rows[0][1])
    print("| configuration | seconds (each repeat) | median | time-to-depth speed-up | bytes/s sent per rank |")
    print("|---|---|---|---|---|")
    for label, times, rates in rows:
        med = statistics.median(times)
        rate = f"{statistics.median(rates):,.0f}" if rates else "–"
        print(f"| {label} | {' / '.join(f'{t:.1f}' for t in times)} | {med:.1f} | {t1 / med:.2f}× | {rate} |")


if __name__ == "__main__":
    main()
