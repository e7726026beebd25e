import Glibc
import HearthBase
import Testing

/// A pipe whose read end the test drains.
private final class Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Reads whatever is available within `timeoutMilliseconds`.
    func readAvailable(timeoutMilliseconds: Int32 = 0) -> String {
        var collected: [UInt8] = []
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        var timeout = timeoutMilliseconds
        while poll(&descriptor, 1, timeout) > 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(readEnd, &chunk, chunk.count)
            guard count > 0 else { break }
            collected += chunk[..<count]
            timeout = 0
        }
        return String(decoding: collected, as: UTF8.self)
    }
}

@Suite struct LogWriterTests {
    @Test func buffersLinesUntilFlushed() {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushInterval: .seconds(60))
        writer.appendLine { $0 += Array("one".utf8) }
        writer.appendLine { $0 += Array("two".utf8) }
        #expect(pipe.readAvailable() == "")
        writer.flush()
        #expect(pipe.readAvailable() == "one\ntwo\n")
    }

    @Test func flushesOnItsOwnAfterTheInterval() {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushInterval: .milliseconds(20))
        writer.appendLine { $0 += Array("tick".utf8) }
        #expect(pipe.readAvailable(timeoutMilliseconds: 2000) == "tick\n")
    }

    @Test func flushesWhenTheBufferPassesTheThreshold() {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushInterval: .seconds(60), flushThresholdBytes: 100)
        writer.appendLine { $0 += Array(repeating: UInt8(ascii: "a"), count: 60) }
        #expect(pipe.readAvailable() == "")
        writer.appendLine { $0 += Array(repeating: UInt8(ascii: "b"), count: 60) }
        let output = pipe.readAvailable()
        #expect(output.count == 122)
    }

    @Test func dropsAndCountsLinesWhenOutputIsStuck() throws {
        let pipe = Pipe()
        let writer = LogWriter(
            fileDescriptor: pipe.writeEnd,
            flushInterval: .seconds(60),
            flushThresholdBytes: 1 << 30,
            maximumBufferedBytes: 10
        )
        for _ in 0..<5 { writer.appendLine { $0 += Array("0123456789".utf8) } }
        writer.flush()
        let lines = pipe.readAvailable().split(separator: "\n")
        #expect(lines.first == "0123456789")
        #expect(lines.count == 2)
        let notice = try JSONValue.parse(Array(lines.last!.utf8))
        #expect(notice["dropped"] == 4)
        #expect(notice["level"] == "warning")
    }

    @Test func keepsLinesWholeUnderConcurrentWriters() async {
        let pipe = Pipe()
        let writer = LogWriter(fileDescriptor: pipe.writeEnd, flushInterval: .milliseconds(5), flushThresholdBytes: 512)
        let reader = Task.detached { () -> String in
            var all = ""
            while !all.hasSuffix("done\n") { all += pipe.readAvailable(timeoutMilliseconds: 1000) }
            return all
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<500 { writer.appendLine { $0 += Array("w\(worker)-\(index)".utf8) } }
                }
            }
        }
        writer.appendLine { $0 += Array("done".utf8) }
        writer.flush()
        let lines = await reader.value.split(separator: "\n")
        #expect(lines.count == 2001)
        #expect(Set(lines).count == 2001)
        #expect(lines.allSatisfy { $0 == "done" || $0.hasPrefix("w") })
    }
}

@Suite struct LogTests {
    @Test func writesOneJSONObjectPerMessage() throws {
        let pipe = Pipe()
        let log = Log(
            writer: LogWriter(fileDescriptor: pipe.writeEnd),
            clock: ManualClock(milliseconds: 1_700_000_000_123)
        )
        log.info("listening", ["port": 9099, "host": "127.0.0.1", "msg": "clash"])
        log.writer.flush()
        let line = pipe.readAvailable()
        #expect(
            line
                == #"{"ts":"2023-11-14T22:13:20.123Z","level":"info","msg":"listening","port":9099,"host":"127.0.0.1","_msg":"clash"}"#
                + "\n"
        )
        #expect(try JSONValue.parse(Array(line.utf8))["port"] == 9099)
    }

    @Test func skipsMessagesBelowTheMinimumLevel() {
        let pipe = Pipe()
        let log = Log(writer: LogWriter(fileDescriptor: pipe.writeEnd), minimumLevel: .warning)
        log.info("quiet")
        log.debug("quieter")
        log.error("loud \"quoted\"")
        log.writer.flush()
        let output = pipe.readAvailable()
        #expect(!output.contains("quiet"))
        #expect(output.contains(#""level":"error","msg":"loud \"quoted\"""#))
    }
}
