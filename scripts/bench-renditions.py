#!/usr/bin/env python3
"""Renditions: 4 sizes of each source from one decode, against the same outputs as separate jobs.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    ~/.cache/darkroom-bench-venv/bin/python scripts/bench-renditions.py [--darkroom PATH] [--corpus DIR]
        [--rounds 5] [--baseline PATH]

Run it with an interpreter that has Pillow (the venv above; numpy, when there, makes the PSNRs
fast): without Pillow the pillow variant is skipped and says so.

For the JPEGs of ../shared/corpus (NOT in this repository: the script says so and exits 2 when it
is missing), makes 2048, 1024, 512 and 256 px boxes as WebP q80, interleaved in each round:
  - renditions: one `darkroom run` with four --rendition options (one decode per source);
  - separate:   one `darkroom run --from FILE` with the 4 × N single-output jobs;
  - vips:       `vipsthumbnail` once per size and source (each decodes on its own);
  - pillow:     a Pillow script that decodes once with draft() for the largest size and resizes down
                (skipped when Pillow is missing);
  - baseline:   with --baseline PATH, the renditions variant run by another darkroom binary (an
                older build, to compare the two).
Prints median wall and CPU seconds of each and the ratios; then, from one `run --json` of each
darkroom variant, the decode milliseconds the separate jobs spent on the three smaller sizes (the
CPU renditions aim to save). Then PSNRs, per size (mean, minimum, how many identical):
  - the "no visible difference" rule: the renditions against the same sizes made alone, both
    written losslessly (PNG, one untimed run each), so only the derivation differs; the rule is a
    mean of at least 40 dB per size (RULE_MEAN), and the script says whether each size meets it
    and names the sources below 38 dB (RULE_LOW);
  - both lossless runs against vips' lossless (PNG) thumbnails, and vips' own WebP q80 against
    them (the encoding's noise at each size);
  - the WebP q80 outputs of the timed runs: renditions against the separate jobs, against vips and
    against Pillow, and the separate jobs against vips (what a single job gives, apart from
    renditions).
"""

import argparse
import glob
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SIZES = [2048, 1024, 512, 256]
RULE_MEAN, RULE_LOW = 40.0, 38.0
PILLOW = r"""
import sys
from PIL import Image
out, sizes, files = sys.argv[1], [int(s) for s in sys.argv[2].split(",")], sys.argv[3:]
for path in files:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    with Image.open(path) as image:
        image.draft("RGB", (max(sizes), max(sizes)))
        image = image.convert("RGB")
        for size in sizes:
            copy = image.copy()
            copy.thumbnail((size, size), Image.LANCZOS)
            copy.save(f"{out}/{stem}-s{size}.webp", quality=80)
"""


DECODE_CPU = r"""
import sys, time
from PIL import Image
rounds, jobs = int(sys.argv[1]), sys.argv[2:]
total = 0.0
for job in jobs:
    path, width, height = job.rsplit(":", 2)
    best = None
    for _ in range(rounds):
        start = time.process_time()
        with Image.open(path) as image:
            image.draft("RGB", (int(width), int(height)))
            image.load()
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    total += best
print(total)
"""


