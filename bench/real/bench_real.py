#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_real.py - the probes' cost on real libraries, plain against instrumented.

    bench_real.py --work DIR [--pinpoint BUILD] [--rounds N] [--cost-rounds N]
                  [--layouts N] [--layout-rounds N] [--build-reps N]
                  [--only LIB,...] [--instructions] [--json FILE]

For each library of LIBRARIES: fetches its pinned npm tarballs into
DIR/downloads (npm pack, once; the sha256 must match), unpacks them, compiles
the library's sources and its driver bench/real/<lib>/driver.c[c] one file at
a time with the same flags two ways: plain (clang -O2 -g, the clang BUILD's
plugin was built for) and instrumented (the same plus
-fpass-plugin=<BUILD>/pass/pinpoint-pass.so, linked with the static runtime
<BUILD>/runtime/libpinpoint-rt.a).  The driver runs the library's public API
over input it generates deterministically and prints a digest, which must be
the same for every variant.  Then two phases.  The whole program: round by
round in rotating order, plain and instrumented unarmed, the driver's whole
workload (about 0.3-0.6 s).  The armed cost: --cost-rounds short runs of the
driver (its argument 'short' below: some 50 ms of work), round by round in
rotating order, instrumented unarmed, armed with one hot call site of the
library (PINPOINT=out=...;range=CALLER:I-I: of the sites of one callee in
one caller that <BUILD>/tools/pinpoint-layers lists with probes, the one a
counting run finds executed most often) and the same with timing=all.  Short
runs because this host's speed drifts by 10-30 % over seconds, in episodes;
runs of 50 ms mostly fall between them, where 0.5 s runs rarely do.
Printed per library:

  * unarmed / plain, whole program: the ratio of the process's CPU time
    (user + sys, start to exit; robust to a loaded machine) and of its wall
    time, between adjacent runs: median and quartiles over rounds;
  * armed cost per call, a micro-benchmark inside the real program:
    (armed - unarmed CPU time of the driver's work) / armed executions, the
    count read from the results file.  Twice: as the driver arms (the
    runtime times a random sample of a short hot call's executions, one in 8,
    and counts every one: the share timed is printed) and with timing=all
    (every execution timed); the median over rounds with a distribution-free
    95 % confidence interval for it (order statistics), and the figure from
    the fastest run of each variant.  Beside them, the call's mean duration
    and the range's time as the sampled run estimates it over the time
    timing=all measures (medians): the sample's bias, if any;
  * the clock's own cost in the same rounds: two back-to-back reads of the
    clock the runtime reads (rdtsc, bench/calls.c built plain, every 5th
    round), and the timing=all cost beyond it: a timed call reads the clock
    twice, so no timing=all figure falls much below that reference, which
    differs from host to host of the same VM type (19-25 ns for two reads);
  * build time: CPU time of the compiler and linker, instrumented / plain,
    each file compiled --build-reps times per variant (alternating), the
    least time counted;
  * unarmed / plain over random layouts (--layouts, with ld.lld): the same
    objects compiled with -ffunction-sections, each variant linked in
    --layouts random function orders (ld.lld --shuffle-sections), every
    layout run --layout-rounds times as a short run in rotating order; the
    ratio of the geometric means of the layouts' median CPU times, with a
    95 % bootstrap interval over layouts.  Where the linker puts the hot
    code moves a program by several per cent by itself (expat: up to 7 %
    between two links of the same plain objects), so one build against one
    build carries that lottery; over random layouts it averages out, and
    the figure is the probes' own cost.  Beside it, how far layout alone
    moved each variant (slowest / fastest layout);
  * the size of the pinpoint_table section against .text.

With --instructions, plain, unarmed and armed also run once each under
callgrind (valgrind --tool=callgrind): the instructions each executes, their
ratio, and the instructions an armed call adds, (armed - unarmed) / armed
executions, the runtime included.  With every execution timed
(timing=all): under callgrind a call runs some 50 times slower, too slow to
be sampled, so the sampled path's count cannot be taken that way.
That figure is exact and repeatable whatever else the machine does, where
the time ratios of memory-heavy code spread by 10-30 % from process to
process on a shared VM; it counts the probes' instructions, not what they
cost in time (a check is one load and one branch, usually far cheaper than
the average instruction).

BUILD defaults to the current directory (the bench-real target passes its
build directory), so the same benchmark can measure another version of the
plugin: bench_real.py --work DIR --pinpoint /path/to/other/build.

Figures, not verdicts: the targets are printed next to them.
"""
import argparse
import glob
import hashlib
import json
import math
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name, lang, npm packages (name, version, sha256 of the tarball),
# sources/includes relative to the unpacked packages ("<pkg>/..."), extra
# flags, link flags, the armed function, what the driver does.
LIBRARIES = [
    {
        'name': 'tree-sitter-json',
        'lang': 'C',
        'packages': [('tree-sitter', '0.25.1',
                      '07aeba8dd71630e7e72b2d4ca3bd2680c3471824100cc5ebff44e78a6ed0b6d3'),
                     ('tree-sitter-json', '0.24.8',
                      '39e96d1e4231d200562ebd69105151cd43f58dda4b18a0e9a62fe2991da35b9c')],
        'sources': ['tree-sitter/vendor/tree-sitter/lib/src/lib.c',
                    'tree-sitter-json/src/parser.c'],
        'loc': ['tree-sitter/vendor/tree-sitter/lib/src/*.[ch]',
                'tree-sitter/vendor/tree-sitter/lib/src/unicode/*.h',
                'tree-sitter/vendor/tree-sitter/lib/include/tree_sitter/*.h',
                'tree-sitter-json/src/parser.c'],
        'includes': ['tree-sitter/vendor/tree-sitter/lib/src',
                     'tree-sitter/vendor/tree-sitter/lib/include',
                     'tree-sitter-json/src'],
        'flags': ['-D_POSIX_C_SOURCE=200112L', '-D_DEFAULT_SOURCE'],
        'libs': [],
        'armed': [('ts_tree_cursor_goto_sibling_internal', '<indirect>'),
                  ('main', 'ts_tree_cursor_goto_first_child')],
        'workload': 'parse a generated 165 KiB JSON document 12 times, walk each tree',
        'short': 1,
    },
    {
        'name': 'expat',
        'lang': 'C',
        'packages': [('node-expat', '2.4.1',
                      '6daade62158d4d7db7091bd209cd68973c160adacf6bc16f8510c07f225da53d')],
        'sources': ['node-expat/deps/libexpat/lib/xmlparse.c',
                    'node-expat/deps/libexpat/lib/xmltok.c',
                    'node-expat/deps/libexpat/lib/xmlrole.c'],
        'loc': ['node-expat/deps/libexpat/lib/*.[ch]'],
        'includes': ['node-expat/deps/libexpat', 'node-expat/deps/libexpat/lib'],
        'flags': ['-DHAVE_EXPAT_CONFIG_H'],
        'libs': [],
        'armed': [('doContent', '<indirect>'), ('doContent', 'storeAtts')],
        'workload': 'parse a generated 1 MiB XML document 40 times in 16 KiB chunks, with handlers',
        'short': 4,
    },
    {
        'name': 'argon2',
        'lang': 'C',
        'packages': [('argon2', '0.45.1',
                      '4acffbd5e5a87fe8fad926afc9a9ac450d69b7082686dd2836be0d8309dbd8aa')],
        'sources': ['argon2/argon2/src/%s' % f for f in
                    ('argon2.c', 'blake2/blake2b.c', 'core.c', 'encoding.c', 'thread.c', 'opt.c')],
        'loc': ['argon2/argon2/src/*.[ch]', 'argon2/argon2/src/blake2/*.[ch]',
                'argon2/argon2/include/*.h'],
        'includes': ['argon2/argon2/include', 'argon2/argon2/src'],
        'flags': ['-msse', '-msse2'],
        'libs': ['-lpthread'],
        'armed': [('fill_segment', 'index_alpha'), ('blake2b_update', 'blake2b_compress')],
        'workload': '1000 Argon2id/Argon2i hashes (t=2, m=256 KiB), 100 encode+verify',
        'short': 150,
    },
    {
        'name': 'brotli',
        'lang': 'C',
        'packages': [('iltorb', '2.4.5',
                      '7de6ca52e70217aac6107f5a071426cf5c708c492218aa7bfab8afe5bddac3d9')],
        'sources': ['iltorb/brotli/c/common/*.c', 'iltorb/brotli/c/dec/*.c',
                    'iltorb/brotli/c/enc/*.c'],
        'loc': ['iltorb/brotli/c/common/*.[ch]', 'iltorb/brotli/c/dec/*.[ch]',
                'iltorb/brotli/c/enc/*.[ch]', 'iltorb/brotli/c/include/brotli/*.h'],
        'includes': ['iltorb/brotli/c/include'],
        'flags': [],
        'libs': ['-lm'],
        'armed': [('BrotliStoreMetaBlock', 'StoreSymbol'),
                  ('BrotliEncoderCompress', 'BrotliEncoderCompressStream')],
        'workload': 'compress 480 generated 64 KiB text messages at quality 4, decompress each',
        'short': 6,
    },
    {
        'name': 'lz4',
        'lang': 'C',
        'packages': [('lz4', '0.6.5',
                      'fdb90b41c5a56d27f74b2c42a9861b0893f225ddb637f79e1b67a4e4b5f5f93f')],
        'sources': ['lz4/deps/lz4/lib/lz4.c', 'lz4/deps/lz4/lib/lz4hc.c'],
        'loc': ['lz4/deps/lz4/lib/lz4.[ch]', 'lz4/deps/lz4/lib/lz4hc.[ch]'],
        'includes': ['lz4/deps/lz4/lib'],
        'flags': [],
        'libs': [],
        'armed': [('main', 'LZ4_decompress_safe')],
        'workload': 'compress 51200 1 KiB log blocks (1/64 with LZ4HC), decompress each 16 times',
        'short': 8,
    },
    {
        'name': 'snappy',
        'lang': 'C++',
        'packages': [('leveldown', '6.1.1',
                      'fe534f13e475826331c9cd59f279f073c3238e4db2ff2c930e17a786ba0f4f01')],
        'sources': ['leveldown/deps/snappy/snappy/%s' % f for f in
                    ('snappy.cc', 'snappy-sinksource.cc', 'snappy-stubs-internal.cc', 'snappy-c.cc')],
        'loc': ['leveldown/deps/snappy/snappy/snappy*.cc', 'leveldown/deps/snappy/snappy/snappy*.h',
                'leveldown/deps/snappy/linux/*.h'],
        'includes': ['leveldown/deps/snappy/linux', 'leveldown/deps/snappy/snappy'],
        'flags': ['-DHAVE_CONFIG_H'],
        'libs': [],
        'armed': [('main', '_ZN6snappy10UncompressEPKcmPNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE')],
        'workload': 'compress 40960 256-byte key/value blocks, validate + decompress each 16 times',
        'short': 2,
    },
]


def fail(msg):
    print('bench-real: %s' % msg, file=sys.stderr)
    sys.exit(1)


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def fetch(work, pkg, ver, digest):
    """The package's tarball in work/downloads, fetched with npm pack once."""
    dl = os.path.join(work, 'downloads')
    os.makedirs(dl, exist_ok=True)
    path = os.path.join(dl, '%s-%s.tgz' % (pkg, ver))
    if not os.path.exists(path):
        with tempfile.TemporaryDirectory(dir=dl) as tmp:
            try:
                p = subprocess.run(['npm', 'pack', '%s@%s' % (pkg, ver),
                                    '--pack-destination', tmp],
                                   capture_output=True, text=True, timeout=300)
            except (OSError, subprocess.TimeoutExpired) as e:
                fail('cannot fetch %s@%s with npm: %s' % (pkg, ver, e))
            got = glob.glob(os.path.join(tmp, '*.tgz'))
            if p.returncode != 0 or len(got) != 1:
                lines = [x for x in p.stderr.splitlines() if re.match(r'npm (ERR!|error) ', x)]
                code = [x for x in lines if re.match(r'npm (ERR!|error) (code|errno) ', x)]
                err = ' '.join((code or lines or ['npm pack gave no tarball'])[0].split()[2:])
                fail('cannot fetch %s@%s from the npm registry (offline?): %s' % (pkg, ver, err))
            os.replace(got[0], path)
    got = sha256(path)
    if got != digest:
        fail('%s: sha256 %s, expected %s (delete it to fetch it again)' % (path, got, digest))
    return path


def unpack(work, pkg, ver, tgz):
    """work/src/<pkg>-<ver>, unpacked once (a stamp marks a complete unpack)."""
    dest = os.path.join(work, 'src', '%s-%s' % (pkg, ver))
    stamp = os.path.join(dest, '.unpacked')
    if not os.path.exists(stamp):
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        with tarfile.open(tgz) as t:
            for m in t.getmembers():
                if m.name.startswith('/') or '..' in m.name.split('/') or not (m.isfile() or m.isdir()):
                    fail('%s: unexpected member %s' % (tgz, m.name))
            t.extractall(dest)
        open(stamp, 'w').close()
    return os.path.join(dest, 'package')


def resolve(roots, pattern):
    pkg, _, rest = pattern.partition('/')
    return sorted(glob.glob(os.path.join(roots[pkg], rest)))


def cmake_cache(build):
    vals = {}
    try:
        with open(os.path.join(build, 'CMakeCache.txt')) as f:
            for line in f:
                m = re.match(r'([A-Za-z_0-9]+):[A-Z]+=(.*)$', line.strip())
                if m:
                    vals[m.group(1)] = m.group(2)
    except OSError as e:
        fail('%s is not a configured pinpoint build: %s' % (build, e))
    return vals


def timed(cmd):
    """Runs cmd; returns the CPU time (user + sys) of the children it took."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        fail('command failed: %s\n%s' % (' '.join(cmd), p.stderr[-2000:]))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def compile_plan(lib, roots, tc):
    """The compiler, the files (the library's sources and its driver) and the
    flags both variants compile them with; the instrumented variant's extra
    flags."""
    cxx = lib['lang'] == 'C++'
    cc = tc['cxx'] if cxx else tc['cc']
    srcs = [s for pat in lib['sources'] for s in resolve(roots, pat)]
    drv = glob.glob(os.path.join(HERE, lib['name'], 'driver.c*'))
    if not srcs or len(drv) != 1:
        fail('%s: sources or driver missing' % lib['name'])
    srcs.append(drv[0])
    inc = ['-I' + p for pat in lib['includes'] for p in resolve(roots, pat)]
    base = ['-O2', '-g', '-I' + HERE] + lib['flags'] + inc
    return cc, srcs, base, {'plain': [], 'instr': ['-fpass-plugin=' + tc['plugin']]}


def link_cmd(cc, objs, exe, lib, tc, v):
    """The link of variant @v (the instrumented one with the static runtime)."""
    rt = [tc['runtime']] if v == 'instr' else []
    return [cc, '-O2', '-g'] + objs + ['-o', exe] + rt + lib['libs'] + ['-lpthread', '-lm']


def build(lib, roots, outdir, tc, reps):
    """Builds the driver plain and instrumented, one file at a time, the two
    variants of each file back to back, @reps times each; returns paths and
    CPU seconds, per file and variant the least of the @reps compiles (a
    compile does the same work every time: a loaded host only adds to it)."""
    cc, srcs, base, variants = compile_plan(lib, roots, tc)
    out = {}
    cpu = {'plain': 0.0, 'instr': 0.0}
    for v in variants:
        os.makedirs(os.path.join(outdir, v), exist_ok=True)
        out[v] = []
    for i, s in enumerate(srcs):
        obj = {v: os.path.join(outdir, v, '%03d-%s.o' % (i, os.path.basename(s))) for v in variants}
        best = {}
        for k in range(reps):
            order = list(variants) if (i + k) % 2 == 0 else list(reversed(list(variants)))
            for v in order:
                t = timed([cc] + base + variants[v] + ['-c', s, '-o', obj[v]])
                best[v] = min(best.get(v, t), t)
        for v in variants:
            cpu[v] += best[v]
            out[v].append(obj[v])
    exe = {}
    for v in variants:
        exe[v] = os.path.join(outdir, v, 'driver')
        cmd = link_cmd(cc, out[v], exe[v], lib, tc, v)
        cpu[v] += min(timed(cmd) for _ in range(reps))
    return exe, cpu


def have_lld(cc):
    """Whether clang @cc finds ld.lld for -fuse-ld=lld: beside it (Debian's
    lld-N puts it in /usr/lib/llvm-N/bin only) or on PATH."""
    path = shutil.which(cc)
    beside = path and os.path.exists(os.path.join(os.path.dirname(os.path.realpath(path)),
                                                  'ld.lld'))
    return bool(beside or shutil.which('ld.lld'))


def layouts(lib, roots, outdir, tc, n):
    """Compiles the driver plain and instrumented once more with
    -ffunction-sections and links each variant @n times with ld.lld
    --shuffle-sections (seeds 1..n): @n random orders of the same functions.
    Returns {'plain': [exe, ...], 'instr': [...]}, or None with @n 0 or
    without ld.lld."""
    if not n or not have_lld(tc['cc']):
        return None
    cc, srcs, base, variants = compile_plan(lib, roots, tc)
    base = base + ['-ffunction-sections']
    exes = {}
    for v, extra in variants.items():
        d = os.path.join(outdir, 'layout-' + v)
        os.makedirs(d, exist_ok=True)
        objs = []
        for i, src in enumerate(srcs):
            obj = os.path.join(d, '%03d-%s.o' % (i, os.path.basename(src)))
            timed([cc] + base + extra + ['-c', src, '-o', obj])
            objs.append(obj)
        exes[v] = []
        for seed in range(1, n + 1):
            exe = os.path.join(d, 'driver.%d' % seed)
            cmd = link_cmd(cc, objs, exe, lib, tc, v)
            timed(cmd[:1] + ['-fuse-ld=lld', '-Wl,--shuffle-sections=.text*=%d' % seed] + cmd[1:])
            exes[v].append(exe)
    return exes


def layout_ratio(plain, unarmed, reps=4000):
    """unarmed / plain over random layouts: the ratio of the geometric means
    of each layout's median CPU time, and a 95 % percentile bootstrap
    interval that resamples the layouts of each variant (the layout is the
    random factor; each layout's median over rounds averages the run-to-run
    noise).  @plain and @unarmed: per layout, the list of its runs' times."""
    lp = [math.log(statistics.median(x)) for x in plain]
    lu = [math.log(statistics.median(x)) for x in unarmed]
    est = math.exp(statistics.fmean(lu) - statistics.fmean(lp))
    rng = random.Random(1)
    boot = sorted(math.exp(statistics.fmean(rng.choices(lu, k=len(lu))) -
                           statistics.fmean(rng.choices(lp, k=len(lp)))) for _ in range(reps))
    spread = (math.exp(max(lp) - min(lp)), math.exp(max(lu) - min(lu)))
    return est, (boot[int(0.025 * reps)], boot[int(0.975 * reps) - 1]), spread


def section_sizes(exe):
    p = subprocess.run(['readelf', '-S', '-W', exe], capture_output=True, text=True, check=True)
    sizes = {}
    for line in p.stdout.splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)', line)
        if m:
            sizes[m.group(1)] = int(m.group(2), 16)
    return sizes.get('.text', 0), sizes.get('pinpoint_table', 0)


def armed_site(layers, exe, candidates, tmp):
    """The range item CALLER:I-I of the call site of CALLEE in CALLER that
    executes most often, for the first (CALLER, CALLEE) of candidates that the
    build's table holds with probes (pinpoint-layers); None when it holds none
    (inlined, say).  One site, as the driver arms when it times one call:
    the runtime samples a short one.  The counts come from one run with every
    site of the callee armed (one range item each)."""
    p = subprocess.run([layers, '--mangled', exe], capture_output=True, text=True)
    if p.returncode != 0:
        fail('%s: pinpoint-layers failed: %s' % (exe, p.stderr.strip()))
    calls, cur = {}, None
    for line in p.stdout.splitlines():
        if not line.startswith(' '):
            cur = line.split(' ', 1)[0]
            continue
        f = line.split()
        # a call without probes (inlined, removed, not timed) cannot be armed
        untimed = line.endswith(('  inlined', '  removed', '  not timed'))
        if len(f) >= 2 and f[0].isdigit() and not untimed:
            calls.setdefault((cur, f[1]), []).append(int(f[0]))
    for caller, callee in candidates:
        idx = calls.get((caller, callee))
        if not idx:
            continue
        items = ['range=%s:%d-%d' % (caller, i, i) for i in idx]
        if len(items) == 1:
            return items[0]
        counts = []
        for k in range(0, len(items), 32):  # a variable holds 64 items at most
            chunk = items[k:k + 32]
            counts += run(exe, ';'.join(chunk), tmp, slots=len(chunk))['counts']
        return items[max(range(len(items)), key=lambda k: (counts[k], -k))]
    return None


def run_env(armed, res):
    """The environment of a run: without PINPOINT, or armed with the items
    @armed and the results written to @res."""
    env = dict(os.environ)
    env.pop('PINPOINT', None)
    if armed:
        env['PINPOINT'] = 'out=%s;%s' % (res, armed)
    return env


def run(exe, armed, tmp, slots=1, n=None):
    """One run of the driver @exe (with its argument @n, if given)."""
    res = os.path.join(tmp, 'results')
    if armed and os.path.exists(res):
        os.unlink(res)
    env = run_env(armed, res)
    with tempfile.TemporaryFile('w+') as out, tempfile.TemporaryFile('w+') as err:
        t0 = time.perf_counter()
        p = subprocess.Popen([exe] + ([str(n)] if n else []), env=env, stdout=out, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = (time.perf_counter() - t0) * 1e9
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if p.returncode != 0:
        fail('%s exited with %d: %s' % (exe, p.returncode, stderr.strip()[-500:]))
    vals = {'wall': wall, 'cpu': (ru.ru_utime + ru.ru_stime) * 1e9}
    for line in stdout.splitlines():
        key, _, val = line.partition(' ')
        vals[key] = val
    vals['ns'] = float(vals['ns'])
    vals['cpu_ns'] = float(vals['cpu_ns'])
    if armed:
        with open(res) as f:
            text = f.read()
        found = sorted((int(i), int(f), int(ns), int(c), rest) for i, f, ns, c, rest in re.findall(
            r'^slot (\d+) \S+ \S+ found=(\d+) total_ns=(\d+) count=(\d+)(.*)$', text, re.M))
        if len(found) != slots or found[0][0] != 0:
            fail('%s: %d slots expected in the results file' % (exe, slots))
        vals['counts'] = [c for _, _, _, c, _ in found]
        _, vals['found'], vals['total_ns'], vals['count'], rest = found[0]
        t = re.search(r' timed=(\d+)', rest)
        vals['timed'] = int(t.group(1)) if t else vals['count']
    return vals


def rotating(variants, rounds, tmp, n=None, each_round=None):
    """Runs each of @variants (name, exe, armed) once a round for @rounds
    rounds, the order rotating by one every round (a drifting host's speed
    falls on every variant alike), with the driver's argument @n; calls
    @each_round(r) after round r.  Returns {name: [run(), ...]}."""
    res = {v[0]: [] for v in variants}
    for r in range(rounds):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for name, exe, armed in order:
            res[name].append(run(exe, armed, tmp, n=n))
        if each_round:
            each_round(r)
    return res


def clock_pair_ns(exe):
    """ns per two back-to-back reads of the clock (bench/calls.c rdtsc), or None."""
    if not exe:
        return None
    p = subprocess.run([exe, 'rdtsc', '5000000'], capture_output=True, text=True)
    m = re.search(r'^rdtsc2_ns (\S+)$', p.stdout, re.M)
    v = float(m.group(1)) if p.returncode == 0 and m else 0.0
    return v if v > 0 else None


def instructions(exe, armed=None, tmp=None):
    """Instructions @exe executes (callgrind's Ir), armed with the item
    @armed if given, or None without valgrind."""
    if not shutil.which('valgrind'):
        return None
    env = run_env(armed, os.path.join(tmp, 'results.ir') if armed else None)
    # Debian 12's valgrind cannot read clang's DWARF 5: count on a copy without it.
    with tempfile.TemporaryDirectory() as d:
        bare = os.path.join(d, os.path.basename(exe))
        subprocess.run(['objcopy', '--strip-debug', exe, bare], check=True)
        p = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null',
                            bare], capture_output=True, text=True, env=env)
    m = re.search(r'^==\d+== Collected : (\d+)', p.stderr, re.M)
    if p.returncode != 0 or not m:
        fail('callgrind on %s failed (%d): %s' % (exe, p.returncode, p.stderr.strip()[-500:]))
    return int(m.group(1))


