import HearthBase

/// Collects a request body as it arrives in chunks, enforcing the size limit on the decoded
/// bytes and inflating gzip on the fly. Pure logic: the libmicrohttpd glue feeds it chunks.
struct RequestBody {
    enum Encoding: Equatable {
        case identity
        case gzip

        /// The coding named by a `Content-Encoding` value; `nil` for one the server cannot read
        /// (which becomes 415).
        init?(headerValue: String?) {
            guard let value = headerValue else {
                self = .identity
                return
            }
            switch value.trimmingASCIIWhitespace().lowercased() {
            case "", "identity": self = .identity
            case "gzip", "x-gzip": self = .gzip
            default: return nil
            }
        }
    }

    enum Failure: Error, Equatable {
        /// The decoded body passed the limit.
        case tooLarge
        /// `Content-Encoding: gzip` on bytes that are not (complete) gzip.
        case corruptGzip
    }

    let encoding: Encoding
    /// The most decoded bytes accepted.
    let limit: Int
    private(set) var bytes: [UInt8] = []
    /// Bytes received on the wire (before inflating).
    private(set) var receivedBytes = 0
    private(set) var failure: Failure?
    private var inflater: GzipInflater?

    /// - Parameter expectedLength: the `Content-Length`, if any, to reserve the buffer once
    ///   (capped by the limit, so a lying header cannot make the server allocate more).
    init(encoding: Encoding, limit: Int, expectedLength: Int?) {
        self.encoding = encoding
        self.limit = limit
        // An inflated body's size is unknown up front; it grows as it goes.
        if encoding == .identity, let expectedLength, expectedLength > 0 {
            bytes.reserveCapacity(min(expectedLength, limit))
        }
    }

    /// Wire bytes received when the body failed (they and later ones are discarded).
    private(set) var receivedBytesAtFailure = 0

    /// Whether a client that keeps sending after the body failed should be cut off: once it
    /// has sent more than `discardLimit` further bytes, the server stops reading and closes
    /// the connection instead of answering. Up to there the bytes are read and dropped, so the
    /// client can finish its write and read the 413.
    func shouldAbandon(discardLimit: Int) -> Bool {
        failure != nil && receivedBytes - receivedBytesAtFailure > discardLimit
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        receivedBytes += chunk.count
        guard failure == nil else { return }
        defer { if failure != nil { receivedBytesAtFailure = receivedBytes } }
        switch encoding {
        case .identity:
            guard bytes.count + chunk.count <= limit else {
                failure = .tooLarge
                bytes = []
                return
            }
            bytes.append(contentsOf: chunk)
        case .gzip:
            if inflater == nil { inflater = GzipInflater() }
            switch inflater!.inflate(chunk, into: &bytes, limit: limit) {
            case .inflated: break
            case .limitExceeded:
                failure = .tooLarge
                bytes = []
                inflater = nil
            case .corrupt:
                failure = .corruptGzip
                bytes = []
                inflater = nil
            }
        }
    }

    /// Ends the body: the bytes, or why there are none.
    mutating func finish() -> Result<[UInt8], Failure> {
        if let failure { return .failure(failure) }
        if let inflater, !inflater.atEndOfStream {
            failure = .corruptGzip
            return .failure(.corruptGzip)
        }
        return .success(bytes)
    }
}
