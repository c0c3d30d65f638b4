#!/usr/bin/env python3
"""JPEG to 800 px AVIF: Darkroom against libvips over a quality sweep, interleaved, with BD-rate.

    scripts/bench-avif.py [CORPUS_DIR] [--rounds N] [--darkroom PATH] [--qualities 30,45,60,75,90]
                          [--avif-speed S] [--avifenc ARGS]

CORPUS_DIR (default ../shared/corpus) holds the JPEGs (every `*.jpg`). Each round runs, for each
JPEG and quality Q, in turn (the order of the two tools alternates between rounds):

    darkroom process IN -p "downsample(800x800)" -o OUT.avif --quality Q --no-cache
    vips thumbnail IN 'OUT.avif[strip,Q=Q]' 800        (strip: vips keeps EXIF otherwise)

Each tool's output is compared with its own lossless 800 px thumbnail (Darkroom: the same chain to
PNG; vips: `vips thumbnail IN REF.png 800`), so the figure measures the AVIF encoder, not the two
resamplers' differences. Both AVIFs are decoded with `avifdec`. Reported per tool and quality: mean
bytes, mean PSNR, median wall and CPU time per image (from /usr/bin/time); then the Bjøntegaard
delta rate of Darkroom against vips (cubic fit of log-rate against PSNR over the overlapping PSNR
range; negative = Darkroom needs fewer bytes for the same PSNR) and the ratio of wall times.

`--avif-speed S` passes that speed to Darkroom. `--avifenc ARGS` measures an encoder setting
Darkroom has no option for: Darkroom's AVIFs are replaced by `avifenc ARGS REF.png OUT.avif` of
Darkroom's own lossless thumbnail (the same libavif and aom, so the same bytes for the same
settings), where ARGS may hold `{q}` (the quantizer Darkroom maps Q to) and `{yuv}` (444 from Q 90
up, else 420, as Darkroom chooses). For instance Darkroom's defaults are
`--avifenc '-s 6 -y {yuv} -r full --cicp 1/13/6 --min {q} --max {q}'`, and `-a tune=psnr` adds an
aom option. Its times are avifenc's (one thread) from the PNG, not a whole thumbnail's.

Needs numpy, vips, avifdec and avifenc (Debian libavif-bin) and a release build of darkroom.
"""

import argparse
import glob
import math
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

import bench_common


def pixels(path, scratch):
    """The image's RGB bytes as a float array (an AVIF through avifdec, then vips)."""
    if path.endswith(".avif"):
        png = os.path.join(scratch, "decoded.png")
        subprocess.run(["avifdec", path, png], check=True, capture_output=True)
        path = png
    raw = os.path.join(scratch, "pixels.raw")
    flat = os.path.join(scratch, "flat.v")
    srgb = os.path.join(scratch, "srgb.v")
    bands = int(subprocess.run(["vipsheader", "-f", "bands", path], capture_output=True, text=True, check=True).stdout)
    # vips flatten takes the last band for alpha: only images with alpha (2 or 4 bands) are flattened.
    if bands in (2, 4):
        subprocess.run(["vips", "flatten", path, flat, "--background", "255"], check=True, capture_output=True)
    else:
        subprocess.run(["vips", "copy", path, flat], check=True, capture_output=True)
    # A grey source's PNG reference has one band and its AVIF decodes to three: compare in sRGB.
    subprocess.run(["vips", "colourspace", flat, srgb, "srgb"], check=True, capture_output=True)
    subprocess.run(["vips", "rawsave", srgb, raw], check=True, capture_output=True)
    return np.fromfile(raw, dtype=np.uint8).astype(np.float64)


