#!/usr/bin/env python3
"""Calibrates Engram's strength limit against Stockfish 15.1's (README, "Strength limit").

Two steps, each a set of matches through ../shared/tools/match.py, Engram against Stockfish
with `UCI_LimitStrength true` and `UCI_Elo X`, one thread each, 10s+0.1s by default:

  measure: Engram at a fixed `Skill Level` L against Stockfish at X, for the pairs given;
           each match gives Engram's level an Elo on Stockfish's scale (X + the measured
           difference). The points are appended to a CSV.
  fit:     the calibration table of search/skill.rs from the CSV's points: sorted by level,
           made monotone (weighted isotonic regression), printed as (level, Elo) pairs;
           Engram interpolates the level for an Elo between them (Stockfish's own form,
           elo = a + b * level^0.806, missed the points by up to ~230 Elo).
  verify:  Engram at `UCI_Elo X` against Stockfish at `UCI_Elo X`: the score must be
           50 % +/- 10 %.

  scripts/strength-calibration.py measure --engram target/release/engram --pair 1500:1 \\
      --pair 2000:7 --games 40 --csv runs/levels.csv
  scripts/strength-calibration.py fit --csv docs/data/strength-levels.csv \\
      --plot docs/img/strength-calibration.svg
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
import tempfile

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
    if w + l + d == 0:
        sys.exit(f"error: the match played no games ({' '.join(cmd)})")
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
    """The calibration table: the points (level, elo, margin) sorted by level and made
    monotone by weighted isotonic regression (pool adjacent violators, weights 1 / margin^2),
    each pooled block replaced by its weighted centroid (points of the same level are one
    block), so that both the levels and the Elos rise strictly and Engram interpolates the
    level for an Elo between them.
    Returns [(level, elo, weight)]."""
    blocks = []
    for level, elo, margin in sorted(points):
        blocks.append([level, elo, 1 / max(margin, 10) ** 2])
        # Points of one level are pooled; so are neighbours out of order.
        while len(blocks) > 1 and (blocks[-2][1] >= blocks[-1][1]
                                   or blocks[-2][0] >= blocks[-1][0]):
            (l1, e1, w1), (l2, e2, w2) = blocks[-2], blocks[-1]
            w = w1 + w2
            blocks[-2:] = [[(l1 * w1 + l2 * w2) / w, (e1 * w1 + e2 * w2) / w, w]]
    return blocks


def plot(points, table, path):
    """An SVG of the measured points (level against Elo, with their 95 % margins) and the
    fitted table, written atomically to `path`."""
    w, h, left, right, top, bottom = 640, 400, 60, 20, 20, 45
    lv_max = 20
    elos = [e - m for _, e, m in points] + [e + m for _, e, m in points]
    e_lo, e_hi = (min(elos) // 100) * 100, (max(elos) // 100 + 1) * 100

    def x(level):
        return left + (w - left - right) * level / lv_max

    def y(elo):
        return h - bottom - (h - top - bottom) * (elo - e_lo) / (e_hi - e_lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    for e in range(int(e_lo), int(e_hi) + 1, 200):
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{y(e):.1f}" y2="{y(e):.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{y(e) + 4:.1f}" '
                   f'text-anchor="end">{e}</text>')
    for lv in range(0, lv_max + 1, 2):
        out.append(f'<text x="{x(lv):.1f}" y="{h - bottom + 16}" text-anchor="middle">{lv}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 8}" text-anchor="middle">'
               'Skill Level</text>')
    out.append(f'<text x="14" y="{(top + h - bottom) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(top + h - bottom) / 2})">'
               'Elo on Stockfish 15.1\'s UCI_Elo scale, 10s+0.1s</text>')
    for level, elo, margin in points:
        out.append(f'<line x1="{x(level):.1f}" x2="{x(level):.1f}" y1="{y(elo - margin):.1f}" '
                   f'y2="{y(elo + margin):.1f}" stroke="#888"/>'
                   f'<circle cx="{x(level):.1f}" cy="{y(elo):.1f}" r="3.5" fill="#36c"/>')
    line = " ".join(f"{x(lv):.1f},{y(e):.1f}" for lv, e, _ in table)
    out.append(f'<polyline points="{line}" fill="none" stroke="#c33" stroke-width="2"/>')
    out.append(f'<text x="{left + 10}" y="{top + 12}" fill="#c33">the calibration '
               '(isotonic fit, linear between its points)</text>')
    out.append(f'<text x="{left + 10}" y="{top + 27}" fill="#36c">measured levels, 40 games '
               'each, with 95 % margins</text>')
    out.append("</svg>")
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, path)


def level_for(table, elo):
    """The level the table gives for an Elo (linear between its points, the first segment
    extended below it), as search/skill.rs computes it."""
    if elo >= table[-1][1]:
        return table[-1][0]
    i = next((i for i in range(1, len(table)) if elo < table[i][1]), len(table) - 1)
    (l0, e0, _), (l1, e1, _) = table[i - 1], table[i]
    return max(0.0, l0 + (l1 - l0) * (elo - e0) / (e1 - e0))


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
    p.add_argument("--plot", help="fit: also draw the points and the table as an SVG file")
    a = p.parse_args()
    os.makedirs(a.pgn_dir, exist_ok=True)

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
        for level, elo, margin in sorted(points):
            print(f"  level {level:4.1f}: measured {elo:.0f} +/- {margin:.0f}")
        table = fit(points)
        print("search/skill.rs, CALIBRATION (level, Elo):")
        print("    " + ", ".join(f"({lv:.2f}, {e:.0f}.0)" for lv, e, _ in table))
        for x in (1320, 1500, 2000, 2500, round(table[-1][1])):
            print(f"  UCI_Elo {x}: level {level_for(table, x):.2f}")
        if a.plot:
            plot(points, table, a.plot)
            print(f"plot: {a.plot}")
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
