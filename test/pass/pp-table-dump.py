#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pp-table-dump.py - print the pinpoint_table section of an ELF file as text.

Decodes the blobs written by the pinpoint pass, as doc/formats.md and
include/pinpoint/abi.h describe them, independently of the C readers, so the
lit tests can check call lists with FileCheck:

    pp-table-dump.py prog            # object, executable or shared library
    pp-table-dump.py --raw blob.bin  # a section dumped with llvm-objcopy

Output, one line per blob, function and call:

    blob module=t.c producer=pinpoint 0.1.0 llvm 14.0.6 funcs=2 calls=2
    fn main file=/dir/t.c line=3 linkage=external calls=2 emitted
      call 0 direct foo /dir/t.c:4:3 timed
      call 1 indirect - /dir/t.c:5:3 inlined
    fn foo file=/dir/t.c line=9 linkage=internal calls=0 not-emitted

The last word of a function is whether its body was emitted (with probes),
of a call its fate: timed, inlined (at that file:line:col), removed or
unknown.

A malformed table gives one error line and exit status 1.
"""
import struct
import sys

MAGIC = b"PINPOINT"
VERSION = 2
ALIGN = 8
HEADER = struct.Struct("<8s10I")  # struct pp_table_header
FUNC = struct.Struct("<5IBB2x")  # struct pp_table_func
CALL = struct.Struct("<4IBB2x")  # struct pp_table_call
LINKAGE = ["external", "internal", "linkonce", "weak"]
KIND = ["direct", "invoke", "indirect", "invoke-indirect"]
FATE = ["timed", "inlined", "removed", "unknown"]
FUNC_EMITTED = 1
SECTION = b"pinpoint_table"


class Bad(Exception):
    pass


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


def cstr(blob, strtab_off, strtab_size, off):
    if off >= strtab_size:
        raise Bad("string offset %d out of the string table" % off)
    start = strtab_off + off
    end = blob.find(b"\0", start, strtab_off + strtab_size)
    if end < 0:
        raise Bad("unterminated string at %d" % off)
    return blob[start:end].decode("utf-8", "replace")


def dump_blob(blob, out):
    magic, version, size, nfuncs, ncalls, funcs_off, calls_off, strtab_off, \
        strtab_size, module, producer = HEADER.unpack_from(blob)
    if version != VERSION:
        raise Bad("table version %d, expected %d" % (version, VERSION))
    if size % ALIGN or size > len(blob) or size < HEADER.size:
        raise Bad("bad blob size %d" % size)
    if funcs_off + nfuncs * FUNC.size > size or calls_off + ncalls * CALL.size > size \
            or strtab_off + strtab_size > size or strtab_size == 0:
        raise Bad("blob sections out of bounds")
    if blob[strtab_off] != 0:
        raise Bad("string table does not start with the empty string")
    if any(blob[strtab_off + strtab_size:size]):
        raise Bad("non-zero padding")

    def s(off):
        return cstr(blob, strtab_off, strtab_size, off)

    out.append("blob module=%s producer=%s funcs=%d calls=%d"
               % (s(module), s(producer), nfuncs, ncalls))
    for i in range(nfuncs):
        name, file, line, first, n, linkage, flags = FUNC.unpack_from(blob, funcs_off + i * FUNC.size)
        if first + n > ncalls:
            raise Bad("function %s: calls out of bounds" % s(name))
        if linkage >= len(LINKAGE):
            raise Bad("function %s: bad linkage %d" % (s(name), linkage))
        if flags & ~FUNC_EMITTED:
            raise Bad("function %s: bad flags %#x" % (s(name), flags))
        out.append("fn %s file=%s line=%d linkage=%s calls=%d %s"
                   % (s(name), s(file), line, LINKAGE[linkage], n,
                      "emitted" if flags & FUNC_EMITTED else "not-emitted"))
        for k in range(n):
            callee, cfile, cline, col, kind, fate = CALL.unpack_from(blob, calls_off + (first + k) * CALL.size)
            if kind >= len(KIND):
                raise Bad("function %s call %d: bad kind %d" % (s(name), k, kind))
            if (kind in (2, 3)) != (callee == 0):
                raise Bad("function %s call %d: callee does not match kind" % (s(name), k))
            where = "%s:%d:%d" % (s(cfile), cline, col) if cfile else "-"
            if fate >= len(FATE):
                raise Bad("function %s call %d: bad fate %d" % (s(name), k, fate))
            if fate == 0 and not flags & FUNC_EMITTED:
                raise Bad("function %s call %d: timed in a function not emitted" % (s(name), k))
            out.append("  call %d %s %s %s %s" % (k, KIND[kind], s(callee) or "-", where, FATE[fate]))
    return size


def dump_section(data, out):
    pos = 0
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
        pos += dump_blob(data[pos:], out)


def main(argv):
    raw = "--raw" in argv
    args = [a for a in argv[1:] if a != "--raw"]
    if len(args) != 1:
        sys.stderr.write("usage: pp-table-dump.py [--raw] FILE\n")
        return 2
    path = args[0]
    out = []
    try:
        with open(path, "rb") as f:
            data = f.read()
        if raw:
            dump_section(data, out)
        else:
            secs = [(o, n) for name, o, n in elf_sections(data) if name == SECTION]
            if not secs:
                raise Bad("no pinpoint_table section")
            for off, size in secs:
                dump_section(data[off:off + size], out)
    except (Bad, OSError, struct.error, ValueError) as e:
        sys.stderr.write("pp-table-dump: %s: %s\n" % (path, e))
        return 1
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
