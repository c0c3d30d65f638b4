/* A plugin for Darkroom's tests, compiled by the tests with `cc` (see CPluginCompiler). Macros
 * make the variants the refusal tests need: another module name or version, a wrong ABI version,
 * a missing entry symbol, a processor name clashing with a built-in, a malformed schema. Besides
 * processors it has a provider (`testfile:`) and a coder (the `tpix` format). */
#define _POSIX_C_SOURCE 200809L
#include "darkroom_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef MODULE_NAME
#define MODULE_NAME "testkit"
#endif
#ifndef MODULE_VERSION
#define MODULE_VERSION "1.0.0"
#endif
#ifndef ABI_VERSION
#define ABI_VERSION DARKROOM_PLUGIN_ABI_VERSION
#endif
#ifndef NEGATE_NAME
#define NEGATE_NAME "negate"
#endif

/* negate: premultiplied inverse, alpha kept. */
static darkroom_status negate(const darkroom_value *args, uint32_t count, const darkroom_bitmap *in, darkroom_bitmap *out,
                              void *user_data, darkroom_error *error) {
    (void)args; (void)count; (void)user_data; (void)error;
    for (uint32_t y = 0; y < in->height; y++) {
        const uint8_t *s = in->pixels + y * in->stride;
        uint8_t *d = out->pixels + y * out->stride;
        for (uint32_t x = 0; x < in->width * 4; x += 4) {
            d[x] = (uint8_t)(s[x + 3] - s[x]);
            d[x + 1] = (uint8_t)(s[x + 3] - s[x + 1]);
            d[x + 2] = (uint8_t)(s[x + 3] - s[x + 2]);
            d[x + 3] = s[x + 3];
        }
    }
    out->is_opaque = in->is_opaque;
    return DARKROOM_OK;
}

/* shrink(factor: 2): keeps the top-left pixel of each factor×factor block. */
static darkroom_status shrink_size(const darkroom_value *args, uint32_t count, uint32_t w, uint32_t h, uint32_t *ow, uint32_t *oh,
                                   void *user_data, darkroom_error *error) {
    (void)count; (void)user_data; (void)error;
    uint32_t factor = (uint32_t)args[0].number;
    *ow = (w + factor - 1) / factor;
    *oh = (h + factor - 1) / factor;
    return DARKROOM_OK;
}

static darkroom_status shrink(const darkroom_value *args, uint32_t count, const darkroom_bitmap *in, darkroom_bitmap *out,
                              void *user_data, darkroom_error *error) {
    (void)count; (void)user_data; (void)error;
    uint32_t factor = (uint32_t)args[0].number;
    for (uint32_t y = 0; y < out->height; y++)
        for (uint32_t x = 0; x < out->width; x++)
            memcpy(out->pixels + y * out->stride + x * 4, in->pixels + y * factor * in->stride + x * factor * 4, 4);
    out->is_opaque = in->is_opaque;
    return DARKROOM_OK;
}

/* fail(mode: permanent): always fails, in the way `mode` says. */
static darkroom_status fail(const darkroom_value *args, uint32_t count, const darkroom_bitmap *in, darkroom_bitmap *out,
                            void *user_data, darkroom_error *error) {
    (void)count; (void)in; (void)out; (void)user_data;
    const char *mode = args[0].word;
    if (strcmp(mode, "transient") == 0) return darkroom_error_set(error, DARKROOM_FAILED_TRANSIENT, "upstream busy, try later");
    if (strcmp(mode, "silent") == 0) return DARKROOM_FAILED;
    if (strcmp(mode, "weird") == 0) return 7;
    return darkroom_error_set(error, DARKROOM_FAILED, "refusing %ux%u on purpose", in->width, in->height);
}

/* explode: calls abort() when the top-left pixel is opaque pure red — a plugin that crashes on
 * one input — and copies every other image unchanged. */
static darkroom_status explode(const darkroom_value *args, uint32_t count, const darkroom_bitmap *in, darkroom_bitmap *out,
                               void *user_data, darkroom_error *error) {
    (void)args; (void)count; (void)user_data; (void)error;
    const uint8_t *p = in->pixels;
    if (p[0] == 255 && p[1] == 0 && p[2] == 0 && p[3] == 255) abort();
    for (uint32_t y = 0; y < in->height; y++) memcpy(out->pixels + y * out->stride, in->pixels + y * in->stride, in->width * 4);
    out->is_opaque = in->is_opaque;
    return DARKROOM_OK;
}

/* tag(level, color: #00FF00, size: 1x1, strength: 0.5, shape: square): every kind of argument;
 * the output is `size`, filled with `color` (premultiplied). */
static darkroom_status tag_size(const darkroom_value *args, uint32_t count, uint32_t w, uint32_t h, uint32_t *ow, uint32_t *oh,
                                void *user_data, darkroom_error *error) {
    (void)count; (void)w; (void)h; (void)user_data; (void)error;
    *ow = args[2].width;
    *oh = args[2].height;
    return DARKROOM_OK;
}

