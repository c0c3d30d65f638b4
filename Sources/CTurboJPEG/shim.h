#ifndef DARKROOM_CTURBOJPEG_SHIM_H
#define DARKROOM_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>

/// `TJSCALED` is a function-like macro, which Swift cannot import; this is the same arithmetic.
static inline int darkroom_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}
#endif
