#!/usr/bin/python3
# Reference values for the derived failure laws (pipeline/place/laws/residual.ts and
# competing.ts): a base law's residual law at an age, and competing risks (the smallest of
# independent times to failure), by mpmath quadrature at 50 significant digits. Regenerate with:
#
#     /usr/bin/python3 test/place/reference/derived_laws.py > test/place/reference/derived-laws.json
#
# Residual law at age a of a law with density f and survival S: its density is f(a + s) / S(a),
# so every quantity is a quadrature of the base density over [a, a + t] (or [a + t, ∞)).
# Competing risks: survival Π S_i, density Σ_i f_i Π_{j≠i} S_j; each quantity is a quadrature of
# that density, and the mean is also checked against ∫_0^∞ Π S_i to 1e-30.
import json
import sys

import mpmath as mp

mp.mp.dps = 50
HOUR = mp.mpf(3600)
DAY = 24 * HOUR


def weibull(shape, scale):
    k, lam = mp.mpf(shape), mp.mpf(scale)
    pdf = lambda t: (k / lam) * (t / lam) ** (k - 1) * mp.exp(-((t / lam) ** k)) if t > 0 else mp.mpf(0)
    survival = lambda t: mp.exp(-((t / lam) ** k)) if t > 0 else mp.mpf(1)
    return pdf, survival


def exponential(rate):
    r = mp.mpf(rate)
    return (lambda t: r * mp.exp(-r * t) if t >= 0 else mp.mpf(0)), (lambda t: mp.exp(-r * t) if t > 0 else mp.mpf(1))


def hyperexp(probabilities, rates):
    ps = [mp.mpf(p) for p in probabilities]
    ps = [p / sum(ps) for p in ps]
    rs = [mp.mpf(r) for r in rates]
    pdf = lambda t: sum(p * r * mp.exp(-r * t) for p, r in zip(ps, rs)) if t >= 0 else mp.mpf(0)
    survival = lambda t: sum(p * mp.exp(-r * t) for p, r in zip(ps, rs)) if t > 0 else mp.mpf(1)
    return pdf, survival


def residual(law, age):
    pdf, survival = law
    a = mp.mpf(age)
    s_a = survival(a)
    return (lambda t: pdf(a + t) / s_a if t >= 0 else mp.mpf(0)), (lambda t: survival(a + t) / s_a if t > 0 else mp.mpf(1))


def competing(*laws):
    def survival(t):
        out = mp.mpf(1)
        for _, s in laws:
            out *= s(t)
        return out

    def pdf(t):
        if t < 0:
            return mp.mpf(0)
        total = mp.mpf(0)
        for i, (f, _) in enumerate(laws):
            term = f(t)
            for j, (_, s) in enumerate(laws):
                if j != i:
                    term *= s(t)
            total += term
        return total

    return pdf, survival


def quad(fn, a, b, breaks):
    # Integrands with an algebraic singularity at 0 (Weibull shape < 1) are integrated in s = ln t
    # on the piece that starts at 0, where tanh-sinh handles them to full precision.
    inner = [x for x in breaks if a < x < b]
    total = mp.mpf(0)
    if a == 0:
        first = inner[0] if inner else b
        if first == mp.inf:
            first, inner = mp.mpf(1), [mp.mpf(1)]
        else:
            inner = inner[1:]
        total += mp.quad(lambda s: fn(mp.exp(s)) * mp.exp(s), [-mp.inf, mp.log(first)])
        a = first
    if a < b:
        total += mp.quad(fn, [a] + inner + [b])
    return total


def f(x):
    return float(mp.nstr(x, 20))