static darkroom_status tag(const darkroom_value *args, uint32_t count, const darkroom_bitmap *in, darkroom_bitmap *out,
                           void *user_data, darkroom_error *error) {
    (void)count; (void)in; (void)user_data; (void)error;
    const uint8_t *c = args[1].rgba;
    uint8_t px[4] = {(uint8_t)((c[0] * c[3] + 127) / 255), (uint8_t)((c[1] * c[3] + 127) / 255), (uint8_t)((c[2] * c[3] + 127) / 255), c[3]};
    for (uint32_t y = 0; y < out->height; y++)
        for (uint32_t x = 0; x < out->width; x++) memcpy(out->pixels + y * out->stride + x * 4, px, 4);
    out->is_opaque = c[3] == 255;
    return DARKROOM_OK;
}

static const darkroom_param shrink_params[] = {{.name = "factor", .kind = DARKROOM_KIND_INTEGER, .min = 1, .max = 16, .default_value = "2"}};
static const char *const fail_modes[] = {"permanent", "transient", "silent", "weird"};
static const darkroom_param fail_params[] = {
    {.name = "mode", .kind = DARKROOM_KIND_CHOICE, .choices = fail_modes, .choice_count = 4, .default_value = "permanent"}};
static const char *const shapes[] = {"square", "circle"};
static const darkroom_param tag_params[] = {
    {.name = "level", .kind = DARKROOM_KIND_INTEGER, .min = 0, .max = 10, .summary = "how much"},
    {.name = "color", .kind = DARKROOM_KIND_COLOR, .default_value = "#00FF00"},
    {.name = "size", .kind = DARKROOM_KIND_SIZE, .default_value = "1x1"},
#if defined(BROKEN_SCHEMA)
    {.name = "strength", .kind = DARKROOM_KIND_NUMBER, .min = 1, .max = 0, .default_value = "0.5"},
#elif defined(BAD_DEFAULT)
    {.name = "strength", .kind = DARKROOM_KIND_NUMBER, .min = 0, .max = 1, .default_value = "2"},
#else
    {.name = "strength", .kind = DARKROOM_KIND_NUMBER, .min = 0, .max = 1, .default_value = "0.5"},
#endif
    {.name = "shape", .kind = DARKROOM_KIND_CHOICE, .choices = shapes, .choice_count = 2, .default_value = "square"},
};

static const darkroom_processor negate_processor = {
    .struct_size = sizeof(darkroom_processor), .name = NEGATE_NAME, .version = 1, .summary = "inverts colours", .process = negate};
static const darkroom_processor shrink_processor = {
    .struct_size = sizeof(darkroom_processor), .name = "shrink", .version = 1, .params = shrink_params, .param_count = 1,
    .output_size = shrink_size, .process = shrink};
static const darkroom_processor fail_processor = {
    .struct_size = sizeof(darkroom_processor), .name = "fail", .version = 1, .params = fail_params, .param_count = 1, .process = fail};
static const darkroom_processor explode_processor = {
    .struct_size = sizeof(darkroom_processor), .name = "explode", .version = 1, .process = explode};
static const darkroom_processor tag_processor = {
    .struct_size = sizeof(darkroom_processor), .name = "tag", .version = 2, .params = tag_params, .param_count = 5,
    .flags = DARKROOM_PROCESSOR_INTRODUCES_TRANSPARENCY, .output_size = tag_size, .process = tag};

static const darkroom_processor *const processors[] = {&negate_processor, &shrink_processor, &fail_processor, &explode_processor,
                                                       &tag_processor};

/* The `testfile:` provider: `testfile:/abs/path` streams the file in 4 KiB pieces; `testfile:endless`
 * streams zeros until the host says stop; `testfile:hang` sleeps 2 s without calling back;
 * `testfile:fail` and `testfile:busy` fail permanently and transiently. */
static darkroom_status testfile_fetch(const char *source, const darkroom_byte_sink *sink, void *user_data, darkroom_error *error) {
    (void)user_data;
    const char *what = source + strlen("testfile:");
    if (strcmp(what, "fail") == 0) return darkroom_error_set(error, DARKROOM_FAILED, "no such object: %s", what);
    if (strcmp(what, "busy") == 0) return darkroom_error_set(error, DARKROOM_FAILED_TRANSIENT, "store busy");
    if (strcmp(what, "hang") == 0) {
        struct timespec two = {2, 0};
        nanosleep(&two, NULL);
        return DARKROOM_OK;
    }
    uint8_t buffer[4096];
    if (strcmp(what, "endless") == 0) {
        memset(buffer, 0, sizeof buffer);
        while (sink->write(sink->host, buffer, sizeof buffer) == 0) {}
        return darkroom_error_set(error, DARKROOM_FAILED, "stopped by the host");
    }
    FILE *file = fopen(what, "rb");
    if (!file) return darkroom_error_set(error, DARKROOM_FAILED, "cannot open %s", what);
    size_t got;
    while ((got = fread(buffer, 1, sizeof buffer, file)) > 0) {
        if (sink->write(sink->host, buffer, got) != 0) break;
    }
    fclose(file);
    return DARKROOM_OK;
}

