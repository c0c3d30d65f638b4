#!/usr/bin/env python3
"""Make large benchmark inputs for the animation and codec benchmarks from the shared corpus.

    scripts/make-animated-inputs.py OUTDIR [--corpus DIR]

Writes into OUTDIR (created if needed; never the repository):

    anim-disposal-60f-800x600.gif   60 frames, 800x600: a photo background, then sprites of
                                    varying sizes and offsets whose disposal is 2 (background),
                                    3 (previous), 0 and 1 (keep) in turn, a transparent index in
                                    every frame, delays of 0, 20, 50 and 100 ms, looping forever
    anim-pan-60f-800x600.gif        60 full-frame 800x600 frames panning across a wide photo, each
                                    quantised to its own 256-colour palette (a local colour table,
                                    as a real pan GIF has), delays of 40 ms, disposal 1, looping
                                    forever: every frame is a whole photograph
    anim-alpha-40f-640x480.webp     40 frames, 640x480, lossy with alpha: a panning photo behind
                                    a soft vignette and a moving transparent hole
    photo-4000x3000.png             a photo scaled and cropped to 4000x3000
    screenshot-4000x3000.png        4000x3000 of flat colours, window-like panels and rows of
                                    text (hard edges, few colours: what screenshots look like)

The photos are read by path from the corpus (default: /work/shared/corpus, or $DARKROOM_CORPUS);
nothing is copied into the repository. Without the corpus the script says so and exits 2.

Needs Pillow (`pip install Pillow`); without it the script says so and exits 3. ImageMagick and
img2webp are not used (neither is installed on the development machines). Pillow reads and
scales and quantises the photos and writes the PNGs and the animated WebP (through its bundled
libwebp); the GIFs are written by this script (its own LZW), so their frame rectangles, palettes
and disposal methods are exactly the ones listed. The same corpus gives the same files.
"""

import argparse
import os
import random
import sys
import time

CORPUS_DEFAULT = os.environ.get("DARKROOM_CORPUS", "/work/shared/corpus")
# Photos used, by corpus file name: one landscape photo per output.
GIF_PHOTO = "j07_life_3088x2056.jpg"
PAN_PHOTO = "j01_kleiber_6028x3391.jpg"
WEBP_PHOTO = "j03_bridge_4352x2448.jpg"
PNG_PHOTO = "j05_dragonfly_4224x3168.jpg"


def fail(message, code):
    print(f"make-animated-inputs: {message}", file=sys.stderr)
    sys.exit(code)


try:
    from PIL import Image, ImageDraw, ImageFilter
except ImportError:
    fail("this script needs Pillow, which is not installed: run `pip install Pillow` and try again", 3)


def cover(image, width, height):
    """Scales `image` to cover width x height and crops the centre (CSS object-fit: cover)."""
    scale = max(width / image.width, height / image.height)
    resized = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    left = (resized.width - width) // 2
    top = (resized.height - height) // 2
    return resized.crop((left, top, left + width, top + height))


def lzw_encode(indices, min_code_size=8):
    """GIF's variable-width LZW of a sequence of 8-bit indices, bits packed LSB first.

    Follows the decoder's rules: a clear code first, the code width grows once the next free
    code no longer fits, and the table is cleared (with a clear code) when it is full.
    """
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    out = bytearray()
    bits = nbits = 0
    width = min_code_size + 1
    next_code = end + 1
    table = {}

    def emit(code):
        nonlocal bits, nbits, width
        bits |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
        if next_code >= (1 << width) and width < 12:
            width += 1

    emit(clear)
    prefix = indices[0]
    for index in indices[1:]:
        key = (prefix << 8) | index
        code = table.get(key)
        if code is not None:
            prefix = code
            continue
        emit(prefix)
        if next_code >= 4095:
            emit(clear)
            table.clear()
            next_code = end + 1
            width = min_code_size + 1
        else:
            table[key] = next_code
            next_code += 1
        prefix = index
    emit(prefix)
    emit(end)
    if nbits:
        out.append(bits & 0xFF)
    return bytes(out)


def sub_blocks(data):
    return b"".join(bytes([len(data[i : i + 255])]) + data[i : i + 255] for i in range(0, len(data), 255)) + b"\0"


