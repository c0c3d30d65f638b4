#!/usr/bin/env python3
"""HEIC to a 400 px JPEG: Darkroom with the HEIC module against `vips thumbnail`, interleaved.

    scripts/bench-heic.py [--rounds N] [--darkroom PATH] [--photo JPEG] [--grid]

Makes a 12 MP HEIC once with heif-enc (Debian libheif-examples, quality 80) from a corpus photo
(default ../shared/corpus/j05_dragonfly_4224x3168.jpg, 13.4 MP), builds the HEIC module with
Plugins/HEIC/build.sh, then in each round runs, in turn, so both share the machine's state:

    darkroom   darkroom process IN.heic -p 'resize(400x400)' -o OUT.jpg --no-cache --plugins DIR
    vips       vips thumbnail IN.heic OUT.jpg 400             (vips 8.14 reads HEIC with libheif)

With --grid the HEIC is shaped as phones write it: a grid of 512×512 tiles (each encoded by
heif-enc at quality 80 from the photo, assembled by Tests/Fixtures/HEIF/make-heif-fixtures.py's
own box writer), so a decoder can decode tiles on several cores. Without it heif-enc writes one
HEVC image, which libde265 decodes on one thread.

Both decode through the same libheif and libde265; the table gives the median wall time, CPU time
(user + system) and peak RSS, and Darkroom's wall time as a fraction of vips' (the issue's target
is <= 0.7). Needs a release build of darkroom (swift build -c release --product darkroom).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

import bench_common

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def grid_heic(photo, destination, scratch, tile=512):
    """The photo as a grid HEIC of tile x tile HEVC tiles (the last row and column cropped by the
    grid's output size), as phones store photos."""
    import importlib.util
    path = os.path.join(ROOT, "Tests", "Fixtures", "HEIF", "make-heif-fixtures.py")
    spec = importlib.util.spec_from_file_location("heif_fixtures", path)
    fixtures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixtures)
    width, height = (int(v) for v in subprocess.run(
        ["vipsheader", "-f", "width", photo], capture_output=True, text=True, check=True).stdout.split() + subprocess.run(
        ["vipsheader", "-f", "height", photo], capture_output=True, text=True, check=True).stdout.split())
    columns, rows = -(-width // tile), -(-height // tile)
    padded = os.path.join(scratch, "padded.v")
    subprocess.run(["vips", "embed", photo, padded, "0", "0", str(columns * tile), str(rows * tile), "--extend", "copy"],
                   check=True, capture_output=True)
    tiles = []
    for index in range(rows * columns):
        row, column = divmod(index, columns)
        png, heic = os.path.join(scratch, f"tile{index}.png"), os.path.join(scratch, f"tile{index}.heic")
        subprocess.run(["vips", "crop", padded, png, str(column * tile), str(row * tile), str(tile), str(tile)],
                       check=True, capture_output=True)
        subprocess.run(["heif-enc", "-q", "80", "-o", heic, png], check=True, capture_output=True)
        coded, props = fixtures.lift_primary(heic)
        kept = [(props["hvcC"], True), (fixtures.ispe(tile, tile), False)]
        kept += [(props[kind], False) for kind in ("colr", "pixi") if kind in props]
        tiles.append(fixtures.Item(index + 2, "hvc1", coded, kept, hidden=True))
    grid = fixtures.Item(1, "grid", fixtures.grid_descriptor(rows, columns, width, height),
                         [(fixtures.ispe(width, height), False)], in_idat=True)
    data = fixtures.assemble("heic", [grid] + tiles, [("dimg", 1, [t.id for t in tiles])], primary=1)
    with open(destination, "wb") as f:
        f.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--darkroom", default=os.path.join(ROOT, ".build", "release", "darkroom"))
    parser.add_argument("--grid", action="store_true", help="a phone-shaped grid of 512x512 tiles")
    parser.add_argument("--photo", default=os.path.join(ROOT, "..", "shared", "corpus", "j05_dragonfly_4224x3168.jpg"))
    args = parser.parse_args()
    if not os.access(args.darkroom, os.X_OK):
        sys.exit(f"bench-heic: no darkroom at {args.darkroom}: swift build -c release --product darkroom")
    scratch = tempfile.mkdtemp(prefix="bench-heic-")
    plugins = os.path.join(scratch, "plugins")
    os.makedirs(plugins, mode=0o755)
    os.chmod(scratch, 0o755)
    subprocess.run([os.path.join(ROOT, "Plugins", "HEIC", "build.sh"), plugins], check=True, capture_output=True)
    source = os.path.join(scratch, "photo.heic")
    if args.grid:
        grid_heic(args.photo, source, scratch)
    else:
        subprocess.run(["heif-enc", "-q", "80", args.photo, "-o", source], check=True, capture_output=True)
    tools = {
        "darkroom": lambda dst: [args.darkroom, "process", source, "-p", "resize(400x400)", "-o", dst, "--no-cache", "--plugins", plugins],
        "vips": lambda dst: ["vips", "thumbnail", source, dst, "400"],
    }
    samples = {tool: [] for tool in tools}
    for _ in range(args.rounds):
        for tool, command in tools.items():
            samples[tool].append(bench_common.timed(command(os.path.join(scratch, f"{tool}.jpg")), scratch, "bench-heic"))
    median = {tool: [statistics.median(s[i] for s in samples[tool]) for i in range(3)] for tool in tools}
    shape = "a grid of 512x512 tiles" if args.grid else "one HEVC image"
    print(f"input: {source} ({os.path.getsize(source):,} bytes, {shape}) from {os.path.basename(args.photo)}")
    print(f"{'tool':<9} {'wall s':>7} {'cpu s':>7} {'rss MB':>7}  vs vips")
    for tool in tools:
        wall, cpu, rss = median[tool]
        print(f"{tool:<9} {wall:7.2f} {cpu:7.2f} {rss:7.0f}  {wall / median['vips'][0]:6.2f}×")
    print(f"median of {args.rounds} interleaved rounds; outputs in {scratch}")


if __name__ == "__main__":
    main()
