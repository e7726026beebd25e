import Foundation
import HearthBase
import HearthHTTP
import HearthTestSupport
import Synchronization

/// A real HTTP listener in front of a real `hearth` server: it answers the first requests with
/// the failures of a script (429 and 503 in Hearth's own error envelopes) and forwards every
/// later one to the server, recording when each request arrived.
///
/// It stands in for a Hearth that is overloaded: the installation routes have no rate limit
/// that a test could trip, and the 503 a starting server answers lasts too short a moment to
/// aim at. Everything else is real — the client's URLSession, sockets, and, once the script
/// is spent, Hearth's answers.
final class FaultInjectingFront: Sendable {
    /// One request that reached the listener.
    struct Arrival: Sendable {
        var method: String
        var path: String
        /// The client's clock when the request arrived (the test's ``ManualTime``).
        var clientTime: Date
        /// The status the listener answered.
        var status: Int
    }

    /// The script and the arrivals, shared with the server's handler.
    private final class Record: Sendable {
        let arrivals = Mutex<[Arrival]>([])
        let script: Mutex<[Int]>
        init(script: [Int]) { self.script = Mutex(script) }
    }

    private let server: HTTPServer
    private let record: Record

    /// Listens on a free loopback port; `failures` are answered in order, then requests go to
    /// `upstream`. `time` is read at each arrival.
    init(failures: [Int], upstream: HearthServerProcess, time: ManualTime) throws {
        let record = Record(script: failures)
        self.record = record
        let upstreamPort = upstream.port
        var configuration = HTTPServer.Configuration(threadCount: 1, accessLog: nil)
        configuration.log = Log(minimumLevel: .error)
        server = HTTPServer(configuration: configuration) { request in
            let failure = record.script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            let response = failure.map(Self.failure) ?? Self.forward(request, toPort: upstreamPort)
            record.arrivals.withLock {
                $0.append(
                    Arrival(
                        method: request.method.rawValue,
                        path: request.path,
                        clientTime: time.now,
                        status: response.status.code
                    )
                )
            }
            return response
        }
        try server.start()
    }

    deinit { server.stop() }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.boundPort ?? 0)")! }

    /// Every request that reached the listener, in order.
    var received: [Arrival] { record.arrivals.withLock { $0 } }

    /// The error envelope Hearth answers with the status (see `GoogleAPIError`).
    private static func failure(_ status: Int) -> Response {
        let error: GoogleAPIError =
            switch status {
            case 429:
                GoogleAPIError(code: 429, message: "Too many requests; try again later.", status: .resourceExhausted)
            case 503: .unavailable("The server is starting; try again shortly.")
            default: GoogleAPIError(code: HTTPStatus(code: status), message: "Scripted failure.", status: nil)
            }
        return error.response()
    }

    /// The upstream server's answer to the same request.
    private static func forward(_ request: Request, toPort port: Int) -> Response {
        let client = TestHTTPClient(port: port)
        defer { client.close() }
        var target = request.path
        if !request.query.isEmpty {
            var components = URLComponents()
            components.queryItems = request.query.map { URLQueryItem(name: $0.name, value: $0.value) }
            target += "?" + (components.percentEncodedQuery ?? "")
        }
        // The body is already inflated; hop-by-hop and framing headers are the client's own.
        let dropped: Set<String> = ["host", "content-length", "connection", "content-encoding", "accept-encoding"]
        let headers = request.headers.fields.filter { !dropped.contains($0.name) }.map { ($0.name, $0.value) }
        do {
            let answer = try client.request(request.method.rawValue, target, headers: headers, body: request.body)
            var responseHeaders = HTTPHeaders()
            if let type = answer.headers["content-type"] { responseHeaders.add("content-type", type) }
            return Response(status: HTTPStatus(code: answer.status), headers: responseHeaders, body: answer.body)
        } catch {
            return GoogleAPIError(code: 502, message: "The upstream hearth did not answer: \(error)", status: nil)
                .response()
        }
    }
}