def jpeg_scaled_size(width, height, box):
    """The size Darkroom's JPEG decoder decodes a width×height JPEG at for downsample(box×box):
    the smallest DCT scale (1/8, 1/4, 1/2) with both sides at least 1.5× the fitted target
    (`JPEGShrinkOnLoad.headroom`), else full size."""
    scale = min(box / width, box / height, 1.0)
    target = (math.ceil(width * scale), math.ceil(height * scale))
    for n in (8, 4, 2):
        size = (-(-width // n), -(-height // n))
        if size[0] >= target[0] * 1.5 and size[1] >= target[1] * 1.5:
            return size
    return (width, height)


def timed(cmd, stdout=subprocess.DEVNULL):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    out = proc.stdout.read() if stdout == subprocess.PIPE else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(cmd[:3])} failed (status {status}): {proc.stderr.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, out


def pixels(path):
    """(width, height, RGB bytes) of an image: through Pillow when it is there, else `vips copy` to PPM."""
    try:
        from PIL import Image
        with Image.open(path) as image:
            image = image.convert("RGB")
            return image.size[0], image.size[1], image.tobytes()
    except ImportError:
        ppm = path + ".ppm"
        subprocess.run(["vips", "copy", path, ppm], check=True, capture_output=True)
        data = open(ppm, "rb").read()
        os.remove(ppm)
        # P6, width, height, maxval, then one whitespace byte and the samples.
        fields, offset = [], 0
        while len(fields) < 4:
            while data[offset:offset + 1].isspace():
                offset += 1
            if data[offset:offset + 1] == b"#":  # a comment (vips writes one) runs to the end of its line
                offset = data.index(b"\n", offset)
                continue
            start = offset
            while not data[offset:offset + 1].isspace():
                offset += 1
            fields.append(data[start:offset])
        return int(fields[1]), int(fields[2]), data[offset + 1:]


def psnr(a, b):
    """PSNR of two images of one size over RGB, in dB; None when the sizes differ."""
    width, height, first = pixels(a)
    other_width, other_height, second = pixels(b)
    if (width, height) != (other_width, other_height):
        return None
    try:
        import numpy
        difference = numpy.frombuffer(first, numpy.uint8).astype(numpy.int32) - numpy.frombuffer(second, numpy.uint8)
        mse = float(numpy.mean(difference * difference))
    except ImportError:
        mse = sum((x - y) * (x - y) for x, y in zip(first, second)) / len(first)
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def psnr_line(files, work, left, right, size, ext, right_ext=None):
    """`mean, min, identical` of the PSNRs of left's and right's outputs of one size, and the finite
    values by source stem."""
    values = {}
    for path in files:
        stem = os.path.basename(path).rsplit(".", 1)[0]
        value = psnr(os.path.join(work, left, f"{stem}-s{size}.{ext}"),
                     os.path.join(work, right, f"{stem}-s{size}.{right_ext or ext}"))
        if value is not None:
            values[stem] = value
    finite = {stem: v for stem, v in values.items() if v != math.inf}
    if not finite:
        return f"identical ({len(values)} of {len(values)})", finite
    return (f"mean {statistics.mean(finite.values()):.2f} dB, min {min(finite.values()):.2f} dB "
            f"({len(values) - len(finite)} of {len(values)} identical)"), finite


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", help="another darkroom binary whose renditions run is timed too")
    args = parser.parse_args()
    darkroom = os.path.abspath(args.darkroom)
    if not os.access(darkroom, os.X_OK):
        print(f"no darkroom binary at {darkroom}; run `swift build -c release --product darkroom`", file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(args.corpus, "*.jpg")))
    if not files:
        print(f"*** NO CORPUS: no JPEG in {os.path.abspath(args.corpus)}; pass --corpus DIR. ***", file=sys.stderr)
        return 2
    has_pillow = subprocess.run([sys.executable, "-c", "import PIL"], capture_output=True).returncode == 0
    if not has_pillow:
        print(f"no Pillow for {sys.executable}: the pillow variant is skipped "
              "(run with ~/.cache/darkroom-bench-venv/bin/python)", file=sys.stderr)
    baseline = os.path.abspath(args.baseline) if args.baseline else None

    work = tempfile.mkdtemp(prefix="darkroom-bench-renditions-")
    joblist = os.path.join(work, "jobs.jsonl")
    with open(joblist, "w") as out:
        for path in files:
            for size in SIZES:
                out.write(json.dumps({"source": path, "chain": f"downsample({size}x{size})",
                                      "name": f"{{stem}}-s{size}.{{ext}}"}) + "\n")
    renditions = [f"--rendition=s{size}=downsample({size}x{size})" for size in SIZES]
    common = ["--format", "webp", "--quality", "80", "--no-cache"]

    def fresh(name):
        path = os.path.join(work, name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    variants = {
        "renditions": lambda: [darkroom, "run", *files, *renditions, "--out", fresh("renditions"), *common],
        "separate": lambda: [darkroom, "run", "--from", joblist, "--out", fresh("separate"), *common],
        "vips": None,
        "pillow": (lambda: [sys.executable, "-c", PILLOW, fresh("pillow"), ",".join(map(str, SIZES)), *files]) if has_pillow else None,
        "baseline": (lambda: [baseline, "run", *files, *renditions, "--out", fresh("baseline"), *common]) if baseline else None,
    }
    results = {name: [] for name, make in variants.items() if make is not None or name == "vips"}
    # Every round's figures, for the spread behind the medians.
    def spread(runs):
        return " ".join(f"{wall:.2f}/{cpu:.2f}" for wall, cpu in runs)
    try:
        for round_index in range(args.rounds):
            order = list(results)
            order = order[round_index % len(order):] + order[:round_index % len(order)]
            for name in order:
                if name == "vips":
                    out = fresh("vips")
                    wall = cpu = 0.0
                    for path in files:
                        stem = os.path.basename(path).rsplit(".", 1)[0]
                        for size in SIZES:
                            w, c, _ = timed(["vipsthumbnail", path, "--size", str(size), "-o",
                                             os.path.join(out, f"{stem}-s{size}.webp[Q=80,strip]")])
                            wall += w
                            cpu += c
                    results[name].append((wall, cpu))
                else:
                    wall, cpu, _ = timed(variants[name]())
                    results[name].append((wall, cpu))
        print(f"{len(files)} sources × {len(SIZES)} sizes, {args.rounds} rounds (median wall s, median CPU s):")
        medians = {name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)) for name, runs in results.items()}
        for name, (wall, cpu) in medians.items():
            print(f"  {name:<11} wall {wall:7.3f}  cpu {cpu:7.3f}  wall/renditions {wall / medians['renditions'][0]:5.2f}"
                  f"  (rounds, wall/cpu: {spread(results[name])})")

        # Decode time the separate jobs spend on the three smaller sizes, from their records.
        _, _, text = timed([darkroom, "run", "--from", joblist, "--out", fresh("separate"), "--json", *common], stdout=subprocess.PIPE)
        small_decode = sum(r["result"]["ms"].get("decode", 0) for r in map(json.loads, text.decode().splitlines())
                           if r.get("result") and "s2048" not in r["result"]["output"])
        _, _, text = timed([darkroom, "run", *files, *renditions, "--out", fresh("renditions"), "--json", *common], stdout=subprocess.PIPE)
        saved = (medians['separate'][1] - medians['renditions'][1]) * 1000
        print(f"  CPU saved by renditions (separate - renditions, medians): {saved:.0f} ms")
        print(f"  decode ms the separate jobs spent on 1024/512/256 (their stage times, wall clock: "
              f"inflated on a loaded machine): {small_decode:.0f}; saved = {saved / max(small_decode, 1e-9) * 100:.0f} % of it")
        if has_pillow:
            # The same decodes' CPU, at the scales Darkroom's decoder picks, with libjpeg-turbo
            # through Pillow (best of 3 each): not inflated by waiting for a core.
            from PIL import Image
            jobs = []
            for path in files:
                with Image.open(path) as image:
                    width, height = image.size
                for size in SIZES[1:]:
                    scaled = jpeg_scaled_size(width, height, size)
                    jobs.append(f"{path}:{scaled[0]}:{scaled[1]}")
            decode_cpu = float(subprocess.run([sys.executable, "-c", DECODE_CPU, "3", *jobs], check=True,
                                              capture_output=True, text=True).stdout) * 1000
            print(f"  decode CPU of those 27 decodes (libjpeg-turbo via Pillow, at Darkroom's scales): {decode_cpu:.0f} ms; "
                  f"saved = {saved / decode_cpu * 100:.0f} % of it (target 90 %)")

        # The rule: renditions against the sizes made alone, both lossless, so only the derivation differs.
        lossless = ["--format", "png", "--no-cache"]
        timed([darkroom, "run", *files, *renditions, "--out", fresh("renditions-png"), *lossless])
        timed([darkroom, "run", "--from", joblist, "--out", fresh("separate-png"), *lossless])
        print(f"  no-visible-difference rule (lossless, renditions vs made alone): mean >= {RULE_MEAN:.0f} dB per size")
        for size in SIZES:
            line, finite = psnr_line(files, work, "renditions-png", "separate-png", size, "png")
            verdict = "meets" if not finite or statistics.mean(finite.values()) >= RULE_MEAN else "MISSES"
            low = ", ".join(f"{stem} {v:.2f} dB" for stem, v in sorted(finite.items()) if v < RULE_LOW)
            print(f"    {size:>4}: {line}: {verdict} the rule" + (f"; below {RULE_LOW:.0f} dB: {low}" if low else ""))
        # Against vips without the encoders: its lossless thumbnails against Darkroom's PNGs, and
        # how far its own q80 WebP is from them (the encoding's noise, which bounds WebP-vs-WebP PSNR).
        out = fresh("vips-png")
        for path in files:
            stem = os.path.basename(path).rsplit(".", 1)[0]
            for size in SIZES:
                timed(["vipsthumbnail", path, "--size", str(size), "-o", os.path.join(out, f"{stem}-s{size}.png[strip]")])
        for size in SIZES:
            for left in ["separate-png", "renditions-png"]:
                line, _ = psnr_line(files, work, left, "vips-png", size, "png")
                print(f"  PSNR {left} vs vips' lossless at {size}: {line}")
            line, _ = psnr_line(files, work, "vips", "vips-png", size, "webp", "png")
            print(f"  PSNR vips' WebP q80 vs its own lossless at {size}: {line}")
        pairs = [("renditions", "separate"), ("renditions", "vips"), ("separate", "vips")]
        if has_pillow:
            pairs.append(("renditions", "pillow"))
        for left, right in pairs:
            for size in SIZES:
                line, _ = psnr_line(files, work, left, right, size, "webp")
                print(f"  PSNR {left} vs {right} at {size} (WebP q80): {line}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
