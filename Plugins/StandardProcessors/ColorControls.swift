import DarkroomChains
import DarkroomCore
import Glibc

extension ImageProcessors {
    /// Brightness, contrast, saturation and exposure, as Kingfisher's `ColorControlsProcessor`
    /// applies Core Image's `CIColorControls` followed by `CIExposureAdjust`.
    ///
    /// Chain text: `colorControls(brightness: 0, contrast: 1, saturation: 1, exposure: 0)`; every
    /// argument is optional and named, and `colorControls` alone is the identity. On straight
    /// (un-premultiplied) sRGB values v in 0…1, in this order, each step clamped to 0…1:
    /// 1. saturation s (0…4): `v = L + s·(v − L)`, L the Rec. 709 luma `0.2126R + 0.7152G + 0.0722B`
    ///    (0 is grey, 1 unchanged);
    /// 2. contrast c (0…4) around mid-grey, then brightness b (−1…1) added: `v = (v − 0.5)·c + 0.5 + b`;
    /// 3. exposure e (−10…10 EV) in linear light: `v = srgb(linear(v)·2^e)`.
    /// Alpha is unchanged. Saturation is a colour matrix run on the premultiplied bytes; steps 2–3
    /// are one 256-entry table per channel, so the cost is one pass over the pixels.
    public struct ColorControls: ImageProcessing, Hashable {
        public var brightness: Double
        public var contrast: Double
        public var saturation: Double
        public var exposure: Double

        /// Values are clamped into their ranges (NaN becomes the neutral value).
        public init(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1, exposure: Double = 0) {
            self.brightness = ColorParameter.clamp(brightness, to: -1...1, fallback: 0)
            self.contrast = ColorParameter.clamp(contrast, to: 0...4, fallback: 1)
            self.saturation = ColorParameter.clamp(saturation, to: 0...4, fallback: 1)
            self.exposure = ColorParameter.clamp(exposure, to: -10...10, fallback: 0)
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.colorControls) { args in
            ColorControls(
                brightness: args.number("brightness"), contrast: args.number("contrast"),
                saturation: args.number("saturation"), exposure: args.number("exposure"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "colorControls", version: Self.descriptor.version,
                arguments: [
                    ("brightness", .number(brightness)), ("contrast", .number(contrast)),
                    ("saturation", .number(saturation)), ("exposure", .number(exposure)),
                ], positionalCount: 0)
        }

        /// The per-channel curve for contrast, brightness and exposure; nil when it is the identity.
        var curves: ChannelLookupTables? {
            guard brightness != 0 || contrast != 1 || exposure != 0 else { return nil }
            let (b, c, gain) = (brightness, contrast, pow(2, exposure))
            let applyExposure = exposure != 0
            return ChannelLookupTables(colorChannels: { v in
                var x = max(0, min(1, (v - 0.5) * c + 0.5 + b))
                if applyExposure {
                    x = SRGBTransfer.fromLinear(min(1, SRGBTransfer.toLinear(x) * gain))
                }
                return x
            })
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.applyingColorTransform(matrix: saturation == 1 ? nil : .saturation(saturation), curves: curves)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.ColorControls {
    /// Adjusts saturation, contrast, brightness and exposure; the defaults change nothing.
    public static func colorControls(
        brightness: Double = 0, contrast: Double = 1, saturation: Double = 1,
        exposure: Double = 0
    ) -> ImageProcessors.ColorControls {
        .init(brightness: brightness, contrast: contrast, saturation: saturation, exposure: exposure)
    }
}
