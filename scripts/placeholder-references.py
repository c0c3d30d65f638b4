#!/usr/bin/env python3
"""Prints the reference placeholder strings that Tests/DarkroomCoreTests/Placeholders expect.

Run once, by hand, when a fixture changes; the output is committed in the tests, so the tests
need no Python. The fixtures are small images defined by formulas (the same formulas are in
PlaceholderFixtures.swift), given to the reference packages as straight RGBA:

  BlurHash  the `blurhash` PyPI package (1.1.5, pure Python, Wolt's algorithm), fed R, G, B
            (BlurHash has no alpha; Wolt's encoders skip it too).
  ThumbHash the pure-Python `thumbhash` PyPI package (0.1.2), which computes in 64-bit floats
            as Evan Wallace's JavaScript reference does. It fails on images with alpha (its line
            `a_dc, a_ac, a_scale = encode_channel(a, 5, 5) if has_alpha else 1.0, [], 1.0`
            builds a tuple), so this script runs it with that one line parenthesised. The
            `fast-thumbhash` package (the official Rust crate, which computes in 32-bit floats) is
            printed beside it where it differs: on some fixtures it differs in a few nibbles.
            Base64 with padding.

Setup (a venv of its own, so the benchmark venv keeps its versions):
  python3 -m venv ~/.cache/darkroom-placeholder-refs/venv
  ~/.cache/darkroom-placeholder-refs/venv/bin/pip install blurhash==1.1.5 fast-thumbhash==1.0.0 thumbhash==0.1.2
  ~/.cache/darkroom-placeholder-refs/venv/bin/python scripts/placeholder-references.py
"""
import base64
import sys

import blurhash
import fast_thumbhash

import inspect

import thumbhash as thumbhash_python


def fixed_thumbhash():
    """The pure-Python port's encoder with its alpha line parenthesised (see above)."""
    source = inspect.getsource(thumbhash_python.rgba_to_thumb_hash)
    broken = "encode_channel(a, 5, 5) if has_alpha else 1.0, [], 1.0"
    if broken not in source:
        sys.exit("thumbhash 0.1.2 expected: its alpha line was not found")
    namespace = dict(vars(thumbhash_python))
    exec(source.replace(broken, "(encode_channel(a, 5, 5) if has_alpha else (1.0, [], 1.0))"), namespace)
    return namespace["rgba_to_thumb_hash"]


def gradient(x, y):
    return ((x * 8) % 256, (y * 10) % 256, (x * y * 3 + 40) % 256, 255)


def stripes(x, y):
    return (200 if (x // 3) % 2 else 30, ((x + y) * 5) % 256, (255 - y * 8) % 256, 255)


def translucent(x, y):
    return ((x * 11) % 256, (y * 13 + 60) % 256, ((x + y) * 7) % 256, (x * 10 + y * 3) % 256)


def cutout(x, y):
    # An opaque disc on a fully transparent square.
    inside = (x - 15.5) ** 2 + (y - 15.5) ** 2 < 12 ** 2
    return (220, (x * 6) % 256, 40, 255) if inside else (0, 0, 0, 0)


FIXTURES = [
    ("gradient", 32, 24, gradient),
    ("stripes", 17, 29, stripes),
    ("translucent", 24, 20, translucent),
    ("cutout", 32, 32, cutout),
]
BLURHASH_COMPONENTS = [(4, 3), (1, 1), (9, 9), (3, 5)]


def main():
    for name, w, h, pixel in FIXTURES:
        rgba = [value for y in range(h) for x in range(w) for value in pixel(x, y)]
        rows = [[list(pixel(x, y)[:3]) for x in range(w)] for y in range(h)]
        for cx, cy in BLURHASH_COMPONENTS if name == "gradient" else [(4, 3)]:
            print(f"blurhash {name} {cx}x{cy} {blurhash.encode(rows, cx, cy)}")
        reference = bytes(fixed_thumbhash()(w, h, rgba))
        crate = bytes(fast_thumbhash.rgba_to_thumb_hash(w, h, bytes(rgba)))
        note = "" if crate == reference else f"  # the crate: {base64.b64encode(crate).decode()}"
        print(f"thumbhash {name} {base64.b64encode(reference).decode()}{note}")

if __name__ == "__main__":
    main()