static const darkroom_provider testfile_provider = {
    .struct_size = sizeof(darkroom_provider), .scheme = "testfile", .fetch = testfile_fetch};
static const darkroom_provider *const providers[] = {&testfile_provider};

/* The `tpix` format: "TPIX", width and height as 32-bit little-endian numbers, then straight RGBA
 * rows. A coder that reads and writes it. */
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int32_t tpix_sniff(const uint8_t *bytes, size_t count, void *user_data) {
    (void)user_data;
    return count >= 4 && memcmp(bytes, "TPIX", 4) == 0;
}

static darkroom_status tpix_info(const uint8_t *bytes, size_t count, darkroom_image_info *info, void *user_data, darkroom_error *error) {
    (void)user_data;
    if (count < 12) return darkroom_error_set(error, DARKROOM_FAILED, "header cut short at %zu bytes", count);
    info->width = le32(bytes + 4);
    info->height = le32(bytes + 8);
    info->frame_count = 1;
    info->has_alpha = 1;
    return DARKROOM_OK;
}

static darkroom_status tpix_decode(const uint8_t *bytes, size_t count, darkroom_bitmap *out, void *user_data, darkroom_error *error) {
    (void)user_data;
    size_t row = (size_t)out->width * 4;
    if (count < 12 + row * out->height) return darkroom_error_set(error, DARKROOM_FAILED, "pixels cut short");
    for (uint32_t y = 0; y < out->height; y++) memcpy(out->pixels + y * out->stride, bytes + 12 + y * row, row);
    return DARKROOM_OK;
}

static darkroom_status tpix_encode(const darkroom_bitmap *in, int32_t quality, const darkroom_byte_sink *sink, void *user_data,
                                   darkroom_error *error) {
    (void)quality; (void)user_data;
    uint8_t header[12] = {'T', 'P', 'I', 'X', (uint8_t)in->width, (uint8_t)(in->width >> 8), (uint8_t)(in->width >> 16),
                          (uint8_t)(in->width >> 24), (uint8_t)in->height, (uint8_t)(in->height >> 8), (uint8_t)(in->height >> 16),
                          (uint8_t)(in->height >> 24)};
    if (sink->write(sink->host, header, sizeof header) != 0) return darkroom_error_set(error, DARKROOM_FAILED, "host stopped");
    for (uint32_t y = 0; y < in->height; y++)
        if (sink->write(sink->host, in->pixels + y * in->stride, (size_t)in->width * 4) != 0)
            return darkroom_error_set(error, DARKROOM_FAILED, "host stopped");
    return DARKROOM_OK;
}

/* With DECODE_EX: the extended decode, which halves the image when the host's size hint allows
 * (every other pixel of every other row), as a coder with a scaled decode would. */
static darkroom_status tpix_decode_ex(const uint8_t *bytes, size_t count, darkroom_decode_request *request, darkroom_bitmap *out,
                                      void *user_data, darkroom_error *error) {
    if (tpix_decode(bytes, count, out, user_data, error) != DARKROOM_OK) return DARKROOM_FAILED;
    if (request->thread_count < 1) return darkroom_error_set(error, DARKROOM_FAILED, "no thread budget");
    uint32_t width = out->width / 2, height = out->height / 2;
    if (request->target_width == 0 || request->target_width > width || request->target_height > height) return DARKROOM_OK;
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++) memcpy(out->pixels + y * out->stride + x * 4, out->pixels + 2 * y * out->stride + 2 * x * 4, 4);
    request->decoded_width = width;
    request->decoded_height = height;
    return DARKROOM_OK;
}

/* V1_CODER_SIZE: the struct_size a coder compiled before `decode_ex` existed has. */
static const darkroom_coder tpix_coder = {
#if defined(V1_CODER_SIZE)
    .struct_size = offsetof(darkroom_coder, decode_ex),
#else
    .struct_size = sizeof(darkroom_coder),
#endif
#if defined(DECODE_EX)
    .decode_ex = tpix_decode_ex,
#endif
    .format = "tpix", .sniff = tpix_sniff, .read_info = tpix_info, .decode = tpix_decode, .encode = tpix_encode};
static const darkroom_coder *const coders[] = {&tpix_coder};

static const darkroom_plugin plugin = {
    .struct_size = sizeof(darkroom_plugin), .abi_version = ABI_VERSION, .name = MODULE_NAME, .version = MODULE_VERSION,
    .processors = processors, .processor_count = 5,
#ifndef NO_PROVIDER
    .providers = providers, .provider_count = 1,
#endif
    .coders = coders, .coder_count = 1,
};

#ifndef NO_ENTRY
DARKROOM_EXPORT const darkroom_plugin *darkroom_plugin_entry(uint32_t host_abi_version) {
    (void)host_abi_version;
    return &plugin;
}
#else
DARKROOM_EXPORT const darkroom_plugin *some_other_function(void) { return &plugin; }
#endif
