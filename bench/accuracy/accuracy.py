#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""accuracy.py - how often pinpoint names the right call, and at what cost.

    accuracy.py [--pinpoint BUILD] [--work DIR] [--trials N] [--cells A,B,...]
                [--quick] [--jobs 1] [--json FILE] [--list] [--prepare-only]
                [--real-dir DIR]

A figure, not a test: nothing is asserted, the targets are printed next to
the figures.

Each cell of the grid is a subject with known regressions:

  * gen-*: a program of gen.py (a call tree four layers below bench_entry)
    whose current revision has extra work in one function at depth D (or in
    two, in different subtrees: the larger one must head the chain);
  * aa-*: A/A, the same source built twice, the current revision linked in
    another order of its functions (other_order()): every regression
    claimed is a false positive, every call named a false lead.  aa-Nms:
    the generated program; aa-real-*: a library of bench/real and its
    driver (REAL_AA below); aa-placement-*: test/driver/programs/placement.c,
    whose speed moves 10 % and more with its link order, in two orders each;
  * real-*: a real library of the real-code benchmark (bench/real), patched
    with extra work in one of its functions (REAL_SUBJECTS below), built
    with pinpoint-cc so that pinpoint can link it in other layouts; the
    sessions go to depth 3.

Preparing a cell (cached in WORK/cells/<cell>-<hash>, reused while the
generator, the cell and the pinpoint build's compiler are the same):

  1. the entry's size: the program is built plain (clang -O2, no plugin) and
     its OUTER loop count scaled until one execution of bench_entry takes
     about the cell's entry time (timed inside the program, main -t);
  2. the regression's true size: the cost of one iteration of the injected
     work is estimated from a large injection (about 25 % of the entry),
     the iteration count set for the target fraction, and the difference
     current - previous measured with plain builds of one program that
     holds both revisions (gen.generate_pair: executions of the two
     alternate inside each process, 11 processes, per process the median
     of the pairs' differences over the median previous execution, the
     mean over processes with its t interval), rescaled and measured again
     until it is within +-20 % of the target and, for a target at least the
     session's threshold, not below that threshold (accepted(); at most 6
     tries: the closest is kept and marked when none was); the measured
     size is recorded;
  3. both revisions built with pinpoint-cc (the plugin, the shared runtime).

A trial is one session, alone on the machine (sessions are timing-sensitive,
--jobs must be 1):

    cd CELL/current && pinpoint --entry bench_entry --depth 4 --previous ../previous
        --no-build --no-save-command --json TRIAL.json [cell options] -- ./prog N

and is scored from its exit status and JSON report (read_report(): the one
place that knows the report's layout):

  * detected: exit status 1 and the entry's verdict slower;
  * right call: detected, and the chain's deepest single call (or the own
    body it ends in) is the injected function, at the injected depth; with
    several regressions the largest must head the chain, and the others are
    checked against the report's contributors when it has such a list;
  * false positive (A/A): exit status 1; named a call: the chain goes
    below the entry; their share is given with its one-sided 95 % upper
    bound (Clopper-Pearson, upper_bound());
  * runs used: every run in the report (discovery, warm-ups, measurements),
    against the theoretical minimum for the same error rates (below);
  * wall time: the session's, start to exit, per verdict.

The theoretical minimum is that of a fixed-sample search that knows the
noise of every quantity it compares (its sd in that session, previous and
current pooled) and measures each layer once, all of the layer's parts in
the same runs.  Per revision, a comparison needs

    n(sd, d, p) = ceil(2 sd^2 (z_{1-alpha/2} + z_p)^2 / d^2), at least 2,

