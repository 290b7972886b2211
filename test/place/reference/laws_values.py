#!/usr/bin/python3
# The mpmath values quoted in test/place/laws-values.test.ts (40 digits, printed to 20).
# Run: python3 test/place/reference/laws_values.py
import mpmath as mp

mp.mp.dps = 40
v = lambda name, x: print(f"{name} = {mp.nstr(x, 20)}")

# Competing risks of exponentials of rates 1/7200 and 1/3600 per second: F(t) = 1 - e^{-t/2400}.
for t in ["1e-6", "1e-3"]:
    v(f"competing F({t})", -mp.expm1(-mp.mpf(t) / 2400))

# Exponential of rate 1 per second: P(a < T <= b) and the integral of t f(t) over (a, b].
E = lambda a, b: mp.exp(-a) - mp.exp(-b)
M = lambda a, b: mp.exp(-a) * (1 + a) - mp.exp(-b) * (1 + b)
for a, b in [("1e-10", "2e-10"), ("40", "41"), ("1e-5", "2e-5")]:
    v(f"exp(1) P({a} < T <= {b})", E(mp.mpf(a), mp.mpf(b)))
    v(f"exp(1) int t f over ({a}, {b}]", M(mp.mpf(a), mp.mpf(b)))

# Regularised incomplete gamma P(a, x) and Q(a, x).
for a, x in [("0.5", "0.3"), ("0.5", "4"), ("3.3", "2"), ("3.3", "7"), ("20", "15"), ("20", "30"), ("2", "1e-20")]:
    a_, x_ = mp.mpf(a), mp.mpf(x)
    v(f"P({a}, {x})", mp.gammainc(a_, 0, x_, regularized=True))
    v(f"Q({a}, {x})", mp.gammainc(a_, x_, mp.inf, regularized=True))

# Standard normal: density, CDF and quantiles.
v("phi(1)", mp.npdf(1))
v("phi(-2.5)", mp.npdf(-2.5))
for z in ["0.5", "-0.5", "3", "-3", "-37"]:
    v(f"Phi({z})", mp.ncdf(mp.mpf(z)))
for p in ["0.001", "0.02425", "0.3", "0.5", "0.97575", "0.9999"]:
    v(f"Phi^-1({p})", mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1))

# Residual exponential (memoryless): the partial expectation at t is the exponential's,
# (1 - e^{-t/m}(1 + t/m)) m for the mean m = 7200 s.
m = mp.mpf(7200)
for t in ["0.01", "1"]:
    x = mp.mpf(t) / m
    v(f"exp(mean 7200) int_0^{t} s f", m * (1 - mp.exp(-x) * (1 + x)))
# Its quantile at u: -m ln(1 - u); rate 10/s at u = 0.99.
v("exp(rate 10) quantile(0.99)", -mp.log(mp.mpf("0.01")) / 10)

# Exponential of rate 1e-4 per second (mean 1e4 s): the integral of t f(t) over (1, 1.5] s.
r = mp.mpf("1e-4")
v("exp(1e-4) int t f over (1, 1.5]", (mp.exp(-r) * (1 + r) - mp.exp(-r * mp.mpf("1.5")) * (1 + r * mp.mpf("1.5"))) / r)
