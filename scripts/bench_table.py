#!/usr/bin/env python3
"""Turns Google Benchmark JSON (aggregates) into the ratio tables of docs/benchmarks.md.

Every figure is the median of the repetitions in the files given; every ratio compares two
figures of the same run. Targets come from the design's section 12 and are marked met or not.
"""
import json
import re
import sys
from collections import defaultdict

NAME = re.compile(r"^(\w+)<(\w+)>/(\d+)")
PLAIN = re.compile(r"^([A-Za-z]+)_(\w+)/(\d+)")  # Family_impl/N


def load(paths):
    """{(family, queue, n): {field: median value}}"""
    out = defaultdict(dict)
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            name = b.get("run_name", b["name"])
            m = NAME.match(name) or PLAIN.match(name)
            if not m:
                continue
            key = (m.group(1), m.group(2), int(m.group(3)))
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            out[key]["time_ns"] = b["real_time"] * scale
            for field in ("ns_per_timer", "worst_frame_us", "mean_frame_ns", "bytes_per_timer"):
                if field in b:
                    out[key][field] = b[field]
    return out


def fmt(v, digits=1):
    if v is None:
        return "-"
    if v >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}f}"


def verdict(ok):
    return "met" if ok else "**not met**"


def n_label(n):
    return {1000: "1e3", 100000: "1e5", 1000000: "1e6"}.get(n, str(n))


def table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def get(r, family, queue, n, field="time_ns"):
    return r.get((family, queue, n), {}).get(field)


