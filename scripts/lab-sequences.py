#!/usr/bin/env python3
"""Game sequences for the TT lab (crates/lab/data/sequences.txt) from a PGN of real games.

Takes the first N games of at least PLIES plies, in file order, and writes for each
`name;start FEN;first PLIES moves in UCI`, plus the chosen games, whole, as PGN (so the
source stays in the repository). The lab searches the positions where the side that moves
first in the start position is to move: PLIES / 2 successive searches per game.

Usage: python3 scripts/lab-sequences.py GAMES.pgn [N=24] [PLIES=80]
Needs python-chess (pip install chess==1.11.2); the outputs are committed, so the lab
itself needs only cargo.
"""
import sys
import chess
import chess.pgn

src = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 24
plies = int(sys.argv[3]) if len(sys.argv) > 3 else 80
out_txt = "crates/lab/data/sequences.txt"
out_pgn = "crates/lab/data/sequences.pgn"

chosen = []
with open(src) as f:
    while len(chosen) < n:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        moves = list(game.mainline_moves())
        if len(moves) >= plies:
            chosen.append(game)
if len(chosen) < n:
    sys.exit(f"only {len(chosen)} games of {plies}+ plies in {src}")

lines = [
    "# Engram TT lab: game sequences, for the studies that search a game move by move",
    "# (aging, recurrence, table size): the table is kept from one search to the next.",
    "#",
    "# Format: one sequence per line, `name;start FEN;uci moves`, moves separated by single",
    "# spaces. The lab searches the positions where the side to move in the start position",
    "# is to move again (every second ply): one search per move of that side.",
    "#",
    f"# Source: the first {n} games of at least {plies} plies of a 10s+0.1s match between",
    "# Engram (Threads 2) and Glaurung 2.2 (Debian's package), openings from",
    "# ../shared/data/openings-book.epd; the games are in sequences.pgn. Made by",
    f"# `python3 scripts/lab-sequences.py GAMES.pgn {n} {plies}`.",
]
for i, game in enumerate(chosen, 1):
    board = game.board()
    start = board.fen()
    uci = [m.uci() for m in list(game.mainline_moves())[:plies]]
    w, b = game.headers.get("White", "?"), game.headers.get("Black", "?")
    lines.append(f"game{i:02}.{w}-{b};{start};{' '.join(uci)}")
with open(out_txt, "w") as f:
    f.write("\n".join(lines) + "\n")
with open(out_pgn, "w") as f:
    for game in chosen:
        exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
        f.write(game.accept(exporter) + "\n\n")
print(f"{len(chosen)} sequences of {plies} plies -> {out_txt}, {out_pgn}")
