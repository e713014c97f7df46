#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""corpus.py - the compiler side at real scale: large C and C++ code bases
built the way their users build them, plain and with pinpoint, their tables
read back, and a session on each.

    corpus.py --work DIR [--pinpoint BUILD] [--only NAME,...] [--sessions]
              [--session-time S] [--json FILE]

The code bases come from the npm registry as pinned tarballs (npm pack, the
sha256 checked; bench/real/bench_real.py's fetch):

  sqlite     SQLite's amalgamation (better-sqlite3 12.11.1): sqlite3.c, one
             C file of 269,000 lines, built with its driver by one
             compile-and-link command, `CC -O2 -g sqlite3.c driver.c -o driver`;
  leveldb    LevelDB 1.20 (leveldown 6.1.1), C++ with virtual interfaces
             (Env, Iterator, Comparator, FilterPolicy) and templates
             (SkipList), built by its own Makefile, `make -j2 CC=.. CXX=..`;
  re2        RE2 with the Abseil it vendors (re2 1.27.1), C++ heavy with
             templates and virtual calls (Regexp walkers), built as its users
             build it: Abseil with CMake, installed, then RE2 with CMake;
  bench/real's libraries (tree-sitter-json, expat, argon2, brotli, lz4,
             snappy), each file compiled with -c, then linked.

Each is built twice in a directory of its own, plain (clang/clang++ -O2 -g)
and with pinpoint (pinpoint-cc/pinpoint-c++, the same flags), the two builds
back to back.  Printed per code base:

  * lines: of its C/C++ sources and headers (tests, benchmarks and fuzzers
    left out);
  * build CPU time (user + sys of every process the build ran), plain and
    instrumented, and their ratio (goal: at most 1.3x);
  * every table reads back: pinpoint-layers lists the whole program with no
    warning and no error, and the functions it lists are exactly those that
    test/table/pptable.py, a decoder written apart from the C one, finds in
    the binary's pinpoint_table section (by name and file);
  * the table's size against .text, and the largest call list (after
    inlining) with its function;
  * with --sessions, a depth-2 session on the driver's entry, the
    instrumented binary against a copy of itself (identical code, --layouts
    1: each layout of a one-command build is a compile of the whole program),
    with its outcome, runs and wall time.

sqlite's session is also made a search through the largest call list: with
--sessions, a third build of sqlite has a slowdown put into sqlite3BtreeNext
(a spin of --slow-spin iterations on entry, some 20 % of query_sum), and
--slow-sessions depth-3 sessions from query_sum must reach sqlite3VdbeExec,
the bytecode interpreter's loop (about 950 calls after inlining), and name
the call of sqlite3BtreeNext in it.  The runs and wall time each took are
printed beside its chain.

Not a test: the figures depend on the host, whose noise (the spread of the
plain driver's run time over 10 runs) is printed beside them.
"""
import argparse
import glob
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'bench', 'real'))
sys.path.insert(0, os.path.join(ROOT, 'test', 'table'))
import bench_real  # noqa: E402  (fetch, unpack, the libraries of bench/real)
import pptable  # noqa: E402  (the table's independent decoder)

SQLITE = ('better-sqlite3', '12.11.1',
          'ebf0ed75a7a59dbcb3b24bbd014ef49d9f15bc328e4adcbf516f2a8fadfa2835')
LEVELDOWN = ('leveldown', '6.1.1',
             'fe534f13e475826331c9cd59f279f073c3238e4db2ff2c930e17a786ba0f4f01')
RE2 = ('re2', '1.27.1', '71f92a601d9d4ee0a994c2aa7e7111000f30063cc0707d41c33dc6d0bf15cb7f')

# The spin put into sqlite3BtreeNext for the search through the interpreter.
SLOW_MARK = 'SQLITE_PRIVATE int sqlite3BtreeNext(BtCursor *pCur, int flags){\n'
SLOW_SPIN = ('  { volatile int pp_spin; for(pp_spin=0; pp_spin<%d; pp_spin++){} }\n')

EXCLUDE = re.compile(r'(^|/)(test|tests|testing|benchmarks?|fuzz|fuzzing)(/|$)|'
                     r'_(test|benchmark|fuzz)\w*\.(c|cc|h)$|test_\w+\.(c|cc)$')


def fail(msg):
    print('corpus: %s' % msg, file=sys.stderr)
    sys.exit(1)


def note(msg):
    print('corpus: %s' % msg, file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, log=None):
    """Runs @cmd; returns (CPU seconds of its processes, wall seconds)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if log:
        with open(log, 'a') as f:
            f.write('$ %s\n%s%s' % (' '.join(cmd), p.stdout, p.stderr))
    if p.returncode != 0:
        fail('command failed (in %s): %s\n%s' % (cwd or '.', ' '.join(cmd), p.stderr[-3000:]))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), t1 - t0


