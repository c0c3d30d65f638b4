import DarkroomCore

extension CoderRegistry {
    /// Every codec Darkroom ships: JPEG (libjpeg-turbo), PNG (libspng reads, libdeflate compresses), WebP (libwebp), GIF
    /// (giflib, decode only) and AVIF (libavif: dav1d decodes, aom encodes).
    public static let standard = CoderRegistry(
        decoders: [JPEGDecoder(), PNGDecoder(), WebPDecoder(), GIFDecoder(), AVIFDecoder()],
        encoders: [JPEGEncoder(), PNGEncoder(), WebPEncoder(), AVIFEncoder()]
    )
}
