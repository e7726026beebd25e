import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A response as the test client saw it.
public struct TestResponse: Sendable {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object (empty when it is not one).
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// `error.message` of a Google error envelope.
    public var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    /// `error.status` of a Google error envelope.
    public var errorStatus: String? { (json["error"] as? [String: Any])?["status"] as? String }
}

public struct TestHTTPError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A deliberately small HTTP/1.1 client over one TCP connection, so tests can see exactly
/// what goes on the wire: keep-alive reuse, raw bodies, bad requests, half-sent uploads.
public final class TestHTTPClient {
    public let host: String
    public let port: Int
    /// The local address connections are made from (any loopback address reaches a server
    /// on 127.0.0.1); `nil`: the system's choice.
    public let sourceAddress: String?
    private var socket: Int32 = -1
    /// How many TCP connections this client has opened so far.
    public private(set) var connectionsOpened = 0
    private var buffer: [UInt8] = []

    public init(host: String = "127.0.0.1", port: Int, from sourceAddress: String? = nil) {
        self.host = host
        self.port = port
        self.sourceAddress = sourceAddress
    }

    deinit { close() }

    public func close() {
        if socket >= 0 { Glibc.close(socket) }
        socket = -1
        buffer = []
    }

    /// Opens the connection if it is not open.
    public func connect(timeoutSeconds: Int = 30) throws {
        guard socket < 0 else { return }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPError("socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        if let sourceAddress, Self.withIPv4(sourceAddress, port: 0, { Glibc.bind(fd, $0, $1) }) != 0 {
            Glibc.close(fd)
            throw TestHTTPError("bind to \(sourceAddress) failed: errno \(errno)")
        }
        guard Self.withIPv4(host, port: port, { Glibc.connect(fd, $0, $1) }) == 0 else {
            Glibc.close(fd)
            throw TestHTTPError("connect to \(host):\(port) failed: errno \(errno)")
        }
        socket = fd
        connectionsOpened += 1
    }

    /// Calls `body` (`bind`, `connect`) with the socket address of IPv4 `address` and `port`.
    private static func withIPv4(
        _ address: String,
        port: Int,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Sends a request and reads its response, reconnecting if the server closed the
    /// connection after the previous response.
    @discardableResult
    public func request(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil
    ) throws -> TestResponse {
        try connect()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body,
            !headers.contains(where: {
                $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding"
            })
        {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try sendRaw(Array(head.utf8) + (body ?? []))
        let response = try readResponse(method: method)
        if response.headers["connection"]?.lowercased() == "close" { close() }
        return response
    }

    /// A JSON request: `json` is serialised; `Content-Type: application/json` is added.
    @discardableResult
    public func json(
        _ method: String,
        _ path: String,
        _ json: Any? = nil,
        headers: [(String, String)] = []
    ) throws -> TestResponse {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }.map { [UInt8]($0) }
        return try request(method, path, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// Writes bytes as they are (for partial requests and malformed input).
    public func sendRaw(_ bytes: [UInt8]) throws {
        try connect()
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestHTTPError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one response (after `sendRaw`).
    public func readResponse(method: String = "GET") throws -> TestResponse {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestHTTPError("bad status line: \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces
            )
        }
        var body: [UInt8] = []
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) {
            body = []
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                let lineEnd = try readUntil([13, 10])
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0]
                buffer.removeFirst(lineEnd + 2)
                guard let size = Int(sizeText, radix: 16) else { throw TestHTTPError("bad chunk size") }
                try fill(size + 2)
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            try fill(length)
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while let more = try? receive(), !more.isEmpty { buffer += more }
            body = buffer
            buffer = []
            close()
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server has closed the connection (reads EOF without waiting long).
    public func serverClosedConnection(waitSeconds: Int = 5) -> Bool {
        guard socket >= 0 else { return true }
        var timeout = timeval(tv_sec: waitSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, 0)
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if let index = find(marker) { return index }
            let more = try receive()
            if more.isEmpty { throw TestHTTPError("connection closed before a full response") }
            buffer += more
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            let more = try receive()
            if more.isEmpty { throw TestHTTPError("connection closed mid-body") }
            buffer += more
        }
    }

    private func receive() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestHTTPError("recv failed or timed out: errno \(errno)") }
        return Array(chunk[..<count])
    }

    private func find(_ marker: [UInt8]) -> Int? {
        guard buffer.count >= marker.count else { return nil }
        for index in 0...(buffer.count - marker.count) where buffer[index] == marker[0] {
            if Array(buffer[index..<(index + marker.count)]) == marker { return index }
        }
        return nil
    }
}
