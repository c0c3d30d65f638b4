import DarkroomCodecs
import DarkroomCore

/// The host's walk of a HEIC file's `meta` box (`HEICHeaderLimits`), which runs before the HEIC
/// coder module sees a byte: any bytes, under the harness's small limits. It must end in a pass
/// or in `image.too-large` / `image.invalid-dimensions`, never read out of bounds or trap.
enum HEICHeaderFuzz {
    static let target = FuzzTarget(
        name: "heicheader",
        summary: "HEIC meta boxes as the host checks them before the module: meta size, tile count, every ispe"
    ) { bytes in
        do throws(CodecError) {
            try HEICHeaderLimits.check(Array(bytes), limits: ImageDecodingFuzz.limits, source: "fuzz")
        } catch {
            if error.code != .tooLarge && error.code != .invalidDimensions {
                FuzzFailure.stop("heicheader", "ended in \(error.code.rawValue): \(error)")
            }
        }
    }
}
