#!/usr/bin/env python3
"""One large translucent image through a chain to WebP: the encode of a lone image on idle cores.

The input is made from a corpus photo (default ../shared/corpus/j02_seeding_5312x2988.jpg, read by
path, never copied into the repository): scaled and cropped to 5120x2880 with Pillow, with an alpha
ramp across it (transparent at the left edge, opaque from the middle), written as RGBA PNG. Then,
in interleaved rounds, each binary runs

    darkroom process big.png -p 'resize(3000x1700)|>blur(6)|>rotate(7)' -o out.webp --no-cache --json

on both cores and pinned to one (`taskset -c 0`), and the script prints the median wall time and
the median encode stage (`result.ms.encode`) of each. `rotate(7)` leaves transparent corners, so
the WebP has an alpha plane either way.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    ~/.cache/darkroom-bench-venv/bin/python scripts/bench-large-encode.py \\
        [--darkroom .build/release/darkroom] [--baseline OTHER_BUILD/darkroom] [--rounds 7]
With --baseline, both binaries run in each round and the ratio darkroom/baseline is printed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CHAIN = "resize(3000x1700)|>blur(6)|>rotate(7)"


def make_input(photo, path):
    from PIL import Image

    image = Image.open(photo).convert("RGB")
    scale = max(5120 / image.width, 2880 / image.height)
    image = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    left, top = (image.width - 5120) // 2, (image.height - 2880) // 2
    image = image.crop((left, top, left + 5120, top + 2880))
    ramp = Image.linear_gradient("L").rotate(90).resize((5120, 2880)).point(lambda v: min(255, 2 * (255 - v)))
    image.putalpha(ramp)
    image.save(path, compress_level=1)


def run(binary, source, out, pinned):
    command = ([] if not pinned else ["taskset", "-c", "0"]) + [
        binary, "process", source, "-p", CHAIN, "-o", out, "--no-cache", "--json"]
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"bench-large-encode: {' '.join(command)} failed: {result.stderr}")
    record = json.loads(result.stdout.strip().splitlines()[-1])
    # Builds before the `result` object (e.g. 49af717) put `ms` at the top level.
    return wall, (record.get("result") or record)["ms"]["encode"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--darkroom", default=os.path.join(HERE, "..", ".build", "release", "darkroom"))
    parser.add_argument("--baseline", help="another darkroom binary to run in the same rounds")
    parser.add_argument("--photo", default=os.path.join(HERE, "..", "..", "shared", "corpus", "j02_seeding_5312x2988.jpg"))
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    if not os.path.exists(args.photo):
        sys.exit(f"bench-large-encode: THE CORPUS PHOTO {args.photo} IS ABSENT; pass --photo")
    binaries = [("darkroom", args.darkroom)] + ([("baseline", args.baseline)] if args.baseline else [])
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "big.png")
        make_input(args.photo, source)
        out = os.path.join(scratch, "out.webp")
        times = {(name, pinned): [] for name, _ in binaries for pinned in (False, True)}
        for round_ in range(args.rounds + 1):  # round 0 warms the page cache and is not counted
            for name, binary in binaries:
                for pinned in (False, True):
                    sample = run(binary, source, out, pinned)
                    if round_:
                        times[(name, pinned)].append(sample)
        load = os.getloadavg()[0]
        print(f"{CHAIN} of a 5120x2880 RGBA PNG to WebP, median of {args.rounds} rounds, load average {load:.2f}:")
        for (name, pinned), samples in times.items():
            wall = statistics.median(s[0] for s in samples)
            encode = statistics.median(s[1] for s in samples)
            print(f"  {name:9} {'1 core ' if pinned else '2 cores'}: wall {wall:.3f} s, encode {encode:.0f} ms")
        if args.baseline:
            for pinned in (False, True):
                a = statistics.median(s[0] for s in times[("darkroom", pinned)])
                b = statistics.median(s[0] for s in times[("baseline", pinned)])
                print(f"  darkroom/baseline wall, {'1 core' if pinned else '2 cores'}: {a / b:.2f}x")


if __name__ == "__main__":
    main()
