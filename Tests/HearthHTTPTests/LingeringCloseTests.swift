import Glibc
import Testing

@testable import HearthHTTP

/// ``LingeringClose`` on socket pairs: the test holds one end as the client, the other end is
/// handed over as the server's socket and closed at once, as libmicrohttpd closes its own.
@Suite struct LingeringCloseTests {
    private func pair() -> (server: Int32, client: Int32) {
        var ends: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    private func write(_ descriptor: Int32, count: Int) -> Bool {
        let bytes = [UInt8](repeating: 7, count: count)
        return send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == count
    }

    /// Whether `descriptor`'s peer is gone within `seconds` (end of stream or an error).
    private func peerCloses(_ descriptor: Int32, within seconds: Int32) -> Bool {
        var state = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&state, 1, seconds * 1000) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    @Test func keepsReadingAfterTheServerClosesUntilTheClientGoesQuiet() {
        let linger = LingeringClose(limitBytes: 1 << 20, limitSeconds: 10, quietSeconds: 1, capacity: 4)
        linger.start()
        defer { linger.stop() }
        let (server, client) = pair()
        defer { close(client) }
        linger.adopt(server)
        close(server)
        // The client can still write: its bytes are read and dropped.
        for _ in 0..<10 { #expect(write(client, count: 4096)) }
        // Once it sends nothing more, the socket is closed.
        #expect(peerCloses(client, within: 5))
    }

    @Test func closesAtTheByteLimit() {
        let linger = LingeringClose(limitBytes: 8192, limitSeconds: 10, quietSeconds: 5, capacity: 4)
        linger.start()
        defer { linger.stop() }
        let (server, client) = pair()
        defer { close(client) }
        linger.adopt(server)
        close(server)
        var failed = false
        for _ in 0..<100 where !failed {
            failed = !write(client, count: 4096)
            usleep(1000)
        }
        #expect(failed)
    }

    @Test func keepsNoMoreSocketsThanItsCapacityAndNoneWhoseClientHasClosed() {
        let linger = LingeringClose(limitBytes: 1 << 20, limitSeconds: 10, quietSeconds: 5, capacity: 1)
        linger.start()
        defer { linger.stop() }
        let first = pair()
        let second = pair()
        let finished = pair()
        defer { for end in [first.client, second.client] { close(end) } }
        close(finished.client)
        // Its client has closed: not kept, so it takes no room from the next.
        for server in [finished.server, first.server] {
            linger.adopt(server)
            close(server)
        }
        // Once the thread reads the first socket, it must still count against the capacity.
        #expect(write(first.client, count: 16))
        while linger.queuedForTesting > 0 { usleep(1000) }
        linger.adopt(second.server)
        close(second.server)
        // Over capacity: closed as without lingering.
        #expect(peerCloses(second.client, within: 1))
        #expect(write(first.client, count: 1024))
        #expect(!peerCloses(first.client, within: 1))
    }
}
