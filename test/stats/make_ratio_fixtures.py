#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for the share intervals (core/stats_ratio.c).

Regenerate with (from the top of the source tree, Debian's python3-scipy):

    /usr/bin/python3 test/stats/make_ratio_fixtures.py > test/stats/ratio_fixtures.txt

With --check FILE it compares FILE's values with freshly computed ones
(comment lines aside) and exits 1 on a difference, 77 without scipy.

Each case draws, with a fixed numpy seed, NX previous and NY current runs of
two quantities measured in the same run: a part (a) and a whole (b = a + an
independent rest), so that a and b are correlated as a function and its
call are.  Fieller's interval of theta = (mean ya - mean xa) / (mean yb -
mean xb) (E. C. Fieller, J. R. Statist. Soc. B 16(2), 1954) is the set of
theta where (da - theta db)^2 <= q^2 var(da - theta db), var from numpy's
covariance matrices of each revision's runs, q the two-sided quantile of
scipy's normal (both revisions with 30 runs or more) or Student's t with
min(NX, NY) - 1 degrees of freedom.  The ends are found here by bracketing
and scipy.optimize.brentq on that inequality, not by the closed form the C
code solves, so the two are independent.  Lines:

  ratio NX NY CONF  XA... XB... YA... YB...  CENTRE LOW HIGH   (inf for an open end)