runs for a fixed-size interval at 1 - alpha (0.95) to clear a boundary d
away with probability p.  The entry is shown slower (d = delta, the true
size measured with plain builds, p = POWER = 0.95); then at each node of
the chain that has parts (its calls and own body) one round shows its
slower part above 0 (d = delta, p = 0.95) and each other part within
+-threshold (d = T, p = 0.975, the interval two-sided): the round's n is the
largest of its parts'.  The minimum is 2 (n(entry) + sum of the rounds).  It
ignores that alpha is split between comparisons and looks, and everything a
session spends before its first look (discovery runs, warm-ups), so it is a
floor no sequential, distribution-free search reaches; the older yardstick,
2 n(entry) (D + 1) (one slower comparison per layer, every one with the
entry's noise), is printed beside it.
"""
import argparse
import fnmatch
import hashlib
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

REAL_CALIBRATION = 'm1'  # the same, for real subjects only
CALIBRATION = 'v4'  # change when the calibration or the built cell changes: rebuilds every cell
TOLERANCE = 0.20  # the true size must be within +-20 % of the target
DEFAULT_THRESHOLD = 1.0  # pinpoint's --precision-threshold, % of the entry


def threshold_pct(c):
    """The cell's --precision-threshold, % of the entry."""
    opts = c['options']
    for i, o in enumerate(opts[:-1]):
        if o == '--precision-threshold':
            return float(opts[i + 1])
    return DEFAULT_THRESHOLD


def accepted(target, threshold):
    """The sizes a cell of @target (a fraction) accepts, (low, high): +-TOLERANCE
    around it, but never below the session's threshold @threshold (a fraction)
    when the target is at least that: a "1 %" cell that measured 0.82 % with
    a 1 % threshold lies in the indifference zone, where "not slower" is as
    right an answer as "slower"."""
    low, high = target * (1 - TOLERANCE), target * (1 + TOLERANCE)
    if target >= threshold:
        low = max(low, threshold)
    return low, high
POWER = 0.95
ENTRY = 'bench_entry'


def fail(msg):
    print('bench-accuracy: %s' % msg, file=sys.stderr)
    sys.exit(1)


# ----------------------------------------------------------------------------
# The grid

ENTRY_MS = (2, 5, 20, 40)   # entry sizes the cells rotate through
FRACTIONS = (1, 2, 5, 10)   # regression sizes, % of the entry's time


def cell(name, entry_ms, regs, options=(), kind='gen', seed=None):
    """regs: [(depth, percent)], the first the largest."""
    if seed is None:
        seed = int(hashlib.sha256(name.encode()).hexdigest()[:6], 16)
    return {'name': name, 'kind': kind, 'entry_ms': entry_ms, 'regs': list(regs),
            'options': list(options), 'seed': seed}


def full_grid():
    cells = []
    for i, pct in enumerate(FRACTIONS):
        for d in range(1, 5):
            ms = ENTRY_MS[(i + d - 1) % len(ENTRY_MS)]
            cells.append(cell('gen-%dms-%dpct-d%d' % (ms, pct, d), ms, [(d, pct)]))
    for d in range(1, 5):
        ms = ENTRY_MS[(d + 1) % len(ENTRY_MS)]
        cells.append(cell('gen-%dms-1pct-d%d-pt1' % (ms, d), ms, [(d, 1)],
                          ['--precision-threshold', '1']))
    for pct in (2, 10):
        for da, db in ((1, 3), (2, 4)):
            ms = ENTRY_MS[(pct + da) % len(ENTRY_MS)]
            cells.append(cell('gen-%dms-%dpct-d%d+%dpct-d%d' % (ms, pct, da, pct // 2, db), ms,
                              [(da, pct), (db, pct / 2)]))
    for ms in ENTRY_MS:
        cells.append(cell('aa-%dms' % ms, ms, [], kind='aa'))
    cells += real_aa_cells() + placement_cells()
    for i, sub in enumerate(REAL_SUBJECTS):
        c = cell('real-%s-%dpct-d%d' % (sub['lib'], sub['percent'], sub['depth']), None,
                 [(sub['depth'], sub['percent'])], kind='real')
        c['subject'], c['depth'] = i, 3
        cells.append(c)
    # The 2 % subjects at 1 %: a regression of the default threshold's size,
    # where the sequential test is at the edge of what it calls slower.
    for i, sub in enumerate(REAL_SUBJECTS):
        if sub['percent'] != 2:
            continue
        c = cell('real-%s-1pct-d%d' % (sub['lib'], sub['depth']), None, [(sub['depth'], 1)],
                 kind='real')
        c['subject'], c['depth'], c['percent'] = i, 3, 1
        # sized against the entry as a session measures it, which the
        # threshold is a share of (session_entry_ns())
        c['session_size'] = True
        cells.append(c)
    # The noisy-machine grid (bench/README.md, "Duet runs"): 20 % of the entry in
    # three libraries, Argon2 built the way its users build it with one
    # compile-and-link command of all its files (pinpoint-cc keeps the objects).
    for i, sub in enumerate(REAL_SUBJECTS):
        if sub['lib'] not in REAL_LARGE or sub['function'] != REAL_LARGE[sub['lib']]:
            continue
        onecmd = sub['lib'] == 'argon2'
        c = cell('real-%s-20pct-d%d%s' % (sub['lib'], sub['depth'], '-onecmd' if onecmd else ''),
                 None, [(sub['depth'], 20)], kind='real')
        c['subject'], c['depth'], c['percent'], c['onecmd'] = i, 3, 20, onecmd
        cells.append(c)
    return cells


# The subjects of the 20 % cells: library and function.
REAL_LARGE = {'argon2': 'argon2i_hash_raw', 'expat': 'XML_ParseBuffer',
              'brotli': 'BrotliEncoderCompressStream'}


# Layout-only pairs of real libraries (kind 'aa'): the library's driver and
# its arguments (bench/real's short runs, some 50 ms of work); the entry is
# main.
REAL_AA = [('expat', ['4']), ('brotli', ['6']), ('lz4', ['8']), ('argon2', ['150'])]


def real_aa_cells():
    cells = []
    for lib, args in REAL_AA:
        c = cell('aa-real-%s' % lib, None, [], kind='aa')
        c['lib'], c['args'], c['depth'] = lib, args, 3
        cells.append(c)
    return cells


# A layout-sensitive program (test/driver/programs/placement.c: two link
# orders of it run 10 % and more apart on this VM), as A/A pairs: both
# revisions linked from the same objects in two orders the cell's seed draws.
PLACEMENT = os.path.join(HERE, '..', '..', 'test', 'driver', 'programs', 'placement.c')


def placement_cells():
    cells = []
    for k in range(1, 4):
        c = cell('aa-placement-%d' % k, None, [], kind='aa')
        c['program'], c['depth'] = 'placement', 3
        cells.append(c)
    return cells


def prepare_placement(c, tc, work):
    d, rec = cell_dir(work, cell_key(c, tc))
    if rec:
        return rec
    os.makedirs(os.path.join(d, 'objects'))
    obj = os.path.join(d, 'objects', 'placement.o')
    run_out([tc['pinpoint-cc'], '-O2', '-fno-inline-functions', '-c', PLACEMENT, '-o', obj])
    for k, rev in enumerate(('previous', 'current')):
        os.makedirs(os.path.join(d, rev))
        run_out([tc['pinpoint-cc'], obj, '-fuse-ld=lld',
                 '-Wl,--shuffle-sections=.text*=%d' % ((c['seed'] + 7919 * k) % 65521 + 1),
                 '-o', os.path.join(d, rev, 'prog')])
    plain = os.path.join(d, 'plain')
    run_out([tc['cc'], '-O2', '-fno-inline-functions', PLACEMENT, '-o', plain])
    times = []
    for _ in range(5):
        t0 = time.monotonic()
        run_out([plain])
        times.append((time.monotonic() - t0) / 20)  # main runs the entry 20 times
    return save_cell({'cell': c, 'dir': d, 'entry': 'run',
                      'entry_ns': 1e9 * statistics.median(times), 'args': [], 'calibration': None})


def quick_grid():
    cells = []
    for pct in (2, 10):
        for d, ms in ((1, 2), (3, 2)):
            cells.append(cell('gen-%dms-%dpct-d%d' % (ms, pct, d), ms, [(d, pct)]))
    cells.append(cell('aa-2ms', 2, [], kind='aa'))
    return cells


# Real libraries as subjects: a library of the real-code benchmark
# (bench/real/bench_real.py: its LIBRARIES, fetch(), unpack() and build() are
# imported from --real-dir, not copied), the function of it that gets the
# extra work (inserted after the first line matching 'anchor', a regular
# expression, in 'file'), the entry pinpoint starts from, the depth of that
# function below the entry (as pinpoint-layers shows it), the target size and
# the driver's arguments.  The driver prints "cpu_ns <CPU time of its work>":
# that is what the plain builds are calibrated with.  Add a dict to add a
# subject; a subject whose library bench/real does not have fails alone.
REAL_SUBJECTS = [
    # inlined into LZ4_compress_default in both builds: the right answer is that
    # function's own body, "inlined here: LZ4_compress_fast"; counted through it
    {'lib': 'lz4', 'file': 'lz4/deps/lz4/lib/lz4.c', 'function': 'LZ4_compress_fast',
     'anchor': r'^int LZ4_compress_fast\(const char\* source, char\* dest, int inputSize, '
               r'int maxOutputSize, int acceleration\)\n\{\n',
     'entry': 'main', 'depth': 2, 'percent': 5, 'args': ['10'], 'count': 'LZ4_compress_default'},
    # a small function called 160000 times a run, every 64th call slower (a few
    # ns a call on average: too little to be timed apart from the work around it,
    # see block_ns())
    {'lib': 'tree-sitter-json', 'file': 'tree-sitter/vendor/tree-sitter/lib/src/tree_cursor.c',
     'function': 'ts_tree_cursor_goto_first_child',
     'anchor': r'^bool ts_tree_cursor_goto_first_child\(TSTreeCursor \*self\) \{\n',
     'entry': 'main', 'depth': 1, 'percent': 2, 'args': ['2'], 'every': 64},
    {'lib': 'argon2', 'file': 'argon2/argon2/src/argon2.c', 'function': 'argon2i_hash_raw',
     'anchor': r'^int argon2i_hash_raw\(.*\n.*\n.*\n.*hashlen\) \{\n',
     'entry': 'main', 'depth': 1, 'percent': 2, 'args': ['400']},
    {'lib': 'expat', 'file': 'node-expat/deps/libexpat/lib/xmlparse.c', 'function': 'XML_ParseBuffer',
     'anchor': r'^XML_ParseBuffer\(XML_Parser parser, int len, int isFinal\)\n\{\n',
     'entry': 'main', 'depth': 2, 'percent': 2, 'args': ['8']},
    # reached only through an inlined helper: ts_parser_parse_string inlines
    # ts_parser_parse_string_encoding, whose call of ts_parser_parse is then a
    # call of ts_parser_parse_string, "(inlined ts_parser_parse_string_encoding)
    # → ts_parser_parse" (before calls of inlined code were timed, the search
    # ended at ts_parser_parse_string's own body)
    {'lib': 'tree-sitter-json', 'file': 'tree-sitter/vendor/tree-sitter/lib/src/parser.c',
     'function': 'ts_parser_parse',
     'anchor': r'^TSTree \*ts_parser_parse\(\n  TSParser \*self,\n  const TSTree \*old_tree,\n'
               r'  TSInput input\n\) \{\n',
     'entry': 'main', 'depth': 2, 'percent': 2, 'args': ['2']},
    {'lib': 'brotli', 'file': 'iltorb/brotli/c/enc/encode.c', 'function': 'BrotliEncoderCompressStream',
     'anchor': r'^BROTLI_BOOL BrotliEncoderCompressStream\(\n.*\n.*\n.*total_out\) \{\n',
     'entry': 'main', 'depth': 2, 'percent': 2, 'args': ['12']},
]


# ----------------------------------------------------------------------------
# Building and timing plain programs

def run_out(cmd, cwd=None, timeout=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        fail('%s failed (%d): %s' % (' '.join(cmd), p.returncode, p.stderr.strip()[-1500:]))
    return p.stdout


# Every generated program, plain or instrumented, starts each function on a
# 64-byte boundary: otherwise the injected code moves every function after
# it, and the change of code alignment alone can cost or save more than the
# injected work (measured: a "2.6 %" regression of 72 injected iterations
# was 3.0 % unaligned and 0.02 % aligned; the same sources built with the
# plugin showed 1.3 %).  The calibration would measure layout, not work.
ALIGN = ['-falign-functions=64']


def compile_c(cc, src_text, out, link_flags=()):
    """Compiles and links apart, as a build system does (pinpoint then links
    the program again in other layouts without compiling it again)."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    base = os.path.splitext(out)[0]
    with open(base + '.c', 'w') as f:
        f.write(src_text)
    run_out([cc, '-O2', '-g'] + ALIGN + ['-c', base + '.c', '-o', base + '.o'])
    run_out([cc, '-O2', '-g'] + list(link_flags) + [base + '.o', '-o', out])
    return out


def other_order(c):
    """Link options that put the functions in another order than the
    default link's (lld --shuffle-sections, seeded by the cell): the current
    revision of an A/A cell, same source, differs in layout."""
    return ['-fuse-ld=lld', '-Wl,--shuffle-sections=.text*=%d' % (c['seed'] % 65521 + 1)]


def exec_times(exe, execs):
    """Median duration (ns) of one execution of the entry, one process."""
    out = run_out([exe, '-t', str(execs)], timeout=600)
    xs = [int(line.split()[1]) for line in out.splitlines() if line.startswith('ns ')]
    if len(xs) != execs:
        fail('%s: expected %d timings' % (exe, execs))
    return statistics.median(xs[1:] if len(xs) > 2 else xs)


def execs_for(ms):
    return max(10, int(math.ceil(300.0 / max(ms, 0.1))))


def calibrate_outer(tc, work, seed, ms):
    """OUTER for which one execution of the entry takes about ms (plain)."""
    outer = max(1, int(ms * 1000 / 35.0))
    exe = None
    for _ in range(3):
        exe = compile_c(tc['cc'], gen.generate(seed, outer), os.path.join(work, 'outer', 'prog'))
        t = statistics.median(exec_times(exe, execs_for(ms)) for _ in range(3))
        ratio = ms * 1e6 / t
        if abs(ratio - 1) < 0.15:
            break
        outer = max(1, int(round(outer * ratio)))
    return outer


def pair_processes(exe, ms, procs):
    """Runs the two-revision program (gen.generate_pair) @procs times; per
    process the previous revision's median execution and the median of the
    pairs' differences (current - previous), the first pair left out."""
    pairs = max(100, int(math.ceil(1000.0 / max(ms, 0.1))))
    out = []
    for _ in range(procs):
        text = run_out([exe, str(pairs + 1)], timeout=900)
        ps, ds = [], []
        for line in text.splitlines()[1:]:
            _, p, c = line.split()
            ps.append(int(p))
            ds.append(int(c) - int(p))
        if len(ps) != pairs:
            fail('%s: expected %d pairs' % (exe, pairs))
        out.append((statistics.median(ps), statistics.median(ds)))
    return out


def measure_inside(exe, ms, procs):
    """The regression's size measured inside one process: (previous ns,
    difference ns, fraction, its 95 % interval).  Executions of the two
    revisions alternate, so the per-process noise of this kind of machine
    (episodes of tens of ms, a process's placement) falls on both alike;
    the fraction is the mean over processes of median difference / median
    previous, the interval Student's t over the processes."""
    per = pair_processes(exe, ms, procs)
    fr = [d / p for p, d in per]
    m = statistics.mean(fr)
    half = t975(len(fr) - 1) * statistics.stdev(fr) / math.sqrt(len(fr))
    pns = statistics.median(p for p, _ in per)
    return pns, m * pns, m, (m - half, m + half)


# Student's t quantile 0.975 for 1..30 degrees of freedom (scipy.stats.t.ppf).
T975 = (None, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042)


# Tries of a calibration before the closest is kept.
CAL_TRIES = 6


def next_scale(scale, tries, aim):
    """The next try's scale from the tries so far [(scale, size)]: between the
    two closest tries on either side of @aim, the straight line through them
    (a size is not proportional to the iterations: a short dependent chain
    partly overlaps the function's other work, so the first iterations cost
    less than the later ones); with none on one side, proportional to the
    last try's, at most a factor of 4."""
    below = [t for t in tries if t[1] < aim]
    above = [t for t in tries if t[1] >= aim]
    if below and above:
        (s0, f0), (s1, f1) = max(below, key=lambda t: t[1]), min(above, key=lambda t: t[1])
        if f1 > f0 and s1 != s0:
            return s0 + (aim - f0) * (s1 - s0) / (f1 - f0)
    got = tries[-1][1]
    return scale * (min(4.0, max(0.25, aim / got)) if got > 0 else 2)


def calibrate_regression(tc, work, seed, outer, ms, regs, log, threshold=DEFAULT_THRESHOLD / 100):
    """Iterations per injected function for the target sizes; returns
    (inject {path: iters}, calibration record).

    Sizes are measured with plain builds of one program holding both
    revisions (gen.generate_pair), executions alternating inside each
    process: between processes of two binaries this kind of machine varies
    by several percent (bench/README.md, "What the noise is"), so 11 rounds
    of separate processes, as before, put a 1 % cell anywhere between 0 and
    3.5 %; inside one process the same number of processes gives a 95 %
    interval of about +-0.1 % of the entry."""
    paths = gen.pick_paths(seed, [d for d, _ in regs])
    total = sum(p for _, p in regs) / 100.0
    low, high = accepted(total, threshold)
    aim = (low + high) / 2
    pair_path = os.path.join(work, 'plain', 'pair', 'prog')

    def build(scale):
        inject = {p: max(1, int(round(scale * pct / 100.0))) for p, (_, pct) in zip(paths, regs)}
        compile_c(tc['cc'], gen.generate_pair(seed, outer, inject), pair_path)
        return inject

    # 1. the cost of the injected work: a large injection (~25 % of the entry)
    base = statistics.median(exec_times(compile_c(tc['cc'], gen.generate(seed, outer),
                                                  os.path.join(work, 'plain', 'previous', 'prog')),
                                        execs_for(ms)) for _ in range(3))
    guess_ns_per_iter = 3.0
    # scale: iterations per unit of fraction (a regression of p % gets scale * p / 100)
    scale = 0.25 * base / (outer * guess_ns_per_iter * total)
    build(scale)
    _, _, frac_big, _ = measure_inside(pair_path, ms, 3)
    if frac_big <= 0.02:
        fail('calibration: the injected work made no measurable difference (%.3f)' % frac_big)
    scale = scale * aim / frac_big  # a first guess, proportional: next_scale() corrects it
    tries = []
    for k in range(CAL_TRIES):
        inject = build(scale)
        pns, d, got, ci = measure_inside(pair_path, ms, 11)
        tries.append({'inject': {gen.name(p): i for p, i in inject.items()}, 'scale': scale,
                      'previous_ns': pns, 'current_ns': pns + d, 'delta_ns': d, 'fraction': got,
                      'fraction_ci95': list(ci), 'method': 'inside one process, 11 processes'})
        log('    try %d: %s -> %.2f%% [%.2f%%, %.2f%%] (target %.2f%%)' %
            (k + 1, ' '.join('%s:%d' % kv for kv in tries[-1]['inject'].items()), 100 * got,
             100 * ci[0], 100 * ci[1], 100 * total))
        if low <= got <= high:
            break
        scale = next_scale(scale, [(t['scale'], t['fraction']) for t in tries], aim)
    best = min(tries, key=lambda t: abs(t['fraction'] / aim - 1))
    inject = {gen.parse_path(n): i for n, i in best['inject'].items()}
    rec = dict(best)
    rec['target_fraction'] = total
    rec['accepted'] = [low, high]
    rec['within_tolerance'] = low <= best['fraction'] <= high
    rec['tries'] = tries
    rec['targets'] = [{'function': gen.name(p), 'depth': len(p), 'percent': pct}
                      for p, (_, pct) in zip(paths, regs)]
    return inject, rec


# ----------------------------------------------------------------------------
# Cells

def cell_key(c, tc):
    h = hashlib.sha256()
    with open(os.path.join(HERE, 'gen.py'), 'rb') as fh:
        h.update(fh.read())
    h.update(CALIBRATION.encode())
    h.update(b'compiled and linked apart')
    h.update(json.dumps(c, sort_keys=True).encode())
    h.update(tc['cc'].encode())
    if c['kind'] == 'aa':
        h.update(json.dumps(other_order(c)).encode())
    return '%s-%s' % (c['name'], h.hexdigest()[:10])


def prepare(c, tc, work, log):
    """Builds (or reuses) the cell's revisions; returns its record."""
    if c['kind'] == 'real':
        return prepare_real(c, tc, work, log)
    if c.get('lib'):
        return prepare_real_aa(c, tc, work, log)
    if c.get('program') == 'placement':
        return prepare_placement(c, tc, work)
    d, rec = cell_dir(work, cell_key(c, tc))
    if rec:
        return rec
    log('  %s: calibrating with plain builds ...' % c['name'])
    outer = calibrate_outer(tc, d, c['seed'], c['entry_ms'])
    if c['kind'] == 'aa':
        inject, cal = {}, None
        prev_plain = compile_c(tc['cc'], gen.generate(c['seed'], outer),
                               os.path.join(d, 'plain', 'previous', 'prog'))
        entry_ns = statistics.median(exec_times(prev_plain, execs_for(c['entry_ms'])) for _ in range(5))
    else:
        inject, cal = calibrate_regression(tc, d, c['seed'], outer, c['entry_ms'], c['regs'], log,
                                           threshold_pct(c) / 100)
        entry_ns = cal['previous_ns']
    cc = tc['pinpoint-cc']
    compile_c(cc, gen.generate(c['seed'], outer), os.path.join(d, 'previous', 'prog'))
    compile_c(cc, gen.generate(c['seed'], outer, inject), os.path.join(d, 'current', 'prog'),
              other_order(c) if c['kind'] == 'aa' else ())
    return save_cell({'cell': c, 'dir': d, 'outer': outer, 'entry': ENTRY, 'entry_ns': entry_ns,
                      'executions': max(10, int(math.ceil(100.0 / c['entry_ms']))),
                      'calibration': cal})


REAL_WORK = [
    '/* injected regression: %(iters)d dependent iterations per call */\n',
    '{ unsigned long long pp_x = 0x9e3779b97f4a7c15ull;\n',
    '  for (unsigned long long k = 0; k < %(iters)dull; k++) {\n',
    '    pp_x = pp_x * 6364136223846793005ull + k; pp_x ^= pp_x >> 31; }\n',
    '  __asm__ volatile("" : : "r"(pp_x)); }\n']


# Plain runs of a real subject's driver for its entry's time, and rounds of
# the direct check (one process of each build).
REAL_ROUNDS = 41

BLOCK_MAIN = r'''
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) static void block(void)
{
%(block)s}

__attribute__((noinline)) static void empty(void)
{
	__asm__ volatile("");
}

static double per_call(void (*f)(void), long n)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (long i = 0; i < n; i++)
		f();
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
}

int main(int argc, char **argv)
{
	long n = atol(argv[1]);

	for (int r = 0; r < 7; r++) {
		double b = per_call(block, n), e = per_call(empty, n);
		printf("block_ns %%.4f\n", b - e);
	}
	return 0;
}
'''


def t975(df):
    """Student's t quantile 0.975 with @df degrees of freedom (1.96 past the table)."""
    return T975[df] if 1 <= df < len(T975) else 1.96


def real_block(iters, every=1):
    """The injected block: REAL_WORK, or with @every > 1 REAL_WORK on every
    @every-th call only (a power of two)."""
    work = ''.join(REAL_WORK) % {'iters': iters}
    if every <= 1:
        return work
    return '{ static unsigned pp_n;\n  if ((++pp_n & %du) == 0)\n%s}\n' % (every - 1, work)


def block_ns(cc, iters, work):
    """What the injected block (REAL_WORK) of @iters iterations costs: the block
    in a function of its own, timed inside one process against an empty
    function, the median of 7 repetitions.  Only a block of a few hundred ns
    or more is its latency in any context: a short one overlaps with the
    work around it, in this loop as in the function it is put in, by however
    much that work allows."""
    src = BLOCK_MAIN % {'block': real_block(iters)}
    exe = compile_c(cc, src, os.path.join(work, 'block', 'block'))
    n = max(1000, int(2e8 / (2 * iters + 20)))
    xs = [float(line.split()[1]) for line in run_out([exe, str(n)], timeout=600).splitlines()
          if line.startswith('block_ns ')]
    if len(xs) != 7:
        fail('%s: expected 7 timings' % exe)
    return max(statistics.median(xs), 1e-3)


def session_entry_ns(tc, prog, entry, args, work):
    """The entry as a session measures it, which its threshold is a share of:
    the instrumented build's entry armed, in duet runs, its clock time.  A
    real driver's entry measures 1.0-1.2 times the plain build's median CPU
    time here (the two runs of a duet share caches and memory bandwidth,
    and a run's clock time includes what its CPU time does not).  Measured
    by a short session of the build against a copy of itself at depth 0, as
    built (--layouts 1): T / (T's share), the session's own reference."""
    twin = os.path.join(work, 'twin')
    shutil.rmtree(twin, ignore_errors=True)
    os.makedirs(twin)
    for f in ('prog', 'prog.pinpoint-link'):
        if os.path.exists(os.path.join(os.path.dirname(prog), f)):
            shutil.copy2(os.path.join(os.path.dirname(prog), f), twin)
    js = os.path.join(work, 'session-entry.json')
    subprocess.run([tc['pinpoint'], '--entry', entry, '--depth', '0', '--previous', twin,
                    '--no-build', '--no-save-command', '--quiet', '--layouts', '1',
                    '--max-runs', '120', '--confirm', 'off', '--json', js, '--', './prog'] + args,
                   cwd=os.path.dirname(prog), capture_output=True, text=True, timeout=600)
    shutil.rmtree(twin, ignore_errors=True)
    rep = read_report(js) if os.path.exists(js) else {}
    if not rep.get('threshold_ns'):
        fail('%s: the session that measures the entry gave no threshold' % prog)
    return rep['threshold_ns'] / (DEFAULT_THRESHOLD / 100)


def function_count(exe, sub, work):
    """Outermost executions of the subject's function in one run of its
    instrumented driver: the runtime's count with the function armed (or the
    function sub['count'] names, one execution of which is one of it, when
    it is inlined); 0 when the function armed has no probes."""
    res = os.path.join(work, 'count.results')
    if os.path.exists(res):
        os.unlink(res)
    env = dict(os.environ)
    env['PINPOINT'] = 'out=%s;fn=%s' % (res, sub.get('count', sub['function']))
    p = subprocess.run([exe] + sub['args'], env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0 or not os.path.exists(res):
        fail('%s: counting %s failed: %s' % (exe, sub['function'], p.stderr.strip()[-300:]))
    with open(res) as f:
        m = re.search(r'^slot 0 \S+ \S+ found=(\d+) total_ns=\d+ count=(\d+)', f.read(), re.M)
    if not m or not int(m.group(1)):
        fail('%s: %s was not found' % (exe, sub['function']))
    return int(m.group(2))


def import_bench_real(real_dir):
    path = os.path.join(os.path.abspath(real_dir), 'bench_real.py')
    if not os.path.exists(path):
        fail('%s: missing: real-library cells need bench/real (--real-dir)' % path)
    sys.path.insert(0, os.path.dirname(path))
    import bench_real  # noqa: E402
    return bench_real


def build_real(br, lib, roots, outdir, tc, prog, link_extra=(), onecmd=False):
    """The library and its driver built two ways, one file at a time with
    bench/real's flags (br.compile_plan): plain, for the calibration, and with
    pinpoint-cc (pinpoint-c++ for C++), linked to @prog: its objects stay in
    @outdir and the link record beside @prog, so that pinpoint can link it
    again in other layouts (--layouts).  @link_extra: more link options of
    the instrumented program (another link order).  Returns (plain, prog,
    the instrumented objects).  With @onecmd the instrumented program is
    built by one command that compiles and links every file, as a user's
    `cc -O2 *.c -o prog` does (pinpoint-cc keeps its objects beside @prog)."""
    cc, srcs, base, _ = br.compile_plan(lib, roots, {'cc': tc['cc'], 'cxx': tc['cxx'],
                                                     'plugin': tc['plugin']})
    wrapper = tc['pinpoint-c++'] if lib['lang'] == 'C++' else tc['pinpoint-cc']
    objs = {'plain': [], 'pp': []}
    if onecmd:
        os.makedirs(os.path.dirname(prog), exist_ok=True)
        run_out([wrapper] + base + list(link_extra) + srcs + ['-o', prog] + lib['libs'] +
                ['-lpthread', '-lm'])
    for v, comp in (('plain', cc), ('pp', wrapper)):
        if onecmd and v == 'pp':
            continue
        os.makedirs(os.path.join(outdir, v), exist_ok=True)
        for i, src in enumerate(srcs):
            obj = os.path.join(outdir, v, '%03d-%s.o' % (i, os.path.basename(src)))
            run_out([comp] + base + ['-c', src, '-o', obj])
            objs[v].append(obj)
    plain = os.path.join(outdir, 'plain', 'driver')
    run_out(br.link_cmd(cc, objs['plain'], plain, lib, tc, 'plain'))
    if not onecmd:
        link_pp(wrapper, objs['pp'], prog, lib, link_extra)
    return plain, prog, objs['pp']


def link_pp(wrapper, objs, prog, lib, extra=()):
    """Links @objs with pinpoint-cc to @prog (its link record beside it)."""
    os.makedirs(os.path.dirname(prog), exist_ok=True)
    run_out([wrapper, '-O2', '-g'] + list(extra) + objs + ['-o', prog] + lib['libs'] +
            ['-lpthread', '-lm'])


def real_library(c, tc, name):
    """bench/real (imported), its library @name and the roots of that
    library's unpacked packages (fetched once into --real-work)."""
    br = import_bench_real(tc['real-dir'])
    libs = [lib for lib in br.LIBRARIES if lib['name'] == name]
    if not libs:
        fail('%s: bench/real has no library %s' % (c['name'], name))
    roots = {}
    for pkg, ver, digest in libs[0]['packages']:
        roots[pkg] = br.unpack(tc['real-work'], pkg, ver, br.fetch(tc['real-work'], pkg, ver, digest))
    return br, libs[0], roots


def keyed(name, key):
    """A cell directory's name: the cell's and a hash of @key."""
    return '%s-%s' % (name, hashlib.sha256(key.encode()).hexdigest()[:10])


def cell_dir(work, dirname):
    """The cell's directory and its record when an earlier preparation left
    one; else the directory, made empty, and None."""
    d = os.path.join(work, 'cells', dirname)
    rec_path = os.path.join(d, 'cell.json')
    if os.path.exists(rec_path):
        with open(rec_path) as f:
            return d, json.load(f)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d, None


def save_cell(rec):
    with open(os.path.join(rec['dir'], 'cell.json'), 'w') as f:
        json.dump(rec, f, indent=1)
    return rec


def prepare_real_aa(c, tc, work, log):
    """A layout-only pair of a real library: one build with pinpoint-cc,
    its objects linked twice, the current revision in another function
    order (other_order()).  Nothing else differs."""
    br, lib, roots = real_library(c, tc, c['lib'])
    d, rec = cell_dir(work, keyed(c['name'], json.dumps([c, lib], sort_keys=True) + tc['cc']))
    if rec:
        return rec
    log('  %s: building %s (bench/real), linking it in two orders ...' % (c['name'], lib['name']))
    plain, _, objs = build_real(br, lib, roots, os.path.join(d, 'build'), tc,
                                os.path.join(d, 'previous', 'prog'))
    wrapper = tc['pinpoint-c++'] if lib['lang'] == 'C++' else tc['pinpoint-cc']
    link_pp(wrapper, objs, os.path.join(d, 'current', 'prog'), lib, other_order(c))
    times = []
    for _ in range(5):
        out = run_out([plain] + c['args'], timeout=600)
        times += [float(line.split()[1]) for line in out.splitlines() if line.startswith('cpu_ns ')]
    return save_cell({'cell': c, 'dir': d, 'entry': 'main',
                      'entry_ns': statistics.median(times) if times else None,
                      'args': c['args'], 'calibration': None, 'library': lib['name'],
                      'workload': lib.get('workload')})


def prepare_real(c, tc, work, log):
    """A real library as a subject: bench/real fetches, unpacks and builds it
    (plain and with the plugin and the static runtime, its driver on top);
    the current revision is a copy of the unpacked package with the extra
    work inserted into the subject's function.  Two builds of a library
    cannot share a process, and between processes this kind of machine
    varies by several percent, so the size is measured from its parts: the
    function's executions in one run (the runtime's count), what the block
    costs a call (inside one process) and the entry's time (plain runs);
    the direct difference of the two plain builds is measured too and
    recorded beside it.  A session_size cell applies its window to the size
    against the entry as a session measures it (session_entry_ns())."""
    sub = REAL_SUBJECTS[c['subject']]
    br, lib, roots = real_library(c, tc, sub['lib'])
    d, rec = cell_dir(work, keyed(c['name'], CALIBRATION + REAL_CALIBRATION +
                                  json.dumps([c, sub, lib], sort_keys=True) + tc['cc']))
    if rec:
        return rec
    pkg, _, rel = sub['file'].partition('/')
    with open(os.path.join(roots[pkg], rel)) as f:
        text = f.read()
    m = re.search(sub['anchor'], text, re.M)
    if not m:
        fail('%s: the anchor of %s is not in %s' % (c['name'], sub['function'], sub['file']))
    patched_root = os.path.join(d, 'src-current', pkg)
    shutil.copytree(roots[pkg], patched_root)
    cur_roots = dict(roots)
    cur_roots[pkg] = patched_root
    log('  %s: building %s (bench/real) ...' % (c['name'], lib['name']))
    onecmd = c.get('onecmd', False)
    prev_plain, prev_prog, _ = build_real(br, lib, roots, os.path.join(d, 'build-previous'), tc,
                                       os.path.join(d, 'previous', 'prog'), onecmd=onecmd)

    def cpu_ns(exe):
        out = run_out([exe] + sub['args'], timeout=600)
        for line in out.splitlines():
            if line.startswith('cpu_ns '):
                return float(line.split()[1])
        fail('%s: no cpu_ns line' % exe)

    def build(iters):
        with open(os.path.join(patched_root, rel), 'w') as f:
            f.write(text[:m.end()] + real_block(iters, sub.get('every', 1)) + text[m.end():])
        return build_real(br, lib, cur_roots, os.path.join(d, 'build-current'), tc,
                          os.path.join(d, 'current', 'prog'), onecmd=onecmd)

    def measure(cur, rounds):
        """Rounds of one process of each, ABBA: the median previous and current,
        the mean paired difference and its t interval (95 %)."""
        p, q = [], []
        for r in range(rounds):
            order = [(prev_plain, p), (cur[0], q)]
            for exe, xs in (order if r % 2 == 0 else order[::-1]):
                xs.append(cpu_ns(exe))
        ds = [b - a for a, b in zip(p, q)]
        m = statistics.mean(ds)
        half = t975(rounds - 1) * statistics.stdev(ds) / math.sqrt(rounds)
        return statistics.median(p), statistics.median(q), m, (m - half, m + half)

    target = c.get('percent', sub['percent']) / 100.0
    low, high = accepted(target, threshold_pct(c) / 100)
    aim = (low + high) / 2
    # The size from its parts, each measured where it can be measured well:
    # the function's executions per run (the runtime's count, exact), what the
    # injected block costs a call (timed inside one process) and the entry's
    # time (plain runs).
    calls = function_count(prev_prog, sub, d)
    if not calls:  # inlined in the previous build: count it where the injection keeps it a call
        calls = function_count(build(1000)[1], sub, d)
    if not calls:
        fail('%s: %s never runs as a function of its own in either build' % (c['name'], sub['function']))
    calls //= sub.get('every', 1)  # the calls that run the block
    entries = [cpu_ns(prev_plain) for _ in range(REAL_ROUNDS)]
    entry_ns = statistics.median(entries)
    rel_err = t975(len(entries) - 1) * statistics.stdev(entries) / math.sqrt(len(entries)) / statistics.mean(entries)
    # The size the window applies to: against the plain entry, or for a
    # session_size cell against the entry as a session measures it (the
    # threshold's reference: a regression of T in plain terms can be below T
    # in the session's)
    ref_ns = entry_ns
    if c.get('session_size'):
        ref_ns = session_entry_ns(tc, prev_prog, sub['entry'], sub['args'], d)
        log('    the entry as a session measures it: %.2f ms (plain: %.2f ms)' % (ref_ns / 1e6, entry_ns / 1e6))
    per_iter = block_ns(tc['cc'], 1000, d) / 1000
    if calls * block_ns(tc['cc'], 100, d) > aim * ref_ns:
        fail('%s: the block would be shorter than 100 iterations, too short to be timed alone: '
             'inject it on fewer calls (\'every\')' % c['name'])
    iters = max(1, int(round(aim * ref_ns / (calls * per_iter))))
    tries = []
    for k in range(4):
        cost = block_ns(tc['cc'], iters, d)
        got = calls * cost / entry_ns
        sized = calls * cost / ref_ns
        tries.append({'inject': {sub['function']: iters}, 'previous_ns': entry_ns,
                      'current_ns': entry_ns + calls * cost, 'delta_ns': calls * cost,
                      'fraction': got, 'fraction_ci95': [got / (1 + rel_err), got / (1 - rel_err)],
                      'calls': calls, 'block_ns': cost,
                      'method': 'calls x block cost / entry (%d plain runs)' % REAL_ROUNDS})
        if c.get('session_size'):
            tries[-1].update({'session_entry_ns': ref_ns, 'session_fraction': sized})
        log('    try %d: %s:%d -> %.2f%% [%.2f%%, %.2f%%]%s (target %.2f%%; %d calls a run, %.1f ns '
            'a block)' % (k + 1, sub['function'], iters, 100 * got, 100 * got / (1 + rel_err),
                          100 * got / (1 - rel_err),
                          ', %.2f%% in session' % (100 * sized) if c.get('session_size') else '',
                          100 * target, calls, cost))
        if low <= sized <= high:
            break
        iters = max(1, int(round(iters * aim / sized)))
        if iters == tries[-1]['inject'][sub['function']]:
            break

    def sized_of(t):  # the size a try's window applies to
        return t.get('session_fraction', t['fraction'])

    best = min(tries, key=lambda t: abs(sized_of(t) / aim - 1))
    cur = build(best['inject'][sub['function']])
    # the same size measured directly, between processes: for the record
    pns, cns, delta, ci = measure(cur, REAL_ROUNDS)
    best['direct'] = {'fraction': delta / pns, 'fraction_ci95': [ci[0] / pns, ci[1] / pns],
                      'method': 'separate processes, %d rounds' % REAL_ROUNDS}
    log('    directly, between processes: %.2f%% [%.2f%%, %.2f%%]' % (
        100 * delta / pns, 100 * ci[0] / pns, 100 * ci[1] / pns))
    cal = dict(best)
    cal.update({'target_fraction': target, 'accepted': [low, high],
                'within_tolerance': low <= sized_of(best) <= high,
                'tries': tries, 'targets': [{'function': sub['function'], 'depth': sub['depth'],
                                             'percent': c.get('percent', sub['percent'])}]})
    return save_cell({'cell': c, 'dir': d, 'entry': sub['entry'], 'entry_ns': entry_ns,
                      'args': sub['args'], 'calibration': cal, 'library': lib['name'],
                      'workload': lib.get('workload')})


# ----------------------------------------------------------------------------
# Reading a report: the one function that knows the JSON layout

def read_report(path):
    """What a session's JSON report says, in the terms the scores use.

    The bottleneck chain is 'bottleneck_chain' (doc/report.schema.json): the
    entry, then one step per layer ('call': the callee named; 'range': a
    range of calls, slower only as a range; 'self': the own body of the
    function named above; 'structural').  A report with a 'contributors'
    list (other significant contributors beside the chain) lists their
    function names there."""
    with open(path) as f:
        r = json.load(f)
    entry = [c for c in r.get('comparisons', []) if c.get('kind') == 'entry' and c.get('verdict')]
    e = entry[-1] if entry else None
    named, depth, kind, detail = None, 0, None, None
    for step in r.get('bottleneck_chain', []):
        kind = step.get('kind')
        detail = step.get('detail')
        if kind == 'call':
            depth += 1
            named = step.get('callee')
        elif kind == 'self':
            named = step.get('function')
        elif kind == 'structural':
            named = step.get('callee') or step.get('function')
        elif kind == 'range':
            named = None
    sd = None
    if e and e.get('previous') and e.get('current'):
        sp, sc = e['previous'].get('sd'), e['current'].get('sd')
        if sp is not None and sc is not None:
            sd = math.sqrt((sp * sp + sc * sc) / 2)
    # the layers a search must decide on the way down the chain: per chain node, its parts
    # (calls and own body) with the noise of their values, the chain's part marked
    comps = {c.get('id'): c for c in r.get('comparisons', [])}
    nodes = {n.get('id'): n for n in r.get('tree', [])}
    layers = []
    for n in r.get('tree', []):
        if not n.get('chain'):
            continue
        parts = []
        for k in n.get('children', []):
            ch = nodes.get(k) or {}
            c = comps.get(ch.get('comparison'))
            if c and len(c.get('previous_ns') or []) > 1 and len(c.get('current_ns') or []) > 1:
                parts.append((math.sqrt((statistics.variance(c['previous_ns']) +
                                         statistics.variance(c['current_ns'])) / 2),
                              bool(ch.get('chain'))))
        if parts:
            layers.append(parts)
    contributors = None
    if isinstance(r.get('contributors'), list):
        contributors = [x.get('function') or x.get('callee') if isinstance(x, dict) else x
                        for x in r['contributors']]
    return {
        'exit_code': r.get('exit_code'),
        'outcome': r.get('outcome'),
        'entry_verdict': (e.get('verdict') or '').lower() or None if e else None,
        'entry_previous_ns': (e.get('previous') or {}).get('median') if e else None,
        'entry_sd_ns': sd,
        'layers': layers,
        'threshold_ns': e.get('threshold_ns') if e else None,
        'confidence': (r.get('options') or {}).get('confidence', 0.95),
        'named': named, 'named_depth': depth, 'named_kind': kind, 'named_detail': detail,
        'chain': [s.get('callee') or s.get('function') for s in r.get('bottleneck_chain', [])],
        'contributors': contributors,
        'runs': len(r.get('runs', [])),
        # the what-if on the chain's claim (--confirm): its verdict, runs and time
        'confirmation': (r.get('confirmation') or {}).get('verdict'),
        'confirm_runs': (r.get('time') or {}).get('confirm_runs', 0),
        'confirm_s': (r.get('time') or {}).get('confirm_s', 0.0),
    }


def fixed_n(sd, effect, confidence, power):
    """Per revision: the runs of a fixed-size interval at @confidence whose end clears a
    boundary @effect away with probability @power, the sd known; at least 2."""
    z = statistics.NormalDist()
    k = z.inv_cdf(1 - (1 - confidence) / 2) + z.inv_cdf(power)
    return max(math.ceil(2 * sd * sd * k * k / (effect ** 2)), 2)


def minimum_chain_runs(sd, delta, confidence, depth):
    """2 n (depth + 1): the entry and one slower comparison per layer, each with the
    entry's noise; None when undefined (no regression, or no noise figure)."""
    if sd is None or delta is None or delta <= 0:
        return None
    return 2 * fixed_n(sd, delta, confidence, POWER) * (depth + 1)


def minimum_runs(rep, delta, confidence):
    """The runs a fixed-sample search that knows every part's noise needs to name the
    chain: the entry shown slower, then per chain node one round in which its slower part
    is shown above 0 and each of its other parts within +-threshold (an interval at the
    same confidence, power POWER, two-sided for the 'same' parts), the parts measured in
    the same runs; 2 revisions.  None when undefined."""
    sd, thr = rep.get('entry_sd_ns'), rep.get('threshold_ns')
    if sd is None or delta is None or delta <= 0 or not thr:
        return None
    n = fixed_n(sd, delta, confidence, POWER)
    for parts in rep.get('layers') or []:
        n += max(fixed_n(s, delta, confidence, POWER) if chain else
                 fixed_n(s, thr, confidence, (1 + POWER) / 2) for s, chain in parts)
    return 2 * n


# ----------------------------------------------------------------------------
# Trials

def right_call(rep, function, depth):
    """Whether the chain ends at @function, @depth layers below the entry: as
    the call named there or its own body, or, where the function was inlined
    into its caller, as the caller's own body one layer up with the function
    among the calls inlined into it ("inlined here: <function> (file:line)")."""
    if rep['named'] == function and rep['named_depth'] == depth and rep['named_kind'] in ('call', 'self'):
        return True
    detail = rep.get('named_detail') or ''
    return bool(rep['named_kind'] == 'self' and rep['named_depth'] == depth - 1 and
                re.search(r'\binlined here: (.*, )?%s \(' % re.escape(function), detail))


def trial(rec, tc, k, trials_dir):
    c = rec['cell']
    cur = os.path.join(rec['dir'], 'current')
    js = os.path.join(trials_dir, '%s-%02d.json' % (c['name'], k))
    if os.path.exists(js):
        os.unlink(js)
    cmd = [tc['pinpoint'], '--entry', rec['entry'], '--depth', str(c.get('depth', 4)),
           '--previous', '../previous',
           '--no-build', '--no-save-command', '--quiet', '--json', js] + c['options'] + \
          tc.get('extra', []) + ['--', './prog'] + rec.get('args', [str(rec.get('executions'))])
    t0 = time.monotonic()
    if tc.get('fresh-layouts'):  # new link orders for every session: relinking is in its time
        for rev in ('previous', 'current'):
            # the layouts' cache of the revision's directory (pinpoint/layouts/layouts.h)
            st = os.stat(os.path.join(rec['dir'], rev))
            cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'),
                                                                      '.cache')
            shutil.rmtree(os.path.join(cache, 'pinpoint', 'layouts',
                                       '%x-%x' % (st.st_dev, st.st_ino)), ignore_errors=True)
    p = subprocess.run(cmd, cwd=cur, capture_output=True, text=True, timeout=3600)
    wall = time.monotonic() - t0
    res = {'trial': k, 'exit': p.returncode, 'wall_s': wall, 'json': js}
    if not os.path.exists(js):
        res['error'] = p.stderr.strip()[-300:]
        return res
    rep = read_report(js)
    res.update(rep)
    if c['kind'] == 'aa':
        res['false_positive'] = p.returncode == 1
        res['named_call'] = len(rep['chain']) > 1
        return res
    cal = rec['calibration']
    top = cal['targets'][0]
    res['detected'] = p.returncode == 1 and rep['entry_verdict'] == 'slower'
    res['right'] = bool(res['detected'] and right_call(rep, top['function'], top['depth']))
    others = [t['function'] for t in cal['targets'][1:]]
    if others and rep['contributors'] is not None:
        res['others_listed'] = all(o in rep['contributors'] for o in others)
    score_minima(res, rep, cal)
    return res


def score_minima(res, rep, cal):
    """A session's two yardsticks for its runs (minimum_runs, minimum_chain_runs)."""
    res['minimum_runs'] = minimum_runs(rep, cal['delta_ns'], rep['confidence'])
    res['minimum_chain_runs'] = minimum_chain_runs(rep['entry_sd_ns'], cal['delta_ns'],
                                                   rep['confidence'],
                                                   max(t['depth'] for t in cal['targets']))


def summarise(rec, results, rescore=False):
    """One cell's row; @rescore: score the runs again from the sessions' reports where
    they are still there (an earlier run's table, --table-from)."""
    c = rec['cell']
    ok = [r for r in results if 'error' not in r]
    s = {'cell': c['name'], 'kind': c['kind'], 'entry_ms': rec['entry_ns'] / 1e6,
         'options': ' '.join(c['options']), 'trials': len(results), 'failed': len(results) - len(ok),
         'runs_median': statistics.median(r['runs'] for r in ok) if ok else None,
         'wall_median_s': statistics.median(r['wall_s'] for r in results) if results else None,
         'wall_max_s': max(r['wall_s'] for r in results) if results else None,
         'walls_s': [r['wall_s'] for r in results], 'depth': c.get('depth', 4)}
    if c['kind'] == 'aa':
        s['false_positives'] = sum(1 for r in ok if r['false_positive'])
        s['named_calls'] = sum(1 for r in ok if r.get('named_call'))
        s['true_pct'] = 0.0
        return s
    cal = rec['calibration']
    s['targets'] = cal['targets']
    s['true_pct'] = 100 * cal['fraction']
    s['true_ci_pct'] = [100 * x for x in cal['fraction_ci95']] if cal.get('fraction_ci95') else None
    s['target_pct'] = 100 * cal['target_fraction']
    s['calibrated'] = cal['within_tolerance']
    # the same extra work against the instrumented entry the session measured
    insess = [100 * cal['delta_ns'] / r['entry_previous_ns'] for r in ok if r.get('entry_previous_ns')]
    s['session_pct'] = statistics.median(insess) if insess else None
    s['detected'] = sum(1 for r in ok if r['detected'])
    s['right'] = sum(1 for r in ok if r['right'])
    # the what-if on the chain's claim: each verdict's sessions, its runs and time
    s['confirmations'] = {}
    for r in ok:
        if r.get('confirmation'):
            s['confirmations'][r['confirmation']] = s['confirmations'].get(r['confirmation'], 0) + 1
    tried = [r for r in ok if r.get('confirm_runs')]
    s['confirm_runs_median'] = statistics.median(r['confirm_runs'] for r in tried) if tried else None
    s['confirm_s_median'] = statistics.median(r['confirm_s'] for r in tried) if tried else None
    listed = [r['others_listed'] for r in ok if 'others_listed' in r]
    s['others_listed'] = sum(listed) if listed else None
    for r in ok if rescore else ():
        if r.get('json') and os.path.exists(r['json']):
            score_minima(r, read_report(r['json']), cal)
    for key, name in (('minimum_runs', ''), ('minimum_chain_runs', '_chain')):
        ratios = [r['runs'] / r[key] for r in ok if r.get(key)]
        s['minimum%s_runs_median' % name] = statistics.median(r[key] for r in ok if r.get(key)) \
            if ratios else None
        s['runs_ratio%s_median' % name] = statistics.median(ratios) if ratios else None
    return s


def upper_bound(k, n, level=0.95):
    """The one-sided Clopper-Pearson upper confidence bound at @level for a
    proportion, @k of @n: the p at which P(X <= k) = 1 - level, X ~ B(n, p)
    (bisection on the binomial distribution function; scipy's
    beta.ppf(level, k + 1, n - k) gives the same)."""
    if n <= 0:
        return None
    if k >= n:
        return 1.0

    def cdf(p):
        return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))
    lo, hi = k / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if cdf(mid) > 1 - level:
            lo = mid
        else:
            hi = mid
    return hi


def fmt(x, spec, none='n/a'):
    return none if x is None else spec % x


def print_table(rows, out=sys.stdout):
    hdr = ('cell', 'entry', 'size', 'in session', 'trials', 'detected', 'right call', 'A/A FP',
           'runs', 'minimum', 'ratio', 'wall/verdict', 'max')
    lines = [hdr]
    for s in rows:
        aa = s['kind'] == 'aa'
        n = s['trials'] - s['failed']
        pct = lambda k: '%d/%d (%.0f%%)' % (k, n, 100.0 * k / n) if n else 'n/a'  # noqa: E731
        size = '-' if aa else '%.2f%%%s%s' % (
            s['true_pct'], ' [%.2f, %.2f]' % tuple(s['true_ci_pct']) if s.get('true_ci_pct') else '',
            '' if s['calibrated'] else '*')
        lines.append((s['cell'] + (' ' + s['options'] if s['options'] else ''),
                      '%.1fms' % s['entry_ms'], size,
                      '-' if aa else fmt(s.get('session_pct'), '%.2f%%'),
                      '%d%s' % (s['trials'], ' (%d failed)' % s['failed'] if s['failed'] else ''),
                      '-' if aa else pct(s['detected']),
                      '-' if aa else pct(s['right']) + (
                          '' if s.get('others_listed') is None else ' others %d' % s['others_listed']),
                      pct(s['false_positives']) if aa else '-',
                      fmt(s['runs_median'], '%.0f'),
                      '-' if aa else fmt(s.get('minimum_runs_median'), '%.0f'),
                      '-' if aa else fmt(s.get('runs_ratio_median'), '%.2fx'),
                      fmt(s['wall_median_s'], '%.1fs'), fmt(s.get('wall_max_s'), '%.0fs')))
    widths = [max(len(str(l[i])) for l in lines) for i in range(len(hdr))]
    for l in lines:
        print('  ' + '  '.join(str(v).ljust(w) for v, w in zip(l, widths)).rstrip(), file=out)
    print_confirmations(rows, out)


def print_confirmations(rows, out=sys.stdout):
    """The what-if on each session's claim (--confirm): how its sessions
    ended, and the runs and seconds it added (medians over the sessions
    that made one)."""
    hdr = ('cell', 'what-if', 'its runs', 'its time')
    lines = [hdr]
    for s in rows:
        if not s.get('confirmations') and s.get('confirm_runs_median') is None:
            continue
        said = ', '.join('%s %d' % kv for kv in sorted(s['confirmations'].items()))
        lines.append((s['cell'] + (' ' + s['options'] if s['options'] else ''), said or '-',
                      fmt(s.get('confirm_runs_median'), '%.0f'),
                      fmt(s.get('confirm_s_median'), '%.1fs')))
    if len(lines) == 1:
        return
    print(file=out)
    widths = [max(len(str(l[i])) for l in lines) for i in range(len(hdr))]
    for l in lines:
        print('  ' + '  '.join(str(v).ljust(w) for v, w in zip(l, widths)).rstrip(), file=out)


def print_targets(rows, out=sys.stdout):
    def agg(pred, key):
        sel = [s for s in rows if pred(s)]
        n = sum(s['trials'] - s['failed'] for s in sel)
        k = sum(s[key] for s in sel)
        return ('%d/%d (%.0f%%)' % (k, n, 100.0 * k / n)) if n else 'no such cell'
    gen2 = lambda s: s['kind'] != 'aa' and s.get('target_pct') == 2 and not s['options']  # noqa: E731
    one = lambda s: s['kind'] != 'aa' and s.get('target_pct') == 1 and \
        '--precision-threshold 1' in s['options']  # noqa: E731
    ratios = [s['runs_ratio_median'] for s in rows if s.get('runs_ratio_median')]
    chain = [s['runs_ratio_chain_median'] for s in rows if s.get('runs_ratio_chain_median')]
    walls = [w for s in rows if s['entry_ms'] is not None and 1 <= s['entry_ms'] <= 50 and
             s.get('depth', 4) >= 3 for w in s.get('walls_s', [])]
    aa = [s for s in rows if s['kind'] == 'aa']
    n_aa = sum(s['trials'] - s['failed'] for s in aa)
    fp = sum(s['false_positives'] for s in aa)
    print('  targets (printed, not asserted):', file=out)
    print('    right call at 2%% of the entry, default options, depth <= 4: %s   target >= 95%%' %
          agg(gen2, 'right'), file=out)
    print('    right call at 1%% with --precision-threshold 1:             %s   target >= 90%%' %
          agg(one, 'right'), file=out)
    print('    A/A sessions claiming a regression (95%% confidence):       %s   target <= 5%%' %
          agg(lambda s: s['kind'] == 'aa', 'false_positives'), file=out)
    bound = upper_bound(fp, n_aa)
    print('      one-sided 95%% upper bound (Clopper-Pearson):             %s' %
          fmt(100 * bound if bound is not None else None, '%.1f%%'), file=out)
    print('    A/A sessions naming a call:                                %s   target 0' %
          agg(lambda s: s['kind'] == 'aa', 'named_calls'), file=out)
    print('    runs used / theoretical minimum, median over cells:        %s   target <= 2x' %
          (('%.2fx' % statistics.median(ratios)) if ratios else 'n/a'), file=out)
    print('      (against the chain alone, no part ruled out:             %s)' %
          (('%.2fx' % statistics.median(chain)) if chain else 'n/a'), file=out)
    print('    wall time to a verdict, sessions of entries 1-50 ms, depth >= 3: median %s, max %s'
          '   targets <= 120 s, <= 300 s' %
          (fmt(statistics.median(walls) if walls else None, '%.0f s'),
           fmt(max(walls) if walls else None, '%.0f s')), file=out)


# ----------------------------------------------------------------------------

def toolchain(build):
    cache = {}
    try:
        with open(os.path.join(build, 'CMakeCache.txt')) as f:
            for line in f:
                k, sep, v = line.strip().partition('=')
                if sep and ':' in k:
                    cache[k.split(':')[0]] = v
    except OSError as e:
        fail('%s is not a configured pinpoint build: %s' % (build, e))
    tc = {'cc': cache.get('PINPOINT_CLANG', 'clang'),
          'cxx': cache.get('PINPOINT_CLANGXX', 'clang++'),
          'plugin': os.path.join(build, 'pass', 'pinpoint-pass.so'),
          'runtime': os.path.join(build, 'runtime', 'libpinpoint-rt.a'),
          'pinpoint': os.path.join(build, 'pinpoint', 'pinpoint'),
          'pinpoint-cc': os.path.join(build, 'tools', 'pinpoint-cc'),
          'pinpoint-c++': os.path.join(build, 'tools', 'pinpoint-c++'),
          'layers': os.path.join(build, 'tools', 'pinpoint-layers')}
    for k in ('pinpoint', 'pinpoint-cc', 'layers'):
        if not os.path.exists(tc[k]):
            fail('%s: missing (build pinpoint first)' % tc[k])
    return tc


def main():
    ap = argparse.ArgumentParser(description='how often pinpoint names the right call')
    ap.add_argument('--pinpoint', default=os.getcwd(), metavar='BUILD',
                    help='the pinpoint build directory (default: the current directory)')
    ap.add_argument('--work', help='cache of built cells and reports (default BUILD/bench-accuracy)')
    ap.add_argument('--trials', type=int, help='sessions per cell (default 20, --quick 5)')
    ap.add_argument('--cells', default='', help='comma-separated cell names or globs')
    ap.add_argument('--quick', action='store_true',
                    help='a small grid: 2%% and 10%% at depths 1 and 3, 5 trials, 10 A/A')
    ap.add_argument('--jobs', type=int, default=1, help='sessions at once: must be 1')
    ap.add_argument('--json', help='write the table here too (default WORK/accuracy.json)')
    ap.add_argument('--list', action='store_true', help='list the cells and exit')
    ap.add_argument('--prepare-only', action='store_true',
                    help='calibrate and build the cells, run no session')
    ap.add_argument('--table-from', metavar='JSON[,JSON...]',
                    help='print the table of earlier runs\' JSON, their sessions of a cell together')
    ap.add_argument('--extra', default='', metavar='OPTIONS',
                    help='more pinpoint options for every session, space-separated '
                         '(e.g. "--layouts 1" to measure each revision as built)')
    ap.add_argument('--fresh-layouts', action='store_true',
                    help='draw new link orders for every session (removes each revision\'s '
                         '.pinpoint/layouts before it): sessions of a cell then see different '
                         'layouts, as sessions on different commits do')
    ap.add_argument('--trial-offset', type=int, default=0, metavar='K',
                    help='number this run\'s trials from K + 1, so that it adds to an earlier run\'s')
    ap.add_argument('--real-dir', default=os.path.join(HERE, '..', 'real'),
                    help='bench/real, for real-library subjects (default: beside this directory)')
    ap.add_argument('--real-work', help='bench/real\'s downloads and sources (default BUILD/bench-real,'
                    ' shared with the bench-real target)')
    args = ap.parse_args()
    if args.jobs != 1:
        fail('--jobs must be 1: sessions are timing-sensitive, never two at once')
    if args.trials is None:
        args.trials = 5 if args.quick else 20
    if args.trials < 1:
        fail('--trials must be at least 1')
    if args.trial_offset < 0:
        fail('--trial-offset must not be negative')
    cells = quick_grid() if args.quick else full_grid()
    if args.cells:
        pats = args.cells.split(',')
        cells = [c for c in full_grid() + quick_grid()
                 if any(fnmatch.fnmatch(c['name'], p) for p in pats)]
        seen, uniq = set(), []
        for c in cells:
            if c['name'] not in seen:
                seen.add(c['name'])
                uniq.append(c)
        cells = uniq
        if not cells:
            fail('--cells %s: no such cell (--list lists them)' % args.cells)
    if args.table_from:
        recs, sessions = {}, {}
        for path in args.table_from.split(','):
            with open(path) as f:
                old = json.load(f)
            for rec in old['cells']:
                name = rec['cell']['name']
                if name in old['sessions']:
                    recs.setdefault(name, rec)
                    sessions.setdefault(name, []).extend(old['sessions'][name])
        rows = [summarise(rec, sessions[name], rescore=True) for name, rec in recs.items()]
        print_table(rows)
        print()
        print_targets(rows)
        return 0
    if args.list:
        for c in cells:
            print('%-28s %-4s entry %sms  %s  %s' % (
                c['name'], c['kind'], c['entry_ms'],
                ' '.join('d%d:%g%%' % r for r in c['regs']) or 'A/A', ' '.join(c['options'])))
        return 0

    build = os.path.abspath(args.pinpoint)
    tc = toolchain(build)
    tc['real-dir'] = args.real_dir
    tc['extra'] = args.extra.split()
    tc['fresh-layouts'] = args.fresh_layouts
    tc['real-work'] = os.path.abspath(args.real_work or os.path.join(build, 'bench-real'))
    work = os.path.abspath(args.work or os.path.join(build, 'bench-accuracy'))
    trials_dir = os.path.join(work, 'trials')
    os.makedirs(trials_dir, exist_ok=True)
    out_json = args.json or os.path.join(work, 'accuracy.json')

    def log(msg):
        print(msg, flush=True)

    t_start = time.monotonic()
    log('pinpoint accuracy benchmark: %s, %d cells, %s trials each (A/A: %s), %s' % (
        build, len(cells), args.trials, 2 * args.trials if args.quick else args.trials,
        platform.node()))
    recs = []
    for c in cells:
        recs.append(prepare(c, tc, work, log))
        r = recs[-1]
        if r['calibration']:
            log('  %s: entry %.2f ms (plain), true size %.2f%% (target %.2f%%)' % (
                c['name'], r['entry_ns'] / 1e6, 100 * r['calibration']['fraction'],
                100 * r['calibration']['target_fraction']))
        else:
            log('  %s: entry %.2f ms (plain), identical builds' % (c['name'], r['entry_ns'] / 1e6))
    t_prep = time.monotonic() - t_start
    if args.prepare_only:
        log('  %d cells prepared in %.0f s' % (len(recs), t_prep))
        return 0
    rows, all_trials = [], {}

    def save(total, complete):
        tmp = out_json + '.tmp'
        with open(tmp, 'w') as f:
            json.dump({'pinpoint': build, 'machine': platform.node(), 'load': os.getloadavg(),
                       'trials': args.trials, 'quick': args.quick, 'complete': complete,
                       'extra': tc['extra'],
                       'preparation_s': t_prep, 'total_s': total, 'rows': rows,
                       'cells': [x for x in recs if x['cell']['name'] in all_trials],
                       'sessions': all_trials}, f, indent=1)
        os.replace(tmp, out_json)

    for r in recs:
        c = r['cell']
        n = 2 * args.trials if (args.quick and c['kind'] == 'aa') else args.trials
        res = []
        for k in range(args.trial_offset, args.trial_offset + n):
            res.append(trial(r, tc, k, trials_dir))
            x = res[-1]
            if 'error' in x:
                verdict = 'failed (exit %d): %s' % (x['exit'], x['error'])
            elif c['kind'] == 'aa':
                verdict = 'false positive' if x['false_positive'] else 'no regression'
            else:
                verdict = '%s, named %s at depth %d%s' % (
                    'detected' if x['detected'] else 'not detected', x['named'], x['named_depth'],
                    ' (right)' if x['right'] else '')
            log('  %s trial %d: exit %d, %s, %d runs, %.1f s' % (
                c['name'], k + 1, x['exit'], verdict, x.get('runs', 0), x['wall_s']))
        all_trials[c['name']] = res
        rows.append(summarise(r, res))
        save(time.monotonic() - t_start, False)  # a long run interrupted keeps its finished cells
    total = time.monotonic() - t_start
    print()
    print_table(rows)
    print()
    print_targets(rows)
    print('  size: the regression measured with plain builds, % of the entry (* not within +-20% of'
          ' the target);')
    print('  in session: the same absolute size, % of the entry\'s time in the session (instrumented),'
          ' median')
    print('  runs: median runs per session (all of them: discovery, warm-ups, measurements);'
          ' minimum: what a')
    print('    fixed-sample search that knows each part\'s noise (its sd in the session) needs: 2 x'
          ' (n(entry) + per')
    print('    chain node max over its parts), n = ceil(2 sd^2 (z_0.975 + z_p)^2 / d^2) at least 2;'
          ' the slower part:')
    print('    d = delta, p = 0.95 (interval above 0), the others: d = threshold, p = 0.975'
          ' (interval within +-T);')
    print('    the chain alone: 2 n(entry) (D+1); n/a without a regression')
    print('  preparation %.0f s, sessions %.0f s, total %.0f s' % (t_prep, total - t_prep, total))
    save(total, True)
    print('  written: %s' % out_json)
    return 0


if __name__ == '__main__':
    sys.exit(main())
