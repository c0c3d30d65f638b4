#!/usr/bin/env python3
"""PNG encoding of large images: Darkroom against libvips and Pillow, interleaved.

    scripts/bench-png-encode.py INPUTS_DIR [--rounds N] [--darkroom PATH]

INPUTS_DIR is what scripts/make-animated-inputs.py wrote: photo-4000x3000.png and
screenshot-4000x3000.png. Each round re-encodes each image once with every tool, in turn, so
the tools share the machine's state; the table gives the median wall time, CPU time (user +
system), peak RSS and output size, and checks that every output decodes to the same pixels as
the input (PNG is lossless, so a difference is a bug).

    darkroom   darkroom process IN -o OUT.png --no-cache   (the whole job: decode and encode)
    vips       vips copy IN OUT.png                         (libvips' defaults: zlib 6, no filter)
    vips-all   vips copy IN 'OUT.png[filter=all]'           (libvips filtering as Pillow does)
    pillow     Image.open(IN).save(OUT)                     (Pillow's defaults: zlib 6, filtered)
"""

import os
import statistics
import subprocess
import sys
import tempfile

import bench_common
import time

IMAGES = ["photo-4000x3000.png", "screenshot-4000x3000.png"]




def same_pixels(a, b):
    """Whether two images decode to the same RGBA pixels (checked in a child, after timing)."""
    check = "import sys; from PIL import Image; sys.exit(Image.open(sys.argv[1]).convert('RGBA').tobytes() != Image.open(sys.argv[2]).convert('RGBA').tobytes())"
    return subprocess.run([sys.executable, "-c", check, a, b]).returncode == 0


def main():
    args = bench_common.arguments(__doc__, "bench-png-encode")
    for name in IMAGES:
        if not os.path.exists(os.path.join(args.inputs, name)):
            sys.exit(f"bench-png-encode: {name} is missing from {args.inputs}: run scripts/make-animated-inputs.py {args.inputs}")
    out = tempfile.mkdtemp(prefix="bench-png-")
    tools = {
        "darkroom": lambda src, dst: [args.darkroom, "process", src, "-o", dst, "--no-cache"],
        "vips": lambda src, dst: ["vips", "copy", src, dst],
        "vips-all": lambda src, dst: ["vips", "copy", src, dst + "[filter=all]"],
        "pillow": lambda src, dst: [sys.executable, "-c", f"from PIL import Image; Image.open({src!r}).save({dst!r})"],
    }
    print(f"{'image':<26} {'tool':<9} {'wall s':>7} {'cpu s':>7} {'rss MB':>7} {'bytes':>11}  vs vips  vs pillow")
    for name in IMAGES:
        source = os.path.join(args.inputs, name)
        samples = {tool: [] for tool in tools}
        for _ in range(args.rounds):
            for tool, command in tools.items():
                samples[tool].append(bench_common.timed(command(source, os.path.join(out, f"{tool}-{name}")), out, "bench-png-encode"))
        median = {tool: [statistics.median(s[i] for s in samples[tool]) for i in range(3)] for tool in tools}
        for tool in tools:
            output = os.path.join(out, f"{tool}-{name}")
            same = same_pixels(source, output)
            wall, cpu, rss = median[tool]
            print(
                f"{name:<26} {tool:<9} {wall:7.2f} {cpu:7.2f} {rss:7.0f} {os.path.getsize(output):11,}"
                f"  {wall / median['vips'][0]:6.2f}× {wall / median['pillow'][0]:7.2f}×" + ("" if same else "  PIXELS DIFFER")
            )
    print(f"median of {args.rounds} interleaved rounds; outputs in {out}")


if __name__ == "__main__":
    main()
