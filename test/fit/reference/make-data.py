"""Generate the fixed data sets the fit is checked on (run once; the CSVs are committed).

    /usr/bin/python3 test/fit/reference/make-data.py

Every value is rounded to a few decimals so that the CSV holds it exactly; both this
project and the numpy reference read the same numbers.

- azur-like-means.csv: one point per (m, v) for the application sizes of [Y-thesis]
  Table 4.1, m = 1 up to each size's measured peak ī, bw = the published model
  ([Y11] eq. 4) + N(0, 0.8²) MB/s.
- large-v-means.csv: application sizes 2–16 GB, m = 1..30 (V up to 480 GB, where the raw
  design's columns span 10 orders of magnitude), bw from the full form with made-up
  coefficients + N(0, 0.5²).
- replicated-runs.csv: 6 runs per (m, v) for three sizes (the row-compressed solve must
  equal OLS on all rows), bw from the paper model + N(0, 1.5²).
"""
import numpy as np

rng = np.random.default_rng(20240611)
A, B, C, D, E = -0.0155, -0.169435, 0.0004, 5.027318, 3.753154  # docs/science.md §3.2


def paper(m, v):
    return A * m**2 * v**2 + B * m**2 + C * v**2 + D * m + E


def write(name, rows, header):
    with open(name, "w") as f:
        f.write(header + "\n")
        for row in rows:
            f.write(",".join(row) + "\n")


table_4_1 = [(15, 18), (46, 13), (76, 11), (114, 11), (271, 10), (414, 8), (684, 5)]
rows = []
for size_mb, peak in table_4_1:
    for m in range(1, peak + 1):
        v = m * size_mb / 1000
        rows.append((str(m), repr(v), f"{paper(m, v) + rng.normal(0, 0.8):.4f}"))
write("azur-like-means.csv", rows, "m,v_gb,bw_mb_per_s")

full = np.array([2.5, 0.04, -0.0002, 3.1, -0.003, 1.5e-6, -0.09, 2.0e-5, -4.0e-8])  # a00..a22
rows = []
for size_mb in (2000, 3500, 5000, 8000, 11000, 16000):
    for m in range(1, 31):
        v = m * size_mb / 1000
        value = sum(full[3 * i + j] * m**i * v**j for i in range(3) for j in range(3))
        rows.append((str(m), repr(v), f"{value + rng.normal(0, 0.5):.4f}"))
write("large-v-means.csv", rows, "m,v_gb,bw_mb_per_s")

rows = []
for size_mb in (46, 271, 684):
    for m in range(1, 13):
        v = m * size_mb / 1000
        for _ in range(6):
            rows.append((str(m), repr(v), f"{paper(m, v) + rng.normal(0, 1.5):.4f}"))
write("replicated-runs.csv", rows, "m,v_gb,bw_mb_per_s")
