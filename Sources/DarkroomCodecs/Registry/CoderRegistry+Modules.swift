extension CoderRegistry {
    /// The module that decodes HEIC, as `Plugins/HEIC/build.sh` names it.
    public static let heicModuleFile = "darkroom-heic.so"

    /// The refusal of a HEIC source when no loaded coder decodes it: HEVC is patent-encumbered and
    /// Debian's libheif links the GPL x265, so HEIC is read by a module an operator chooses to load
    /// (docs/plugins.md), never by the `darkroom` binary itself.
    static func needsHEICModule(_ source: String) -> CodecError {
        CodecError(
            .needsModule, source: source,
            "is a HEIC image, which this darkroom decodes only with the HEIC coder module: load \(heicModuleFile) with --plugins DIR (docs/plugins.md)")
    }

    /// Whether these coders decode the pixels of `format` (a plugin coder may only read headers).
    public func decodes(_ format: ImageFormat) -> Bool {
        decoders.contains { $0.format == format && $0.decodesPixels }
    }
}
