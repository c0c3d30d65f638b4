import DarkroomCore

/// Allocates a decoder's output bitmap and turns every failure into a `CodecError`.
///
/// Decoders check `DecodeLimits` from the header first; `Bitmap` then applies the hard ceiling of
/// `DecodeOptions.bitmapLimits`. Either way the caller sees one typed error naming the source.
enum CodecBitmap {
    /// A `width × height` bitmap whose bytes `fill` writes (every byte of the buffer, rows
    /// `bytesPerRow` apart). `fill` may throw a `CodecError`, which is passed through as is.
    static func make(
        width: Int, height: Int, limits: BitmapLimits, source: String,
        fill: (_ bytes: UnsafeMutableBufferPointer<UInt8>, _ bytesPerRow: Int) throws(CodecError) -> Void
    ) throws(CodecError) -> Bitmap {
        do {
            return try Bitmap(width: width, height: height, isOpaque: false, limits: limits) { bytes, bytesPerRow in
                try fill(bytes, bytesPerRow)
            }
        } catch let error as CodecError {
            throw error
        } catch let error as BitmapError {
            throw codecError(error, source: source)
        } catch {
            throw CodecError(.corrupt, source: source, "could not decode: \(error)")
        }
    }

    /// A `width × height` bitmap of transparent black (for canvases a frame is drawn onto).
    static func transparent(width: Int, height: Int, limits: BitmapLimits, source: String) throws(CodecError) -> Bitmap {
        do {
            return try Bitmap(width: width, height: height, limits: limits)
        } catch {
            throw codecError(error, source: source)
        }
    }

    static func codecError(_ error: BitmapError, source: String) -> CodecError {
        switch error {
        case .emptySize:
            return CodecError(.invalidDimensions, source: source, error.description)
        case .tooLarge, .bufferSizeMismatch:
            return CodecError(.tooLarge, source: source, error.description)
        }
    }
}
