#!/usr/bin/env python3
"""SPSA tuning of the search's parameters on this machine, through ../shared/tools/match.py.

Needs a build with the `tune` feature (`cargo build --release --features tune`), whose
`tune json` command lists every parameter of `crates/engine/src/search/params.rs` with its
value, range and step; each is a UCI spin option of that build.

Each iteration draws a random sign (±1) per parameter, plays --pairs game pairs (each opening
twice, colours reversed) between theta + c_k·delta and theta − c_k·delta, and moves theta by
a_k · (W − L of the plus side) / (c_k · delta). The schedule is OpenBench's: c_k = c_end ·
N^γ / k^γ, a_k = a_end · (A + N)^α / (A + k)^α with a_end = r_end · c_end², A = N/10,
α = 0.602, γ = 0.101; c_end is each parameter's step (a twentieth of its range, from
`params.rs`) and r_end is --r-end.

The state (theta, the iteration, the games, the run's settings) is written atomically to
--state after every iteration, so a run stopped at any point resumes where it was, with the
settings it started with. The openings' path is kept relative to the state file's folder,
so a state in the repository resumes in any checkout; the engine's path is kept as given and
--engine overrides it on resuming.
Strength is not measured here: a tuned set is a candidate, to be tested in games like any
other change (docs/measurements.md).

  cargo build --release --features tune && cp target/release/engram /tmp/engram-tune
  python3 scripts/spsa.py --engine /tmp/engram-tune --iterations 2000 --state /tmp/spsa.json
  python3 scripts/spsa.py --state /tmp/spsa.json --show      # the current values
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, "..", "..", "shared", "tools", "match.py")
OPENINGS = os.path.join(HERE, "..", "..", "shared", "data", "openings-book.epd")
ALPHA, GAMMA = 0.602, 0.101


def engine_params(engine, only):
    """The parameters the engine lists under `tune json`, optionally only those named."""
    out = subprocess.run([engine], input="tune json\nquit\n", capture_output=True, text=True,
                         timeout=30, check=True).stdout
    params = json.loads(out[out.index("{"):out.rindex("}") + 1])
    if only:
        unknown = set(only) - set(params)
        if unknown:
            sys.exit(f"spsa: unknown parameters: {', '.join(sorted(unknown))}")
        params = {k: v for k, v in params.items() if k in only}
    return params


def save(path, state):
    """Writes the state atomically."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def play(args, plus, minus, seed):
    """W − L of the plus side over --pairs pairs, and the games played."""
    def spec(name, values):
        return ["--engine", f"name={name}", f"cmd={args.engine}", "proto=uci",
                "option.Hash=16", "option.Threads=1"] + [
                    f"option.{k}={round(v)}" for k, v in values.items()]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "result.json")
        cmd = [sys.executable, MATCH] + spec("plus", plus) + spec("minus", minus) + [
            "--engines", "plus,minus", "--tc", args.tc, "--openings", args.openings,
            "--opening-order", "random", "--seed", str(seed), "--rounds", str(args.pairs),
            "--concurrency", str(args.concurrency), "--pgn", "", "--json", out, "--quiet",
            "--report-every", "0", "--resign-moves", "4", "--resign-score", "800",
            "--draw-moves", "8", "--draw-score", "10", "--draw-after", "40"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            pairing = json.load(f)["pairings"][0]
    sign = 1 if pairing["a"] == "plus" else -1
    return sign * (pairing["w"] - pairing["l"]), pairing["w"] + pairing["d"] + pairing["l"]


def stored_path(path, state):
    """`path` as the state file keeps it: relative to the state file's folder, so that a
    run resumes in another checkout of the repository."""
    return os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.abspath(state)))


def loaded_path(path, state):
    """A path from the state file: a relative one is taken from the state file's folder."""
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(state)), path))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="a build with the `tune` feature (needed to start a run)")
    ap.add_argument("--state", required=True, help="JSON state file: created, then resumed")
    ap.add_argument("--iterations", type=int, default=2000, help="N, the planned iterations")
    ap.add_argument("--params", help="comma-separated names to tune (default: all)")
    ap.add_argument("--tc", default="2+0.02", help="time control of the games")
    ap.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print the state's values and exit")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
    else:
        if not args.engine:
            sys.exit("spsa: --engine is needed to start a run")
        only = args.params.split(",") if args.params else None
        params = engine_params(args.engine, only)
        state = {"engine": args.engine, "iterations": args.iterations, "k": 0, "games": 0,
                 "run": {"tc": args.tc, "pairs": args.pairs, "r_end": args.r_end,
                         "seed": args.seed, "openings": stored_path(args.openings, args.state)},
                 "params": {k: {"value": float(p["value"]), "default": p["value"],
                                "min": p["min_value"], "max": p["max_value"], "step": p["step"]}
                            for k, p in params.items()}}
    if args.show:
        for k, p in state["params"].items():
            print(f"{k:24} {round(p['value']):6d}  (default {p['default']}, {p['min']}..={p['max']})")
        print(f"iteration {state['k']} of {state['iterations']}, {state['games']} games")
        return
    # A resumed run keeps the settings it started with.
    args.engine = args.engine or state["engine"]
    run = state["run"]
    args.tc, args.pairs = run["tc"], run["pairs"]
    openings = loaded_path(run["openings"], args.state)
    if os.path.exists(openings):
        args.openings = openings
    else:
        print(f"spsa: the run's openings {openings} are missing; using {args.openings}")
    n = state["iterations"]
    big_a = n / 10
    while state["k"] < n:
        k = state["k"] + 1
        # Seeded by the iteration, so a resumed run draws what an unbroken one would.
        rng = random.Random(f"{run['seed']}-{k}")
        plus, minus, deltas = {}, {}, {}
        for name, p in state["params"].items():
            c_k = p["step"] * n ** GAMMA / k ** GAMMA
            delta = rng.choice((-1, 1))
            deltas[name] = (delta, c_k)
            plus[name] = min(max(p["value"] + c_k * delta, p["min"]), p["max"])
            minus[name] = min(max(p["value"] - c_k * delta, p["min"]), p["max"])
        diff, games = play(args, plus, minus, run["seed"] * 1_000_003 + k)
        for name, p in state["params"].items():
            delta, c_k = deltas[name]
            a_end = run["r_end"] * p["step"] ** 2
            a_k = a_end * (big_a + n) ** ALPHA / (big_a + k) ** ALPHA
            p["value"] = min(max(p["value"] + a_k * diff / (c_k * delta), p["min"]), p["max"])
        state["k"], state["games"] = k, state["games"] + games
        save(args.state, state)
        moved = ", ".join(f"{name} {round(p['value'])}" for name, p in state["params"].items()
                          if round(p["value"]) != p["default"])
        print(f"[{k}/{n}] plus {diff:+d} in {games}; off default: {moved or 'none'}", flush=True)


if __name__ == "__main__":
    main()
