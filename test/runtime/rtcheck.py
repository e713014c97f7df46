#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rtcheck.py - the runtime's unit tests: run a scenario of rt_unit (or
rt_dlopen) under a PINPOINT variable, read the results file it left, check
the figures.

    rtcheck.py --unit BIN [--unit-shared BIN] [--unit-mono BIN]
               [--unit-asan BIN] [--unit-tsan BIN]
               [--dlopen BIN --dso LIB]
               [--static-lib A --shared-lib SO] --arch ARCH --workdir DIR SCENARIO

Times are checked with generous bounds (machines are shared and noisy);
counts are checked exactly.  Every failed check is reported (harness
check()), then the scenario fails.
"""
import argparse
import math
import os
import statistics
import re
import shutil
import subprocess
import sys

import ppresults

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from pinpoint_test import check, scenario_main, skip  # noqa: E402

MS = 1000000


class Run:
    def __init__(self, proc, out, results):
        self.rc = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.out = out
        self.res = results
        self.said = {}
        for line in proc.stdout.splitlines():
            key, _, val = line.partition(' ')
            if val.isdigit():
                self.said.setdefault(key, int(val))  # the first: a child may say more
        self.pid = self.said.get('pid')


class Ctx:
    def __init__(self, args, case):
        self.args = args
        self.dir = os.path.join(args.workdir, case)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.nrun = 0

    def run(self, scenario, items, binary=None, argv=None, out=True, env=None, preexec=None,
            prefix=None):
        """Run with PINPOINT = out=<file>;<items> (items None: unset).  @preexec
        runs in the child before exec, with the results path; @prefix comes
        before the command (e.g. setpriv)."""
        self.nrun += 1
        path = os.path.join(self.dir, 'r%d' % self.nrun)
        e = dict(os.environ)
        e.pop('PINPOINT', None)
        if items is not None:
            e['PINPOINT'] = ('out=%s;' % path if out else '') + items
        e.update(env or {})
        e = {k: v.replace('@OUT@', path) for k, v in e.items()}
        cmd = (prefix or []) + [binary or self.args.unit] + \
            (argv if argv is not None else [scenario])
        proc = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=120,
                              preexec_fn=(lambda: preexec(path)) if preexec else None)
        res = None
        if os.path.exists(path) and not os.path.islink(path):
            try:
                res = ppresults.read(path)
            except ppresults.FormatError as err:
                check(False, '%s: bad results file: %s' % (scenario, err))
        return Run(proc, path, res)

    def leftovers(self):
        return [f for f in os.listdir(self.dir) if '.tmp.' in f]


def clean(ctx, run, what):
    """The run succeeded, said nothing on stderr, left a well-formed file
    written by the process itself and no temporary file."""
    check(run.rc == 0, '%s: exit status %d (stderr %r)' % (what, run.rc, run.stderr))
    check(run.stderr == '', '%s: unexpected stderr %r' % (what, run.stderr))
    check(run.res is not None, '%s: no results file' % what)
    check(not ctx.leftovers(), '%s: temporary files left: %s' % (what, ctx.leftovers()))
    if run.res is None:
        return False
    check(run.res.pid == run.pid, '%s: pid %s, program said %s' % (what, run.res.pid, run.pid))
    if run.res.clock == 'tsc':
        check(0.1 < run.res.ticks_per_ns < 10, '%s: tsc at %f ticks/ns' % (what, run.res.ticks_per_ns))
    else:
        check(run.res.ticks_per_ns == 1.0, '%s: monotonic at %f' % (what, run.res.ticks_per_ns))
    # what the probes cost, measured when the process armed (runtime/calib.c)
    costs = (run.res.plain_ns, run.res.clock_ns, run.res.bias_ns)
    # an untimed probe and the bias may cost 0: a wide out-of-order core runs
    # them beside the code around them (runtime/calib.c)
    check(0 <= costs[0] < 10000 and 0 < costs[1] < 10000 and 0 <= costs[2] < 10000 and
          run.res.calib_ns > 0,
          '%s: overhead plain_ns=%.2f clock_ns=%.2f bias_ns=%.2f calib_ns=%d'
          % ((what,) + costs + (run.res.calib_ns,)))
    return True


def slot(run, i, kind, spec, found):
    s = run.res.slots[i]
    check((s.kind, s.spec, s.found) == (kind, spec, found),
          'slot %d: want %s %s found=%d, got %r' % (i, kind, spec, found, s))
    return s


def quiet_runs(run, want):
    """@want runs of run(), each made with quiet(): those the system did not
    preempt (rt_unit says its involuntary context switches, "nivcsw"), out
    of 3 * @want at most; where too few were not, the least preempted.  A
    preempted execution of a sampled call counts as many times as the
    calls it stands for: a time slice of another process, or the real-time
    throttle's 50 ms, in one of them moves a whole run."""
    runs = []
    for _ in range(3 * want):
        r = run()
        runs.append(r)
        if sum(1 for x in runs if x.said.get('nivcsw', 1) == 0) >= want:
            break
    runs.sort(key=lambda x: x.said.get('nivcsw', 1 << 30))
    return runs[:want]


