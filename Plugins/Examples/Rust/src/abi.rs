//! `#[repr(C)]` mirrors of the structs in Plugins/include/darkroom_plugin.h (ABI version 1),
//! written by hand so the crate needs no dependencies (no bindgen). The size checks at the end
//! fail the build if a mirror's layout drifts from the header's on a 64-bit target.

use std::os::raw::{c_char, c_void};

pub const DARKROOM_PLUGIN_ABI_VERSION: u32 = 1;

pub type DarkroomStatus = i32;
pub const DARKROOM_OK: DarkroomStatus = 0;
pub const DARKROOM_FAILED: DarkroomStatus = 1;
pub const DARKROOM_FAILED_TRANSIENT: DarkroomStatus = 2;

pub const DARKROOM_ERROR_CAPACITY: usize = 512;

pub const DARKROOM_KIND_NUMBER: u32 = 1;
pub const DARKROOM_KIND_INTEGER: u32 = 2;
pub const DARKROOM_KIND_SIZE: u32 = 3;
pub const DARKROOM_KIND_COLOR: u32 = 4;
pub const DARKROOM_KIND_CHOICE: u32 = 5;

pub const DARKROOM_PROCESSOR_INTRODUCES_TRANSPARENCY: u32 = 0x1;

/// `darkroom_error`: a host-allocated buffer for a one-line, NUL-terminated message.
#[repr(C)]
pub struct DarkroomError {
    pub message: [c_char; DARKROOM_ERROR_CAPACITY],
}

/// `darkroom_param`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DarkroomParam {
    pub name: *const c_char,
    pub kind: u32,
    pub min: f64,
    pub max: f64,
    pub choices: *const *const c_char,
    pub choice_count: u32,
    pub default_value: *const c_char,
    pub summary: *const c_char,
}

/// `darkroom_value`.
#[repr(C)]
pub struct DarkroomValue {
    pub kind: u32,
    pub number: f64,
    pub width: u32,
    pub height: u32,
    pub rgba: [u8; 4],
    pub word: *const c_char,
}

/// `darkroom_bitmap`: premultiplied RGBA8, rows `stride` bytes apart, owned by the host.
#[repr(C)]
pub struct DarkroomBitmap {
    pub pixels: *mut u8,
    pub width: u32,
    pub height: u32,
    pub stride: usize,
    pub is_opaque: u32,
}

pub type OutputSizeFn = unsafe extern "C" fn(
    args: *const DarkroomValue,
    arg_count: u32,
    input_width: u32,
    input_height: u32,
    output_width: *mut u32,
    output_height: *mut u32,
    user_data: *mut c_void,
    error: *mut DarkroomError,
) -> DarkroomStatus;

pub type ProcessFn = unsafe extern "C" fn(
    args: *const DarkroomValue,
    arg_count: u32,
    input: *const DarkroomBitmap,
    output: *mut DarkroomBitmap,
    user_data: *mut c_void,
    error: *mut DarkroomError,
) -> DarkroomStatus;

/// `darkroom_processor`. A NULL function pointer is `None` (the same bits, by Rust's guarantee
/// for `Option<fn>`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DarkroomProcessor {
    pub struct_size: u32,
    pub name: *const c_char,
    pub version: u32,
    pub summary: *const c_char,
    pub params: *const DarkroomParam,
    pub param_count: u32,
    pub flags: u32,
    pub user_data: *mut c_void,
    pub output_size: Option<OutputSizeFn>,
    pub process: Option<ProcessFn>,
}

/// `darkroom_plugin`. Providers and coders are not used here, so their element types are opaque.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DarkroomPlugin {
    pub struct_size: u32,
    pub abi_version: u32,
    pub name: *const c_char,
    pub version: *const c_char,
    pub processors: *const *const DarkroomProcessor,
    pub processor_count: u32,
    pub providers: *const *const c_void,
    pub provider_count: u32,
    pub coders: *const *const c_void,
    pub coder_count: u32,
}

/// Static data the host only reads. `Sync` is sound because the wrapped value is never written
/// after compilation (it lives in read-only statics) and the ABI forbids the host to write it:
/// sharing it between threads shares only reads. Raw pointers are not `Sync` by default, which is
/// all this wrapper overrides. Only `Copy` values qualify: a `Copy` type cannot hold an
/// `UnsafeCell`, so nothing inside can be mutated through a shared reference.
#[repr(transparent)]
pub struct ReadOnly<T: Copy>(pub T);

unsafe impl<T: Copy> Sync for ReadOnly<T> {}

/// Writes `message` NUL-terminated into the host's buffer (cut to fit, at a character
/// boundary) and returns `status`. Does nothing but return when `error` is NULL.
///
/// # Safety
/// `error` is NULL or points to a writable `darkroom_error`.
pub unsafe fn set_error(
    error: *mut DarkroomError,
    status: DarkroomStatus,
    message: &str,
) -> DarkroomStatus {
    if let Some(error) = error.as_mut() {
        let mut end = message.len().min(DARKROOM_ERROR_CAPACITY - 1);
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        for (slot, byte) in error
            .message
            .iter_mut()
            .zip(message.as_bytes()[..end].iter())
        {
            *slot = *byte as c_char;
        }
        error.message[end] = 0;
    }
    status
}

// The layouts of darkroom_plugin.h on LP64 targets (x86_64, aarch64), as `sizeof` gives them.
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<DarkroomError>() == 512);
    assert!(std::mem::size_of::<DarkroomParam>() == 64);
    assert!(std::mem::size_of::<DarkroomValue>() == 40);
    assert!(std::mem::size_of::<DarkroomBitmap>() == 32);
    assert!(std::mem::size_of::<DarkroomProcessor>() == 72);
    assert!(std::mem::size_of::<DarkroomPlugin>() == 72);
};
