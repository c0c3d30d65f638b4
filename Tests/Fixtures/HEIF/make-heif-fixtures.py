#!/usr/bin/env python3
"""Makes the HEIF (HEIC and AVIF) test fixtures in this directory, then checks them.

Debian's heif-enc 1.15 cannot write grid images, `irot` or `imir`, and phones store their
photos as grids of 512x512 HEVC tiles. So this script draws an asymmetric test pattern,
encodes each tile as its own HEIC with heif-enc, lifts the tile's `hvcC` property and coded
data out of the ISO boxes, and assembles the grid file itself: `ftyp`, `meta` (`hdlr`,
`pitm`, `iinf`, `iref`, `iprp`/`ipco`/`ipma`, `iloc`, `idat`) and `mdat`. The AVIF fixtures
come from avifenc, which writes `irot`, `imir`, Exif, 10/12-bit, alpha and sequences itself.

Every good fixture is decoded back with heif-convert (libheif) and compared with the pattern
as it should appear once `irot`/`imir` are applied; every hostile one must be refused by
libheif without producing an image. Standard library only.

    make-heif-fixtures.py [--out DIR]     (default: this directory)
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- PNG in and out


def png_write(path, width, height, pixels, channels):
    """Writes 8-bit RGB (channels 3) or RGBA (4) `pixels`, a flat list, as a PNG."""
    rows = b"".join(b"\x00" + bytes(pixels[y * width * channels:(y + 1) * width * channels]) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    colour_type = 2 if channels == 3 else 6
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def png_read(path):
    """Reads a non-interlaced 8- or 16-bit grey/RGB/RGBA PNG: (width, height, channels, 8-bit pixels)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert interlace == 0 and depth in (8, 16), (path, depth, interlace)
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    bpp = channels * depth // 8
    raw, stride, out, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out.extend(line if depth == 8 else line[0::2])  # 16-bit: keep the high byte
        prev = line
    return width, height, channels, out


# ---------------------------------------------------------------- the test pattern


