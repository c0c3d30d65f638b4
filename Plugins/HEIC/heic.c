/*
 * heic.c — Darkroom's HEIC coder module: reads HEIC/HEIF (HEVC-coded) images with libheif.
 *
 * Built apart from `darkroom` (Plugins/HEIC/build.sh → darkroom-heic.so) and loaded with
 * `--plugins DIR`: HEVC is patent-encumbered and Debian's libheif links the GPL x265, so a
 * deployment chooses whether to ship it (docs/plugins.md, docs/deployment.md).
 *
 * - sniff: the `ftyp` brands, routed as Darkroom's HEIFBrand does (a `heic`-family brand, or with
 *   only the generic `mif1`/`msf1`/`miaf` the primary item's coding type `hvc1`/`hev1`); an AVIF
 *   file (`avif`/`avis`, or a `mif1` file whose primary item is `av01`) is not this module's.
 * - read_info: libheif parses the boxes without decoding; the primary image's size is the one
 *   after its transforms (`irot` swaps the sides), which is what is decoded.
 * - decode_ex: the primary image with its transforms (`irot`, `imir`, `clap`); an EXIF
 *   orientation inside is ignored, so nothing is rotated twice. A grid's tiles are decoded on up
 *   to `request->thread_count` threads. Alpha is kept (unpremultiplied if stored premultiplied).
 *   The ICC profile goes to the host through `request->icc_sink`; an `nclx` colour box as CICP.
 *   The Exif item and the XMP packet go through `exif_sink`/`xmp_sink` when the host asks (the
 *   job keeps them); the host rewrites them (orientation 1, GPS dropped unless asked).
 *   No shrink-on-load: HEVC cannot decode at a lower scale, so the size hint is ignored.
 * - No `decode` (only `decode_ex`): a host older than `decode_ex` refuses the module rather than
 *   decode it without its colour profile.
 */
#include <libheif/heif.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "darkroom_plugin.h"

/* The most pixels per side libheif accepts before the host's own limits (checked after read_info). */
#define HEIC_MAX_SIDE 65535

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

static int brand_in(const uint8_t *brand, const char *const *list) {
    for (; *list; list++)
        if (memcmp(brand, *list, 4) == 0) return 1;
    return 0;
}

