# SPDX-License-Identifier: MIT
"""ppresults.py - strict reader of the runtime's results file
(doc/formats.md, section 3), for the runtime's tests.

parse(text) returns a Results or raises FormatError naming the line.  It is
stricter than the driver's reader: it refuses anything the runtime must never
write (unknown records, slots out of order, a missing "end", trailing text).
"""
import re


class FormatError(Exception):
    pass


class Slot:
    def __init__(self, index, kind, spec, fields):
        self.index = index
        self.kind = kind
        self.spec = spec
        self.fields = fields

    def __getattr__(self, key):
        try:
            return self.fields[key]
        except KeyError:
            raise AttributeError(key) from None

    def get(self, key, default=None):
        return self.fields.get(key, default)

    def __repr__(self):
        return 'slot %d %s %s %r' % (self.index, self.kind, self.spec, self.fields)


class Target:
    """Where slot SLOT's indirect call went: kind fn, sym, ext or other."""

    def __init__(self, kind, addr, names, fields):
        self.kind = kind
        self.addr = addr
        self.name = names.get('name')
        self.file = names.get('file')
        self.module = names.get('module')
        self.fields = fields

    def __getattr__(self, key):
        try:
            return self.fields[key]
        except KeyError:
            raise AttributeError(key) from None

    def __repr__(self):
        return 'target %s %#x %s %s %r' % (self.kind, self.addr, self.name, self.module,
                                           self.fields)


def _decode(val, lineno):
    """A percent-encoded value (protocol.h)."""
    out = bytearray()
    i = 0
    raw = val.encode('utf-8', 'surrogateescape')
    while i < len(raw):
        if raw[i:i + 1] == b'%':
            if not re.match(rb'[0-9A-Fa-f]{2}\Z', raw[i + 1:i + 3]):
                raise FormatError('line %d: bad escape in %r' % (lineno, val))
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return out.decode('utf-8', 'surrogateescape')


def _target(toks, slot, lineno):
    if len(toks) < 4 or _uint(toks[0], lineno) != slot.index:
        raise FormatError('line %d: a target line not after its slot' % lineno)
    kind = toks[1]
    if kind not in ('fn', 'sym', 'ext', 'other') or not re.match(r'0x[0-9a-f]+\Z', toks[2]):
        raise FormatError('line %d: bad target %r' % (lineno, toks[1:3]))
    addr = int(toks[2], 16)
    if (kind == 'other') != (addr == 0):
        raise FormatError('line %d: target %s at %#x' % (lineno, kind, addr))
    names, fields = {}, {}
    for kv in toks[3:]:
        key, sep, val = kv.partition('=')
        if not sep or key in names or key in fields:
            raise FormatError('line %d: bad field %r' % (lineno, kv))
        if key in ('name', 'file', 'module'):
            names[key] = _decode(val, lineno)
        else:
            fields[key] = _uint(val, lineno)
    for key in ('count', 'total_ns', 'probes_ns'):
        if key not in fields:
            raise FormatError('line %d: target lacks %s' % (lineno, key))
    if (kind == 'fn') != ('name' in names and kind == 'fn') or (kind != 'fn' and 'file' in names):
        raise FormatError('line %d: a %s target names %r' % (lineno, kind, names))
    return Target(kind, addr, names, fields)


class Results:
    def __init__(self):
        self.pid = None
        self.clock = None
        self.ticks_per_ns = None
        self.below_ns = None
        self.reads_ns = None
        self.plain_ns = None
        self.clock_ns = None
        self.bias_ns = None
        self.calib_ns = None
        self.skipped = None
        self.delayed = None  # delay=: (executions delayed, the delay in ns)
        self.modules = []
        self.slots = []
        self.samples = []
        self.dropped = None


_UINT = re.compile(r'0|[1-9][0-9]*\Z')


def _uint(tok, lineno):
    if not _UINT.match(tok):
        raise FormatError('line %d: %r is not an unsigned integer' % (lineno, tok))
    return int(tok)


