#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""groups.py - what callee groups cost and save: the same sessions with
--groups on and off.

    groups.py --pinpoint BUILD [--sessions N] [--program NAME --entry F] [-- PINPOINT-OPTIONS...]

A figure, not a test (bench/README.md, "Callee groups").  Runs pinpoint N
times each way, alternating, on the previous and current builds of a test
program of BUILD/test/driver (default manysites: a helper 1.5 % of the
entry slower at each of its twelve calls, --precision-threshold 5), and
prints per way: how many sessions named the function that got slower
(--expect, default mix) on their chain, where the chain ended, the
comparisons decided, the runs and the session's wall time per session and
per verdict (median and range), and the host's noise as each session
measured it (the entry's coefficient of variation, both revisions).
This is a mechanism's figure on a small program, not a whole program's.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def session(a, way, path):
    base = os.path.join(a.pinpoint, 'test', 'driver', a.program)
    cmd = [os.path.join(a.pinpoint, 'pinpoint', 'pinpoint'), '--entry', a.entry, '--depth', '3',
           '--previous', os.path.join(base, 'previous'), '--current', os.path.join(base, 'current'),
           '--groups', way, '--json', path] + a.extra + ['--', './' + a.program]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1) or not os.path.exists(path):
        sys.exit('groups.py: pinpoint exited %d: %s' % (p.returncode, p.stderr.strip()[-400:]))
    with open(path) as f:
        return json.load(f)


def noise(r):
    e = r['comparisons'][0]
    cov = []
    for k in ('previous', 'current'):
        s = e.get(k)
        cov.append(100 * s['sd'] / s['mean'] if s and s['mean'] else float('nan'))
    return cov


def chain_end(r):
    c = r['bottleneck_chain'][-1]
    if c['kind'] == 'group':
        return '%d calls of %s' % (len(c['sites']), c['callee'])
    if c['kind'] == 'range':
        return 'calls %d-%d (range)' % (c['first_call'], c['last_call'])
    if c['kind'] == 'self':
        return 'own body of ' + c['function_demangled']
    return c['kind'] + ' ' + c.get('callee', c['function'])


def spread(v, fmt):
    return '%s (%s-%s)' % (fmt % statistics.median(v), fmt % min(v), fmt % max(v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pinpoint', required=True, help='the build directory')
    ap.add_argument('--sessions', type=int, default=5)
    ap.add_argument('--program', default='manysites')
    ap.add_argument('--entry', default='rounds')
    ap.add_argument('--expect', default='mix')
    ap.add_argument('extra', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    a.extra = [x for x in a.extra if x != '--'] or ['--precision-threshold', '5']
    res = {'on': [], 'off': []}
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.sessions):
            for way in ('on', 'off'):
                res[way].append(session(a, way, os.path.join(d, '%s-%d.json' % (way, i))))
    print('%s, entry %s, %d sessions each way, options %s' % (a.program, a.entry, a.sessions,
                                                              ' '.join(a.extra)))
    for way in ('on', 'off'):
        rs = res[way]
        named = sum(any((n['kind'] in ('call', 'group') and n.get('callee') == a.expect) or
                        (n['kind'] == 'self' and n['function'] == a.expect)
                        for n in r['bottleneck_chain']) for r in rs)
        ends = sorted(set(chain_end(r) for r in rs))
        runs = [len([x for x in r['runs'] if x.get('batch')]) for r in rs]
        wall = [r['duration_s'] for r in rs]
        verdicts = [sum(1 for c in r['comparisons'] if c['decided']) for r in rs]
        cov = [noise(r) for r in rs]
        print('--groups %s: %s named on the chain in %d of %d; chain ends: %s' %
              (way, a.expect, named, len(rs), '; '.join(ends)))
        print('  comparisons decided %s; runs %s, %s per verdict; wall %s s, %s s per verdict' %
              (spread(verdicts, '%d'), spread(runs, '%d'),
               spread([x / max(v, 1) for x, v in zip(runs, verdicts)], '%.1f'),
               spread(wall, '%.2f'), spread([x / max(v, 1) for x, v in zip(wall, verdicts)], '%.3f')))
        print('  host noise (the entry\'s CoV, previous/current): %s %%' %
              ', '.join('%.1f/%.1f' % tuple(c) for c in cov))


if __name__ == '__main__':
    main()
