"""Independent reference values for the reproduction rows of the transcribed tables
(test/report/published-table-rows.test.ts), in plain Python from the printed numbers:

    /usr/bin/python3 test/reproduce/reference/transcribed-tables.py > test/reproduce/reference/transcribed-tables.json

- The published model bw(m, V) = a·m²V² + b·m² + c·V² + d·m + e, V in GB = MB / 1000
  ([Y11] §6.2, [Y-thesis] eq. 4.2; docs/science.md §3.2).
- [Y11] Table 1 / [Y-thesis] Table 4.2, estimated columns: the peak of i -> bw(i, sum of the
  first i sizes) for D1-D3.
- [Y-thesis] Table 4.3: the time of m simultaneous checkpoints of s MB, s / (bw(m, m s) / m).
- [Y-thesis] §5.4.2: Table 5.1's walk, bw(8, 2055) and bw(8, 2155); eq. 5.3's estimate
  m max s / bw(m, sum s) and the fluid progression (equal shares, re-evaluated at each
  completion) of the printed δ sets; and, by brute force over all 2^8 subsets, the largest
  sum of p of a set that meets eq. 5.3 within T (what no ks_bw, whatever k0, can exceed at
  the first decision).
- [Y-thesis] Table 7.2: sequential greedy in decreasing p (p = 26..75, T = 300 s) at the
  single-application rate of Table 4.3, linear in the size between measured sizes.
"""
import csv
import itertools
import json
import os

A, B, C, D, E = -0.0155, -0.169435, 0.0004, 5.027318, 3.753154
HERE = os.path.dirname(os.path.abspath(__file__))
PUBLISHED = os.path.join(HERE, "..", "..", "..", "data", "published")


def bw(m, v_gb):
    return A * m * m * v_gb * v_gb + B * m * m + C * v_gb * v_gb + D * m + E


def read(name):
    with open(os.path.join(PUBLISHED, name), newline="") as f:
        return list(csv.DictReader(f))


def peaks():
    sizes = {}
    for r in read("y11-section-6-2-datasets.csv"):
        sizes.setdefault(r["dataset"], []).append((int(r["block"]), int(r["size_mb"])))
    out = {}
    for name, blocks in sizes.items():
        total, best = 0, None
        for i, (_, s) in enumerate(sorted(blocks), start=1):
            total += s
            value = bw(i, total / 1000)
            if best is None or value > best[1]:
                best = (i, value)
        out[name] = {"m": best[0], "bw": best[1]}
    return out


def checkpoint_times():
    return {f"{m}x{s}": s / (bw(m, m * s / 1000) / m) for m, s in [(1, 100), (4, 50), (4, 100), (15, 40), (2, 40)]}


def fluid(sizes):
    remaining = list(sizes)
    finish = [None] * len(sizes)
    t = 0.0
    while any(f is None for f in finish):
        live = [k for k, f in enumerate(finish) if f is None]
        m = len(live)
        rate = bw(m, sum(remaining[k] for k in live) / 1000) / m
        step = min(remaining[k] for k in live)
        t += step / rate
        for k in live:
            remaining[k] -= step
            if remaining[k] <= 1e-9 * sizes[k]:
                finish[k] = t
    return finish


def static(sizes):
    return len(sizes) * max(sizes) / bw(len(sizes), sum(sizes) / 1000)


def example():
    rows = read("thesis-section-5-4-2-example.csv")
    p = {int(r["process_index"]): int(r["value"]) for r in rows if r["quantity"] == "p"}
    s = {int(r["process_index"]): int(r["value"]) for r in rows if r["quantity"] == "s"}
    walk, total = [], 0
    for i in range(1, 9):
        total += s[i]
        walk.append(bw(i, total / 1000))
    deltas = {1: [1, 2, 3, 4, 5], 2: [1, 3, 4, 5, 6, 7]}
    best = max(
        (sum(p[i] for i in subset), subset)
        for k in range(1, 9)
        for subset in itertools.combinations(range(1, 9), k)
        if static([s[i] for i in subset]) <= 60
    )
    return {
        "walk": walk,
        "bw8at2155": bw(8, 2.155),
        "static": {str(k): static([s[i] for i in d]) for k, d in deltas.items()},
        "fluid": {str(k): fluid([s[i] for i in d]) for k, d in deltas.items()},
        "bestFeasibleP": best[0],
        "bestFeasibleSet": list(best[1]),
    }


def greedy_at_table_4_3():
    single = sorted((int(r["process_size_mb"]), int(r["checkpoint_time_s"])) for r in read("thesis-table-4-3.csv") if r["checkpoint_kind"] == "single sequential application")

    def rate(size):
        below = [x for x in single if x[0] <= size] or single[:1]
        above = [x for x in single if x[0] >= size] or single[-1:]
        (s0, t0), (s1, t1) = below[-1], above[0]
        r0, r1 = s0 / t0, s1 / t1
        return r0 if s0 == s1 else r0 + (size - s0) / (s1 - s0) * (r1 - r0)

    out = {}
    for size in (10, 50, 100, 200, 400):
        t, count, ctnys = 0.0, 0, 0
        for p in range(75, 25, -1):
            if t + size / rate(size) > 300:
                break
            t += size / rate(size)
            count += 1
            ctnys += p
        out[str(size)] = {"rate": rate(size), "checkpointed": count, "ctnys": ctnys}
    return out


print(json.dumps({"peaks": peaks(), "table43": checkpoint_times(), "example": example(), "table72": greedy_at_table_4_3()}, indent=1))
