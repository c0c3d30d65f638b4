#!/usr/bin/env python3
"""Regenerates the JPEG fixtures in this folder (see README.md). Needs: cjpeg, jpegtran, djpeg
(libjpeg-turbo-progs), ImageMagick 6 `convert`, and ghostscript's ICC profiles in
/usr/share/color/icc/ghostscript (Debian package ghostscript / libgs-common), and Pillow for the
one plain-CMYK fixture (pip install pillow). Run from anywhere: python3 make_fixtures.py"""
import os, struct, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ICC = "/usr/share/color/icc/ghostscript"
TMP = tempfile.mkdtemp(prefix="darkroom-jpeg-fixtures-")

# The upright picture every orientation fixture must decode to: 64x48, four flat quadrants.
QUADRANTS = {"tl": (220, 30, 30), "tr": (30, 200, 60), "bl": (40, 60, 210), "br": (240, 240, 240)}


def ppm(path, width, height, pixel):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(bytes(c for y in range(height) for x in range(width) for c in pixel(x, y)))


def quadrants(width, height):
    def pixel(x, y):
        return QUADRANTS[("t" if y < height // 2 else "b") + ("l" if x < width // 2 else "r")]
    return pixel


def scene(width, height):
    """Smooth gradients plus a few flat patches: realistic enough for PSNR checks, compresses small."""
    def pixel(x, y):
        if 8 <= x < 24 and 8 <= y < 24:
            return (200, 40, 40)
        if 40 <= x < 56 and 8 <= y < 24:
            return (40, 180, 60)
        return (x * 255 // (width - 1), y * 255 // (height - 1), 128 + (x - y) // 4)
    return pixel


def run(*args):
    subprocess.run(args, check=True)


def out(name):
    return os.path.join(HERE, name)


def exif_app1(orientation, big_endian=False):
    """A minimal APP1 Exif segment: TIFF header, IFD0 with the single orientation entry."""
    e = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHI", 0x0112, 3, 1) + struct.pack(e + "HH", orientation, 0)
    tiff += struct.pack(e + "I", 0)  # no next IFD
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def insert_after_soi(jpeg, segment):
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + segment + jpeg[2:]


def strip_segments(jpeg, marker):
    """The JPEG without the header segments of one marker type."""
    kept, i = jpeg[:2], 2
    while jpeg[i] == 0xFF and jpeg[i + 1] != 0xDA:
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        if jpeg[i + 1] != marker:
            kept += jpeg[i:i + 2 + length]
        i += 2 + length
    return kept + jpeg[i:]


def main():
    # Orientation fixtures: the stored pixels are the upright picture turned the *inverse* way, so
    # honouring the tag gives back red top-left, green top-right, blue bottom-left, white bottom-right.
    upright = os.path.join(TMP, "upright.ppm")
    ppm(upright, 64, 48, quadrants(64, 48))
    inverse = {1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"], 5: ["-transpose"],
               6: ["-rotate", "-90"], 7: ["-transverse"], 8: ["-rotate", "90"]}
    for orientation, ops in inverse.items():
        stored = os.path.join(TMP, f"o{orientation}.ppm")
        run("convert", upright, *ops, stored)
        jpg = os.path.join(TMP, f"o{orientation}.jpg")
        run("cjpeg", "-quality", "95", "-sample", "1x1", "-outfile", jpg, stored)
        data = insert_after_soi(open(jpg, "rb").read(), exif_app1(orientation, big_endian=orientation in (6, 7)))
        open(out(f"orientation-{orientation}.jpg"), "wb").write(data)

    # Subsampling, progressive, greyscale: one 96x64 scene.
    src = os.path.join(TMP, "scene.ppm")
    ppm(src, 96, 64, scene(96, 64))
    run("cp", src, out("scene-96x64.ppm"))
    for name, sample in (("444", "1x1"), ("422", "2x1"), ("420", "2x2")):
        run("cjpeg", "-quality", "90", "-sample", sample, "-outfile", out(f"scene-{name}.jpg"), src)
    run("cjpeg", "-quality", "90", "-sample", "2x2", "-progressive", "-outfile", out("scene-progressive.jpg"), src)
    run("cjpeg", "-quality", "90", "-grayscale", "-outfile", out("scene-gray.jpg"), src)

    # An image big enough for every DCT scale to differ: 203x101 (odd sides, so scaled sizes round up).
    big = os.path.join(TMP, "big.ppm")
    ppm(big, 203, 101, scene(203, 101))
    run("cjpeg", "-quality", "75", "-sample", "2x2", "-outfile", out("scene-203x101.jpg"), big)

    # CMYK through ImageMagick: naive (no profile, Adobe marker, inverted storage) and with a profile.
    patches = os.path.join(TMP, "patches.ppm")
    ppm(patches, 32, 32, quadrants(32, 32))
    run("convert", patches, "-colorspace", "CMYK", "-quality", "95", "-sampling-factor", "1x1", out("cmyk-adobe.jpg"))
    muted = os.path.join(TMP, "muted.ppm")
    ppm(muted, 32, 32, lambda x, y: {(0, 0): (180, 90, 70), (1, 0): (90, 150, 100), (0, 1): (80, 100, 160), (1, 1): (200, 200, 190)}[(x // 16, y // 16)])
    run("convert", muted, "-profile", f"{ICC}/srgb.icc", "-profile", f"{ICC}/ps_cmyk.icc", "-quality", "95",
        "-sampling-factor", "1x1", out("cmyk-profile.jpg"))
    run("cp", muted, out("muted-32x32.ppm"))
    # CMYK stored as CMYK (Adobe transform 0, not YCCK) by Pillow's libjpeg writer, which stores it
    # inverted (255 = no ink) with an Adobe marker.
    from PIL import Image
    Image.open(patches).convert("CMYK").save(out("cmyk-plain-adobe.jpg"), quality=95, subsampling=0)
    # Plain CMYK without an Adobe marker (0 = no ink), as some non-Adobe writers produce: ink from the
    # naive formula with K = 1 − max(R, G, B); Pillow inverts on save, so it is handed 255 − ink, and
    # the APP14 segment is removed afterwards.
    def ink(rgb):
        k = 1 - max(rgb) / 255
        cmy = [0 if k >= 1 else (1 - c / 255 - k) / (1 - k) for c in rgb]
        return [round(v * 255) for v in cmy + [k]]
    data = bytes(255 - v for y in range(32) for x in range(32) for v in ink(quadrants(32, 32)(x, y)))
    plain = os.path.join(TMP, "plain.jpg")
    Image.frombytes("CMYK", (32, 32), data).save(plain, quality=95, subsampling=0)
    open(out("cmyk-plain-no-adobe.jpg"), "wb").write(strip_segments(open(plain, "rb").read(), 0xEE))

    # RGB tagged with Adobe RGB (1998): the stored pixels are in Adobe RGB, decoding must bring them back.
    run("convert", muted, "-profile", f"{ICC}/srgb.icc", "-profile", f"{ICC}/a98.icc", "-quality", "95",
        "-sampling-factor", "1x1", out("adobergb.jpg"))
    # RGB tagged with an sRGB profile: nothing to convert.
    run("convert", muted, "-profile", f"{ICC}/srgb.icc", "-quality", "95", "-sampling-factor", "1x1", out("srgb-tagged.jpg"))
    # Greyscale tagged with a grey profile whose curve is not sRGB's (ghostscript's default_gray).
    run("convert", muted, "-colorspace", "Gray", "-profile", f"{ICC}/default_gray.icc", "-quality", "95", out("gray-profile.jpg"))


if __name__ == "__main__":
    main()
