import CWebP

/// Writes `ImageMetadata` into an encoded WebP (still or animated) as its `ICCP`, `EXIF` and
/// `XMP ` chunks, through libwebpmux: the file is re-muxed into the extended (VP8X) layout,
/// which records in its flags which chunks are present. The image data is not re-encoded.
enum WebPMetadataMux {
    static func embed(_ metadata: ImageMetadata, into webp: [UInt8]) throws(CodecError) -> [UInt8] {
        guard !metadata.isEmpty else { return webp }
        let created = webp.withUnsafeBufferPointer { bytes in
            var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            return WebPMuxCreate(&data, 1)  // copy_data 1: the mux owns a copy
        }
        guard let mux = created else { throw WebPEncoder.failure("libwebp could not re-read its own output to add metadata") }
        defer { WebPMuxDelete(mux) }
        for (fourCC, payload) in [("ICCP", metadata.icc), ("EXIF", metadata.exif), ("XMP ", metadata.xmp)] {
            guard let payload, !payload.isEmpty else { continue }
            let status = payload.withUnsafeBufferPointer { bytes in
                var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                return WebPMuxSetChunk(mux, fourCC, &data, 1)
            }
            guard status == WEBP_MUX_OK else {
                throw WebPEncoder.failure("libwebp refused the \(fourCC) chunk (mux error \(status.rawValue))")
            }
        }
        var output = WebPData()
        let status = WebPMuxAssemble(mux, &output)
        guard status == WEBP_MUX_OK, let bytes = output.bytes, output.size > 0 else {
            throw WebPEncoder.failure("libwebp could not assemble the file with its metadata (mux error \(status.rawValue))")
        }
        defer { WebPDataClear(&output) }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }
}
