import DarkroomClient
import Foundation

/// The `enqueue --from` / `run --from` job list reader. Whatever the bytes, it returns jobs or
/// numbered mistakes (at most the limit asked for, in line order), and each job is what its own
/// line reads as when it is the only line of a list.
enum JobListFuzz {
    static let target = FuzzTarget(
        name: "joblist",
        summary: "job lists (--from): jobs or numbered mistakes, each job equal to its line read alone"
    ) { bytes in
        let data = Data(bytes)
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        if data.starts(with: [0xEF, 0xBB, 0xBF]), !lines.isEmpty { lines[0] = lines[0].dropFirst(3) }
        let maxErrors = 5
        switch SourceList.parse(data, name: "fuzz", maxErrors: maxErrors) {
        case .success(let requests):
            var previous = 0
            for request in requests {
                guard let number = request.line, number > previous, number <= lines.count else {
                    FuzzFailure.stop(
                        "joblist", "job \(request.source.debugDescription) has line \(String(describing: request.line)) after \(previous), of \(lines.count)")
                }
                previous = number
                // Alone, the line is its own list: a list strips one leading byte-order mark,
                // so a line that still starts with one (the list had two) gets one put back.
                let line = lines[number - 1]
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                let alone = SourceList.parse(Data((line.starts(with: bom) ? bom : []) + line), name: "fuzz")
                var expected = request
                expected.line = 1
                guard case .success(let single) = alone, single == [expected] else {
                    FuzzFailure.stop("joblist", "line \(number) reads as \(request) in the list but \(alone) alone")
                }
                // A bare line is its source, without the ASCII blanks around it.
                let trimmed = line.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
                if trimmed.first != UInt8(ascii: "{"), Array(request.source.utf8) != Array(trimmed) {
                    FuzzFailure.stop(
                        "joblist", "line \(number) gave the source \(request.source.debugDescription), not the trimmed line")
                }
            }
        case .failure(let failure):
            let numbers = failure.errors.compactMap(\.line)
            if failure.errors.isEmpty || failure.errors.count > maxErrors || numbers != numbers.sorted()
                || numbers.contains(where: { $0 < 1 || $0 > lines.count })
            {
                FuzzFailure.stop("joblist", "mistakes out of order or bounds: \(failure.errors.map(\.description))")
            }
        }
    }

    /// The blanks a job list trims: space, tab, CR, vertical tab, form feed.
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
