#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""e2e.py - the runtime end to end: programs built with the plugin (and the
static or shared runtime) run under PINPOINT; the results must match what
the programs do.

    e2e.py --bin DIR --workdir DIR SCENARIO

DIR holds the programs built by test/runtime/CMakeLists.txt.  Call numbers
armed below are the call lists documented at the top of each program.
"""
import argparse
import os

import rtcheck  # puts test/harness on sys.path
from pinpoint_test import check, scenario_main
from rtcheck import MS, between, clean, inside, slot


def prog(ctx, name):
    return os.path.join(ctx.args.bin, name)


def scenario_basic(ctx, name='rt_e2e_basic'):
    items = ('entry=run;range=run:0-0;range=run:1-1;range=run:0-1;fn=leaf;fn=fib;range=fib:0-1;'
             'fn=run')
    r = ctx.run(name, items, binary=prog(ctx, name), argv=[])
    if not clean(ctx, r, name):
        return
    check(r.res.modules == [os.path.realpath(prog(ctx, name))], 'modules %r' % r.res.modules)
    run = slot(r, 0, 'entry', 'run', 1)
    leafs = slot(r, 1, 'range', 'run:0-0', 1)
    sleep = slot(r, 2, 'range', 'run:1-1', 1)
    both = slot(r, 3, 'range', 'run:0-1', 1)
    leaf = slot(r, 4, 'fn', 'leaf', 1)
    fib = slot(r, 5, 'fn', 'fib', 1)
    fibcalls = slot(r, 6, 'range', 'fib:0-1', 1)
    runfn = slot(r, 7, 'fn', 'run', 1)
    check(run.count == 1, 'run count %d' % run.count)
    check(leafs.count == 1000 and leaf.count == 1000, 'leaf counts %d %d' % (leafs.count, leaf.count))
    check(sleep.count == 1, 'sleep count %d' % sleep.count)
    inside(run.total_ns, r.said['run_ns'], 20 * MS, 'run')
    between(sleep.total_ns, 18 * MS, run.total_ns, 'the 20 ms call')
    check(both.count == 1001, 'range 0-1 count %d' % both.count)
    check(abs(both.total_ns - leafs.total_ns - sleep.total_ns) <= 2, 'range 0-1 = 0-0 + 1-1')
    check('calls_ns' not in run.fields, 'the entry times its body alone: %r' % run)
    check(runfn.count == 1 and abs(runfn.total_ns - run.total_ns) <= 2,
          'fn=run times the entry\'s body: %r %r' % (runfn, run))
    check(runfn.calls_ns >= both.total_ns, 'run calls_ns includes its calls')
    check(runfn.total_ns >= runfn.calls_ns, 'run total >= calls')
    # fib(20) recurses: one outermost execution, two outermost calls
    check(fib.count == 1, 'fib counted once: %d' % fib.count)
    check(fibcalls.count == 2, 'fib calls counted once each: %d' % fibcalls.count)
    check(abs(fib.calls_ns - fibcalls.total_ns) <= 1, 'fib calls_ns = its calls')

    # as measured (net, each duration is at least 0, the total not)
    r = ctx.run(name, 'entry=leaf;samples=100;probes=keep', binary=prog(ctx, name), argv=[])
    if clean(ctx, r, name + ' samples'):
        leaf = slot(r, 0, 'entry', 'leaf', 1)
        check(leaf.count == 1000, 'samples: count %d' % leaf.count)
        check(len(r.res.samples) == 100 and r.res.dropped == 900,
              'samples: %d kept, %d dropped' % (len(r.res.samples), r.res.dropped))
        check(sum(r.res.samples) <= leaf.total_ns + 100, 'samples within the total')

    # stop=N: the process ends (status 0, results written) when the entry's
    # 250th execution returns, before run() goes on to sleep_ms and fib.
    r = ctx.run(name, 'entry=leaf;range=run:1-1;samples=100;stop=250', binary=prog(ctx, name),
                argv=[])
    if clean(ctx, r, name + ' stop'):
        leaf = slot(r, 0, 'entry', 'leaf', 1)
        sleep = slot(r, 1, 'range', 'run:1-1', 1)
        check(leaf.count == 250, 'stop: count %d' % leaf.count)
        check(len(r.res.samples) == 100 and r.res.dropped == 150,
              'stop: %d kept, %d dropped' % (len(r.res.samples), r.res.dropped))
        check(sleep.count == 0, 'stop: the call after the stop ran %d times' % sleep.count)
        check('run_ns' not in r.said, 'stop: main went on after the stop')


def scenario_indirect(ctx):
    """An indirect call's targets: each named (two functions of the program
    by their records, strlen outside every instrumented module), counted,
    and timed as the call is, their times adding up to the call's."""
    name = 'rt_e2e_indirect'
    for timing in ('all', 'sampled'):
        r = ctx.run(name, 'whole=run;range=apply:0-0;timing=' + timing, binary=prog(ctx, name),
                    argv=[])
        if not clean(ctx, r, name + ' ' + timing):
            continue
        call = slot(r, 1, 'range', 'apply:0-0', 1)
        check(call.count == 300, '%s: call count %d' % (timing, call.count))
        by = {(t.kind, t.name): t for t in call.targets}
        check(sorted(k for k, _ in by) == ['ext', 'fn', 'fn'] and len(by) == 3,
              '%s: targets %r' % (timing, call.targets))
        slow, quick = by.get(('fn', 'sleep_ms')), by.get(('fn', 'count_up'))
        ext = [t for t in call.targets if t.kind == 'ext']
        if not (slow and quick and ext):
            continue
        check(slow.file.endswith('indirect.c') and quick.file.endswith('indirect.c'),
              '%s: files %s %s' % (timing, slow.file, quick.file))
        check(ext[0].module and 'libc' in os.path.basename(ext[0].module),
              '%s: strlen in %r' % (timing, ext[0].module))
        check(all(t.count == 100 for t in call.targets),
              '%s: counts %r' % (timing, [t.count for t in call.targets]))
        between(slow.total_ns, 100 * MS, call.total_ns, '%s: the 1 ms target' % timing)
        # the short targets take a fraction of the 1 ms one; the bound is
        # relative, as a preemption on a loaded host lands in one of them
        check(quick.total_ns < slow.total_ns // 5 and ext[0].total_ns < slow.total_ns // 5,
              '%s: the short targets %d %d against %d' %
              (timing, quick.total_ns, ext[0].total_ns, slow.total_ns))
        # each target's time is estimated as the call's, each at least 0
        total = sum(t.total_ns for t in call.targets)
        check(abs(total - call.total_ns) <= 1000 + call.total_ns // 1000,
              '%s: targets %d ns, the call %d ns' % (timing, total, call.total_ns))
        timed = [t.fields.get('timed', t.count) for t in call.targets]
        check(sum(timed) == call.get('timed', call.count),
              '%s: timed %r of %r' % (timing, timed, call))

    # skip=K: the targets leave out what came before, as the call does
    r = ctx.run(name, 'entry=apply;range=apply:0-0;skip=150;timing=all', binary=prog(ctx, name),
                argv=[])
    if clean(ctx, r, name + ' skip'):
        call = slot(r, 1, 'range', 'apply:0-0', 1)
        check(call.count == 150 and sum(t.count for t in call.targets) == 150 and
              all(t.count == 50 for t in call.targets), 'skip: counts %r' % call.targets)


