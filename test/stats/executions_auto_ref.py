#!/usr/bin/env python3
"""Reference values of test_edge.c's executions_auto(): --executions auto's
optimum (pp_executions_auto) on two synthetic dimensioning experiments, for
runs compared in pairs (the components of the pairs' differences) and as
independent samples, computed with numpy and scipy alone (Debian 12's
python3-numpy 1.24 and python3-scipy 1.10: /usr/bin/python3 executions_auto_ref.py).

Eight runs of eight executions, revisions 0 1 1 0 0 1 1 0 (runs 2i and
2i + 1 a pair, as the discovery runs are), value j of run r:
1000 + 10 * revision + shared[r // 2] + own[r] + trend * j + ((3j + 5r) % 7 - 3).
"""
import numpy as np
from scipy.stats import chi2

BLOCK = np.array([0, 1, 1, 0, 0, 1, 1, 0])
N = 8
RUN_COST, EXEC_COST, HIGH = 200.0, 1.0, 0.90  # PP_VARCOMP_HIGH


def data(shared, trend, own):
    r = np.arange(8)[:, None]
    j = np.arange(N)[None, :]
    return (1000 + 10 * BLOCK[:, None] + np.array(shared)[r // 2] + np.array(own)[r]
            + trend * j + ((3 * j + 5 * r) % 7 - 3))


def components(x, blocks):
    """within_long, between_long and its upper bound of a nested layout, by hand."""
    rows, n = x.shape
    h = n // 2
    ids = np.unique(blocks)
    m = x.mean(axis=1)
    msb = n * sum(((m[blocks == b] - m[blocks == b].mean()) ** 2).sum() for b in ids) \
        / (rows - len(ids))
    halves = np.stack([x[:, :h].mean(axis=1), x[:, h:2 * h].mean(axis=1)], axis=1)
    wl = h * np.var(halves, axis=1, ddof=1).mean()
    df = rows - len(ids)
    return wl, (msb - wl) / n, (msb * df / chi2.ppf(1 - HIGH, df) - wl) / n


def k(wl, bl, high):
    return np.sqrt(RUN_COST / EXEC_COST * wl / max(bl, high))


CASES = (("shared run effect", data([0, 40, -30, 60], 0, [0.5, -0.5, 0, 1, -1, 0.5, 0, -0.5])),
         ("shared trend", data([0, 0, 0, 0], 3, [4, -3, 2, -5, 1, 5, -2, 3])))
for name, x in CASES:
    cur = [2 * p + (BLOCK[2 * p] == 0) for p in range(4)]
    prev = [2 * p + (BLOCK[2 * p] == 1) for p in range(4)]
    print("%s: paired k %.17g, unpaired k %.17g"
          % (name, k(*components(x[cur] - x[prev], np.zeros(4, dtype=int))),
             k(*components(x, BLOCK))))
