import DarkroomCore

extension CoderRegistry {
    /// Every codec Darkroom ships: JPEG (libjpeg-turbo), PNG (libspng reads, libdeflate compresses), WebP (libwebp) and GIF
    /// (giflib, decode only).
    public static let standard = CoderRegistry(
        decoders: [JPEGDecoder(), PNGDecoder(), WebPDecoder(), GIFDecoder()],
        encoders: [JPEGEncoder(), PNGEncoder(), WebPEncoder()]
    )
}
