import DarkroomCache
import Testing

@Suite("Sizes and durations as people write them")
struct CacheTextParsingTests {
    @Test("Sizes: KB/MB/GB are powers of 1000, KiB/MiB/GiB and K/M/G powers of 1024, a plain number is bytes")
    func sizes() throws {
        #expect(try ByteCountText.parse("500MB") == 500_000_000)
        #expect(try ByteCountText.parse("2GiB") == 2_147_483_648)
        #expect(try ByteCountText.parse("2g") == 2_147_483_648)
        #expect(try ByteCountText.parse("1.5 KiB") == 1536)
        #expect(try ByteCountText.parse("750k") == 768_000)
        #expect(try ByteCountText.parse("1048576") == 1_048_576)
        #expect(try ByteCountText.parse("10 B") == 10)
        for bad in ["", "MB", "12 parsecs", "-5MB", "1e3", "99999999999TB"] {
            #expect(throws: ByteCountText.ParseError.self) { try ByteCountText.parse(bad) }
        }
        #expect(ByteCountText.format(1536) == "1.5 KiB")
        #expect(ByteCountText.format(999) == "999 B")
    }

    @Test("Durations: s, m, h, d, w and sums like 1h30m; a bare number is refused")
    func durations() throws {
        #expect(try DurationText.parse("7d") == .seconds(7 * 86_400))
        #expect(try DurationText.parse("12h") == .seconds(12 * 3600))
        #expect(try DurationText.parse("30m") == .seconds(1800))
        #expect(try DurationText.parse("1h30m") == .seconds(5400))
        #expect(try DurationText.parse("1.5h") == .seconds(5400))
        #expect(try DurationText.parse("2w") == .seconds(14 * 86_400))
        #expect(try DurationText.parse("200ms") == .milliseconds(200))
        #expect(try DurationText.parse("1m30s") == .seconds(90))
        for bad in ["", "7", "7 days", "h", "3y", "999999999999d"] {
            #expect(throws: DurationText.ParseError.self) { try DurationText.parse(bad) }
        }
        #expect(DurationText.format(.seconds(93_784)) == "1d2h3m4s")
    }
}
