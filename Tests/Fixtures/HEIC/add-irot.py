#!/usr/bin/env python3
"""Adds an `irot` (rotation) property to the primary item of a HEIC that heif-enc 1.15 wrote.

    add-irot.py IN.heic OUT.heic [ANGLE]     ANGLE: 1, 2 or 3 quarter turns anticlockwise (default 1)

heif-enc 1.15 cannot write `irot`, so make-heic-fixtures.sh patches its output: the property is
appended to `ipco`, associated (essential) with the primary item in `ipma`, the enclosing `iprp`
and `meta` boxes grow by what was added, and every `iloc` offset into the file (construction
method 0) moves by the same amount, since `mdat` now starts later. Only the layout heif-enc 1.15
writes is handled (32-bit box sizes, `ipma` version 0 with 1-byte associations); anything else
stops with an error rather than write a wrong file.
"""
import struct
import sys


def box_at(data, offset):
    size, kind = struct.unpack(">I4s", data[offset:offset + 8])
    if size < 8:
        sys.exit(f"add-irot: box at {offset} has size {size}; only 32-bit sizes are handled")
    return size, kind.decode("latin1")


def children(data, start, end):
    offset = start
    while offset + 8 <= end:
        size, kind = box_at(data, offset)
        yield offset, size, kind
        offset += size


def find(data, start, end, kind):
    for offset, size, found in children(data, start, end):
        if found == kind:
            return offset, size
    sys.exit(f"add-irot: no {kind} box")


def main():
    source, target = sys.argv[1], sys.argv[2]
    angle = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    data = bytearray(open(source, "rb").read())
    meta, meta_size = find(data, 0, len(data), "meta")
    inner = (meta + 12, meta + meta_size)
    pitm, _ = find(data, *inner, "pitm")
    if data[pitm + 8] != 0:
        sys.exit("add-irot: only pitm version 0 is handled")
    primary = struct.unpack(">H", data[pitm + 12:pitm + 14])[0]
    iprp, iprp_size = find(data, *inner, "iprp")
    ipco, ipco_size = find(data, iprp + 8, iprp + iprp_size, "ipco")
    index = sum(1 for _ in children(data, ipco + 8, ipco + ipco_size)) + 1
    ipma, ipma_size = find(data, iprp + 8, iprp + iprp_size, "ipma")
    if data[ipma + 8] != 0 or data[ipma + 11] & 1 or index > 127:
        sys.exit("add-irot: only ipma version 0 with 1-byte associations is handled")
    irot = struct.pack(">I4sB", 9, b"irot", angle)
    # The primary item's ipma entry gets one more association: (essential, index).
    entries = struct.unpack(">I", data[ipma + 12:ipma + 16])[0]
    offset = ipma + 16
    new_ipma = bytearray(data[ipma:ipma + 16])
    for _ in range(entries):
        item, count = struct.unpack(">HB", data[offset:offset + 3])
        associations = data[offset + 3:offset + 3 + count]
        if item == primary:
            count, associations = count + 1, associations + bytes([0x80 | index])
        new_ipma += struct.pack(">HB", item, count) + associations
        offset += 3 + len(data[offset + 3:offset + 3 + data[offset + 2]])
    struct.pack_into(">I", new_ipma, 0, len(new_ipma))
    grown = len(irot) + len(new_ipma) - ipma_size
    # iloc: every base offset of an item stored in the file (construction method 0) moves on.
    iloc, _ = find(data, *inner, "iloc")
    version = data[iloc + 8]
    offset_size, length_size = data[iloc + 12] >> 4, data[iloc + 12] & 15
    base_size, index_size = data[iloc + 13] >> 4, (data[iloc + 13] & 15 if version in (1, 2) else 0)
    if version not in (0, 1) or base_size not in (0, 4) or offset_size not in (0, 4):
        sys.exit("add-irot: only iloc versions 0 and 1 with 32-bit offsets are handled")
    items = struct.unpack(">H", data[iloc + 14:iloc + 16])[0]
    offset = iloc + 16
    for _ in range(items):
        offset += 2
        method = 0
        if version == 1:
            method = struct.unpack(">H", data[offset:offset + 2])[0] & 15
            offset += 2
        offset += 2
        if base_size == 4 and method == 0:
            struct.pack_into(">I", data, offset, struct.unpack(">I", data[offset:offset + 4])[0] + grown)
        offset += base_size
        extents = struct.unpack(">H", data[offset:offset + 2])[0]
        offset += 2 + extents * (index_size + offset_size + length_size)
    patched = data[:ipco + ipco_size] + irot + data[ipco + ipco_size:ipma] + new_ipma + data[ipma + ipma_size:]
    for start, size in ((ipco, ipco_size), (iprp, iprp_size), (meta, meta_size)):
        struct.pack_into(">I", patched, start, size + (len(irot) if start == ipco else grown))
    open(target, "wb").write(patched)


if __name__ == "__main__":
    main()
