#!/usr/bin/env bash
# Time-to-depth with several threads: `engram bench DEPTH` with 1 thread, then with THREADS
# threads on split points and with Lazy SMP, in interleaved rounds; prints each round and the
# medians of the per-round speed-ups against that round's 1-thread time.
#
#   scripts/ttd.sh [ROUNDS] [DEPTH] [THREADS]     (defaults: 30 16 2)
#
# Run it on an otherwise idle machine (no match, build or data generation at the same time).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-30}
depth=${2:-16}
threads=${3:-2}
cargo build --release -q
engram=target/release/engram
ms() { "$engram" bench "$depth" "$@" 2>&1 | awk '/Total time/ {print $5}'; }
printf 'round  1-thread  split  lazy  split-x  lazy-x\n'
for r in $(seq 1 "$rounds"); do
    one=$(ms)
    split=$(ms --threads "$threads")
    lazy=$(ms --threads "$threads" --lazy-smp)
    printf '%5d %9d %6d %5d %8.3f %7.3f\n' "$r" "$one" "$split" "$lazy" \
        "$(echo "$one / $split" | bc -l)" "$(echo "$one / $lazy" | bc -l)"
done | tee /dev/stderr | awk '
    function median(a, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $1 ~ /^[0-9]+$/ { n++; one[n] = $2; sp[n] = $3; lz[n] = $4; sx[n] = $5; lx[n] = $6
             if (n == 1 || $5 < smin) smin = $5; if (n == 1 || $5 > smax) smax = $5
             if (n == 1 || $6 < lmin) lmin = $6; if (n == 1 || $6 > lmax) lmax = $6 }
    END {
        printf "medians over %d rounds: 1 thread %d ms; split %d ms, %.3fx (%.2f-%.2f); lazy %d ms, %.3fx (%.2f-%.2f)\n",
            n, median(one, n), median(sp, n), median(sx, n), smin, smax, median(lz, n), median(lx, n), lmin, lmax
    }' 2>/dev/null
