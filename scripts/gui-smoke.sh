#!/usr/bin/env bash
# gui-smoke.sh: Engram in a real chess GUI, end to end.
#
# What it does:
#   1. builds Engram (`cargo build --release`);
#   2. starts a virtual X server (Xvfb) on a free display;
#   3. runs a two-game xboard match, Engram vs Fairy-Max, at a short time control
#      (20 s + 0.2 s a move; the games alternate colours). xboard drives Engram as a UCI
#      engine through the Polyglot adapter (`-fUCI`), exactly as a user's xboard would;
#   4. mid-game, takes a screenshot of the board and the Engine Output window (Engram's
#      depth, score, nodes, time and PV), placed side by side, cropped to the windows;
#   5. when the match is over, checks the saved PGN with python-chess: two games, each with
#      a result (1-0, 0-1 or 1/2-1/2, not `*`), Engram White in game 1 and Black in game 2,
#      every move legal (the games are replayed), a checkmate or stalemate on the board
#      matching the result, no illegal move, crash or time forfeit by Engram; and xboard's
#      debug file for `Illegal move ... from first machine`, `exited unexpectedly` and for
#      Engram's thinking output;
#   6. prints one summary line (`gui-smoke: PASS ...` or `gui-smoke: FAIL ...`) and exits
#      non-zero on any failure. Xvfb, xboard and the engines are stopped on exit.
#
# Usage: scripts/gui-smoke.sh [--screenshot PATH] [--ponder]
#   --screenshot PATH  also copy the (cropped) screenshot to PATH
#   --ponder           let both engines ponder (off by default: two engines pondering on a
#                      busy machine can lose on time for reasons that are not Engram's)
# Environment:
#   OUT      output directory (default target/gui-smoke/): games.pgn, xboard.debug,
#            xboard.log, screenshot.png (cropped), screenshot-full.png, home/ (xboard's and
#            Polyglot's settings, so that the user's ~/.xboardrc is neither read nor written)
#   TC, INC  xboard's -tc and -inc (default 0:20 and 0.2)
#   SHOT_AFTER  take the screenshot once Engram has played this many moves (default 12)
#   LIMIT    seconds the match may take before the run fails (default 600)
#
# Needs (Debian/Ubuntu packages): xboard polyglot fairymax xvfb x11-apps imagemagick, and
# python3 with python-chess (package python3-chess, or `pip install chess`); plus cargo.
#   sudo apt-get install xboard polyglot fairymax xvfb x11-apps imagemagick python3-chess
# xboard, polyglot and fairymax install into /usr/games, which this script adds to PATH.
#
# CI does not run this script (it needs those packages and takes a few minutes); run it by
# hand after changing the UCI code or the time management.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

