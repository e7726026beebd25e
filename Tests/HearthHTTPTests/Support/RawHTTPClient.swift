import Glibc
import Synchronization

/// A response as read off the wire.
struct RawResponse {
    var status: Int
    /// Lower-cased names.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

struct RawClientError: Error, CustomStringConvertible {
    var description: String
}

/// One TCP connection driven by hand, so tests can see exactly what goes over it: several
/// requests on one connection, half-sent requests, and when the server closes it.
final class RawConnection {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; throws if the connection is refused.
    init(port: Int, receiveTimeoutSeconds: Int = 10) throws {
        // The socket becomes `descriptor` (which `deinit` closes) only once it is connected: a
        // throw after every stored property is set would run `deinit` too, and a second close
        // could hit a descriptor another thread (a server under test) has just been given.
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw RawClientError(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(socketDescriptor)
            throw RawClientError(description: code == ECONNREFUSED ? "connection refused" : "connect: \(code)")
        }
        descriptor = socketDescriptor
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw RawClientError(description: "send: \(errno)") }
            offset += written
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with `Content-Length` (when there is a body) and `Host`.
    func request(
        _ method: String,
        _ target: String,
        headers: [String] = [],
        body: [UInt8] = []
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Reads one response; its body is delimited by `Content-Length`.
    func readResponse(bodyExpected: Bool = true) throws -> RawResponse {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw RawClientError(description: "bad status line in \(head)")
                }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (
                        line[..<colon].lowercased(),
                        line[line.index(after: colon)...].trimmingCharacters(in: " ")
                    )
                }
                let length = bodyExpected ? Int(headers.first { $0.0 == "content-length" }?.1 ?? "0") ?? 0 : 0
                try fill(atLeast: end + 4 + length)
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return RawResponse(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
            }
            try receiveMore()
        }
    }

    /// Whether the server closed the connection within `seconds` (reading any stray bytes).
    func waitForClose(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while ContinuousClock.now < deadline {
            var descriptorState = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptorState, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 && errno == ECONNRESET { return true }
        }
        return false
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill(atLeast count: Int) throws {
        while buffer.count < count { try receiveMore() }
    }

    private func receiveMore() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else {
            throw RawClientError(description: count == 0 ? "connection closed by server" : "recv: \(errno)")
        }
        buffer += chunk[..<count]
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

/// Runs `body` on its own OS thread (not the test's concurrency pool, which blocking socket
/// calls would starve); `join()` waits for it.
final class TestThread: Sendable {
    private let done = Atomic<Bool>(false)

    init(_ body: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(Job(thread: self, body: body))
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            nil,
            { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.body()
                job.thread.done.store(true, ordering: .releasing)
                return nil
            },
            job.toOpaque()
        )
        precondition(started == 0)
        pthread_detach(thread)
    }

    /// Whether the thread finished within the timeout.
    @discardableResult
    func join(timeoutSeconds: Double = 30) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(timeoutSeconds * 1000)))
        while !done.load(ordering: .acquiring) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1000)
        }
        return true
    }

    private final class Job: Sendable {
        let thread: TestThread
        let body: @Sendable () -> Void

        init(thread: TestThread, body: @escaping @Sendable () -> Void) {
            self.thread = thread
            self.body = body
        }
    }
}

/// A value handed from a ``TestThread`` to the test.
final class Outcome<Value: Sendable>: Sendable {
    fileprivate let storage = Mutex<Value?>(nil)

    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

extension Outcome where Value == Int {
    func add(_ amount: Int) {
        storage.withLock { $0 = ($0 ?? 0) + amount }
    }
}
