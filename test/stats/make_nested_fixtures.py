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
the layouts unevenly.  The interval is the set of shifts d for which
scipy.stats.ttest_ind(current layout means - d, previous layout means,
equal_var=False) does not reject at 1 - CONF, its ends found by
scipy.optimize.brentq on the p-value: scipy's Welch test, not the closed
form the C code uses.  Lines:

  nested NX NY CONF  LX... X...  LY... Y...  CENTRE LOW HIGH
"""
import sys

try:
    import numpy as np
    from scipy.optimize import brentq
    from scipy.stats import ttest_ind
except ImportError:
    if "--check" in sys.argv:
        print("scipy not available: skipped")
        sys.exit(77)
    sys.exit("make_nested_fixtures.py needs scipy (apt-get install python3-scipy)")


def layout_means(x, lay):
    return np.array([np.mean([v for v, l in zip(x, lay) if l == k]) for k in sorted(set(lay))])


def interval(x, lx, y, ly, conf):
    mx, my = layout_means(x, lx), layout_means(y, ly)
    centre = my.mean() - mx.mean()

    def f(d):  # > 0 inside
        return ttest_ind(my - d, mx, equal_var=False).pvalue - (1 - conf)

    step = max(abs(centre), 1.0)
    lo = centre - step
    while f(lo) > 0:
        lo -= step
    hi = centre + step
    while f(hi) > 0:
        hi += step
    return (centre, brentq(f, lo, centre, xtol=1e-13, rtol=1e-13, maxiter=500),
            brentq(f, centre, hi, xtol=1e-13, rtol=1e-13, maxiter=500))


CASES = [
    # layouts prev, layouts cur, runs prev, runs cur, conf, shift, sb, sw
    (8, 8, 40, 40, 0.95, 0.0, 1.0, 1.0),
    (8, 8, 24, 30, 0.95, 3.0, 2.0, 0.5),
    (4, 6, 13, 20, 0.99, 1.0, 0.2, 2.0),
    (2, 3, 6, 9, 0.90, -2.0, 1.0, 1.0),
    (16, 12, 64, 50, 0.999, 0.5, 0.5, 0.5),
]


def rows():
    rng = np.random.default_rng(20261127)
    out = []
    for kx, ky, nx, ny, conf, shift, sb, sw in CASES:
        def draw(k, n, mu):
            eff = rng.normal(0, sb, k)
            lay = [i % k for i in range(n)]
            rng.shuffle(lay)
            return lay, [100 + mu + eff[l] + rng.normal(0, sw) for l in lay]
        lx, x = draw(kx, nx, 0.0)
        ly, y = draw(ky, ny, shift)
        c, lo, hi = interval(x, lx, y, ly, conf)
        out.append("nested %d %d %g  %s  %s  %s  %s  %.12g %.12g %.12g" % (
            nx, ny, conf, " ".join(map(str, lx)), " ".join("%.12g" % v for v in x),
            " ".join(map(str, ly)), " ".join("%.12g" % v for v in y), c, lo, hi))
    return out


def main():
    lines = rows()
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