def quiet(path):
    """A preexec for runs whose times are compared with each other: real-time
    scheduling where this user may ask for it, so that the other processes
    of a loaded machine do not preempt the run (the noise of a preempted
    execution, in a total, is the size of a time slice); as it is otherwise."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except (OSError, AttributeError):
        pass


def between(v, lo, hi, what):
    check(lo <= v <= hi, '%s: %d not in [%d, %d]' % (what, v, lo, hi))


def inside(v, outer, lo, what):
    """A time the runtime measured inside a span the program timed itself
    (@outer ns): at least @lo, at most the span (+0.1% + 50 us for the two
    clocks' rates).  No tighter lower bound: a loaded machine may preempt
    the program between its own clock reads and the probes."""
    between(v, lo, outer + outer // 1000 + 50000, what)


def scenario_counts(ctx, binary=None):
    r = ctx.run('counts', 'entry=loop;fn=leaf;range=loop:0-0;fn=loop', binary=binary)
    if not clean(ctx, r, 'counts'):
        return
    check(len(r.res.slots) == 4, 'counts: 4 slots')
    check(r.res.modules == [os.path.realpath(binary or ctx.args.unit)],
          'counts: modules %r' % r.res.modules)
    entry = slot(r, 0, 'entry', 'loop', 1)
    leaf = slot(r, 1, 'fn', 'leaf', 1)
    rng = slot(r, 2, 'range', 'loop:0-0', 1)
    fn = slot(r, 3, 'fn', 'loop', 1)
    check(entry.count == 1 and fn.count == 1, 'counts: entry count %d' % entry.count)
    check('calls_ns' not in entry.fields, 'counts: the entry times its body alone: %r' % entry)
    check(leaf.count == 1000, 'counts: leaf count %d' % leaf.count)
    check(leaf.calls_ns == 0, 'counts: leaf has no calls')
    check(rng.count == 1000, 'counts: range count %d' % rng.count)
    check('lost' not in entry.fields and 'lost' not in rng.fields, 'counts: nothing lost')
    # the range is loop's only call: the same probes time both, and the same
    # probes (leaf's body) run inside them
    check(abs(fn.calls_ns - rng.total_ns) <= 1 and fn.calls_probes_ns == rng.probes_ns,
          'counts: calls %d (probes %d) != range %d (probes %d)'
          % (fn.calls_ns, fn.calls_probes_ns, rng.total_ns, rng.probes_ns))
    # as measured (net time plus the probes' cost taken out), nested intervals
    # nest; net of a calibrated cost, leaf's 1000 calls of a few ns can come
    # out above the range that holds them by the calibration's error
    raw = [x.total_ns + x.probes_ns for x in (leaf, rng, fn)]
    check(raw[0] <= raw[1] <= raw[2], 'counts: leaf %d <= range %d <= loop %d' % tuple(raw))
    # leaf holds no probes: its own bias alone, which may be 0
    check(0 <= leaf.probes_ns < rng.probes_ns < fn.probes_ns,
          'counts: probes inside: leaf %d < range %d < loop %d'
          % (leaf.probes_ns, rng.probes_ns, fn.probes_ns))
    check(r.res.samples == [] and r.res.dropped == 0, 'counts: no samples')


def mw_below(m, n):
    """The exact null distribution of the Mann-Whitney U of samples of @m
    and @n without ties: P(U <= u) for u = 0 .. m*n."""
    # ways[i][j][u]: orderings of i x's and j y's with U = u (U counts the
    # (x, y) pairs with y below x), built one smallest element at a time
    ways = [[[0] * (m * n + 1) for _ in range(n + 1)] for _ in range(m + 1)]
    for j in range(n + 1):
        ways[0][j][0] = 1
    for i in range(1, m + 1):
        ways[i][0][0] = 1
        for j in range(1, n + 1):
            for u in range(i * j + 1):
                # the largest is an x (above all j y's) or a y
                ways[i][j][u] = (ways[i - 1][j][u - j] if u >= j else 0) + ways[i][j - 1][u]
    total = sum(ways[m][n])
    out, acc = [], 0
    for c in ways[m][n]:
        acc += c
        out.append(acc / total)
    return out


def shift_interval(xs, ys, alpha):
    """The distribution-free interval for the shift of @xs over @ys at
    confidence 1 - @alpha (Mann-Whitney inverted, Hollander & Wolfe
    ch. 4.3): [d_(k), d_(mn+1-k)] of the sorted pairwise differences, k
    the largest with P(U <= k - 1) <= alpha / 2; and the Hodges-Lehmann
    shift, their median."""
    d = sorted(x - y for x in xs for y in ys)
    below = mw_below(len(xs), len(ys))
    k = 0
    while k < len(below) and below[k] <= alpha / 2:
        k += 1
    k = max(k, 1)  # too few runs for the level: the whole range
    return d[k - 1], d[len(d) - k], statistics.median(d)


def scenario_removal(ctx):
    """What the runtime reports is the program's own time (runtime/calib.c):
    the outer's net time, with N armed probe pairs inside it, nested two
    deep, is within REMOVAL_TOL of the same outer's with nothing armed
    inside.  rt_unit's twins (nest): outer_x calls mid_x 5 times, mid_x
    calls inner_x 100 times, inner_x spins about 300-400 ns, through the
    probes of an armed call (the r11 entry points); round() runs outer_a
    and outer_b in turns.  Only a's calls and bodies are armed inside, so
    each comparison is of twins in the same process, executions taking
    turns:

      * the entry, round(): its executions of a hold 500 inner calls with
        their probes, and 5 of mid's; b's none.  The medians of a's and b's
        durations (samples), past the first 8192 inner calls (timed all
        before sampling may begin), are compared: preemption moves single
        executions, not medians;
      * a range (outer_x:0-0, the calls of mid) and a function (fn=mid_x,
        whose own calls are timed as calls_ns) whose intervals hold the
        inner probes, against b's (whole=mid_b), by their totals.

    The twins are the same code at other addresses, and one process runs
    one a few per cent faster than the other: 0.96-1.02 on a quiet AMD
    EPYC VM, with or without address randomisation, and on a loaded host
    two modes 9 % apart, each process in one of them.  So each
    configuration's ratios, one a process, are compared with the
    reference's, the same ratio of processes that arm nothing inside a,
    as two samples: the 99 % distribution-free interval of the shift of
    their logarithms (shift_interval()) must reach within REMOVAL_TOL
    (REMOVAL_TOL_ALL with timing=all: below) of no shift.  The processes
    of all the configurations take turns (REMOVAL_RUNS rounds), so that
    what the host does meanwhile falls on each alike.  With the inner
    calls sampled (the default: a short call of one site) and with
    timing=all.  With probes=keep the times are raw, and the totals less
    probes_ns agree with the reference again.  What the probes cost raw,
    and so whether a runtime that removed nothing would be seen, depends
    on the processor: 10-12 % of the outer on a VM of the tests' first
    host, 1-7 % on an AMD EPYC (Zen 5) VM, whose out-of-order core runs
    most of a probe beside the work around it; the check only asks that
    raw exceed net."""
    reps, n, m, rounds = 200, 5, 100, 1200
    argv = ['nest', str(reps), str(n), str(m), str(rounds)]
    # executions of a before its inner calls may be sampled, and one more
    warm = 8192 // (n * m) + 2
    base = 'entry=round;samples=%d;range=outer_b:0-0;whole=mid_b' % (2 * reps)
    # (name, items, the outer (slot 3), what it holds (slot 4), b's outer's slot)
    ranges = ('range=outer_a:0-0;range=mid_a:0-0', ('range', 'outer_a:0-0'),
              ('range', 'mid_a:0-0'), (1, 'range', 'outer_b:0-0'))
    functions = ('fn=mid_a;whole=inner_a', ('fn', 'mid_a'), ('whole', 'inner_a'),
                 (2, 'whole', 'mid_b'))
    configs = [('reference', 'range=outer_a:0-0;whole=mid_a')]
    for name, case in (('ranges', ranges), ('functions', functions)):
        for timing in ('', ';timing=all'):
            configs.append((name + timing, case[0] + timing))
    configs.append(('probes=keep', functions[0] + ';timing=all;probes=keep'))
    runs = {name: [] for name, _ in configs}
    for _ in range(REMOVAL_RUNS):
        for name, items in configs:
            r = quiet_runs(lambda: ctx.run('nest', base + ';' + items, argv=argv,
                                           preexec=quiet), 1)[0]
            what = 'removal, ' + name
            if not clean(ctx, r, what):
                return
            entry = slot(r, 0, 'entry', 'round', 1)
            check(entry.count == 2 * reps and len(r.res.samples) == 2 * reps,
                  '%s: %d executions, %d kept' % (what, entry.count, len(r.res.samples)))
            kept = r.res.samples[2 * warm:]
            runs[name].append((statistics.median(kept[0::2]) / statistics.median(kept[1::2]),
                               r))

    def compare(what, xs, ys, tol):
        lo, hi, hl = shift_interval([math.log(x) for x in xs], [math.log(y) for y in ys], 0.01)
        print('%s: %.4f over the reference (99 %%: %.4f-%.4f); per process %r'
              % (what, math.exp(hl), math.exp(lo), math.exp(hi), [round(x, 4) for x in xs]))
        check(lo <= math.log(1 + tol) and hi >= math.log(1 - tol),
              '%s: %.4f-%.4f times the reference (99 %%), not within %.0f %% of it'
              % (what, math.exp(lo), math.exp(hi), 100 * tol))

    ref = runs['reference']
    ref_entry = [ab for ab, _ in ref]
    ref_outer = {'range': [slot(r, 3, 'range', 'outer_a:0-0', 1).total_ns /
                           slot(r, 1, 'range', 'outer_b:0-0', 1).total_ns for _, r in ref],
                 'fn': [slot(r, 4, 'whole', 'mid_a', 1).total_ns /
                        slot(r, 2, 'whole', 'mid_b', 1).total_ns for _, r in ref]}
    print('removal, reference: a/b per process %r (entry), %r (outer_a:0-0), %r (mid_a)'
          % tuple([round(x, 4) for x in v] for v in (ref_entry, ref_outer['range'],
                                                      ref_outer['fn'])))
    for name, case in (('ranges', ranges), ('functions', functions)):
        _, (kind, spec), inner, twin = case
        for timing in ('', ';timing=all'):
            what = 'removal, %s%s' % (name, timing)
            per_entry, per_outer = [], []
            for ab, r in runs[name + timing]:
                outer, b = slot(r, 3, kind, spec, 1), slot(r, twin[0], twin[1], twin[2], 1)
                held = slot(r, 4, inner[0], inner[1], 1)
                check(outer.count == b.count == reps * n and held.count == reps * n * m,
                      '%s: counts %d %d %d' % (what, outer.count, b.count, held.count))
                check(slot(r, 0, 'entry', 'round', 1).probes_ns > 0 and outer.probes_ns > 0 and
                      held.probes_ns >= 0, '%s: nothing removed: %r' % (what, r.res.slots))
                per_entry.append(ab)
                per_outer.append(outer.total_ns / b.total_ns)
            tol = REMOVAL_TOL_ALL if timing else REMOVAL_TOL
            compare(what + ' (entry, a/b of the medians)', per_entry, ref_entry, tol)
            compare('%s (%s %s, a/b of the totals)' % (what, kind, spec), per_outer,
                    ref_outer[kind], tol)
    # probes=keep: the raw times, and what to take out of them
    raw, net = [], []
    for _, r in runs['probes=keep']:
        outer, b = slot(r, 3, 'fn', 'mid_a', 1), slot(r, 2, 'whole', 'mid_b', 1)
        raw.append(outer.total_ns / b.total_ns)
        net.append((outer.total_ns - outer.probes_ns) / (b.total_ns - b.probes_ns))
    print('removal, probes=keep: mid_a/mid_b raw per process %r' % [round(x, 4) for x in raw])
    check(statistics.median(raw) > statistics.median(net),
          'probes=keep: mid_a/mid_b raw %r, less probes_ns %r: nothing to take out'
          % ([round(x, 4) for x in raw], [round(x, 4) for x in net]))
    compare('removal, probes=keep (mid_a less probes_ns)', net, ref_outer['fn'], REMOVAL_TOL)


# what the probes' removal may leave of an outer's time (scenario_removal),
# and the rounds of processes.  With every inner call timed (timing=all:
# 500 clock-reading probe pairs in each execution of the entry, some 6 % of
# it) what a probe costs in place moves from process to process on a
# loaded host, and the calibrated cost with it less: per process 0.87-1.01
# of the reference, with or without address randomisation, on a 2-vCPU
# AMD EPYC VM (doc/limits.md); sampled, 0.98-1.03 on a quiet host.
REMOVAL_TOL = 0.05
REMOVAL_TOL_ALL = 0.08
REMOVAL_RUNS = 9


def scenario_sampling(ctx):
    """Short hot calls are sampled (sample.c): counts stay exact, about one
    execution in 8 past the first 8192 is timed (only for a counter of one
    call site or one function's body), and the estimate agrees
    with timing=all's exact time, even for a workload whose every 64th call
    is 100 times longer (strided sampling would alias with it).  Each run's
    estimate is compared with a reference timed in the same process, ref(),
    called between them too rarely to be sampled: this host's speed changes
    from run to run, the ratio does not.  The times here are as measured
    (probes=keep): a call of work() is some 10 ns, the size of what its
    probes leave when their cost is taken out (runtime/README.md, "The
    probes' cost"); the estimate net of the probes is sampling_removed()'s."""
    items = 'entry=hot;range=hot:0-0;fn=work;fn=ref;range=hot:0-1;probes=keep'
    n, after, weight = 300000, 8192, 8
    nref = len([i for i in range(n) if i % 64 == 31])
    want = after + (n - after) / weight
    est, exact, bodies, calls, sampled = [], [], [], [], 0
    runs = quiet_runs(lambda: ctx.run('hot', items, preexec=quiet), 5)
    alls = quiet_runs(lambda: ctx.run('hot', items + ';timing=all', preexec=quiet), 5)
    for r, r_all in zip(runs, alls):
        if not clean(ctx, r, 'sampling'):
            return
        entry = slot(r, 0, 'entry', 'hot', 1)
        rng = slot(r, 1, 'range', 'hot:0-0', 1)
        fn = slot(r, 2, 'fn', 'work', 1)
        ref = slot(r, 3, 'fn', 'ref', 1)
        check(entry.count == 1 and 'timed' not in entry.fields, 'sampling: the entry is timed')
        check(rng.count == n and fn.count == n, 'sampling: counts %d %d' % (rng.count, fn.count))
        check(ref.count == nref and 'timed' not in ref.fields,
              'sampling: ref, %d calls, all timed: %r' % (nref, ref))
        # two call sites, one of them rare and long: never sampled, nor the
        # entry's calls (calls_ns)
        both = slot(r, 4, 'range', 'hot:0-1', 1)
        check(both.count == n + nref and 'timed' not in both.fields,
              'sampling: a range of two calls is timed every time: %r' % both)
        # a run whose first 8192 calls were slowed down (a loaded host) may
        # rightly time them all
        timed = [int(s.fields.get('timed', n)) for s in (rng, fn)]
        check(all(t == n or 0.9 * want <= t <= 1.1 * want for t in timed),
              'sampling: timed %r of %d, want about %d' % (timed, n, want))
        sampled += all(t < n for t in timed)
        est.append(fn.total_ns / ref.total_ns)
        bodies.append(fn.total_ns)
        calls.append(rng.total_ns)
        r = r_all
        if not clean(ctx, r, 'sampling, timing=all'):
            return
        check(all('timed' not in x.fields for x in r.res.slots), 'timing=all: every execution timed')
        check(slot(r, 1, 'range', 'hot:0-0', 1).count == n, 'timing=all: count')
        exact.append(slot(r, 2, 'fn', 'work', 1).total_ns / slot(r, 3, 'fn', 'ref', 1).total_ns)
    check(sampled >= 3, 'sampling: only %d of 5 runs sampled' % sampled)
    if ctx.args.unit == ctx.args.unit_asan:
        # AddressSanitizer's checks around every access are most of a 10 ns
        # call's time, and move with what the probes touch: its estimate was
        # 1.33 times timing=all's on a loaded host.  The times are checked
        # where the code is the program's (rt.sampling).
        print('sampling: the estimate is not compared under AddressSanitizer')
    else:
        # medians: a timed execution the system interrupts counts 8 times, so
        # a run on a loaded host can be far off
        check(statistics.median(bodies) <= 1.1 * statistics.median(calls),
              'sampling: the bodies %r inside the calls %r' % (bodies, calls))
        # the slow calls are about half of work()'s time: aliasing would
        # give about 0.5x or 4x
        e, x = statistics.median(est), statistics.median(exact)
        check(0.8 * x <= e <= 1.25 * x,
              'sampling: work/ref %.3f sampled, %.3f with timing=all (medians of 5 runs)'
              % (e, x))
    # long calls are timed every time, however many
    r = ctx.run('hot-long', items)
    if clean(ctx, r, 'sampling, long calls'):
        check(slot(r, 1, 'range', 'hot:0-0', 1).count == 10000, 'long calls: count')
        check(all('timed' not in x.fields for x in r.res.slots), 'long calls: not sampled')
    # a call site armed alone: its site enters one counter, whose untimed
    # executions take the probes' short path (probe.c)
    r = ctx.run('hot', 'range=hot:0-0')
    if clean(ctx, r, 'sampling, one site alone'):
        rng = slot(r, 0, 'range', 'hot:0-0', 1)
        timed = int(rng.fields.get('timed', n))
        check(rng.count == n and (timed == n or 0.9 * want <= timed <= 1.1 * want),
              'sampling, one site alone: count %d timed %d, want about %d' % (rng.count, timed, want))
    sampling_removed(ctx)
    sampling_threshold(ctx)


# what the removal of a sampled call's callee's probes may leave
# (sampling_removed), and how far a sampled estimate may be from timing
# every execution, probes or not (the estimator's own bias)
SAMPLING_TOL = 0.05
SAMPLING_BIAS_TOL = 0.08


def sampling_removed(ctx):
    """A sampled call's estimate, net of the probes' cost inside it
    (runtime/calib.c), is what it is without them.  pairs() makes 100000
    calls of chain() at one site (range=pairs:0-0: sampled past its first
    8192 calls, or timed every time with timing=all), each some 300 ns of
    straight-line work, and in turns the same calls of its twin chain2() at
    two sites (range=pairs:1-2: timed every time).  With whole=chain,
    chain()'s own probes are armed too (sampled on their own): they read
    the clock in every call with timing=all and in about one in 8
    otherwise; chain2()'s are not armed.  The call's time over its twin's,
    in the same process (medians of 9 runs), is compared with the same
    ratio without whole=chain, in the same mode: within SAMPLING_TOL with
    the probes out when timed every time, within SAMPLING_BIAS_TOL sampled
    (below); raw (probes=keep) above net.

    Apart from the probes, the sampled estimate itself is compared with
    timing every execution (the references' quotient): within
    SAMPLING_BIAS_TOL.  On a 2-core AMD EPYC (Zen 5) VM the sampled
    estimate of these 300 ns calls came out 3-5 % low with nothing armed
    inside, raw or net (0.944-0.969 of its twin, timed every time, against
    0.994-1.005 with timing=all): the timed executions, one in 8, read
    their clocks in other states of the out-of-order core than the others
    would (doc/limits.md); on the tests' first host it was within
    2 %."""
    if ctx.args.unit == ctx.args.unit_asan:
        # AddressSanitizer's checks around every access change what a probe
        # costs beside the work: the removal is checked where the code is the
        # program's (rt.sampling); here the scenarios run for memory errors
        print('sampling: the probes\' removal is not timed under AddressSanitizer')
        return
    items = 'range=pairs:0-0;range=pairs:1-2'
    n = 100000
    got = {}
    for inner in ('', ';whole=chain'):
        for mode in ('', ';timing=all', ';probes=keep', ';timing=all;probes=keep'):
            if not inner and 'keep' in mode:
                continue
            vals = []
            for r in quiet_runs(lambda: ctx.run('pairs', items + inner + mode, preexec=quiet),
                                9):
                if not clean(ctx, r, 'sampling%s%s' % (inner, mode)):
                    return
                one, two = slot(r, 0, 'range', 'pairs:0-0', 1), slot(r, 1, 'range',
                                                                      'pairs:1-2', 1)
                check(one.count == two.count == n and 'timed' not in two.fields and
                      ('timing=all' in mode) == ('timed' not in one.fields),
                      'sampling%s: %r' % (mode, r.res.slots))
                vals.append(one.total_ns / two.total_ns)
            got[inner + mode] = statistics.median(vals)
            print('sampling%s%s: a call over its twin %.4f (medians of 9 runs)'
                  % (inner, mode, got[inner + mode]))
    for mode in ('', ';timing=all'):
        net = got[';whole=chain' + mode] / got[mode]
        # sampled, each side carries the estimator's own bias, which moves
        # with what the call does between its clock reads (with its callee's
        # probes in or not: 0.953 without, 1.004 with, net, on one 2-core
        # CI host): within the bias tolerance there, SAMPLING_TOL timed
        tol = SAMPLING_TOL if 'timing=all' in mode else SAMPLING_BIAS_TOL
        check(abs(net - 1) <= tol,
              'sampling%s: a call with its callee\'s probes is %.4f times itself without, '
              'net of the probes' % (mode, net))
    # what the probes cost raw depends on the processor (scenario_removal):
    # raw is above net, by more than the tolerance on some, not all
    check(got[';whole=chain;timing=all;probes=keep'] > got[';whole=chain;timing=all'],
          'sampling, probes=keep: the call is %.4f times its twin raw, %.4f net'
          % (got[';whole=chain;timing=all;probes=keep'], got[';whole=chain;timing=all']))
    est = got[''] / got[';timing=all']
    print('sampling: the sampled estimate over timing=all\'s, nothing inside: %.4f' % est)
    check(abs(est - 1) <= SAMPLING_BIAS_TOL,
          'sampling: a sampled call\'s estimate is %.4f times timing=all\'s' % est)


def sampling_threshold(ctx):
    """Which calls are sampled follows what the clock costs (sample.c): a
    call whose mean is under 100 times two clock reads (timing each would
    add over 1 %), within 1024 to 16384 ticks, is sampled; a longer one is
    timed every time.  The results file says where the line lies."""
    n = 20000
    r = ctx.run('steady', 'fn=work;timing=all', argv=['steady', '2000'])
    if not clean(ctx, r, 'threshold, calibration'):
        return
    tpn, below, reads = r.res.ticks_per_ns, r.res.below_ns, r.res.reads_ns
    work = slot(r, 0, 'fn', 'work', 1)
    check(work.count == n and 'timed' not in work.fields, 'threshold: timing=all %r' % work)
    check(0 < reads < 10000, 'threshold: two clock reads take %d ns' % reads)
    lo, hi = 1024 / tpn, 16384 / tpn
    want = min(max(100 * reads, lo), hi)
    # reads_ns is rounded to the ns: 100 times it, to 50 ns
    check(abs(below - want) <= 51,
          'threshold: below_ns=%d, want %.0f (reads_ns=%d, %.6f ticks/ns)' % (below, want, reads, tpn))
    per_round = work.total_ns / work.count / 2000
    if per_round <= 0:
        check(False, 'threshold: work() took no time')
        return
    # a call a third of the way up: sampled (a run slowed down by a loaded
    # host may rightly not sample: up to 3 runs), unless the line is at its
    # floor, as on a host whose clock is cheap
    if below >= 2 * lo:
        rounds = max(1, int(below / 3 / per_round))
        for _ in range(3):
            r = ctx.run('steady', 'range=steady:0-0', argv=['steady', str(rounds)])
            if not clean(ctx, r, 'threshold, short'):
                return
            s = slot(r, 0, 'range', 'steady:0-0', 1)
            check(s.count == n, 'threshold, short: count %d' % s.count)
            if int(s.fields.get('timed', n)) < n:
                break
        else:
            check(False, 'threshold: calls of %.0f ns, under %d ns, never sampled' %
                  (rounds * per_round, below))
    else:
        print('threshold at its floor (%d ns, two reads %d ns): the short case is rt.sampling\'s'
              % (below, reads))
    # four times the line: timed every time, however fast the host.  Each
    # process measures its own clock reads, so its line is its own: a run
    # whose reads came out slow enough to put its line above these calls
    # (a preempted calibration) may rightly sample them; up to 3 runs
    rounds = max(1, int(4 * below / per_round))
    for _ in range(3):
        r = ctx.run('steady', 'range=steady:0-0', argv=['steady', str(rounds)])
        if not clean(ctx, r, 'threshold, long'):
            return
        s = slot(r, 0, 'range', 'steady:0-0', 1)
        check(s.count == n, 'threshold, long: count %d' % s.count)
        mine = r.res.below_ns
        if 'timed' not in s.fields or s.total_ns / n < 2 * mine:
            break
    else:
        mine = r.res.below_ns
    check('timed' not in s.fields or s.total_ns / n < 2 * mine,
          'threshold: calls of %.0f ns, over %d ns (this process\'s line %d ns), sampled: %r'
          % (s.total_ns / n, below, mine, s))


def scenario_sleep(ctx):
    r = ctx.run('sleep', 'entry=sleeper;range=sleeper:0-0;fn=sleeper')
    if not clean(ctx, r, 'sleep'):
        return
    entry = slot(r, 0, 'entry', 'sleeper', 1)
    rng = slot(r, 1, 'range', 'sleeper:0-0', 1)
    fn = slot(r, 2, 'fn', 'sleeper', 1)
    check(entry.count == 1 and rng.count == 1 and fn.count == 1, 'sleep: counts')
    inside(rng.total_ns, r.said['outer_ns'], 18 * MS, 'sleep: 20 ms call')
    check(entry.total_ns >= rng.total_ns, 'sleep: entry includes its call')
    check(abs(fn.calls_ns - rng.total_ns) <= 1, 'sleep: calls_ns is its one call')


def scenario_recursion(ctx):
    r = ctx.run('recursion', 'entry=rec;range=rec:0-0;fn=leaf;fn=rec')
    if not clean(ctx, r, 'recursion'):
        return
    entry = slot(r, 0, 'entry', 'rec', 1)
    rng = slot(r, 1, 'range', 'rec:0-0', 1)
    leaf = slot(r, 2, 'fn', 'leaf', 1)
    fn = slot(r, 3, 'fn', 'rec', 1)
    check(entry.count == 3 and fn.count == 3,
          'recursion: outermost executions only: %d' % entry.count)
    check(rng.count == 3, 'recursion: range outermost only: %d' % rng.count)
    # each of the 3 runs spins 10 x 1 ms
    between(entry.total_ns, 30 * MS - 50000, 3000 * MS, 'recursion: total')
    check(fn.calls_ns < fn.total_ns, 'recursion: calls inside')
    check(abs(fn.calls_ns - rng.total_ns) <= 1, 'recursion: calls_ns == range')
    between(fn.total_ns - fn.calls_ns, 3 * MS - 50000, 3000 * MS,
            'recursion: self = the outermost 1 ms spins')
    check(leaf.count == 0 and leaf.total_ns == 0, 'recursion: leaf never ran')


def scenario_unbalanced(ctx):
    r = ctx.run('unbalanced', 'entry=jumper;fn=leaf;fn=jumper')
    if clean(ctx, r, 'unbalanced'):
        entry = slot(r, 0, 'entry', 'jumper', 1)
        fn = slot(r, 2, 'fn', 'jumper', 1)
        check(entry.count == 3 and fn.count == 3, 'unbalanced: count %d' % entry.count)
        # the body left by longjmp; with fn=, the body and the call
        check(entry.get('lost') == 1 and fn.get('lost') == 2,
              'unbalanced: lost %r %r' % (entry.get('lost'), fn.get('lost')))
        check(slot(r, 1, 'fn', 'leaf', 1).count == 1, 'unbalanced: stray exit ignored')
    # the same once sampled: 200 of 20000 executions leave by longjmp,
    # 118 of them after sampling began; each loses the body and its call
    # (a run whose first 8192 were slowed down by a loaded host may rightly
    # time them all: up to 3 runs for one that samples)
    def hot(items):
        """The jumper slot of a clean unbalanced-hot run, None otherwise."""
        r = ctx.run('unbalanced-hot', items)
        if not clean(ctx, r, 'unbalanced-hot'):
            return None
        s = slot(r, 0, 'fn', 'jumper', 1)
        check(s.count == 19800 and s.get('lost') == 400,
              'unbalanced-hot %s: count %d lost %r' % (items, s.count, s.get('lost')))
        return s

    sampled = False
    for _ in range(3):
        s = hot('fn=jumper')
        if not s:
            break
        timed = s.get('timed', s.count)
        check(timed == s.count or 8192 + 800 < timed < 8192 + 2800,
              'unbalanced-hot: about one in 8 timed past 8192: %r' % s)
        sampled = timed < s.count
        if sampled:
            break
    check(sampled, 'unbalanced-hot: no run of 3 sampled')
    s = hot('fn=jumper;timing=all')
    if s:
        check(s.get('timed', s.count) == s.count, 'unbalanced-hot: timing=all times all: %r' % s)
    r = ctx.run('unbalanced-exit', 'fn=jumper')
    if clean(ctx, r, 'unbalanced-exit'):
        fn = slot(r, 0, 'fn', 'jumper', 1)
        check(fn.count == 0 and fn.total_ns == 0,
              'unbalanced-exit: a gone frame is not closed at exit: %r' % fn)
        check(fn.get('lost') == 2, 'unbalanced-exit: lost %r' % fn.get('lost'))


def scenario_fast(ctx):
    """The probes' x86-64 entry points (runtime/arch/x86_64/probe_x86_64.S), called with
    every register known (fast_call_x86_64.S): no register but r11 changes
    on the short path (an untimed execution of a sampled counter), on the
    timed path (every execution while all are timed, the last of each gap,
    timing=all), on the general path (an execution lost, an exit past the
    end, two counters on one site, the entry's counter with samples and
    stop=N) or when nothing is armed; and the counts and times are those
    of the C entry points.  The same for the entry points of the inline asm
    probes (fast-r11: the record in r11, the site in r10d), where no
    register but r10 and r11 changes."""
    if ctx.args.arch != 'x86_64':
        skip('the fast paths are x86-64\'s; this runtime is %s\'s' % ctx.args.arch)
    n = 20000 + 100 + 50  # flat, after a lost one, 100 us each
    runs = [(scen, binary) for scen in ('fast', 'fast-r11')
            for binary in (ctx.args.unit, ctx.args.unit_shared)]
    for scen, binary in runs:
        which = '%s %s' % (os.path.basename(binary), scen)
        r = ctx.run(scen, None, binary=binary)
        check(r.rc == 0 and not r.stderr, '%s unarmed: %d %s' % (which, r.rc, r.stderr.strip()))
        sampled = False
        for _ in range(3):  # a loaded host may rightly keep a run from sampling
            r = ctx.run(scen, 'range=fastfn:0-0', binary=binary)
            if not clean(ctx, r, 'fast %s' % which):
                break
            s = slot(r, 0, 'range', 'fastfn:0-0', 1)
            timed = s.get('timed', s.count)
            check(s.count == n and s.get('lost') == 100, 'fast %s: %r' % (which, s))
            check(timed == s.count or 8192 + 800 < timed < 8192 + 2800,
                  'fast %s: about one in 8 timed past 8192: %r' % (which, s))
            # no bound from the program's clock here: sampled, the 50 long
            # executions are timed about one in 8 and counted 8 times
            check(s.total_ns > 0, 'fast %s: total %d' % (which, s.total_ns))
            sampled = timed < s.count
            if sampled:
                break
        check(sampled, 'fast %s: no run of 3 sampled' % which)
        r = ctx.run(scen, 'range=fastfn:0-0;timing=all', binary=binary)
        if clean(ctx, r, 'fast %s timing=all' % which):
            s = slot(r, 0, 'range', 'fastfn:0-0', 1)
            check(s.count == n and s.get('timed', s.count) == n and s.get('lost') == 100,
                  'fast %s timing=all: %r' % (which, s))
            # the 50 executions of 100 us, and the others' few ns each
            inside(s.total_ns, r.said['outer_ns'], 5 * MS, 'fast %s timing=all: total' % which)
        r = ctx.run(scen, 'range=fastfn:0-0;fn=fastfn;range=fastfn:0-0;samples=0', binary=binary)
        if clean(ctx, r, 'fast %s two counters' % which):
            for i in (0, 2):
                s = slot(r, i, 'range', 'fastfn:0-0', 1)
                check(s.count == n, 'fast %s two counters: %r' % (which, s))
            s = slot(r, 1, 'fn', 'fastfn', 1)
            check(s.count == 100, 'fast %s two counters: body %r' % (which, s))
        # the calls counter alone on its site (fn=): the fast paths too
        r = ctx.run(scen, 'fn=fastfn', binary=binary)
        if clean(ctx, r, 'fast %s calls' % which):
            s = slot(r, 0, 'fn', 'fastfn', 1)
            check(s.count == 100 and s.get('lost') == 100 and 'timed' not in s.fields,
                  'fast %s calls: %r' % (which, s))
            inside(s.calls_ns, r.said['outer_ns'], 5 * MS, 'fast %s calls: calls_ns' % which)
        r = ctx.run(scen, 'entry=fastfn;samples=1000;probes=keep', binary=binary)
        if clean(ctx, r, 'fast %s entry' % which):
            s = slot(r, 0, 'entry', 'fastfn', 1)
            check(s.count == 100 and len(r.res.samples) == 100,
                  'fast %s entry: %r, %d samples' % (which, s, len(r.res.samples)))
            check(abs(sum(r.res.samples) - s.total_ns) <= 100,
                  'fast %s entry: samples sum %d total %d' % (which, sum(r.res.samples), s.total_ns))
        # delay=: a site of delay= alone takes a path of its own, one
        # measured too the general path (every register kept all the same);
        # with delay_every=7, one in 7 waits, the others go straight out
        calls = 20000 + 200 + 50  # enters of call 0
        for items, want, measured in (
                ('delay=fastfn:0-0;delay_ns=200', calls, None),
                ('delay=fastfn;delay_ns=200', 100, None),
                ('range=fastfn:0-0;delay=fastfn:0-0;delay_ns=200', calls, ('range', 'fastfn:0-0')),
                ('fn=fastfn;delay=fastfn;delay_ns=200', 100, ('fn', 'fastfn')),
                ('fn=fastfn;delay=fastfn:0-0;delay_ns=200', calls, ('fn', 'fastfn')),
                ('delay=fastfn:0-0;delay_ns=200;delay_every=7', calls // 7, None),
                ('delay=fastfn;delay_ns=200;delay_every=7', 100 // 7, None),
                ('range=fastfn:0-0;delay=fastfn:0-0;delay_ns=200;delay_every=7', calls // 7,
                 ('range', 'fastfn:0-0'))):
            r = ctx.run(scen, items, binary=binary)
            if not clean(ctx, r, 'fast %s %s' % (which, items)):
                continue
            check(r.res.delayed == (want, 200), 'fast %s %s: delayed %r, want %d'
                  % (which, items, r.res.delayed, want))
            if measured:
                s = slot(r, 0, measured[0], measured[1], 1)
                check(s.count == (n if measured[0] == 'range' else 100) and s.get('lost') == 100,
                      'fast %s %s: %r' % (which, items, s))
        r = ctx.run(scen, 'entry=fastfn;stop=40', binary=binary)
        check(r.rc == 0 and r.res is not None and 'outer_ns' not in r.said,
              'fast %s stop=40: status %d, said %r' % (which, r.rc, r.said))
        if r.res is not None:
            s = slot(r, 0, 'entry', 'fastfn', 1)
            check(s.count == 40, 'fast %s stop=40: %r' % (which, s))


def scenario_samples(ctx):
    """The entry's first N durations, as measured with probes=keep: then
    they add up to its total.  Net of the probes, each duration is at least
    0 where the total is not clamped: leaf() is a few ns, within the noise
    of what its probes cost."""
    for items, nkept, dropped in (('entry=leaf;samples=10', 10, 90),
                                  ('samples=1000;entry=leaf', 100, 0),
                                  ('entry=leaf;samples=0', 0, 100),
                                  ('entry=leaf', 0, 0),
                                  ('fn=leaf;samples=5', 0, 0)):
        items += ';probes=keep'
        r = ctx.run('samples', items)
        if not clean(ctx, r, items):
            continue
        s = r.res.slots[0]
        check(s.count == 100, '%s: count %d' % (items, s.count))
        check(len(r.res.samples) == nkept and r.res.dropped == dropped,
              '%s: samples %d dropped %d' % (items, len(r.res.samples), r.res.dropped))
        check(sum(r.res.samples) <= s.total_ns + len(r.res.samples),
              '%s: samples within the total' % items)
        if nkept == 100:
            check(abs(sum(r.res.samples) - s.total_ns) <= 100,
                  '%s: samples sum %d total %d' % (items, sum(r.res.samples), s.total_ns))
    r = ctx.run('samples', 'entry=leaf;samples=100')
    if clean(ctx, r, 'samples, net'):
        s = slot(r, 0, 'entry', 'leaf', 1)
        check(len(r.res.samples) == 100 and sum(r.res.samples) >= s.total_ns - 100,
              'samples, net: sum %d, total %d' % (sum(r.res.samples), s.total_ns))


def scenario_skip(ctx):
    """skip=K: when the entry's K-th execution ends, the runtime keeps every
    slot's totals so far, and the results leave them out: the counts are
    the executions after it, exactly, and the times theirs.  stepper()
    runs 20 times, making one call each; its first 5 executions spin 5 ms,
    the others 50 us.  The entry's kept durations are still its first N
    (samples=N), so the entry's total is the sum of those past the K-th."""
    n, k = 20, 5
    items = 'entry=stepper;samples=%d;range=stepper:0-0;fn=stepper;whole=stepper' % n
    for skip in (k, 1):
        r = ctx.run('skip', items + ';skip=%d' % skip, argv=['skip', str(n), str(k)])
        if not clean(ctx, r, 'skip=%d' % skip):
            continue
        check(r.res.skipped == skip, 'skip=%d: the results say skipped %r' % (skip, r.res.skipped))
        entry = slot(r, 0, 'entry', 'stepper', 1)
        rng = slot(r, 1, 'range', 'stepper:0-0', 1)
        fn = slot(r, 2, 'fn', 'stepper', 1)
        whole = slot(r, 3, 'whole', 'stepper', 1)
        for s in (entry, rng, fn, whole):
            check(s.count == n - skip and 'lost' not in s.fields and 'timed' not in s.fields,
                  'skip=%d: %r' % (skip, s))
        check(len(r.res.samples) == n, 'skip=%d: %d durations kept' % (skip, len(r.res.samples)))
        kept = sum(r.res.samples[skip:])
        # each value rounded to the ns on its own
        check(abs(entry.total_ns - kept) <= n, 'skip=%d: total %d, the durations past the skip %d'
              % (skip, entry.total_ns, kept))
        long_ones = max(k - skip, 0)
        lo, hi = long_ones * 5 * MS + (n - skip - long_ones) * 50000, 2000 * MS
        for s in (entry, rng, whole):
            between(s.total_ns, lo, hi, 'skip=%d: %s total' % (skip, s.kind))
        # the calls sit inside the function: as measured, probes and all
        # (each figure is net of its own estimate of the probes, which may
        # put the calls a few ns above the function's net total)
        between(fn.calls_ns, lo, hi, 'skip=%d: fn calls' % skip)
        check(fn.calls_ns + fn.calls_probes_ns <= fn.total_ns + fn.probes_ns + 2,
              'skip=%d: fn calls %d+%d ns of probes outside the function\'s %d+%d'
              % (skip, fn.calls_ns, fn.calls_probes_ns, fn.total_ns, fn.probes_ns))
        check(rng.probes_ns > 0 and entry.probes_ns > 0,
              'skip=%d: the probes\' cost of the executions left %r' % (skip, r.res.slots))
    # the spins after the skip: 15 x 50 us, well under one of the first
    r = ctx.run('skip', items + ';skip=%d' % k, argv=['skip', str(n), str(k)])
    if clean(ctx, r, 'skip, the short ones'):
        check(r.res.slots[0].total_ns < 5 * MS,
              'skip: what is left holds a 5 ms execution: %r' % r.res.slots[0])
    # not reached: no snapshot
    r = ctx.run('skip', items + ';skip=%d' % n, argv=['skip', str(n), str(k)])
    if clean(ctx, r, 'skip=N'):
        check(r.res.skipped is None and all(s.count == n for s in r.res.slots),
              'skip=%d of %d executions: %r, skipped %r' % (n, n, r.res.slots, r.res.skipped))
    # with stop=S: S - K executions, and the process stops at the S-th
    r = ctx.run('skip', items + ';skip=%d;stop=12' % k, argv=['skip', str(n), str(k)])
    if clean(ctx, r, 'skip and stop'):
        check(r.res.skipped == k and all(s.count == 12 - k for s in r.res.slots),
              'skip=%d;stop=12: %r' % (k, r.res.slots))
    # an execution lost before the skip is left out too (the body's: the
    # next enter finds it gone; its call's is found only at exit)
    r = ctx.run('unbalanced', 'entry=jumper;fn=jumper;skip=1')
    if clean(ctx, r, 'skip, lost'):
        entry, fn = slot(r, 0, 'entry', 'jumper', 1), slot(r, 1, 'fn', 'jumper', 1)
        check(entry.count == fn.count == 2 and 'lost' not in entry.fields and
              fn.get('lost') == 1, 'skip, lost: %r' % r.res.slots)


# what a delayed execution may add beyond delay_ns= (scenario_delay): the
# probes' own cost past what their removal takes out, and where the wait
# ends; and the rounds of processes
DELAY_TOL = 0.10
DELAY_RUNS = 5
# how far the calibrated cost of one probe, taken out of the entry, may be
# from what the probe cost in the run (ns): scenario_removal checks the
# removal to a few ns; a bound that adds up 4000 of them needs the slack
DELAY_PROBE_SLACK_NS = 10


def scenario_delay(ctx):
    """delay= (doc/formats.md, 2): every execution of the delayed site waits
    delay_ns= in its enter probe, and the wait stays in every interval
    around it, its probes' own cost taken out.  rt_unit runs loop() R times,
    each making C calls of leaf() (R * C = 2000 calls), with nothing
    delayed (the reference), with leaf()'s body delayed (delay=leaf), with
    loop()'s call of it delayed (delay=loop:0-0), and with leaf()'s body
    delayed and measured (fn=leaf), D = 2000 ns; then the same with the
    probes of an armed call and body in an executable (rloop() and rleaf():
    the r11 entry points, whose own path takes a site that delay= alone
    arms), but measured, which takes their general path.  And with
    delay_every=K, K = 7, D = K * 2000 ns: only every K-th execution of the
    delayed site on the thread waits, floor(R * C / K) of them, each D;
    leaf()'s body and loop()'s call (general path, the body measured too)
    and rleaf()'s body and rloop()'s call (the r11 entry points' own path).
    The configurations' processes take turns, DELAY_RUNS rounds.  The entry
    keeps each execution's duration (samples=R): the median one, per
    process, grows by C * D / K over the reference's (medians over the
    processes), within DELAY_TOL of it; its total by the executions that
    waited times D, within DELAY_TOL of it, plus what the slowest
    executions added to either (a busy wait of milliseconds is interrupted
    now and then: tens of us at a time on a loaded VM, which the medians
    leave out).  The results say how many executions waited, and how long
    each: every one of them, or exactly floor(R * C / K).  The measured
    leaf()'s total holds every wait."""
    reps, calls, d, every = 20, 100, 2000, 7
    configs = []  # (name, items, the wait, one execution in this many waits)
    for loop_, leaf_, tail in (('loop', 'leaf', ''), ('rloop', 'rleaf', ' r11')):
        base = 'entry=%s;samples=%d' % (loop_, reps)
        configs += [('reference' + tail, base, 0, 1),
                    ('body' + tail, base + ';delay=%s;delay_ns=%d' % (leaf_, d), d, 1),
                    ('call' + tail, base + ';delay=%s:0-0;delay_ns=%d' % (loop_, d), d, 1),
                    ('body every' + tail, base + ';delay=%s;delay_ns=%d;delay_every=%d'
                     % (leaf_, every * d, every), every * d, every),
                    ('call every' + tail, base + ';delay=%s:0-0;delay_ns=%d;delay_every=%d'
                     % (loop_, every * d, every), every * d, every)]
        if not tail:
            configs += [('measured', base + ';fn=leaf;delay=leaf;delay_ns=%d' % d, d, 1),
                        ('measured every', base + ';fn=leaf;delay=leaf;delay_ns=%d;delay_every=%d'
                         % (every * d, every), every * d, every)]
    runs = {name: [] for name, _, _, _ in configs}
    for _ in range(DELAY_RUNS):
        for name, items, wait, k in configs:
            argv = ['delay', str(reps), str(calls)] + (['r11'] if name.endswith('r11') else [])
            r = quiet_runs(lambda: ctx.run('delay', items, argv=argv, preexec=quiet), 1)[0]
            what = 'delay, ' + name
            if not clean(ctx, r, what):
                return
            entry = slot(r, 0, 'entry', 'rloop' if name.endswith('r11') else 'loop', 1)
            check(entry.count == reps and len(r.res.samples) == reps,
                  '%s: %d executions, %d kept' % (what, entry.count, len(r.res.samples)))
            waited = reps * calls // k
            want = (waited, wait) if wait else None
            check(r.res.delayed == want, '%s: delayed %r, want %r' % (what, r.res.delayed, want))
            # every wait is in the entry: at least D by the clock, less the
            # probes' cost taken out (a few ns a call)
            inside(entry.total_ns, r.said['outer_ns'], waited * wait * 99 // 100,
                   what + ': the entry')
            if name.startswith('measured'):
                leaf = slot(r, 1, 'fn', 'leaf', 1)
                check(leaf.count == reps * calls, '%s: leaf count %d' % (what, leaf.count))
                # inside the entry, which is net of leaf's 2 probes a call, each
                # the cost calibration gave it: a few ns off each (1.9 us over
                # 2000 calls seen on a 2-vCPU VM) put leaf past the entry
                between(leaf.total_ns, waited * wait * 99 // 100,
                        entry.total_ns + leaf.count * 2 * DELAY_PROBE_SLACK_NS,
                        what + ': leaf holds the waits, inside the entry')
            if len(r.res.samples) == reps:
                runs[name].append(r)
    if any(len(v) < DELAY_RUNS for v in runs.values()):
        return

    def typical(r):
        return statistics.median(r.res.samples)

    def slowest(r):
        """What the executions above the median added to the total."""
        return max(0, r.res.slots[0].total_ns - reps * typical(r))

    for name, _, wait, k in configs:
        if not wait:
            continue
        what = 'delay, ' + name
        ref = runs['reference r11' if name.endswith('r11') else 'reference']
        per = calls * wait / k  # what an execution waits, on average
        added = reps * calls // k * wait
        grew = statistics.median(typical(r) for r in runs[name]) - \
            statistics.median(typical(r) for r in ref)
        total = statistics.median(r.res.slots[0].total_ns for r in runs[name]) - \
            statistics.median(r.res.slots[0].total_ns for r in ref)
        noise = statistics.median(slowest(r) for r in runs[name]) + \
            statistics.median(slowest(r) for r in ref)
        print('%s: an execution of the entry %.0f ns longer, %.4f times C * D / K = %.0f; '
              'the total %d ns longer, %.4f times the %d waits of %d ns = %d (the slowest '
              'executions added %d ns)' % (what, grew, grew / per, per, total, total / added,
                                           added // wait, wait, added, noise))
        check(abs(grew - per) <= DELAY_TOL * per,
              '%s: the median execution grew by %.0f ns, not %.0f within %.0f %%'
              % (what, grew, per, 100 * DELAY_TOL))
        check((1 - DELAY_TOL) * added <= total <= (1 + DELAY_TOL) * added + noise,
              '%s: the total grew by %d ns, not %d within %.0f %% (+ %d ns of the slowest '
              'executions)' % (what, total, added, 100 * DELAY_TOL, noise))
    for name in ('measured', 'measured every'):
        for r in runs[name]:
            leaf = slot(r, 1, 'fn', 'leaf', 1)
            print('delay, %s: leaf %d ns for %d waits of %d ns (%.4f)'
                  % (name, leaf.total_ns, r.res.delayed[0], r.res.delayed[1],
                     leaf.total_ns / (r.res.delayed[0] * r.res.delayed[1])))
    delay_long(ctx)
    delay_counts(ctx)


def delay_long(ctx):
    """Long waits, up to the limit (1 s), at a call made once: loop()'s
    (general path) for 50 ms, rloop()'s (the r11 entry points' own path)
    for 1 s; the entry holds the wait."""
    for loop_, d, argv in (('loop', 50 * MS, []), ('rloop', 1000 * MS, ['r11'])):
        what = 'delay, %s:0-0 by %d ns' % (loop_, d)
        r = ctx.run('delay', 'entry=%s;delay=%s:0-0;delay_ns=%d' % (loop_, loop_, d),
                    argv=['delay', '1', '1'] + argv)
        if clean(ctx, r, what):
            check(r.res.delayed == (1, d), '%s: delayed %r' % (what, r.res.delayed))
            entry = slot(r, 0, 'entry', loop_, 1)
            # less the two rates' difference (the wait's over 1 ms, the
            # results' over 10 ms or more) and the probes' cost taken out
            inside(entry.total_ns, r.said['outer_ns'], d - d // 1000, what + ': the entry')
            print('%s: the entry took %d ns' % (what, entry.total_ns))


def delay_threads(ctx):
    """A delayed site executed on several threads: every execution waits
    and is counted, merged at the threads' ends; with delay_every=K, on
    each thread every K-th one, floor(its executions / K) per thread, on the
    C paths and the r11 entry points' own; on 1100 threads, past the
    registry's 1024, those not listed count in the totals (and each
    executing the site once, none waits with delay_every=2)."""
    n, k, step, every = 4, 5000, 3, 7
    per = [k + i * step for i in range(n)]  # calls of the threads
    for items, r11 in (('fn=leaf;delay=leaf;delay_ns=100', False),
                       ('delay=loop:0-0;delay_ns=100', False),
                       ('entry=loop;range=loop:0-0;delay=loop:0-0;delay_ns=100', False),
                       ('delay=rleaf;delay_ns=100', True),
                       ('fn=leaf;delay=leaf;delay_ns=100;delay_every=%d' % every, False),
                       ('delay=loop:0-0;delay_ns=100;delay_every=%d' % every, False),
                       ('entry=loop;range=loop:0-0;delay=loop:0-0;delay_ns=100;delay_every=%d'
                        % every, False),
                       ('delay=rleaf;delay_ns=100;delay_every=%d' % every, True),
                       ('delay=rloop:0-0;delay_ns=100;delay_every=%d' % every, True)):
        argv = ['delay-threads', str(n), str(k), str(step)] + (['r11'] if r11 else [])
        r = ctx.run('delay-threads', items, argv=argv)
        if not clean(ctx, r, 'delay, threads: ' + items):
            continue
        k_ = every if 'delay_every' in items else 1
        want = (sum(c // k_ for c in per), 100)
        check(r.res.delayed == want, 'delay, threads: %s: delayed %r, want %r'
              % (items, r.res.delayed, want))
        if items.startswith('fn=leaf'):
            check(slot(r, 0, 'fn', 'leaf', 1).count == sum(per), 'delay, threads: leaf count')
        if items.startswith('entry'):
            check(slot(r, 0, 'entry', 'loop', 1).count == n and
                  slot(r, 1, 'range', 'loop:0-0', 1).count == sum(per),
                  'delay, threads: %r' % r.res.slots)
    for extra, want in (('', 1100), (';delay_every=2', 0)):
        r = ctx.run('threads-many', 'fn=gate;delay=gate;delay_ns=1000' + extra)
        if clean(ctx, r, 'delay, threads-many' + extra):
            check(slot(r, 0, 'fn', 'gate', 1).count == 1100 and r.res.delayed == (want, 1000),
                  'delay, threads-many%s: %r, delayed %r' % (extra, r.res.slots, r.res.delayed))


def delay_counts(ctx):
    """delay='s counts: on threads (delay_threads()), past skip=K (the
    executions after it, as the slots count them), with stop=N, and a
    name that matches nothing (no execution waits)."""
    delay_threads(ctx)
    n, k = 20, 5
    items = 'entry=stepper;range=stepper:0-0;delay=stepper:0-0;delay_ns=1000'
    # the waits begin once the skip's executions have ended (what came before
    # them, the set-up, does not wait): with delay_every=3, the 3rd, 6th, ...
    # execution after the skip's
    for extra, want, count in (('', n, n), (';skip=%d' % k, n - k, n - k),
                               (';skip=%d;stop=12' % k, 12 - k, 12 - k),
                               (';delay_every=3', n // 3, n),
                               (';delay_every=3;skip=%d' % k, (n - k) // 3, n - k),
                               (';delay_every=3;skip=%d;stop=12' % k, (12 - k) // 3, 12 - k)):
        r = ctx.run('skip', items + extra, argv=['skip', str(n), str(k)])
        if clean(ctx, r, 'delay' + extra):
            check(r.res.delayed == (want, 1000) and
                  slot(r, 1, 'range', 'stepper:0-0', 1).count == count,
                  'delay%s: delayed %r, %r' % (extra, r.res.delayed, r.res.slots))
    r = ctx.run('counts', 'fn=leaf;delay=nosuch;delay_ns=1000')
    if clean(ctx, r, 'delay, no match'):
        check(r.res.delayed == (0, 1000) and slot(r, 0, 'fn', 'leaf', 1).count == 1000,
              'delay, no match: delayed %r' % (r.res.delayed,))
    # a range past the end of the call list is not armed, as range= is not
    r = ctx.run('counts', 'fn=leaf;delay=loop:1-1;delay_ns=1000')
    if clean(ctx, r, 'delay, past the calls'):
        check(r.res.delayed == (0, 1000), 'delay, past the calls: delayed %r'
              % (r.res.delayed,))


def scenario_calls(ctx):
    r = ctx.run('calls', 'fn=parent;range=parent:0-1;range=parent:2-2;range=parent:2-3')
    if not clean(ctx, r, 'calls'):
        return
    fn = slot(r, 0, 'fn', 'parent', 1)
    both = slot(r, 1, 'range', 'parent:0-1', 1)
    leaf = slot(r, 2, 'range', 'parent:2-2', 1)
    past = slot(r, 3, 'range', 'parent:2-3', 0)
    check(fn.count == 1 and both.count == 2 and leaf.count == 1, 'calls: counts')
    inside(fn.total_ns, r.said['outer_ns'], 20 * MS, 'calls: total')
    between(fn.calls_ns, 15 * MS, fn.total_ns - 5 * MS + 50000, 'calls: calls_ns')
    between(fn.total_ns - fn.calls_ns, 5 * MS - 50000, 1000 * MS, 'calls: self time')
    # Each figure is net of its own estimate of the probes inside it, which
    # may be a few ns off (and a call shorter than its estimate is 0): the
    # relations hold as measured, probes and all.
    raw = {k: s.total_ns + s.probes_ns for k, s in (('both', both), ('leaf', leaf))}
    calls_raw = fn.calls_ns + fn.calls_probes_ns
    between(both.total_ns, 15 * MS, calls_raw, 'calls: range 0-1')
    check(raw['both'] <= calls_raw + 2, 'calls: range 0-1 %d+%d ns of probes outside the calls\' '
          '%d+%d' % (both.total_ns, both.probes_ns, fn.calls_ns, fn.calls_probes_ns))
    # the two ranges cover all three calls, timed by the same probes
    leaf_low = raw['leaf'] if leaf.total_ns > 0 else 0
    check(raw['both'] + leaf_low - 3 <= calls_raw <= raw['both'] + raw['leaf'] + 3,
          'calls: calls_ns %d+%d = ranges %d+%d + %d+%d, probes and all'
          % (fn.calls_ns, fn.calls_probes_ns, both.total_ns, both.probes_ns, leaf.total_ns,
             leaf.probes_ns))
    check(leaf.total_ns < both.total_ns // 5, 'calls: leaf call %d ns against %d' %
          (leaf.total_ns, both.total_ns))
    check(past.count == 0 and past.total_ns == 0, 'calls: a range past the end is not armed')


def scenario_kinds(ctx):
    """entry= and whole= arm a function's body alone (one probe pair an
    execution), fn= its body and its calls: parent() makes 3 calls.  The
    three time the same interval with the same probes inside it, and say
    so; only fn= reports calls_ns.  Alone, whole= and entry= leave nothing
    of theirs inside the interval: what is removed is the bias of their
    own pair; fn= also removes its 3 timed calls' pairs."""
    r = ctx.run('calls', 'entry=parent;whole=parent;fn=parent')
    if clean(ctx, r, 'kinds'):
        entry, whole = slot(r, 0, 'entry', 'parent', 1), slot(r, 1, 'whole', 'parent', 1)
        fn = slot(r, 2, 'fn', 'parent', 1)
        for s in (entry, whole):
            check(s.count == 1 and 'calls_ns' not in s.fields and
                  'calls_probes_ns' not in s.fields, 'kinds: %r' % s)
        check(fn.count == 1 and fn.calls_ns > 15 * MS, 'kinds: %r' % fn)
        check(abs(entry.total_ns - fn.total_ns) <= 2 and abs(whole.total_ns - fn.total_ns) <= 2 and
              entry.probes_ns == whole.probes_ns == fn.probes_ns,
              'kinds: the same body, the same probes inside: %r' % r.res.slots)
    for items, kind in (('whole=parent', 'whole'), ('entry=parent', 'entry'),
                        ('fn=parent', 'fn')):
        r = ctx.run('calls', items)
        if not clean(ctx, r, 'kinds, ' + items):
            continue
        s = slot(r, 0, kind, 'parent', 1)
        # 6 probes read the clock inside fn='s interval: its 3 calls' pairs
        want = r.res.bias_ns + (6 * r.res.clock_ns if kind == 'fn' else 0)
        check(abs(s.probes_ns - want) <= 1,
              'kinds, %s: probes_ns=%d, want %.2f (overhead %r)'
              % (items, s.probes_ns, want, (r.res.plain_ns, r.res.clock_ns, r.res.bias_ns)))
        inside(s.total_ns, r.said['outer_ns'], 20 * MS, 'kinds, %s: total' % items)


def scenario_overhead(ctx):
    """The results say what the probes cost, measured when the process
    armed (runtime/calib.c): an untimed probe less than a timed one, a
    timed pair no less than half of two back-to-back clock reads, what
    falls inside a timed execution no more than its pair, and the
    calibration itself well under a millisecond (the median of 5 runs)."""
    took = []
    for _ in range(5):
        r = ctx.run('counts', 'fn=leaf', preexec=quiet)
        if not clean(ctx, r, 'overhead'):
            return
        res = r.res
        print('overhead plain_ns=%.2f clock_ns=%.2f bias_ns=%.2f calib_ns=%d reads_ns=%d'
              % (res.plain_ns, res.clock_ns, res.bias_ns, res.calib_ns, res.reads_ns))
        check(res.plain_ns < res.clock_ns, 'overhead: untimed %.2f, timed %.2f ns a probe'
              % (res.plain_ns, res.clock_ns))
        check(2 * res.clock_ns >= res.reads_ns / 2, 'overhead: a timed pair %.2f ns, two reads %d'
              % (2 * res.clock_ns, res.reads_ns))
        check(res.bias_ns <= 2 * res.clock_ns, 'overhead: bias %.2f ns, a timed pair %.2f'
              % (res.bias_ns, 2 * res.clock_ns))
        took.append(res.calib_ns)
    check(statistics.median(took) < MS, 'overhead: the calibration took %r ns' % took)


def scenario_files(ctx):
    specs = ['same', 'a.c:same', 'src/a.c:same', 'c:same', 'b.c:same', '/b.c:same',
             '/abs/lib/b.c:same', 'abs/lib/b.c:same', 'ib/b.c:same', 'nosuch']
    want = [(2, 3), (1, 1), (1, 1), (0, 0), (1, 2), (1, 2), (1, 2), (1, 2), (0, 0), (0, 0)]
    r = ctx.run('files', ';'.join('fn=' + s for s in specs))
    if not clean(ctx, r, 'files'):
        return
    for i, (spec, (found, count)) in enumerate(zip(specs, want)):
        s = slot(r, i, 'fn', spec, found)
        check(s.count == count, 'files: %s count %d, want %d' % (spec, s.count, count))


def scenario_register(ctx):
    r = ctx.run('register', 'fn=leaf;fn=extra;fn=unused')
    if not clean(ctx, r, 'register'):
        return
    check(len(r.res.modules) == 1, 'register: one module: %r' % r.res.modules)
    leaf = slot(r, 0, 'fn', 'leaf', 1)
    extra = slot(r, 1, 'fn', 'extra', 1)
    slot(r, 2, 'fn', 'unused', 1)
    check(leaf.count == 1 and extra.count == 1, 'register: counts')


def scenario_threads(ctx, binary=None):
    r = ctx.run('threads-sleep', 'fn=sleeper;range=sleeper:0-0', binary=binary)
    if clean(ctx, r, 'threads-sleep'):
        fn = slot(r, 0, 'fn', 'sleeper', 1)
        rng = slot(r, 1, 'range', 'sleeper:0-0', 1)
        check(fn.count == 4 and rng.count == 4, 'threads-sleep: counts')
        inside(rng.total_ns, r.said['outer_ns'], 4 * 18 * MS, 'threads-sleep: 4 x 20 ms')
        check(fn.total_ns >= rng.total_ns, 'threads-sleep: the body holds the call')
    r = ctx.run('threads-sum', 'fn=leaf;entry=loop', binary=binary)
    if clean(ctx, r, 'threads-sum'):
        check(slot(r, 0, 'fn', 'leaf', 1).count == 400000, 'threads-sum: leaf count')
        check(slot(r, 1, 'entry', 'loop', 1).count == 4, 'threads-sum: loop count')
    # skip=2 copies the counters of the 4 threads, two of them still running
    r = ctx.run('threads-sum', 'fn=leaf;entry=loop;skip=2', binary=binary)
    if clean(ctx, r, 'threads-sum, skip=2'):
        leaf, loop = slot(r, 0, 'fn', 'leaf', 1), slot(r, 1, 'entry', 'loop', 1)
        if r.res.skipped is None:  # all four ended by the copy
            check(loop.count == 4 and leaf.count == 400000, 'threads-sum, skip=2: %r' % loop)
        else:
            # the two loops that ended first are in the copy, with their calls
            check(r.res.skipped == 2 and 1 <= loop.count <= 2 and leaf.count <= 200000,
                  'threads-sum, skip=2: loop %r, leaf %r' % (loop, leaf))


def scenario_threads_exit(ctx):
    r = ctx.run('threads-running', 'fn=blocker;range=blocker:1-1')
    if clean(ctx, r, 'threads-running'):
        fn = slot(r, 0, 'fn', 'blocker', 1)
        rng = slot(r, 1, 'range', 'blocker:1-1', 1)
        check(fn.count == 1 and rng.count == 1, 'threads-running: counted at exit')
        # entered before main's 30 ms wait began, still running at exit
        between(fn.total_ns, r.said['outer_ns'] - r.said['outer_ns'] // 1000 - 50000,
                5000 * MS, 'threads-running: up to the exit')
    r = ctx.run('threads-many', 'fn=gate;range=gate:0-0')
    if clean(ctx, r, 'threads-many'):
        check(slot(r, 0, 'fn', 'gate', 1).count == 1100, 'threads-many: past the registry')
        check(slot(r, 1, 'range', 'gate:0-0', 1).count == 1100, 'threads-many: range')
    # 200 threads started and ended, 5 times; under ThreadSanitizer, whose
    # every run of them takes some 5 s, twice
    for _ in range(2 if ctx.args.unit == getattr(ctx.args, 'unit_tsan', None) else 5):
        r = ctx.run('threads-churn', 'fn=leaf')
        if clean(ctx, r, 'threads-churn'):
            check(slot(r, 0, 'fn', 'leaf', 1).count <= 200 * 20000, 'threads-churn: count')
    r = ctx.run('exit-inside', 'entry=exiter;range=exiter:0-0;fn=exiter')
    if clean(ctx, r, 'exit-inside'):
        entry = slot(r, 0, 'entry', 'exiter', 1)
        rng = slot(r, 1, 'range', 'exiter:0-0', 1)
        fn = slot(r, 2, 'fn', 'exiter', 1)
        check(entry.count == 1 and rng.count == 1 and fn.count == 1, 'exit-inside: counts')
        between(entry.total_ns, 18 * MS, 1000 * MS, 'exit-inside: counted up to exit()')
        check(fn.calls_ns >= rng.total_ns, 'exit-inside: the open exit() call counted')


def scenario_fork(ctx, binary=None):
    r = ctx.run('fork', 'fn=leaf', binary=binary, env={'RT_UNIT_OUT': '@OUT@'})
    if clean(ctx, r, 'fork'):
        check(slot(r, 0, 'fn', 'leaf', 1).count == 11, 'fork: the parent counts its own')


def nothing_written(ctx, r, what):
    check(not os.path.exists(r.out) and not ctx.leftovers(),
          '%s: files written: %s' % (what, os.listdir(ctx.dir)))


def scenario_unarmed(ctx):
    r = ctx.run('plain', None)
    check(r.rc == 0 and r.stderr == '', 'unarmed: unset: %d %r' % (r.rc, r.stderr))
    nothing_written(ctx, r, 'unarmed: unset')
    r = ctx.run('plain', 'entry=loop;fn=leaf', out=False)
    check(r.rc == 0 and r.stderr == '', 'unarmed: no out: %d %r' % (r.rc, r.stderr))
    nothing_written(ctx, r, 'unarmed: no out')
    r = ctx.run('plain', '')
    if clean(ctx, r, 'out only'):
        check(r.res.slots == [] and r.res.samples == [], 'out only: no slots')


def scenario_badspec(ctx):
    for items in ('bogus=1', 'range=loop:2-1', 'entry=a;entry=b', 'samples=x', 'fn=',
                  'entry=lo op',
                  # delay= and delay_ns= go together, once each; a delay of
                  # 1 ns to 1 s; a range as range= has it
                  'fn=leaf;delay=leaf', 'fn=leaf;delay_ns=100', 'delay=leaf;delay_ns=0',
                  'delay=leaf;delay_ns=1000000001', 'delay=leaf;delay=loop;delay_ns=100',
                  'delay=leaf;delay_ns=100;delay_ns=100', 'delay=loop:2-1;delay_ns=100',
                  'delay=loop:1;delay_ns=100', 'delay=lo op;delay_ns=100',
                  # delay_every=K with delay= only, once, 1 <= K <= 2^31 - 1
                  'fn=leaf;delay_every=7', 'delay=leaf;delay_ns=100;delay_every=0',
                  'delay=leaf;delay_ns=100;delay_every=2147483648',
                  'delay=leaf;delay_ns=100;delay_every=7;delay_every=7'):
        r = ctx.run('plain', items)
        lines = r.stderr.splitlines()
        check(r.rc == 0 and r.pid is not None, '%s: the host ran: %d' % (items, r.rc))
        check(len(lines) == 1 and re.match(
            r'pinpoint: bad PINPOINT variable: .+; nothing is measured\Z', lines[0]) is not None,
            '%s: stderr %r' % (items, r.stderr))
        nothing_written(ctx, r, items)


def scenario_nowrite(ctx):
    r = ctx.run('plain', None, env={'PINPOINT': 'out=%s/no/such/dir/r;fn=leaf' % ctx.dir})
    lines = r.stderr.splitlines()
    check(r.rc == 0, 'nowrite: the host exits normally: %d' % r.rc)
    check(len(lines) == 1 and lines[0].startswith('pinpoint: cannot write results to ') and
          lines[0].endswith('No such file or directory'), 'nowrite: stderr %r' % r.stderr)
    check(os.listdir(ctx.dir) == [], 'nowrite: leftovers %s' % os.listdir(ctx.dir))


def scenario_shared(ctx):
    scenario_counts(ctx, binary=ctx.args.unit_shared)
    scenario_threads(ctx, binary=ctx.args.unit_shared)
    scenario_fork(ctx, binary=ctx.args.unit_shared)


def scenario_monotonic(ctx):
    scenario_counts(ctx, binary=ctx.args.unit_mono)
    r = ctx.run('sleep', 'range=sleeper:0-0', binary=ctx.args.unit_mono)
    if clean(ctx, r, 'monotonic sleep'):
        check(r.res.clock == 'monotonic', 'monotonic: clock %s' % r.res.clock)
        # in ns: two clock_gettime calls
        check(0 < r.res.reads_ns < 10000 and 1024 <= r.res.below_ns <= 16384,
              'monotonic: sampling below_ns=%d reads_ns=%d' % (r.res.below_ns, r.res.reads_ns))
        check(r.res.plain_ns < r.res.clock_ns, 'monotonic: overhead %.2f %.2f'
              % (r.res.plain_ns, r.res.clock_ns))
        inside(r.res.slots[0].total_ns, r.said['outer_ns'], 18 * MS, 'monotonic: 20 ms call')
    # delay='s wait by CLOCK_MONOTONIC, on the general path
    r = ctx.run('delay', 'entry=loop;fn=leaf;delay=leaf;delay_ns=2000', binary=ctx.args.unit_mono,
                argv=['delay', '1', '1000'])
    if clean(ctx, r, 'monotonic delay'):
        check(r.res.delayed == (1000, 2000), 'monotonic delay: delayed %r' % (r.res.delayed,))
        # inside the span the program timed itself, not the entry's total:
        # the entry is net of its 2000 inner probes, each the cost that
        # clock_gettime() had at calibration, which a loaded host's (or a
        # clock source without a vDSO path's) calls miss by some 100 ns
        # (the leaf came out 2.34 ms in an entry of 2.24 ms)
        leaf = slot(r, 1, 'fn', 'leaf', 1)
        inside(leaf.total_ns, r.said['outer_ns'], 1000 * 2000 * 99 // 100,
               'monotonic delay: leaf holds the waits')
    r = ctx.run('delay', 'entry=loop;delay=leaf;delay_ns=14000;delay_every=7',
                binary=ctx.args.unit_mono, argv=['delay', '1', '1000'])
    if clean(ctx, r, 'monotonic delay_every'):
        check(r.res.delayed == (1000 // 7, 14000), 'monotonic delay_every: delayed %r'
              % (r.res.delayed,))
        inside(r.res.slots[0].total_ns, r.said['outer_ns'], 1000 // 7 * 14000 * 99 // 100,
               'monotonic delay_every: the entry holds the waits')


def scenario_asan(ctx):
    ctx.args.unit = ctx.args.unit_asan
    for scenario in (scenario_counts, scenario_sampling, scenario_recursion, scenario_unbalanced,
                     scenario_samples, scenario_calls, scenario_files, scenario_register,
                     scenario_threads, scenario_threads_exit, scenario_fork, scenario_unarmed,
                     scenario_badspec, scenario_jumps, scenario_exec, scenario_fd2,
                     delay_counts):
        scenario(ctx)


def scenario_tsan(ctx):
    ctx.args.unit = ctx.args.unit_tsan
    scenario_threads(ctx)
    scenario_threads_exit(ctx)
    scenario_fork(ctx)
    delay_threads(ctx)


def scenario_dlopen(ctx):
    dso = os.path.realpath(ctx.args.dso)
    r = ctx.run('dlopen', 'fn=host_work;fn=dso_work', binary=ctx.args.dlopen, argv=[dso])
    if not clean(ctx, r, 'dlopen'):
        return
    check(r.res.modules == [os.path.realpath(ctx.args.dlopen), dso],
          'dlopen: modules %r' % r.res.modules)
    check(slot(r, 0, 'fn', 'host_work', 1).count == 2, 'dlopen: host count')
    check(slot(r, 1, 'fn', 'dso_work', 1).count == 5, 'dlopen: library count')


def nm(args):
    return subprocess.run(['nm'] + args, capture_output=True, text=True, check=True).stdout


def scenario_symbols(ctx):
    undefined = set(l.split()[-1] for l in nm(['-u', ctx.args.static_lib]).splitlines()
                    if l.strip() and not l.endswith(':'))
    banned = {'malloc', 'calloc', 'realloc', 'free', 'posix_memalign', 'aligned_alloc',
              'strdup', 'fopen', 'fprintf', 'printf', 'puts', 'fputs', 'fwrite', 'abort',
              '__assert_fail'}
    check(not (undefined & banned), 'symbols: the runtime uses %s' % sorted(undefined & banned))
    exported = set(l.split()[-1] for l in nm(['-D', '--defined-only', ctx.args.shared_lib])
                   .splitlines() if l.strip())
    want = {'__pinpoint_enter', '__pinpoint_enter_at', '__pinpoint_exit',
            '__pinpoint_register', '__pinpoint_unregister',
            '__pinpoint_register_jumps', '__pinpoint_unregister_jumps',
            '__pinpoint_register_addrs', '__pinpoint_unregister_addrs', '__pinpoint_target'}
    if ctx.args.arch == 'x86_64':
        want |= {'__pinpoint_enter_fast', '__pinpoint_exit_fast',
                 '__pinpoint_enter_r11', '__pinpoint_exit_r11', '__pinpoint_target_r11'}
    check(exported == want, 'symbols: exported %s' % sorted(exported))


def scenario_jumps(ctx):
    """A longjmp out of the entry called from main's frame, then executions
    entered from deeper frames: each is counted, the abandoned one is lost
    (its body and its call)."""
    for scenario in ('jump-deep', 'jump-thin'):
        r = ctx.run(scenario, 'entry=jumper;fn=jumper')
        if clean(ctx, r, scenario):
            entry = slot(r, 0, 'entry', 'jumper', 1)
            fn = slot(r, 1, 'fn', 'jumper', 1)
            check(entry.count == 5 and fn.count == 5, '%s: count %d' % (scenario, entry.count))
            check(entry.get('lost') == 1 and fn.get('lost') == 2,
                  '%s: lost %r %r' % (scenario, entry.get('lost'), fn.get('lost')))


def others(ctx, r):
    """Files of the run's directory besides its results file."""
    return sorted(f for f in os.listdir(ctx.dir) if f != os.path.basename(r.out) and
                  f.startswith(os.path.basename(r.out)))


def scenario_exec(ctx):
    """An instrumented program executing an instrumented program: the child
    runs unmeasured (the runtime removed PINPOINT from the environment), the
    parent's results are its own.  A child given PINPOINT again by its parent,
    or two instrumented programs run one after the other by a shell, measure
    each: the first to exit writes <out>, the others <out>.<pid>, and nothing
    is replaced."""
    r = ctx.run('exec-parent', 'fn=leaf')
    if clean(ctx, r, 'exec'):
        check('child' in r.said, 'exec: the child did not run: %r' % r.stdout)
        check(slot(r, 0, 'fn', 'leaf', 1).count == 4, 'exec: the parent counts its own')
        check(others(ctx, r) == [], 'exec: the child wrote %s' % others(ctx, r))
    r = ctx.run('exec-parent-env', 'fn=leaf', env={'RT_UNIT_CHILD_PINPOINT': 'out=@OUT@;fn=leaf'})
    check(r.rc == 0, 'exec-env: exit status %d' % r.rc)
    child, parent = r.said.get('child'), r.pid
    alt = '%s.%d' % (r.out, parent)
    check(r.res is not None and r.res.pid == child and r.res.slots[0].count == 100,
          'exec-env: the child, first to exit, wrote <out>: %r' % (r.res and r.res.pid))
    check(os.path.exists(alt), 'exec-env: no %s: %s' % (alt, os.listdir(ctx.dir)))
    if os.path.exists(alt):
        res = ppresults.read(alt)
        check(res.pid == parent and res.slots[0].count == 4,
              'exec-env: the parent\'s own results in <out>.<pid>: %r' % res.pid)
    check(r.stderr == 'pinpoint: %s exists (another process wrote it); results written to %s\n'
          % (r.out, alt), 'exec-env: stderr %r' % r.stderr)
    check(not ctx.leftovers(), 'exec-env: temporary files %s' % ctx.leftovers())
    # a benchmark script running the program twice
    r = ctx.run('script', 'fn=leaf', binary='/bin/sh',
                argv=['-c', '"$0" counts >/dev/null 2>&1 && exec "$0" counts', ctx.args.unit])
    check(r.rc == 0 and r.res is not None, 'script: %d %r' % (r.rc, r.stderr))
    extra = others(ctx, r)
    check(len(extra) == 1 and r.pid is not None and extra[0].endswith('.%d' % r.pid),
          'script: the second run\'s file %s (pid %s)' % (extra, r.pid))
    if r.res is not None and len(extra) == 1:
        second = ppresults.read(os.path.join(ctx.dir, extra[0]))
        check(r.res.pid != second.pid and second.pid == r.pid,
              'script: pids %s %s' % (r.res.pid, second.pid))
        check(r.res.slots[0].count == second.slots[0].count == 1000, 'script: counts')


def scenario_files_safe(ctx):
    """The results file is 0600 whatever the umask; a link planted on the
    temporary or the final path is never followed."""
    old = os.umask(0)
    try:
        r = ctx.run('plain', 'fn=leaf')
    finally:
        os.umask(old)
    if clean(ctx, r, 'mode'):
        mode = os.stat(r.out).st_mode & 0o7777
        check(mode == 0o600, 'mode: results file mode %o' % mode)
    victim = os.path.join(ctx.dir, 'victim')

    def plant_tmp(path):
        os.symlink(victim, '%s.tmp.%d' % (path, os.getpid()))

    def plant_out(path):
        os.symlink(victim, path)

    for what, plant in (('tmp', plant_tmp), ('out', plant_out)):
        with open(victim, 'w') as f:
            f.write('precious\n')
        r = ctx.run('plain', 'fn=leaf', preexec=plant)
        with open(victim) as f:
            check(f.read() == 'precious\n', 'link on %s: the target was written' % what)
        check(r.rc == 0, 'link on %s: exit status %d' % (what, r.rc))
        if what == 'tmp':
            tmp = '%s.tmp.%d' % (r.out, r.pid)
            check(os.path.islink(tmp), 'link on tmp: the link was removed')
            check(r.stderr == 'pinpoint: cannot write results to %s: File exists\n' % r.out,
                  'link on tmp: stderr %r' % r.stderr)
            check(not os.path.lexists(r.out), 'link on tmp: results written anyway')
            os.unlink(tmp)
        else:
            check(os.path.islink(r.out), 'link on out: the link was replaced')
            alt = '%s.%d' % (r.out, r.pid)
            check(os.path.exists(alt) and ppresults.read(alt).pid == r.pid,
                  'link on out: results not in %s' % alt)
            check(not ctx.leftovers(), 'link on out: temporary files %s' % ctx.leftovers())


def scenario_setuid(ctx):
    """A set-user-ID root copy run by an unprivileged user ignores PINPOINT:
    no file is created or replaced in a directory only root may write."""
    if os.geteuid() != 0 or not shutil.which('setpriv'):
        skip('needs root and setpriv to make and run a set-user-ID copy')
    import pwd
    import tempfile
    nobody = pwd.getpwnam('nobody')
    top = tempfile.mkdtemp(prefix='pp-setuid-')
    try:
        os.chmod(top, 0o755)
        binary = os.path.join(top, 'rt_unit')
        shutil.copy(ctx.args.unit, binary)
        os.chown(binary, 0, 0)
        os.chmod(binary, 0o4755)
        locked = os.path.join(top, 'root-only')
        os.mkdir(locked, 0o755)
        victim = os.path.join(locked, 'victim')
        with open(victim, 'w') as f:
            f.write('precious\n')
        os.chmod(victim, 0o644)
        prefix = ['setpriv', '--reuid=%d' % nobody.pw_uid, '--regid=%d' % nobody.pw_gid,
                  '--clear-groups', '--']
        # control: root itself (no AT_SECURE) is measured
        r = ctx.run('euid', None, binary=binary,
                    env={'PINPOINT': 'out=%s;fn=leaf' % os.path.join(locked, 'control')})
        check(r.rc == 0 and os.path.exists(os.path.join(locked, 'control')),
              'setuid: control run by root wrote nothing: %r' % r.stderr)
        r = ctx.run('euid', None, binary=binary, prefix=prefix,
                    env={'PINPOINT': 'out=%s;fn=leaf' % victim})
        if r.said.get('euid') != 0:
            skip('the set-user-ID bit has no effect here (euid %s, %r)'
                 % (r.said.get('euid'), r.stderr))
        check(r.rc == 0 and r.stderr == '', 'setuid: %d %r' % (r.rc, r.stderr))
        with open(victim) as f:
            check(f.read() == 'precious\n', 'setuid: the root-owned file was replaced')
        r = ctx.run('euid', None, binary=binary, prefix=prefix,
                    env={'PINPOINT': 'out=%s;fn=leaf' % os.path.join(locked, 'new')})
        check(r.rc == 0 and r.said.get('euid') == 0, 'setuid: second run %d' % r.rc)
        check(sorted(os.listdir(locked)) == ['control', 'victim'],
              'setuid: files created: %s' % os.listdir(locked))
    finally:
        shutil.rmtree(top, ignore_errors=True)


def scenario_fd2(ctx):
    """With fd 2 closed, at start or by the program, and a file opened on it,
    the runtime's error line goes nowhere."""
    bad = 'out=%s/no/such/dir/r;fn=leaf' % ctx.dir
    for scenario, preexec in (('fd2-closed', lambda path: os.close(2)),
                              ('fd2-reopen', None)):
        victim = os.path.join(ctx.dir, scenario + '.txt')
        r = ctx.run(scenario, None, env={'PINPOINT': bad, 'RT_UNIT_FD2': victim},
                    preexec=preexec)
        check(r.rc == 0, '%s: exit status %d' % (scenario, r.rc))
        with open(victim) as f:
            text = f.read()
        check(text == '', '%s: the error line went into the file on fd 2: %r' % (scenario, text))
        check(r.stderr == '', '%s: stderr %r' % (scenario, r.stderr))


def scenario_dlopen_loop(ctx):
    """A library loaded and unloaded many times: each load is armed and
    counted, and its sites go back to the table at dlclose (otherwise its
    4096-site function would fill the 65536-site table after 16 loads)."""
    dso = os.path.realpath(ctx.args.dso)
    r = ctx.run('dlopen-loop', 'fn=dso_work;fn=dso_big', binary=ctx.args.dlopen,
                argv=[dso, '100'])
    if not clean(ctx, r, 'dlopen-loop'):
        return
    check(slot(r, 0, 'fn', 'dso_work', 100).count == 500, 'dlopen-loop: dso_work count')
    check(slot(r, 1, 'fn', 'dso_big', 100).count == 100, 'dlopen-loop: dso_big count')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--unit')
    ap.add_argument('--unit-shared')
    ap.add_argument('--unit-mono')
    ap.add_argument('--unit-asan')
    ap.add_argument('--unit-tsan')
    ap.add_argument('--dlopen')
    ap.add_argument('--dso')
    ap.add_argument('--static-lib')
    ap.add_argument('--shared-lib')
    ap.add_argument('--arch', required=True, help="the runtime's runtime/arch directory")
    ap.add_argument('--workdir', required=True)
    scenario_main(ap, globals(), call=lambda fn, args: fn(Ctx(args, args.scenario)))


if __name__ == '__main__':
    main()
