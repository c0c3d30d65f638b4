extension PNGFileWriter {
    /// Writes `metadata` as ancillary chunks, between IHDR and the image data:
    /// - `iCCP`: profile name `ICC Profile`, compression method 0, the profile zlib-compressed;
    /// - `eXIf`: the TIFF block as is;
    /// - `iTXt` with the keyword `XML:com.adobe.xmp`, uncompressed, empty language and
    ///   translated keyword (what exiftool and libvips read as XMP).
    mutating func writeMetadata(_ metadata: ImageMetadata) throws(CodecError) {
        if let icc = metadata.icc, !icc.isEmpty {
            let compressed = try icc.withUnsafeBufferPointer { (profile) throws(CodecError) in
                try PNGEncoder.deflate(profile.baseAddress!, length: profile.count, level: 9)
            }
            defer { compressed.buffer.deallocate() }
            var data = Array("ICC Profile".utf8) + [0, 0]
            data.append(contentsOf: UnsafeRawBufferPointer(start: compressed.buffer, count: compressed.length))
            data.withUnsafeBytes { writeChunk("iCCP", $0) }
        }
        if let exif = metadata.exif, !exif.isEmpty {
            exif.withUnsafeBytes { writeChunk("eXIf", $0) }
        }
        if let xmp = metadata.xmp, !xmp.isEmpty {
            // keyword, NUL, compression flag 0, method 0, language "" NUL, translated "" NUL.
            let data = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp
            data.withUnsafeBytes { writeChunk("iTXt", $0) }
        }
    }
}
