#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""duet_noise.py - how much two runs of a plain program differ on this host,
one after the other against at the same time on two CPUs of their own.

    duet_noise.py [--pairs N] [--cpus A,B] -- PROGRAM [ARGS...]

A figure, not a test (bench/README.md, "Duet runs").  Runs PROGRAM (a plain
build: no pinpoint in it) in N pairs one after the other and N pairs at
once, the two ways interleaved pair by pair so that both see the same
stretch of the host; a pair at once has each run pinned to one of two CPUs,
which one drawn at random, both started together.  A run's time is what
PROGRAM prints as "cpu_ns N" (bench/real's drivers time their work) or else
its wall time.  Prints, for each design: the runs' coefficient of
variation, the sd of the pairs' differences in % of the mean, the
correlation of a pair's two runs, and for runs one after the other the
lag-1 autocorrelation; and the ratio of the variances of the differences.
"""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time


def start(cmd, cpu):
    def pin():
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            preexec_fn=pin), time.monotonic()


def finish(proc, t0):
    out, _ = proc.communicate()
    wall = time.monotonic() - t0
    if proc.returncode != 0:
        sys.exit('duet_noise: the program exited with status %d' % proc.returncode)
    m = re.search(r'^cpu_ns (\d+)', out, re.M)
    return float(m.group(1)) if m else wall * 1e9


def corr(a, b):
    ma, mb = statistics.mean(a), statistics.mean(b)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    return sab / (saa * sbb) ** 0.5 if saa and sbb else float('nan')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pairs', type=int, default=30)
    ap.add_argument('--cpus', default=None, help='the two CPUs of a pair at once (default: the '
                    'first two this process may use)')
    ap.add_argument('cmd', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ['--'] else a.cmd
    if not cmd:
        ap.error('no PROGRAM')
    cpus = [int(c) for c in a.cpus.split(',')] if a.cpus else sorted(os.sched_getaffinity(0))[:2]
    if len(cpus) != 2:
        sys.exit('duet_noise: two CPUs are needed')
    rng = random.Random(20261128)
    seq, duet = [], []
    finish(*start(cmd, None))  # warm the caches and the page cache
    for _ in range(a.pairs):
        x = finish(*start(cmd, None))
        y = finish(*start(cmd, None))
        seq.append((x, y))
        side = rng.randrange(2)
        p = start(cmd, cpus[side])
        q = start(cmd, cpus[1 - side])
        duet.append((finish(*p), finish(*q)))
    print('%d pairs of %s, host load %s' % (a.pairs, ' '.join(cmd),
                                            ' '.join('%.2f' % l for l in os.getloadavg())))
    var = {}
    for name, pairs in (('one after the other', seq), ('at once, CPUs %d and %d' % tuple(cpus),
                                                       duet)):
        runs = [v for p in pairs for v in p]
        m = statistics.mean(runs)
        d = [y - x for x, y in pairs]
        var[name] = statistics.variance(d)
        line = '%-24s mean %.3g ms, run CoV %.1f %%, pair difference sd %.1f %% of the mean, ' \
               'correlation within a pair %.2f' % (
                   name + ':', m / 1e6, 100 * statistics.stdev(runs) / m,
                   100 * statistics.stdev(d) / m, corr([x for x, _ in pairs], [y for _, y in pairs]))
        if pairs is seq:
            line += ', lag-1 autocorrelation %.2f' % corr(runs[:-1], runs[1:])
        print(line)
    names = list(var)
    print('variance of the differences, one after the other / at once: %.2f' %
          (var[names[0]] / var[names[1]] if var[names[1]] else float('nan')))


if __name__ == '__main__':
    main()
