#!/usr/bin/python3
# Reference values for the failure laws (pipeline/place/laws), by mpmath quadrature at
# 50 significant digits. Regenerate with:
#
#     /usr/bin/python3 test/place/reference/laws.py > test/place/reference/laws.json
#
# Every quantity (cdf, survival, pdf, ∫_0^t s f(s) ds, ∫_t^∞ s f(s) ds, ∫_a^b s f(s) ds, the
# mean) is computed by mp.quad (tanh-sinh) of the density, split at the evaluation points; each is
# then cross-checked against the law's closed form in mpmath (gammainc, ncdf, exact
# sums) and the script stops if the two differ by more than 1e-30 relative, so the
# values written are right to far more digits than the 1e-9 the tests ask for.
# Generated with Python 3.11.2 and mpmath 1.2.1, then with Python 3.11.7 and mpmath 1.3.0 when the
# gamma cases were added (every earlier case came out identical; the version is recorded in the JSON).
import json
import sys

import mpmath as mp

mp.mp.dps = 50
HOUR = mp.mpf(3600)


def weibull(shape, scale):
    k, lam = mp.mpf(shape), mp.mpf(scale)
    pdf = lambda t: (k / lam) * (t / lam) ** (k - 1) * mp.exp(-((t / lam) ** k)) if t > 0 else mp.mpf(0)
    a = 1 + 1 / k
    closed = {
        "cdf": lambda t: -mp.expm1(-((t / lam) ** k)),
        "survival": lambda t: mp.exp(-((t / lam) ** k)),
        "lower": lambda t: lam * mp.gammainc(a, 0, (t / lam) ** k),
        "upper": lambda t: lam * mp.gammainc(a, (t / lam) ** k, mp.inf),
        "mean": lam * mp.gamma(a),
    }
    return pdf, closed


def exponential(rate):
    r = mp.mpf(rate)
    pdf = lambda t: r * mp.exp(-r * t) if t >= 0 else mp.mpf(0)
    closed = {
        "cdf": lambda t: -mp.expm1(-r * t),
        "survival": lambda t: mp.exp(-r * t),
        "lower": lambda t: (1 - mp.exp(-r * t) * (1 + r * t)) / r,
        "upper": lambda t: mp.exp(-r * t) * (t + 1 / r),
        "mean": 1 / r,
    }
    return pdf, closed


def hyperexp(probabilities, rates):
    ps = [mp.mpf(p) for p in probabilities]
    total = sum(ps)
    ps = [p / total for p in ps]
    rs = [mp.mpf(r) for r in rates]
    pdf = lambda t: sum(p * r * mp.exp(-r * t) for p, r in zip(ps, rs)) if t >= 0 else mp.mpf(0)
    closed = {
        "cdf": lambda t: sum(p * -mp.expm1(-r * t) for p, r in zip(ps, rs)),
        "survival": lambda t: sum(p * mp.exp(-r * t) for p, r in zip(ps, rs)),
        "lower": lambda t: sum(p * (1 - mp.exp(-r * t) * (1 + r * t)) / r for p, r in zip(ps, rs)),
        "upper": lambda t: sum(p * mp.exp(-r * t) * (t + 1 / r) for p, r in zip(ps, rs)),
        "mean": sum(p / r for p, r in zip(ps, rs)),
    }
    return pdf, closed


def lognormal(mu, sigma):
    m, s = mp.mpf(mu), mp.mpf(sigma)
    pdf = lambda t: mp.exp(-((mp.log(t) - m) ** 2) / (2 * s * s)) / (t * s * mp.sqrt(2 * mp.pi)) if t > 0 else mp.mpf(0)
    mean = mp.exp(m + s * s / 2)
    closed = {
        "cdf": lambda t: mp.ncdf((mp.log(t) - m) / s),
        "survival": lambda t: mp.ncdf(-(mp.log(t) - m) / s),
        "lower": lambda t: mean * mp.ncdf((mp.log(t) - m - s * s) / s),
        "upper": lambda t: mean * mp.ncdf(-(mp.log(t) - m - s * s) / s),
        "mean": mean,
    }
    return pdf, closed


def gamma(shape, scale):
    k, th = mp.mpf(shape), mp.mpf(scale)
    pdf = lambda t: t ** (k - 1) * mp.exp(-t / th) / (mp.gamma(k) * th ** k) if t > 0 else mp.mpf(0)
    closed = {
        "cdf": lambda t: mp.gammainc(k, 0, t / th, regularized=True),
        "survival": lambda t: mp.gammainc(k, t / th, mp.inf, regularized=True),
        "lower": lambda t: k * th * mp.gammainc(k + 1, 0, t / th, regularized=True),
        "upper": lambda t: k * th * mp.gammainc(k + 1, t / th, mp.inf, regularized=True),
        "mean": k * th,
    }
    return pdf, closed