def count_lines(paths):
    n = 0
    for p in paths:
        with open(p, 'rb') as f:
            n += sum(1 for _ in f)
    return n


def sources_under(root, exts=('.c', '.cc', '.cpp', '.h', '.hpp', '.inc')):
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if f.endswith(exts) and not EXCLUDE.search(os.path.relpath(p, root)):
                out.append(p)
    return sorted(out)


class Toolchain:
    def __init__(self, build):
        cache = bench_real.cmake_cache(build)
        self.cc = cache.get('PINPOINT_CLANG') or 'clang'
        self.cxx = cache.get('PINPOINT_CLANGXX') or 'clang++'
        self.ppcc = os.path.join(build, 'tools', 'pinpoint-cc')
        self.ppcxx = os.path.join(build, 'tools', 'pinpoint-c++')
        self.layers = os.path.join(build, 'tools', 'pinpoint-layers')
        self.pinpoint = os.path.join(build, 'pinpoint', 'pinpoint')
        self.plugin = os.path.join(build, 'pass', 'pinpoint-pass.so')
        self.runtime = os.path.join(build, 'runtime', 'libpinpoint-rt.a')
        for p in (self.ppcc, self.ppcxx, self.layers, self.pinpoint, self.plugin):
            if not os.path.exists(p):
                fail('%s missing: build pinpoint first' % p)

    def compilers(self, variant):
        if variant == 'instr':
            return self.ppcc, self.ppcxx
        return self.cc, self.cxx


# --- the code bases: each builds one variant into @out, returns its driver ---

def build_sqlite(tc, src, out, variant, log, slow=0):
    cc, _ = tc.compilers(variant)
    root = os.path.join(src['better-sqlite3'], 'deps', 'sqlite3')
    amalg = os.path.join(root, 'sqlite3.c')
    if slow:
        with open(amalg) as f:
            text = f.read()
        if text.count(SLOW_MARK) != 1:
            fail('sqlite3.c: sqlite3BtreeNext not found where expected')
        amalg = os.path.join(out, 'sqlite3.c')
        with open(amalg, 'w') as f:
            f.write(text.replace(SLOW_MARK, SLOW_MARK + SLOW_SPIN % slow))
        shutil.copy(os.path.join(root, 'sqlite3.h'), out)
    exe = os.path.join(out, 'driver')
    cpu, wall = run([cc, '-O2', '-g', '-I' + root, amalg,
                     os.path.join(HERE, 'sqlite', 'driver.c'), '-o', exe,
                     '-lpthread', '-ldl', '-lm'], cwd=out, log=log)
    return exe, cpu, wall


def build_leveldb(tc, src, out, variant, log):
    cc, cxx = tc.compilers(variant)
    tree = os.path.join(out, 'leveldb')
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(os.path.join(src['leveldown'], 'deps', 'leveldb', 'leveldb-1.20'), tree)
    os.chmod(os.path.join(tree, 'build_detect_platform'), 0o755)  # npm keeps no modes
    cpu, wall = run(['make', '-j2', 'CC=' + cc, 'CXX=' + cxx, 'OPT=-O2 -g -DNDEBUG',
                     'out-static/libleveldb.a', 'out-static/libmemenv.a'], cwd=tree, log=log)
    exe = os.path.join(out, 'driver')
    c2, w2 = run([cxx, '-O2', '-g', '-std=c++11', '-I' + tree, '-I' + os.path.join(tree, 'include'),
                  os.path.join(HERE, 'leveldb', 'driver.cc'),
                  os.path.join(tree, 'out-static', 'libmemenv.a'),
                  os.path.join(tree, 'out-static', 'libleveldb.a'), '-lpthread', '-o', exe],
                 cwd=out, log=log)
    return exe, cpu + c2, wall + w2


