/*
 * darkroom_plugin.h — the C ABI of Darkroom plugin modules.
 *
 * A plugin module is a shared library (`.so`) that Darkroom loads at run time from a plugins
 * directory (`--plugins DIR`, `DARKROOM_PLUGIN_PATH`). It adds processors (chain steps such as
 * `invert` or `mosaic(8)`), providers (a URL scheme Darkroom can fetch sources from) and coders
 * (an image format Darkroom can decode and/or encode). Any language that can export a C function
 * can write one: C, C++, Rust, Zig, Swift. The plugin and Darkroom share nothing but this header:
 * plain C structs, C strings and function pointers, no Swift or C++ types.
 *
 * ENTRY POINT
 *   The library exports one function, `darkroom_plugin_entry` (DARKROOM_PLUGIN_ENTRY_NAME):
 *
 *       const darkroom_plugin *darkroom_plugin_entry(uint32_t host_abi_version);
 *
 *   It returns the module's descriptor, or NULL to decline (for example when the host's ABI
 *   version is one it does not support). Darkroom calls it once, right after loading the library.
 *
 * VERSIONING
 *   DARKROOM_PLUGIN_ABI_VERSION is the version of this header. A plugin puts the version it was
 *   compiled against in `darkroom_plugin.abi_version`; the host refuses a module whose version it
 *   does not implement. Compatible additions do not change the version: a new field is only ever
 *   appended at the end of a struct that starts with `struct_size`, and each such struct says in
 *   `struct_size` how large it was when the plugin was compiled (set it to `sizeof` the struct).
 *   The host reads a field only when it lies inside `struct_size` and treats a field beyond it as
 *   zero / NULL, so an old plugin keeps loading into a newer host. Arrays of those structs are
 *   arrays of *pointers*, so their element size never matters. `darkroom_param`, `darkroom_value`,
 *   `darkroom_bitmap`, `darkroom_image_info` and `darkroom_error` have no `struct_size`: changing
 *   them is an incompatible change and raises DARKROOM_PLUGIN_ABI_VERSION.
 *
 * MEMORY: who allocates and who frees — always one side only
 *   - The descriptor and everything it points to (names, parameter tables, choice lists,
 *     user_data) belong to the plugin, must stay valid and unchanged until the process exits
 *     (Darkroom never unloads a plugin, not even one it refused), and are never written or freed
 *     by the host. Static
 *     storage is the natural choice.
 *   - Every bitmap (`darkroom_bitmap.pixels`), argument array, byte buffer handed to a callback and
 *     `darkroom_error` is allocated and freed by the host. Output bitmaps arrive zeroed
 *     (transparent black), so pixels a callback leaves unwritten never expose old memory. The plugin reads inputs and writes
 *     outputs through them during the call and must not keep a pointer to any of them after the
 *     callback returns, nor free them.
 *   - Memory a callback allocates for its own work it frees before returning. Bytes a provider
 *     fetches or an encoder produces go to the host through `darkroom_byte_sink.write`, which
 *     copies them: the plugin keeps ownership of the buffer it passes in.
 *
 * THREADS
 *   Every callback may be called from several threads at once (Darkroom runs one job per core),
 *   with different arguments and bitmaps, and from threads that are not the one that loaded the
 *   plugin. Callbacks must be thread-safe: no unsynchronised global state. A callback must not
 *   call back into the host other than through the sink it is given, must not keep pointers past
 *   its return, must not longjmp, throw a C++ exception or unwind a Rust panic across the ABI, and
 *   should not block longer than it must (a provider should call `sink->should_stop` while it
 *   waits). A crash inside a callback (abort, segfault) ends the worker process: see the plugin
 *   guide (docs/plugins.md) for what the fleet then does.
 *
 * ERRORS
 *   A callback returns DARKROOM_OK, or DARKROOM_FAILED (permanent: the job fails at once with
 *   code `plugin.failed`) or DARKROOM_FAILED_TRANSIENT (the job is retried with backoff), after
 *   writing a one-line, NUL-terminated message into `error->message` (at most
 *   DARKROOM_ERROR_CAPACITY bytes including the NUL; `darkroom_error_set` does it safely). A
 *   coder's failure is always permanent (`image.corrupt`, `image.encode-failed`): the same bytes
 *   decode the same way next time, so DARKROOM_FAILED_TRANSIENT from a coder counts as
 *   DARKROOM_FAILED.
 *
 * PIXELS
 *   Processors read and write premultiplied RGBA8 (one byte each for red, green, blue and alpha,
 *   colour already multiplied by alpha), in sRGB, rows `stride` bytes apart (stride >= width * 4).
 *   Coders decode into and encode from *straight* (not premultiplied) RGBA8: the host converts.
 */
