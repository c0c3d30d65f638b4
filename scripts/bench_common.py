"""What scripts/bench-png-encode.py and scripts/bench-animation.py share: their arguments and
how they time a command."""

import argparse
import os
import subprocess
import sys


def arguments(doc, name):
    """INPUTS_DIR, --rounds and --darkroom; exits when Pillow (used to compare outputs) is missing."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", help="the directory scripts/make-animated-inputs.py wrote")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--darkroom", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "darkroom"))
    args = parser.parse_args()
    if subprocess.run([sys.executable, "-c", "import PIL"]).returncode != 0:
        sys.exit(f"{name}: needs Pillow (`pip install Pillow`)")
    return args


def timed(command, scratch, name):
    """Runs `command`; returns wall seconds, CPU seconds (user + system) and peak RSS in MB.

    Measured by /usr/bin/time: a child's own ru_maxrss starts at its parent's high-water mark
    (Linux keeps it across fork and exec), which would hide a small tool's memory.
    """
    report = os.path.join(scratch, "time.txt")
    result = subprocess.run(["/usr/bin/time", "-o", report, "-f", "%e %U %S %M"] + command, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"{name}: {' '.join(command)} failed: {result.stderr.decode()}")
    wall, user, system, rss = open(report).read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) / 1024
