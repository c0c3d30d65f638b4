#!/usr/bin/env python3
"""sharpen: closeness to `vips sharpen`, and `downsample(800x800)|>sharpen` against vips and Pillow.

Usage (from the repository root):
    ~/.cache/darkroom-bench-venv/bin/python scripts/bench-sharpen.py psnr [--darkroom PATH] [--corpus DIR]
    ~/.cache/darkroom-bench-venv/bin/python scripts/bench-sharpen.py time [--darkroom PATH] [--corpus DIR] [--rounds 5]

Needs Pillow and numpy (the venv above), `vips` and `vipsthumbnail`. The corpus (default
../shared/corpus, its JPEGs) is NOT in this repository: the script says so and exits 2 without it.

psnr: each JPEG is reduced once with `darkroom process -p 'downsample(800x800)'` to PNG (lossless),
and that PNG is sharpened by darkroom and by vips, both written as PNG:
  - the mapping: `sharpen(sigma: s, amount: a)` against `vips sharpen --sigma s --x1 0 --m1 a --m2 a
    --y2 100 --y3 100` (a plain unsharp mask of amount a on L*): mean and minimum PSNR per setting;
  - vips' defaults (`vips sharpen` with no options: sigma 0.5, x1 2, y2 10, y3 20, m1 0, m2 3)
    against darkroom over a grid of sigma and amount: which setting comes closest.
time: interleaved rounds of the whole corpus, median wall seconds:
  - darkroom: one `darkroom process` of every JPEG with the chain, JPEG q80 out;
  - vips:     per JPEG `vipsthumbnail --size 800` to a .v file, then `vips sharpen` to JPEG q80;
  - pillow:   one Python process: `thumbnail((800, 800))` after `draft()`, `UnsharpMask(radius=0.5,
              percent=100, threshold=0)`, JPEG q80.
Run `time` with a release build (`swift build -c release --product darkroom`) on an idle machine.
"""

import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy
from PIL import Image

CHAIN_SETTING = (0.5, 1.0)
MAPPINGS = [(0.5, 0.8), (1.0, 1.0), (2.0, 1.5)]
GRID = [(s, a) for s in (0.5, 0.75, 1.0) for a in (0.5, 0.8, 1.0, 1.5, 2.0)]


def run(command):
    result = subprocess.run(command, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"bench-sharpen: {' '.join(command)} failed: {result.stderr.decode()}")


def psnr(a_path, b_path):
    a = numpy.asarray(Image.open(a_path).convert("RGB"), dtype=numpy.float64)
    b = numpy.asarray(Image.open(b_path).convert("RGB"), dtype=numpy.float64)
    mse = numpy.mean((a - b) ** 2)
    return 99.0 if mse == 0 else 10 * numpy.log10(255 * 255 / mse)


def darkroom_sharpen(args, source, out, sigma, amount):
    run([args.darkroom, "process", source, "-p", f"sharpen(sigma: {sigma}, amount: {amount})", "-o", out])


def measure_psnr(args, jpegs, scratch):
    reduced = []
    for jpeg in jpegs:
        path = os.path.join(scratch, os.path.basename(jpeg) + ".png")
        run([args.darkroom, "process", jpeg, "-p", "downsample(800x800)", "-o", path])
        reduced.append(path)
    print("mapping: darkroom sharpen(sigma, amount) vs vips sharpen --x1 0 --m1 a --m2 a --y2 100 --y3 100")
    for sigma, amount in MAPPINGS:
        values = []
        for path in reduced:
            ours, theirs = path + ".d.png", path + ".v.png"
            darkroom_sharpen(args, path, ours, sigma, amount)
            run(["vips", "sharpen", path, theirs, "--sigma", str(sigma), "--x1", "0", "--m1", str(amount),
                 "--m2", str(amount), "--y2", "100", "--y3", "100"])
            values.append(psnr(ours, theirs))
        print(f"  sigma {sigma} amount {amount}: mean {statistics.mean(values):.1f} dB, min {min(values):.1f} dB")
    print("vips sharpen defaults vs darkroom sharpen(sigma, amount); unsharpened reduction first")
    for path in reduced:
        run(["vips", "sharpen", path, path + ".vd.png"])
    base = [psnr(path, path + ".vd.png") for path in reduced]
    print(f"  unsharpened: mean {statistics.mean(base):.1f} dB")
    for sigma, amount in GRID:
        values = []
        for path in reduced:
            darkroom_sharpen(args, path, path + ".g.png", sigma, amount)
            values.append(psnr(path + ".g.png", path + ".vd.png"))
        print(f"  sigma {sigma} amount {amount}: mean {statistics.mean(values):.1f} dB")


PILLOW = """
import sys, os
from PIL import Image, ImageFilter
out = sys.argv[1]
for path in sys.argv[2:]:
    with Image.open(path) as im:
        im.draft("RGB", (800, 800))
        im.thumbnail((800, 800), Image.LANCZOS)
        im = im.filter(ImageFilter.UnsharpMask(radius=0.5, percent=100, threshold=0))
        im.save(os.path.join(out, os.path.basename(path)), quality=80)
"""


def measure_time(args, jpegs, scratch):
    sigma, amount = CHAIN_SETTING
    chain = f"downsample(800x800)|>sharpen(sigma: {sigma}, amount: {amount})"

    def darkroom():
        run([args.darkroom, "process", *jpegs, "-p", chain, "--out", os.path.join(scratch, "d"), "--format", "jpeg"])

    def vips():
        for jpeg in jpegs:
            thumb = os.path.join(scratch, "t.v")
            run(["vipsthumbnail", jpeg, "--size", "800", "-o", thumb])
            run(["vips", "sharpen", thumb, os.path.join(scratch, os.path.basename(jpeg) + "[Q=80]")])

    def pillow():
        os.makedirs(os.path.join(scratch, "p"), exist_ok=True)
        run([sys.executable, "-c", PILLOW, os.path.join(scratch, "p"), *jpegs])

    variants = {"darkroom": darkroom, "vips": vips, "pillow": pillow}
    walls = {name: [] for name in variants}
    for _ in range(args.rounds):
        for name, body in variants.items():
            start = time.monotonic()
            body()
            walls[name].append(time.monotonic() - start)
    medians = {name: statistics.median(values) for name, values in walls.items()}
    print(f"{chain} on {len(jpegs)} JPEGs, median of {args.rounds} rounds (wall s):")
    for name, value in medians.items():
        print(f"  {name}: {value:.2f}  ({medians['darkroom'] / value:.2f}× darkroom/{name})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["psnr", "time"])
    parser.add_argument("--darkroom", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "darkroom"))
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    jpegs = sorted(glob.glob(os.path.join(args.corpus, "*.jpg")))
    if not jpegs:
        print(f"bench-sharpen: no JPEGs in {args.corpus} (the corpus is not in this repository)", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as scratch:
        (measure_psnr if args.mode == "psnr" else measure_time)(args, jpegs, scratch)


if __name__ == "__main__":
    main()
