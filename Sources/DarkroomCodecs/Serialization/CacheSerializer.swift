import DarkroomCore

/// Picks the format a result is written in (Kingfisher's `FormatIndicatedCacheSerializer`).
///
/// The format asked for wins. Otherwise the result keeps the source's format, with two
/// exceptions: a JPEG source whose result has transparency (a round corner, a rotation by a
/// non-right angle, a transparent background) is written as PNG, because JPEG would flatten the
/// corners to a solid colour; and a GIF source is written as PNG, since Darkroom does not write GIF, as is
/// a source in a plugin module's format. An AVIF source is written as PNG too: AVIF is written
/// only when asked for, so its encoder settings are always in the result's cache key.
public enum CacheSerializer {
    public static func outputFormat(
        requested: ImageFormat?, source: ImageFormat,
        chainIntroducesTransparency: Bool, resultIsOpaque: Bool, animated: Bool = false
    ) -> ImageFormat {
        if let requested { return requested }
        // An animation processed frame by frame is written as an animated WebP (Darkroom writes
        // no GIF).
        if animated { return .webp }
        switch source {
        case .jpeg:
            return chainIntroducesTransparency || !resultIsOpaque ? .png : .jpeg
        case .png, .webp:
            return source
        default:
            // GIF, AVIF, and a plugin's format: written as PNG unless a format is asked for.
            return .png
        }
    }
}
