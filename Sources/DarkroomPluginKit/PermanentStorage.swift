/// Memory for the C descriptor that is allocated once and never freed.
///
/// The ABI (darkroom_plugin.h, MEMORY) requires the descriptor and everything it points to —
/// names, parameter tables, choice lists, `user_data` — to stay valid and unchanged until the
/// process exits, and the host never unloads a plugin nor frees any of it. A C plugin uses
/// static storage; Swift cannot lay out C strings and pointer tables statically, so the kit
/// allocates them on the heap exactly once, when the module's `static let` is first read, and
/// keeps them for the life of the process. That is static storage made at run time, not a leak:
/// its size is fixed by the declarations (a few hundred bytes), it is reachable until the end,
/// and it does not grow however often the host calls in.
enum PermanentStorage {
    /// A NUL-terminated copy of `string` (a string with an interior NUL reads, in C, up to it).
    static func cString(_ string: String) -> UnsafePointer<CChar> {
        let bytes = string.utf8CString
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        _ = UnsafeMutableBufferPointer(start: copy, count: bytes.count).initialize(from: bytes)
        return UnsafePointer(copy)
    }

    /// `cString(_:)`, or NULL for nil.
    static func cString(_ string: String?) -> UnsafePointer<CChar>? {
        string.map { cString($0) }
    }

    /// A C array holding `elements`; NULL when there are none (the ABI pairs every array with a count).
    static func array<Element>(_ elements: [Element]) -> UnsafePointer<Element>? {
        guard !elements.isEmpty else { return nil }
        let copy = UnsafeMutablePointer<Element>.allocate(capacity: elements.count)
        _ = UnsafeMutableBufferPointer(start: copy, count: elements.count).initialize(from: elements)
        return UnsafePointer(copy)
    }

    /// One value on the heap.
    static func value<Value>(_ value: Value) -> UnsafePointer<Value> {
        let copy = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        copy.initialize(to: value)
        return UnsafePointer(copy)
    }
}
