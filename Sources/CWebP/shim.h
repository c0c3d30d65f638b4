#ifndef DARKROOM_CWEBP_SHIM_H
#define DARKROOM_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>

/// `WebPInitDecoderConfig`, `WebPConfigInit` and `WebPPictureInit` are inline wrappers that pass the
/// ABI version; they import fine, but these shims keep the version check in one obvious place.
static inline int darkroom_webp_init_decoder_config(WebPDecoderConfig *config) {
    return WebPInitDecoderConfig(config);
}
static inline int darkroom_webp_config_init(WebPConfig *config, float quality) {
    return WebPConfigPreset(config, WEBP_PRESET_DEFAULT, quality);
}
static inline int darkroom_webp_picture_init(WebPPicture *picture) {
    return WebPPictureInit(picture);
}
#endif
