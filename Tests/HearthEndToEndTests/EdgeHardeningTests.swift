import Foundation
import HearthTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real binary under connection floods and held connections: the per-address and overall
/// connection limits answer 503 and close, the request head deadline closes slow-header
/// connections whatever they trickle, another client stays served, and resident memory comes
/// back after load and stays bounded while 10,000 connections are held.
@Suite(.serialized) struct EdgeHardeningTests {
    /// A TCP connection to 127.0.0.1:`port` from `source` (any 127.0.0.0/8 address works on
    /// Linux loopback), non-blocking once connected. `nil` if the connect fails.
    static func connect(port: Int, from source: String = "127.0.0.1") -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = local
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        let ok = withUnsafePointer(to: &local) { localPointer in
            withUnsafePointer(to: &remote) { remotePointer in
                localPointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { l in
                    remotePointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { r in
                        bind(descriptor, l, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                            && Glibc.connect(descriptor, r, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
            }
        }
        guard ok else {
            close(descriptor)
            return nil
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    static func send(_ descriptor: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One `GET /healthz` on a new connection from `source`: whether it got 200 within 2 s.
    static func healthz(port: Int, from source: String) -> Bool {
        guard let descriptor = connect(port: port, from: source) else { return false }
        defer { close(descriptor) }
        send(descriptor, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            var state = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&state, 1, 100) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 200")
    }

    /// Resident set size of `pid`, in MiB, from /proc/<pid>/status.
    static func residentMiB(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { return -1 }
        return kib / 1024
    }

    /// Raises this process's open-file limit so the test can hold `count` sockets.
    static func allowDescriptors(_ count: Int) {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < rlim_t(count) {
            limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    /// What became of each of a set of connections: the first bytes the server sent on it and
    /// when it closed.
    struct Watched {
        var descriptor: Int32
        var opened: ContinuousClock.Instant
        var received: [UInt8] = []
        var closed: ContinuousClock.Instant?
        var status: String { String(decoding: received.prefix(12), as: UTF8.self) }
    }

    @Test("1,000 slow-header connections from one address: 503 past its limit, 408 at the deadline, others served")
    func slowHeaderFlood() throws {
        Self.allowDescriptors(4096)
        let headTimeoutMilliseconds = 3000
        let perAddress = 600
        let server = try HearthServerProcess(arguments: [
            "--request-head-timeout-ms", String(headTimeoutMilliseconds),
            "--per-ip-connection-limit", String(perAddress),
        ])
        var slow: [Watched] = []
        for _ in 0..<1000 {
            guard let descriptor = Self.connect(port: server.port) else { continue }
            Self.send(descriptor, "GET /healthz HTTP/1.1\r\n")
            slow.append(Watched(descriptor: descriptor, opened: .now))
        }
        defer { for connection in slow { close(connection.descriptor) } }
        var healthzServed = 0
        var healthzTried = 0
        let end = ContinuousClock.now + .milliseconds(headTimeoutMilliseconds + 4000)
        var nextTrickle = ContinuousClock.now + .seconds(1)
        var nextHealthz = ContinuousClock.now
        while ContinuousClock.now < end && slow.contains(where: { $0.closed == nil }) {
            var states = slow.map {
                pollfd(fd: $0.closed == nil ? $0.descriptor : -1, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&states, nfds_t(states.count), 100)
            for index in slow.indices where states[index].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(slow[index].descriptor, &chunk, chunk.count, 0)
                if count > 0 { slow[index].received += chunk[..<count] } else { slow[index].closed = .now }
            }
            if ContinuousClock.now >= nextTrickle {
                // One more header byte each second: an idle timeout would restart every time.
                for connection in slow where connection.closed == nil { Self.send(connection.descriptor, "X") }
                nextTrickle = .now + .seconds(1)
            }
            if ContinuousClock.now >= nextHealthz {
                healthzTried += 1
                if Self.healthz(port: server.port, from: "127.0.0.2") { healthzServed += 1 }
                nextHealthz = .now + .milliseconds(500)
            }
        }
        let refused = slow.filter { $0.status.hasPrefix("HTTP/1.1 503") }
        let timedOut = slow.filter { $0.status.hasPrefix("HTTP/1.1 408") }
        let stillOpen = slow.filter { $0.closed == nil }
        let slowestTimeout = timedOut.compactMap { connection in connection.closed.map { $0 - connection.opened } }
            .max()
        print(
            "slow-header flood: \(slow.count) connections opened, \(refused.count) answered 503 (per-address limit "
                + "\(perAddress)), \(timedOut.count) answered 408 at the \(headTimeoutMilliseconds) ms head deadline "
                + "(slowest close \(slowestTimeout.map { "\($0)" } ?? "none") after its connect), \(stillOpen.count) "
                + "still open; /healthz from 127.0.0.2: \(healthzServed) of \(healthzTried) served"
        )
        #expect(slow.count == 1000)
        #expect(refused.count == 1000 - perAddress)
        #expect(timedOut.count == perAddress)
        #expect(stillOpen.isEmpty)
        #expect(slowestTimeout.map { $0 < .milliseconds(headTimeoutMilliseconds + 1500) } == true)
        #expect(healthzTried >= 3)
        #expect(healthzServed == healthzTried)
    }

    @Test("Connections past the overall limit are answered 503 and closed, not left in the backlog")
    func overallLimit() throws {
        let server = try HearthServerProcess(arguments: [
            "--connection-limit", "200", "--per-ip-connection-limit", "0", "--request-head-timeout-ms", "60000",
        ])
        var held: [Watched] = []
        for index in 0..<250 {
            // Spread over addresses: the overall limit, not the per-address one, is what counts.
            guard let descriptor = Self.connect(port: server.port, from: "127.0.1.\(index % 50 + 1)") else { continue }
            held.append(Watched(descriptor: descriptor, opened: .now))
        }
        defer { for connection in held { close(connection.descriptor) } }
        let end = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < end && held.filter({ $0.closed != nil }).count < 50 {
            var states = held.map {
                pollfd(fd: $0.closed == nil ? $0.descriptor : -1, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&states, nfds_t(states.count), 100)
            for index in held.indices where states[index].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(held[index].descriptor, &chunk, chunk.count, 0)
                if count > 0 { held[index].received += chunk[..<count] } else { held[index].closed = .now }
            }
        }
        let refused = held.filter { $0.status.hasPrefix("HTTP/1.1 503") && $0.closed != nil }
        print("overall limit 200: \(held.count) connections, \(refused.count) answered 503 and closed")
        #expect(held.count == 250)
        #expect(refused.count == 50)
        #expect(
            refused.allSatisfy { String(decoding: $0.received, as: UTF8.self).contains("\"status\":\"UNAVAILABLE\"") }
        )
    }

    @Test("10,000 kept-alive idle connections stay under 150 MB; after they close RSS is under 50 MB within a minute")
    func memoryHoldingConnectionsAndAfter() throws {
        let count = 10_000
        Self.allowDescriptors(count + 1024)
        let server = try HearthServerProcess(arguments: [
            "--per-ip-connection-limit", "0", "--request-head-timeout-ms", "600000", "--connection-timeout", "600",
        ])
        let pid = try #require(server.process?.processIdentifier)
        let atStart = Self.residentMiB(pid)
        var held: [Watched] = []
        held.reserveCapacity(count)
        for index in 0..<count {
            guard let descriptor = Self.connect(port: server.port, from: "127.0.2.\(index % 200 + 1)") else { continue }
            Self.send(descriptor, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            held.append(Watched(descriptor: descriptor, opened: .now))
        }
        var answered = 0
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end && answered < held.count {
            var states = held.map {
                pollfd(fd: $0.closed == nil ? $0.descriptor : -1, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&states, nfds_t(states.count), 100)
            for index in held.indices where states[index].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let received = recv(held[index].descriptor, &chunk, chunk.count, 0)
                if received > 0 {
                    let before = String(decoding: held[index].received, as: UTF8.self).contains("\"ok\":true")
                    held[index].received += chunk[..<received]
                    if !before && String(decoding: held[index].received, as: UTF8.self).contains("\"ok\":true") {
                        answered += 1
                    }
                } else {
                    held[index].closed = .now
                }
            }
        }
        let open = held.filter { $0.closed == nil }.count
        let holding = Self.residentMiB(pid)
        for connection in held { close(connection.descriptor) }
        let closedAt = ContinuousClock.now
        var afterwards = Self.residentMiB(pid)
        while afterwards >= 50 && ContinuousClock.now - closedAt < .seconds(60) {
            _ = poll(nil, 0, 250)
            afterwards = Self.residentMiB(pid)
        }
        let settled = ContinuousClock.now - closedAt
        print(
            "memory: RSS \(atStart) MiB at start; \(holding) MiB holding \(open) kept-alive idle connections "
                + "(\(answered) answered); \(afterwards) MiB \(settled) after closing them"
        )
        #expect(answered == count)
        #expect(open == count)
        #expect(holding < 150)
        #expect(afterwards < 50)
    }

    @Test("After a sign-up and sign-in burst on four connections, RSS is back under 50 MB within a minute")
    func memoryAfterSignInLoad() throws {
        let server = try HearthServerProcess()
        let pid = try #require(server.process?.processIdentifier)
        let atStart = Self.residentMiB(pid)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let client = server.client()
            for index in 0..<25 {
                let account = ["email": "load\(worker)-\(index)@example.com", "password": "correct horse \(index)"]
                let signUp = try? client.call("accounts:signUp", account)
                let signIn = try? client.call("accounts:signInWithPassword", account)
                if signUp?.status != 200 || signIn?.status != 200 { failures.withLock { $0 += 1 } }
            }
        }
        let peak = Self.residentMiB(pid)
        let loadEnded = ContinuousClock.now
        var afterwards = peak
        while afterwards >= 50 && ContinuousClock.now - loadEnded < .seconds(60) {
            _ = poll(nil, 0, 250)
            afterwards = Self.residentMiB(pid)
        }
        print(
            "memory after sign-in load: RSS \(atStart) MiB at start, \(peak) MiB after 100 sign-ups and 100 "
                + "sign-ins on 4 connections, \(afterwards) MiB \(ContinuousClock.now - loadEnded) later"
        )
        #expect(failures.withLock { $0 } == 0)
        #expect(afterwards < 50)
    }
}
