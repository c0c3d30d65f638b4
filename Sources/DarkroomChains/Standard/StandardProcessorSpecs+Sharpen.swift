extension StandardProcessorSpecs {
    /// `sharpen(sigma: 1, amount: 1, threshold: 0)`: an unsharp mask on luminance.
    ///
    /// Sigma is capped at 10: sharpening works on detail a few pixels wide, and a mask wider than
    /// that is a local-contrast filter, which this kernel (a direct Gaussian, no reduced route as
    /// `blur` has) would make slow.
    public static let sharpen = ProcessorSpec(
        name: "sharpen", version: 1,
        summary: "unsharp mask on luminance: adds amount × (luma − blurred luma) where it exceeds threshold; alpha kept",
        parameters: [
            ParameterSpec(
                "sigma", .positive(upTo: 10), default: .number(1),
                summary: "standard deviation of the Gaussian blur, in pixels, > 0 and ≤ 10"),
            ParameterSpec(
                "amount", .number(0...10), default: .number(1),
                summary: "how much of the difference is added, 0…10 (0 changes nothing)"),
            ParameterSpec(
                "threshold", .number(0...255), default: .number(0),
                summary: "luma differences below this many levels (of 255) are left alone, 0…255"),
        ])
}
