import HearthBase

/// The checks that keep a request's framing unambiguous (RFC 9112 §6.3 and §5.1): a request
/// that a proxy in front of the server could read with different boundaries than the server
/// does is refused, and its connection closed, so that bytes smuggled after it never run as a
/// request of their own. libmicrohttpd 0.9.75 tolerates each of these shapes; the server
/// checks them once the headers are in, before any body is read.
enum RequestFraming {
    /// Why a request's framing is refused: its status and the message of the error body.
    struct Refusal: Equatable, Sendable {
        var status: HTTPStatus
        var message: String
    }

    /// The refusal for a request target that held a byte below 0x20 or 0x7F (NUL included,
    /// which would otherwise cut the target short).
    static let controlByteInTarget = Refusal(
        status: .badRequest,
        message: "The request target holds a control character."
    )

    /// The refusal for `headers` (raw names as received, values), or `nil` when the framing
    /// is unambiguous.
    static func refusal(headers: [(name: String, value: String)]) -> Refusal? {
        var transferCodings: [String] = []
        var sawTransferEncoding = false
        var contentLengths: [String] = []
        for (name, value) in headers {
            if name.utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                return Refusal(status: .badRequest, message: "A header field name holds whitespace.")
            }
            switch name.lowercased() {
            case "transfer-encoding":
                sawTransferEncoding = true
                transferCodings += listElements(value)
            case "content-length":
                contentLengths += listElements(value)
            default:
                continue
            }
        }
        if sawTransferEncoding && !contentLengths.isEmpty {
            return Refusal(
                status: .badRequest,
                message: "The request has both Transfer-Encoding and Content-Length; send one."
            )
        }
        if sawTransferEncoding && transferCodings.map({ $0.lowercased() }) != ["chunked"] {
            return Refusal(
                status: .notImplemented,
                message: "The only transfer coding accepted is chunked."
            )
        }
        if let first = contentLengths.first {
            guard contentLengths.allSatisfy({ $0 == first }) else {
                return Refusal(status: .badRequest, message: "The request has differing Content-Length values.")
            }
            guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else {
                return Refusal(status: .badRequest, message: "The Content-Length is not a decimal number.")
            }
        }
        return nil
    }

    /// Whether `bytes` (a request target) holds a control byte: below 0x20, or DEL.
    static func holdsControlByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// The elements of a comma-separated header value, trimmed, empty ones dropped.
    private static func listElements(_ value: String) -> [String] {
        value.split(separator: ",", omittingEmptySubsequences: true)
            .map { String($0).trimmingASCIIWhitespace() }
            .filter { !$0.isEmpty }
    }
}