def quartiles(xs):
    if len(xs) < 4:
        m = statistics.median(xs)
        return m, m, m
    q = statistics.quantiles(xs, n=4)
    return q[0], q[1], q[2]


def median_ci(xs, level=0.95):
    """A distribution-free confidence interval for the median: the order
    statistics x(k) and x(n-k+1), with k the largest rank such that
    P(Binomial(n, 1/2) < k) <= (1 - level) / 2 (coverage >= level; with
    n = 21, ranks 6 and 16).  With too few values for that, (min, max)."""
    x = sorted(xs)
    n = len(x)
    tail, k = 0.0, 0
    while k < n:
        p = math.comb(n, k) / 2.0 ** n
        if tail + p > (1 - level) / 2:
            break
        tail += p
        k += 1
    if k == 0:
        return x[0], x[-1]
    return x[k - 1], x[n - k]


def loc(roots, lib):
    n = 0
    for pat in lib['loc']:
        for path in resolve(roots, pat):
            with open(path, 'rb') as f:
                n += sum(1 for _ in f)
    return n


def main():
    ap = argparse.ArgumentParser(description='the probes\' cost on real libraries')
    ap.add_argument('--work', required=True, help='download and build directory')
    ap.add_argument('--pinpoint', default=os.getcwd(), help='the pinpoint build to measure')
    ap.add_argument('--rounds', type=int, default=21,
                    help='rounds of the whole-program comparison (default 21)')
    ap.add_argument('--cost-rounds', type=int, default=101,
                    help='short runs of each armed variant for the cost per call (default 101)')
    ap.add_argument('--build-reps', type=int, default=3,
                    help='compiles of each file per variant; the least CPU time counts (default 3)')
    ap.add_argument('--layouts', type=int, default=8,
                    help='random function orders of each variant (ld.lld --shuffle-sections) for the'
                    ' unarmed/plain ratio over layouts; 0: none (default 8)')
    ap.add_argument('--layout-rounds', type=int, default=21,
                    help='short runs of each layout (default 21)')
    ap.add_argument('--only', default='', help='comma-separated library names')
    ap.add_argument('--json', help='also write the figures to this file')
    ap.add_argument('--instructions', action='store_true',
                    help='also count plain and unarmed instructions with callgrind')
    args = ap.parse_args()
    if args.rounds < 4 or args.cost_rounds < 4 or args.build_reps < 1:
        fail('--rounds and --cost-rounds must be at least 4, --build-reps at least 1')
    if args.layouts < 0 or args.layouts == 1 or args.layout_rounds < 4:
        fail('--layouts must be 0 or at least 2, --layout-rounds at least 4')

    t_start = time.monotonic()
    build_dir = os.path.abspath(args.pinpoint)
    cache = cmake_cache(build_dir)
    tc = {
        'cc': cache.get('PINPOINT_CLANG', 'clang'),
        'cxx': cache.get('PINPOINT_CLANGXX', 'clang++'),
        'plugin': os.path.join(build_dir, 'pass', 'pinpoint-pass.so'),
        'runtime': os.path.join(build_dir, 'runtime', 'libpinpoint-rt.a'),
        'layers': os.path.join(build_dir, 'tools', 'pinpoint-layers'),
    }
    for k in ('plugin', 'runtime', 'layers'):
        if not os.path.exists(tc[k]):
            fail('%s: missing (build the pinpoint build first)' % tc[k])
    if args.layouts and not have_lld(tc['cc']):
        print('bench_real.py: no ld.lld for %s: no figures over random layouts (--layouts)' %
              tc['cc'], file=sys.stderr)
    libs = LIBRARIES
    if args.only:
        names = args.only.split(',')
        libs = [lib for lib in LIBRARIES if lib['name'] in names]
        if len(libs) != len(names):
            fail('--only: unknown library among %s' % args.only)

    work = os.path.abspath(args.work)
    tag = hashlib.sha256(build_dir.encode()).hexdigest()[:10]
    print('pinpoint real-code benchmark: pinpoint build %s, %s, %d rounds' %
          (build_dir, os.path.basename(tc['cc']), args.rounds))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        clock = os.path.join(tmp, 'calls')
        if subprocess.run([tc['cc'], '-O2', os.path.join(HERE, '..', 'calls.c'), '-o', clock],
                          capture_output=True).returncode != 0 or not clock_pair_ns(clock):
            clock = None  # not x86-64: no clock reference
        for lib in libs:
            roots = {}
            for pkg, ver, digest in lib['packages']:
                roots[pkg] = unpack(work, pkg, ver, fetch(work, pkg, ver, digest))
            outdir = os.path.join(work, 'build', tag, lib['name'])
            shutil.rmtree(outdir, ignore_errors=True)
            print('  %s: building plain and instrumented ...' % lib['name'], flush=True)
            exe, cpu = build(lib, roots, outdir, tc, args.build_reps)
            text_plain, _ = section_sizes(exe['plain'])
            text, table = section_sizes(exe['instr'])

            item = armed_site(tc['layers'], exe['instr'], lib['armed'], tmp)
            # the whole program: plain against unarmed, the driver's whole workload
            variants = [('plain', exe['plain'], None), ('unarmed', exe['instr'], None)]
            print('  %s: running %d rounds ...' % (lib['name'], args.rounds), flush=True)
            res = rotating(variants, args.rounds, tmp)
            # the armed cost: many short runs (the host's speed drifts by
            # 10-30 % over seconds, and runs of some 50 ms mostly fall
            # between its slow episodes), unarmed, armed and timing=all
            # (and plain, for the whole-program ratio over the same short runs)
            reads = []

            def read_clock(r):
                if clock and r % 5 == 0:
                    reads.append(clock_pair_ns(clock))
            armed = [('armed', exe['instr'], item),
                     ('all', exe['instr'], item + ';timing=all')] if item else []
            print('  %s: %d short runs of each (driver %d) ...' %
                  (lib['name'], args.cost_rounds, lib['short']), flush=True)
            cost = rotating(variants + armed, args.cost_rounds, tmp, n=lib['short'],
                            each_round=read_clock)
            lay = layouts(lib, roots, outdir, tc, args.layouts)
            lay_runs = {}
            if lay:
                print('  %s: %d short runs of %d layouts of each ...' %
                      (lib['name'], args.layout_rounds, args.layouts), flush=True)
                lv = [('plain.%d' % i, e, None) for i, e in enumerate(lay['plain'])]
                lv += [('unarmed.%d' % i, e, None) for i, e in enumerate(lay['instr'])]
                lay_runs = rotating(lv, args.layout_rounds, tmp, n=lib['short'])
            for runs, what in ((res, 'the variants'), (cost, 'the short runs'),
                               (lay_runs, 'the layouts')):
                if not runs:
                    continue
                checks = {v['check'] for name in runs for v in runs[name]}
                if len(checks) != 1:
                    fail('%s: %s computed different results: %s' %
                         (lib['name'], what, sorted(checks)))
            ratio = [u['cpu'] / p['cpu'] for u, p in zip(res['unarmed'], res['plain'])]
            ratio_wall = [u['wall'] / p['wall'] for u, p in zip(res['unarmed'], res['plain'])]
            ratio_short = [u['cpu'] / p['cpu'] for u, p in zip(cost['unarmed'], cost['plain'])]
            layout = None
            if lay_runs:
                layout = layout_ratio(
                    [[v['cpu'] for v in lay_runs['plain.%d' % i]] for i in range(args.layouts)],
                    [[v['cpu'] for v in lay_runs['unarmed.%d' % i]] for i in range(args.layouts)])
            count = cost['armed'][0]['count'] if item else 0
            ir = None
            if args.instructions:
                print('  %s: counting instructions (callgrind) ...' % lib['name'], flush=True)
                ir = {'plain': instructions(exe['plain']), 'unarmed': instructions(exe['instr'])}
                if item and ir['unarmed']:
                    ir['armed'] = instructions(exe['instr'], item + ';timing=all', tmp)
                    ir['count'] = run(exe['instr'], item, tmp)['count']
            per_call = [(a['cpu_ns'] - u['cpu_ns']) / count
                        for a, u in zip(cost['armed'], cost['unarmed'])] if count else [float('nan')]
            per_call_all = [(a['cpu_ns'] - u['cpu_ns']) / count
                            for a, u in zip(cost['all'], cost['unarmed'])] if count else [float('nan')]
            # from the fastest run of each variant: a noisy host only adds time
            fastest = {k: min(v['cpu_ns'] for v in cost[k]) for k in cost if cost[k]}
            min_call = (fastest['armed'] - fastest['unarmed']) / count if count else float('nan')
            min_call_all = (fastest['all'] - fastest['unarmed']) / count if count else float('nan')
            timed = statistics.median(v['timed'] / v['count'] for v in cost['armed']) if count else 0
            estimate = (statistics.median(v['total_ns'] for v in cost['armed']) /
                        statistics.median(v['total_ns'] for v in cost['all'])) if count else 0
            mean_call = statistics.median(v['total_ns'] / v['count'] for v in cost['all']) if count else 0
            pair = statistics.median(reads) if count and reads else float('nan')
            beyond = [c - pair for c in per_call_all] if count and reads else [float('nan')]
            rows.append({
                'lib': lib['name'], 'lang': lib['lang'], 'loc': loc(roots, lib),
                'plain_ms': statistics.median(v['cpu'] for v in res['plain']) / 1e6,
                'ratio': quartiles(ratio), 'ratio_wall': quartiles(ratio_wall),
                'ratio_short': quartiles(ratio_short), 'ratio_short_ci': median_ci(ratio_short),
                'plain_short_ms': statistics.median(v['cpu'] for v in cost['plain']) / 1e6,
                'armed': item, 'count': count,
                'per_call': quartiles(per_call),
                'per_call_all': quartiles(per_call_all), 'timed': timed, 'estimate': estimate,
                'per_call_ci': median_ci(per_call), 'per_call_all_ci': median_ci(per_call_all),
                'min_call': min_call, 'min_call_all': min_call_all, 'mean_call_ns': mean_call,
                'short': lib['short'], 'cost_rounds': args.cost_rounds if item else 0,
                'clock_pair': quartiles(reads) if reads else None,
                'beyond_clock': quartiles(beyond),
                'build_plain_s': cpu['plain'], 'build_instr_s': cpu['instr'],
                'text_plain': text_plain, 'text': text, 'table': table,
                'instructions': ir,
                'layouts': args.layouts if layout else 0,
                'layout_ratio': layout[0] if layout else None,
                'layout_ci': layout[1] if layout else None,
                'layout_spread': layout[2] if layout else None,
            })

    print()
    print('  whole program, instrumented and unarmed against plain (the figure that counts):')
    print('  %-17s %-4s %6s %7s  %-24s %-24s %-29s %-20s %s' %
          ('library', 'lang', 'lines', 'plain', 'unarmed/plain, CPU', 'unarmed/plain, wall',
           'short runs: CPU [95% CI]', 'build s (x)', 'table/.text KiB (plain .text)'))
    for r in rows:
        q1, m, q3 = r['ratio']
        w1, wm, w3 = r['ratio_wall']
        short = '%.3fx [%.3f..%.3f] %3.0fms' % ((r['ratio_short'][1],) + tuple(r['ratio_short_ci']) +
                                                (r['plain_short_ms'],))
        print('  %-17s %-4s %6d %5.0fms  %.3fx [%.3f..%.3f]   %.3fx [%.3f..%.3f]   %-29s '
              '%5.1f/%5.1f %.2fx   %6.1f/%6.1f %5.1f%% (%.1f)' %
              (r['lib'], r['lang'], r['loc'], r['plain_ms'], m, q1, q3, wm, w1, w3, short,
               r['build_plain_s'], r['build_instr_s'], r['build_instr_s'] / r['build_plain_s'],
               r['table'] / 1024, r['text'] / 1024, 100.0 * r['table'] / max(r['text'], 1),
               r['text_plain'] / 1024))
    print('    unarmed/plain: median of %d adjacent-run ratios [quartiles] of the process\'s CPU time'
          ' (user+sys) and' % args.rounds)
    print('    wall time, start to exit; short runs: the same CPU ratio over the %d short runs'
          ' below (their' % args.cost_rounds)
    print('    median with a 95% confidence interval, and plain\'s CPU time); target <= 1.02x each'
          ' library (goal: median <= 1.01x)')
    for key, what in (('ratio', 'whole runs'), ('ratio_short', 'short runs')):
        meds = [r[key][1] for r in rows]
        print('    %s: worst %.3fx, median over libraries %.3fx (CPU)' %
              (what, max(meds), statistics.median(meds)))
    print('    build: compiler and linker CPU time (user+sys), plain/instrumented (instrumented /'
          ' plain), per file the')
    print('    least of %d compiles of each variant; target <= 1.3x' % args.build_reps)
    if any(r['layout_ratio'] for r in rows):
        print()
        print('  unarmed/plain over random layouts (the same code, its functions in %d random orders'
              ' of each variant):' % args.layouts)
        print('  %-17s %-28s %-22s %s' % ('library', 'unarmed/plain [95% CI]', 'plain: slowest/fastest',
                                         'unarmed: slowest/fastest'))
        for r in rows:
            if r['layout_ratio']:
                print('  %-17s %.3fx [%.3f..%.3f]       %.3fx                 %.3fx' %
                      ((r['lib'], r['layout_ratio']) + tuple(r['layout_ci']) +
                       tuple(r['layout_spread'])))
        print('    -ffunction-sections, linked by ld.lld --shuffle-sections=.text*=SEED; each layout\'s'
              ' median CPU')
        print('    time over %d short runs (all layouts of both variants in rotating order), the'
              ' ratio of the' % args.layout_rounds)
        print('    geometric means over layouts, a bootstrap interval over layouts: the figure for'
              ' the probes\' own')
        print('    cost, where one build against one build also measures where the linker happened'
              ' to put the')
        print('    hot code (slowest/fastest: how far that alone moves one variant)')
    if any(r['count'] for r in rows):
        print()
        print('  armed cost per call, the most executed site of one callee armed (range=CALLER:I-I),'
              ' ns per call:')
        print('  %-17s %7s %8s %-25s %-7s %-25s %-9s %-9s %s' % (
            'library', 'calls', 'call ns', 'armed [95% CI]', 'timed', 'timing=all [95% CI]',
            'armed*', 'all*', 'estimate/all'))
        for r in rows:
            if r['count']:
                print('  %-17s %7d %8.0f %6.1f [%6.1f..%6.1f]   %5.1f%%  %6.1f [%6.1f..%6.1f]   '
                      '%6.1f    %6.1f    %.3fx' %
                      ((r['lib'], r['count'], r['mean_call_ns'], r['per_call'][1]) +
                       tuple(r['per_call_ci']) + (100.0 * r['timed'], r['per_call_all'][1]) +
                       tuple(r['per_call_all_ci']) +
                       (r['min_call'], r['min_call_all'], r['estimate'])))
        print('    (armed - unarmed CPU time of the driver\'s work) / armed calls, %d short runs of'
              ' each variant' % args.cost_rounds)
        print('    in rotating order (calls: armed calls a run; call ns: the call\'s mean duration);'
              ' the median')
        print('    of the rounds with a distribution-free 95% confidence interval (order statistics);'
              ' target <= 20 ns')
        print('    armed: as the driver arms (a call site or body shorter than 100 times two clock'
              ' reads is timed')
        print('    on a random 1 in 8 of its executions, all counted; timed: the share timed);'
              ' timing=all: every')
        print('    execution timed; *: from the fastest run of each variant; estimate/all: the site\'s'
              ' total_ns,')
        print('    sampled over timing=all (medians)')
    if any(r['clock_pair'] for r in rows):
        print()
        print('  %-17s %-24s %-26s %s' % ('library', 'timing=all ns/call [q]',
                                          'two clock reads, ns [q]', 'all - two reads, ns [q]'))
        for r in rows:
            if r['count'] and r['clock_pair']:
                print('  %-17s %6.1f [%5.1f..%5.1f]   %6.1f [%5.1f..%5.1f]     %6.1f [%5.1f..%5.1f]' %
                      ((r['lib'],) + tuple(r['per_call_all'][i] for i in (1, 0, 2)) +
                       tuple(r['clock_pair'][i] for i in (1, 0, 2)) +
                       tuple(r['beyond_clock'][i] for i in (1, 0, 2))))
        print('    the clock reference: two back-to-back rdtsc (bench/calls.c) every 5th round; an'
              ' armed call')
        print('    timed reads the clock twice, so no timing=all figure falls much below it')
    if any(r['instructions'] for r in rows):
        print()
        print('  %-17s %15s %15s %-13s %s' % ('library', 'plain Ir', 'unarmed Ir', 'unarmed/plain',
                                              'Ir per armed call, timing=all'))
        for r in rows:
            ir = r['instructions']
            if ir and ir['plain'] and ir['unarmed']:
                per = ('%.1f' % ((ir['armed'] - ir['unarmed']) / ir['count'])
                       if ir.get('armed') and ir.get('count') else '-')
                print('  %-17s %15d %15d %.4fx       %s' % (r['lib'], ir['plain'], ir['unarmed'],
                                                          ir['unarmed'] / ir['plain'], per))
        print('    instructions executed, whole process (callgrind); exact, not time; per armed call:')
        print('    (armed - unarmed) / armed calls with timing=all (too slow under callgrind to be'
              ' sampled), runtime included')
    print()
    for r in rows:
        if r['armed']:
            print('  %s armed: %s' % (r['lib'], r['armed']))
    print('  benchmark time: %.0f s' % (time.monotonic() - t_start))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'pinpoint': build_dir, 'rounds': args.rounds, 'rows': rows}, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
