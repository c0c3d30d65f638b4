import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline

/// Runs a `ProcessPlan`: reads, renders and writes every item, `concurrency` at a time, on a
/// `BlockingWorkPool` so pixel work never runs on the cooperative pool. Different images on
/// different cores: for thumbnails that beats splitting one small image.
struct ProcessRunner: Sendable {
    var plan: ProcessPlan
    var chain: ProcessorChain
    var renderer: ImageRenderer
    var encoding: EncodeOptions
    var concurrency: Int

    /// Renders everything; `onRecord` is called once per input as each finishes (any order).
    func run(onRecord: @escaping @Sendable (ProcessRecord) -> Void) async -> (succeeded: Int, failed: Int) {
        let pool = BlockingWorkPool(threadCount: concurrency)
        defer { pool.shutdown() }
        var succeeded = 0, failed = 0
        await withTaskGroup(of: ProcessRecord.self) { group in
            var next = 0
            func startNext() {
                guard next < plan.items.count else { return }
                let item = plan.items[next]
                next += 1
                group.addTask { await renderOne(item, pool: pool) }
            }
            // Back-pressure: only `concurrency` items are in flight; the next starts when one ends.
            for _ in 0..<concurrency { startNext() }
            for await record in group {
                if record.ok { succeeded += 1 } else { failed += 1 }
                onRecord(record)
                startNext()
            }
        }
        return (succeeded, failed)
    }

    private func renderOne(_ item: ProcessPlan.Item, pool: BlockingWorkPool) async -> ProcessRecord {
        let chain = self.chain, renderer = self.renderer, format = plan.format, encoding = self.encoding
        do {
            return try await pool.run {
                let bytes = try FileIO.read(item.input)
                let request = RenderRequest(source: EncodedImage(bytes: bytes, sourceName: item.input), chain: chain,
                                            output: OutputOptions(format: format, encoding: encoding))
                let result = try renderer.render(request)
                let path = item.destination.path(for: result.format)
                try FileIO.writeAtomically(result.bytes, to: path)
                let t = result.timings
                return ProcessRecord(
                    input: item.input, ok: true, output: path, format: result.format.rawValue,
                    width: result.size.width, height: result.size.height, bytes: result.bytes.count,
                    ms: .init(decode: Self.round(t.decode), process: Self.round(t.process),
                              encode: Self.round(t.encode), total: Self.round(t.total)),
                    source: .init(format: result.source.format.rawValue, width: result.source.uprightSize.width,
                                  height: result.source.uprightSize.height, frames: result.source.frameCount),
                    firstFrameOnly: result.processedFirstFrameOnly)
            }
        } catch {
            return ProcessRecord(input: item.input, ok: false,
                                 error: .init(code: ErrorReport.code(of: error), message: ErrorReport.message(of: error, input: item.input)))
        }
    }

    static func round(_ ms: Double) -> Double { (ms * 100).rounded() / 100 }
}
