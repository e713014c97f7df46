#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench.py - the probes' cost, measured side by side in one run.

    bench.py --plain P --static S --shared D [--rounds N] [--iters N]

Runs calls.c built plain (P), with the plugin and the static runtime (S),
and with the shared runtime (D), interleaved round by round so that drift of
a shared machine hits every variant alike, and prints:

  * the unarmed cost per executed probe site: the median over rounds of
    (instrumented - plain) / sites, and the whole-program ratio;
  * the armed cost per executed call: (armed - unarmed) / armed calls, for a
    call site (range=loop:0-0) and a function body (fn=f1), against two raw
    rdtsc reads timed in the same run.  Such short hot calls are sampled by
    the runtime (one execution in 8 timed, every one counted); the same
    figure with timing=all (every execution timed) is printed beside it;
  * the armed cost per execution of a recursive function (fn=fib), whose
    nested enters may walk the stack to tell recursion from an abandoned
    execution;
  * what the removal of the probes' cost leaves (runtime/calib.c): loop()
    measured as a whole (whole=loop) with calls armed inside it, against
    the same with nothing armed inside, in ns per inner probe pair, the
    outer's net time less the reference's over the armed calls: a call
    site (the calibrated path: a sled's thunk and the r11 entry points),
    timed and sampled, a function body (the preserve_most entry points),
    a site of two counters (the C path) and every call of loop() (fn=loop,
    its calls timed); and what the runtime's calibration took at start-up.

Figures, not verdicts: targets are printed next to them.

    --fifo   runs every variant with SCHED_FIFO when this user may ask for it
             (chrt), so that the other processes of a loaded host do not
             preempt it
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def results(path):
    """The slots' total_ns (slot N as 'slotN') and the overhead line of a
    results file (doc/formats.md, section 3)."""
    vals = {}
    with open(path) as f:
        for line in f:
            toks = line.split()
            if toks and toks[0] == 'slot':
                kv = dict(t.split('=', 1) for t in toks[4:] if '=' in t)
                vals['slot' + toks[1]] = float(kv['total_ns'])
                vals['probes' + toks[1]] = float(kv.get('probes_ns', 0))
            elif toks and toks[0] == 'overhead':
                for t in toks[1:]:
                    key, _, val = t.partition('=')
                    vals[key] = float(val)
    return vals


def run(cmd, env_items=None, outdir=None, fifo=False):
    env = dict(os.environ)
    env.pop('PINPOINT', None)
    out = os.path.join(outdir, 'results') if outdir else None
    if env_items is not None:
        env['PINPOINT'] = 'out=%s;%s' % (out, env_items)
        if os.path.exists(out):
            os.unlink(out)
    if fifo:
        cmd = ['chrt', '-f', '1'] + cmd
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    wall = (time.perf_counter() - t0) * 1e9
    vals = {'wall': wall}
    for line in proc.stdout.splitlines():
        key, _, val = line.partition(' ')
        try:
            vals[key] = float(val)
        except ValueError:
            pass
    if env_items is not None and os.path.exists(out):
        vals.update(results(out))
    return vals


def median(xs):
    return statistics.median(xs)


def quartiles(xs):
    """(first quartile, median, third quartile) of the per-round figures."""
    if len(xs) < 4:
        m = median(xs)
        return m, m, m
    q = statistics.quantiles(xs, n=4)
    return q[0], q[1], q[2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--plain', required=True)
    ap.add_argument('--static', required=True)
    ap.add_argument('--shared', required=True)
    ap.add_argument('--rounds', type=int, default=15)
    ap.add_argument('--iters', type=int, default=10000000)
    ap.add_argument('--fib', type=int, default=30)
    ap.add_argument('--fifo', action='store_true')
    args = ap.parse_args()
    fifo = args.fifo and subprocess.run(['chrt', '-f', '1', 'true'],
                                        capture_output=True).returncode == 0

    work = [str(args.iters), str(args.fib)]
    variants = [
        ('plain', args.plain, None),
        ('static unarmed', args.static, None),
        ('shared unarmed', args.shared, None),
        ('static call armed', args.static, 'range=loop:0-0'),
        ('static call all', args.static, 'range=loop:0-0;timing=all'),
        ('static body armed', args.static, 'fn=f1'),
        ('shared call armed', args.shared, 'range=loop:0-0'),
        ('static recursion armed', args.static, 'fn=fib'),
        # the removal: loop() as a whole, with nothing or something inside
        ('outer alone', args.static, 'whole=loop'),
        ('outer, call timed', args.static, 'whole=loop;range=loop:0-0;timing=all'),
        ('outer, call sampled', args.static, 'whole=loop;range=loop:0-0'),
        ('outer, body timed', args.static, 'whole=loop;whole=f1;timing=all'),
        ('outer, body sampled', args.static, 'whole=loop;whole=f1'),
        ('outer, two counters', args.static,
         'whole=loop;range=loop:0-0;range=loop:0-0;timing=all'),
        ('outer, its calls', args.static, 'whole=loop;fn=loop'),
    ]
    res = {name: [] for name, _, _ in variants}
    rdtsc = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            # rotate the order so that no variant always runs first
            order = variants[r % len(variants):] + variants[:r % len(variants)]
            for name, prog, items in order:
                res[name].append(run([prog] + work, items, tmp, fifo))
            rdtsc.append(run([args.plain, 'rdtsc', str(args.iters)])['rdtsc2_ns'])

    first = res['plain'][0]
    sites, calls = first['sites'], first['calls']
    for name in res:
        if any(v['sites'] != sites for v in res[name]):
            print('bench: %s executed another workload' % name)
            return 1

    print('pinpoint probe benchmarks: bench/calls.c, %d iterations + fib(%d), '
          'median of %d interleaved rounds%s' % (args.iters, args.fib, args.rounds,
                                               ', SCHED_FIFO' if fifo else ''))
    print('  %.0f probe sites and %.0f calls executed per run' % (sites, calls))
    print()
    print('  %-20s %12s %12s %10s' % ('variant', 'work ms', 'process ms', 'vs plain'))
    pm = median([v['ns'] for v in res['plain']])
    for name in res:
        m = median([v['ns'] for v in res[name]])
        w = median([v['wall'] for v in res[name]])
        print('  %-20s %12.1f %12.1f %9.3fx' % (name, m / 1e6, w / 1e6, m / pm))
    print()

    # every figure is computed round by round (adjacent runs), then summarised
    rows = []
    for label in ('static', 'shared'):
        un, pl = res[label + ' unarmed'], res['plain']
        rows.append(('unarmed, %s runtime: ns per executed probe site' % label,
                     [(x['ns'] - y['ns']) / sites for x, y in zip(un, pl)], '<= 0.2'))
        rows.append(('unarmed, %s runtime: whole program (work)' % label,
                     [x['ns'] / y['ns'] for x, y in zip(un, pl)], '<= 1.02x'))
        rows.append(('unarmed, %s runtime: whole program (process)' % label,
                     [x['wall'] / y['wall'] for x, y in zip(un, pl)], '<= 1.02x'))
    armed = args.iters  # one armed call (or body) per iteration
    for name, unarmed in (('static call armed', 'static unarmed'),
                          ('static call all', 'static unarmed'),
                          ('static body armed', 'static unarmed'),
                          ('shared call armed', 'shared unarmed')):
        what = name.replace(' all', ' armed, timing=all')
        rows.append(('%s: ns per armed call' % what,
                     [(x['ns'] - y['ns']) / armed for x, y in zip(res[name], res[unarmed])],
                     '<= 20'))
    # fn=fib: every execution is armed, all but one nested in the outermost
    # (the enter of a nested one may walk the stack: about twice per outermost)
    fib_execs = calls - 8 * args.iters - 1
    rows.append(('static recursion armed (fn=fib): ns per execution',
                 [(x['ns'] - y['ns']) / fib_execs
                  for x, y in zip(res['static recursion armed'], res['static unarmed'])],
                 '<= 20'))
    rows.append(('two raw rdtsc reads, ns', rdtsc, '(reference)'))
    # from the fastest run of each variant: a noisy host only adds time
    fastest = {k: min(v['ns'] for v in res[k]) for k in res}
    for name in ('static call armed', 'static call all', 'static body armed'):
        rows.append(('%s: ns per armed call, fastest runs' % name.replace(' all', ' armed, timing=all'),
                     [(fastest[name] - fastest['static unarmed']) / armed], '<= 20'))
    rows.append(('two raw rdtsc reads, fastest round', [min(rdtsc)], '(reference)'))
    # what removing the probes' cost leaves: loop()'s net time with calls
    # armed inside it less its net time with none, per inner probe pair
    # (each of 8 calls an iteration with fn=loop; one otherwise)
    for name, pairs in (('outer, call timed', armed), ('outer, call sampled', armed),
                        ('outer, body timed', armed), ('outer, body sampled', armed),
                        ('outer, two counters', armed), ('outer, its calls', 8 * armed)):
        rows.append(('%s: residual ns per inner pair' % name,
                     [(x['slot0'] - y['slot0']) / pairs
                      for x, y in zip(res[name], res['outer alone'])], '|x| <= 2'))
        rows.append(('%s: removed ns per inner pair' % name,
                     [(x['probes0'] - y['probes0']) / pairs
                      for x, y in zip(res[name], res['outer alone'])], '(reference)'))
    rows.append(('outer alone: loop() net, ns per iteration',
                 [x['slot0'] / args.iters for x in res['outer alone']], '(reference)'))
    for key, what in (('plain_ns', 'an untimed probe'), ('clock_ns', 'a timed probe'),
                      ('bias_ns', 'inside a timed execution')):
        rows.append(('calibrated: %s, ns' % what,
                     [x[key] for x in res['outer, call timed']], '(reference)'))
    rows.append(('calibration at start-up, us',
                 [x['calib_ns'] / 1000 for n in res if n.startswith('outer') for x in res[n]],
                 '<= 1000'))
    print('  %-52s %9s %21s' % ('figure', 'median', 'quartiles'))
    for what, vals, target in rows:
        q1, m, q3 = quartiles(vals)
        print('  %-52s %9.3f   [%8.3f, %8.3f]   target %s' % (what, m, q1, q3, target))
    return 0


if __name__ == '__main__':
    sys.exit(main())
