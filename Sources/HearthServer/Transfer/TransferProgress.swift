import HearthBase
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The progress bar of `hearth export` and `import` on standard error, redrawn in place at
/// most ten times a second; nothing at all when standard error is not a terminal, so logs
/// and scripts that capture it get no control characters.
final class TransferProgress: Sendable {
    private struct State {
        var done = 0
        var drawnAt: Int64 = 0
    }

    private let verb: String
    private let total: Int
    private let isShown: Bool
    private let clock = SystemClock()
    private let state = Mutex(State())
    private static let width = 30

    init(_ verb: String, totalRows: Int) {
        self.verb = verb
        total = totalRows
        isShown = isatty(STDERR_FILENO) == 1
    }

    /// Counts one more row of `table`.
    func advance(_ table: String) {
        guard isShown else { return }
        let now = clock.nowMilliseconds()
        let done: Int? = state.withLock { state in
            state.done += 1
            guard now - state.drawnAt >= 100 || state.done == total else { return nil }
            state.drawnAt = now
            return state.done
        }
        if let done { draw(done, table) }
    }

    /// Ends the bar's line.
    func finish() {
        guard isShown else { return }
        draw(state.withLock { $0.done }, "")
        fputs("\n", stderr)
    }

    private func draw(_ done: Int, _ table: String) {
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = min(Self.width, Int(fraction * Double(Self.width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
        let line = "\r\(verb) [\(bar)] \(Int(fraction * 100))% \(done)/\(total) rows \(table)\u{1B}[K"
        fputs(line, stderr)
    }
}