def pattern(width, height, alpha=False):
    """An asymmetric picture: red grows to the right, green downwards, a light block in the
    top-left corner, so any rotation or mirroring shows. With `alpha`, the right half fades out."""
    px = []
    for y in range(height):
        for x in range(width):
            corner = x < width // 4 and y < height // 4
            r = 230 if corner else 30 + 200 * x // max(width - 1, 1)
            g = 230 if corner else 30 + 200 * y // max(height - 1, 1)
            px += [r, g, 230 if corner else 70]
            if alpha:
                px.append(255 if x < width // 2 else 255 - 200 * (x - width // 2) // max(width // 2, 1))
    return px


def crop(px, width, channels, x0, y0, w, h):
    return [v for y in range(y0, y0 + h) for v in px[(y * width + x0) * channels:(y * width + x0 + w) * channels]]


def transformed(px, width, height, channels, irot=0, imir=None):
    """The picture after `irot` (quarter turns anti-clockwise), then `imir` (0: top-to-bottom,
    1: left-to-right, as ISO/IEC 23008-12:2022 and avifenc 0.11 say): (width, height, pixels,
    pictures a wrong transform would give, which the decoded file must not match)."""
    def at(x, y):
        return px[(y * width + x) * channels:(y * width + x + 1) * channels]

    grid = [[at(x, y) for x in range(width)] for y in range(height)]
    for _ in range(irot % 4):  # one quarter turn anti-clockwise
        grid = [list(row) for row in zip(*grid)][::-1]
    if imir == 0:
        grid = grid[::-1]
    elif imir == 1:
        grid = [row[::-1] for row in grid]
    return len(grid[0]), len(grid), [v for row in grid for p in row for v in p]


def oriented(px, width, height, channels, irot=0, imir=None):
    """`transformed`, with the pictures of the wrong transforms of the same size."""
    w, h, want = transformed(px, width, height, channels, irot, imir)
    wrong = [transformed(px, width, height, channels, irot + 2, imir)[2]]
    wrong.append(px if (w, h) == (width, height) else transformed(px, width, height, channels, irot + 2)[2])
    if imir is not None:
        wrong.append(transformed(px, width, height, channels, irot, 1 - imir)[2])
    return w, h, want, wrong


# ---------------------------------------------------------------- ISO boxes


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind.encode() + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def children(data, start=0, end=None):
    """(type, payload) for each box in data[start:end]."""
    pos, end = start, len(data) if end is None else end
    while pos + 8 <= end:
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        header = 8
        if size == 1:
            (size,) = struct.unpack(">Q", data[pos + 8:pos + 16])
            header = 16
        elif size == 0:
            size = end - pos
        yield kind.decode("latin-1"), data[pos + header:pos + size]
        pos += size


def read_uint(data, pos, size):
    return (int.from_bytes(data[pos:pos + size], "big") if size else 0), pos + size


def lift_primary(path):
    """From a single-image HEIC: the primary item's coded bytes and its property boxes
    (a dict type → whole box) as heif-enc wrote them."""
    data = open(path, "rb").read()
    meta = dict(children(data))["meta"][4:]
    boxes = dict(children(meta))
    (primary,) = struct.unpack(">H", boxes["pitm"][4:6])
    iprp = dict(children(boxes["iprp"]))
    properties = []
    ipco = iprp["ipco"]
    pos = 0
    while pos < len(ipco):
        (size,) = struct.unpack(">I", ipco[pos:pos + 4])
        properties.append(ipco[pos:pos + size])
        pos += size
    ipma, flags = iprp["ipma"], iprp["ipma"][3]
    (count,), pos, associated = struct.unpack(">I", ipma[4:8]), 8, {}
    for _ in range(count):
        (item,), pos = struct.unpack(">H", ipma[pos:pos + 2]), pos + 2
        n, pos = ipma[pos], pos + 1
        for _ in range(n):
            index, pos = (read_uint(ipma, pos, 2) if flags & 1 else read_uint(ipma, pos, 1))
            index &= 0x7FFF if flags & 1 else 0x7F
            if item == primary:
                box_bytes = properties[index - 1]
                associated[box_bytes[4:8].decode()] = box_bytes
    iloc = boxes["iloc"]
    version = iloc[0]
    offset_size, length_size = iloc[4] >> 4, iloc[4] & 15
    base_size, index_size = iloc[5] >> 4, (iloc[5] & 15 if version else 0)
    count, pos = read_uint(iloc, 6, 2 if version < 2 else 4)
    for _ in range(count):
        item, pos = read_uint(iloc, pos, 2 if version < 2 else 4)
        if version:
            pos += 2  # construction method: heif-enc stores tiles in the file (0)
        pos += 2
        base, pos = read_uint(iloc, pos, base_size)
        extents, pos = read_uint(iloc, pos, 2)
        coded = b""
        for _ in range(extents):
            _, pos = read_uint(iloc, pos, index_size)
            offset, pos = read_uint(iloc, pos, offset_size)
            length, pos = read_uint(iloc, pos, length_size)
            coded += data[base + offset:base + offset + length]
        if item == primary:
            return coded, associated
    raise ValueError(f"{path}: no iloc entry for the primary item")


class Item:
    """One item of the file being assembled: its type, its properties (whole boxes, each with
    its essential flag), its bytes, and whether they go in `idat` or `mdat`."""

    def __init__(self, item_id, kind, data, properties=(), hidden=False, in_idat=False, claimed_length=None):
        self.id, self.kind, self.data = item_id, kind, data
        self.properties, self.hidden, self.in_idat = list(properties), hidden, in_idat
        # What `iloc` says the item's length is, when it lies (the hostile files).
        self.claimed_length = len(data) if claimed_length is None else claimed_length


def assemble(brand, items, references, primary):
    """A whole HEIF file: `references` is a list of (type, from id, [to ids])."""
    ftyp = box("ftyp", brand.encode() + b"\0\0\0\0" + b"mif1" + brand.encode() + b"miaf")
    hdlr = full_box("hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box("pitm", 0, 0, struct.pack(">H", primary))
    iinf = full_box(
        "iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(
            full_box("infe", 2, 1 if item.hidden else 0, struct.pack(">HH", item.id, 0) + item.kind.encode() + b"\0")
            for item in items))
    iref = full_box("iref", 0, 0, b"".join(
        box(kind, struct.pack(">HH", source, len(targets)) + b"".join(struct.pack(">H", t) for t in targets))
        for kind, source, targets in references))
    unique = []
    for item in items:
        for prop, _ in item.properties:
            if prop not in unique:
                unique.append(prop)
    assert len(unique) < 128
    ipma = full_box("ipma", 0, 0, struct.pack(">I", sum(1 for i in items if i.properties)) + b"".join(
        struct.pack(">HB", item.id, len(item.properties)) + bytes(
            (0x80 if essential else 0) | (unique.index(prop) + 1) for prop, essential in item.properties)
        for item in items if item.properties))
    iprp = box("iprp", box("ipco", b"".join(unique)) + ipma)
    idat_payload = b"".join(item.data for item in items if item.in_idat)
    idat = box("idat", idat_payload) if idat_payload else b""

    def iloc(mdat_start):
        entries, idat_pos, mdat_pos = b"", 0, mdat_start
        for item in items:
            if item.in_idat:
                offset, idat_pos = idat_pos, idat_pos + len(item.data)
            else:
                offset, mdat_pos = mdat_pos, mdat_pos + len(item.data)
            entries += struct.pack(">HHHHII", item.id, 1 if item.in_idat else 0, 0, 1, offset, item.claimed_length)
        return full_box("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(items)) + entries)

    def meta(mdat_start):
        return full_box("meta", 0, 0, hdlr + pitm + iloc(mdat_start) + iinf + iref + iprp + idat)

    mdat_start = len(ftyp) + len(meta(0)) + 8
    mdat = box("mdat", b"".join(item.data for item in items if not item.in_idat))
    return ftyp + meta(mdat_start) + mdat


def ispe(width, height):
    return full_box("ispe", 0, 0, struct.pack(">II", width, height))


def grid_descriptor(rows, columns, width, height):
    wide = width > 0xFFFF or height > 0xFFFF
    return bytes([0, 1 if wide else 0, rows - 1, columns - 1]) + struct.pack(">II" if wide else ">HH", width, height)


def exif_orientation(value):
    """A big-endian TIFF header with one IFD entry: Orientation = value."""
    return b"MM\0\x2a" + struct.pack(">IH", 8, 1) + struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)


def icc_profile():
    """A small v2 RGB matrix/TRC display profile (Display P3 primaries adapted to D50,
    gamma 2.2), written here so the fixtures carry no third-party profile."""
    def xyz(x, y, z):
        return b"XYZ \0\0\0\0" + b"".join(struct.pack(">i", round(v * 65536)) for v in (x, y, z))

    desc_text = b"Darkroom test P3 gamma 2.2\0"
    tags = [
        (b"desc", b"desc\0\0\0\0" + struct.pack(">I", len(desc_text)) + desc_text + b"\0" * 12 + b"\0" * 67),
        (b"cprt", b"text\0\0\0\0" + b"No copyright, use freely\0"),
        (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (b"rXYZ", xyz(0.5151, 0.2412, -0.0011)),
        (b"gXYZ", xyz(0.2920, 0.6922, 0.0419)),
        (b"bXYZ", xyz(0.1571, 0.0666, 0.7841)),
        (b"rTRC", b"curv\0\0\0\0" + struct.pack(">IH", 1, 0x0233) + b"\0\0"),
    ]
    tags += [(b"gTRC", tags[-1][1]), (b"bTRC", tags[-1][1])]
    table_size = 4 + 12 * len(tags)
    body, table, pos = b"", b"", 128 + table_size
    for sig, data in tags:
        data += b"\0" * (-len(data) % 4)
        table += sig + struct.pack(">II", pos + len(body), len(data))
        body += data
    size = 128 + table_size + len(body)
    header = struct.pack(">I4sI4s4s4s", size, b"none", 0x02100000, b"mntr", b"RGB ", b"XYZ ")
    header += b"\0" * 12 + b"acsp" + b"\0" * 4 + struct.pack(">I", 0) + b"\0" * 8 + b"\0" * 8 + struct.pack(">I", 0)
    header += struct.pack(">iii", 63190, 65536, 54061) + b"\0" * 4 + b"\0" * 16 + b"\0" * 28
    assert len(header) == 128, len(header)
    return header + struct.pack(">I", len(tags)) + table + body


# ---------------------------------------------------------------- the HEIC fixtures

TILE = 64


def run(*command, **kwargs):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kwargs)


def encode_tile(work, px, width, height, channels=3, name="tile"):
    png, heic = os.path.join(work, name + ".png"), os.path.join(work, name + ".heic")
    png_write(png, width, height, px, channels)
    run("heif-enc", "-q", "90", "-o", heic, png)
    return heic


def grid_heic(work, rows, columns, width, height, extra=(), exif=None, icc=None, declared=None, tile_items=None,
              exif_claim=None):
    """A grid HEIC of rows x columns TILE-sized tiles cut from `pattern`, cropped to
    width x height. `extra` are transform properties of the grid (essential); `exif` an
    orientation written as an Exif item; `declared` (rows, columns, width, height) overrides
    the grid descriptor, `tile_items` the number of tiles stored and `exif_claim` the Exif item's
    length in `iloc` (for the hostile files)."""
    full_w, full_h = columns * TILE, rows * TILE
    picture = pattern(full_w, full_h)
    tiles = []
    for index in range(tile_items if tile_items is not None else rows * columns):
        row, column = divmod(index, columns)
        tile = crop(picture, full_w, 3, column * TILE, row * TILE, TILE, TILE)
        coded, props = lift_primary(encode_tile(work, tile, TILE, TILE, name=f"tile{index}"))
        kept = [(props["hvcC"], True), (ispe(TILE, TILE), False)]
        kept += [(props[kind], False) for kind in ("colr", "pixi") if kind in props]
        tiles.append(Item(index + 2, "hvc1", coded, kept, hidden=True))
    d_rows, d_columns, d_width, d_height = declared or (rows, columns, width, height)
    grid_props = [(ispe(d_width, d_height), False)]
    if icc is not None:
        grid_props.append((box("colr", b"prof" + icc), False))
    grid_props += [(prop, True) for prop in extra]
    grid = Item(1, "grid", grid_descriptor(d_rows, d_columns, d_width, d_height), grid_props, in_idat=True)
    items, references = [grid] + tiles, [("dimg", 1, [t.id for t in tiles])]
    if exif is not None:
        exif_item = Item(len(items) + 1, "Exif", struct.pack(">I", 0) + exif_orientation(exif), claimed_length=exif_claim)
        items.append(exif_item)
        references.append(("cdsc", exif_item.id, [1]))
    return assemble("heic", items, references, primary=1), crop(picture, full_w, 3, 0, 0, width, height)


def absurd_ispe_heic(work):
    """One 64x64 HEVC image whose `ispe` claims 65535 x 65535."""
    coded, props = lift_primary(encode_tile(work, pattern(TILE, TILE), TILE, TILE, name="absurd"))
    kept = [(props["hvcC"], True), (ispe(65535, 65535), False)]
    return assemble("heic", [Item(1, "hvc1", coded, kept)], [], primary=1)


def make_heic(out, work):
    """name → (bytes, expected (width, height, pixels) or None for a hostile file)."""
    made = {}
    data, px = grid_heic(work, 2, 2, 128, 128)
    made["grid-2x2.heic"] = (data, (128, 128, px))
    data, px = grid_heic(work, 2, 3, 160, 100)
    made["grid-3x2-cropped.heic"] = (data, (160, 100, px))
    data, px = grid_heic(work, 1, 2, 128, 64, extra=[box("irot", b"\x01")], exif=6)
    made["grid-irot1-exif6.heic"] = (data, oriented(px, 128, 64, 3, irot=1))
    data, px = grid_heic(work, 1, 2, 128, 64, extra=[box("imir", b"\x00")])
    made["grid-imir0.heic"] = (data, oriented(px, 128, 64, 3, imir=0))
    data, px = grid_heic(work, 2, 2, 128, 128, icc=icc_profile())
    made["grid-2x2-icc.heic"] = (data, (128, 128, px))
    alpha_px = pattern(TILE, TILE, alpha=True)
    made["alpha.heic"] = (open(encode_tile(work, alpha_px, TILE, TILE, 4, "alpha"), "rb").read(), (TILE, TILE, alpha_px))
    data, _ = grid_heic(work, 2, 2, 128, 128, declared=(256, 256, 256 * TILE, 256 * TILE))
    made["hostile-tile-bomb.heic"] = (data, None)
    made["hostile-ispe-65535.heic"] = (absurd_ispe_heic(work), None)
    # The Exif item's iloc extent claims 4 GiB - 1 in a 3 KB file: a reader must check the
    # length against the file (and its metadata limit) before allocating. libheif decodes the
    # picture (it reads Exif only when asked), so the check is only that it does not hang or crash.
    data, px = grid_heic(work, 2, 2, 128, 128, exif=6, exif_claim=0xFFFFFFFF)
    made["hostile-exif-length.heic"] = (data, "any")
    return made


# ---------------------------------------------------------------- the AVIF fixtures


def make_avif(out, work):
    made = {}
    width, height = 96, 64
    px = pattern(width, height)
    png = os.path.join(work, "avif-source.png")
    png_write(png, width, height, px, 3)
    exif = os.path.join(work, "orientation6.exif")
    with open(exif, "wb") as f:
        f.write(exif_orientation(6))

    def avifenc(name, *options, inputs=(png,)):
        target = os.path.join(work, name)
        run("avifenc", "-s", "8", "--min", "0", "--max", "12", "-y", "444", *options, *inputs, target)
        return open(target, "rb").read()

    made["avif-irot1-exif6.avif"] = (avifenc("a.avif", "--irot", "1", "--exif", exif), oriented(px, width, height, 3, irot=1))
    made["avif-imir0.avif"] = (avifenc("b.avif", "--imir", "0"), oriented(px, width, height, 3, imir=0))
    made["avif-imir1.avif"] = (avifenc("c.avif", "--imir", "1"), oriented(px, width, height, 3, imir=1))
    made["avif-10bit.avif"] = (avifenc("d.avif", "--depth", "10"), (width, height, px))
    made["avif-12bit.avif"] = (avifenc("e.avif", "--depth", "12"), (width, height, px))
    alpha_px = pattern(width, height, alpha=True)
    alpha_png = os.path.join(work, "avif-alpha.png")
    png_write(alpha_png, width, height, alpha_px, 4)
    made["avif-alpha.avif"] = (avifenc("f.avif", inputs=(alpha_png,)), (width, height, alpha_px))
    frames = []
    for n in range(3):
        frame = os.path.join(work, f"frame{n}.png")
        png_write(frame, width, height, transformed(px, width, height, 3, imir=n % 2)[2] if n else px, 3)
        frames.append(frame)
    made["avif-sequence-3.avif"] = (avifenc("g.avif", inputs=tuple(frames)), (width, height, px))
    return made


# ---------------------------------------------------------------- checks


def decode(path, work):
    """libheif's view of a file (heif-convert applies irot/imir); for a sequence libheif
    cannot open, avifdec's first frame. None when both refuse it."""
    target = os.path.join(work, "decoded.png")
    for tool in (["heif-convert", path, target], ["avifdec", path, target]):
        for stale in os.listdir(work):
            if stale.startswith("decoded"):
                os.remove(os.path.join(work, stale))
        try:
            subprocess.run(tool, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            continue
        if os.path.exists(target):
            return tool[0], png_read(target)
    return None, None


def mean_error(a, b):
    return sum(abs(x - y) for x, y in zip(a, b)) / max(len(a), 1)


def check(path, expected, work):
    name = os.path.basename(path)
    listing = subprocess.run(["exiftool", "-s", "-FileType", "-ImageSize", "-Rotation", "-Orientation", path],
                             stdout=subprocess.PIPE, text=True).stdout.split("\n")
    assert any(line.startswith("FileType") for line in listing), f"{name}: exiftool does not read it"
    tool, decoded = decode(path, work)
    if expected == "any":
        outcome = f"{tool}: {decoded[0]}x{decoded[1]}" if decoded else "refused by heif-convert and avifdec"
        print(f"  {name:28} {os.path.getsize(path):6} B  hostile metadata; {outcome}")
        return
    if expected is None:
        assert decoded is None, f"{name}: hostile, but {tool} decoded it"
        print(f"  {name:28} {os.path.getsize(path):6} B  refused by heif-convert and avifdec")
        return
    assert decoded is not None, f"{name}: neither heif-convert nor avifdec decodes it"
    width, height, pixels, wrong = expected if len(expected) == 4 else (*expected, [])
    got_w, got_h, channels, got = decoded
    assert (got_w, got_h) == (width, height), f"{name}: {tool} gives {got_w}x{got_h}, expected {width}x{height}"
    want_channels = len(pixels) // (width * height)
    if channels != want_channels:  # compare colour only
        got = [v for i in range(width * height) for v in got[i * channels:i * channels + 3]]
        pixels = [v for i in range(width * height) for v in pixels[i * want_channels:i * want_channels + 3]]
    error = mean_error(got, pixels)
    assert error < 6, f"{name}: mean error {error:.1f} against the expected picture"
    for other in wrong:  # the pattern is asymmetric: a wrong orientation is far off
        assert mean_error(got, other) > 20, f"{name}: {tool} matches a wrongly oriented picture too"
    print(f"  {name:28} {os.path.getsize(path):6} B  {tool}: {width}x{height}, mean error {error:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=HERE, help="where to write the fixtures (default: this directory)")
    args = parser.parse_args()
    for tool in ("heif-enc", "heif-convert", "avifenc", "avifdec", "exiftool"):
        if subprocess.run(["sh", "-c", f"command -v {tool}"], stdout=subprocess.DEVNULL).returncode:
            sys.exit(f"make-heif-fixtures: {tool} is missing (scripts/install-packages lists its package)")
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        made = {**make_heic(args.out, work), **make_avif(args.out, work)}
        print(f"checking {len(made)} fixtures in {args.out}:")
        for name, (data, expected) in made.items():
            path = os.path.join(args.out, name)
            with open(path, "wb") as f:
                f.write(data)
            check(path, expected, work)


if __name__ == "__main__":
    main()
