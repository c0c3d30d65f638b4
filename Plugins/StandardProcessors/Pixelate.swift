import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Fills each `size`×`size` block with its mean colour: `pixelate(12)`.
    ///
    /// Blocks are anchored at the top-left corner; the last block of a row or column covers what
    /// is left (fewer pixels) and is averaged over exactly those. The mean is taken of the
    /// premultiplied channels, alpha included, rounded to nearest, so transparent pixels add no
    /// colour and a block's colour is weighted by coverage (a half-transparent red pixel counts
    /// half). The image's size does not change; an opaque image stays opaque.
    public struct Pixelate: ImageProcessing, Hashable {
        /// The block side in pixels, at least 1 (1 leaves the image unchanged).
        public var size: Int

        /// Sizes below 1 become 1; above 4096, 4096.
        public init(size: Int) {
            self.size = min(4096, max(1, size))
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.pixelate) { args in
            Pixelate(size: args.integer("size"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "pixelate", version: Self.descriptor.version, arguments: [("size", .number(Double(size)))],
                positionalCount: 1)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            guard size > 1 else { return bitmap }
            let (width, height, block) = (bitmap.width, bitmap.height, size)
            return try Bitmap(width: width, height: height, isOpaque: bitmap.isOpaque, limits: bitmap.limits) { dst, dstRow in
                bitmap.withUnsafeBytes { src in
                    for top in stride(from: 0, to: height, by: block) {
                        let bottom = min(height, top + block)
                        for left in stride(from: 0, to: width, by: block) {
                            let right = min(width, left + block)
                            var sums = (0, 0, 0, 0)
                            for y in top..<bottom {
                                for x in left..<right {
                                    let i = y * bitmap.bytesPerRow + x * 4
                                    sums.0 += Int(src[i])
                                    sums.1 += Int(src[i + 1])
                                    sums.2 += Int(src[i + 2])
                                    sums.3 += Int(src[i + 3])
                                }
                            }
                            let count = (bottom - top) * (right - left)
                            // Rounded to nearest; a channel's sum never exceeds alpha's, so the
                            // means stay valid premultiplied values.
                            let mean = [sums.0, sums.1, sums.2, sums.3].map { UInt8(($0 + count / 2) / count) }
                            for y in top..<bottom {
                                for x in left..<right {
                                    let i = y * dstRow + x * 4
                                    dst[i] = mean[0]
                                    dst[i + 1] = mean[1]
                                    dst[i + 2] = mean[2]
                                    dst[i + 3] = mean[3]
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Pixelate {
    /// Fills each `size`×`size` block, from the top-left, with its premultiplied mean colour.
    public static func pixelate(_ size: Int) -> ImageProcessors.Pixelate { .init(size: size) }
}
