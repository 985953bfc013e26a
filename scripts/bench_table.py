#!/usr/bin/env python3
"""Turns Google Benchmark JSON (aggregates) into the ratio tables of docs/benchmarks.md.

Every figure is the median of the repetitions in the files given; every ratio compares two
figures of the same run. Targets come from the design's section 12 and are marked met or not.
"""
import json
import re
import sys
from collections import defaultdict

HEAD = re.compile(r"^(\w+)<(\w+)>$|^([A-Za-z]+)_(\w+)$")  # Family<impl> or Family_impl


def parse(name):
    """'Pair<TimerWheel>/1000' -> ('Pair', 'TimerWheel', (1000,)); 'Send_mutex/real_time' ->
    ('Send', 'mutex', ()). Parts that are not numbers (real_time, iterations:3) are dropped."""
    parts = name.split("/")
    m = HEAD.match(parts[0])
    if not m:
        return None
    family, impl = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    args = tuple(int(p) for p in parts[1:] if p.isdigit())
    return family, impl, args


def load(paths):
    """({(family, impl, args...): {field: median value}}, window bench object or None)"""
    out = defaultdict(dict)
    window = None
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        if "benchmarks" not in data:  # cadence_bench_window and _progress write their own objects
            window = {**(window or {}), **data}
            continue
        for b in data["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            parsed = parse(b.get("run_name", b["name"]))
            if not parsed:
                continue
            family, impl, args = parsed
            key = (family, impl) + args
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            out[key]["time_ns"] = b["real_time"] * scale
            for field in ("ns_per_timer", "worst_frame_us", "mean_frame_ns", "bytes_per_timer",
                          "wakes_per_batch", "items_per_second", "ns_per_pair", "schedule_ns", "cancel_ns"):
                if field in b:
                    out[key][field] = b[field]
    return out, window


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


def get(r, family, impl, *args, field="time_ns"):
    return r.get((family, impl) + args, {}).get(field)


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
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "Pair", q, n)) for q in others + ["CompactHeapQueue"]]
        rh, ru = (h / w if h else None), (u / w if u else None)
        if n <= 100000:
            target = f"heap/wheel {fmt(rh, 2)} (>= 2): {verdict(rh and rh >= 2)}; libuv/wheel {fmt(ru, 1)} (>= 10): {verdict(ru and ru >= 10)}"
        else:
            target = f"wheel/heap {fmt(w / h if h else None, 2)} (<= 1.3): {verdict(h and w / h <= 1.3)}"
        rows.append(cells + [target])
    if rows:
        out.append("### Schedule + cancel pair: cancel a random pending timer, schedule a new one (ns per pair, N pending)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "libuv", "compact heap", "target"], rows))

    rows = []
    batch = ["HeapTimerQueue", "CompactHeapQueue", "LazyHeapQueue", "LibuvQueue"]
    targets = {1000: lambda w, c: f"wheel {fmt(w, 1)} (<= 12): {verdict(w <= 12)}",
               100000: lambda w, c: f"wheel {fmt(w, 1)} (<= 32): {verdict(w <= 32)}; compact/wheel {fmt(c / w if c else None, 2)} (>= 1.6): {verdict(c and c / w >= 1.6)}",
               1000000: lambda w, c: f"wheel/compact {fmt(w / c if c else None, 2)} (<= 1): {verdict(c and w <= c)}"}
    for n in ns:
        w = get(r, "Batch", "TimerWheel", n, field="ns_per_pair")
        if w is None:
            continue
        c = get(r, "Batch", "CompactHeapQueue", n, field="ns_per_pair")
        halves = f"{fmt(get(r, 'Batch', 'TimerWheel', n, field='schedule_ns'))} + {fmt(get(r, 'Batch', 'TimerWheel', n, field='cancel_ns'))}"
        compact_halves = f"{fmt(get(r, 'Batch', 'CompactHeapQueue', n, field='schedule_ns'))} + {fmt(get(r, 'Batch', 'CompactHeapQueue', n, field='cancel_ns'))}"
        rows.append([n_label(n), fmt(w), halves] + [fmt(get(r, "Batch", q, n, field="ns_per_pair")) for q in batch] +
                    [compact_halves, targets[n](w, c)])
    if rows:
        out.append("### Batch: schedule N timers, then cancel all N in a random order (ns per schedule + cancel pair)\n\n" + table(
            ["N", "TimerWheel", "wheel schedule + cancel", "HeapTimerQueue", "compact heap", "lazy heap", "libuv",
             "compact schedule + cancel", "target"], rows))

    rows = []
    for n in ns:
        w = get(r, "PairSame", "TimerWheel", n)
        if w is None:
            continue
        h = get(r, "PairSame", "LazyHeapQueue", n)
        u = get(r, "PairSame", "LibuvQueue", n)
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "PairSame", q, n)) for q in others + ["CompactHeapQueue"]]
        rows.append(cells + [f"heap/wheel {fmt(h / w if h else None, 2)}, libuv/wheel {fmt(u / w if u else None, 1)}"])
    if rows:
        out.append("### Schedule + cancel pair: schedule a timer, cancel that timer (ns per pair, N pending)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "libuv", "compact heap", "ratios"], rows))

    rows = []
    for n in ns:
        w = get(r, "Fire", "TimerWheel", n, field="ns_per_timer")
        if w is None:
            continue
        h = get(r, "Fire", "LazyHeapQueue", n, field="ns_per_timer")
        c = get(r, "Fire", "CompactHeapQueue", n, field="ns_per_timer")
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "Fire", q, n, field="ns_per_timer")) for q in others[:4] + ["CompactHeapQueue"]]
        target = f"heap/wheel {fmt(h / w if h else None, 2)}, compact/wheel {fmt(c / w if c else None, 2)}"
        if n == 100000:
            target = (f"heap/wheel {fmt(h / w if h else None, 2)} (>= 5): {verdict(h and h / w >= 5)}; "
                      f"compact/wheel {fmt(c / w if c else None, 2)} (>= 5): {verdict(c and c / w >= 5)}")
        rows.append(cells + [target])
    if rows:
        out.append("### Firing in 16 ms frames until all have fired (ns per timer)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "compact heap", "ratio"], rows))

    w = get(r, "FireWorstFrame", "TimerWheel", 1000000, field="worst_frame_us")
    h = get(r, "FireWorstFrame", "LazyHeapQueue", 1000000, field="worst_frame_us")
    t = get(r, "FireWorstFrame", "HeapTimerQueue", 1000000, field="worst_frame_us")
    c = get(r, "FireWorstFrame", "CompactHeapQueue", 1000000, field="worst_frame_us")
    if w is not None:
        out.append("### Worst single frame while firing, N = 1e6 (us)\n\n" + table(
            ["TimerWheel", "HeapTimerQueue", "lazy heap", "compact heap", "target"],
            [[fmt(w), fmt(t), fmt(h), fmt(c), f"wheel/heap {fmt(w / h if h else None, 2)} (<= 0.5): {verdict(h and w / h <= 0.5)}; "
              f"wheel/compact {fmt(w / c if c else None, 2)} (<= 0.5): {verdict(c and w / c <= 0.5)}"]]))

    rows = []
    w3, w6 = get(r, "IdleFrame", "TimerWheel", 1000), get(r, "IdleFrame", "TimerWheel", 1000000)
    for n in ns:
        w = get(r, "IdleFrame", "TimerWheel", n)
        if w is None:
            continue
        rows.append([n_label(n), fmt(w)] + [fmt(get(r, "IdleFrame", q, n)) for q in others[:4] + ["CompactHeapQueue"]])
    if rows:
        note = f"wheel 1e6/1e3 = {fmt(w6 / w3 if w3 else None, 2)} (<= 1.5): {verdict(w3 and w6 / w3 <= 1.5)}"
        out.append("### A frame with nothing due, time not moving (ns: advance + next_fire)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "vector scan", "compact heap"], rows) + "\n\n" + note)

    for family, what in (("IdleMovingNear", "timers due in 10-16 s"), ("IdleMovingFar", "timers due in 1-10 min"),
                         ("IdleMovingDraining", "timers due in 20-40 s (the wheel moves a coarse slot down meanwhile)")):
        rows = []
        for n in ns:
            w = get(r, family, "TimerWheel", n, field="mean_frame_ns")
            if w is None:
                continue
            h = get(r, family, "LazyHeapQueue", n, field="mean_frame_ns")
            ww = get(r, family, "TimerWheel", n, field="worst_frame_us")
            hw = get(r, family, "LazyHeapQueue", n, field="worst_frame_us")
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
        w = get(r, "Memory", "TimerWheel", n, field="bytes_per_timer")
        if w is None:
            continue
        cells = [n_label(n), fmt(w)] + [fmt(get(r, "Memory", q, n, field="bytes_per_timer")) for q in others[:3] + ["CompactHeapQueue"]]
        rows.append(cells + [f"{verdict(w <= 32)} (<= 32)" if n == 1000000 else ""])
    if rows:
        out.append("### Memory (heap bytes per pending timer, measured by the allocator)\n\n" + table(
            ["N", "TimerWheel", "HeapTimerQueue", "lazy heap", "multimap", "compact heap", "target"], rows))
    return out


def runtime_tables(r):
    rows = []
    base = get(r, "FrameOverhead", "cadence", 100, 100)
    for timers in (100, 100000):
        for threads in (0, 100):
            c = get(r, "FrameOverhead", "cadence", timers, threads)
            a = get(r, "FrameOverhead", "azul", timers, threads)
            if c is None:
                continue
            target = ""
            if threads == 100:
                target = f"{verdict(c < 1000)} (< 1 us)"
                if timers == 100000 and base:
                    target += f"; vs 100 timers {fmt(c / base, 2)} (<= 1.5): {verdict(c / base <= 1.5)}"
            rows.append([f"{timers:,}", str(threads), fmt(c), fmt(a), fmt(a / c if a else None), target])
    if not rows:
        return []
    return ["### Runtime frame with nothing due: run_timers + run_threads + apply + next_wake (ns per frame)\n\n" + table(
        ["idle timers", "idle threads", "cadence WindowRuntime", "azul-style", "azul/cadence", "target"], rows)]


def channel_tables(r):
    out = []
    rows = []
    for mode, what in (("SendFrames", "UI drains once per 16 ms frame"), ("SendBusy", "UI drains non-stop")):
        lf, mx = get(r, mode, "lockfree"), get(r, mode, "mutex")
        if lf is None:
            continue
        ratio = mx / lf if mx else None
        target = f"{fmt(ratio, 1)}x (>= 5): {verdict(ratio and ratio >= 5)}" if mode == "SendFrames" else f"{fmt(ratio, 2)}x"
        rows.append([what, fmt(lf), fmt(mx), target])
    if rows:
        out.append("### One send, worker thread (ns), while the UI thread drains\n\n" + table(
            ["UI thread", "cadence (lock-free queue + doorbell)", "mutex + deque", "mutex/cadence"], rows))
    rows = []
    for n in (1, 1000):
        w = get(r, "Wakeups", "runtime", n, field="wakes_per_batch")
        if w is not None:
            rows.append([f"{n:,}", fmt(w, 2), verdict(w <= 1.0) + " (1 per batch)"])
    if rows:
        out.append("### Waker calls per batch of messages posted while the loop sleeps\n\n" + table(
            ["messages per batch", "wake-ups per batch", "target"], rows))
    t = get(r, "Throughput", "runtime", field="items_per_second")
    if t is not None:
        out.append(f"### Through the runtime\n\nOne worker flooding write-backs, the UI thread running frames until all are applied: "
                   f"**{t / 1e6:.1f} million messages per second** ({1e9 / t:.0f} ns per message, send to write-back).")
    return out


def shared_wheel_tables(r):
    out = []
    rows = []
    for n in (1000, 100000):
        sh = get(r, "Ops", "shared", n, field="items_per_second")
        wh = get(r, "Ops", "wheel", n, field="items_per_second")
        if sh is None:
            continue
        rows.append([n_label(n), fmt(sh / 1e6, 1), fmt(wh / 1e6 if wh else None, 1), fmt(wh / sh if wh else None, 2)])
    lock = get(r, "LockRoundTrip", "robust")
    if rows and lock is not None:
        for row, n in zip(rows, (1000, 100000)):
            sh = get(r, "Ops", "shared", n, field="items_per_second")
            wh = get(r, "Ops", "wheel", n, field="items_per_second")
            budget = (1e9 / wh + lock) if wh else None  # ns per operation: the wheel's plus one round trip
            row.append(f"shared {fmt(1e9 / sh)} ns/op, wheel + lock {fmt(budget)}: {verdict(budget and 1e9 / sh <= budget)}")
    if rows:
        head = ["N", "SharedTimingWheel", "TimerWheel", "TimerWheel/shared"] + (["target: <= TimerWheel + one lock round trip"] if lock is not None else [])
        out.append("### One process: add + cancel pairs with N pending (million operations per second)\n\n" + table(head, rows))
    if lock is not None:
        out.append(f"One uncontended lock + unlock of the wheel's process-shared robust mutex, alone: **{fmt(lock)} ns**.")
    rows = []
    for n in (1000, 100000):
        for rot in (1, 2, 4, 16, 64):
            whole = get(r, "Advance", "whole", n, rot, field="ns_per_timer")
            walk = get(r, "Advance", "walk", n, rot, field="ns_per_timer")
            if whole is None:
                continue
            ratio = whole / walk if walk else None
            rows.append([n_label(n), str(rot), fmt(whole), fmt(walk), fmt(ratio, 2), f"{verdict(ratio and ratio <= 1.1)} (<= 1, noise 10%)"])
    if rows:
        out.append("### One advance of R rotations (4,096 buckets) firing N timers, beside the same ticks walked in advances shorter than a rotation (ns per fired timer)\n\n" + table(
            ["N", "R", "one advance", "walked", "one/walked", "target"], rows))
    sh = get(r, "Fire", "shared", 100000, field="items_per_second")
    wh = get(r, "Fire", "wheel", 100000, field="items_per_second")
    if sh is not None:
        out.append("### Firing 1e5 timers, 16 ticks per advance (ns per timer)\n\n" + table(
            ["SharedTimingWheel", "TimerWheel", "shared/TimerWheel"],
            [[fmt(1e9 / sh), fmt(1e9 / wh if wh else None), fmt(wh / sh if wh else None, 2)]]))
    one = get(r, "Processes", "shared", 1, field="items_per_second")
    four = get(r, "Processes", "shared", 4, field="items_per_second")
    if one is not None:
        out.append("### Processes scheduling (add + cancel pairs) while one more advances the clock (million operations per second, all schedulers)\n\n" + table(
            ["1 scheduler", "4 schedulers", "4/1"],
            [[fmt(one / 1e6, 2), fmt(four / 1e6 if four else None, 2), fmt(four / one if four else None, 2)]]))
    return out


def window_tables(w):
    if not w:
        return []
    if "idle" not in w:
        return progress_tables(w)
    idle, busy = w["idle"], w["every_frame"]
    ratio = busy["cpu_percent"] / idle["cpu_percent"] if idle["cpu_percent"] > 0 else None
    out = [f"### CPU of one core: an idle window with a blinking caret beside the same window drawn every frame (medians of {w.get('rounds', 1)} rounds)\n\n" + table(
        ["loop", "CPU (%)", "frames per second", "wake-ups per second", "target"],
        [["cadence, idle (caret blinking)", fmt(idle["cpu_percent"], 2), fmt(idle["frames_per_second"], 1),
          fmt(idle["wakeups_per_second"], 1), f"{verdict(idle['cpu_percent'] <= 1.0)} (<= 1%)"],
         ["render every frame", fmt(busy["cpu_percent"], 1), fmt(busy["frames_per_second"], 0), "-",
          f"every-frame/idle {fmt(ratio, 0)}x"]])]
    rows = []
    for key, what in (("post_to_write_back_us", "worker post to write-back, loop asleep"),
                      ("timer_lateness_us", "timer lateness, loop idle"),
                      ("sleep_lateness_us", "baseline: a plain thread's sleep_until lateness")):
        d = w.get(key)
        if not d:
            continue
        target = f"{verdict(d['p99'] <= 2000)} (p99 <= 2 ms)" if key != "sleep_lateness_us" else "what the OS gives"
        rows.append([what, str(d["samples"]), fmt(d["p50"] / 1000, 2), fmt(d["p99"] / 1000, 2), fmt(d["max"] / 1000, 2), target])
    out.append(f"### Latency on the UI thread (ms; samples of {w.get('rounds', 1)} rounds)\n\n" +
               table(["what", "samples", "p50", "p99", "max", "target"], rows))
    late, base = w.get("timer_lateness_us"), w.get("sleep_lateness_us")
    if late and base and base["p99"] > 0:
        # The OS's own wake-up noise moves both from run to run; what the loop adds is the gap.
        out.append(f"Timer lateness beyond the sleep_until baseline of this run: p50 "
                   f"+{fmt((late['p50'] - base['p50']) / 1000, 2)} ms, p99 {fmt(late['p99'] / base['p99'], 2)}x the "
                   f"baseline's p99.")
    caret = w.get("caret_lateness_us")
    if caret:
        rows = []
        for key, what in (("no_workers", "no workers"),
                          ("normal_priority", f"{caret['workers']} CPU-bound workers, normal priority"),
                          ("background_priority", f"{caret['workers']} CPU-bound workers, background priority (default)")):
            d = caret[key]
            target = f"{verdict(d['p99'] <= 1000)} (p99 < 1 ms)" if key == "background_priority" else "-"
            rows.append([what, str(d["samples"]), fmt(d["p50"] / 1000, 2), fmt(d["p99"] / 1000, 2), fmt(d["max"] / 1000, 2), target])
        normal, background = caret["normal_priority"], caret["background_priority"]
        ratio = normal["p99"] / background["p99"] if background["p99"] > 0 else None
        out.append(f"### Caret blink lateness with one CPU-bound worker per core (ms; samples of {w.get('rounds', 1)} rounds; "
                   f"p99 at normal priority is {fmt(ratio, 1)}x the p99 at background priority)\n\n" +
                   table(["workers", "samples", "p50", "p99", "max", "target"], rows))
    return out + progress_tables(w)


def progress_tables(w):
    out = []
    progress = w.get("progress_lane")
    if progress:
        rows = []
        for key, what in (("progress", "progress(value): the latest-value lane"),
                          ("write_back", "write_back(value): one message per report")):
            d = progress[key]
            rows.append([what, f"{d['reports']:,}", str(d["frames"]), f"{d['deliveries']:,}", str(d["wakes"]),
                         fmt(d["peak_bytes"] / 1024, 1), fmt(d["bytes_after"] / 1024, 1), fmt(d["worker_seconds"], 2)])
        out.append("### A worker reporting in a tight loop, the UI running frames meanwhile (bytes allocated and not yet "
                   "freed, KiB)\n\n" + table(["lane", "reports", "UI frames", "deliveries to the UI", "waker calls", "peak KiB",
                                                 "KiB after", "worker s"], rows))
    return out


def main(paths):
    r, window = load(paths)
    sections = queues_tables(r) + runtime_tables(r) + channel_tables(r) + window_tables(window) + shared_wheel_tables(r)
    print("\n\n".join(sections))


if __name__ == "__main__":
    main(sys.argv[1:])
