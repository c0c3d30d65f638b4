/// `withUnsafeBytes` with a typed error, for the C libraries that read straight from our array.
///
/// libspng, libwebp and giflib all keep the input pointer between calls, so each decoder runs its
/// whole C session inside `body`; the pointer is valid for exactly that long.
enum PinnedBytes {
    static func with<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R {
        let outcome: Result<R, CodecError> = bytes.withUnsafeBytes { buffer in
            do throws(CodecError) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
