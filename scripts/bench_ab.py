#!/usr/bin/env python3
"""Interleaved A/B of two release builds' benchmark binaries.

Usage: scripts/bench_ab.py BEFORE_TREE AFTER_TREE [rounds=2] [suite ...]

Each tree is a checkout whose release preset is built (`cmake --build --preset release
--target cadence_bench_queues ...`). Each round runs every suite once, before then after, so
both sides see the same machine drift. Prints, for every benchmark both builds have, the medians
over the rounds, after/before (as a time: a throughput is inverted), and each side's spread
(max/min over its rounds: the noise between two runs of one build). Results:
build/release/bench-ab/*.json of AFTER_TREE. BENCH_FILTER (a regex, as --benchmark_filter takes)
runs only the benchmarks it matches.
"""
import json
import os
import statistics
import subprocess
import sys

FIELDS = ("real_time", "ns_per_pair", "ns_per_timer", "schedule_ns", "cancel_ns", "items_per_second", "bytes_per_timer")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    suites = sys.argv[4:] or ["queues", "runtime", "channel", "shared_wheel"]
    out_dir = os.path.join(after, "build/release/bench-ab")
    os.makedirs(out_dir, exist_ok=True)
    res = {}
    for r in range(rounds):
        for side, root in (("before", before), ("after", after)):
            for s in suites:
                out = os.path.join(out_dir, f"{side}_{s}_{r}.json")
                subprocess.run([os.path.join(root, f"build/release/bench/cadence_bench_{s}"), "--benchmark_min_time=0.2",
                                f"--benchmark_filter={os.environ.get('BENCH_FILTER', '.')}",
                                f"--benchmark_out={out}", "--benchmark_out_format=json"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                for b in json.load(open(out))["benchmarks"]:
                    for f in FIELDS:
                        if f in b:
                            res.setdefault((side, b["name"], f), []).append(float(b[f]))
        print(f"bench_ab: round {r + 1} of {rounds} done", file=sys.stderr, flush=True)
    print("| benchmark | field | before | after | after/before | before spread | after spread |")
    print("|---|---|---|---|---|---|---|")
    for name, f in sorted({(n, f) for (side, n, f) in res if side == "before" and ("after", n, f) in res}):
        b, a = res[("before", name, f)], res[("after", name, f)]
        mb, ma = statistics.median(b), statistics.median(a)
        if mb == 0 or ma == 0 or min(b) <= 0 or min(a) <= 0:
            continue
        ratio = mb / ma if f == "items_per_second" else ma / mb
        print(f"| {name} | {f} | {mb:.4g} | {ma:.4g} | {ratio:.2f} | {max(b) / min(b):.2f} | {max(a) / min(a):.2f} |")


if __name__ == "__main__":
    main()