def build_re2(tc, src, out, variant, log):
    cc, cxx = tc.compilers(variant)
    vendor = os.path.join(src['re2'], 'vendor')
    prefix = os.path.join(out, 'prefix')
    common = ['-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DCMAKE_C_COMPILER=' + cc,
              '-DCMAKE_CXX_COMPILER=' + cxx, '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g -DNDEBUG',
              '-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g -DNDEBUG', '-DCMAKE_CXX_STANDARD=17',
              '-DCMAKE_INSTALL_PREFIX=' + prefix, '-DCMAKE_PREFIX_PATH=' + prefix,
              '-DBUILD_SHARED_LIBS=OFF', '-DBUILD_TESTING=OFF']
    cpu = wall = 0.0
    for name, extra in (('abseil-cpp', ['-DABSL_PROPAGATE_CXX_STD=ON', '-DABSL_BUILD_TESTING=OFF']),
                        ('re2', ['-DRE2_BUILD_TESTING=OFF'])):
        b = os.path.join(out, 'build-' + name)
        shutil.rmtree(b, ignore_errors=True)
        for cmd in (['cmake', '-S', os.path.join(vendor, name), '-B', b] + common + extra,
                    ['cmake', '--build', b, '-j2'], ['cmake', '--install', b]):
            c, w = run(cmd, log=log)
            cpu, wall = cpu + c, wall + w
    exe = os.path.join(out, 'driver')
    libs = ['-L' + os.path.join(prefix, 'lib'), '-lre2']
    # RE2's own pkg-config file names the Abseil libraries it needs.
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, 'lib', 'pkgconfig'))
    p = subprocess.run(['pkg-config', '--static', '--libs', 're2'], env=env,
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail('re2: pkg-config --libs re2: %s' % p.stderr.strip())
    libs = p.stdout.split()
    c, w = run([cxx, '-O2', '-g', '-std=c++17', '-I' + os.path.join(prefix, 'include'),
                os.path.join(HERE, 're2', 'driver.cc'), '-o', exe] + libs + ['-lpthread'],
               env=env, log=log)
    return exe, cpu + c, wall + w


def build_real(lib):
    """A library of bench/real: each file compiled with -c, then a link."""
    def build(tc, src, out, variant, log):
        cc, cxx = tc.compilers(variant)
        roots = {p[0]: src[p[0]] for p in lib['packages']}
        cxxlib = lib['lang'] == 'C++'
        comp = cxx if cxxlib else cc
        srcs = [s for pat in lib['sources'] for s in bench_real.resolve(roots, pat)]
        drv = glob.glob(os.path.join(ROOT, 'bench', 'real', lib['name'], 'driver.c*'))
        inc = ['-I' + p for pat in lib['includes'] for p in bench_real.resolve(roots, pat)]
        base = ['-O2', '-g', '-I' + os.path.join(ROOT, 'bench', 'real')] + lib['flags'] + inc
        objs, cpu, wall = [], 0.0, 0.0
        for i, s in enumerate(srcs + drv):
            o = os.path.join(out, '%03d-%s.o' % (i, os.path.basename(s)))
            c, w = run([comp] + base + ['-c', s, '-o', o], log=log)
            objs.append(o)
            cpu, wall = cpu + c, wall + w
        exe = os.path.join(out, 'driver')
        c, w = run([comp, '-O2', '-g'] + objs + ['-o', exe] + lib['libs'] + ['-lpthread', '-lm'],
                   log=log)
        return exe, cpu + c, wall + w
    return build


def subjects():
    out = [
        {'name': 'sqlite', 'lang': 'C', 'packages': [SQLITE],
         'how': 'one compile-and-link command', 'build': build_sqlite,
         'loc': lambda src: [os.path.join(src['better-sqlite3'], 'deps', 'sqlite3', f)
                             for f in ('sqlite3.c', 'sqlite3.h', 'sqlite3ext.h')],
         'entry': 'query_sum', 'args': ['6'], 'noise_args': ['40']},
        {'name': 'leveldb', 'lang': 'C++', 'packages': [LEVELDOWN],
         'how': 'its Makefile (make -j2)', 'build': build_leveldb,
         'loc': lambda src: sources_under(os.path.join(src['leveldown'], 'deps', 'leveldb',
                                                       'leveldb-1.20')),
         'entry': 'lookup_batch', 'args': ['20'], 'noise_args': ['200']},
        {'name': 're2', 'lang': 'C++', 'packages': [RE2],
         'how': 'CMake: Abseil built and installed, then RE2', 'build': build_re2,
         'loc': lambda src: (sources_under(os.path.join(src['re2'], 'vendor', 're2', 're2')) +
                             sources_under(os.path.join(src['re2'], 'vendor', 're2', 'util')) +
                             sources_under(os.path.join(src['re2'], 'vendor', 'abseil-cpp',
                                                        'absl'))),
         'entry': 'match_batch', 'args': ['10'], 'noise_args': ['60']},
    ]
    for lib in bench_real.LIBRARIES:
        roots_loc = lib['loc']
        out.append({'name': lib['name'], 'lang': lib['lang'], 'packages': lib['packages'],
                    'how': 'each file with -c, then a link', 'build': build_real(lib),
                    'loc': (lambda pats, pk: lambda src: [
                        p for pat in pats
                        for p in bench_real.resolve({k[0]: src[k[0]] for k in pk}, pat)])(
                            roots_loc, lib['packages']),
                    'entry': 'main', 'args': [str(lib['short'])],
                    'noise_args': [str(lib['short'])]})
    return out


# --- what is checked and measured on a built code base ---

def table_of(exe):
    """What pptable.py decodes from @exe's section: the names of its
    functions, the (name, file) of its static ones (a static name is unique
    only with its file; an inline one is one function whatever its copies'
    spelling of the header's path), and the largest call list (n, name)."""
    with open(exe, 'rb') as f:
        data = f.read()
    names, statics, largest = set(), set(), (0, '')
    for name, off, size in pptable.elf_sections(data):
        if name == b'pinpoint_table':
            for blob in pptable.decode_section(data[off:off + size]):
                for fn in blob['funcs']:
                    names.add(fn['name'])
                    if fn['linkage'] == 1:
                        statics.add((fn['name'], fn['file']))
                    largest = max(largest, (len(fn['calls']), fn['name']))
    return names, statics, largest


def check_tables(tc, exe):
    """pinpoint-layers over the whole program against the independent decoder."""
    p = subprocess.run([tc.layers, '--json', '--mangled', exe], capture_output=True, text=True)
    if p.returncode != 0 or 'warning' in p.stderr:
        return {'ok': False, 'why': p.stderr.strip()[:500]}
    listed = json.loads(p.stdout)['functions']
    lnames = {f['name'] for f in listed}
    lpairs = {(f['name'], f['file']) for f in listed}
    try:
        names, statics, largest = table_of(exe)
    except pptable.Bad as e:
        return {'ok': False, 'why': 'pptable.py: %s' % e}
    missing = sorted(names - lnames) + sorted(statics - lpairs)
    return {'ok': not missing and lnames <= names, 'functions': len(listed),
            'names': len(names), 'missing': missing[:5],
            'largest_calls': largest[0], 'largest_fn': largest[1]}


def noise(exe, args, n=10):
    """The driver's work time over @n runs: median and coefficient of variation."""
    xs = []
    for _ in range(n):
        p = subprocess.run([exe] + args, capture_output=True, text=True, check=True)
        xs.append(int(re.search(r'^ns (\d+)', p.stdout, re.M).group(1)))
    return statistics.median(xs), statistics.stdev(xs) / statistics.mean(xs)


def session(tc, prev_exe, cur_exe, entry, args, depth, work, max_time, layouts):
    """A session, --no-build; its outcome from the JSON report.  With layouts,
    in the directories the binaries were built in (their link records and
    objects are there); else in copies of the binaries alone."""
    dirs = {}
    os.makedirs(work, exist_ok=True)
    for side, exe in (('previous', prev_exe), ('current', cur_exe)):
        if layouts > 1:
            # where it was built: its link record and objects are there
            dirs[side] = os.path.dirname(exe)
            continue
        d = os.path.join(work, side)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        shutil.copy2(exe, os.path.join(d, 'driver'))
        dirs[side] = d
    report = os.path.join(work, 'report.json')
    cmd = [tc.pinpoint, '--entry', entry, '--depth', str(depth), '--previous', dirs['previous'],
           '--current', dirs['current'], '--no-build', '--layouts', str(layouts), '--max-time',
           str(max_time), '--no-save-command', '--json', report, '-q', '--', './driver'] + args
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    with open(os.path.join(work, 'session.txt'), 'w') as f:
        f.write('$ %s\n%s%s' % (' '.join(cmd), p.stdout, p.stderr))
    out = {'exit': p.returncode, 'wall_s': round(wall, 1)}
    try:
        with open(report) as f:
            r = json.load(f)
    except (OSError, ValueError):
        out['why'] = p.stderr.strip()[-500:]
        return out
    out['outcome'] = r['outcome']
    out['runs'] = sum(1 for x in r['runs'] if x['batch'] > 0)
    out['chain'] = [c.get('call_label') or c['function_demangled'] if c['kind'] == 'call'
                    else '%s (%s)' % (c['function_demangled'], c['kind'])
                    for c in r.get('bottleneck_chain', [])]
    return out


def main():
    ap = argparse.ArgumentParser(description='large real code built, read and measured')
    ap.add_argument('--work', required=True)
    ap.add_argument('--pinpoint', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--only')
    ap.add_argument('--sessions', action='store_true')
    ap.add_argument('--session-time', type=int, default=120)
    ap.add_argument('--slow-spin', type=int, default=120)
    ap.add_argument('--slow-sessions', type=int, default=3)
    ap.add_argument('--slow-layouts', type=int, default=16)
    ap.add_argument('--json')
    a = ap.parse_args()
    tc = Toolchain(os.path.abspath(a.pinpoint))
    work = os.path.abspath(a.work)
    todo = subjects()
    if a.only:
        names = a.only.split(',')
        todo = [s for s in todo if s['name'] in names]
        if len(todo) != len(names):
            fail('--only: unknown name among %s' % a.only)
    results = []
    for s in todo:
        note('%s: fetching' % s['name'])
        src = {}
        for pkg, ver, digest in s['packages']:
            src[pkg] = bench_real.unpack(work, pkg, ver, bench_real.fetch(work, pkg, ver, digest))
        res = {'name': s['name'], 'lang': s['lang'], 'how': s['how'],
               'lines': count_lines(s['loc'](src))}
        exes = {}
        for v in ('plain', 'instr'):
            out = os.path.join(work, 'corpus', s['name'], v)
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            note('%s: building %s' % (s['name'], v))
            exes[v], cpu, wall = s['build'](tc, src, out, v, os.path.join(out, 'build.log'))
            res['%s_cpu_s' % v] = round(cpu, 1)
            res['%s_wall_s' % v] = round(wall, 1)
        res['ratio'] = round(res['instr_cpu_s'] / res['plain_cpu_s'], 3)
        text, table = bench_real.section_sizes(exes['instr'])
        res['text_bytes'], res['table_bytes'] = text, table
        res['tables'] = check_tables(tc, exes['instr'])
        med, cv = noise(exes['plain'], s['noise_args'])
        res['noise'] = {'median_ms': round(med / 1e6, 2), 'cv': round(cv, 4)}
        if a.sessions:
            note('%s: A/A session at depth 2 on %s' % (s['name'], s['entry']))
            res['session'] = session(tc, exes['instr'], exes['instr'], s['entry'], s['args'], 2,
                                     os.path.join(work, 'corpus', s['name'], 'session'),
                                     a.session_time, 1)
            if s['name'] == 'sqlite':
                out = os.path.join(work, 'corpus', 'sqlite', 'slow')
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                note('sqlite: building the slow revision, then a depth-3 session')
                slow, _, _ = build_sqlite(tc, src, out, 'instr', os.path.join(out, 'build.log'),
                                          slow=a.slow_spin)
                res['slow_sessions'] = [
                    session(tc, exes['instr'], slow, s['entry'], s['args'], 3,
                            os.path.join(work, 'corpus', 'sqlite', 'slow-session-%d' % i), 300,
                            a.slow_layouts)
                    for i in range(a.slow_sessions)]
        results.append(res)
        print_row(res)
    total = sum(r['lines'] for r in results)
    print('lines in all: %d' % total)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'host': host(), 'results': results, 'lines': total}, f, indent=1)


