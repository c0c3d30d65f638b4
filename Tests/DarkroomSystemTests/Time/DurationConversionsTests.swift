import DarkroomSystem
import Testing

@Suite("Duration conversions")
struct DurationConversionsTests {
    @Test("seconds and milliseconds as Double")
    func doubles() {
        #expect(Duration.milliseconds(1500).inSeconds == 1.5)
        #expect(Duration.microseconds(2500).inMilliseconds == 2.5)
        #expect(Duration.seconds(3).inMilliseconds == 3000)
    }

    @Test("whole milliseconds round toward zero and saturate")
    func wholeMilliseconds() {
        #expect(Duration.microseconds(1999).wholeMilliseconds == 1)
        #expect(Duration.seconds(-2).wholeMilliseconds == -2000)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeMilliseconds == .min)
    }

    @Test("nanoseconds saturate at zero below and Int64.max above")
    func saturatingNanoseconds() {
        #expect(Duration.milliseconds(1).saturatingNanoseconds == 1_000_000)
        #expect(Duration.seconds(-1).saturatingNanoseconds == 0)
        #expect(Duration.seconds(Int64.max / 2).saturatingNanoseconds == .max)
    }

    @Test("tenths of a second for messages, never negative")
    func tenths() {
        #expect(Duration.milliseconds(3290).wholeTenthsOfSeconds == 32)
        #expect(Duration.seconds(-5).wholeTenthsOfSeconds == 0)
    }

    @Test("timespec and timeval parts")
    func cParts() {
        let duration = Duration.seconds(2) + .nanoseconds(345_678_901)
        #expect(duration.asTimespec.tv_sec == 2)
        #expect(duration.asTimespec.tv_nsec == 345_678_901)
        #expect(duration.secondsAndMicroseconds == (2, 345_678))
    }
}