def case(label, spec, law, points, breaks=()):
    sys.stderr.write(f"{label}\n")
    pdf, survival = law
    breaks = sorted(set([mp.mpf(x) for x in breaks] + [mp.mpf(t) for t in points] + [mp.mpf(10) ** k for k in range(0, 12)]))
    mean = quad(lambda t: t * pdf(t), mp.mpf(0), mp.inf, breaks)
    by_survival = quad(survival, mp.mpf(0), mp.inf, breaks)
    if abs(mean - by_survival) > mp.mpf(10) ** -30 * mean:
        sys.exit(f"{label}: mean {mean} vs ∫S {by_survival}")
    rows = []
    for t in points:
        t = mp.mpf(t)
        cdf = quad(pdf, mp.mpf(0), t, breaks)
        upper_mass = quad(pdf, t, mp.inf, breaks)
        if abs(1 - cdf - survival(t)) > mp.mpf(10) ** -30 or abs(upper_mass - survival(t)) > mp.mpf(10) ** -30:
            sys.exit(f"{label}: cdf({t}) {cdf} vs 1 − S {1 - survival(t)}")
        rows.append({
            "t": float(t),
            "cdf": f(cdf),
            "survival": f(survival(t)),
            "pdf": f(pdf(t)),
            "lower": f(quad(lambda s: s * pdf(s), mp.mpf(0), t, breaks)),
            "upper": f(quad(lambda s: s * pdf(s), t, mp.inf, breaks)),
        })
    return {"label": label, "spec": spec, "mean": f(mean), "points": rows}


AVAILABILITY = {"kind": "weibull", "shape": 0.431, "scaleSeconds": 1.682 * 3600}
LIFETIME = {"kind": "weibull", "shape": 0.58, "scaleSeconds": 137 * 86400}
P = [0.398, 0.305, 0.298]
UNAVAILABILITY = {"kind": "hyperexponential", "probabilities": [p / sum(P) for p in P], "ratesPerSecond": [1 / (m * 3600) for m in [0.031, 11.566, 1.322]], "reading": "mean"}
availability = weibull(0.431, 1.682 * 3600)
lifetime = weibull(0.58, 137 * 86400)
unavailability = hyperexp(UNAVAILABILITY["probabilities"], UNAVAILABILITY["ratesPerSecond"])
POINTS = [1, 60, 3600, 36000, 3.6e5, 3.6e6]

cases = [
    case("[BKT] availability Weibull at age 1 h", {"kind": "residual", "base": AVAILABILITY, "ageSeconds": 3600}, residual(availability, 3600), POINTS),
    case("[BKT] availability Weibull at age 100 h", {"kind": "residual", "base": AVAILABILITY, "ageSeconds": 3.6e5}, residual(availability, 3.6e5), POINTS),
    case("[BKT] lifetime Weibull at age 500 h", {"kind": "residual", "base": LIFETIME, "ageSeconds": 1.8e6}, residual(lifetime, 1.8e6), POINTS + [3.6e7]),
    case("[BKT] unavailability hyper-exponential (means) at age 2 h", {"kind": "residual", "base": UNAVAILABILITY, "ageSeconds": 7200}, residual(unavailability, 7200), POINTS),
    case("competing: [BKT] availability and lifetime, both at age 0", {"kind": "competing", "laws": [AVAILABILITY, LIFETIME]}, competing(availability, lifetime), POINTS),
    case(
        "competing: [BKT] availability at age 1 h and lifetime at age 500 h",
        {"kind": "competing", "laws": [{"kind": "residual", "base": AVAILABILITY, "ageSeconds": 3600}, {"kind": "residual", "base": LIFETIME, "ageSeconds": 1.8e6}]},
        competing(residual(availability, 3600), residual(lifetime, 1.8e6)),
        POINTS,
    ),
    case("competing: exponential (mean 10 h) and Weibull (2.5, 1000 s)", {"kind": "competing", "laws": [{"kind": "exponential", "ratePerSecond": 1 / 36000}, {"kind": "weibull", "shape": 2.5, "scaleSeconds": 1000}]},
         competing(exponential(1 / 36000), weibull(2.5, 1000)), [1, 100, 1000, 3000]),
]

json.dump({"generator": f"test/place/reference/derived_laws.py (mpmath {mp.__version__}, dps 50)", "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