Runs in pairs (pp_ratio_paired): the pairs' differences a_i and b_i of a
part and its whole, over the pairs whose b_i lies within b's outer Tukey
fences (3 IQR beyond its quartiles, numpy.percentile's default linear
rule, R's type 7), one sample of N: the same set with var from numpy's
covariance matrix of (a, b) over N, q from N (z from 30 pairs, else t on
N - 1 df); with units (code layouts, K of them, each pair's unit given),
also the set from the K units' mean differences (q from K), and the union
of the two sets.  Lines:

  paired N K CONF  A... B... UNIT...  CENTRE LOW HIGH     (K 0: no units given)
"""
import math
import sys

try:
    import numpy as np
    from scipy.optimize import brentq
    from scipy.stats import norm, t as student
except ImportError:
    if "--check" in sys.argv:
        print("scipy not available: skipped")
        sys.exit(77)
    sys.exit("make_ratio_fixtures.py needs scipy (apt-get install python3-scipy)")


def fieller(xa, xb, ya, yb, conf):
    nx, ny = len(xa), len(ya)
    da = np.mean(ya) - np.mean(xa)
    db = np.mean(yb) - np.mean(xb)
    cx = np.cov(np.vstack([xa, xb]), ddof=1) / nx
    cy = np.cov(np.vstack([ya, yb]), ddof=1) / ny
    p = 1 - (1 - conf) / 2
    q = norm.ppf(p) if nx >= 30 and ny >= 30 else student.ppf(p, min(nx, ny) - 1)
    return fieller_set(da, db, cx + cy, q)


def fieller_paired(a, b, conf):
    n = len(a)
    p = 1 - (1 - conf) / 2
    q = norm.ppf(p) if n >= 30 else student.ppf(p, n - 1)
    return fieller_set(np.mean(a), np.mean(b), np.cov(np.vstack([a, b]), ddof=1) / n, q)


def fieller_set(da, db, v, q):

    def f(theta):  # <= 0 inside the set
        return (da - theta * db) ** 2 - q * q * (v[0, 0] - 2 * theta * v[0, 1] + theta ** 2 * v[1, 1])

    centre = da / db
    if db * db - q * q * v[1, 1] <= 0 or f(centre) > 0:
        return centre, -math.inf, math.inf
    step = max(abs(centre), 1.0)
    lo = centre - step
    while f(lo) <= 0:
        step *= 2
        lo = centre - step
    step = max(abs(centre), 1.0)
    hi = centre + step
    while f(hi) <= 0:
        step *= 2
        hi = centre + step
    return (centre, brentq(f, lo, centre, xtol=1e-15, rtol=1e-14, maxiter=500),
            brentq(f, centre, hi, xtol=1e-15, rtol=1e-14, maxiter=500))


CASES = [
    # nx, ny, conf, part shift, rest shift, part sd, rest sd
    (10, 10, 0.95, 5.0, 1.0, 1.0, 1.0),
    (10, 12, 0.95, 2.0, 8.0, 1.0, 2.0),
    (25, 25, 0.99, 3.0, 3.0, 2.0, 2.0),
    (40, 35, 0.95, 1.0, 0.2, 0.5, 0.5),
    (30, 30, 0.90, -2.0, 6.0, 1.0, 1.0),
    (12, 12, 0.95, 0.5, 0.1, 2.0, 2.0),  # the whole is not clearly away from 0: open
    (60, 60, 0.95, 4.0, -1.0, 1.5, 0.7),
]


def cases():
    rng = np.random.default_rng(20261127)
    for nx, ny, conf, sa, sr, sda, sdr in CASES:
        xa = 100 + rng.normal(0, sda, nx)
        xr = 50 + rng.normal(0, sdr, nx)
        ya = 100 + sa + rng.normal(0, sda, ny)
        yr = 50 + sr + rng.normal(0, sdr, ny)
        xb, yb = xa + xr, ya + yr
        yield nx, ny, conf, xa, xb, ya, yb


PAIRED = [
    # n, units (0: none), conf, part shift, rest shift, part sd, rest sd, unit sd
    (12, 0, 0.95, 5.0, 1.0, 1.0, 1.0, 0.0),
    (20, 0, 0.99, 2.0, -1.0, 1.0, 2.0, 0.0),
    (40, 0, 0.95, 1.0, 0.5, 0.5, 0.5, 0.0),
    (10, 0, 0.95, 0.3, 0.1, 2.0, 2.0, 0.0),  # the whole is not clearly away from 0: open
    (32, 8, 0.95, 4.0, 1.0, 1.0, 1.0, 1.5),  # the units' set is the wider
    (24, 4, 0.95, 3.0, 2.0, 1.0, 1.0, 0.1),  # the pairs' set is the wider
    (64, 32, 0.95, 2.0, 2.0, 1.0, 1.0, 0.8),  # z for the pairs and the units
    (30, 0, 0.95, 3.0, 1.0, 1.0, 1.0, -1.0),  # three pairs far out: held at the fences
]


def paired_cases():
    rng = np.random.default_rng(20261128)
    for n, k, conf, sa, sr, sda, sdr, sdu in PAIRED:
        unit = np.arange(n) % k if k else np.zeros(n, dtype=int)
        ua = rng.normal(0, max(sdu, 0), max(k, 1))
        ub = rng.normal(0, max(sdu, 0), max(k, 1))
        a = sa + rng.normal(0, sda, n) + ua[unit]
        b = a + sr + rng.normal(0, sdr, n) + ub[unit]
        if sdu < 0:  # a machine's bursts: three pairs far out in both
            a[:3] += 40.0
            b[:3] += 60.0
        yield n, k, conf, a, b, unit


def within_fences(b):
    q1, q3 = np.percentile(b, [25, 75])
    return (b >= q1 - 3.0 * (q3 - q1)) & (b <= q3 + 3.0 * (q3 - q1))


def union_paired(a, b, unit, k, conf):
    keep = within_fences(b)
    a, b, unit = a[keep], b[keep], unit[keep]
    c, lo, hi = fieller_paired(a, b, conf)
    if k >= 2:
        units = [u for u in range(k) if np.any(unit == u)]
        ua = np.array([np.mean(a[unit == u]) for u in units])
        ub = np.array([np.mean(b[unit == u]) for u in units])
        _, ulo, uhi = fieller_paired(ua, ub, conf)
        lo, hi = min(lo, ulo), max(hi, uhi)
    return c, lo, hi


def fmt(v):
    return "inf" if v == math.inf else "-inf" if v == -math.inf else repr(float(v))


def lines():
    yield "# written by make_ratio_fixtures.py (numpy, scipy.stats, scipy.optimize.brentq)"
    for nx, ny, conf, xa, xb, ya, yb in cases():
        c, lo, hi = fieller(xa, xb, ya, yb, conf)
        vals = " ".join(repr(float(v)) for v in list(xa) + list(xb) + list(ya) + list(yb))
        yield "ratio %d %d %r %s %s %s %s" % (nx, ny, conf, vals, fmt(c), fmt(lo), fmt(hi))
    for n, k, conf, a, b, unit in paired_cases():
        c, lo, hi = union_paired(a, b, unit, k, conf)
        vals = " ".join(repr(float(v)) for v in list(a) + list(b))
        units = " ".join(str(int(u)) for u in unit)
        yield "paired %d %d %r %s %s %s %s %s" % (n, k, conf, vals, units, fmt(c), fmt(lo), fmt(hi))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        want = [l for l in lines() if not l.startswith("#")]
        with open(sys.argv[2]) as f:
            got = [l.rstrip("\n") for l in f if not l.startswith("#")]
        if got != want:
            print("%s differs from what make_ratio_fixtures.py computes" % sys.argv[2])
            sys.exit(1)
        print("%d ratio fixtures agree" % len(want))
        return
    for l in lines():
        print(l)


main()
