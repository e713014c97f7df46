#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hostile_seeds.py - fuzzer seeds of inputs that once cost the readers far
more than their size (table_test.c's hostile and compressed tests hold the
same inputs, larger), written at build time so that they follow the format.

    hostile_seeds.py table DIR   DIR/hostile-claims: a section whose
                                 functions each claim all its calls, the
                                 last one bad; DIR/hostile-strings: records
                                 that all name one long string;
                                 DIR/hostile-suffixes: functions named by
                                 suffixes of one long string (fuzz_table)
    hostile_seeds.py elf DIR     ELF files with a pinpoint_table section:
                                 plain, zlib-compressed, and compressed with
                                 a ch_size far beyond its size (fuzz_elf)
"""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "table"))
from ppblob import module_blob  # noqa: E402
from pptable import ALIGN, CALLS, FUNC, HEADER, MAGIC, SECTION, VERSION  # noqa: E402

EMITTED, DIRECT, TIMED, BAD_KIND = 1, 0, 0, 9
SHF_COMPRESSED = 0x800
ELFCOMPRESS_ZLIB = 1
CHDR = struct.Struct("<IIQQ")  # Elf64_Chdr


def hostile_claims(nfuncs, ncalls):
    """nfuncs functions "f", each claiming all ncalls calls, the last of
    which has an unknown kind."""
    strtab = b"\0f\0hostile.c\0"
    call = CALLS[VERSION]
    funcs_off = HEADER.size
    calls_off = funcs_off + FUNC.size * nfuncs
    strtab_off = calls_off + call.size * ncalls
    size = strtab_off + len(strtab)
    size += -size % ALIGN
    head = HEADER.pack(MAGIC, VERSION, size, nfuncs, ncalls, funcs_off, calls_off, strtab_off,
                       len(strtab), 3, 0)
    funcs = b"".join(FUNC.pack(1, 3, i + 1, 0, ncalls, 0, EMITTED) for i in range(nfuncs))
    calls = b"".join(call.pack(1, 3, i + 1, 0, DIRECT if i + 1 < ncalls else BAD_KIND, TIMED,
                               0, 0) for i in range(ncalls))
    data = head + funcs + calls + strtab
    return data + bytes(size - len(data))


def blob(funcs, calls, strtab, module):
    """A blob of the records @funcs and @calls, packed, and @strtab."""
    call = CALLS[VERSION]
    funcs_off = HEADER.size
    calls_off = funcs_off + FUNC.size * len(funcs)
    strtab_off = calls_off + call.size * len(calls)
    size = strtab_off + len(strtab)
    size += -size % ALIGN
    head = HEADER.pack(MAGIC, VERSION, size, len(funcs), len(calls), funcs_off, calls_off,
                       strtab_off, len(strtab), module, 0)
    data = head + b"".join(funcs) + b"".join(calls) + strtab
    return data + bytes(size - len(data))


def hostile_strings(nfuncs, length):
    """nfuncs functions, each named by the same string of @length bytes,
    with one call to it from the same file, passing it: each string was
    scanned and interned once per record naming it."""
    strtab = b"\0" + b"x" * length + b"\0hostile.c\0"
    name, file = 1, length + 2
    funcs = [FUNC.pack(name, file, i + 1, i, 1, 0, EMITTED) for i in range(nfuncs)]
    calls = [CALLS[VERSION].pack(name, file, i + 1, 0, DIRECT, TIMED, 0, name)
             for i in range(nfuncs)]
    return blob(funcs, calls, strtab, file)


def hostile_suffixes(nfuncs, length):
    """nfuncs functions named by suffixes of one string of @length bytes
    (refused: a string is named by its start): each suffix was copied."""
    strtab = b"\0" + b"x" * length + b"\0"
    funcs = [FUNC.pack(2 + i % (length - 1), 0, i + 1, 0, 0, 0, EMITTED) for i in range(nfuncs)]
    return blob(funcs, [], strtab, 1)


def elf(table, flags=0):
    """A little-endian ELF64 relocatable object whose one section besides
    its names is pinpoint_table, holding @table."""
    shstrtab = b"\0" + SECTION + b"\0.shstrtab\0"
    table_off = 64
    names_off = table_off + len(table)
    shoff = names_off + len(shstrtab)
    shoff += -shoff % 8
    ehdr = (b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
            + struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2))
    shdr = struct.Struct("<IIQQQQIIQQ")
    shdrs = (bytes(shdr.size)
             + shdr.pack(1, 1, flags, 0, table_off, len(table), 0, 0, 8, 0)
             + shdr.pack(len(SECTION) + 2, 3, 0, 0, names_off, len(shstrtab), 0, 0, 1, 0))
    data = ehdr + table + shstrtab
    return data + bytes(shoff - len(data)) + shdrs


def compressed(table, ch_size=None):
    """@table zlib-compressed behind an Elf64_Chdr claiming @ch_size bytes."""
    return CHDR.pack(ELFCOMPRESS_ZLIB, 0, len(table) if ch_size is None else ch_size, 8) \
        + zlib.compress(table, 9)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("table", "elf"):
        sys.exit(__doc__)
    out = argv[2]
    os.makedirs(out, exist_ok=True)
    if argv[1] == "table":
        # Under the fuzzer's -max_len (64 kB): 56 kB, a million call
        # records decoded when each function read all the calls; 54 kB,
        # 36 MB of strings scanned when each reference was; 44 kB, 20 MB
        # of suffixes copied.
        seeds = {
            "hostile-claims": hostile_claims(1000, 1000),
            "hostile-strings": hostile_strings(600, 20000),
            "hostile-suffixes": hostile_suffixes(1000, 20000),
        }
    else:
        table = module_blob("main") + bytes(ALIGN) + module_blob("util")
        zsize = len(compressed(table))
        seeds = {
            "elf-plain": elf(table),
            "elf-zlib": elf(compressed(table), SHF_COMPRESSED),
            # more than 64 times its size, within libelf's own 1032
            "elf-zlib-ratio": elf(compressed(table, 65 * zsize), SHF_COMPRESSED),
            # a terabyte
            "elf-zlib-bomb": elf(compressed(table, 1 << 40), SHF_COMPRESSED),
        }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main(sys.argv)
