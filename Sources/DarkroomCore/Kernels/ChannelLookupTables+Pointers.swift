extension ChannelLookupTables {
    /// Calls `body` with the four tables' storage (red, green, blue, alpha), for pixel loops.
    /// Every table holds exactly 256 entries (the initialiser guarantees it), so any byte indexes
    /// them safely.
    @inline(__always)
    func withUnsafeTables<R>(
        _ body: (
            _ red: UnsafePointer<UInt8>, _ green: UnsafePointer<UInt8>, _ blue: UnsafePointer<UInt8>,
            _ alpha: UnsafePointer<UInt8>
        ) throws -> R
    ) rethrows -> R {
        try red.withUnsafeBufferPointer { r in
            try green.withUnsafeBufferPointer { g in
                try blue.withUnsafeBufferPointer { b in
                    try alpha.withUnsafeBufferPointer { a in
                        // Never nil: 256 entries each.
                        try body(r.baseAddress!, g.baseAddress!, b.baseAddress!, a.baseAddress!)
                    }
                }
            }
        }
    }
}
