@_spi(Fuzzing) import DarkroomCache

/// The disk cache's reading of file names during scans and sweeps: a name is an entry only when
/// it is exactly 64 lowercase hex digits, and then it prints back to itself; a fan-out directory
/// only when it is two lowercase hex digits. Names are read as C strings, as `readdir` gives
/// them, so AddressSanitizer also checks that no read passes the terminating NUL.
enum CacheEntryNameFuzz {
    static let target = FuzzTarget(
        name: "cachename",
        summary: "cache entry and fan-out directory names: only exact lowercase hex, printed back unchanged"
    ) { bytes in
        // A C string of exactly the input's bytes up to its first NUL, in an allocation of its own.
        let name = Array(bytes.prefix(while: { $0 != 0 }))
        let cString = UnsafeMutablePointer<CChar>.allocate(capacity: name.count + 1)
        defer { cString.deallocate() }
        for (index, byte) in name.enumerated() { cString[index] = CChar(bitPattern: byte) }
        cString[name.count] = 0
        let text = String(decoding: name, as: UTF8.self)
        let isLowerHex = { (count: Int) in
            name.count == count && name.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        let entry = CacheEntryNames.entryName(cString)
        if (entry != nil) != isLowerHex(64) || (entry != nil && entry != text) {
            FuzzFailure.stop("cachename", "\(text.debugDescription) read as entry \(String(describing: entry))")
        }
        let directory = CacheEntryNames.directoryByte(cString)
        if (directory != nil) != isLowerHex(2) || directory.map(CacheEntryNames.directoryName).map({ $0 != text }) == true {
            FuzzFailure.stop("cachename", "\(text.debugDescription) read as directory \(String(describing: directory))")
        }
    }
}