#ifndef DARKROOM_PLUGIN_H
#define DARKROOM_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. */
#define DARKROOM_PLUGIN_ABI_VERSION 1u

/** The name of the symbol every plugin exports. */
#define DARKROOM_PLUGIN_ENTRY_NAME "darkroom_plugin_entry"

/** Export a function from a shared library (default visibility even under -fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define DARKROOM_EXPORT __attribute__((visibility("default")))
#else
#define DARKROOM_EXPORT
#endif

/** What a callback returns. */
typedef int32_t darkroom_status;
#define DARKROOM_OK 0
/** Permanent failure: the job fails with `plugin.failed` and the plugin's message. */
#define DARKROOM_FAILED 1
/** Transient failure (a timeout, a busy upstream): the job is retried with backoff. */
#define DARKROOM_FAILED_TRANSIENT 2

/** Room for an error message, NUL included. */
#define DARKROOM_ERROR_CAPACITY 512

/** A host-allocated buffer a failing callback writes its message into. */
typedef struct darkroom_error {
    char message[DARKROOM_ERROR_CAPACITY];
} darkroom_error;

/** Writes a printf-style message into `error` (truncated to fit); returns `status`. */
static inline darkroom_status darkroom_error_set(darkroom_error *error, darkroom_status status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
    return status;
}

/* ------------------------------------------------------------------------------------------
 * Arguments: a processor declares its parameters; the host parses and checks the chain text
 * against them (kinds, ranges, choices, defaults) exactly as for the built-in processors, and
 * hands the callbacks one value per parameter, in declared order, defaults filled in.
 * ------------------------------------------------------------------------------------------ */

/** The kinds of values a parameter takes, as the chain syntax writes them. */
typedef uint32_t darkroom_kind;
/** A number in [min, max]: `radius: 2.5`. */
#define DARKROOM_KIND_NUMBER 1u
/** A whole number in [min, max]: `8`. */
#define DARKROOM_KIND_INTEGER 2u
/** A size `WxH`, each side 1…65535: `400x300`. */
#define DARKROOM_KIND_SIZE 3u
/** A colour `#RRGGBB` or `#RRGGBBAA`. */
#define DARKROOM_KIND_COLOR 4u
/** One word out of `choices`: `mode: fill`. */
#define DARKROOM_KIND_CHOICE 5u

/** One parameter of a processor. */
typedef struct darkroom_param {
    /** Letters, digits and `_`, starting with a letter; unique within the processor. */
    const char *name;
    /** A DARKROOM_KIND_* value. */
    darkroom_kind kind;
    /** Range of NUMBER and INTEGER values (inclusive; min <= max). Ignored for other kinds. */
    double min;
    double max;
    /** CHOICE only: the words accepted (each letters, digits and `_`), `choice_count` of them. */
    const char *const *choices;
    uint32_t choice_count;
    /** The default, as chain text (`"2"`, `"#000000"`, `"fill"`), or NULL for a required
     *  parameter. Required parameters come before optional ones. */
    const char *default_value;
    /** One line for `darkroom plugins`; may be NULL. */
    const char *summary;
} darkroom_param;

