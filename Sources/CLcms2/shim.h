#ifndef DARKROOM_CLCMS2_SHIM_H
#define DARKROOM_CLCMS2_SHIM_H
#include <lcms2.h>

/// lcms2's pixel-type constants are built by function-like macros Swift cannot import.
static inline cmsUInt32Number darkroom_lcms_type_rgba_8(void) { return TYPE_RGBA_8; }
static inline cmsUInt32Number darkroom_lcms_type_rgb_8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number darkroom_lcms_type_cmyk_8(void) { return TYPE_CMYK_8; }
static inline cmsUInt32Number darkroom_lcms_type_cmyk_8_reverse(void) { return TYPE_CMYK_8_REV; }
static inline cmsUInt32Number darkroom_lcms_type_gray_8(void) { return TYPE_GRAY_8; }

/// A grey sample stored in the first byte of a 4-byte RGBA pixel (R = G = B, alpha last): lets a
/// grey profile be applied in place to a greyscale image that was decoded straight into RGBA.
static inline cmsUInt32Number darkroom_lcms_type_gray_8_in_rgba(void) {
    return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3);
}
#endif
