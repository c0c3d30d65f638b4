import DarkroomSystem

/// A one-line progress bar with rate and ETA, drawn on standard error only when it is a terminal
/// (so pipes, logs and CI output stay clean):
///
///     enqueue nightly [##########----------] 5,120/10,000  51%  3 failed  2,048/s  ETA 0:02
///
/// Redraws are throttled to ten a second, so calling `update` per job costs a lock and a clock
/// read. The rate is measured over the last ten seconds (a fleet that speeds up or stalls shows
/// it quickly), falling back to the average since start while there is too little history.
/// Thread-safe: tasks may update it concurrently; `total` may grow (`wait` on a batch that is
/// still being enqueued into).
///
/// When standard error is not a terminal (a CI log, `systemd`), the same line is instead printed
/// as a plain log line every `logInterval` (10 s), so a long `wait` still shows signs of life
/// without flooding the log.
final class ProgressBar: Sendable {
    let title: String
    /// Whether anything is drawn (fd 2 is a terminal, unless a test says otherwise).
    let isEnabled: Bool
    /// How often a plain progress line is logged when the bar is not drawn; nil: never.
    let logInterval: Duration?

    private struct State {
        var total: Int
        var finished = 0
        var failed = 0
        var lastDraw: ContinuousClock.Instant?
        /// (time, finished) at recent draws, oldest first, for the windowed rate.
        var samples: [(ContinuousClock.Instant, Int)] = []
        var isFinished = false
        var lastLog: ContinuousClock.Instant?
    }

    private let state: Locked<State>
    private let start: ContinuousClock.Instant
    /// The time redraws and log lines are spaced by (the continuous clock, or a test's).
    private let now: @Sendable () -> ContinuousClock.Instant
    private let output: @Sendable (String) -> Void
    private let width: @Sendable () -> Int

    static let redrawInterval = Duration.milliseconds(100)
    static let rateWindow = Duration.seconds(10)

    /// A bar for `total` items on standard error, drawn only when standard error is a terminal.
    convenience init(total: Int, title: String) {
        let isTerminal = Terminal.isTerminal(2)
        self.init(
            total: total, title: title, enabled: isTerminal, logInterval: isTerminal ? nil : .seconds(10),
            width: { Terminal.width(of: 2) }, output: { Terminal.write($0, to: 2) })
    }

    /// A bar writing to `output` (tests pass a collector and `enabled: true`, and may pass a
    /// `now` they move by hand).
    init(
        total: Int, title: String, enabled: Bool, logInterval: Duration? = nil, width: @escaping @Sendable () -> Int,
        output: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.now = now
        start = now()
        self.title = title
        self.isEnabled = enabled
        self.logInterval = enabled ? nil : logInterval
        self.width = width
        self.output = output
        state = Locked(State(total: max(total, 0)))
    }

    /// Records progress: `finished` items are done, `failed` of them unsuccessfully. Redraws when
    /// the last redraw is at least 100 ms old, or when everything is done.
    func update(finished: Int, failed: Int) {
        guard isEnabled || logInterval != nil else { return }
        state.withLock { state in
            state.finished = max(finished, 0)
            state.failed = max(failed, 0)
            if isEnabled {
                drawIfDue(&state, force: state.finished >= state.total)
            } else {
                logIfDue(&state)
            }
        }
    }

    /// Changes the total (more jobs joined the batch).
    func update(total: Int) {
        guard isEnabled || logInterval != nil else { return }
        state.withLock { state in
            state.total = max(total, 0)
            if isEnabled { drawIfDue(&state, force: false) }
        }
    }

    /// Prints a whole line above the bar (a warning, a failure) without garbling either.
    func message(_ line: String) {
        guard isEnabled else {
            StandardError.line(line)
            return
        }
        state.withLock { state in
            output("\r\u{1B}[K" + line + "\n")
            if state.lastDraw != nil, !state.isFinished { draw(&state, now: now()) }
        }
    }

    /// Draws the final state and ends the line. Later updates are ignored; calling twice is harmless.
    func finish() {
        guard isEnabled else { return }
        state.withLock { state in
            guard !state.isFinished else { return }
            draw(&state, now: now())
            state.isFinished = true
            output("\n")
        }
    }