/** One argument value. Only the fields of its kind are meaningful. */
typedef struct darkroom_value {
    darkroom_kind kind;
    /** NUMBER and INTEGER (an INTEGER parameter's value has kind DARKROOM_KIND_INTEGER and a whole
     *  number here). */
    double number;
    /** SIZE. */
    uint32_t width;
    uint32_t height;
    /** COLOR, straight (not premultiplied) red, green, blue, alpha. */
    uint8_t rgba[4];
    /** CHOICE: one of the parameter's `choices` (the host's copy, valid during the call). */
    const char *word;
} darkroom_value;

/* ------------------------------------------------------------------------------------------
 * Bitmaps
 * ------------------------------------------------------------------------------------------ */

/** A block of RGBA8 pixels, owned by the host. */
typedef struct darkroom_bitmap {
    /** `height` rows of `width` pixels, 4 bytes each, rows `stride` bytes apart. */
    uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    size_t stride;
    /** Non-zero when every alpha byte is 255. On an output bitmap the host sets it to 0 before the
     *  call; set it to 1 when the output is opaque (copy the input's when you do not touch
     *  alpha), so an opaque JPEG stays a JPEG and skips the alpha passes. */
    uint32_t is_opaque;
} darkroom_bitmap;

/* ------------------------------------------------------------------------------------------
 * Processors
 * ------------------------------------------------------------------------------------------ */

/** `flags` of a processor. */
/** The processor may make transparent pixels out of an opaque image (the host then stores a
 *  JPEG source's result as PNG unless a format is asked for). */
#define DARKROOM_PROCESSOR_INTRODUCES_TRANSPARENCY 0x1u

/** A processor: a step of a chain, working on decoded pixels. */
typedef struct darkroom_processor {
    /** sizeof(darkroom_processor) as compiled into the plugin. */
    uint32_t struct_size;
    /** The name used in chains: letters, digits and `_`, starting with a letter; must not clash
     *  with a built-in processor or another module's. */
    const char *name;
    /** The algorithm version (>= 1). Raise it whenever the output for the same input changes:
     *  it is part of the identifier, so cached results of the old algorithm are not reused. */
    uint32_t version;
    /** One line for `darkroom plugins`; may be NULL. */
    const char *summary;
    /** The parameters, in positional order (required ones first). */
    const darkroom_param *params;
    uint32_t param_count;
    /** DARKROOM_PROCESSOR_* flags. */
    uint32_t flags;
    /** Passed back to the callbacks untouched. */
    void *user_data;
    /**
     * The size of the output for an input of `input_width` × `input_height`, written to
     * `*output_width` and `*output_height` (each 1…65535). NULL: the output has the input's size.
     * The host checks the size against its limits, then allocates the output bitmap.
     */
    darkroom_status (*output_size)(
        const darkroom_value *args, uint32_t arg_count, uint32_t input_width, uint32_t input_height,
        uint32_t *output_width, uint32_t *output_height, void *user_data, darkroom_error *error);
    /**
     * Reads `input` and writes every pixel of `output` (host-allocated, of the size `output_size`
     * gave). `args` holds one value per parameter, in declared order. Must not write to `input`.
     */
    darkroom_status (*process)(
        const darkroom_value *args, uint32_t arg_count, const darkroom_bitmap *input, darkroom_bitmap *output,
        void *user_data, darkroom_error *error);
} darkroom_processor;

/* ------------------------------------------------------------------------------------------
 * Byte sinks: how a provider or an encoder hands bytes to the host
 * ------------------------------------------------------------------------------------------ */

/** Where a provider streams a source's bytes and an encoder its output. Owned by the host. */
typedef struct darkroom_byte_sink {
    /** Host state; pass it back as the first argument. */
    void *host;
    /** Appends `count` bytes (copied). Returns 0 to go on, non-zero when the host wants the
     *  callback to stop now (the bytes exceed `--max-source-mb`, the timeout passed, the job was
     *  cancelled): the callback then returns (any status) without writing more. */
    int32_t (*write)(void *host, const uint8_t *bytes, size_t count);
    /** Non-zero when the callback should give up (time is out or the job was cancelled). A
     *  provider waiting on the network calls it between waits. */
    int32_t (*should_stop)(void *host);
    /** For information: the most bytes the host will accept, and the seconds the whole call may take. */
    uint64_t max_bytes;
    double timeout_seconds;
} darkroom_byte_sink;

