#!/usr/bin/env python3
"""Feed Darkroom hostile images and check each one fails fast, cleanly and with the right code.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/hostile-inputs.py [--darkroom PATH] [--chain CHAIN] [--plugins DIR] [--keep]

Every input is generated into a temporary directory (deleted at the end unless --keep) with the
standard library only: empty file, 4 KB of seeded random bytes, HTML saved as .jpg, truncated and
corrupted JPEG, truncated PNG, bad PNG CRC, truncated WebP, a WebP whose RIFF size lies, a 900 MP
all-zero PNG decompression bomb (~0.9 MB, streamed through zlib), absurd declared sizes (PNG
100000x100000, JPEG SOF 65000x65000, GIF screen 65535x65535), zero widths (JPEG SOF, PNG), a GIF
with 20,000 frames, an AVIF whose `ispe` declares 1000000x1000000, an AVIF sequence header declaring
10,000 frames, a truncated AVIF, a JPEG missing only its final EOI marker, a JPEG whose 64 KB Exif
block points 400 tags at one 60 KB value (run with `--keep exif`: the block is dropped within
bounds and the image succeeds), two positive controls (a PNG named .jpg, a valid JPEG), and three
HEIC files: the committed 64x43 fixture, a grid claiming 60,000 tiles and an `ispe` of
1,000,000x1,000,000. Without --plugins every HEIC case must end in `image.needs-module`; with
--plugins DIR (a directory holding darkroom-heic.so, built by Plugins/HEIC/build.sh) the fixture
must decode and the two bombs end in `image.too-large`, from the host's own box walk before the
module parses them. The standard library has no JPEG or WebP encoder, so the small valid JPEG, WebP
and AVIF are made by Darkroom itself from a generated PNG, and then damaged.

Each case runs `darkroom process INPUT -p CHAIN -o OUT.png --json` once (10 s timeout), then all
inputs run together in one call (`--out DIR`, the parallel batch path). Measured with os.wait4:
wall time (from spawn to reap), Darkroom's CPU time and peak RSS, exit status or signal; the
JSON record on stdout gives the error code. A case fails when the process crashed (signal), timed
out, took >= 1 s wall, peaked over 200 MB RSS, exited 0 when it should fail (or non-zero when it
should succeed), or reported a different error code than expected.

The truncated / corrupt cases are also run with --lenient; whether they recover is reported for
information and never fails the run.

Then `s3://` sources and bucket outputs (scripts/hostile_s3.py; --no-s3 skips them, and they are
skipped with a note when moto_server is not installed): moto with signatures checked and a fault
server of the script's own on loopback. Each case runs `darkroom process s3://… -o OUT --json` (or
`--out s3://…/`) and must end in its exact code: a bucket not allowed, a key with a `..` segment or
a control character (`source.refused`, no request made), 404 (`source.not-found`), 403
AccessDenied (`source.forbidden`), SignatureDoesNotMatch (moto with a wrong secret, and the fault
server), InvalidAccessKeyId and ExpiredToken (`source.credentials`), RequestTimeTooSkewed
(`source.clock-skew`), 301 and 307 (`source.redirect-refused`, one request: never followed), a
stall mid-body (`source.timeout` under `--fetch-timeout 2`), 503 SlowDown (`source.rate-limited`);
outputs: 403 AccessDenied on PUT (`output.forbidden`, no write accepted), a bucket not allowed and a
`..` key (exit 2, `output.not-allowed`, no request). No output may contain the secret keys or the
error bodies' `<StringToSign>`.

Prints Markdown tables and a last line `N passed, M failed`; exits 1 when any case failed,
2 when the darkroom binary is missing or a fixture cannot be made.
"""

import argparse
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_s3  # noqa: E402 - the s3:// section, beside this script

TIMEOUT_S = 10.0
MAX_WALL_MS = 1000.0
MAX_RSS_MB = 200.0

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --------------------------------------------------------------------------------------------
# PNG
# --------------------------------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# Arguments every darkroom run gets: `--plugins DIR` when the HEIC module is given.
EXTRA_ARGS = []


def iso_box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


HEIC_FTYP = iso_box(b"ftyp", b"heic" + b"\0\0\0\0" + b"mif1heic")


def make_heic_tile_bomb(tiles: int = 60_000) -> bytes:
    """A HEIC whose meta box declares a grid (item 1) made of `tiles` items, and nothing else."""
    dimg = iso_box(b"dimg", struct.pack(">HH", 1, tiles) + b"".join(struct.pack(">H", 2 + i % 60_000) for i in range(tiles)))
    return HEIC_FTYP + iso_box(b"meta", b"\0\0\0\0" + iso_box(b"iref", b"\0\0\0\0" + dimg))


