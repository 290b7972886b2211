#!/usr/bin/env python3
# Reference values of [BKT]'s objective (docs/science.md §6.1.5) by mpmath quadrature at 40
# significant digits, straight from its definition, for fixed schedules:
#
#   Eq. (1): E(τ_last, τ_next) = ∫_{a}^{b} [K + α (t − a)] f(t) dt, a = ρ_i, b = ρ_{i+1},
#            K = σ_{i+1} (the overhead including the checkpoint that closes the interval);
#   Eq. (4) "as-printed" for the first interval: ∫_{t0}^{ρ_1} [c + α (t − ρ_1)] f(t) dt;
#   a time offset d: every ρ shifted by d (the law's clock started d before the first slice).
#
# Regenerate with a Python that has mpmath:
#     python3 test/place/reference/bkt_objective.py > test/place/reference/bkt-objective.json
import json
import mpmath as mp

mp.mp.dps = 40
H = mp.mpf(3600)


def weibull(k, lam):
    k, lam = mp.mpf(k), mp.mpf(lam)
    return lambda t: (k / lam) * (t / lam) ** (k - 1) * mp.exp(-((t / lam) ** k)) if t > 0 else mp.mpf(0)


def exponential(rate):
    rate = mp.mpf(rate)
    return lambda t: rate * mp.exp(-rate * t) if t >= 0 else mp.mpf(0)


def hyperexp(ps, means):
    ps = [mp.mpf(p) for p in ps]
    total = sum(ps)
    ps = [p / total for p in ps]
    rates = [1 / mp.mpf(m) for m in means]
    return lambda t: sum(p * r * mp.exp(-r * t) for p, r in zip(ps, rates)) if t >= 0 else mp.mpf(0)


LAWS = {
    "weibull:shape=0.431,scale=1.682,unit=h": weibull(0.431, 1.682 * 3600),
    "exponential:rate=0.0002": exponential(0.0002),
    "hyperexp:p=0.398/0.305/0.298,mu=0.031/11.566/1.322,unit=h,param=mean": hyperexp([0.398, 0.305, 0.298], [0.031 * 3600, 11.566 * 3600, 1.322 * 3600]),
}

CASES = [
    {"slices": [3600, 7200, 1800, 5400], "costs": [120, 300, 60, 240], "checkpoints": [2, 4]},
    {"slices": [3600, 7200, 1800, 5400], "costs": [120, 300, 60, 240], "checkpoints": [1, 2, 3, 4]},
    {"slices": [9000], "costs": [180], "checkpoints": [1]},
    {"slices": [2000, 2000, 2000, 2000, 2000, 2000], "costs": [60, 120, 180, 60, 120, 180], "checkpoints": [3, 6]},
]


def objective(f, slices, costs, checkpoints, alpha, offset, eq4):
    rho = [mp.mpf(offset)]
    sigma = [mp.mpf(0)]
    work = mp.mpf(offset)
    overhead = mp.mpf(0)
    prev = 0
    for j in checkpoints:
        work += sum(mp.mpf(p) for p in slices[prev:j])
        overhead += mp.mpf(costs[j - 1])
        sigma.append(overhead)
        rho.append(work + overhead)
        prev = j
    total = mp.mpf(0)
    for i in range(len(rho) - 1):
        a, b, K = rho[i], rho[i + 1], sigma[i + 1]
        origin = b if (i == 0 and eq4 == "as-printed") else a
        g = lambda t: (K + alpha * (t - origin)) * f(t)
        total += mp.quad(g, [a, (a + b) / 2, b]) if a > 0 else mp.quad(g, [a, min(b, mp.mpf(1)), (a + b) / 2, b])
    return total


out = []
for law, f in LAWS.items():
    for case in CASES:
        for alpha in (1, 0.5):
            for offset in (0, 900):
                for eq4 in ("consistent", "as-printed"):
                    value = objective(f, case["slices"], case["costs"], case["checkpoints"], mp.mpf(alpha), offset, eq4)
                    out.append({"law": law, **case, "alpha": alpha, "timeOffsetSeconds": offset, "eq4": eq4, "bktSeconds": mp.nstr(value, 25)})
print(json.dumps({"generator": f"mpmath {mp.__version__}, quadrature at {mp.mp.dps} digits", "cases": out}, indent=1))
