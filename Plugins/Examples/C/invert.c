/* A complete Darkroom plugin in C: `invert(amount: 1)` inverts an image's colours.
 *
 *   cc -std=c11 -O2 -shared -fPIC -I Plugins/include Plugins/Examples/C/invert.c -o plugins/libinvert.so
 *
 * Pixels are premultiplied, so the inverse of a colour channel c under alpha a is a - c. */
#include "darkroom_plugin.h"

static darkroom_status invert(const darkroom_value *args, uint32_t arg_count, const darkroom_bitmap *in,
                              darkroom_bitmap *out, void *user_data, darkroom_error *error) {
    (void)arg_count; (void)user_data; (void)error;
    const unsigned amount = (unsigned)(args[0].number * 255.0 + 0.5); /* 0…255 */
    for (uint32_t y = 0; y < in->height; y++) {
        const uint8_t *s = in->pixels + y * in->stride;
        uint8_t *d = out->pixels + y * out->stride;
        for (uint32_t x = 0; x < in->width * 4; x += 4) {
            for (int c = 0; c < 3; c++) /* mix the channel with its inverse by amount */
                d[x + c] = (uint8_t)((s[x + c] * (255 - amount) + (s[x + 3] - s[x + c]) * amount + 127) / 255);
            d[x + 3] = s[x + 3];
        }
    }
    out->is_opaque = in->is_opaque; /* alpha is untouched */
    return DARKROOM_OK;
}

static const darkroom_param params[] = {
    {.name = "amount", .kind = DARKROOM_KIND_NUMBER, .min = 0, .max = 1, .default_value = "1",
     .summary = "0 leaves the image as it is, 1 inverts it fully"},
};

static const darkroom_processor invert_processor = {
    .struct_size = sizeof(darkroom_processor), .name = "invert", .version = 1,
    .summary = "inverts the colours (a photographic negative)",
    .params = params, .param_count = 1, .process = invert,
};

static const darkroom_processor *const processors[] = {&invert_processor};

static const darkroom_plugin plugin = {
    .struct_size = sizeof(darkroom_plugin), .abi_version = DARKROOM_PLUGIN_ABI_VERSION,
    .name = "example-c", .version = "1.0.0", .processors = processors, .processor_count = 1,
};

DARKROOM_EXPORT const darkroom_plugin *darkroom_plugin_entry(uint32_t host_abi_version) {
    (void)host_abi_version;
    return &plugin;
}
