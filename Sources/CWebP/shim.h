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

/// The animation API's option initialisers and constructors are inline wrappers that pass the
/// demux/mux ABI versions; these shims keep those version checks beside the others.
static inline int darkroom_webp_anim_decoder_options_init(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *darkroom_webp_anim_decoder_new(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderNew(data, options);
}
static inline int darkroom_webp_anim_encoder_options_init(WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderOptionsInit(options);
}
static inline WebPAnimEncoder *darkroom_webp_anim_encoder_new(int width, int height, const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}
static inline WebPDemuxer *darkroom_webp_demux(const WebPData *data) {
    return WebPDemux(data);
}
static inline WebPMux *darkroom_webp_mux_new(void) {
    return WebPMuxNew();
}
#endif