def empirical(durations):
    # Linearly interpolated ECDF through (0, 0) and (v_j, #{x <= v_j}/m): piecewise-constant density.
    xs = sorted(mp.mpf(x) for x in durations)
    m = len(xs)
    knots = [mp.mpf(0)]
    counts = [0]
    for x in xs:
        if x == knots[-1]:
            counts[-1] += 1
        else:
            knots.append(x)
            counts.append(counts[-1] + 1)
    segments = [(knots[j - 1], knots[j], mp.mpf(counts[j] - counts[j - 1]) / m / (knots[j] - knots[j - 1])) for j in range(1, len(knots))]

    def pdf(t):
        for a, b, d in segments:
            if a < t <= b:
                return d
        return mp.mpf(0)

    def lower(t):
        return sum(d * (min(t, b) ** 2 - a ** 2) / 2 for a, b, d in segments if t > a)

    def cdf(t):
        return sum(d * (min(t, b) - a) for a, b, d in segments if t > a)

    mean = lower(knots[-1])
    closed = {"cdf": cdf, "survival": lambda t: 1 - cdf(t), "lower": lower, "upper": lambda t: mean - lower(t), "mean": mean}
    return pdf, closed, knots


def quad(pdf, a, b, breaks, weight):
    # A Weibull density with shape < 1 has an algebraic singularity at t = 0: the piece
    # starting at 0 is integrated in s = ln t, where it becomes an exponentially decaying
    # tail that tanh-sinh handles to full precision. The other pieces stay in t (in ln t, an
    # infinite upper end would make mpmath evaluate exp(exp(huge))).
    inner = [x for x in breaks if a < x < b]
    total = mp.mpf(0)
    if a == 0:
        first = inner[0] if inner else b
        if first == mp.inf:
            first, inner = mp.mpf(1), [mp.mpf(1)]
        else:
            inner = inner[1:]
        total += mp.quad(lambda s: weight(mp.exp(s)) * pdf(mp.exp(s)) * mp.exp(s), [-mp.inf, mp.log(first)])
        a = first
    if a < b:
        total += mp.quad(lambda t: weight(t) * pdf(t), [a] + inner + [b])
    return total


def check(name, value, closed_value):
    scale = max(abs(closed_value), mp.mpf(10) ** -300)
    if abs(value - closed_value) > mp.mpf(10) ** -30 * scale:
        sys.exit(f"{name}: quadrature {value} vs closed form {closed_value}")


def case(label, spec, pdf, closed, points, intervals, breaks=()):
    sys.stderr.write(f"{label}\n")
    breaks = sorted(set([mp.mpf(x) for x in breaks] + [mp.mpf(t) for t in points]))
    one = lambda t: 1
    ident = lambda t: t
    mean = quad(pdf, mp.mpf(0), mp.inf, breaks, ident)
    check(f"{label} mean", mean, closed["mean"])
    rows = []
    for t in points:
        t = mp.mpf(t)
        cdf = quad(pdf, mp.mpf(0), t, breaks, one)
        survival = quad(pdf, t, mp.inf, breaks, one)
        lower = quad(pdf, mp.mpf(0), t, breaks, ident)
        upper = quad(pdf, t, mp.inf, breaks, ident)
        check(f"{label} cdf({t})", cdf, closed["cdf"](t))
        check(f"{label} survival({t})", survival, closed["survival"](t))
        check(f"{label} lower({t})", lower, closed["lower"](t))
        check(f"{label} upper({t})", upper, closed["upper"](t))
        rows.append({"t": float(t), "cdf": f(cdf), "survival": f(survival), "pdf": f(pdf(t)), "lower": f(lower), "upper": f(upper)})
    between = []
    for a, b in intervals:
        a, b = mp.mpf(a), mp.mpf(b)
        value = quad(pdf, a, b, breaks, ident)
        check(f"{label} between({a}, {b})", value, closed["lower"](b) - closed["lower"](a))
        probability = quad(pdf, a, b, breaks, one)
        between.append({"a": float(a), "b": float(b), "partialExpectation": f(value), "probability": f(probability)})
    return {"label": label, "spec": spec, "mean": f(mean), "points": rows, "between": between}


def f(x):
    return float(mp.nstr(x, 20))


