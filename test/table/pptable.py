# SPDX-License-Identifier: MIT
"""pptable.py - the pinpoint table's layout (doc/formats.md, 1; abi.h), once
for the Python tools of the tests: encode() builds a blob (ppblob.py),
decode_section() reads a section back (pp-table-dump.py), independently of
the C readers.
"""
import struct

MAGIC = b"PINPOINT"
VERSION = 4
VERSION_MIN = 2
ALIGN = 8
SECTION = b"pinpoint_table"
HEADER = struct.Struct("<8s10I")  # struct pp_table_header
FUNC = struct.Struct("<5IBB2x")  # struct pp_table_func
CALLS = {
    2: struct.Struct("<4IBB2x"),  # struct pp_table_call of version 2
    3: struct.Struct("<4IBB2xI"),  # ... and of version 3: via
    4: struct.Struct("<4IBB2xII4x"),  # ... and of version 4: callback
}
LINKAGE = ["external", "internal", "linkonce", "weak"]
KIND = ["direct", "invoke", "indirect", "invoke-indirect"]
FATE = ["timed", "inlined", "removed", "unknown"]
EXTERNAL, INTERNAL, LINKONCE, WEAK = range(4)
DIRECT, INVOKE, INDIRECT, INVOKE_INDIRECT = range(4)
TIMED, INLINED, REMOVED, UNKNOWN = range(4)
EMITTED = 1  # PP_FUNC_EMITTED


class Bad(Exception):
    """A malformed table or ELF file."""


def call_struct(version):
    """The call record of a table version; version 1 was laid out as 2."""
    return CALLS[min(max(version, 2), 4)]


def encode(module, funcs, version=VERSION, producer="ppblob test"):
    """One blob.  funcs: [(name, file, line, linkage, calls[, flags])], calls:
    [(callee, file, line, col, kind[, fate[, via[, callback]]])]; flags
    default to EMITTED, fate to TIMED, via to 0 (version 3 on), callback to
    "" (version 4 on)."""
    strtab = bytearray(b"\0")
    offsets = {"": 0}
    call = call_struct(version)

    def s(text):
        if text not in offsets:
            offsets[text] = len(strtab)
            strtab.extend(text.encode() + b"\0")
        return offsets[text]

    frecs, crecs = [], []
    for name, file, line, linkage, calls, *flags in funcs:
        flags = flags[0] if flags else EMITTED
        frecs.append(FUNC.pack(s(name), s(file), line, len(crecs), len(calls), linkage, flags))
        for callee, cfile, cline, col, kind, *rest in calls:
            fate = rest[0] if rest else TIMED
            via = rest[1] if len(rest) > 1 else 0
            callback = s(rest[2]) if len(rest) > 2 else 0
            fields = [s(callee), s(cfile), cline, col, kind, fate]
            crecs.append(call.pack(*fields, via, callback) if version >= 4
                         else call.pack(*fields, via) if version >= 3 else call.pack(*fields))
    mod, prod = s(module), s(producer)
    funcs_off = HEADER.size
    calls_off = funcs_off + FUNC.size * len(frecs)
    strtab_off = calls_off + call.size * len(crecs)
    size = strtab_off + len(strtab)
    size += -size % ALIGN
    head = HEADER.pack(MAGIC, version, size, len(frecs), len(crecs), funcs_off, calls_off,
                       strtab_off, len(strtab), mod, prod)
    data = head + b"".join(frecs) + b"".join(crecs) + bytes(strtab)
    return data + bytes(size - len(data))


