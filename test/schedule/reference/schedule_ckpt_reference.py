#!/usr/bin/env python3
"""Independent reference for ScheduleCkpt (docs/science.md §4.2-§4.4), written from docs/science.md only,
without looking at the TypeScript: naive on purpose (itertools.combinations, every set
re-estimated from scratch, no pruning, no typed arrays).

It computes, for the worked example of test/schedule/worked-example.test.ts and for the
identical-size campaign, what ScheduleCkpt and sequential greedy do under the published
model (paper coefficients, strict fitted-domain policy), and prints JSON. The output is
committed next to this script as schedule_ckpt_reference.json; regenerate with

    /usr/bin/python3 test/schedule/reference/schedule_ckpt_reference.py \
        > test/schedule/reference/schedule_ckpt_reference.json
"""
import itertools
import json
import math

# docs/science.md §3.2, published coefficients (V in GB = MB / 1000); fitted domain m <= 18, V <= 3.42 GB.
A, B, C, D, E = -0.0155, -0.169435, 0.0004, 5.027318, 3.753154
M_MAX, V_MAX = 18, 3.42


def bw(m, v_gb):
    """Aggregated bandwidth MB/s, or None when infeasible (strict: above the box, or <= 0)."""
    if m > M_MAX or v_gb > V_MAX:
        return None
    value = A * m * m * v_gb * v_gb + B * m * m + C * v_gb * v_gb + D * m + E
    return value if value > 0 else None


def static_time(sizes):
    """[Y11] eq. 2: m * max s / bw(m, sum s)."""
    if not sizes:
        return 0.0
    b = bw(len(sizes), sum(sizes) / 1000)
    return math.inf if b is None else max(sizes) * len(sizes) / b


def fluid_time(sizes):
    """docs/science.md §4.2 fluid progression, rate re-evaluated at each completion."""
    s = sorted(sizes)
    t, previous = 0.0, 0.0
    for k, r in enumerate(s):
        if r > previous:
            running = len(s) - k
            volume = sum(x - previous for x in s[k:])
            b = bw(running, volume / 1000)
            if b is None:
                return math.inf
            t += (r - previous) * running / b
            previous = r
    return t


def index_bw_max(waiting, ckpt_remaining, size):
    m, volume = len(ckpt_remaining), sum(ckpt_remaining)
    current = E if m == 0 else bw(m, volume / 1000)
    if current is None:
        current = -math.inf
    chosen = []
    for i in waiting:
        nxt = bw(m + 1, (volume + size[i]) / 1000)
        if nxt is None or not nxt >= current:
            break
        chosen.append(i)
        m, volume, current = m + 1, volume + size[i], nxt
    return chosen


def ks_bw(candidates, ckpt_remaining, budget, k0, estimate, size, p):
    best, best_positions = None, []
    for k in range(0, min(k0, len(candidates)) + 1):
        for subset in itertools.combinations(range(len(candidates)), k):
            selection = list(ckpt_remaining) + [size[candidates[j]] for j in subset]
            if estimate(selection) > budget:
                continue
            value = sum(p[candidates[j]] for j in subset)
            positions = list(subset)
            for position in range(len(candidates)):
                if position in subset:
                    continue
                i = candidates[position]
                if estimate(selection + [size[i]]) <= budget:
                    selection.append(size[i])
                    value += p[i]
                    positions.append(position)
            if best is None or value > best:
                best, best_positions = value, sorted(positions)
    return [candidates[j] for j in best_positions], best


def criterion_order(p, size, criterion):
    key = [p[i] if criterion == "p" else p[i] / size[i] for i in range(len(p))]
    return sorted(range(len(p)), key=lambda i: (-key[i], i))


def schedule_ckpt(p, size, deadline, k0, criterion, estimator):
    estimate = static_time if estimator == "static" else fluid_time
    n = len(p)
    waiting = criterion_order(p, size, criterion)
    start, finish = [None] * n, [None] * n
    remaining = {}
    running = []
    t = 0.0
    iterations = 0
    decisions = []
    while True:
        iterations += 1
        ckpt = [remaining[j] for j in running]
        candidates = index_bw_max(waiting, ckpt, size)
        delta, value = ks_bw(candidates, ckpt, deadline - t, k0, estimate, size, p)
        decisions.append({"atS": t, "candidates": candidates, "started": delta})
        for i in delta:
            start[i] = t
            remaining[i] = size[i]
            running.append(i)
            waiting.remove(i)
        if not delta and not running:
            break
        m = len(running)
        b = bw(m, sum(remaining[j] for j in running) / 1000)
        if b is None:
            raise RuntimeError("stall")  # cannot happen in these examples
        smallest = min(remaining[j] for j in running)
        t += smallest * m / b
        still = []
        for j in running:
            remaining[j] -= smallest
            if remaining[j] <= 1e-10 * size[j]:
                finish[j] = t
            else:
                still.append(j)
        running = still
    done = [f is not None and f <= deadline * (1 + 1e-9) for f in finish]
    return {
        "start": start,
        "finish": finish,
        "checkpointed": done,
        "ctnys": sum(p[i] for i in range(n) if done[i]),
        "rctnys": sum(p[i] for i in range(n) if not done[i]),
        "iterations": iterations,
        "decisions": decisions,
    }


def sequential_greedy(p, size, deadline):
    """docs/science.md §4.4, rule 'stop': decreasing p, one at a time at bw(1, s)."""
    t, count, ctnys = 0.0, 0, 0
    for i in criterion_order(p, size, "p"):
        duration = size[i] / bw(1, size[i] / 1000)
        if t + duration > deadline:
            break
        t += duration
        count += 1
        ctnys += p[i]
    return {"checkpointed": count, "ctnys": ctnys}


# The worked example: 12 applications, T = 80 s, picked among random instances as the one
# where k0, the criterion and the estimator change the outcome most (the time constraint
# binds from the first decision).
WORKED_P = [550, 700, 360, 670, 910, 760, 630, 510, 970, 780, 740, 740]
WORKED_SIZE = [370, 220, 80, 400, 240, 350, 100, 320, 450, 390, 200, 130]
WORKED_DEADLINE = 80.0

result = {"worked": {"p": WORKED_P, "sizeMb": WORKED_SIZE, "deadlineS": WORKED_DEADLINE, "runs": []}, "identical": [], "estimates": []}
# Time estimates of a few sets (MB), both estimators.
for sizes in ([300], [100, 300], [250, 250, 250], [80, 120, 400, 450, 90], [15] * 18, [684] * 5, [120, 90, 240, 300, 500, 410, 150, 330]):
    result["estimates"].append({"sizesMb": sizes, "staticS": static_time(sizes), "fluidS": fluid_time(sizes)})
for estimator in ("static", "fluid"):
    for criterion in ("p", "density"):
        for k0 in (0, 1, 2, 3):
            run = schedule_ckpt(WORKED_P, WORKED_SIZE, WORKED_DEADLINE, k0, criterion, estimator)
            run.update({"estimator": estimator, "criterion": criterion, "k0": k0})
            result["worked"]["runs"].append(run)

for size_mb in (10, 50, 100, 200, 400):
    p = list(range(26, 76))
    sizes = [size_mb] * 50
    heuristic = schedule_ckpt(p, sizes, 300.0, 0, "p", "static")
    result["identical"].append({
        "sizeMb": size_mb,
        "sequentialGreedy": sequential_greedy(p, sizes, 300.0),
        "scheduleCkpt": {"checkpointed": sum(heuristic["checkpointed"]), "ctnys": heuristic["ctnys"]},
    })

print(json.dumps(result, indent=1))
