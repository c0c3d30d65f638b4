import CDarkroomPlugin
import DarkroomChains
import DarkroomCodecs
import DarkroomCore

/// The decode of a coder with `decode_ex`: the host tells it the shrink-on-load target and how
/// many threads it may use, collects the ICC profile it finds, and converts the pixels to sRGB
/// with it, as the built-in decoders do (or keeps it, when the job keeps `icc`).
extension ExternalDecoder {
    /// The most bytes an embedded ICC profile may have (larger ones fail the image: no real
    /// profile comes near it, and the host keeps the bytes while it converts).
    static let maxProfileBytes = 4 << 20
    /// The most bytes of EXIF or XMP a coder may hand over: a little more than one JPEG segment,
    /// the most any output keeps (`ImageMetadata.maximumEXIFBytes`); a larger block is not kept.
    static let maxMetadataBytes = 1 << 17

    func decodeExtended(
        _ image: EncodedImage, info: ImageInfo, options: DecodeOptions,
        _ decodeEx:
            @convention(c) (
                UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<darkroom_decode_request>?, UnsafeMutablePointer<darkroom_bitmap>?,
                UnsafeMutableRawPointer?, UnsafeMutablePointer<darkroom_error>?
            ) -> darkroom_status
    ) throws(CodecError) -> DecodedImage {
        let full = info.storedSize
        let target = options.hint.map { $0.targetSize(for: full) }
        let profileSink = HostByteSink(maxBytes: Self.maxProfileBytes, timeout: .infinity)
        // Offered only when the job keeps them, so a coder does not look for metadata no one uses.
        let exifSink = options.keep.needsEXIF ? HostByteSink(maxBytes: Self.maxMetadataBytes, timeout: .infinity) : nil
        let xmpSink = options.keep.contains(.xmp) ? HostByteSink(maxBytes: Self.maxMetadataBytes, timeout: .infinity) : nil
        var request = darkroom_decode_request()
        var bitmap = try StraightAlpha.bitmap(width: full.width, height: full.height, limits: options.bitmapLimits, source: image.sourceName) {
            bytes, bytesPerRow throws(CodecError) in
            // Zeroed first: a decoder that leaves pixels unwritten must not expose old heap contents.
            bytes.update(repeating: 0)
            var output = darkroom_bitmap(
                pixels: bytes.baseAddress, width: UInt32(full.width), height: UInt32(full.height), stride: bytesPerRow, is_opaque: 0)
            var error = darkroom_error()
            let status = profileSink.withCSink { sink in
                HostByteSink.withOptionalCSink(exifSink) { exif in
                    HostByteSink.withOptionalCSink(xmpSink) { xmp in
                        request = darkroom_decode_request()
                        request.struct_size = UInt32(MemoryLayout<darkroom_decode_request>.size)
                        request.target_width = UInt32(target?.width ?? 0)
                        request.target_height = UInt32(target?.height ?? 0)
                        request.thread_count = UInt32(RowBands.idleCores)
                        request.icc_sink = sink
                        request.exif_sink = exif
                        request.xmp_sink = xmp
                        return image.bytes.withUnsafeBufferPointer {
                            decodeEx($0.baseAddress, $0.count, &request, &output, entry.userData, &error)
                        }
                    }
                }
            }
            // The sinks live only inside the call: no pointer to them outlives it.
            request.icc_sink = nil
            request.exif_sink = nil
            request.xmp_sink = nil
            guard status == DARKROOM_OK else {
                throw CodecError(.corrupt, source: image.sourceName, PluginFailure.from(status: status, error: &error, subject: entry.subject).description)
            }
        }
        if let stop = profileSink.stopReason, stop != .stopped {
            throw CodecError(.colorProfile, source: image.sourceName, "\(entry.subject) wrote an ICC profile over \(Self.maxProfileBytes) bytes")
        }
        bitmap = try shrunk(bitmap, request: request, full: full, source: image.sourceName)
        var decodedInfo = info
        let profile = profileSink.bytes
        var metadata = ImageMetadata()
        if !profile.isEmpty {
            decodedInfo.hasICCProfile = true
            // Converted to sRGB (lenient: a profile lcms2 cannot use leaves the pixels as sRGB, as
            // browsers do), or kept for the encoder when the job keeps `icc`.
            metadata.icc = try ColorProfilePolicy.apply(
                &bitmap, profile: profile, source: image.sourceName, strict: options.limits.strict, keep: options.keep.contains(.icc))
        }
        // EXIF and XMP as the built-in decoders hand them on: a block over the limit, or EXIF
        // without a TIFF header, is dropped, never an error (ImageMetadata.prepared).
        if let exifSink, exifSink.stopReason == nil { metadata.exif = EXIFItem.tiff(in: exifSink.bytes.isEmpty ? nil : exifSink.bytes) }
        if let xmpSink, xmpSink.stopReason == nil, !xmpSink.bytes.isEmpty { metadata.xmp = xmpSink.bytes }
        return DecodedImage(bitmap: bitmap, info: decodedInfo, metadata: metadata)
    }

    /// The part of `bitmap` the coder wrote when it decoded smaller than the full size (its
    /// `decoded_width` × `decoded_height`, top-left), recorded as shrunk on load.
    private func shrunk(_ bitmap: Bitmap, request: darkroom_decode_request, full: PixelSize, source: String) throws(CodecError) -> Bitmap {
        let width = Int(request.decoded_width)
        let height = Int(request.decoded_height)
        guard width != 0 || height != 0, width != full.width || height != full.height else { return bitmap }
        guard (1...full.width).contains(width), (1...full.height).contains(height) else {
            throw CodecError(
                .corrupt, source: source,
                "\(entry.subject) says it decoded \(width)×\(height), outside the \(full.width)×\(full.height) bitmap it was given")
        }
        var cropped: Bitmap
        do {
            cropped = try bitmap.cropped(to: PixelRect(x: 0, y: 0, width: width, height: height))
        } catch {
            throw CodecError(.tooLarge, source: source, "cannot keep the \(width)×\(height) decode: \(error)")
        }
        // The zeroed rows and columns outside the decode made the whole bitmap look transparent.
        cropped.isOpaque = cropped.scanIsOpaque()
        cropped.sizeBeforeShrinkOnLoad = full
        return cropped
    }
}