def host():
    cpu = ''
    with open('/proc/cpuinfo') as f:
        for line in f:
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    return {'cpu': cpu, 'ncpu': os.cpu_count(), 'load': os.getloadavg()}


def print_row(r):
    t = r['tables']
    print('%-16s %-4s %8d lines  build %7.1f s -> %7.1f s CPU (%.2fx)  table %5.1f %% of .text  '
          'tables %s (%s functions, largest call list %s: %s)  noise %.1f %% of %.1f ms'
          % (r['name'], r['lang'], r['lines'], r['plain_cpu_s'], r['instr_cpu_s'], r['ratio'],
             100.0 * r['table_bytes'] / max(r['text_bytes'], 1),
             'read back' if t.get('ok') else 'FAILED: %s' % (t.get('why') or t.get('missing')),
             t.get('functions'), t.get('largest_calls'), t.get('largest_fn'),
             100 * r['noise']['cv'], r['noise']['median_ms']), flush=True)
    for k, x in [('session', r['session'])] if 'session' in r else []:
        print_session(k, x)
    for i, x in enumerate(r.get('slow_sessions', [])):
        print_session('slow session %d' % (i + 1), x)


def print_session(k, x):
    print('    %s: exit %s, %s, %s runs, %.1f s%s' % (
        k, x['exit'], x.get('outcome', x.get('why')), x.get('runs'), x['wall_s'],
        ', chain: ' + ' -> '.join(x['chain']) if x.get('chain') else ''), flush=True)


if __name__ == '__main__':
    main()
