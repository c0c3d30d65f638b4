import Glibc

/// A plugin written in Swift links the shared Swift runtime (`libswiftCore.so`) and must share
/// it with the host: a host linked with `--static-swift-stdlib` carries its own copy, and a
/// second runtime in one process corrupts both. Such a plugin is refused before `dlopen`.
enum SwiftRuntimeCheck {
    /// Why the library at `path` must not be loaded into this process, judged from its own
    /// `DT_NEEDED` entries before loading; a dependency that needs the runtime is caught after
    /// loading, by `sharedRuntimeIsLoaded` turning true.
    static func problem(loading path: String) -> String? {
        guard !hostUsesSharedSwiftRuntime else { return nil }
        guard ELFDependencies.neededLibraries(of: path).contains(where: { $0.hasPrefix("libswiftCore.so") }) else { return nil }
        return
            "it is a Swift plugin (it needs libswiftCore.so) and this darkroom links the Swift runtime statically; use a darkroom built without --static-swift-stdlib (plain `swift build` links the runtime dynamically)"
    }

    /// True when this binary uses the shared Swift runtime (it was loaded before any plugin).
    static let hostUsesSharedSwiftRuntime: Bool = sharedRuntimeIsLoaded

    /// True when the shared Swift runtime is loaded into this process now.
    static var sharedRuntimeIsLoaded: Bool {
        guard let handle = dlopen("libswiftCore.so", RTLD_NOLOAD | RTLD_LAZY) else { return false }
        dlclose(handle)
        return true
    }
}

/// Reads the `DT_NEEDED` entries of a 64-bit little-endian ELF shared library (what `readelf -d`
/// lists as NEEDED) without loading it. Anything else reads as no dependencies.
enum ELFDependencies {
    static func neededLibraries(of path: String) -> [String] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        // Every number comes from the file: sizes and offsets are bounded before they become
        // `Int`s, so a corrupt header is "no dependencies", never a trap.
        func read(_ offset: UInt64, _ count: UInt64) -> [UInt8]? {
            guard count <= 64 << 20, offset <= UInt64(Int64.max) - count else { return nil }
            let count = Int(count)
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        guard let header = read(0, 64), header.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else { return [] }
        let sectionsAt = header.integer(at: 0x28, size: 8)
        let sectionSize = Int(header.integer(at: 0x3A, size: 2))
        let sectionCount = Int(header.integer(at: 0x3C, size: 2))
        guard sectionSize >= 64, sectionCount > 0, sectionCount < 4096,
            let table = read(sectionsAt, UInt64(sectionSize * sectionCount))
        else { return [] }
        func section(_ index: Int) -> (type: UInt64, offset: UInt64, size: UInt64, link: Int) {
            // `link` is 4 bytes, so it fits an `Int`.
            let base = index * sectionSize
            return (
                table.integer(at: base + 4, size: 4), table.integer(at: base + 0x18, size: 8), table.integer(at: base + 0x20, size: 8),
                Int(table.integer(at: base + 0x28, size: 4))
            )
        }
        let dynamicType: UInt64 = 6
        guard let dynamicIndex = (0..<sectionCount).first(where: { section($0).type == dynamicType }) else { return [] }
        let dynamic = section(dynamicIndex)
        guard dynamic.link < sectionCount, let entries = read(dynamic.offset, dynamic.size) else { return [] }
        let strings = section(dynamic.link)
        guard let names = read(strings.offset, strings.size) else { return [] }
        var needed: [String] = []
        let neededTag: UInt64 = 1
        for entry in stride(from: 0, to: entries.count - 15, by: 16) where entries.integer(at: entry, size: 8) == neededTag {
            let offset = entries.integer(at: entry + 8, size: 8)
            guard offset < UInt64(names.count) else { continue }
            let start = Int(offset)
            needed.append(String(decoding: names[start...].prefix { $0 != 0 }, as: UTF8.self))
        }
        return needed
    }
}

extension [UInt8] {
    /// The little-endian unsigned integer of `size` bytes at `offset`, 0 when out of bounds.
    fileprivate func integer(at offset: Int, size: Int) -> UInt64 {
        guard offset >= 0, offset + size <= count else { return 0 }
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }
}
