import CGif

/// The input side of giflib's `DGifOpen`: hands giflib bytes from a buffer in memory.
///
/// Safety: giflib stores `Unmanaged.passUnretained(reader).toOpaque()` in `GifFileType.UserData`
/// and calls `read` with it until the file is closed. `GIFFile` therefore keeps the reader as a
/// stored property (alive as long as the giflib handle) and is itself created and closed inside
/// the `withUnsafeBytes` scope that produced `bytes`, so neither the object nor the buffer can
/// go away while giflib may still read. The reader is only used from the thread running that
/// scope. An animation reader, whose session spans many calls, passes the `OwnedBytes` the
/// buffer belongs to instead, which the reader then keeps alive.
final class GIFMemoryReader {
    private let bytes: UnsafeRawBufferPointer
    /// The owner of `bytes` when they are not pinned by the caller's scope.
    private let owner: OwnedBytes?
    private(set) var offset = 0
    /// Set when giflib asked for more bytes than were left: the file is truncated.
    private(set) var ranOut = false

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.owner = nil
    }

    init(owned: OwnedBytes) {
        self.bytes = owned.buffer
        self.owner = owned
    }

    /// True when every byte has been consumed.
    var isAtEnd: Bool { offset >= bytes.count }

    /// Moves to `offset`: back, for a second walk over the records, or to a frame's descriptor
    /// that another reader over the same bytes found (`GIFFrameIndices`).
    func rewind(to offset: Int) {
        self.offset = offset
        ranOut = false
    }

    /// Copies up to `count` bytes into `destination`; returns how many were copied. giflib treats
    /// a short read as an error (`D_GIF_ERR_READ_FAILED`).
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard count > 0, let base = bytes.baseAddress else { return 0 }
        let available = max(0, bytes.count - offset)
        let n = min(count, available)
        if n < count { ranOut = true }
        if n > 0 {
            UnsafeMutableRawPointer(destination).copyMemory(from: base + offset, byteCount: n)
            offset += n
        }
        return n
    }

    /// The C callback giflib calls; finds the reader through `UserData`.
    static let inputFunction: InputFunc = { gif, destination, count in
        guard let gif, let destination, count > 0, let user = gif.pointee.UserData else { return 0 }
        let reader = Unmanaged<GIFMemoryReader>.fromOpaque(user).takeUnretainedValue()
        return Int32(reader.read(into: destination, count: Int(count)))
    }
}