def elf_sections(data):
    """Yields (name, offset, size) of every section of an ELF image."""
    if data[:4] != b"\x7fELF":
        raise Bad("not an ELF file")
    if data[5] != 1:
        raise Bad("not a little-endian ELF file")
    if data[4] == 2:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<3H", data, 0x3A)
        shdr = struct.Struct("<IIQQQQIIQQ")
    elif data[4] == 1:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from("<3H", data, 0x2E)
        shdr = struct.Struct("<10I")
    else:
        raise Bad("unknown ELF class")
    if shoff == 0 or shentsize < shdr.size or shoff + shnum * shentsize > len(data):
        raise Bad("bad section header table")
    hdrs = [shdr.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
    if shstrndx >= shnum:
        raise Bad("bad section name table index")
    stroff, strsize = hdrs[shstrndx][4], hdrs[shstrndx][5]
    for h in hdrs:
        name_off, sh_type, off, size = h[0], h[1], h[4], h[5]
        if name_off >= strsize:
            raise Bad("bad section name offset")
        end = data.index(b"\0", stroff + name_off)
        name = data[stroff + name_off:end]
        if sh_type == 8:  # SHT_NOBITS
            continue
        if off + size > len(data):
            raise Bad("section %s past the end of the file" % name.decode())
        yield name, off, size


def _cstr(blob, strtab_off, strtab_size, off):
    if off >= strtab_size:
        raise Bad("string offset %d out of the string table" % off)
    start = strtab_off + off
    if off and blob[start - 1] != 0:
        raise Bad("string offset %d inside another string" % off)
    end = blob.find(b"\0", start, strtab_off + strtab_size)
    if end < 0:
        raise Bad("unterminated string at %d" % off)
    return blob[start:end].decode("utf-8", "replace")


def decode_blob(blob):
    """(size, {module, producer, version, funcs: [{name, file, line, linkage,
    flags, calls: [{callee, file, line, col, kind, fate, via}]}]})."""
    magic, version, size, nfuncs, ncalls, funcs_off, calls_off, strtab_off, \
        strtab_size, module, producer = HEADER.unpack_from(blob)
    if not VERSION_MIN <= version <= VERSION:
        raise Bad("table version %d, expected %d to %d" % (version, VERSION_MIN, VERSION))
    call = call_struct(version)
    if size % ALIGN or size > len(blob) or size < HEADER.size:
        raise Bad("bad blob size %d" % size)
    if funcs_off + nfuncs * FUNC.size > size or calls_off + ncalls * call.size > size \
            or strtab_off + strtab_size > size or strtab_size == 0:
        raise Bad("blob sections out of bounds")
    if blob[strtab_off] != 0:
        raise Bad("string table does not start with the empty string")
    if blob[strtab_off + strtab_size - 1] != 0:
        raise Bad("string table is not terminated")
    if any(blob[strtab_off + strtab_size:size]):
        raise Bad("non-zero padding")

    def s(off):
        return _cstr(blob, strtab_off, strtab_size, off)

    funcs = []
    for i in range(nfuncs):
        name, file, line, first, n, linkage, flags = FUNC.unpack_from(blob, funcs_off + i * FUNC.size)
        if first + n > ncalls:
            raise Bad("function %s: calls out of bounds" % s(name))
        if linkage >= len(LINKAGE):
            raise Bad("function %s: bad linkage %d" % (s(name), linkage))
        if flags & ~EMITTED:
            raise Bad("function %s: bad flags %#x" % (s(name), flags))
        calls = []
        for k in range(n):
            rec = call.unpack_from(blob, calls_off + (first + k) * call.size)
            callee, cfile, cline, col, kind, fate = rec[:6]
            via = rec[6] if version >= 3 else 0
            callback = rec[7] if version >= 4 else 0
            if kind >= len(KIND):
                raise Bad("function %s call %d: bad kind %d" % (s(name), k, kind))
            if (kind in (INDIRECT, INVOKE_INDIRECT)) != (callee == 0):
                raise Bad("function %s call %d: callee does not match kind" % (s(name), k))
            if fate >= len(FATE):
                raise Bad("function %s call %d: bad fate %d" % (s(name), k, fate))
            if fate == TIMED and not flags & EMITTED:
                raise Bad("function %s call %d: timed in a function not emitted" % (s(name), k))
            if via and (via > k or calls[via - 1]["kind"] in (INDIRECT, INVOKE_INDIRECT)):
                raise Bad("function %s call %d: via %d is not a direct call before it"
                          % (s(name), k, via))
            calls.append({"callee": s(callee), "file": s(cfile), "line": cline, "col": col,
                          "kind": kind, "fate": fate, "via": via, "callback": s(callback)})
        funcs.append({"name": s(name), "file": s(file), "line": line, "linkage": linkage,
                      "flags": flags, "calls": calls})
    return size, {"module": s(module), "producer": s(producer), "version": version,
                  "funcs": funcs}


def decode_section(data):
    """The blobs of a pinpoint_table section, as decode_blob() gives them."""
    pos, blobs = 0, []
    if not data:
        raise Bad("empty pinpoint_table section")
    while pos < len(data):
        if data[pos:pos + ALIGN] == b"\0" * ALIGN:
            pos += ALIGN
            continue
        if data[pos:pos + len(MAGIC)] != MAGIC:
            raise Bad("no blob magic at offset %d" % pos)
        if len(data) - pos < HEADER.size:
            raise Bad("truncated blob header at offset %d" % pos)
        size, blob = decode_blob(data[pos:])
        blobs.append(blob)
        pos += size
    return blobs
