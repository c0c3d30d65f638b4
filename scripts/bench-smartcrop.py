#!/usr/bin/env python3
"""Where smartCrop(attention) puts its window, against `vips smartcrop --interesting attention`.

For each corpus photo (W×H) and each window shape (1:1 and 16:9), the window is 60 % of the
largest of that shape that fits the photo. Both tools are given the same image: the photo scaled
by `vips resize` so that it just covers the window (what smartCrop does first, and what
`vipsthumbnail --smartcrop` does), written as PNG. On it the window slides along one axis only.

- vips: `vips smartcrop S.png out.png w h --interesting attention`.
- Darkroom: `darkroom process S.png -p 'smartCrop(wxh)' --format png`. The image already has the
  covering size, so smartCrop copies the window's pixels without resampling (see
  docs/chains-and-processors.md), exactly as vips' crop does.

Neither tool reports its window, so the script finds each output in S: the offset along the
sliding axis where the output's pixels equal S's (the smallest mean absolute difference over
eight lines across the window; it is 0 for an exact copy, and the script says so when it is not). It prints each window's IoU with vips'
and the centre crop's, then the means. The issue's target: mean IoU >= 0.7 and >= 0.15 above the
centre crop's.

`time` mode: `darkroom process` of every corpus JPEG with `smartCrop(400x400)` (one process, JPEG
q80 out) against `vipsthumbnail --size 400x400 --smartcrop attention` of the same files (one
process, JPEG q80 out), in interleaved rounds (`--rounds`, default 5, after one warm-up round);
it prints each tool's median wall seconds and Darkroom's ratio. The issue's target: <= 0.6x vips.

Usage: scripts/bench-smartcrop.py [iou|time] [--corpus ../shared/corpus] [--darkroom .build/release/darkroom]
       [--rounds 5]
Needs vips, numpy and Pillow (~/.cache/darkroom-bench-venv/bin/python has both), a release build.
"""

import argparse
import glob
import os
import subprocess
import sys
import statistics
import tempfile
import time

try:
    import numpy as np
    from PIL import Image
except ImportError:
    sys.exit("bench-smartcrop: needs numpy and Pillow (~/.cache/darkroom-bench-venv/bin/python)")

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = {"1:1": (1, 1), "16:9": (16, 9)}


def largest_fitting(width, height, shape):
    """The largest window of aspect `shape` inside width×height."""
    aw, ah = shape
    scale = min(width / aw, height / ah)
    return aw * scale, ah * scale


def locate(output, scaled):
    """(x, y) of `output` inside `scaled`, which it spans on one axis, and the mean absolute
    difference there (0 for an exact copy). Searched along the other axis on eight evenly spaced
    lines across the window, so the search costs one pass over those lines per offset."""
    if output.shape[0] != scaled.shape[0]:
        if output.shape[1] != scaled.shape[1]:
            sys.exit(f"bench-smartcrop: a {output.shape[1]}x{output.shape[0]} output spans neither side of {scaled.shape[1]}x{scaled.shape[0]}")
        y, x, diff = locate(output.transpose(1, 0, 2), scaled.transpose(1, 0, 2))
        return x, y, diff
    oh, ow = output.shape[:2]
    lines = [round(i * (oh - 1) / 7) for i in range(8)]
    want = output[lines].astype(np.int16)
    have = scaled[lines].astype(np.int16)
    best = None
    for x in range(scaled.shape[1] - ow + 1):
        diff = np.abs(have[:, x:x + ow] - want).mean()
        if best is None or diff < best[2]:
            best = (x, 0, diff)
    return best


def iou(a, b, w, h):
    ix = max(0, min(a[0], b[0]) + w - max(a[0], b[0]))
    iy = max(0, min(a[1], b[1]) + h - max(a[1], b[1]))
    inter = ix * iy
    return inter / (2 * w * h - inter)


def rgb(path):
    return np.asarray(Image.open(path).convert("RGB"))


