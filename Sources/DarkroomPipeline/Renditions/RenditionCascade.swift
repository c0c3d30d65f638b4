import DarkroomChains
import DarkroomCore

/// Which renditions of a job are made from a larger rendition's intermediate instead of from the
/// shared decode, so a smaller size costs one small resample instead of one from the decode.
///
/// A rendition's *intermediate* is its bitmap after its chain's first processor. Only chains that
/// start with a pure reduction to a box take part, decided from the standard processors' names
/// (a plugin module's processor never qualifies, whatever its hint says):
/// - a **parent** starts with `downsample(…)`: it never enlarges, so its intermediate is the
///   decode reduced to its box, or the decode itself when the image already fits;
/// - a **child** starts with `downsample(…)` or `resize(…, mode: fit)`;
/// - a child's parent is the qualifying parent whose box (one-sided boxes bounded, as in the decode
///   hints) is at least the child's on both axes and differs from it: the smallest such box by
///   area, the earliest in the job's order on a tie. Anything else is made from the decode.
///
/// A child's first processor runs on its parent's intermediate as on a decode that shrank on
/// load (`Bitmap.sizeBeforeShrinkOnLoad` is the decoded image's own size), so its dimensions are
/// those it has alone; the rest of its chain runs on its own intermediate. Parents chain: 256 px
/// from 512 from 1024 from 2048. The result differs from the rendition made from the decode by a
/// few resampling roundings (measured in docs/benchmarks.md), so a child's cache key records its
/// lineage (`RenditionDecode.key`).
public struct RenditionCascade: Sendable, Equatable {
    /// For each rendition, the index of the rendition whose intermediate it is made from; nil:
    /// from the shared decode.
    public var parents: [Int?]

    /// Every rendition from the decode.
    public init(count: Int) {
        parents = Array(repeating: nil, count: count)
    }

    /// The cascade of renditions with these chains, in the job's order.
    public init(chains: [ProcessorChain]) {
        let boxes = chains.map { chain in Self.startsWithReduction(chain) ? chain.decodeHint?.box : nil }
        let parentBoxes = chains.indices.map { Self.canBeParent(chains[$0]) ? boxes[$0] : nil }
        parents = boxes.indices.map { index -> Int? in
            guard let box = boxes[index] else { return nil }
            var best: Int?
            for (candidate, larger) in parentBoxes.enumerated() {
                guard let larger, larger != box, larger.width >= box.width, larger.height >= box.height else { continue }
                if let chosen = best, let chosenBox = parentBoxes[chosen], chosenBox.area <= larger.area { continue }
                best = candidate
            }
            return best
        }
    }

    /// The renditions `wanted` need made, each after its parent: `wanted` and their ancestors,
    /// grouped by depth (those from the decode first). Renditions of one group are independent.
    public func levels(making wanted: [Int]) -> [[Int]] {
        var needed = Set<Int>()
        for index in wanted {
            var current: Int? = index
            while let node = current, needed.insert(node).inserted { current = parents[node] }
        }
        var levels: [[Int]] = []
        for index in needed.sorted() {
            let depth = self.depth(of: index)
            while levels.count <= depth { levels.append([]) }
            levels[depth].append(index)
        }
        return levels
    }

    /// How many parents stand between rendition `index` and the decode.
    public func depth(of index: Int) -> Int {
        var depth = 0
        var current = parents[index]
        while let node = current {
            depth += 1
            current = parents[node]
        }
        return depth
    }

    /// The first processors of rendition `index`'s ancestors, from the one made from the decode
    /// to its parent, joined by `>` (`downsample.v1(2048x2048)>downsample.v1(1024x1024)`); nil
    /// for a rendition made from the decode. With the source and the shared decode's hint, it
    /// names the bitmap the rendition is made from.
    public func lineage(of index: Int, chains: [ProcessorChain]) -> String? {
        var names: [String] = []
        var current = parents[index]
        while let node = current {
            names.append(chains[node].processors.first?.identifier ?? "")
            current = parents[node]
        }
        return names.isEmpty ? nil : names.reversed().joined(separator: ">")
    }

    /// True when `chain` starts with `downsample` or `resize(…, mode: fit)`, standard ones.
    static func startsWithReduction(_ chain: ProcessorChain) -> Bool {
        guard let first = chain.processors.first?.invocation, first.module == nil else { return false }
        switch first.name {
        case "downsample": return true
        case "resize": return first.arguments.contains { $0.label == "mode" && $0.value == .word("fit") }
        default: return false
        }
    }

    /// True when `chain` starts with the standard `downsample`, which never enlarges.
    static func canBeParent(_ chain: ProcessorChain) -> Bool {
        guard let first = chain.processors.first?.invocation else { return false }
        return first.module == nil && first.name == "downsample"
    }
}