def parse(text):
    if not text.endswith('\n'):
        raise FormatError('the file does not end with a newline')
    lines = text[:-1].split('\n')
    res = Results()
    n = 0

    def take(prefix):
        nonlocal n
        if n >= len(lines):
            raise FormatError('line %d: missing %r' % (n + 1, prefix))
        line = lines[n]
        n += 1
        if not line.startswith(prefix):
            raise FormatError('line %d: want %r, got %r' % (n, prefix, line))
        return line[len(prefix):]

    if take('pinpoint-results ') != '1':
        raise FormatError('line 1: version is not 1')
    res.pid = _uint(take('pid '), n)
    clock = take('clock ').split(' ')
    if len(clock) != 2 or clock[0] not in ('tsc', 'monotonic'):
        raise FormatError('line %d: bad clock %r' % (n, clock))
    res.clock = clock[0]
    if not re.match(r'[0-9]+\.[0-9]{6}\Z', clock[1]):
        raise FormatError('line %d: bad ticks per ns %r' % (n, clock[1]))
    res.ticks_per_ns = float(clock[1])
    m = re.match(r'below_ns=(0|[1-9][0-9]*) reads_ns=(0|[1-9][0-9]*)\Z', take('sampling '))
    if not m:
        raise FormatError('line %d: bad sampling line' % n)
    res.below_ns, res.reads_ns = int(m.group(1)), int(m.group(2))
    m = re.match(r'plain_ns=([0-9]+\.[0-9]{2}) clock_ns=([0-9]+\.[0-9]{2}) '
                 r'bias_ns=([0-9]+\.[0-9]{2}) calib_ns=(0|[1-9][0-9]*)\Z', take('overhead '))
    if not m:
        raise FormatError('line %d: bad overhead line' % n)
    res.plain_ns, res.clock_ns, res.bias_ns = (float(m.group(i)) for i in (1, 2, 3))
    res.calib_ns = int(m.group(4))
    while n < len(lines) and lines[n].startswith('module '):
        path = take('module ')
        if not path.startswith('/'):
            raise FormatError('line %d: module path %r is not absolute' % (n, path))
        res.modules.append(path)
    if n < len(lines) and lines[n].startswith('skipped '):
        res.skipped = _uint(take('skipped '), n)
        if not res.skipped:
            raise FormatError('line %d: skipped 0' % n)
    if n < len(lines) and lines[n].startswith('delayed '):
        toks = take('delayed ').split(' ')
        if len(toks) != 2:
            raise FormatError('line %d: bad delayed line' % n)
        res.delayed = (_uint(toks[0], n), _uint(toks[1], n))
        if not 1 <= res.delayed[1] <= 1000000000:
            raise FormatError('line %d: delayed by %d ns' % (n, res.delayed[1]))
    while n < len(lines) and lines[n].startswith('slot '):
        toks = take('slot ').split(' ')
        if len(toks) < 4:
            raise FormatError('line %d: short slot line' % n)
        index = _uint(toks[0], n)
        if index != len(res.slots):
            raise FormatError('line %d: slot %d out of order' % (n, index))
        if toks[1] not in ('entry', 'fn', 'whole', 'range'):
            raise FormatError('line %d: bad slot kind %r' % (n, toks[1]))
        fields = {}
        for kv in toks[3:]:
            key, sep, val = kv.partition('=')
            if not sep or not key or key in fields:
                raise FormatError('line %d: bad field %r' % (n, kv))
            fields[key] = _uint(val, n)
        # calls_ns and calls_probes_ns for fn slots only
        calls = ['calls_ns', 'calls_probes_ns']
        want = ['found', 'total_ns', 'probes_ns', 'count'] + (calls if toks[1] == 'fn' else [])
        for key in want:
            if key not in fields:
                raise FormatError('line %d: slot lacks %s' % (n, key))
        for key in calls if toks[1] != 'fn' else []:
            if key in fields:
                raise FormatError('line %d: a %s slot has %s' % (n, toks[1], key))
        res.slots.append(Slot(index, toks[1], toks[2], fields))
        res.slots[-1].targets = []
        while n < len(lines) and lines[n].startswith('target '):
            res.slots[-1].targets.append(_target(take('target ').split(' '), res.slots[-1], n))
    toks = take('samples ').split(' ')
    if len(toks) != 2:
        raise FormatError('line %d: bad samples line' % n)
    count = _uint(toks[0], n)
    res.dropped = _uint(toks[1], n)
    for _ in range(count):
        if n >= len(lines):
            raise FormatError('line %d: missing samples' % (n + 1))
        res.samples.append(_uint(lines[n], n + 1))
        n += 1
    if n >= len(lines) or lines[n] != 'end':
        raise FormatError('line %d: want "end"' % (n + 1))
    if n + 1 != len(lines):
        raise FormatError('line %d: text after "end"' % (n + 2))
    return res


def read(path):
    with open(path, encoding='utf-8') as f:
        return parse(f.read())
