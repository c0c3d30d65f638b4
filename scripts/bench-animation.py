#!/usr/bin/env python3
"""Animated input to a 200 px animated WebP: Darkroom against libvips, interleaved.

    scripts/bench-animation.py INPUTS_DIR [--rounds N] [--darkroom PATH] [--baseline PATH]

INPUTS_DIR is what scripts/make-animated-inputs.py wrote (anim-disposal-60f-800x600.gif,
anim-pan-60f-800x600.gif and anim-alpha-40f-640x480.webp). Each round runs, for each input, in
turn:

    darkroom process IN -p "downsample(200x200)" -o OUT.webp --no-cache --json
    BASELINE process …  (the same, with --baseline: another build, e.g. the one before a change)
    vips thumbnail 'IN[n=-1]' OUT.webp 200

and the table gives the median wall time, CPU time and peak RSS (from /usr/bin/time), the
output size, the frame count, the ratio to vips' wall time and, for Darkroom, the median stage
times its `--json` record reports (decode, process, encode, in ms). Then the frame durations are
compared and the frames, composited over white (so the colour of invisible pixels does not
count), mean PSNR over the frames against vips':

    pipeline    both lossless (`--lossless`, `[lossless]`): what the decode, compositing and
                resampling agree to, with no encoder in between
    q75         both lossy at vips' default quality 75
    defaults    each at its own default (Darkroom 80, vips 75)

Needs Pillow for the comparison (`pip install Pillow`).
"""

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

import bench_common

INPUTS = ["anim-disposal-60f-800x600.gif", "anim-pan-60f-800x600.gif", "anim-alpha-40f-640x480.webp"]
STAGES = ["decode", "process", "encode"]




def frames(path):
    """Every frame composited over white as RGB bytes, and the durations."""
    from PIL import Image
    image = Image.open(path)
    result = []
    durations = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        result.append(Image.alpha_composite(white, rgba).convert("RGB").tobytes())
        durations.append(image.info.get("duration", 0))
    return result, durations


def psnr(a, b):
    error = sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)
    return 99.0 if error == 0 else 10 * math.log10(255 * 255 / error)


def mean_psnr(a, b):
    fa, _ = frames(a)
    fb, _ = frames(b)
    if len(fa) != len(fb):
        return float("nan")
    return statistics.mean(psnr(x, y) for x, y in zip(fa, fb))


def stage_medians(outputs):
    """The median of each stage's milliseconds over the `--json` records of a tool's runs; empty
    when a build's records carry no stage times (older builds print them elsewhere or not at all)."""
    records = [json.loads(output.strip().splitlines()[-1]).get("result", {}).get("ms") for output in outputs]
    if not all(records):
        return []
    return [statistics.median(record.get(stage) or 0 for record in records) for stage in STAGES]


def main():
    args = bench_common.arguments(__doc__, "bench-animation")
    out = tempfile.mkdtemp(prefix="bench-animation-")
    print(f"{'input':<30} {'tool':<9} {'wall s':>7} {'cpu s':>7} {'rss MB':>7} {'bytes':>9} {'frames':>7}  ratio  "
          f"{'/'.join(STAGES)} ms")
    binaries = {"darkroom": args.darkroom, **({"baseline": args.baseline} if args.baseline else {})}
    for name in INPUTS:
        source = os.path.join(args.inputs, name)
        if not os.path.exists(source):
            sys.exit(f"bench-animation: {source} is missing: run scripts/make-animated-inputs.py {args.inputs}")
        base = os.path.join(out, name.split(".")[0])

        def darkroom(binary, tool):
            return lambda suffix="", extra=(): [binary, "process", source, "-p", "downsample(200x200)",
                                                "-o", f"{base}-{tool}{suffix}.webp", "--no-cache", "--json", *extra]

        tools = {tool: darkroom(binary, tool) for tool, binary in binaries.items()}
        tools["vips"] = lambda suffix="", extra="": ["vips", "thumbnail", f"{source}[n=-1]", f"{base}-vips{suffix}.webp{extra}", "200"]
        samples = {tool: [] for tool in tools}
        outputs = {tool: [] for tool in tools}
        for _ in range(args.rounds):
            for tool, command in tools.items():
                samples[tool].append(bench_common.timed(command(), out, "bench-animation", outputs[tool]))
        medians = {tool: [statistics.median(s[i] for s in samples[tool]) for i in range(3)] for tool in tools}
        durations = {}
        for tool in tools:
            path = f"{base}-{tool}.webp"
            count_frames, durations[tool] = frames(path)
            wall, cpu, rss = medians[tool]
            stages = "/".join(f"{ms:.0f}" for ms in stage_medians(outputs[tool])) if tool in binaries else ""
            print(f"{name:<30} {tool:<9} {wall:7.2f} {cpu:7.2f} {rss:7.0f} {os.path.getsize(path):9,} {len(count_frames):7}"
                  f"  {wall / medians['vips'][0]:.2f}×  {stages}")
        same_timing = "same" if durations["darkroom"] == durations["vips"] else f"DIFFER {durations}"
        # The extra outputs for the comparisons (not timed).
        subprocess.run(tools["darkroom"]("-lossless", ("--lossless",)), check=True, capture_output=True)
        subprocess.run(tools["vips"]("-lossless", "[lossless]"), check=True, capture_output=True)
        subprocess.run(tools["darkroom"]("-q75", ("--quality", "75")), check=True, capture_output=True)
        print(f"{'':<30} durations: {same_timing}; PSNR per frame against vips, over white:"
              f" pipeline {mean_psnr(f'{base}-darkroom-lossless.webp', f'{base}-vips-lossless.webp'):.1f} dB,"
              f" q75 {mean_psnr(f'{base}-darkroom-q75.webp', f'{base}-vips.webp'):.1f} dB,"
              f" defaults {mean_psnr(f'{base}-darkroom.webp', f'{base}-vips.webp'):.1f} dB")
        if "baseline" in tools:
            same = open(f"{base}-darkroom.webp", "rb").read() == open(f"{base}-baseline.webp", "rb").read()
            print(f"{'':<30} darkroom and baseline outputs: {'identical bytes' if same else 'DIFFERENT bytes'}")
    print(f"median of {args.rounds} interleaved rounds; outputs in {out}")


if __name__ == "__main__":
    main()
