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
      call 1 direct bar /dir/t.c:5:3 inlined
      call 2 direct baz /dir/bar.h:7:5 via=1 timed
    fn foo file=/dir/t.c line=9 linkage=internal calls=0 not-emitted

The last word of a function is whether its body was emitted (with probes),
of a call its fate: timed, inlined (at that file:line:col), removed or
unknown; "via=K" marks a call of code inlined at call K (its file:line:col
in the inlined function's source), "callback=F" a call that passes function
F as an argument (version 4).  The layout is read by pptable.py
(test/table), which ppblob.py shares.

A malformed table gives one error line and exit status 1.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "table"))
import pptable  # noqa: E402  (the layout, shared with ppblob.py)


def dump(blobs, out):
    for b in blobs:
        out.append("blob module=%s producer=%s funcs=%d calls=%d"
                   % (b["module"], b["producer"], len(b["funcs"]),
                      sum(len(f["calls"]) for f in b["funcs"])))
        for f in b["funcs"]:
            out.append("fn %s file=%s line=%d linkage=%s calls=%d %s"
                       % (f["name"], f["file"], f["line"], pptable.LINKAGE[f["linkage"]],
                          len(f["calls"]),
                          "emitted" if f["flags"] & pptable.EMITTED else "not-emitted"))
            for k, c in enumerate(f["calls"]):
                where = "%s:%d:%d" % (c["file"], c["line"], c["col"]) if c["file"] else "-"
                via = " via=%d" % (c["via"] - 1) if c["via"] else ""
                via += " callback=%s" % c["callback"] if c.get("callback") else ""
                out.append("  call %d %s %s %s%s %s" % (k, pptable.KIND[c["kind"]],
                                                        c["callee"] or "-", where, via,
                                                        pptable.FATE[c["fate"]]))


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
            dump(pptable.decode_section(data), out)
        else:
            secs = [(o, n) for name, o, n in pptable.elf_sections(data) if name == pptable.SECTION]
            if not secs:
                raise pptable.Bad("no pinpoint_table section")
            for off, size in secs:
                dump(pptable.decode_section(data[off:off + size]), out)
    except (pptable.Bad, OSError, struct.error, ValueError) as e:
        sys.stderr.write("pp-table-dump: %s: %s\n" % (path, e))
        return 1
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
