#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reference values for the difference of two revisions measured in layouts
(pp_layout_diff, core/stats_nested.c).

Regenerate with (from the top of the source tree, Debian's python3-scipy):

    /usr/bin/python3 test/stats/make_nested_fixtures.py > test/stats/nested_fixtures.txt

With --check FILE it compares FILE's values with freshly computed ones
(comment lines aside) and exits 1 on a difference, 77 without scipy.

Each case draws, with a fixed numpy seed, K layouts per revision with a
layout effect of sd SB and runs about them of sd SW, the runs spread over
the layouts unevenly, a share OUT of them slow by 3 to 10 SW (a machine's
burst).  A layout's location is its median plus the mean of its runs'
residuals from it, each held within Tukey's fences (1.5 interquartile
ranges beyond the quartiles of all residuals, both revisions pooled, numpy's
percentile).  The interval is the set of shifts d for which
scipy.stats.ttest_ind(current layout locations - d, previous layout
locations, equal_var=False) does not reject at 1 - CONF, its ends found by
scipy.optimize.brentq on the p-value: scipy's Welch test, not the closed
form the C code uses.  Lines:

  nested NX NY CONF  LX... X...  LY... Y...  CENTRE LOW HIGH

Runs in pairs whose layouts are paired too (pp_layout_paired): N pairs'
differences D in K units (a unit effect of sd SB, differences of sd SW
about it, a share OUT slow by 3 to 10 SW), each unit's location as above
(fences from the residuals of all differences), and the interval the set of
means m for which scipy.stats.ttest_1samp(unit locations - m, 0) does not
reject at 1 - CONF, ends by brentq as above.  Lines:

  paired N CONF  UNIT... D...  CENTRE LOW HIGH
