#!/usr/bin/env python3
"""Calibrates Engram's strength limit against Stockfish 15.1's (README, "Strength limit").

Two steps, each a set of matches through ../shared/tools/match.py, Engram against Stockfish
with `UCI_LimitStrength true` and `UCI_Elo X`, one thread each, 10s+0.1s by default:

  measure: Engram at a fixed `Skill Level` L against Stockfish at X, for the pairs given;
           each match gives Engram's level an Elo on Stockfish's scale (X + the measured
           difference). The points are appended to a CSV.
  fit:     fits Stockfish's form, elo = a + b * level^0.806, to the CSV's points (weighted
           least squares), and prints a and b (ELO_A, ELO_B in search/skill.rs).
  verify:  Engram at `UCI_Elo X` against Stockfish at `UCI_Elo X`: the score must be
           50 % +/- 10 %.

  scripts/strength-calibration.py measure --engram target/release/engram --pair 1500:1 \\
      --pair 2000:7 --games 40 --csv runs/levels.csv
  scripts/strength-calibration.py fit --csv runs/levels.csv
  scripts/strength-calibration.py verify --engram target/release/engram --elo 1500 \\
      --elo 2000 --elo 2500 --games 60

Stockfish: `stockfish-15.1-avx2` (../shared/tools/stockfish-avx2.sh builds it). Do not run
benchmarks at the same time: the matches take both cores (concurrency 2).
"""

import argparse
import csv
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, "..", "..", "shared", "tools", "match.py")
OPENINGS = os.path.join(HERE, "..", "..", "shared", "data", "openings-book.epd")


def run_match(engram_opts, sf_elo, games, tc, seed, pgn, engram, stockfish):
    """Plays the match; returns (wins, losses, draws) of Engram."""
    cmd = [sys.executable, MATCH,
           "--engine", "name=engram", f"cmd={engram}", "proto=uci", "option.Hash=16",
           *[f"option.{k}={v}" for k, v in engram_opts.items()],
           "--engine", "name=stockfish", f"cmd={stockfish}", "proto=uci", "option.Hash=16",
           "option.UCI_LimitStrength=true", f"option.UCI_Elo={sf_elo}",
           "--engines", "engram,stockfish", "--tc", tc,
           "--openings", OPENINGS, "--opening-order", "random", "--seed", str(seed),
           "--rounds", str(games // 2), "--concurrency", "2", "--pgn", pgn]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    print(out.splitlines()[-6:] if out else "(no output)", file=sys.stderr)
    w = l = d = 0
    for line in out.splitlines():
        m = re.match(r"\[\d+/\d+\] (\S+) - (\S+) (1-0|0-1|1/2-1/2)", line)
        if not m:
            continue
        white, _, result = m.groups()
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == (white == "engram"):
            w += 1
        else:
            l += 1
    return w, l, d


def elo_diff(w, l, d):
    """Elo difference and its 95 % margin (trinomial) from Engram's view."""
    n = w + l + d
    score = (w + d / 2) / n
    score = min(max(score, 0.5 / n), 1 - 0.5 / n)
    diff = -400 * math.log10(1 / score - 1)
    var = (w * (1 - score) ** 2 + l * score ** 2 + d * (0.5 - score) ** 2) / n / n
    lo, hi = score - 1.96 * math.sqrt(var), score + 1.96 * math.sqrt(var)
    lo, hi = min(max(lo, 1e-3), 1 - 1e-3), min(max(hi, 1e-3), 1 - 1e-3)
    margin = (-400 * math.log10(1 / hi - 1) + 400 * math.log10(1 / lo - 1)) / 2
    return diff, margin, score


def fit(points):
    """Weighted least squares of elo = a + b * level^0.806 over (level, elo, margin)."""
    sw = sx = sy = sxx = sxy = 0.0
    for level, elo, margin in points:
        wgt = 1 / max(margin, 10) ** 2
        x = level ** 0.806
        sw += wgt
        sx += wgt * x
        sy += wgt * elo
        sxx += wgt * x * x
        sxy += wgt * x * elo
    b = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
    a = (sy - b * sx) / sw
    return a, b


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=["measure", "fit", "verify"])
    p.add_argument("--engram", default="target/release/engram")
    p.add_argument("--stockfish", default="stockfish-15.1-avx2")
    p.add_argument("--pair", action="append", default=[], help="X:L (Stockfish Elo : Engram level)")
    p.add_argument("--elo", action="append", type=int, default=[])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--csv", default="levels.csv")
    p.add_argument("--pgn-dir", default=".")
    a = p.parse_args()

    if a.step == "measure":
        for i, pair in enumerate(a.pair):
            x, level = pair.split(":")
            pgn = os.path.join(a.pgn_dir, f"level{level}-vs-sf{x}.pgn")
            w, l, d = run_match({"Skill Level": level}, int(x), a.games, a.tc, a.seed + i, pgn,
                                a.engram, a.stockfish)
            diff, margin, score = elo_diff(w, l, d)
            print(f"level {level} vs Stockfish {x}: W {w} L {l} D {d}, score {score:.1%}, "
                  f"{diff:+.0f} +/- {margin:.0f} -> level {level} = {int(x) + diff:.0f}")
            new = not os.path.exists(a.csv)
            with open(a.csv, "a", newline="") as f:
                out = csv.writer(f)
                if new:
                    out.writerow(["level", "stockfish_elo", "wins", "losses", "draws", "elo", "margin"])
                out.writerow([level, x, w, l, d, round(int(x) + diff), round(margin)])
    elif a.step == "fit":
        with open(a.csv) as f:
            rows = list(csv.DictReader(f))
        points = [(float(r["level"]), float(r["elo"]), float(r["margin"])) for r in rows]
        ea, eb = fit(points)
        print(f"elo = {ea:.1f} + {eb:.1f} * level^0.806  (ELO_A = {ea:.1f}, ELO_B = {eb:.1f})")
        for level, elo, margin in points:
            print(f"  level {level:4.1f}: measured {elo:.0f} +/- {margin:.0f}, "
                  f"fitted {ea + eb * level ** 0.806:.0f}")
    else:
        for i, x in enumerate(a.elo):
            pgn = os.path.join(a.pgn_dir, f"elo{x}-vs-sf{x}.pgn")
            w, l, d = run_match({"UCI_LimitStrength": "true", "UCI_Elo": x}, x, a.games, a.tc,
                                a.seed + 100 + i, pgn, a.engram, a.stockfish)
            diff, margin, score = elo_diff(w, l, d)
            ok = "PASS" if abs(score - 0.5) <= 0.10 else "FAIL"
            print(f"UCI_Elo {x} vs Stockfish UCI_Elo {x}: W {w} L {l} D {d}, score {score:.1%} "
                  f"({diff:+.0f} +/- {margin:.0f}) {ok}")


if __name__ == "__main__":
    main()
