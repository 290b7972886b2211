"""Independent reference values for the project's nonlinear forms (docs/science.md §3.5),
computed with scipy.optimize.curve_fit on every run (no row compression, no code shared
with the project).

    /usr/bin/python3 test/fit/reference/nonlinear.py > test/fit/reference/nonlinear-values.json

Debian's python3 with python3-scipy and python3-numpy (apt-get install python3-scipy).

It writes two data sets (run once; the CSVs are committed, rounded so that the CSV holds
every value exactly), then fits the USL and link-capacity forms to each with curve_fit
(trust region reflective, bounds as the project's forms declare them, ftol = xtol = gtol =
1e-15, a 3-point finite-difference Jacobian), and prints the estimates, their standard
errors (√diag of curve_fit's pcov = σ̂²·(JᵀJ)⁻¹ with σ̂² = RSS/(N − q)) and the RSS:

- usl-runs.csv: application sizes 64, 256, 1024 MB, m = 1..20, 3 runs each; bw from a
  curve that rises, bends and falls slowly (not a USL), 700·tanh(90m/700)·exp(−0.01·max(0,
  m − 10))·(1 − 0.02·log2(v/64)), times exp(N(0, 0.03²)).
- link-runs.csv: 64, 512, 2048 MB, m = 1..16, 3 runs each; a rounded minimum of m links of
  105 MB/s and an 820 MB/s server, ((105m)^−4 + (820·(V/0.064)^−0.02)^−4)^(−1/4), times
  exp(N(0, 0.03²)).
"""
import json
import sys

import numpy as np
import scipy
from scipy.optimize import curve_fit

HERE = __file__.rsplit("/", 1)[0]
rng = np.random.default_rng(20250214)


def write(name, rows):
    with open(f"{HERE}/{name}", "w") as f:
        f.write("m,v_gb,bw_mb_per_s\n")
        for m, v, bw in rows:
            f.write(f"{m},{v!r},{bw:.4f}\n")
    return rows


def runs(sizes, ms, curve):
    rows = []
    for size in sizes:
        for m in ms:
            v = m * size / 1000
            for _ in range(3):
                rows.append((m, v, round(curve(m, v) * np.exp(rng.normal(0, 0.03)), 4)))
    return rows


def usl_truth(m, v):
    return 700 * np.tanh(90 * m / 700) * np.exp(-0.01 * max(0, m - 10)) * (1 - 0.02 * np.log2(v / m / 0.064))


def link_truth(m, v):
    return ((105 * m) ** -4 + (820 * (v / 0.064) ** -0.02) ** -4) ** -0.25


data = {
    "usl-runs.csv": write("usl-runs.csv", runs([64, 256, 1024], range(1, 21), usl_truth)),
    "link-runs.csv": write("link-runs.csv", runs([64, 512, 2048], range(1, 17), link_truth)),
}


def size_factor(v, ref, exponent):
    return np.where(v > ref, (np.maximum(v, ref) / ref) ** exponent, 1.0)


def usl(x, lam, sigma, kappa, gamma, v_ref):
    m, v = x
    return lam * m * size_factor(v, v_ref, gamma) / (1 + sigma * (m - 1) + kappa * m * (m - 1))


def link_capacity(x, rate, alpha, capacity, beta, k, v_ref, writer_ref):
    m, v = x
    links = m * rate * size_factor(v / m, writer_ref, alpha)
    server = capacity * size_factor(v, v_ref, beta)
    return (links ** -k + server ** -k) ** (-1 / k)


FORMS = {
    # name: (function, fitted parameter names, lower, upper, start)
    "usl": (usl, ["lambda", "sigma", "kappa", "gamma"], [0, 0, 0, -np.inf], [np.inf] * 4, lambda m, v, y: [y[m == 1].mean(), 0.1, 0.001, 0]),
    "link-capacity": (
        link_capacity,
        ["rate", "alpha", "capacity", "beta", "sharpness"],
        [0, -np.inf, 0, -np.inf, 1],
        [np.inf, np.inf, np.inf, np.inf, 64],
        lambda m, v, y: [y[m == 1].mean(), 0, y.max(), 0, 4],
    ),
}

fits = []
for name, rows in data.items():
    m = np.array([r[0] for r in rows], dtype=float)
    v = np.array([r[1] for r in rows])
    y = np.array([r[2] for r in rows])
    v_ref = v.min()
    writer_ref = (v / m).min()
    for form, (function, names, lower, upper, start) in FORMS.items():
        fixed = [v_ref] if form == "usl" else [v_ref, writer_ref]
        model = lambda x, *p: function(x, *p, *fixed)
        popt, pcov = curve_fit(
            model, (m, v), y, p0=start(m, v, y), bounds=(lower, upper), method="trf",
            ftol=1e-15, xtol=1e-15, gtol=1e-15, max_nfev=100000, jac="3-point",
        )
        residuals = y - model((m, v), *popt)
        fits.append({
            "dataSet": name,
            "form": form,
            "n": len(y),
            "parameters": dict(zip(names, popt.tolist())),
            "fixed": dict(zip(["vRefGb"] if form == "usl" else ["vRefGb", "writerSizeRefGb"], [float(f) for f in fixed])),
            "standardErrors": dict(zip(names, np.sqrt(np.diag(pcov)).tolist())),
            "residualSumOfSquares": float(residuals @ residuals),
        })

json.dump(
    {
        "command": "/usr/bin/python3 test/fit/reference/nonlinear.py > test/fit/reference/nonlinear-values.json",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "fits": fits,
    },
    sys.stdout,
    indent=2,
)
sys.stdout.write("\n")
