#!/usr/bin/env python3
"""Is embedded `darkroom run` (in-memory queue + in-process worker) as fast as `darkroom process`?

Usage (from the repository root, after `swift build -c release --product darkroom`):
    python3 scripts/bench-run-vs-process.py [--darkroom PATH] [--corpus DIR] [--glob '*.jpg']
                                            [--chain CHAIN] [--format jpeg] [--rounds 9]

Runs both commands on the same files (by default the JPEGs of ../shared/corpus, which is NOT in
this repository: the script says so loudly and exits 2 when it is missing), without a cache, into
fresh output directories, alternating which goes first in each round. Measures wall time (spawn to
reap) and CPU time (user + system, from os.wait4) of every run and prints the medians and the
ratio run / process. A ratio at or below 1.0 (within noise) means the queue costs nothing visible.
"""

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    if status != 0:
        raise SystemExit(f"{' '.join(cmd[:2])} failed (status {status}): {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--darkroom", default=".build/release/darkroom")
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--glob", default="*.jpg")
    parser.add_argument("--chain", default="downsample(400x400)")
    parser.add_argument("--format", default="jpeg")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    darkroom = os.path.abspath(args.darkroom)
    if not os.access(darkroom, os.X_OK):
        print(f"no darkroom binary at {darkroom}; run `swift build -c release --product darkroom`", file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(args.corpus, args.glob)))
    if not files:
        print(f"*** NO CORPUS: nothing matches {args.glob} in {os.path.abspath(args.corpus)}. This benchmark reads "
              f"the shared corpus by path (it is not part of the repository); pass --corpus DIR. ***", file=sys.stderr)
        return 2

    work = tempfile.mkdtemp(prefix="darkroom-run-vs-process-")
    common = ["-p", args.chain, "--format", args.format, "--no-cache"]
    results = {"process": [], "run": []}
    try:
        for round_number in range(args.rounds + 1):  # round 0 warms the page cache and is dropped
            order = ["process", "run"] if round_number % 2 == 0 else ["run", "process"]
            for name in order:
                out = os.path.join(work, f"{name}-{round_number}")
                measured = timed([darkroom, name] + files + common + ["--out", out])
                shutil.rmtree(out, ignore_errors=True)
                if round_number > 0:
                    results[name].append(measured)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def medians(rows):
        return [statistics.median(column) for column in zip(*rows)]

    process = medians(results["process"])
    run = medians(results["run"])
    print(f"{len(files)} files from {os.path.abspath(args.corpus)}, `{args.chain}` → {args.format}, "
          f"median of {args.rounds} interleaved rounds")
    print("| command | wall s | CPU s | peak RSS MB |")
    print("|---|---|---|---|")
    print(f"| darkroom process | {process[0]:.3f} | {process[1]:.3f} | {process[2]:.0f} |")
    print(f"| darkroom run | {run[0]:.3f} | {run[1]:.3f} | {run[2]:.0f} |")
    print(f"| run / process | {run[0] / process[0]:.3f} | {run[1] / process[1]:.3f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
