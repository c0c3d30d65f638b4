/// Processors applied in order. Order matters: `a |> b` and `b |> a` are different chains with
/// different identifiers, as SwiftUI modifiers are.
public struct ProcessorChain: Sendable, CustomStringConvertible {
    public var processors: [any ImageProcessing]

    public init(_ processors: [any ImageProcessing] = []) {
        self.processors = processors
    }

    /// The canonical text, `a(…)|>b(…)`: what job records store and `ChainParser` reads back.
    public var canonicalText: String { processors.map(\.canonicalText).joined(separator: "|>") }

    /// The versioned identifier, `a.v1(…)|>b.v1(…)`: what cache keys use. Empty for an empty chain.
    public var identifier: String { processors.map(\.identifier).joined(separator: "|>") }

    /// Cheap identity for in-memory lookups.
    public var hashableIdentifier: AnyHashable { AnyHashable(processors.map(\.hashableIdentifier)) }

    /// The first processor's shrink-on-load hint (only the first can use one: the decoder runs
    /// before it).
    public var decodeHint: DecodeHint? { processors.first?.decodeHint }

    /// True when any processor may make an opaque image transparent.
    public var introducesTransparency: Bool { processors.contains { $0.introducesTransparency } }

    public var description: String { canonicalText }

    /// Runs every processor in order over `item`.
    public func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> ImageProcessItem {
        var current = item
        for processor in processors {
            current = try processor.process(current, context: context)
        }
        return current
    }

    /// Runs every processor over decoded pixels.
    public func process(_ bitmap: Bitmap) throws -> Bitmap {
        var current = bitmap
        for processor in processors {
            current = try processor.process(current)
        }
        return current
    }
}

precedencegroup ProcessorChainPrecedence {
    associativity: left
    higherThan: AssignmentPrecedence
}

infix operator |> : ProcessorChainPrecedence

/// Chains two processors: `.downsample(to: 400×400) |> .blur(radius: 4)`.
public func |> <A: ImageProcessing, B: ImageProcessing>(lhs: A, rhs: B) -> ProcessorChain {
    ProcessorChain([lhs, rhs])
}

/// Appends a processor to a chain.
public func |> <B: ImageProcessing>(lhs: ProcessorChain, rhs: B) -> ProcessorChain {
    ProcessorChain(lhs.processors + [rhs])
}

/// Joins two chains.
public func |> (lhs: ProcessorChain, rhs: ProcessorChain) -> ProcessorChain {
    ProcessorChain(lhs.processors + rhs.processors)
}
