#!/bin/sh
# Remakes the HEIC fixtures of the HEIC module's tests from the CC0 samples in ../shared/samples,
# with vips, exiftool and heif-enc 1.15 (Debian libheif-examples). Not run by the tests: the
# outputs are committed. heif-enc keeps the source's ICC profile (chelsea.png's, 3,144 bytes) and
# stores the 64×43 image as a one-tile grid (its odd height is cropped with `clap`).
#   plain-64x43.heic                 chelsea.png at 64 px wide, quality 80
#   alpha-48x48.heic                 astronaut.png at 48 px with a constant alpha of 128
#   exif-orientation-6-64x43.heic    plain's pixels through a JPEG tagged EXIF orientation 6,
#                                    which heif-enc copies into an Exif item without rotating:
#                                    HEIF readers must ignore it (only irot/imir orient).
#   irot-90-exif-6-43x64.heic        that file with an irot of a quarter turn anticlockwise added
#                                    to its primary item by add-irot.py (heif-enc 1.15 cannot
#                                    write irot): rotated once, by irot, to 43x64.
set -eu
samples=${1:-../shared/samples}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vips thumbnail "$samples/chelsea.png" "$work/plain.png" 64
heif-enc -q 80 "$work/plain.png" -o "$here/plain-64x43.heic"
vips thumbnail "$samples/astronaut.png" "$work/astronaut.png" 48
vips bandjoin_const "$work/astronaut.png" "$work/alpha.png" 128
heif-enc -q 80 "$work/alpha.png" -o "$here/alpha-48x48.heic"
vips copy "$work/plain.png" "$work/rotated.jpg[Q=90]"
exiftool -q -overwrite_original -Orientation=6 -n "$work/rotated.jpg"
heif-enc -q 80 "$work/rotated.jpg" -o "$here/exif-orientation-6-64x43.heic"
python3 "$here/add-irot.py" "$here/exif-orientation-6-64x43.heic" "$here/irot-90-exif-6-43x64.heic" 1
