#!/usr/bin/env python3
"""Measures the false-alarm rate of `ssac gof`'s G-test on the distribution corpus
(docs/conformance.md, "How good is the G-test's p-value").

For every instance of conformance/distribution/, R tables of N runs are drawn from the instance's
exact law itself (numpy's multinomial), pooled as `ssac gof` pools them (outcomes expected fewer
than 5 times share a cell, merged into the smallest other cell when that cell is still below 5),
and the Williams-corrected G statistic is compared with the chi-square critical value at
alpha = 1e-2, 1e-3, 1e-4; the printed fractions are the rates at which a correct implementation
would be judged not to conform. Debian's /usr/bin/python3 with python3-numpy.

Usage: scripts/gof_false_alarm.py N R   (run from the source tree; e.g. 3000 200000)
"""
import json, math, sys, pathlib
from fractions import Fraction
import numpy as np

def gammaincc(a, x):
    if x <= 0: return 1.0
    if x < a + 1:
        s = term = 1.0 / a; ap = a
        for _ in range(10000):
            ap += 1; term *= x / ap; s += term
            if abs(term) < abs(s) * 1e-15: break
        return 1 - s * math.exp(-x + a * math.log(x) - math.lgamma(a))
    b = x + 1 - a; c = 1e300; d = 1 / b; h = d
    for i in range(1, 10000):
        an = -i * (i - a); b += 2
        d = an * d + b; d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c; c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d; de = d * c; h *= de
        if abs(de - 1) < 1e-15: break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h

def crit(df, alpha):  # x with P(chi2_df >= x) = alpha, by bisection
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if gammaincc(df / 2, mid / 2) > alpha: lo = mid
        else: hi = mid
    return lo

N = int(sys.argv[1]); R = int(sys.argv[2])
rng = np.random.default_rng(12345)
for path in sorted(pathlib.Path("conformance/distribution").glob("*.json")):
    if path.name == "manifest.json": continue
    p = np.array([float(Fraction(o["probability"])) for o in json.load(open(path))["outcomes"]])
    e = N * p
    big = e >= 5
    cells = [p[i] for i in np.where(big)[0]]
    idx = list(np.where(big)[0])
    small = np.where(~big)[0]
    groups = [[i] for i in idx]
    if len(small):
        if e[small].sum() < 5:
            j = int(np.argmin([e[g[0]] for g in groups])); groups[j] = groups[j] + list(small)
        else:
            groups.append(list(small))
    K = len(groups)
    M = np.zeros((len(p), K))
    for c, g in enumerate(groups): M[g, c] = 1
    pc = p @ M
    q = 1 + (K + 1) / (6 * N)
    counts = rng.multinomial(N, p, size=R) @ M
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(counts > 0, counts * np.log(counts / (N * pc)), 0.0)
    G = 2 * t.sum(axis=1) / q
    out = [path.stem, f"K={K}"]
    for a in (1e-2, 1e-3, 1e-4):
        out.append(f"alpha {a:g}: {np.mean(G >= crit(K - 1, a)):.2e}")
    print(" | ".join(out))
