#!/usr/bin/env python3
"""What a match's PGN says about one engine: results, pentanomial, clock use, who saw first.

Reads the PGN files that `../shared/tools/match.py --pgn` writes (one or more, pooled) and
reports, for the engine named by --engine (default `engram`):

- results: W / L / D, the score, and the pentanomial counts of its game pairs (the two games
  of a round, "N.1" and "N.2", played from the same opening with colours swapped), with the
  Elo and its 95% interval from match.py's own `dist_stats` when match.py can be imported;
- clock use (--clock): the share of its clock it used by the game's end (the base plus an
  increment a move, from the PGN's per-side `WhiteTimeControl` / `BlackTimeControl`), and
  its median and mean seconds a move by move number, in bands of ten of its own moves;
- who saw it first (--first T, default 1.5): in each decisive game, the first ply at which
  the winner's own score reached +T pawns and the first at which the loser's reached -T: in
  how many games the winner's came first, the median of the loser's ply less the winner's
  (over the games where both came), and the loser's score when the winner first saw +T.

The move comments are match.py's: `{ +0.21/17 0.524s }` (score in pawns from the mover's
side, or `+M5` / `-M3` for mates, then depth and seconds). Needs python-chess.

    python3 scripts/pgn-report.py /tmp/m/sfx71.pgn --clock --first 1.5
"""

import argparse
import collections
import os
import re
import statistics
import sys

import chess.pgn

COMMENT = re.compile(r"\s*([+-]?(?:M|#)?[+-]?[\d.]+)/(\d+)\s+([\d.]+)s")
MATE_PAWNS = 99.0


def parse_comment(text):
    """(score in pawns from the mover's view, seconds) of a match.py move comment, or None."""
    m = COMMENT.match(text)
    if not m:
        return None
    raw = m.group(1)
    if "M" in raw or "#" in raw:
        score = -MATE_PAWNS if raw.startswith("-") or "#-" in raw else MATE_PAWNS
    else:
        score = float(raw)
    return score, float(m.group(3))


def parse_tc(tc):
    """(base seconds, increment seconds) of a `BASE+INC` time control."""
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def games_of(paths, engine):
    """One record per game in which `engine` played."""
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                h = game.headers
                if engine not in (h.get("White"), h.get("Black")):
                    continue
                white = h["White"] == engine
                result = h.get("Result", "*")
                points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
                if points is None:
                    continue
                if not white:
                    points = 1.0 - points
                side_tc = h.get("WhiteTimeControl" if white else "BlackTimeControl")
                tc = parse_tc(side_tc or h.get("TimeControl", "0+0"))
                moves = []  # (ply, engine moved, score from the mover's view, seconds)
                white_first = game.board().turn == chess.WHITE
                for ply, node in enumerate(game.mainline(), start=1):
                    mover_white = (ply % 2 == 1) == white_first
                    parsed = parse_comment(node.comment)
                    if parsed:
                        moves.append((ply, mover_white == white, parsed[0], parsed[1]))
                yield {
                    "file": path,
                    "round": h.get("Round", "?"),
                    "points": points,
                    "tc": tc,
                    "moves": moves,
                }


def elo_line(pent):
    """match.py's Elo and interval for pentanomial counts, if match.py is importable."""
    tools = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "tools")
    sys.path.insert(0, os.path.abspath(tools))
    try:
        import match  # noqa: E402
    except ImportError:
        return "(match.py not found: no Elo)"
    st = match.dist_stats(pent, [0.0, 0.25, 0.5, 0.75, 1.0])
    if st is None:
        return "(no complete game pairs: no Elo)"
    return ", ".join(
        f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in st.items()
    )


def report_results(games):
    w = sum(g["points"] == 1.0 for g in games)
    l = sum(g["points"] == 0.0 for g in games)
    d = len(games) - w - l
    score = (w + d / 2) / len(games)
    pairs = collections.defaultdict(list)
    for g in games:
        pairs[(g["file"], g["round"].split(".")[0])].append(g["points"])
    pent = [0] * 5
    odd = 0
    for pts in pairs.values():
        if len(pts) == 2:
            pent[int(round(2 * sum(pts)))] += 1
        elif len(pts) > 2:
            odd += 1
    print(f"games {len(games)}: W {w} L {l} D {d}, score {100 * score:.2f}%")
    print(f"pentanomial [LL, LD, DD or WL, WD, WW] {pent}")
    if odd:
        print(
            f"  {odd} rounds have more than two games in one file (PGNs concatenated?): "
            "left out of the pentanomial; pass each match's PGN as its own argument"
        )
    print(f"  {elo_line(pent)}")


def report_clock(games):
    shares = []
    bands = collections.defaultdict(list)
    for g in games:
        own = [secs for _, mine, _, secs in g["moves"] if mine]
        if not own:
            continue
        base, inc = g["tc"]
        shares.append(sum(own) / (base + inc * len(own)))
        for i, secs in enumerate(own):
            bands[i // 10].append(secs)
    print(
        f"clock used by the game's end: median {statistics.median(shares):.2f}, "
        f"mean {statistics.mean(shares):.2f}, least {min(shares):.2f}"
    )
    print("own moves   count  median s  mean s")
    for band in sorted(bands):
        v = bands[band]
        print(
            f"{10 * band + 1:4}-{10 * band + 10:<4}  {len(v):6}  {statistics.median(v):8.3f}  "
            f"{statistics.mean(v):6.3f}"
        )


def report_first(games, threshold):
    for label, points in (("losses", 0.0), ("wins", 1.0)):
        decided = [g for g in games if g["points"] == points]
        winner_first, gaps, loser_then = 0, [], []
        # The winner is the other side in a loss, the engine in a win.
        winner_is_me = points == 1.0
        for g in decided:
            win_at = lose_at = None
            last_loser = None
            for ply, mine, score, _ in g["moves"]:
                if mine == winner_is_me:
                    if win_at is None and score >= threshold:
                        win_at = ply
                        loser_then.append(last_loser)
                else:
                    last_loser = score
                    if lose_at is None and score <= -threshold:
                        lose_at = ply
            if win_at is not None and (lose_at is None or win_at < lose_at):
                winner_first += 1
            if win_at is not None and lose_at is not None:
                gaps.append(lose_at - win_at)
        seen = [s for s in loser_then if s is not None]
        print(
            f"{label} {len(decided)}: the winner's score reached +{threshold} first in "
            f"{winner_first}"
            + (
                f"; the loser's -{threshold} came a median {statistics.median(gaps)} plies later"
                if gaps
                else ""
            )
            + (
                f"; the loser's own score then: median {statistics.median(seen):+.2f}"
                if seen
                else ""
            )
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn", nargs="+", help="PGN files written by match.py (pooled)")
    ap.add_argument("--engine", default="engram", help="the engine reported on")
    ap.add_argument("--clock", action="store_true", help="report the clock use")
    ap.add_argument(
        "--first", type=float, metavar="T", help="who saw a T-pawn advantage first"
    )
    args = ap.parse_args()
    games = list(games_of(args.pgn, args.engine))
    if not games:
        sys.exit(f"no finished game of {args.engine!r} in {', '.join(args.pgn)}")
    report_results(games)
    if args.clock:
        report_clock(games)
    if args.first is not None:
        report_first(games, args.first)


if __name__ == "__main__":
    main()