def measure_time(args, photos):
    """Interleaved rounds of the whole corpus through both tools; median wall seconds of each."""
    with tempfile.TemporaryDirectory() as scratch:
        darkroom_out, vips_out = os.path.join(scratch, "d"), os.path.join(scratch, "v")
        os.makedirs(vips_out)
        variants = {
            "darkroom": [args.darkroom, "process", *photos, "-p", "smartCrop(400x400)", "--format", "jpeg",
                         "--quality", "80", "--out", darkroom_out],
            "vips": ["vipsthumbnail", *photos, "--size", "400x400", "--smartcrop", "attention",
                     "-o", os.path.join(vips_out, "%s.jpg[Q=80]")],
        }
        walls = {name: [] for name in variants}
        for round_ in range(args.rounds + 1):
            for name, command in variants.items():
                start = time.monotonic()
                subprocess.run(command, check=True, capture_output=True)
                if round_ > 0:  # the first round warms the page cache and is not counted
                    walls[name].append(time.monotonic() - start)
        medians = {name: statistics.median(values) for name, values in walls.items()}
        print(f"smartCrop(400x400) on {len(photos)} JPEGs, median of {args.rounds} rounds (wall s), "
              f"load average {os.getloadavg()[0]:.2f}:")
        for name, value in medians.items():
            print(f"  {name}: {value:.3f}  (darkroom/{name} {medians['darkroom'] / value:.2f}x)")
        print("target: darkroom <= 0.6x vips")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", nargs="?", choices=["iou", "time"], default="iou")
    parser.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "corpus"))
    parser.add_argument("--darkroom", default=os.path.join(HERE, "..", ".build", "release", "darkroom"))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    photos = sorted(glob.glob(os.path.join(args.corpus, "*.jpg")))
    if not photos:
        sys.exit(f"bench-smartcrop: no corpus photos (*.jpg) in {os.path.abspath(args.corpus)}")
    if not os.access(args.darkroom, os.X_OK):
        sys.exit(f"bench-smartcrop: no darkroom binary at {args.darkroom} (swift build -c release)")
    if args.mode == "time":
        measure_time(args, photos)
        return

    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for photo in photos:
            width, height = Image.open(photo).size
            for label, shape in SHAPES.items():
                fw, fh = largest_fitting(width, height, shape)
                w, h = max(1, round(0.6 * fw)), max(1, round(0.6 * fh))
                scale = max(w / width, h / height)
                scaled_path = os.path.join(scratch, "scaled.png")
                subprocess.run(["vips", "resize", photo, scaled_path, f"{scale:.9f}"], check=True, capture_output=True)
                scaled = rgb(scaled_path)
                sh, sw = scaled.shape[:2]
                # vips' rounding may leave the covering side a pixel off: the window spans it exactly.
                if sw * h >= sh * w:
                    w, h = min(w, sw), sh
                else:
                    w, h = sw, min(h, sh)

                vips_out = os.path.join(scratch, "vips.png")
                subprocess.run(
                    ["vips", "smartcrop", scaled_path, vips_out, str(w), str(h), "--interesting", "attention"],
                    check=True, capture_output=True)
                out_dir = os.path.join(scratch, "darkroom")
                os.makedirs(out_dir, exist_ok=True)
                for old in glob.glob(os.path.join(out_dir, "*")):
                    os.remove(old)
                subprocess.run(
                    [args.darkroom, "process", scaled_path, "-p", f"smartCrop({w}x{h})", "--format", "png", "--out", out_dir],
                    check=True, capture_output=True)
                produced = glob.glob(os.path.join(out_dir, "*"))
                if len(produced) != 1:
                    sys.exit(f"bench-smartcrop: expected one output in {out_dir}, found {produced}")

                vx, vy, vdiff = locate(rgb(vips_out), scaled)
                dx, dy, ddiff = locate(rgb(produced[0]), scaled)
                centre = (round((sw - w) / 2), round((sh - h) / 2))
                if vdiff > 0 or ddiff > 0:
                    print(f"  note: {os.path.basename(photo)} {label}: not an exact copy (vips {vdiff:.2f}, darkroom {ddiff:.2f})")
                row = (os.path.basename(photo), label, iou((dx, dy), (vx, vy), w, h), iou(centre, (vx, vy), w, h))
                rows.append(row)
                print(f"{row[0]:34} {label:5} window {w}x{h} in {sw}x{sh}: vips ({vx},{vy}) darkroom ({dx},{dy}) "
                      f"IoU {row[2]:.3f}, centre IoU {row[3]:.3f}")

    for label in SHAPES:
        chosen = [r for r in rows if r[1] == label]
        print(f"mean {label}: smartCrop(attention) IoU {np.mean([r[2] for r in chosen]):.3f}, "
              f"centre crop IoU {np.mean([r[3] for r in chosen]):.3f}")
    print(f"mean all: smartCrop(attention) IoU {np.mean([r[2] for r in rows]):.3f}, "
          f"centre crop IoU {np.mean([r[3] for r in rows]):.3f} (target >= 0.7 and >= 0.15 above centre)")


if __name__ == "__main__":
    main()
