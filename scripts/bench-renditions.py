#!/usr/bin/env python3
"""Renditions: 4 sizes of each source from one decode, against the same outputs as separate jobs.

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-renditions.py [--darkroom PATH] [--corpus DIR] [--rounds 5]

For the JPEGs of ../shared/corpus (NOT in this repository: the script says so and exits 2 when it
is missing), makes 2048, 1024, 512 and 256 px boxes as WebP q80, interleaved in each round:
  - renditions: one `darkroom run` with four --rendition options (one decode per source);
  - separate:   one `darkroom run --from FILE` with the 4 × N single-output jobs;
  - vips:       `vipsthumbnail` once per size and source (each decodes on its own);
  - pillow:     a Pillow script that decodes once with draft() for the largest size and resizes down
                (skipped when Pillow is missing).
Prints median wall and CPU seconds of each and the ratios; then, from one `run --json` of each
darkroom variant, the decode milliseconds the separate jobs spent on the three smaller sizes (the
CPU renditions aim to save), and the mean PSNR of each rendition size against the same size made alone (the separate jobs) and
against vips' output.
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
    mse = sum((x - y) * (x - y) for x, y in zip(first, second)) / len(first)
    return math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--rounds", type=int, default=5)
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
    }
    results = {name: [] for name, make in variants.items() if make is not None or name == "vips"}
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
            print(f"  {name:<11} wall {wall:7.3f}  cpu {cpu:7.3f}  wall/renditions {wall / medians['renditions'][0]:5.2f}")

        # Decode time the separate jobs spend on the three smaller sizes, from their records.
        _, _, text = timed([darkroom, "run", "--from", joblist, "--out", fresh("separate"), "--json", *common], stdout=subprocess.PIPE)
        small_decode = sum(r["result"]["ms"].get("decode", 0) for r in map(json.loads, text.decode().splitlines())
                           if r.get("result") and "s2048" not in r["result"]["output"])
        _, _, text = timed([darkroom, "run", *files, *renditions, "--out", fresh("renditions"), "--json", *common], stdout=subprocess.PIPE)
        print(f"  decode ms the separate jobs spent on 1024/512/256: {small_decode:.0f}; "
              f"CPU saved by renditions: {(medians['separate'][1] - medians['renditions'][1]) * 1000:.0f} ms "
              f"({(medians['separate'][1] - medians['renditions'][1]) * 1000 / max(small_decode, 1e-9) * 100:.0f} % of it)")
        for other in ["separate", "vips"]:
            for size in SIZES:
                values = []
                for path in files:
                    stem = os.path.basename(path).rsplit(".", 1)[0]
                    value = psnr(os.path.join(work, "renditions", f"{stem}-s{size}.webp"), os.path.join(work, other, f"{stem}-s{size}.webp"))
                    if value is not None:
                        values.append(value)
                if values:
                    finite = [v for v in values if v != math.inf]
                    shown = f"mean {statistics.mean(finite):.2f} dB" if finite else "identical"
                    print(f"  PSNR renditions vs {other} at {size}: {shown} ({len(values) - len(finite)} of {len(values)} identical)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