SCREENSHOT_COPY=""
PONDER=false
while [[ $# -gt 0 ]]; do
    case "$1" in
    --screenshot)
        [[ $# -ge 2 ]] || { echo "gui-smoke: --screenshot needs a PATH" >&2; exit 2; }
        SCREENSHOT_COPY="$2"
        shift 2
        ;;
    --ponder) PONDER=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "gui-smoke: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/target/gui-smoke}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
if [[ -n "$SCREENSHOT_COPY" && "$SCREENSHOT_COPY" != /* ]]; then
    SCREENSHOT_COPY="$PWD/$SCREENSHOT_COPY"
fi
TC="${TC:-0:20}"
INC="${INC:-0.2}"
SHOT_AFTER="${SHOT_AFTER:-12}"
LIMIT="${LIMIT:-600}"
GAMES=2
export PATH="$PATH:/usr/games"

fail() {
    echo "gui-smoke: FAIL $*"
    exit 1
}

# --- requirements -------------------------------------------------------------------------
missing=()
for tool in cargo xboard polyglot fairymax Xvfb xwd convert python3 setsid; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ! python3 -c 'import chess.pgn' >/dev/null 2>&1; then
    missing+=("python-chess")
fi
if [[ ${#missing[@]} -gt 0 ]]; then
    fail "missing: ${missing[*]} (apt-get install xboard polyglot fairymax xvfb x11-apps" \
        "imagemagick python3-chess)"
fi

# --- build --------------------------------------------------------------------------------
(cd "$ROOT" && cargo build --release --quiet)
ENGINE="${CARGO_TARGET_DIR:-$ROOT/target}/release/engram"
[[ "$ENGINE" == /* ]] || ENGINE="$ROOT/$ENGINE"
[[ -x "$ENGINE" ]] || fail "no engine binary at $ENGINE"

# --- clean up on exit ---------------------------------------------------------------------
XVFB_PID=""
XBOARD_PID=""
cleanup() {
    # xboard runs in its own session (setsid): its process group holds Polyglot, Engram and
    # Fairy-Max too.
    if [[ -n "$XBOARD_PID" ]] && kill -0 "$XBOARD_PID" 2>/dev/null; then
        kill -TERM -- "-$XBOARD_PID" 2>/dev/null || true
        sleep 1
        kill -KILL -- "-$XBOARD_PID" 2>/dev/null || true
    fi
    if [[ -n "$XVFB_PID" ]] && kill -0 "$XVFB_PID" 2>/dev/null; then
        kill -TERM "$XVFB_PID" 2>/dev/null || true
        wait "$XVFB_PID" 2>/dev/null || true
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- fresh output files (xboard appends to an existing PGN) -------------------------------
PGN="$OUT/games.pgn"
DEBUG="$OUT/xboard.debug"
SHOT_FULL="$OUT/screenshot-full.png"
SHOT="$OUT/screenshot.png"
rm -rf "$PGN" "$DEBUG" "$OUT/xboard.log" "$SHOT_FULL" "$SHOT" "$OUT/display" "$OUT/home"
mkdir -p "$OUT/home"

# --- X server on a free display -----------------------------------------------------------
# -displayfd makes Xvfb choose an unused display number and write it to fd 3.
Xvfb -displayfd 3 -screen 0 1280x1000x24 -nolisten tcp 3>"$OUT/display" \
    >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 100); do
    [[ -s "$OUT/display" ]] && break
    kill -0 "$XVFB_PID" 2>/dev/null || fail "Xvfb did not start (see $OUT/xvfb.log)"
    sleep 0.1
done
[[ -s "$OUT/display" ]] || fail "Xvfb reported no display (see $OUT/xvfb.log)"
export DISPLAY=":$(tr -dc '0-9' <"$OUT/display")"

# --- the match ----------------------------------------------------------------------------
# Without a window manager, every window would be placed at 0,0: the board goes top left
# (-x/-y), the Engine Output window to its right (-engineOutputX/Y/W/H; xboard ignores a
# position of 0, hence 1). With -boardSize 49 the board window is 421 x 490 pixels (xboard
# 4.9.1, default fonts).
START=$(date +%s)
(
    cd "$OUT"
    # HOME: xboard reads and saves ~/.xboardrc, Polyglot writes ~/.polyglot/*.ini.
    HOME="$OUT/home" exec setsid xboard \
        -fcp "$ENGINE" -fUCI -scp fairymax \
        -matchGames "$GAMES" -tc "$TC" -inc "$INC" -ponderNextMove "$PONDER" \
        -saveGameFile "$PGN" -debugMode true -nameOfDebugFile "$DEBUG" \
        -autoCallFlag true -showThinking true -engineOutputUp true \
        -popupExitMessage false -popupMoveErrors false -saveSettingsOnExit false \
        -soundMove "" -boardSize 49 -x 1 -y 1 \
        -engineOutputX 426 -engineOutputY 1 -engineOutputW 780 -engineOutputH 490
) >"$OUT/xboard.log" 2>&1 &
XBOARD_PID=$!

shot_taken=false
while kill -0 "$XBOARD_PID" 2>/dev/null; do
    if ((  $(date +%s) - START > LIMIT )); then
        fail "the match took more than ${LIMIT} s (see $DEBUG)"
    fi
    if ! $shot_taken && [[ -f "$DEBUG" ]]; then
        moves=$(grep -c '^[0-9]* <first : move ' "$DEBUG" || true)
        if ((moves >= SHOT_AFTER)); then
            # Engram has just moved: the board shows the move, the Engine Output window
            # the search that chose it.
            sleep 0.5
            xwd -root -silent | convert xwd:- "png:$SHOT_FULL"
            shot_taken=true
        fi
    fi
    sleep 0.5
done
xboard_status=0
wait "$XBOARD_PID" || xboard_status=$?
XBOARD_PID=""
ELAPSED=$(($(date +%s) - START))

$shot_taken || fail "no screenshot: Engram played fewer than $SHOT_AFTER moves (see $DEBUG)"
# Crop to the windows (the root window is black) and keep the file small.
convert "$SHOT_FULL" -trim +repage -colors 128 "png8:$SHOT"
if [[ -n "$SCREENSHOT_COPY" ]]; then
    mkdir -p "$(dirname "$SCREENSHOT_COPY")"
    cp "$SHOT" "$SCREENSHOT_COPY"
fi

((xboard_status == 0)) || fail "xboard exited with status $xboard_status (see $OUT/xboard.log)"
[[ -f "$DEBUG" ]] || fail "xboard wrote no debug file"
[[ -f "$PGN" ]] || fail "xboard saved no PGN (see $DEBUG)"

# --- the checks ---------------------------------------------------------------------------
PGN="$PGN" DEBUG="$DEBUG" GAMES="$GAMES" ELAPSED="$ELAPSED" SHOT="$SHOT" python3 - <<'EOF'
import logging
import os
import re
import sys

import chess
import chess.pgn

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # errors are reported below
pgn_path, debug_path = os.environ["PGN"], os.environ["DEBUG"]
want_games, elapsed = int(os.environ["GAMES"]), os.environ["ELAPSED"]
problems = []

# xboard's debug file: what it received from the first engine (Polyglot running Engram).
debug = open(debug_path, encoding="utf-8", errors="replace").read()
for pattern, what in [
    (r'Illegal move "[^"]*" from first machine', "illegal move from Engram"),
    (r"first chess program \(.*\) exited unexpectedly", "Engram exited unexpectedly"),
    (r"<first : (tellusererror|Error|Illegal move)[^\n]*", "error from Engram/Polyglot"),
]:
    m = re.search(pattern, debug)
    if m:
        problems.append(f"{what}: {m.group(0)!r}")
thinking = len(re.findall(r"^\d+ <first : \d+ [-+]?\d+ \d+ \d+ ", debug, re.M))
if thinking == 0:
    problems.append("no thinking output from Engram in the debug file")

games = []
with open(pgn_path, encoding="utf-8", errors="replace") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games.append(game)
if len(games) != want_games:
    problems.append(f"{len(games)} games in the PGN, expected {want_games}")

summaries = []
for i, game in enumerate(games, 1):
    h = game.headers
    result = h.get("Result", "*")
    white, black = h.get("White", "?"), h.get("Black", "?")
    engram_white = "engram" in white.lower()
    if not engram_white and "engram" not in black.lower():
        problems.append(f"game {i}: Engram is neither White nor Black ({white} - {black})")
    if engram_white != (i % 2 == 1):
        problems.append(f"game {i}: colours do not alternate ({white} - {black})")
    if game.errors:
        problems.append(f"game {i}: PGN errors: {game.errors[0]}")
    board = game.board()
    plies = 0
    for move in game.mainline_moves():
        if move not in board.legal_moves:
            problems.append(f"game {i}: illegal move {move.uci()} at ply {plies + 1}")
            break
        board.push(move)
        plies += 1
    ending = game.end().comment
    # The termination is the last comment, after the move's own "{score/depth time}".
    reason = re.sub(r"^[-+]?[\d.]+/\d+( [\d.]+)?\s*", "", ending).strip() or "?"
    if result not in ("1-0", "0-1", "1/2-1/2"):
        problems.append(f"game {i}: result {result!r} ({reason})")
    outcome = board.outcome(claim_draw=True)
    if outcome is not None and outcome.termination in (
        chess.Termination.CHECKMATE,
        chess.Termination.STALEMATE,
        chess.Termination.INSUFFICIENT_MATERIAL,
    ) and outcome.result() != result:
        problems.append(f"game {i}: result {result} but the board is {outcome.termination.name}")
    engram_lost = result == ("0-1" if engram_white else "1-0")
    low = reason.lower()
    if re.search(r"illegal|invalid|forfeit|exit|crash|abort|disconnect", low):
        problems.append(f"game {i}: ended by {reason!r}")
    if engram_lost and re.search(r"on time|flag", low):
        problems.append(f"game {i}: time forfeit by Engram ({reason})")
    colour = "White" if engram_white else "Black"
    summaries.append(f"game {i} Engram ({colour}) {result} {plies} plies, {reason}")

verdict = "FAIL" if problems else "PASS"
line = f"gui-smoke: {verdict} {len(games)} games in {elapsed} s: " + "; ".join(summaries)
if problems:
    line += " | problems: " + "; ".join(problems)
else:
    line += f"; {thinking} thinking lines; screenshot {os.environ['SHOT']}"
print(line)
sys.exit(1 if problems else 0)
EOF