def scenario_threads(ctx):
    r = ctx.run('threads', 'fn=work;range=work:0-0', binary=prog(ctx, 'rt_e2e_threads'), argv=[])
    if not clean(ctx, r, 'threads'):
        return
    work = slot(r, 0, 'fn', 'work', 1)
    call = slot(r, 1, 'range', 'work:0-0', 1)
    check(work.count == 4 and call.count == 4, 'counts %d %d' % (work.count, call.count))
    inside(work.total_ns, r.said['work_ns'], 4 * 18 * MS, 'four threads x 20 ms')
    between(call.total_ns, 4 * 18 * MS, work.total_ns, 'the sleeps within work')

    # stop=2 counts executions over all threads; those still running in other
    # threads are counted up to the stop, as at exit
    r = ctx.run('threads-stop', 'entry=work;stop=2', binary=prog(ctx, 'rt_e2e_threads'), argv=[])
    if clean(ctx, r, 'threads stop'):
        work = slot(r, 0, 'entry', 'work', 1)
        check(2 <= work.count <= 4, 'stop: count %d' % work.count)
        check('work_ns' not in r.said, 'stop: main went on after the stop')
    # skip=2 too: what ended by the end of the second is left out, in every
    # thread (those that ended with it may be in the copy or not)
    r = ctx.run('threads-skip', 'entry=work;skip=2;range=work:0-0',
                binary=prog(ctx, 'rt_e2e_threads'), argv=[])
    if clean(ctx, r, 'threads skip'):
        work, call = slot(r, 0, 'entry', 'work', 1), slot(r, 1, 'range', 'work:0-0', 1)
        if r.res.skipped is None:
            # the other two ended with the second, before the copy
            check(work.count == call.count == 4, 'skip: not taken, but %r' % work)
        else:
            # a call is inside its body: it ended before it
            check(r.res.skipped == 2 and 1 <= work.count <= 2 and call.count <= work.count,
                  'skip: %r %r, skipped %r' % (work, call, r.res.skipped))