def queues_tables(r):
    out = []
    ns = [1000, 100000, 1000000]
    others = ["HeapTimerQueue", "LazyHeapQueue", "MultimapQueue", "VectorScanQueue", "LibuvQueue"]

    rows = []
    for n in ns:
        w = get(r, "Pair", "TimerWheel", n)
        h = get(r, "Pair", "LazyHeapQueue", n)
        u = get(r, "Pair", "LibuvQueue", n)
        if w is None:
            continue
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "Pair", q, n)) for q in others]
        rh, ru = (h / w if h else None), (u / w if u else None)
        if n <= 100000:
            target = f"heap/wheel {fmt(rh, 2)} (>= 2): {verdict(rh and rh >= 2)}; libuv/wheel {fmt(ru, 1)} (>= 10): {verdict(ru and ru >= 10)}"
        else:
            target = f"wheel/heap {fmt(w / h if h else None, 2)} (<= 1.3): {verdict(h and w / h <= 1.3)}"
        rows.append(cells + [target])
    if rows:
        out.append("### Schedule + cancel pair: cancel a random pending timer, schedule a new one (ns per pair, N pending)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "libuv", "target"], rows))

    rows = []
    for n in ns:
        w = get(r, "PairSame", "TimerWheel", n)
        if w is None:
            continue
        h = get(r, "PairSame", "LazyHeapQueue", n)
        u = get(r, "PairSame", "LibuvQueue", n)
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "PairSame", q, n)) for q in others]
        rows.append(cells + [f"heap/wheel {fmt(h / w if h else None, 2)}, libuv/wheel {fmt(u / w if u else None, 1)}"])
    if rows:
        out.append("### Schedule + cancel pair: schedule a timer, cancel that timer (ns per pair, N pending)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "libuv", "ratios"], rows))

    rows = []
    for n in ns:
        w = get(r, "Fire", "TimerWheel", n, "ns_per_timer")
        if w is None:
            continue
        h = get(r, "Fire", "LazyHeapQueue", n, "ns_per_timer")
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "Fire", q, n, "ns_per_timer")) for q in others[:4]]
        target = f"heap/wheel {fmt(h / w if h else None, 2)} (>= 4): {verdict(h and h / w >= 4)}" if n == 100000 else f"heap/wheel {fmt(h / w if h else None, 2)}"
        rows.append(cells + [target])
    if rows:
        out.append("### Firing in 16 ms frames until all have fired (ns per timer)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "ratio"], rows))

    w = get(r, "FireWorstFrame", "TimerWheel", 1000000, "worst_frame_us")
    h = get(r, "FireWorstFrame", "LazyHeapQueue", 1000000, "worst_frame_us")
    t = get(r, "FireWorstFrame", "HeapTimerQueue", 1000000, "worst_frame_us")
    if w is not None:
        out.append("### Worst single frame while firing, N = 1e6 (us)\n\n" + table(
            ["TimerWheel", "HeapTimerQueue", "lazy heap", "target"],
            [[fmt(w), fmt(t), fmt(h), f"wheel/heap {fmt(w / h if h else None, 2)} (<= 3): {verdict(h and w / h <= 3)}"]]))

    rows = []
    w3, w6 = get(r, "IdleFrame", "TimerWheel", 1000), get(r, "IdleFrame", "TimerWheel", 1000000)
    for n in ns:
        w = get(r, "IdleFrame", "TimerWheel", n)
        if w is None:
            continue
        rows.append([n_label(n), fmt(w)] + [fmt(get(r, "IdleFrame", q, n)) for q in others[:4]])
    if rows:
        note = f"wheel 1e6/1e3 = {fmt(w6 / w3 if w3 else None, 2)} (<= 1.5): {verdict(w3 and w6 / w3 <= 1.5)}"
        out.append("### A frame with nothing due, time not moving (ns: advance + next_fire)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan"], rows) + "\n\n" + note)

    for family, what in (("IdleMovingNear", "timers due in 10-16 s"), ("IdleMovingFar", "timers due in 1-10 min"),
                         ("IdleMovingDraining", "timers due in 20-40 s (the wheel moves a coarse slot down meanwhile)")):
        rows = []
        for n in ns:
            w = get(r, family, "TimerWheel", n, "mean_frame_ns")
            if w is None:
                continue
            h = get(r, family, "LazyHeapQueue", n, "mean_frame_ns")
            ww = get(r, family, "TimerWheel", n, "worst_frame_us")
            hw = get(r, family, "LazyHeapQueue", n, "worst_frame_us")
            target = ""
            if n == 1000000:
                target = (f"mean wheel/heap {fmt(w / h if h else None, 1)} (<= 20): {verdict(h and w / h <= 20)}; "
                          f"worst {fmt(ww)} us (<= 1000): {verdict(ww is not None and ww <= 1000)}")
            rows.append([n_label(n), fmt(w), fmt(h), fmt(ww), fmt(hw), target])
        if rows:
            out.append(f"### 600 frames of 16 ms with nothing due, {what}\n\n" + table(
                ["N", "wheel mean (ns)", "lazy heap mean (ns)", "wheel worst (us)", "lazy heap worst (us)", "target"], rows))

    rows = []
    for n in ns:
        w = get(r, "Memory", "TimerWheel", n, "bytes_per_timer")
        if w is None:
            continue
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "Memory", q, n, "bytes_per_timer")) for q in others[:3]]
        rows.append(cells + [f"{verdict(w <= 32)} (<= 32)" if n == 1000000 else ""])
    if rows:
        out.append("### Memory (heap bytes per pending timer, measured by the allocator)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "target"], rows))
    return out


def runtime_tables(r):
    rows = []
    c1, c5 = get(r, "FrameOverhead", "cadence", 100), get(r, "FrameOverhead", "cadence", 100000)
    for n in (100, 100000):
        c = get(r, "FrameOverhead", "cadence", n)
        a = get(r, "FrameOverhead", "azul", n)
        if c is None:
            continue
        target = f"{verdict(c < 1000)} (< 1 us)"
        if n == 100000 and c1:
            target += f"; 1e5/100 = {fmt(c / c1, 2)} (<= 1.5): {verdict(c / c1 <= 1.5)}"
        rows.append([f"{n:,}", fmt(c), fmt(a), fmt(a / c if a else None), target])
    if not rows:
        return []
    return ["### Runtime frame with nothing due: run_timers + apply + next_wake (ns per frame)\n\n" + table(
        ["idle timers", "cadence WindowRuntime", "azul-style (every timer checked)", "azul/cadence", "target"], rows)]


def main(paths):
    r = load(paths)
    sections = queues_tables(r) + runtime_tables(r)
    print("\n\n".join(sections))


if __name__ == "__main__":
    main(sys.argv[1:])