"""
import sys

try:
    import numpy as np
    from scipy.optimize import brentq
    from scipy.stats import ttest_1samp, ttest_ind
except ImportError:
    if "--check" in sys.argv:
        print("scipy not available: skipped")
        sys.exit(77)
    sys.exit("make_nested_fixtures.py needs scipy (apt-get install python3-scipy)")


def medians(x, lay):
    return {k: np.median([v for v, l in zip(x, lay) if l == k]) for k in set(lay)}


def layout_locations(x, lay, med, lo, hi):
    held = [med[l] + min(max(v - med[l], lo), hi) for v, l in zip(x, lay)]
    return np.array([np.mean([v for v, l in zip(held, lay) if l == k]) for k in sorted(set(lay))])


def roots(f, centre):
    """Centre and the roots of f (> 0 inside the interval) on either side of it."""
    step = max(abs(centre), 1.0)
    lo = centre - step
    while f(lo) > 0:
        lo -= step
    hi = centre + step
    while f(hi) > 0:
        hi += step
    return (centre, brentq(f, lo, centre, xtol=1e-13, rtol=1e-13, maxiter=500),
            brentq(f, centre, hi, xtol=1e-13, rtol=1e-13, maxiter=500))


def interval(x, lx, y, ly, conf):
    medx, medy = medians(x, lx), medians(y, ly)
    res = [v - medx[l] for v, l in zip(x, lx)] + [v - medy[l] for v, l in zip(y, ly)]
    q1, q3 = np.percentile(res, [25, 75])  # numpy's default: GSL's quantile, type 7
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    mx, my = layout_locations(x, lx, medx, lo, hi), layout_locations(y, ly, medy, lo, hi)
    centre = my.mean() - mx.mean()
    # the ends: the shifts at which Welch's p-value falls to 1 - conf
    return roots(lambda d: ttest_ind(my - d, mx, equal_var=False).pvalue - (1 - conf), centre)


def paired_interval(d, unit, conf):
    med = medians(d, unit)
    q1, q3 = np.percentile([v - med[l] for v, l in zip(d, unit)], [25, 75])
    locs = layout_locations(d, unit, med, q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1))
    return roots(lambda m: ttest_1samp(locs - m, 0.0).pvalue - (1 - conf), locs.mean())


PAIRED_CASES = [
    # units, pairs, conf, shift, sb, sw, slow share
    (8, 40, 0.95, 0.0, 1.0, 1.0, 0.0),
    (16, 96, 0.997, 0.5, 0.5, 1.0, 0.05),
    (4, 13, 0.99, -1.0, 0.2, 2.0, 0.0),
    (16, 160, 0.999, 2.0, 1.0, 0.5, 0.1),
]


def paired_rows():
    rng = np.random.default_rng(20261128)
    out = []
    for k, n, conf, shift, sb, sw, slow in PAIRED_CASES:
        eff = rng.normal(0, sb, k)
        unit = [i % k for i in range(n)]
        rng.shuffle(unit)
        d = [shift + eff[u] + rng.normal(0, sw) for u in unit]
        d = [a + (rng.uniform(3, 10) * sw if rng.uniform() < slow else 0) for a in d]
        c, lo, hi = paired_interval(d, unit, conf)
        out.append("paired %d %g  %s  %s  %.12g %.12g %.12g" % (
            n, conf, " ".join(map(str, unit)), " ".join("%.12g" % v for v in d), c, lo, hi))
    return out


CASES = [
    # layouts prev, layouts cur, runs prev, runs cur, conf, shift, sb, sw, slow share
    (8, 8, 40, 40, 0.95, 0.0, 1.0, 1.0, 0.0),
    (8, 8, 24, 30, 0.95, 3.0, 2.0, 0.5, 0.0),
    (4, 6, 13, 20, 0.99, 1.0, 0.2, 2.0, 0.0),
    (2, 3, 6, 9, 0.90, -2.0, 1.0, 1.0, 0.0),
    (16, 12, 64, 50, 0.999, 0.5, 0.5, 0.5, 0.0),
    (8, 8, 80, 80, 0.99, 1.0, 0.2, 1.0, 0.1),
    (16, 16, 96, 96, 0.997, 0.0, 0.0, 1.0, 0.05),
]


def rows():
    rng = np.random.default_rng(20261127)
    out = []
    for kx, ky, nx, ny, conf, shift, sb, sw, slow in CASES:
        def draw(k, n, mu):
            eff = rng.normal(0, sb, k)
            lay = [i % k for i in range(n)]
            rng.shuffle(lay)
            v = [100 + mu + eff[l] + rng.normal(0, sw) for l in lay]
            if slow:  # drawn only then: the cases without keep their values
                v = [a + (rng.uniform(3, 10) * sw if rng.uniform() < slow else 0) for a in v]
            return lay, v
        lx, x = draw(kx, nx, 0.0)
        ly, y = draw(ky, ny, shift)
        c, lo, hi = interval(x, lx, y, ly, conf)
        out.append("nested %d %d %g  %s  %s  %s  %s  %.12g %.12g %.12g" % (
            nx, ny, conf, " ".join(map(str, lx)), " ".join("%.12g" % v for v in x),
            " ".join(map(str, ly)), " ".join("%.12g" % v for v in y), c, lo, hi))
    return out


def main():
    lines = rows() + paired_rows()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            have = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        ok = True
        for a, b in zip(have, lines):
            ta, tb = a.split(), b.split()
            if len(ta) != len(tb) or any(abs(float(u) - float(v)) > 1e-9 * max(1.0, abs(float(v)))
                                         for u, v in zip(ta[1:], tb[1:])):
                print("differs:\n  file:  %s\n  scipy: %s" % (a[:120], b[:120]))
                ok = False
        if len(have) != len(lines):
            print("file has %d cases, scipy %d" % (len(have), len(lines)))
            ok = False
        print("nested fixtures agree with scipy" if ok else "nested fixtures differ")
        return 0 if ok else 1
    print("# written by test/stats/make_nested_fixtures.py (see its header); do not edit")
    for l in lines:
        print(l)
    return 0


if __name__ == "__main__":
    sys.exit(main())