def word(v):
    """A GIF 16-bit field, little-endian."""
    return bytes((v & 0xFF, v >> 8))


def looping_header(width, height, packed, palette=b""):
    """GIF89a, the logical screen (`packed` says whether a global table follows), the global
    table, and the NETSCAPE2.0 extension asking to loop forever."""
    return b"GIF89a" + word(width) + word(height) + bytes((packed, 0, 0)) + palette + b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + word(0) + b"\0"


def disposal_gif(photo, path, rng):
    """60 frames on one global palette: a full background, then sprites of varying sizes at
    varying offsets whose disposal methods cycle 2 (background), 3 (previous), 0 and 1 (keep),
    with delays of 0, 20, 50 and 100 ms and a transparent index (255) in every frame.

    Written here byte by byte (Pillow's GIF writer recomputes frame rectangles and does not
    model disposal 3), so each frame's rectangle and disposal are exactly the ones chosen.
    """
    width, height = 800, 600
    transparent = 255
    background = cover(photo, width, height)
    # 255 colours from the photo; index 255 repeats index 0 so that no pixel is mapped to it,
    # and is then the transparent index.
    palette_image = background.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    palette = (palette_image.getpalette() + [0] * 768)[: 255 * 3]
    palette += palette[:3]
    palette_image.putpalette(palette)

    def indexed(image):
        quantized = image.quantize(palette=palette_image, dither=Image.Dither.NONE)
        return quantized.point(lambda v: 0 if v == transparent else v)

    first = indexed(background)
    # A transparent cut-out in the background, so the canvas has transparency from the start.
    ImageDraw.Draw(first).rectangle((24, 24, 120, 90), fill=transparent)
    sprite_source = cover(photo, 240, 180).filter(ImageFilter.CONTOUR)
    frames = [(0, 0, first, 1, 0)]
    for n in range(1, 60):
        size = 60 + (n * 37) % 180
        sprite = indexed(sprite_source.resize((size, size * 3 // 4)))
        # A transparent hole: the canvas shows through it.
        ImageDraw.Draw(sprite).ellipse((size // 4, size // 8, size // 2, size // 3), fill=transparent)
        x = (n * 53) % (width - size)
        y = (n * 29 + rng.randrange(40)) % (height - size)
        frames.append((x, y, sprite, (2, 3, 0, 1)[n % 4], (0, 2, 5, 10)[n % 4]))

    out = bytearray(looping_header(width, height, 0xF7, bytes(palette)))
    for x, y, image, disposal, delay in frames:
        out += b"\x21\xf9\x04" + bytes((disposal << 2 | 1,)) + word(delay) + bytes((transparent, 0))
        out += b"\x2c" + word(x) + word(y) + word(image.width) + word(image.height) + b"\0"
        out += b"\x08" + sub_blocks(lzw_encode(image.tobytes()))
    out += b"\x3b"
    with open(path, "wb") as file:
        file.write(out)


def pan_gif(photo, path):
    """60 frames of 800x600, each the whole screen: a window moving left to right across the
    photo scaled to 600 px high. Each frame is quantised on its own to 256 colours (median cut,
    Floyd-Steinberg dithering, as GIF encoders of photos do) and carries that palette as its
    local colour table; a Graphics Control Extension gives 40 ms and disposal 1 (keep), no
    transparency. Every frame's LZW stream therefore codes a full dithered photograph.
    """
    width, height, count = 800, 600, 60
    strip = photo.resize((round(photo.width * height / photo.height), height), Image.LANCZOS)
    travel = strip.width - width
    # No global table (0x70: 8-bit colour resolution only); each frame brings its own.
    out = bytearray(looping_header(width, height, 0x70))
    for n in range(count):
        x = round(n * travel / (count - 1))
        frame = strip.crop((x, 0, x + width, height)).quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        palette = (frame.getpalette() + [0] * 768)[:768]
        out += b"\x21\xf9\x04" + bytes((1 << 2,)) + word(4) + b"\0\0"
        # Local colour table of 2^(7+1) = 256 entries.
        out += b"\x2c" + word(0) + word(0) + word(width) + word(height) + bytes((0x87,)) + bytes(palette)
        out += b"\x08" + sub_blocks(lzw_encode(frame.tobytes()))
    out += b"\x3b"
    with open(path, "wb") as file:
        file.write(out)


def alpha_webp(photo, path):
    """40 frames panning over a wide photo, with a radial alpha vignette and a moving hole."""
    width, height = 640, 480
    strip = cover(photo, 1040, 480)
    vignette = Image.new("L", (width, height), 0)
    ImageDraw.Draw(vignette).ellipse((-80, -60, width + 80, height + 60), fill=255)
    vignette = vignette.filter(ImageFilter.GaussianBlur(40))
    frames = []
    for n in range(40):
        frame = strip.crop((n * 10, 0, n * 10 + width, height)).convert("RGBA")
        alpha = vignette.copy()
        cx, cy = 120 + n * 10, 240 + int(120 * ((n % 20) - 10) / 10)
        ImageDraw.Draw(alpha).ellipse((cx - 50, cy - 50, cx + 50, cy + 50), fill=0)
        frame.putalpha(alpha)
        frames.append(frame)
    frames[0].save(
        path, save_all=True, append_images=frames[1:], duration=[80] * 40, loop=0, lossless=False, quality=80, method=4
    )


def screenshot(path, rng):
    """A 4000x3000 desktop: flat panels, title bars, buttons and rows of text in a few colours."""
    width, height = 4000, 3000
    image = Image.new("RGB", (width, height), (236, 239, 244))
    draw = ImageDraw.Draw(image)
    palette = [(46, 52, 64), (59, 66, 82), (94, 129, 172), (191, 97, 106), (163, 190, 140), (235, 203, 139)]
    draw.rectangle((0, 0, width, 64), fill=palette[0])
    for _ in range(14):
        x0, y0 = rng.randrange(0, width - 1400), rng.randrange(80, height - 900)
        x1, y1 = x0 + rng.randrange(700, 1400), y0 + rng.randrange(400, 900)
        draw.rectangle((x0 + 8, y0 + 8, x1 + 8, y1 + 8), fill=(200, 204, 212))
        draw.rectangle((x0, y0, x1, y1), fill=(255, 255, 255), outline=palette[1], width=2)
        draw.rectangle((x0, y0, x1, y0 + 40), fill=rng.choice(palette[:3]))
        for b in range(3):
            draw.ellipse((x1 - 36 - b * 34, y0 + 10, x1 - 16 - b * 34, y0 + 30), fill=palette[3 + b])
        line_y = y0 + 60
        while line_y < y1 - 30:
            words_x = x0 + 20
            color = rng.choice(palette[:3])
            while words_x < x1 - 120:
                word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rng.randrange(2, 10)))
                draw.text((words_x, line_y), word, fill=color)
                words_x += 8 * len(word) + 10
            line_y += 18
    image.save(path, optimize=False, compress_level=6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", help="where to write the inputs (not inside the repository)")
    parser.add_argument("--corpus", default=CORPUS_DEFAULT, help=f"the shared corpus (default {CORPUS_DEFAULT})")
    args = parser.parse_args()

    missing = [name for name in (GIF_PHOTO, PAN_PHOTO, WEBP_PHOTO, PNG_PHOTO) if not os.path.isfile(os.path.join(args.corpus, name))]
    if missing:
        fail(
            f"THE CORPUS IS ABSENT: {args.corpus} lacks {', '.join(missing)}. "
            "These inputs are made from its photos; point --corpus (or $DARKROOM_CORPUS) at it.",
            2,
        )
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(11)

    def photo(name):
        return Image.open(os.path.join(args.corpus, name)).convert("RGB")

    jobs = [
        ("anim-disposal-60f-800x600.gif", lambda path: disposal_gif(photo(GIF_PHOTO), path, rng)),
        ("anim-pan-60f-800x600.gif", lambda path: pan_gif(photo(PAN_PHOTO), path)),
        ("anim-alpha-40f-640x480.webp", lambda path: alpha_webp(photo(WEBP_PHOTO), path)),
        ("photo-4000x3000.png", lambda path: cover(photo(PNG_PHOTO), 4000, 3000).save(path, compress_level=6)),
        ("screenshot-4000x3000.png", lambda path: screenshot(path, rng)),
    ]
    for name, make in jobs:
        path = os.path.join(args.outdir, name)
        started = time.monotonic()
        make(path)
        print(f"{path}: {os.path.getsize(path):,} bytes in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
