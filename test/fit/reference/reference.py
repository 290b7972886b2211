"""Independent reference values for the fit stage's tests (numpy, scipy, mpmath).

    /usr/bin/python3 test/fit/reference/reference.py > test/fit/reference/reference-values.json

- Least squares: numpy.linalg.lstsq (SVD-based) on the raw design of each committed data
  set (make-data.py), in both forms; standard errors from σ̂²·(XᵀX)⁻¹ computed through the
  SVD of X (V·diag(1/s²)·Vᵀ, never forming XᵀX); R², adjusted R², RMSE, MAE, residual
  standard error; t_{0.975, N−p} and the 95 % intervals.
- Student t quantiles and CDF values: mpmath at 50 digits (the truth, from the regularised
  incomplete beta) and scipy.stats.t (recorded to show scipy's own error, ~1e-10).
- docs/science.md §3.4: the curves i ↦ bw(i, Σ_{k≤i} s_k / 1000) of D1–D3 under the published
  coefficients, and their peaks.
"""
import json
import sys

import mpmath as mp
import numpy as np
import scipy
from scipy import stats

mp.mp.dps = 50
HERE = __file__.rsplit("/", 1)[0]

PAPER_TERMS = [("a", 2, 2), ("b", 2, 0), ("c", 0, 2), ("d", 1, 0), ("e", 0, 0)]
FULL_TERMS = [(f"a{i}{j}", i, j) for i in range(3) for j in range(3)]


def t_quantile_mpmath(p, dof):
    """The t with P(T <= t) = p (p taken as the double the tests pass), at 50 digits."""
    p, dof = mp.mpf(float(p)), mp.mpf(dof)
    tail = min(p, 1 - p)
    f = lambda t: mp.betainc(dof / 2, mp.mpf(1) / 2, 0, dof / (dof + t * t), regularized=True) / 2 - tail
    start = mp.mpf(abs(stats.t.ppf(float(p), float(dof))))
    root = mp.findroot(f, start)
    return root if p > mp.mpf(1) / 2 else -root


def t_cdf_mpmath(t, dof):
    t, dof = mp.mpf(float(t)), mp.mpf(dof)
    tail = mp.betainc(dof / 2, mp.mpf(1) / 2, 0, dof / (dof + t * t), regularized=True) / 2
    return 1 - tail if t >= 0 else tail


def fit(path, terms):
    data = np.loadtxt(f"{HERE}/{path}", delimiter=",", skiprows=1)
    m, v, y = data[:, 0], data[:, 1], data[:, 2]
    X = np.column_stack([m**i * v**j for _, i, j in terms])
    beta, _, rank, s = np.linalg.lstsq(X, y, rcond=None)
    n, p = X.shape
    residuals = y - X @ beta
    sse = float(residuals @ residuals)
    dof = n - p
    sigma2 = sse / dof
    _, s_values, vt = np.linalg.svd(X, full_matrices=False)
    covariance = sigma2 * (vt.T / s_values**2) @ vt
    se = np.sqrt(np.diag(covariance))
    sst = float(((y - y.mean()) ** 2).sum())
    r2 = 1 - sse / sst
    t = float(t_quantile_mpmath("0.975", dof))
    column_norms = np.linalg.norm(X, axis=0)
    return {
        "dataSet": path,
        "form": "paper" if len(terms) == 5 else "full",
        "n": int(n),
        "rank": int(rank),
        "rawConditionNumber": float(s_values[0] / s_values[-1]),
        "scaledConditionNumber": float(np.linalg.cond(X / column_norms)),
        "coefficients": {name: float(b) for (name, _, _), b in zip(terms, beta)},
        "standardErrors": {name: float(e) for (name, _, _), e in zip(terms, se)},
        "ci95": {name: [float(b - t * e), float(b + t * e)] for (name, _, _), b, e in zip(terms, beta, se)},
        "rSquared": r2,
        "adjustedRSquared": 1 - (1 - r2) * (n - 1) / dof,
        "rmse": float(np.sqrt(sse / n)),
        "mae": float(np.abs(residuals).mean()),
        "residualStandardError": float(np.sqrt(sigma2)),
        "degreesOfFreedom": int(dof),
        "tQuantile975": t,
    }


def peak_curve(sizes):
    a, b, c, d, e = -0.0155, -0.169435, 0.0004, 5.027318, 3.753154  # docs/science.md §3.2
    cumulative = np.cumsum(np.array(sizes, dtype=float))
    m = np.arange(1, len(sizes) + 1, dtype=float)
    v = cumulative / 1000
    bw = a * m**2 * v**2 + b * m**2 + c * v**2 + d * m + e
    k = int(np.argmax(bw))
    return {"sizesMb": sizes, "curve": [float(x) for x in bw], "peak": {"m": k + 1, "bw": float(bw[k])}}


t_points = [(p, dof) for dof in (1, 2, 3, 5, 10, 30, 71, 1000, 100000) for p in ("0.975", "0.995", "0.5000001", "1e-10", "0.025")]
cdf_points = [(t, dof) for dof in (1, 3, 10, 71, 100000) for t in ("-40", "-1.5", "0", "0.3", "2", "12")]
reference = {
    "command": "/usr/bin/python3 test/fit/reference/reference.py > test/fit/reference/reference-values.json",
    "versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__, "mpmath": mp.__version__},
    "fits": [fit(path, terms) for path in ("azur-like-means.csv", "large-v-means.csv", "replicated-runs.csv") for terms in (PAPER_TERMS, FULL_TERMS)],
    "tQuantiles": [
        {"p": float(p), "dof": dof, "mpmath": float(t_quantile_mpmath(p, dof)), "scipy": float(stats.t.ppf(float(p), dof))} for p, dof in t_points
    ],
    "tCdf": [{"t": float(t), "dof": dof, "mpmath": float(t_cdf_mpmath(t, dof)), "scipy": float(stats.t.cdf(float(t), dof))} for t, dof in cdf_points],
    "peaks": {
        "D1": peak_curve([105, 451, 135, 241, 329, 172, 211, 281, 117, 494, 113, 301]),
        "D2": peak_curve([20, 390, 57, 129, 425, 13, 330, 19, 211, 120, 493, 312]),
        "D3": peak_curve([412, 272, 320, 231, 455, 317, 401, 395, 429, 492, 201, 212]),
    },
}
json.dump(reference, sys.stdout, indent=2)
sys.stdout.write("\n")
