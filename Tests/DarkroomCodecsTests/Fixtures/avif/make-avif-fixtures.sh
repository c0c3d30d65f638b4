#!/bin/sh
# Makes the AVIF fixtures in this folder (see README.md) from ../../../../../shared/samples/coffee.png
# (CC0) or the file given as $1, with vips 8.14, avifenc (libavif 0.11.1, aom 3.6), exiftool and
# a C compiler with lcms2 (for the Display P3 profile). Run from anywhere; writes beside itself.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
source_png="${1:-$here/../../../../../shared/samples/coffee.png}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# A 64x43 RGB source, a straight-alpha copy (alpha ramps 0..252 left to right), and two more frames.
vipsthumbnail "$source_png" --size 64x64 -o "$work/rgb.png[strip]"
vips xyz ramp.v 64 43
vips extract_band ramp.v rampx.v 0
vips linear rampx.v alpha.png 4 0 --uchar
vips bandjoin "rgb.png alpha.png" rgba.png
vips flip rgb.png frame2.png horizontal
vips invert rgb.png frame3.png

# Display P3 (D65, sRGB curve) as an ICC profile, made with lcms2.
cat > p3.c <<'C'
#include <lcms2.h>
int main(void) {
    cmsCIExyY white; cmsWhitePointFromTemp(&white, 6504);
    cmsCIExyYTRIPLE primaries = {{0.680, 0.320, 1}, {0.265, 0.690, 1}, {0.150, 0.060, 1}};
    cmsFloat64Number p[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, p);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    return cmsSaveProfileToFile(profile, "p3.icc") ? 0 : 1;
}
C
cc p3.c -o p3 -llcms2
./p3

# An Exif block saying "orientation 6" (rotate 90 clockwise), which AVIF decoding must ignore.
vips copy rgb.png exif.jpg
exiftool -q -overwrite_original -Orientation#=6 exif.jpg
exiftool -b -Exif exif.jpg > exif.bin

avifenc -s 8 --min 10 --max 10 -y 420 rgb.png "$here/rgb8.avif" > /dev/null
avifenc -s 8 --min 10 --max 10 -d 10 -y 420 rgb.png "$here/rgb10.avif" > /dev/null
avifenc -s 8 --min 10 --max 10 -d 12 -y 444 rgb.png "$here/rgb12.avif" > /dev/null
avifenc -s 8 --min 10 --max 10 --minalpha 0 --maxalpha 0 rgba.png "$here/alpha.avif" > /dev/null
# irot 1 (90 anticlockwise) then imir 1 (left-right), and an Exif orientation of 6 beside them.
avifenc -s 8 --min 10 --max 10 --irot 1 --imir 1 --exif exif.bin rgb.png "$here/orient.avif" > /dev/null
avifenc -s 8 --min 10 --max 10 --icc p3.icc rgb.png "$here/icc-p3.avif" > /dev/null
# The same colours said by CICP instead: primaries 12 (P3 D65), transfer 13 (sRGB), matrix 6.
avifenc -s 8 --min 10 --max 10 --cicp 12/13/6 rgb.png "$here/cicp-p3.avif" > /dev/null
avifenc -s 8 --min 10 --max 10 rgb.png frame2.png frame3.png "$here/sequence3.avif" > /dev/null
# The reference pixels: the source as straight RGBA8, for PSNR checks.
vips bandjoin_const rgb.png rgba-opaque.v 255
vips rawsave rgba-opaque.v "$here/rgb.rgba"
ls -l "$here"
