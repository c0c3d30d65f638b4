/// A private copy of an encoded file at a fixed address, for C sessions that outlive one call.
///
/// giflib and libwebp's animation decoder keep pointers into their input between calls. A still
/// decode runs its whole session inside `PinnedBytes.with`, but an animation reader hands out one
/// frame per call, and an array's `withUnsafeBytes` pointer is only valid inside its closure. So
/// the reader copies the file once (encoded bytes: small next to one decoded frame) into memory
/// that lives exactly as long as this object, which the C session's owner keeps.
final class OwnedBytes {
    let buffer: UnsafeRawBufferPointer
    private let storage: UnsafeMutableRawBufferPointer

    init(copying bytes: [UInt8]) {
        // At least one byte, so the base address is never nil even for empty input.
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = storage.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        self.storage = storage
        self.buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<bytes.count])
    }

    deinit { storage.deallocate() }
}