def scenario_exceptions(ctx):
    r = ctx.run('exceptions', 'entry=_Z7throwerb;fn=_Z4failb',
                binary=prog(ctx, 'rt_e2e_exceptions'), argv=[])
    if not clean(ctx, r, 'exceptions'):
        return
    for i, name in enumerate(('_Z7throwerb', '_Z4failb')):
        s = r.res.slots[i]
        check(s.found == 1, '%s found %d' % (name, s.found))
        # the throwing execution is either closed by an unwind probe or lost
        check(s.count >= 3 and s.count + s.get('lost', 0) >= 4 and s.count <= 4,
              '%s: count %d lost %d' % (name, s.count, s.get('lost', 0)))


def scenario_exceptions_deep(ctx):
    """An exception out of the entry called from main's frame, then five
    executions from deeper frames: all five are counted."""
    r = ctx.run('exceptions-deep', 'entry=_Z7throwerb;fn=_Z4failb',
                binary=prog(ctx, 'rt_e2e_exceptions'), argv=['deep'])
    if not clean(ctx, r, 'exceptions-deep'):
        return
    for i, name in enumerate(('_Z7throwerb', '_Z4failb')):
        s = r.res.slots[i]
        # the throwing execution is lost, with the call it was in
        check(s.found == 1 and s.count == 5 and s.get('lost', 0) in (1, 2),
              '%s: count %d lost %d' % (name, s.count, s.get('lost', 0)))


def scenario_unarmed(ctx):
    r = ctx.run('unarmed', None, binary=prog(ctx, 'rt_e2e_basic'), argv=[])
    check(r.rc == 0 and r.stderr == '' and r.pid, 'unarmed run: %d %r' % (r.rc, r.stderr))
    r = ctx.run('unarmed', 'entry=run', binary=prog(ctx, 'rt_e2e_basic'), argv=[], out=False)
    check(r.rc == 0 and r.stderr == '', 'no out: %d %r' % (r.rc, r.stderr))
    check(os.listdir(ctx.dir) == [], 'unarmed runs wrote %s' % os.listdir(ctx.dir))


def scenario_shared(ctx):
    scenario_basic(ctx, 'rt_e2e_basic_shared')


def scenario_dlopen(ctx):
    lib = os.path.realpath(prog(ctx, 'rt_e2e_dllib.so'))
    host = prog(ctx, 'rt_e2e_dlhost')
    r = ctx.run('dlopen', 'fn=host_work;fn=lib_work', binary=host, argv=[lib])
    if not clean(ctx, r, 'dlopen'):
        return
    check(r.res.modules == [os.path.realpath(host), lib], 'modules %r' % r.res.modules)
    check(slot(r, 0, 'fn', 'host_work', 1).count == 1, 'host count')
    check(slot(r, 1, 'fn', 'lib_work', 1).count == 7, 'library count')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--workdir', required=True)
    scenario_main(ap, globals(),
                  call=lambda fn, args: fn(rtcheck.Ctx(args, 'e2e-' + args.scenario)))


if __name__ == '__main__':
    main()