/* ------------------------------------------------------------------------------------------
 * Providers
 * ------------------------------------------------------------------------------------------ */

/** A provider: fetches sources whose URL has `scheme`. The operator must allow the scheme
 *  (`--allow-plugin-scheme NAME`) and `--allow-source` still applies to its URLs. */
typedef struct darkroom_provider {
    /** sizeof(darkroom_provider) as compiled into the plugin. */
    uint32_t struct_size;
    /** 2 to 32 lower-case letters, digits, `+`, `-`, `.`, starting with a letter; not one of
     *  Darkroom's own (`http`, `https`, `file`, `data`). */
    const char *scheme;
    /** Passed back to `fetch` untouched. */
    void *user_data;
    /** Streams the bytes of `source` (the whole URL, NUL-terminated) into `sink`. */
    darkroom_status (*fetch)(const char *source, const darkroom_byte_sink *sink, void *user_data, darkroom_error *error);
} darkroom_provider;

/* ------------------------------------------------------------------------------------------
 * Coders
 * ------------------------------------------------------------------------------------------ */

/** What a coder reads from an image's header, before anything is decoded. */
typedef struct darkroom_image_info {
    uint32_t width;
    uint32_t height;
    /** 1 for a still image. */
    uint32_t frame_count;
    /** Non-zero when the image may have transparent pixels. */
    uint32_t has_alpha;
} darkroom_image_info;

/** What the host asks of one `decode_ex` call, and where the coder answers what it learnt about the
 *  image's colour. Host-allocated and zeroed; `struct_size` is sizeof(darkroom_decode_request) as
 *  compiled into the *host*: the coder reads and writes only the fields that lie inside it (a
 *  newer coder in an older host sees a smaller struct_size). */
typedef struct darkroom_decode_request {
    /** sizeof(darkroom_decode_request) as compiled into the host. */
    uint32_t struct_size;
    /** Shrink-on-load: the smallest size the host needs (the chain's first resize makes the image
     *  no smaller than this, aspect kept). 0 × 0: no hint, decode at full size. A coder that can
     *  decode smaller (a scaled decode, a lower resolution level, a large enough thumbnail) may
     *  do so, never below this size; one that cannot ignores it. */
    uint32_t target_width;
    uint32_t target_height;
    /** How many threads the coder may use for this one image (>= 1): the cores no other image
     *  is using now. A coder that decodes tiles or bands at once uses at most this many. */
    uint32_t thread_count;
    /** Where the coder writes the image's embedded ICC profile, whole, if it has one (the host
     *  converts the pixels from it to sRGB). Capped at `icc_sink->max_bytes`. */
    const darkroom_byte_sink *icc_sink;
    /** Set by the coder: the size it decoded at, when smaller than the output bitmap (written into
     *  its top-left corner, rows `output->stride` apart). 0 × 0: the output bitmap's whole size. */
    uint32_t decoded_width;
    uint32_t decoded_height;
    /** Set by the coder when the image's colour is given as CICP (ITU-T H.273 code points, e.g. a
     *  HEIF `nclx` colour box) rather than an ICC profile: `has_cicp` non-zero and the code
     *  points. The pixels are RGB already (the coder applied `cicp_matrix`). */
    uint32_t has_cicp;
    uint16_t cicp_primaries;
    uint16_t cicp_transfer;
    uint16_t cicp_matrix;
    uint16_t cicp_full_range;
    /** Where the coder writes the image's EXIF, when the job keeps it (NULL otherwise: the coder
     *  need not look for it). Either a TIFF structure from its `II`/`MM` byte order mark, or a HEIF
     *  `Exif` item whole (its 4-byte offset to the TIFF header first); the host finds the TIFF
     *  header, rewrites the EXIF as the job asks, and drops what it cannot read. A block over
     *  `exif_sink->max_bytes` is not written (the host keeps no EXIF rather than failing). */
    const darkroom_byte_sink *exif_sink;
    /** Where the coder writes the image's XMP packet (UTF-8 XML), when the job keeps it; NULL
     *  otherwise. Same size rule as `exif_sink`. */
    const darkroom_byte_sink *xmp_sink;
} darkroom_decode_request;

