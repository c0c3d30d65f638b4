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
                let alone = SourceList.parse(Data(lines[number - 1]), name: "fuzz")
                var expected = request
                expected.line = 1
                guard case .success(let single) = alone, single == [expected] else {
                    FuzzFailure.stop("joblist", "line \(number) reads as \(request) in the list but \(alone) alone")
                }
                if !request.source.hasPrefix("{"),
                    request.source.isEmpty || request.source.first!.isWhitespace
                        || request.source.last!.isWhitespace
                {
                    FuzzFailure.stop("joblist", "line \(number) gave the untrimmed source \(request.source.debugDescription)")
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
}
