//! A complete Darkroom plugin in Rust: `mosaic(size: 8)` turns each `size`×`size` block of the
//! image into its average colour.
//!
//!     cargo build --release --offline --manifest-path Plugins/Examples/Rust/Cargo.toml
//!
//! leaves `target/release/libdarkroom_example_rust.so`. Pixels are premultiplied, so averaging
//! the four channels as they are gives the right colour at transparent edges (no dark fringes).
//! No panic crosses the ABI: the callback's body runs inside `catch_unwind`, and a panic becomes
//! DARKROOM_FAILED with a message.

#[allow(dead_code)] // the whole header is mirrored; this plugin uses part of it
mod abi;

use abi::*;
use std::os::raw::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

/// The side of a block: INTEGER 1…256, default 8.
static PARAMS: ReadOnly<[DarkroomParam; 1]> = ReadOnly([DarkroomParam {
    name: c"size".as_ptr(),
    kind: DARKROOM_KIND_INTEGER,
    min: 1.0,
    max: 256.0,
    choices: ptr::null(),
    choice_count: 0,
    default_value: c"8".as_ptr(),
    summary: c"the side of each block in pixels".as_ptr(),
}]);

static PIXELATE: ReadOnly<DarkroomProcessor> = ReadOnly(DarkroomProcessor {
    struct_size: std::mem::size_of::<DarkroomProcessor>() as u32,
    name: c"mosaic".as_ptr(),
    version: 1,
    summary: c"turns each size x size block into its average colour".as_ptr(),
    params: PARAMS.0.as_ptr(),
    param_count: 1,
    flags: 0,
    user_data: ptr::null_mut(),
    output_size: None, // the output has the input's size
    process: Some(mosaic),
});

static PROCESSORS: ReadOnly<[*const DarkroomProcessor; 1]> = ReadOnly([&PIXELATE.0]);

static PLUGIN: ReadOnly<DarkroomPlugin> = ReadOnly(DarkroomPlugin {
    struct_size: std::mem::size_of::<DarkroomPlugin>() as u32,
    abi_version: DARKROOM_PLUGIN_ABI_VERSION,
    name: c"example-rust".as_ptr(),
    version: c"1.0.0".as_ptr(),
    processors: PROCESSORS.0.as_ptr(),
    processor_count: 1,
    providers: ptr::null(),
    provider_count: 0,
    coders: ptr::null(),
    coder_count: 0,
});

/// The entry point Darkroom looks up after loading the library. The descriptor is static: valid
/// and unchanged for the life of the process, as the ABI requires.
#[no_mangle]
pub extern "C" fn darkroom_plugin_entry(_host_abi_version: u32) -> *const DarkroomPlugin {
    &PLUGIN.0
}

/// `process` of `mosaic`. It reads only its arguments and writes only `output`: safe to call
/// from several threads at once.
unsafe extern "C" fn mosaic(
    args: *const DarkroomValue,
    arg_count: u32,
    input: *const DarkroomBitmap,
    output: *mut DarkroomBitmap,
    _user_data: *mut c_void,
    error: *mut DarkroomError,
) -> DarkroomStatus {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let (Some(input), Some(output)) = (input.as_ref(), output.as_mut()) else {
            return Err("the host passed a NULL bitmap".to_string());
        };
        if arg_count != 1 || args.is_null() {
            return Err(format!(
                "expected 1 argument (size), the host passed {arg_count}"
            ));
        }
        let size = (*args).number;
        if !(1.0..=256.0).contains(&size) || size.fract() != 0.0 {
            return Err(format!("size {size} must be a whole number 1…256"));
        }
        mosaic_bitmap(input, output, size as usize)
    }));
    match result {
        Ok(Ok(())) => DARKROOM_OK,
        Ok(Err(message)) => set_error(error, DARKROOM_FAILED, &message),
        Err(_) => set_error(
            error,
            DARKROOM_FAILED,
            "mosaic panicked (a bug in the plugin)",
        ),
    }
}

/// Fills every `size`×`size` block of `output` with the rounded average of the same block of
/// `input`; the blocks on the right and bottom edges cover what is left.
///
/// # Safety
/// Both bitmaps are the host's, valid for the call, with `height` rows of `stride` bytes.
unsafe fn mosaic_bitmap(
    input: &DarkroomBitmap,
    output: &mut DarkroomBitmap,
    size: usize,
) -> Result<(), String> {
    let (width, height) = (input.width as usize, input.height as usize);
    if output.width != input.width || output.height != input.height {
        return Err("the output must have the input's size".to_string());
    }
    if input.pixels.is_null()
        || output.pixels.is_null()
        || input.stride < width * 4
        || output.stride < width * 4
    {
        return Err("the host passed a bitmap without pixels or with a short stride".to_string());
    }
    let source =
        |y: usize| std::slice::from_raw_parts(input.pixels.add(y * input.stride), width * 4);
    for top in (0..height).step_by(size) {
        let bottom = (top + size).min(height);
        for left in (0..width).step_by(size) {
            let right = (left + size).min(width);
            let mut sums = [0u64; 4];
            for y in top..bottom {
                for pixel in source(y)[left * 4..right * 4].chunks_exact(4) {
                    for (sum, &channel) in sums.iter_mut().zip(pixel) {
                        *sum += u64::from(channel);
                    }
                }
            }
            let count = ((bottom - top) * (right - left)) as u64;
            let average = sums.map(|sum| ((sum + count / 2) / count) as u8);
            for y in top..bottom {
                let row =
                    std::slice::from_raw_parts_mut(output.pixels.add(y * output.stride), width * 4);
                for pixel in row[left * 4..right * 4].chunks_exact_mut(4) {
                    pixel.copy_from_slice(&average);
                }
            }
        }
    }
    // The average of opaque pixels is opaque: the input's flag holds for the output.
    output.is_opaque = input.is_opaque;
    Ok(())
}