def make_heic_absurd_ispe(side: int = 1_000_000) -> bytes:
    """A HEIC whose only image property is an ispe of side x side."""
    ispe = iso_box(b"ispe", b"\0\0\0\0" + struct.pack(">II", side, side))
    return HEIC_FTYP + iso_box(b"meta", b"\0\0\0\0" + iso_box(b"iprp", iso_box(b"ipco", ispe)))


def png_chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png_ihdr(width: int, height: int, bit_depth: int = 8, color_type: int = 2) -> bytes:
    # color_type 0 = grayscale, 2 = RGB; compression, filter, interlace = 0.
    return png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))


def make_gradient_png(width: int = 96, height: int = 64, seed: int = 7) -> bytes:
    """An RGB gradient with some deterministic noise, so the JPEG made from it has real entropy data."""
    rng = random.Random(seed)
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type None
        for x in range(width):
            r = (x * 255 // max(1, width - 1)) ^ rng.randrange(0, 24)
            g = (y * 255 // max(1, height - 1)) ^ rng.randrange(0, 24)
            b = ((x + y) * 4) & 0xFF
            raw += bytes((r & 0xFF, g & 0xFF, b))
    return (PNG_SIGNATURE + png_ihdr(width, height) + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + png_chunk(b"IEND", b""))


def png_with_bad_idat_crc(png: bytes) -> bytes:
    """Flip the CRC of the first IDAT chunk; the chunk data itself stays intact."""
    data = bytearray(png)
    pos = len(PNG_SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        crc_at = pos + 8 + length
        if kind == b"IDAT":
            data[crc_at:crc_at + 4] = bytes(b ^ 0xFF for b in data[crc_at:crc_at + 4])
            return bytes(data)
        pos = crc_at + 4
    raise RuntimeError("generated PNG has no IDAT chunk")


def write_png_bomb(path: str, side: int = 30_000) -> int:
    """A side x side 8-bit grayscale all-zero PNG (900 MP for 30000), streamed through zlib level 9
    so neither the raw 900 MB nor the whole IDAT payload is ever held in memory at once."""
    row_block = b"\x00" * ((side + 1) * 100)  # 100 scanlines: filter byte + side zero samples each
    rows_left = side
    compressor = zlib.compressobj(9)
    pieces = []
    while rows_left > 0:
        n = min(100, rows_left)
        block = row_block if n == 100 else b"\x00" * ((side + 1) * n)
        pieces.append(compressor.compress(block))
        rows_left -= n
    pieces.append(compressor.flush())
    idat = b"".join(pieces)  # ~0.9 MB for 900 MP of zeros
    with open(path, "wb") as f:
        f.write(PNG_SIGNATURE + png_ihdr(side, side, 8, 0) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))
    return os.path.getsize(path)


def make_huge_header_png(side: int = 100_000) -> bytes:
    """A valid IHDR declaring side x side RGB, followed by a tiny IDAT (one zero scanline)."""
    idat = zlib.compress(b"\x00" * 64, 9)
    return PNG_SIGNATURE + png_ihdr(side, side) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def make_zero_width_png() -> bytes:
    """IHDR with width 0 (and a correct CRC), so only the dimension check can refuse it."""
    idat = zlib.compress(b"\x00" * 16, 9)
    return PNG_SIGNATURE + png_ihdr(0, 16) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


# --------------------------------------------------------------------------------------------
# JPEG (bytes come from darkroom; these helpers only parse and patch markers)
# --------------------------------------------------------------------------------------------

SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def jpeg_segments(jpeg: bytes):
    """Yield (marker, segment_start, payload_start, payload_end) for header segments up to SOS."""
    if jpeg[:2] != b"\xff\xd8":
        raise RuntimeError("not a JPEG (no SOI)")
    pos = 2
    while pos + 4 <= len(jpeg):
        if jpeg[pos] != 0xFF:
            raise RuntimeError(f"JPEG marker expected at {pos}")
        marker = jpeg[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        (length,) = struct.unpack(">H", jpeg[pos + 2:pos + 4])
        yield marker, pos, pos + 4, pos + 2 + length
        if marker == 0xDA:  # SOS: entropy-coded data follows
            return
        pos += 2 + length


def jpeg_sof(jpeg: bytes):
    for marker, _start, payload, _end in jpeg_segments(jpeg):
        if marker in SOF_MARKERS:
            return marker, payload
    raise RuntimeError("JPEG has no SOF marker")


def jpeg_with_size(jpeg: bytes, width: int, height: int) -> bytes:
    """Patch the SOF height/width fields (payload: precision u8, height u16, width u16)."""
    _marker, payload = jpeg_sof(jpeg)
    data = bytearray(jpeg)
    data[payload + 1:payload + 5] = struct.pack(">HH", height, width)
    return bytes(data)


def jpeg_entropy_range(jpeg: bytes):
    """(start, end) of the first scan's entropy-coded data: after the SOS header, before EOI."""
    sos_end = None
    for marker, _start, _payload, end in jpeg_segments(jpeg):
        if marker == 0xDA:
            sos_end = end
    if sos_end is None:
        raise RuntimeError("JPEG has no SOS marker")
    eoi = jpeg.rfind(b"\xff\xd9")
    return sos_end, eoi if eoi > sos_end else len(jpeg)


def jpeg_with_flipped_entropy(jpeg: bytes) -> bytes:
    """Flip every bit of 64 entropy-coded bytes a third of the way into the scan (XOR 0xFF).
    Bytes that are or follow 0xFF are left alone so no marker is invented or destroyed: the
    damage is purely in the Huffman-coded data, which loses sync and leaves libjpeg with
    leftover bytes before EOI. (Overwriting with random bytes instead is often undetectable:
    libjpeg, djpeg included, decodes it silently to garbage.)"""
    start, end = jpeg_entropy_range(jpeg)
    data = bytearray(jpeg)
    mid = start + (end - start) // 3
    for i in range(mid, min(mid + 64, end - 2)):
        if data[i] == 0xFF or data[i - 1] == 0xFF or data[i] == 0x00:
            continue  # 0x00 would flip to 0xFF and start a marker
        data[i] ^= 0xFF
    return bytes(data)


def jpeg_with_bad_huffman_code(jpeg: bytes) -> bytes:
    """Overwrite 16 entropy-coded bytes mid-scan with FF 00 x 8: 64 one-bits once unstuffed.
    libjpeg never assigns the all-ones codeword and codes are at most 16 bits, so whatever the
    decoder was reading, a code starting inside the run is invalid: "bad Huffman code"."""
    start, end = jpeg_entropy_range(jpeg)
    data = bytearray(jpeg)
    mid = start + (end - start) // 2
    if data[mid - 1] == 0xFF:
        mid += 1
    data[mid:mid + 16] = b"\xff\x00" * 8
    return bytes(data)


def jpeg_without_eoi(jpeg: bytes) -> bytes:
    if not jpeg.endswith(b"\xff\xd9"):
        raise RuntimeError("darkroom's JPEG does not end with EOI")
    return jpeg[:-2]


# --------------------------------------------------------------------------------------------
# WebP (bytes come from darkroom)
# --------------------------------------------------------------------------------------------

def webp_with_riff_size(webp: bytes, riff_size: int) -> bytes:
    if webp[:4] != b"RIFF" or webp[8:12] != b"WEBP":
        raise RuntimeError("not a RIFF WebP")
    return webp[:4] + struct.pack("<I", riff_size) + webp[8:]


# --------------------------------------------------------------------------------------------
# GIF
# --------------------------------------------------------------------------------------------

# LZW data for a single pixel of colour 0 at minimum code size 2:
# codes CLEAR(4), 0, EOI(5) at 3 bits each, packed LSB-first -> 0x44 0x01.
GIF_ONE_PIXEL_LZW = b"\x02" + b"\x02\x44\x01" + b"\x00"


def jpeg_with_huge_exif(jpeg: bytes, entries: int = 400, value_bytes: int = 60_000) -> bytes:
    """A JPEG whose APP1 Exif block fills its 64 KB segment with an IFD0 of `entries` distinct tags
    that all point at one 60,000-byte value: copied entry by entry, it would cost 24 MB of memory and
    copying from a 64 KB input."""
    value_offset = 8 + 2 + entries * 12 + 4
    ifd = struct.pack("<H", entries)
    for index in range(entries):
        ifd += struct.pack("<HHII", 0x1000 + index, 7, value_bytes, value_offset)
    tiff = b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + bytes(value_bytes)
    payload = b"Exif\x00\x00" + tiff
    if len(payload) + 2 > 0xFFFF:
        raise RuntimeError("the huge Exif block does not fit one APP1 segment")
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def iso_box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def avif_with_ispe(avif: bytes, width: int, height: int) -> bytes:
    """The AVIF with its first `ispe` (the primary item's) declaring width x height."""
    at = avif.index(b"ispe")
    return avif[:at + 8] + struct.pack(">II", width, height) + avif[at + 16:]


def avif_sequence_header(avif: bytes, frames: int) -> bytes:
    """The still AVIF made an `avis` sequence whose one track declares `frames` samples: a `moov`
    with a constant-size `stsz` (20 bytes declare any count), no sample data behind it."""
    tkhd = struct.pack(">I", 0) + bytes(76) + struct.pack(">II", 64 << 16, 64 << 16)
    stsz = struct.pack(">IIII", 0, 100, frames, 0)[:12]
    stbl = iso_box(b"stbl", iso_box(b"stsz", stsz))
    trak = iso_box(b"trak", iso_box(b"tkhd", tkhd) + iso_box(b"mdia", iso_box(b"minf", stbl)))
    return avif[:8] + b"avis" + avif[12:] + iso_box(b"moov", trak)


def gif_header(width: int, height: int) -> bytes:
    # Global colour table flag, 2 entries (size field 0), 1-bit colour resolution.
    screen = struct.pack("<HHBBB", width, height, 0x80, 0, 0)
    palette = b"\x00\x00\x00\xff\xff\xff"
    return b"GIF89a" + screen + palette


def gif_frame(x: int = 0, y: int = 0, delay_cs: int = 1) -> bytes:
    gce = b"\x21\xf9\x04" + struct.pack("<BHB", 0x00, delay_cs, 0) + b"\x00"
    descriptor = b"\x2c" + struct.pack("<HHHHB", x, y, 1, 1, 0)
    return gce + descriptor + GIF_ONE_PIXEL_LZW


def make_gif_huge_screen(side: int = 65_535) -> bytes:
    """A 65535x65535 logical screen holding one 1x1 frame."""
    return gif_header(side, side) + gif_frame() + b"\x3b"


def make_gif_many_frames(frames: int = 20_000) -> bytes:
    """A 1x1 screen with `frames` 1x1 frames (a NETSCAPE loop extension makes it an animation)."""
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    return gif_header(1, 1) + loop + gif_frame() * frames + b"\x3b"


# --------------------------------------------------------------------------------------------
# Running darkroom
# --------------------------------------------------------------------------------------------

class Run:
    def __init__(self):
        self.exit = None      # exit status, or None when killed by a signal
        self.signal = None    # signal number when killed
        self.timed_out = False
        self.wall_ms = 0.0
        self.cpu_ms = 0.0
        self.rss_mb = 0.0
        self.records = {}     # input path -> its JSON record (one per input)
        self.record_count = 0  # JSON records printed (more than len(records) means duplicates)
        self.stderr = ""

    @property
    def record(self):
        """The record of a single-input run."""
        return next(iter(self.records.values()), None)

    @property
    def code(self):
        if self.record is None:
            return None
        if self.record.get("status") == "succeeded":
            return "ok"
        return (self.record.get("error") or {}).get("code")

    @property
    def exit_text(self):
        if self.timed_out:
            return "timeout"
        if self.signal is not None:
            try:
                return signal.Signals(self.signal).name
            except ValueError:
                return f"signal {self.signal}"
        return str(self.exit)


# Linux carries a process's peak-RSS mark across execve: a child forked from this script starts
# with ru_maxrss = the script's own peak (tens of MB after building fixtures), which would hide
# Darkroom's real figure. So Darkroom is started by a tiny /bin/sh that forks it in the background
# and exits at once; the fresh process begins with sh's ~1 MB mark. This script is made a "child
# subreaper" (prctl), so the orphaned Darkroom is re-parented to it and os.wait4 still returns
# Darkroom's own exit status and rusage.
_PR_SET_CHILD_SUBREAPER = 36
_SPAWN_SCRIPT = '"$@" </dev/null >"$DARKROOM_STDOUT" 2>"$DARKROOM_STDERR" & echo $!'
_subreaper = None  # True once prctl succeeded, False when unavailable (RSS then includes ours)


def _become_subreaper() -> bool:
    global _subreaper
    if _subreaper is None:
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def _spawn(args, out_path: str, err_path: str) -> int:
    """Start args with stdout/stderr in the given files; return a pid this process can wait4."""
    if _become_subreaper():
        env = dict(os.environ, DARKROOM_STDOUT=out_path, DARKROOM_STDERR=err_path)
        shell = subprocess.Popen(["/bin/sh", "-c", _SPAWN_SCRIPT, "sh", *args], env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        pid_text, _ = shell.communicate()
        if shell.returncode == 0 and pid_text.strip().isdigit():
            return int(pid_text)
        raise RuntimeError(f"/bin/sh could not start {args[0]}")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    proc.returncode = 0  # reaped by the caller with os.wait4; keep Popen from waiting on it again
    return proc.pid


def run_darkroom(darkroom: str, inputs, output_args, chain, lenient: bool, workdir: str, extra=()) -> Run:
    """Run `darkroom process INPUTS OUTPUT_ARGS --json [-p CHAIN] [--lenient] [EXTRA…]` once and measure it."""
    args = [darkroom, "process", *inputs, *output_args, "--json", *EXTRA_ARGS, *extra]
    if chain:
        args += ["-p", chain]
    if lenient:
        args.append("--lenient")
    out_path = os.path.join(workdir, "stdout.txt")
    err_path = os.path.join(workdir, "stderr.txt")
    result = Run()
    started = time.monotonic()
    pid = _spawn(args, out_path, err_path)
    # Poll with WNOHANG rather than block: until wait4 reaps it the child's pid cannot be reused,
    # so killing it on timeout can never hit another process. wait4 also gives the child's own
    # rusage (ru_maxrss in KiB on Linux).
    deadline = started + TIMEOUT_S
    while True:
        reaped, status, usage = os.wait4(pid, os.WNOHANG)
        if reaped == pid:
            break
        if time.monotonic() >= deadline and not result.timed_out:
            result.timed_out = True
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.0005)
    result.wall_ms = (time.monotonic() - started) * 1000.0
    result.cpu_ms = (usage.ru_utime + usage.ru_stime) * 1000.0
    result.rss_mb = usage.ru_maxrss / 1024.0
    if os.WIFSIGNALED(status):
        result.signal = os.WTERMSIG(status)
    else:
        result.exit = os.WEXITSTATUS(status)
    with open(out_path, "rb") as f:
        for line in f.read().decode("utf-8", "replace").splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and "status" in record:
                result.records[record.get("source")] = record
                result.record_count += 1
    with open(err_path, "rb") as f:
        result.stderr = f.read().decode("utf-8", "replace").strip()
    return result


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------

class Case:
    def __init__(self, name: str, filename: str, expected: str, lenient_too: bool = False, extra=()):
        self.name = name
        self.filename = filename
        self.expected = expected  # an error code, or "ok" for a positive control
        self.lenient_too = lenient_too
        self.extra = tuple(extra)  # more `process` arguments for this case's own run


def make_fixtures(darkroom: str, tmp: str):
    """Write every case's input into tmp; return the list of Cases."""
    def put(filename: str, data: bytes) -> str:
        path = os.path.join(tmp, filename)
        with open(path, "wb") as f:
            f.write(data)
        return path

    # Valid sources: a generated PNG, and the JPEG / WebP Darkroom makes from it.
    gen_png = make_gradient_png()
    put("gen.png", gen_png)
    for target in ("ok.jpg", "ok.webp", "ok.avif"):
        made = run_darkroom(darkroom, [os.path.join(tmp, "gen.png")], ["-o", os.path.join(tmp, target)], None, False,
                            tmp)
        if made.exit != 0 or not os.path.exists(os.path.join(tmp, target)):
            raise RuntimeError(f"darkroom could not make {target} from a generated PNG "
                               f"(exit {made.exit_text}): {made.stderr}")
    with open(os.path.join(tmp, "ok.jpg"), "rb") as f:
        jpeg = f.read()
    with open(os.path.join(tmp, "ok.webp"), "rb") as f:
        webp = f.read()
    with open(os.path.join(tmp, "ok.avif"), "rb") as f:
        avif = f.read()
    sof_marker, _ = jpeg_sof(jpeg)
    if sof_marker != 0xC0:
        raise RuntimeError(f"expected a baseline (SOF0) JPEG from darkroom, got marker FF{sof_marker:02X}")

    cases = []

    def case(name, filename, data, expected, lenient_too=False, extra=()):
        if data is not None:
            put(filename, data)
        cases.append(Case(name, filename, expected, lenient_too, extra))

    case("empty file", "empty.jpg", b"", "image.empty")
    case("4 KB random bytes", "random.jpg", random.Random(1234).randbytes(4096), "image.unknown-format")
    html = (b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n"
            b"<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n")
    case("HTML page saved as .jpg", "page.jpg", html, "image.unknown-format")
    case("JPEG truncated at half", "truncated-jpeg.jpg", jpeg[:len(jpeg) // 2], "image.truncated", lenient_too=True)
    case("JPEG, 64 entropy bytes bit-flipped", "flipped.jpg", jpeg_with_flipped_entropy(jpeg), "image.corrupt",
         lenient_too=True)
    case("JPEG, invalid Huffman code mid-scan", "bad-huffman.jpg", jpeg_with_bad_huffman_code(jpeg),
         "image.corrupt", lenient_too=True)
    # Issue §7 lets this go either way; Darkroom's documented rule (JPEGDecodeInput.swift): when
    # every scan is complete and only EOI is missing, the image decodes, even in strict mode.
    case("JPEG missing only its final EOI", "no-eoi.jpg", jpeg_without_eoi(jpeg), "ok")
    case("PNG truncated at half", "truncated-png.png", gen_png[:len(gen_png) // 2], "image.truncated", lenient_too=True)
    case("PNG with bad IDAT CRC", "badcrc.png", png_with_bad_idat_crc(gen_png), "image.corrupt", lenient_too=True)
    case("WebP truncated at half", "truncated-webp.webp", webp[:len(webp) // 2], "image.truncated", lenient_too=True)
    # The RIFF header claims 1 MB more than the file holds: the container says data is missing.
    case("WebP whose RIFF size lies (+1 MB)", "riff-lie.webp",
         webp_with_riff_size(webp, len(webp) - 8 + 1_000_000), "image.truncated", lenient_too=True)
    bomb_bytes = write_png_bomb(os.path.join(tmp, "bomb.png"))
    case(f"PNG bomb 30000x30000 all-zero ({bomb_bytes / 1e6:.2f} MB)", "bomb.png", None, "image.too-large")
    case("PNG header 100000x100000", "huge-header.png", make_huge_header_png(), "image.too-large")
    case("JPEG SOF 65000x65000", "huge-sof.jpg", jpeg_with_size(jpeg, 65_000, 65_000), "image.too-large")
    case("JPEG SOF with zero width", "zero-width-jpeg.jpg", jpeg_with_size(jpeg, 0, 64), "image.invalid-dimensions")
    case("PNG with zero width", "zero-width-png.png", make_zero_width_png(), "image.invalid-dimensions")
    case("GIF 65535x65535 screen", "huge-screen.gif", make_gif_huge_screen(), "image.too-large")
    case("GIF with 20,000 1x1 frames", "frames.gif", make_gif_many_frames(20_000), "image.too-many-frames")
    with_module = bool(EXTRA_ARGS)
    with open(os.path.join(REPO_ROOT, "Tests", "Fixtures", "HEIC", "plain-64x43.heic"), "rb") as f:
        heic = f.read()
    case("HEIC photo (64x43)", "photo.heic", heic, "ok" if with_module else "image.needs-module")
    case("HEIC grid of 60,000 tiles", "tile-bomb.heic", make_heic_tile_bomb(),
         "image.too-large" if with_module else "image.needs-module")
    case("HEIC ispe 1000000x1000000", "huge-ispe.heic", make_heic_absurd_ispe(),
         "image.too-large" if with_module else "image.needs-module")
    # `--keep exif`: the rewriter stops once the copied values pass what one APP1 segment holds, and
    # the block is dropped; the image itself is fine, so the job succeeds.
    case("JPEG with a 64 KB Exif block of 400 tags on one 60 KB value, --keep exif", "huge-exif.jpg",
         jpeg_with_huge_exif(jpeg), "ok", extra=("--keep", "exif"))
    case("AVIF ispe 1000000x1000000", "avif-huge-ispe.avif", avif_with_ispe(avif, 1_000_000, 1_000_000), "image.too-large")
    case("AVIF sequence header declaring 10,000 frames", "avif-frames.avif", avif_sequence_header(avif, 10_000),
         "image.too-many-frames")
    case("AVIF truncated at half", "truncated-avif.avif", avif[:len(avif) // 2], "image.truncated", lenient_too=True)
    case("control: valid PNG named .jpg", "png-named.jpg", gen_png, "ok")
    case("control: valid JPEG", "ok.jpg", None, "ok")
    stems = [os.path.splitext(c.filename)[0] for c in cases]
    if len(set(stems)) != len(stems):  # --out DIR names outputs by base name; the batch run needs them unique
        raise RuntimeError("two cases share a base name")
    return cases


def verdict(case: Case, run: Run):
    """Return a list of reasons the case failed (empty when it passed)."""
    reasons = []
    if run.timed_out:
        reasons.append(f"timed out after {TIMEOUT_S:.0f} s")
    elif run.signal is not None:
        reasons.append(f"crashed ({run.exit_text})")
    if run.wall_ms >= MAX_WALL_MS and not run.timed_out:
        reasons.append(f"took {run.wall_ms:.0f} ms wall (limit < {MAX_WALL_MS:.0f})")
    if run.rss_mb > MAX_RSS_MB:
        reasons.append(f"peak RSS {run.rss_mb:.0f} MB (limit {MAX_RSS_MB:.0f})")
    if run.signal is None and not run.timed_out:
        if case.expected == "ok" and run.exit != 0:
            reasons.append(f"exit {run.exit}, expected success")
        if case.expected != "ok" and run.exit == 0:
            reasons.append("exit 0, expected failure")
    if run.code != case.expected:
        reasons.append(f"code {run.code or 'none'}, expected {case.expected}")
    return reasons


def batch_verdict(cases, run: Run, tmp: str):
    """Reasons the all-inputs-in-one-call run failed (empty when it passed)."""
    reasons = []
    if run.timed_out:
        reasons.append(f"timed out after {TIMEOUT_S:.0f} s")
    elif run.signal is not None:
        reasons.append(f"crashed ({run.exit_text})")
    elif run.exit != 1:
        reasons.append(f"exit {run.exit}, expected 1 (some inputs fail)")
    if run.wall_ms >= MAX_WALL_MS and not run.timed_out:
        reasons.append(f"took {run.wall_ms:.0f} ms wall (limit < {MAX_WALL_MS:.0f})")
    if run.rss_mb > MAX_RSS_MB:
        reasons.append(f"peak RSS {run.rss_mb:.0f} MB (limit {MAX_RSS_MB:.0f})")
    if run.record_count != len(cases):
        reasons.append(f"{run.record_count} JSON records for {len(cases)} inputs")
    missing = []
    for case in cases:
        record = run.records.get(os.path.join(tmp, case.filename))
        if record is None:
            missing.append(case.filename)
            continue
        code = "ok" if record.get("status") == "succeeded" else (record.get("error") or {}).get("code")
        if code != case.expected:
            reasons.append(f"{case.filename}: {code}, expected {case.expected}")
    if missing:
        reasons.append("no record for " + ("any input" if len(missing) == len(cases) else ", ".join(missing)))
    return reasons


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--darkroom", default=os.path.join(REPO_ROOT, ".build", "release", "darkroom"),
                        help="the darkroom binary (default: .build/release/darkroom in the repo)")
    parser.add_argument("--chain", default="downsample(256x256)",
                        help="chain passed with -p (default: %(default)s); '' for a plain re-encode")
    parser.add_argument("--plugins", help="a plugins directory holding darkroom-heic.so: HEIC cases then decode or "
                                          "end in image.too-large instead of image.needs-module")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir with the generated inputs")
    parser.add_argument("--no-s3", action="store_true", help="skip the s3:// section (moto and a fault server)")
    opts = parser.parse_args()
    if opts.plugins:
        EXTRA_ARGS.extend(["--plugins", os.path.abspath(opts.plugins)])

    darkroom = os.path.abspath(opts.darkroom)
    if not (os.path.isfile(darkroom) and os.access(darkroom, os.X_OK)):
        print(f"darkroom binary not found at {darkroom}.\n"
              f"Build it first, from the repository root:\n"
              f"    swift build -c release --product darkroom\n"
              f"or point at another build with --darkroom PATH.", file=sys.stderr)
        return 2

    tmp = tempfile.mkdtemp(prefix="darkroom-hostile-")
    try:
        try:
            cases = make_fixtures(darkroom, tmp)
        except RuntimeError as error:
            print(f"could not make the fixtures: {error}", file=sys.stderr)
            return 2

        outdir = os.path.join(tmp, "out")
        os.mkdir(outdir)
        print(f"darkroom: {darkroom}")
        print(f"command per case: darkroom process INPUT" + (f" -p \"{opts.chain}\"" if opts.chain else "")
              + " -o OUT.png --json")
        if not _become_subreaper():
            print("note: prctl(PR_SET_CHILD_SUBREAPER) unavailable: peak RSS below includes this script's own peak")
        print(f"limits: exit as expected, error code as expected, no signal, wall < {MAX_WALL_MS:.0f} ms, "
              f"peak RSS <= {MAX_RSS_MB:.0f} MB, timeout {TIMEOUT_S:.0f} s\n")
        print("| case | expected | exit | error code | wall ms | CPU ms | peak RSS MB | result |")
        print("|---|---|---|---|---:|---:|---:|---|")
        passed = failed = 0
        failures = []
        lenient_rows = []
        messages = []
        for index, case in enumerate(cases):
            input_path = os.path.join(tmp, case.filename)
            output_path = os.path.join(outdir, f"{index:02d}.png")
            run = run_darkroom(darkroom, [input_path], ["-o", output_path], opts.chain, False, tmp, case.extra)
            reasons = verdict(case, run)
            if reasons:
                failed += 1
                failures.append((case, run, reasons))
            else:
                passed += 1
            print(f"| {case.name} | {case.expected} | {run.exit_text} | {run.code or '—'} | "
                  f"{run.wall_ms:.0f} | {run.cpu_ms:.0f} | {run.rss_mb:.1f} | "
                  f"{'FAIL: ' + '; '.join(reasons) if reasons else 'pass'} |")
            error = (run.record or {}).get("error") or {}
            if error.get("message"):
                messages.append((case, error["message"].replace(tmp + os.sep, "")))
            if case.lenient_too:
                lenient = run_darkroom(darkroom, [input_path], ["-o", os.path.join(outdir, f"{index:02d}-lenient.png")],
                                       opts.chain, True, tmp)
                lenient_rows.append((case, run, lenient))

        # Every input at once, as a server batch would send them: the parallel path must give each
        # input exactly one record with the same code, and survive the mix.
        batch = run_darkroom(darkroom, [os.path.join(tmp, c.filename) for c in cases],
                             ["--out", os.path.join(outdir, "batch")], opts.chain, False, tmp)
        reasons = batch_verdict(cases, batch, tmp)
        if reasons:
            failed += 1
            failures.append((Case(f"all {len(cases)} inputs in one call", "(batch)", "per case"), batch, reasons))
        else:
            passed += 1
        print(f"| all {len(cases)} inputs above in one call (--out DIR) | each as above, exit 1 | {batch.exit_text} | "
              f"{batch.record_count} records | {batch.wall_ms:.0f} | {batch.cpu_ms:.0f} | {batch.rss_mb:.1f} | "
              f"{'FAIL: ' + '; '.join(reasons) if reasons else 'pass'} |")

        print("\nMessages (temp dir stripped):\n")
        for case, message in messages:
            print(f"- {case.name}: `{message}`")

        print("\nInformative: the truncated / corrupt cases again with --lenient (never fails the run)\n")
        print("| case | strict | --lenient | exit | wall ms | peak RSS MB | message |")
        print("|---|---|---|---|---:|---:|---|")
        for case, strict, lenient in lenient_rows:
            if lenient.record is not None and lenient.record.get("status") == "succeeded":
                made = lenient.record.get("result") or {}
                outcome = f"recovered {made.get('width')}x{made.get('height')}"
                message = ""
            else:
                outcome = f"refused ({lenient.code or 'no record'})"
                message = ((lenient.record or {}).get("error") or {}).get("message", lenient.stderr[:120])
                message = message.replace(tmp + os.sep, "")
            print(f"| {case.name} | {strict.code or '—'} | {outcome} | {lenient.exit_text} | "
                  f"{lenient.wall_ms:.0f} | {lenient.rss_mb:.1f} | {message} |")

        s3_failures = []
        if not opts.no_s3:
            s3_passed, s3_failed, s3_failures = hostile_s3.run_section(darkroom, tmp, opts.chain, run_darkroom)
            passed += s3_passed
            failed += s3_failed

        if failures or s3_failures:
            print("\nFailures:")
            for case, run, reasons in failures:
                message = ((run.record or {}).get("error") or {}).get("message", "")
                print(f"- {case.name} ({case.filename}): {'; '.join(reasons)}")
                if message:
                    print(f"    message: {message}")
                if run.stderr:
                    print(f"    stderr: {run.stderr[-400:]}")
            for line in s3_failures:
                print(line)
        print(f"\n{passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        if opts.keep:
            print(f"(inputs kept in {tmp})", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