static const char *const heic_brands[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", NULL};
static const char *const avif_brands[] = {"avif", "avis", NULL};
static const char *const generic_brands[] = {"mif1", "msf1", "miaf", NULL};

/* The payload [*start, *end) of the first box of `type` inside [from, to), bounds-checked. */
static int find_box(const uint8_t *bytes, size_t from, size_t to, const char *type, size_t *start, size_t *end) {
    size_t offset = from;
    while (offset + 8 <= to) {
        size_t size = be32(bytes + offset), header = 8;
        if (size == 0) size = to - offset;
        if (size < header || size > to - offset) return 0;
        if (memcmp(bytes + offset + 4, type, 4) == 0) {
            *start = offset + header;
            *end = offset + size;
            return 1;
        }
        offset += size;
    }
    return 0;
}

/* Whether the primary item (or, for a grid, any item) of the `meta` box is HEVC-coded. */
static int primary_is_hevc(const uint8_t *bytes, size_t count) {
    size_t meta, meta_end, pitm, pitm_end, iinf, iinf_end;
    if (!find_box(bytes, 0, count, "meta", &meta, &meta_end) || meta_end - meta < 4) return 0;
    meta += 4; /* version and flags */
    if (!find_box(bytes, meta, meta_end, "pitm", &pitm, &pitm_end) || pitm_end - pitm < 6) return 0;
    uint32_t primary = bytes[pitm] == 0 ? be16(bytes + pitm + 4) : (pitm_end - pitm >= 8 ? be32(bytes + pitm + 4) : 0);
    if (!find_box(bytes, meta, meta_end, "iinf", &iinf, &iinf_end) || iinf_end - iinf < 6) return 0;
    size_t offset = iinf + 4 + (bytes[iinf] == 0 ? 2 : 4);
    int primary_grid = 0, any_hevc = 0;
    while (offset + 8 <= iinf_end) {
        size_t size = be32(bytes + offset);
        if (size < 8 || size > iinf_end - offset) break;
        const uint8_t *p = bytes + offset + 8;
        const uint8_t *type = NULL;
        uint32_t id = 0;
        if (memcmp(bytes + offset + 4, "infe", 4) == 0 && size >= 8 + 12 && p[0] == 2) {
            id = be16(p + 4);
            type = p + 8;
        } else if (memcmp(bytes + offset + 4, "infe", 4) == 0 && size >= 8 + 14 && p[0] == 3) {
            id = be32(p + 4);
            type = p + 10;
        }
        if (type) {
            int hevc = memcmp(type, "hvc1", 4) == 0 || memcmp(type, "hev1", 4) == 0;
            any_hevc |= hevc;
            if (id == primary && hevc) return 1;
            if (id == primary && memcmp(type, "grid", 4) == 0) primary_grid = 1;
        }
        offset += size;
    }
    return primary_grid && any_hevc;
}

static int32_t heic_sniff(const uint8_t *bytes, size_t count, void *user_data) {
    (void)user_data;
    if (count < 16 || memcmp(bytes + 4, "ftyp", 4) != 0) return 0;
    size_t size = be32(bytes);
    if (size < 16 || size > count || size % 4 != 0) return 0;
    if (brand_in(bytes + 8, heic_brands)) return 1;
    if (brand_in(bytes + 8, avif_brands)) return 0;
    int generic = brand_in(bytes + 8, generic_brands);
    for (size_t at = 16; at < size; at += 4) {
        if (brand_in(bytes + at, heic_brands)) return 1;
        if (brand_in(bytes + at, avif_brands)) return 0;
        generic |= brand_in(bytes + at, generic_brands);
    }
    return generic && primary_is_hevc(bytes, count);
}

/* The parsed file and its primary image; both NULL after a failure (the error is written). */
typedef struct heic_file {
    struct heif_context *context;
    struct heif_image_handle *primary;
} heic_file;

static void heic_close(heic_file *file) {
    if (file->primary) heif_image_handle_release(file->primary);
    if (file->context) heif_context_free(file->context);
    file->primary = NULL;
    file->context = NULL;
}

static darkroom_status heic_open(const uint8_t *bytes, size_t count, heic_file *file, darkroom_error *error) {
    file->primary = NULL;
    file->context = heif_context_alloc();
    if (!file->context) return darkroom_error_set(error, DARKROOM_FAILED, "libheif could not allocate a context");
    heif_context_set_maximum_image_size_limit(file->context, HEIC_MAX_SIDE);
    /* `bytes` outlive the context: the host holds them for the whole call. */
    struct heif_error failure = heif_context_read_from_memory_without_copy(file->context, bytes, count, NULL);
    if (failure.code == heif_error_Ok) failure = heif_context_get_primary_image_handle(file->context, &file->primary);
    if (failure.code != heif_error_Ok) {
        heic_close(file);
        return darkroom_error_set(error, DARKROOM_FAILED, "libheif: %s", failure.message);
    }
    return DARKROOM_OK;
}

static darkroom_status heic_info(const uint8_t *bytes, size_t count, darkroom_image_info *info, void *user_data, darkroom_error *error) {
    (void)user_data;
    heic_file file;
    if (heic_open(bytes, count, &file, error) != DARKROOM_OK) return DARKROOM_FAILED;
    int width = heif_image_handle_get_width(file.primary), height = heif_image_handle_get_height(file.primary);
    info->width = width > 0 ? (uint32_t)width : 0;
    info->height = height > 0 ? (uint32_t)height : 0;
    info->frame_count = 1;
    info->has_alpha = heif_image_handle_has_alpha_channel(file.primary) ? 1 : 0;
    heic_close(&file);
    return DARKROOM_OK;
}

/* Whether the host's request struct is large enough to hold `field`. */
#define REQUEST_HAS(request, field) \
    (offsetof(darkroom_decode_request, field) + sizeof((request)->field) <= (size_t)(request)->struct_size)

/* Hands the ICC profile to the host, or the nclx colour box as CICP. */
static darkroom_status heic_colour(const struct heif_image_handle *primary, darkroom_decode_request *request, darkroom_error *error) {
    size_t size = heif_image_handle_get_raw_color_profile_size(primary);
    if (size > 0 && REQUEST_HAS(request, icc_sink) && request->icc_sink) {
        if (size > request->icc_sink->max_bytes)
            return darkroom_error_set(error, DARKROOM_FAILED, "ICC profile of %zu bytes, over the host's limit", size);
        uint8_t *profile = malloc(size);
        if (!profile) return darkroom_error_set(error, DARKROOM_FAILED, "out of memory for a %zu byte ICC profile", size);
        struct heif_error failure = heif_image_handle_get_raw_color_profile(primary, profile);
        int stopped = failure.code == heif_error_Ok ? request->icc_sink->write(request->icc_sink->host, profile, size) : 0;
        free(profile);
        if (failure.code != heif_error_Ok) return darkroom_error_set(error, DARKROOM_FAILED, "libheif: %s", failure.message);
        if (stopped) return darkroom_error_set(error, DARKROOM_FAILED, "the host refused the ICC profile");
        return DARKROOM_OK;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (REQUEST_HAS(request, cicp_full_range) && heif_image_handle_get_nclx_color_profile(primary, &nclx).code == heif_error_Ok && nclx) {
        request->has_cicp = 1;
        request->cicp_primaries = (uint16_t)nclx->color_primaries;
        request->cicp_transfer = (uint16_t)nclx->transfer_characteristics;
        request->cicp_matrix = (uint16_t)nclx->matrix_coefficients;
        request->cicp_full_range = nclx->full_range_flag;
        heif_nclx_color_profile_free(nclx);
    }
    return DARKROOM_OK;
}

/* Writes the primary image's first metadata block of `type` (and, for "mime", `content_type`) to
 * `sink`, whole; a block over the sink's limit is left out (the host then keeps none). */
static void heic_metadata_block(
    const struct heif_image_handle *primary, const char *type, const char *content_type, const darkroom_byte_sink *sink) {
    heif_item_id ids[16];
    int count = heif_image_handle_get_list_of_metadata_block_IDs(primary, type, ids, 16);
    for (int i = 0; i < count; i++) {
        const char *found = content_type ? heif_image_handle_get_metadata_content_type(primary, ids[i]) : NULL;
        if (content_type && (!found || strcmp(found, content_type) != 0)) continue;
        size_t size = heif_image_handle_get_metadata_size(primary, ids[i]);
        if (size == 0 || size > sink->max_bytes) return;
        uint8_t *block = malloc(size);
        if (!block) return;
        if (heif_image_handle_get_metadata(primary, ids[i], block).code == heif_error_Ok) sink->write(sink->host, block, size);
        free(block);
        return;
    }
}

/* Hands the EXIF (the HEIF Exif item whole: the host finds its TIFF header) and the XMP packet to
 * the host, when it asks for them (the job keeps them). Broken metadata is the host's to drop. */
static void heic_metadata(const struct heif_image_handle *primary, darkroom_decode_request *request) {
    if (REQUEST_HAS(request, exif_sink) && request->exif_sink) heic_metadata_block(primary, "Exif", NULL, request->exif_sink);
    if (REQUEST_HAS(request, xmp_sink) && request->xmp_sink)
        heic_metadata_block(primary, "mime", "application/rdf+xml", request->xmp_sink);
}

/* Copies the decoded interleaved RGB(A) rows into the host's straight RGBA8 bitmap. */
static void heic_copy(const uint8_t *plane, int plane_stride, int has_alpha, int premultiplied, darkroom_bitmap *output) {
    for (uint32_t y = 0; y < output->height; y++) {
        const uint8_t *from = plane + (size_t)y * (size_t)plane_stride;
        uint8_t *to = output->pixels + (size_t)y * output->stride;
        for (uint32_t x = 0; x < output->width; x++, to += 4) {
            to[0] = from[0];
            to[1] = from[1];
            to[2] = from[2];
            to[3] = has_alpha ? from[3] : 255;
            if (premultiplied && to[3] != 0 && to[3] != 255)
                for (int c = 0; c < 3; c++) {
                    unsigned value = (to[c] * 255u + to[3] / 2) / to[3];
                    to[c] = (uint8_t)(value > 255 ? 255 : value);
                }
            from += has_alpha ? 4 : 3;
        }
    }
    output->is_opaque = has_alpha ? 0 : 1;
}

static darkroom_status heic_decode_ex(
    const uint8_t *bytes, size_t count, darkroom_decode_request *request, darkroom_bitmap *output, void *user_data, darkroom_error *error) {
    (void)user_data;
    heic_file file;
    if (heic_open(bytes, count, &file, error) != DARKROOM_OK) return DARKROOM_FAILED;
    /* libheif decodes a grid's tiles on this many threads; 0 keeps them on the calling thread. */
    uint32_t threads = REQUEST_HAS(request, thread_count) ? request->thread_count : 1;
    heif_context_set_max_decoding_threads(file.context, threads > 1 ? (int)threads : 0);
    int has_alpha = heif_image_handle_has_alpha_channel(file.primary);
    int premultiplied = has_alpha && heif_image_handle_is_premultiplied_alpha(file.primary);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;
    struct heif_image *image = NULL;
    struct heif_error failure = heif_decode_image(
        file.primary, &image, heif_colorspace_RGB, has_alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options);
    if (options) heif_decoding_options_free(options);
    darkroom_status status = DARKROOM_OK;
    if (failure.code != heif_error_Ok) {
        status = darkroom_error_set(error, DARKROOM_FAILED, "libheif: %s", failure.message);
    } else {
        int width = heif_image_get_width(image, heif_channel_interleaved);
        int height = heif_image_get_height(image, heif_channel_interleaved);
        int stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
        if (!plane || width != (int)output->width || height != (int)output->height) {
            status = darkroom_error_set(
                error, DARKROOM_FAILED, "decoded %dx%d, but the header said %ux%u", width, height, output->width, output->height);
        } else {
            heic_copy(plane, stride, has_alpha, premultiplied, output);
            status = heic_colour(file.primary, request, error);
            if (status == DARKROOM_OK) heic_metadata(file.primary, request);
        }
        heif_image_release(image);
    }
    heic_close(&file);
    return status;
}

static const darkroom_coder heic_coder = {
    .struct_size = sizeof(darkroom_coder), .format = "heic", .sniff = heic_sniff, .read_info = heic_info,
    .decode_ex = heic_decode_ex};
static const darkroom_coder *const coders[] = {&heic_coder};

static const darkroom_plugin plugin = {
    .struct_size = sizeof(darkroom_plugin), .abi_version = DARKROOM_PLUGIN_ABI_VERSION, .name = "heic",
    .version = "1.0.0+libheif" LIBHEIF_VERSION, .coders = coders, .coder_count = 1};

DARKROOM_EXPORT const darkroom_plugin *darkroom_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version == DARKROOM_PLUGIN_ABI_VERSION ? &plugin : NULL;
}
