#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-check the R reference values in fixtures.txt with scipy.

Usage: check_fixtures_scipy.py FIXTURES

A second, independent implementation guards against a mistake in the
fixtures themselves: Mann-Whitney U and p (scipy.stats.mannwhitneyu, exact
or asymptotic with continuity correction as R chose), Welch t, df and p
(scipy.stats.ttest_ind with equal_var=False, t/normal quantiles for the
interval), the signed-rank V and p (scipy.stats.wilcoxon, exact or normal
with continuity correction as R chose) and Walsh median, the paired t
(scipy.stats.ttest_rel), the t/z intervals of the summaries, MSER's cut and the nested
ANOVA's mean squares (numpy)
(scipy.stats.f_oneway).  Exits 77 (skipped) when scipy is missing.
"""
import math
import sys
import warnings

try:
    import numpy as np
    import scipy
    from scipy import stats
except ImportError:
    print("scipy not available: skipped")
    sys.exit(77)

# A constant sample makes scipy warn about its moments; the values are still exact.
warnings.simplefilter("ignore", RuntimeWarning)

REL = 1e-9
failures = 0
checked = 0


def close(got, want, rel=REL, abs_=0.0):
    if math.isinf(want):
        return got == want
    return abs(got - want) <= rel * abs(want) + abs_


def check(name, field, got, want, rel=REL, abs_=0.0):
    global failures, checked
    checked += 1
    if not close(got, want, rel, abs_):
        failures += 1
        print(f"FAIL: {name}: {field}: scipy {got!r}, fixture {want!r}")


def sample(tok):
    n = int(tok.pop(0))
    vals = [float(tok.pop(0)) for _ in range(n)]
    return np.array(vals)


def main(path):
    cases = 0
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            tok = line.split()
            kind, name = tok.pop(0), tok.pop(0)
            cases += 1
            if kind == "summary":
                conf = float(tok.pop(0))
                x = sample(tok)
                want = [float(t) for t in tok]
                n = len(x)
                m, sd = np.mean(x), np.std(x, ddof=1)
                q = (stats.norm.ppf(1 - (1 - conf) / 2) if n >= 30
                     else stats.t.ppf(1 - (1 - conf) / 2, n - 1))
                scale = 1e-13 * np.max(np.abs(x))
                check(name, "mean", m, want[0], abs_=scale)
                check(name, "sd", sd, want[1], abs_=scale)
                check(name, "median", np.median(x), want[2], abs_=scale)
                check(name, "low", m - q * sd / math.sqrt(n), want[5], abs_=scale)
                check(name, "high", m + q * sd / math.sqrt(n), want[6], abs_=scale)
            elif kind == "welch":
                conf = float(tok.pop(0))
                x, y = sample(tok), sample(tok)
                want = [float(t) for t in tok]
                vx, vy = np.var(x, ddof=1) / len(x), np.var(y, ddof=1) / len(y)
                if vx + vy == 0:
                    continue
                d = np.mean(y) - np.mean(x)
                se = math.sqrt(vx + vy)
                if len(x) >= 30 and len(y) >= 30:
                    df, q = 0.0, stats.norm.ppf(1 - (1 - conf) / 2)
                    p = 2 * stats.norm.sf(abs(d / se))
                else:
                    r = stats.ttest_ind(y, x, equal_var=False)
                    df = (vx + vy) ** 2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
                    q = stats.t.ppf(1 - (1 - conf) / 2, df)
                    p = r.pvalue
                    check(name, "t", r.statistic, want[3])
                scale = 1e-13 * max(np.max(np.abs(x)), np.max(np.abs(y)))
                check(name, "diff", d, want[0], abs_=scale)
                check(name, "low", d - q * se, want[1], abs_=scale)
                check(name, "high", d + q * se, want[2], abs_=scale)
                check(name, "df", df, want[4])
                check(name, "p", p, want[5])
            elif kind in ("mw", "mwtest"):
                if kind == "mw":
                    tok.pop(0)
                x, y = sample(tok), sample(tok)
                exact, u, p = (float(t) for t in tok[:3])
                r = stats.mannwhitneyu(y, x, alternative="two-sided", use_continuity=True,
                                       method="exact" if exact else "asymptotic")
                check(name, "U", r.statistic, u)
                check(name, "p", r.pvalue, p)
                if kind == "mw":
                    hl = float(tok[3])
                    check(name, "HL", float(np.median(np.subtract.outer(y, x))), hl)
            elif kind == "sr":
                tok.pop(0)
                x, y = np.array(sample(tok)), np.array(sample(tok))
                exact, v, p, hl = (float(t) for t in tok[:4])
                d = y - x
                d = d[d != 0]
                # V is the rank sum of the positive differences: "greater"'s statistic
                r = stats.wilcoxon(d, zero_method="wilcox", correction=True,
                                   alternative="greater", mode="exact" if exact else "approx")
                check(name, "V", float(r.statistic), v)
                r = stats.wilcoxon(d, zero_method="wilcox", correction=True,
                                   alternative="two-sided", mode="exact" if exact else "approx")
                check(name, "p", float(r.pvalue), p)
                walsh = np.add.outer(d, d)[np.triu_indices(len(d))] / 2
                check(name, "HL", float(np.median(walsh)), hl)
            elif kind == "pt":
                conf = float(tok.pop(0))
                x, y = np.array(sample(tok)), np.array(sample(tok))
                want = [float(t) for t in tok]
                d = y - x
                n = len(d)
                m, se = float(np.mean(d)), float(np.std(d, ddof=1)) / math.sqrt(n)
                if n >= 30:
                    df, q, p = 0.0, stats.norm.ppf(1 - (1 - conf) / 2), 2 * stats.norm.sf(abs(m / se))
                else:
                    r = stats.ttest_rel(y, x)
                    df, q, p = n - 1.0, stats.t.ppf(1 - (1 - conf) / 2, n - 1), r.pvalue
                    check(name, "t", r.statistic, want[3])
                # scipy's t quantile at 7 df agrees with R's to some 1e-10 only
                scale = 1e-12 * max(np.max(np.abs(x)), np.max(np.abs(y)))
                check(name, "diff", m, want[0], abs_=scale)
                check(name, "low", m - q * se, want[1], abs_=scale)
                check(name, "high", m + q * se, want[2], abs_=scale)
                check(name, "df", df, want[4])
                check(name, "p", p, want[5])
            elif kind == "mser":
                b = int(tok.pop(0))
                x = np.array(sample(tok))
                rc, skip = int(tok[0]), int(tok[1])
                m = len(x) // b
                if m < 3:
                    check(name, "rc", 1, rc)
                    continue
                z = np.median(x[: m * b].reshape(m, b), axis=1)
                v = [np.var(z[d:]) / (m - d) for d in range((m - 1) // 2 + 1)]
                check(name, "rc", 0, rc)
                check(name, "skip", b * int(np.argmin(v)), skip)
            elif kind == "varcomp":
                rows, n = int(tok.pop(0)), int(tok.pop(0))
                blocks = np.array(sample(tok), dtype=int)
                x = np.array(sample(tok)).reshape(rows, n)
                msw, msb, within, between, wlong, blong = (float(v) for v in tok[:6])
                k = float(tok[6])
                # statsmodels-free: the nested ANOVA's sums of squares by hand
                means = x.mean(axis=1)
                ssw = float(((x - means[:, None]) ** 2).sum())
                ssb = sum(n * float(((means[blocks == b] - means[blocks == b].mean()) ** 2).sum())
                          for b in np.unique(blocks))
                nb = len(np.unique(blocks))
                tol = 1e-12 * float(np.abs(x).max()) ** 2
                check(name, "msw", ssw / (rows * (n - 1)), msw, abs_=tol)
                check(name, "msb", ssb / (rows - nb), msb, abs_=tol)
                bt = (ssb / (rows - nb) - ssw / (rows * (n - 1))) / n
                check(name, "between", bt, between, abs_=tol)
                h = n // 2
                halves = np.stack([x[:, :h].mean(axis=1), x[:, h:2 * h].mean(axis=1)], axis=1)
                wl = h * float(np.var(halves, axis=1, ddof=1).mean())
                bl = (ssb / (rows - nb) - wl) / n
                check(name, "within_long", wl, wlong, abs_=tol)
                check(name, "between_long", bl, blong, abs_=tol)
                kk = math.sqrt(1.5 * wl / bl) if bl > 0 else math.inf
                if math.isinf(k):
                    check(name, "k", 1.0 if math.isinf(kk) else 0.0, 1.0)
                else:
                    check(name, "k", kk, k, rel=1e-7)
            else:
                print(f"FAIL: unknown line kind {kind}")
                return 1
    print(f"{cases} cases, {checked} checks, {failures} failed (scipy {scipy.__version__})")
    return 1 if failures or cases < 50 else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} FIXTURES", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