BKT_P = [0.398, 0.305, 0.298]
BKT_MU = [0.031, 11.566, 1.322]
cases = []
cases.append(case("exponential rate 1e-4", {"kind": "exponential", "ratePerSecond": 1e-4}, *exponential(1e-4),
                  [1, 100, 1e4, 5e4, 3e5], [(0, 100), (1e4, 1.1e4), (5e4, 3e5), (3600, 3660)]))
bkt_scale = 1.682 * 3600
cases.append(case("Weibull [BKT] availability (0.431, 1.682 h)", {"kind": "weibull", "shape": 0.431, "scaleSeconds": bkt_scale},
                  *weibull(0.431, bkt_scale), [0.5, 60, 3600, bkt_scale, 36000, 3.6e5, 2e6],
                  [(0, 60), (60, 3600), (3600, 7200), (36000, 3.6e5), (3.6e5, 2e6), (18000, 18060)]))
cases.append(case("Weibull shape 2.5", {"kind": "weibull", "shape": 2.5, "scaleSeconds": 1000}, *weibull(2.5, 1000),
                  [1, 100, 1000, 3000, 5000], [(0, 100), (900, 1100), (2000, 5000)]))
cases.append(case("Weibull shape 0.2", {"kind": "weibull", "shape": 0.2, "scaleSeconds": 100}, *weibull(0.2, 100),
                  [1e-3, 1, 100, 1e5, 1e8], [(1, 100), (100, 1e5), (1e5, 1e8)]))
cases.append(case("Weibull [BKT] lifetime (0.58, 137 d)", {"kind": "weibull", "shape": 0.58, "scaleSeconds": 137 * 86400},
                  *weibull(0.58, 137 * 86400), [3600, 86400, 137 * 86400, 1e9], [(0, 86400), (86400, 30 * 86400)]))
bkt_p_norm = [p / sum(BKT_P) for p in BKT_P]
cases.append(case("hyper-exponential [BKT] μ as rates per hour", {"kind": "hyperexponential", "probabilities": bkt_p_norm,
                  "ratesPerSecond": [m / 3600 for m in BKT_MU], "reading": "rate"},
                  *hyperexp(BKT_P, [mp.mpf(m) / HOUR for m in BKT_MU]), [1, 60, 3600, 36000, 1e6, 4e6],
                  [(0, 60), (60, 3600), (3600, 36000), (1e6, 4e6)]))
cases.append(case("hyper-exponential [BKT] μ as means in hours", {"kind": "hyperexponential", "probabilities": bkt_p_norm,
                  "ratesPerSecond": [1 / (m * 3600) for m in BKT_MU], "reading": "mean"},
                  *hyperexp(BKT_P, [1 / (mp.mpf(m) * HOUR) for m in BKT_MU]), [1, 60, 3600, 36000, 1e6],
                  [(0, 60), (60, 3600), (3600, 36000)]))
cases.append(case("log-normal (8.5, 1.2)", {"kind": "lognormal", "mu": 8.5, "sigma": 1.2}, *lognormal(8.5, 1.2),
                  [10, 1000, 5000, 1e5, 1e7], [(0, 1000), (1000, 5000), (5000, 5050), (1e5, 1e7)]))
cases.append(case("log-normal (2, 3)", {"kind": "lognormal", "mu": 2, "sigma": 3}, *lognormal(2, 3),
                  [1e-3, 1, 100, 1e5, 1e9], [(0, 1), (1, 100), (1e5, 1e9)]))
g5k_scale = 94.35 * 3600  # the FTA fit of G5k06's availability (data/availability/fta-fitted-models.csv)
cases.append(case("gamma G5k06 availability fit (0.34, 94.35 h)", {"kind": "gamma", "shape": 0.34, "scaleSeconds": g5k_scale},
                  *gamma(0.34, g5k_scale), [0.5, 60, 3600, 36000, 3.6e5, 4e6],
                  [(0, 60), (60, 3600), (36000, 3.6e5), (3.6e5, 4e6)]))
cases.append(case("gamma shape 2.5", {"kind": "gamma", "shape": 2.5, "scaleSeconds": 1000}, *gamma(2.5, 1000),
                  [1, 100, 2500, 8000, 30000], [(0, 100), (2000, 3000), (8000, 30000)]))
emp_durations = [120, 300, 300, 900, 3600, 7200, 20000]
emp_pdf, emp_closed, emp_knots = empirical(emp_durations)
cases.append(case("empirical (7 durations)", {"kind": "empirical", "durationsSeconds": emp_durations}, emp_pdf, emp_closed,
                  [60, 300, 1000, 7200, 15000], [(0, 120), (100, 1000), (1000, 15000), (15000, 19000)], breaks=emp_knots))

json.dump({"generator": "test/place/reference/laws.py (mpmath %s, dps 50)" % mp.__version__, "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