def psnr(a, b):
    if a.shape != b.shape:
        sys.exit(f"bench-avif: sizes differ ({a.shape} and {b.shape})")
    mse = float(((a - b) ** 2).mean())
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def bd_rate(reference, test):
    """Bjøntegaard delta rate (%) of `test` against `reference`, each a list of (bytes, psnr)."""
    def fit(points):
        rates = np.log([p[0] for p in points])
        quality = np.array([p[1] for p in points])
        return np.polyfit(quality, rates, 3), quality.min(), quality.max()
    ref_fit, ref_lo, ref_hi = fit(reference)
    test_fit, test_lo, test_hi = fit(test)
    low, high = max(ref_lo, test_lo), min(ref_hi, test_hi)
    if high <= low:
        return float("nan")
    integral = lambda coeffs: np.polyval(np.polyint(coeffs), high) - np.polyval(np.polyint(coeffs), low)
    average = (integral(test_fit) - integral(ref_fit)) / (high - low)
    return (math.exp(average) - 1) * 100


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("corpus", nargs="?", default=os.path.join(root, "..", "shared", "corpus"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--darkroom", default=os.path.join(root, ".build", "release", "darkroom"))
    parser.add_argument("--qualities", default="30,45,60,75,90")
    parser.add_argument("--avif-speed", type=int, help="Darkroom's --avif-speed (default: its own)")
    parser.add_argument("--avifenc", help="encode Darkroom's PNG thumbnail with avifenc and these arguments instead")
    args = parser.parse_args()
    qualities = [int(q) for q in args.qualities.split(",")]
    inputs = sorted(glob.glob(os.path.join(args.corpus, "*.jpg")))
    if not inputs or not os.path.exists(args.darkroom):
        sys.exit("bench-avif: needs the corpus JPEGs and a release darkroom (swift build -c release)")
    scratch = tempfile.mkdtemp(prefix="bench-avif-")

    def darkroom(source, out, quality=None):
        extra = ["--quality", str(quality)] if quality else []
        if quality and args.avif_speed is not None:
            extra += ["--avif-speed", str(args.avif_speed)]
        if quality and args.avifenc:
            stem = os.path.splitext(os.path.basename(source))[0]
            quantizer = ((100 - quality) * 63 + 50) // 100
            yuv = "444" if quality >= 90 else "420"
            options = args.avifenc.replace("{q}", str(quantizer)).replace("{yuv}", yuv).split()
            return ["avifenc", "-j", "1"] + options + [os.path.join(scratch, f"{stem}-darkroom-ref.png"), out]
        return [args.darkroom, "process", source, "-p", "downsample(800x800)", "-o", out,
                "--no-cache"] + extra

    def vips(source, out):
        return ["vips", "thumbnail", source, out, "800"]

    references = {}
    for source in inputs:
        stem = os.path.splitext(os.path.basename(source))[0]
        for tool, command in (("darkroom", darkroom), ("vips", vips)):
            ref = os.path.join(scratch, f"{stem}-{tool}-ref.png")
            bench_common.timed(command(source, ref), scratch, "bench-avif")
            references[(tool, stem)] = pixels(ref, scratch)

    times = {}
    results = {}
    for round_index in range(args.rounds):
        tools = ["darkroom", "vips"] if round_index % 2 == 0 else ["vips", "darkroom"]
        for source in inputs:
            stem = os.path.splitext(os.path.basename(source))[0]
            for quality in qualities:
                for tool in tools:
                    out = os.path.join(scratch, f"{stem}-{tool}-q{quality}.avif")
                    command = (darkroom(source, out, quality) if tool == "darkroom"
                               else vips(source, f"{out}[strip,Q={quality}]"))
                    wall, cpu, _ = bench_common.timed(command, scratch, "bench-avif")
                    times.setdefault((tool, quality), []).append((wall, cpu))
                    if round_index == 0:
                        size = os.path.getsize(out)
                        results.setdefault((tool, quality), []).append(
                            (size, psnr(pixels(out, scratch), references[(tool, stem)])))

    variant = f" (Darkroom's AVIFs: avifenc {args.avifenc})" if args.avifenc else (
        f" (Darkroom at --avif-speed {args.avif_speed})" if args.avif_speed is not None else "")
    print(f"{len(inputs)} JPEGs → 800 px AVIF{variant}, median of {args.rounds} interleaved rounds; outputs in {scratch}\n")
    print("| tool | Q | mean bytes | mean PSNR | wall/image | CPU/image |")
    print("|---|---:|---:|---:|---:|---:|")
    curves = {}
    for tool in ("darkroom", "vips"):
        for quality in qualities:
            rows = results[(tool, quality)]
            size = statistics.mean(r[0] for r in rows)
            quality_db = statistics.mean(r[1] for r in rows)
            wall = statistics.median(t[0] for t in times[(tool, quality)])
            cpu = statistics.median(t[1] for t in times[(tool, quality)])
            curves.setdefault(tool, []).append((size, quality_db))
            print(f"| {tool} | {quality} | {size:,.0f} | {quality_db:.2f} dB | {wall * 1000:.0f} ms | {cpu * 1000:.0f} ms |")
    wall_ratio = (statistics.mean(statistics.median(t[0] for t in times[("darkroom", q)]) for q in qualities)
                  / statistics.mean(statistics.median(t[0] for t in times[("vips", q)]) for q in qualities))
    print(f"\nBD-rate of Darkroom against vips: {bd_rate(curves['vips'], curves['darkroom']):+.1f} % "
          f"(target ≤ 0 %); wall time {wall_ratio:.2f}× vips' (target ≤ 0.5×)")


if __name__ == "__main__":
    main()
