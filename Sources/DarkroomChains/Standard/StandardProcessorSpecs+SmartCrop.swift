extension StandardProcessorSpecs {
    /// `smartCrop`'s strategies, in declared order (`ImageProcessors.SmartCrop.Strategy`).
    public static let smartCropStrategies = ["attention", "entropy", "center"]

    /// `smartCrop(WxH, strategy: attention)`: scale to cover the box, keep the window that matters.
    public static let smartCrop = ProcessorSpec(
        name: "smartCrop", version: 2,
        summary: "scale to cover WxH, then keep the window a strategy picks",
        parameters: [
            ParameterSpec("size", .size, summary: "the output size, WxH"),
            ParameterSpec(
                "strategy", .choice(smartCropStrategies), default: .word("attention"),
                summary: "attention (edges, skin, warm colours), entropy (the busiest window) or center"),
        ])
}