    /// Removes the bar from the screen (when the command ends with its own output instead).
    func clear() {
        guard isEnabled else { return }
        state.withLock { state in
            guard !state.isFinished else { return }
            state.isFinished = true
            if state.lastDraw != nil { output("\r\u{1B}[K") }
        }
    }

    // MARK: Drawing

    /// A plain line, at most once per `logInterval`, the first one interval after the start.
    private func logIfDue(_ state: inout State) {
        guard let logInterval, !state.isFinished else { return }
        let now = now()
        guard now - (state.lastLog ?? start) >= logInterval else { return }
        state.lastLog = now
        state.samples.append((now, state.finished))
        while state.samples.count > 2, let oldest = state.samples.first, now - oldest.0 > Self.rateWindow {
            state.samples.removeFirst()
        }
        output(
            Self.render(
                title: title, finished: state.finished, failed: state.failed, total: state.total,
                rate: rate(state, now: now), elapsed: now - start,
                done: state.finished >= state.total, width: 100) + "\n")
    }

    private func drawIfDue(_ state: inout State, force: Bool) {
        guard !state.isFinished else { return }
        let now = now()
        if !force, let last = state.lastDraw, now - last < Self.redrawInterval { return }
        draw(&state, now: now)
    }

    private func draw(_ state: inout State, now: ContinuousClock.Instant) {
        state.lastDraw = now
        state.samples.append((now, state.finished))
        while state.samples.count > 2, let oldest = state.samples.first, now - oldest.0 > Self.rateWindow {
            state.samples.removeFirst()
        }
        let line = Self.render(
            title: title, finished: state.finished, failed: state.failed, total: state.total,
            rate: rate(state, now: now), elapsed: now - start, done: state.finished >= state.total,
            width: width())
        output("\r" + line + "\u{1B}[K")
    }

    /// Items per second over the recent window, or over the whole run while the window is short.
    private func rate(_ state: State, now: ContinuousClock.Instant) -> Double? {
        if let oldest = state.samples.first {
            let span = (now - oldest.0).inSeconds
            if span >= 1 { return Double(state.finished - oldest.1) / span }
        }
        let elapsed = (now - start).inSeconds
        return elapsed >= 0.5 ? Double(state.finished) / elapsed : nil
    }

    /// The bar's text for the given numbers, at most `width` columns (the bar itself shrinks, then
    /// goes, on narrow terminals). Pure, for tests.
    static func render(
        title: String, finished: Int, failed: Int, total: Int, rate: Double?, elapsed: Duration,
        done: Bool, width: Int
    ) -> String {
        let percent = total > 0 ? min(finished * 100 / total, 100) : 100
        var tail = " \(grouped(finished))/\(grouped(total)) \(percent < 10 ? "  " : percent < 100 ? " " : "")\(percent)%"
        if failed > 0 { tail += "  \(grouped(failed)) failed" }
        if let rate, rate.isFinite, rate >= 0 { tail += "  \(formatRate(rate))/s" }
        if done {
            tail += "  in \(clock(elapsed.inSeconds))"
        } else if let rate, rate > 0, rate.isFinite {
            tail += "  ETA \(clock(Double(max(total - finished, 0)) / rate))"
        } else {
            tail += "  ETA --"
        }
        let shownTitle = title.count > 30 ? String(title.prefix(29)) + "…" : title
        let room = width - 1 - shownTitle.count - 3 - tail.count
        guard room >= 5 else { return String((shownTitle + tail).prefix(max(width - 1, 0))) }
        let barWidth = min(room, 30)
        let filled = total > 0 ? min(finished, total) * barWidth / total : barWidth
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
        return "\(shownTitle) [\(bar)]\(tail)"
    }

    /// `12345` → `12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    static func formatRate(_ rate: Double) -> String {
        if rate >= 100 { return grouped(Int(rate.rounded())) }
        let tenths = Int((rate * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `75.2` → `1:15`; `3725` → `1:02:05`; absurd values → `>99h`.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--" }
        guard seconds < 360_000 else { return ">99h" }
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
