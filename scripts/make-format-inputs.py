#!/usr/bin/env python3
"""Make the HEIC and AVIF benchmark inputs from the shared corpus.

    scripts/make-format-inputs.py OUTDIR [--corpus DIR] [--only heic|avif]

Writes into OUTDIR (created if needed; never the repository):

    heic-12mp-4032x3024.heic        j05_dragonfly cropped to a phone's 12 MP (4032x3024, the
                                    centre; `vips crop`), then `heif-enc -q 80` (x265, 4:2:0)
    avif/<corpus name>.avif         each of the corpus JPEGs (j*.jpg, 9 of them) through
                                    `avifenc -s 6 -j 2 --min 18 --max 28 -y 420` (aom)

heif-enc writes one coded image, not the 512x512 grid a phone writes: the grid fixtures in
Tests/Fixtures/HEIF (made by make-heif-fixtures.py there) cover grids; this file measures the
decoder's throughput on a phone-sized picture.

The photos are read by path from the corpus (default: /work/shared/corpus, or $DARKROOM_CORPUS);
nothing is copied into the repository. Without the corpus the script says so and exits 2; without
heif-enc, avifenc or vips (scripts/install-packages lists them) it exits 3.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

CORPUS_DEFAULT = os.environ.get("DARKROOM_CORPUS", "/work/shared/corpus")
HEIC_PHOTO = "j05_dragonfly_4224x3168.jpg"
HEIC_SIZE = (4032, 3024)


def timed(command):
    started = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def make_heic(corpus, out):
    source = os.path.join(corpus, HEIC_PHOTO)
    width, height = (int(v) for v in HEIC_PHOTO.rsplit("_", 1)[1].split(".")[0].split("x"))
    target = os.path.join(out, f"heic-12mp-{HEIC_SIZE[0]}x{HEIC_SIZE[1]}.heic")
    with tempfile.TemporaryDirectory() as work:
        cropped = os.path.join(work, "cropped.png")
        left, top = (width - HEIC_SIZE[0]) // 2, (height - HEIC_SIZE[1]) // 2
        subprocess.run(["vips", "crop", source, cropped, str(left), str(top), *map(str, HEIC_SIZE)], check=True)
        seconds = timed(["heif-enc", "-q", "80", "-o", target, cropped])
    print(f"{target}: {os.path.getsize(target)} bytes ({seconds:.1f} s)")


def make_avif(corpus, out):
    directory = os.path.join(out, "avif")
    os.makedirs(directory, exist_ok=True)
    for source in sorted(glob.glob(os.path.join(corpus, "j*.jpg"))):
        target = os.path.join(directory, os.path.basename(source).rsplit(".", 1)[0] + ".avif")
        seconds = timed(["avifenc", "-s", "6", "-j", "2", "--min", "18", "--max", "28", "-y", "420", source, target])
        print(f"{target}: {os.path.getsize(target)} bytes ({seconds:.1f} s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--corpus", default=CORPUS_DEFAULT)
    parser.add_argument("--only", choices=["heic", "avif"])
    args = parser.parse_args()
    if not os.path.exists(os.path.join(args.corpus, HEIC_PHOTO)) or not glob.glob(os.path.join(args.corpus, "j*.jpg")):
        print(f"*** NO CORPUS: {os.path.abspath(args.corpus)} does not hold the corpus JPEGs ({HEIC_PHOTO}, j*.jpg). "
              f"These inputs are made from the shared corpus, read by path (it is not part of the repository); "
              f"pass --corpus DIR or set DARKROOM_CORPUS. ***", file=sys.stderr)
        sys.exit(2)
    missing = [tool for tool in ("heif-enc", "avifenc", "vips") if shutil.which(tool) is None]
    if missing:
        print(f"make-format-inputs: {', '.join(missing)} missing (scripts/install-packages lists them)", file=sys.stderr)
        sys.exit(3)
    os.makedirs(args.outdir, exist_ok=True)
    if args.only in (None, "heic"):
        make_heic(args.corpus, args.outdir)
    if args.only in (None, "avif"):
        make_avif(args.corpus, args.outdir)


if __name__ == "__main__":
    main()
