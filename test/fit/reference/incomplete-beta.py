"""Reference values of ln B(a, b) and of the regularised incomplete beta I_x(a, b), at 50 digits
(mpmath), for test/stats/incomplete-beta.test.ts:

    python3 test/fit/reference/incomplete-beta.py > test/fit/reference/incomplete-beta-values.json

Each I_x case gives x and y = 1 − x as the doubles the test passes; the truth is taken at the
one the test means exactly (`exact`: "x" — y is 1 − x rounded, the truth is at x; "y" — x is
1 − y rounded, the truth is at 1 − y, as the t distribution passes them).
"""
import json

import mpmath as mp

mp.mp.dps = 50

LOG_BETA = [(0.5, 0.5), (2, 3), (19.5, 0.5), (20, 0.5), (25, 0.5), (50, 1), (500, 0.5), (50000, 0.5), (0.5, 50000), (30, 40), (100000, 3.5), (20, 20), (7.25, 3.5)]

# (x or y, a, b, which one is exact)
INCOMPLETE = [
    (0.2, 3.5, 7.25, "x"),
    (0.7, 3.5, 7.25, "x"),
    (0.001, 50, 0.5, "x"),
    (0.02, 0.5, 50, "x"),
    (1e-7, 1, 100000, "x"),
    (1e-7, 100000, 1, "y"),
    (1e-9, 50000, 0.5, "y"),
    (0.3, 60, 45.5, "x"),
    (0.62, 60, 45.5, "x"),
    (0.3, 0.5, 0.5, "x"),
    (0.005, 2, 200, "x"),
]


def regularized_incomplete_beta(x, a, b):
    """DLMF 8.17.8: I_x(a, b) = x^a (1 − x)^b / (a B(a, b)) · 2F1(a + b, 1; a + 1; x), on the side x < a/(a + b)
    where the series falls fastest, else 1 − I_{1−x}(b, a) (8.17.4); mpmath's betainc gives up on a, b ~ 10^5."""
    if x > a / (a + b):
        return 1 - regularized_incomplete_beta(1 - x, b, a)
    return x**a * (1 - x) ** b / (a * mp.beta(a, b)) * mp.hyp2f1(a + b, 1, a + 1, x, maxterms=10**7)


def incomplete(value, a, b, exact):
    v = mp.mpf(value)
    x = v if exact == "x" else 1 - v
    truth = regularized_incomplete_beta(x, mp.mpf(a), mp.mpf(b))
    xd = value if exact == "x" else 1 - value
    yd = 1 - value if exact == "x" else value
    return {"x": float(xd), "y": float(yd), "a": a, "b": b, "exact": exact, "mpmath": float(truth)}


print(
    json.dumps(
        {
            "command": "python3 test/fit/reference/incomplete-beta.py > test/fit/reference/incomplete-beta-values.json",
            "mpmath": mp.__version__,
            "logBeta": [{"a": a, "b": b, "mpmath": float(mp.log(mp.beta(mp.mpf(a), mp.mpf(b))))} for a, b in LOG_BETA],
            "incompleteBeta": [incomplete(*case) for case in INCOMPLETE],
        },
        indent=2,
    )
)