/** A coder: reads and/or writes one image format. */
typedef struct darkroom_coder {
    /** sizeof(darkroom_coder) as compiled into the plugin. */
    uint32_t struct_size;
    /** The format's name, 1 to 16 lower-case letters and digits starting with a letter (`qoi`):
     *  the `--format` value and the output file extension. Must not name one of Darkroom's own
     *  formats (jpeg, jpg, jpe, png, webp, gif). */
    const char *format;
    /** Passed back to the callbacks untouched. */
    void *user_data;
    /** Non-zero when `bytes` (the whole source) are in this format. Required, with `read_info`,
     *  also of a coder that only encodes: the host describes a stored result by reading its
     *  header. */
    int32_t (*sniff)(const uint8_t *bytes, size_t count, void *user_data);
    /** Reads the size and frame count from the header. The host checks them against its pixel
     *  and frame limits before it allocates anything. */
    darkroom_status (*read_info)(
        const uint8_t *bytes, size_t count, darkroom_image_info *info, void *user_data, darkroom_error *error);
    /** Decodes the first frame into `output`, host-allocated at the size `read_info` gave, as
     *  straight RGBA8. NULL: the coder does not decode (or decodes with `decode_ex`). */
    darkroom_status (*decode)(
        const uint8_t *bytes, size_t count, darkroom_bitmap *output, void *user_data, darkroom_error *error);
    /** Encodes `input` (straight RGBA8) at `quality` 1…100 into `sink`. NULL: the coder does not
     *  encode. */
    darkroom_status (*encode)(
        const darkroom_bitmap *input, int32_t quality, const darkroom_byte_sink *sink, void *user_data,
        darkroom_error *error);
    /* ---- added after the first release of ABI version 1: read only inside struct_size ---- */
    /**
     * Decodes the first frame like `decode`, with what the host knows about the call: a size hint,
     * a thread budget, and a sink for the ICC profile (see darkroom_decode_request). When non-NULL
     * the host calls it instead of `decode` (which may then be NULL). `output` is host-allocated at
     * the size `read_info` gave, zeroed.
     */
    darkroom_status (*decode_ex)(
        const uint8_t *bytes, size_t count, darkroom_decode_request *request, darkroom_bitmap *output, void *user_data,
        darkroom_error *error);
} darkroom_coder;

/* ------------------------------------------------------------------------------------------
 * The module
 * ------------------------------------------------------------------------------------------ */

/** What `darkroom_plugin_entry` returns. */
typedef struct darkroom_plugin {
    /** sizeof(darkroom_plugin) as compiled into the plugin. */
    uint32_t struct_size;
    /** DARKROOM_PLUGIN_ABI_VERSION as compiled into the plugin. */
    uint32_t abi_version;
    /** The module's name: lower-case letters, digits, `-` and `_`, starting with a letter. */
    const char *name;
    /** The module's version: letters, digits, `.`, `-`, `+` (`1.2.0`). It is part of every one of
     *  its processors' identifiers, so a new version retires the results cached with the old. */
    const char *version;
    /** Pointers to the processors, providers and coders; any count may be 0. */
    const darkroom_processor *const *processors;
    uint32_t processor_count;
    const darkroom_provider *const *providers;
    uint32_t provider_count;
    const darkroom_coder *const *coders;
    uint32_t coder_count;
} darkroom_plugin;

/** The type of the entry point. */
typedef const darkroom_plugin *(*darkroom_plugin_entry_function)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* DARKROOM_PLUGIN_H */
