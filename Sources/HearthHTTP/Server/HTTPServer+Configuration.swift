public import HearthBase

#if canImport(Glibc)
    import Glibc
#endif

extension HTTPServer {
    /// Listening address, threads and the limits that protect the server from slow, greedy or
    /// hostile clients. Every limit is set explicitly because libmicrohttpd's defaults are
    /// "none" (no idle timeout, no body limit).
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal, or `localhost`. Defaults to loopback only; `0.0.0.0` or
        /// `::` listen on every interface.
        public var host: String
        /// 0 lets the system pick a free port (read it back from ``HTTPServer/boundPort``).
        public var port: Int
        /// Worker threads, each with its own epoll set; handlers run on them.
        public var threadCount: Int
        /// Open connections across every worker thread; one past it is answered 503
        /// (`Retry-After: 1`) and closed. At start-up the server raises its soft limit of open
        /// files to hold this many (and warns in the log if the hard limit is lower).
        public var connectionLimit: Int
        /// Open connections from one client address across every worker thread; one past it is
        /// answered 503 and closed. 0 means no limit. Behind a reverse proxy every connection
        /// comes from the proxy's address: raise it to the connection limit, or set 0.
        public var perIPConnectionLimit: Int
        /// The reverse proxies whose `X-Forwarded-For` names the client of a request they
        /// pass on (``Request/remoteAddress``); none by default. The connection limits still
        /// count the TCP peer.
        public var trustedProxies: TrustedProxies = .none
        /// Seconds a connection may sit idle — between body chunks, or while an answer waits
        /// for the client to read — before it is closed.
        public var connectionTimeoutSeconds: Int
        /// The time the request line and headers have, counted from when the connection is
        /// ready for a request (accepted, or its previous answer sent), so a kept-alive
        /// connection with no new request is closed after it too. A new connection past it is
        /// answered 408 and closed (a kept-alive one only closed); trickling bytes does not
        /// extend it.
        public var requestHeadTimeoutMilliseconds: Int
        /// The slowest average rate a request body may arrive at, after a grace of
        /// ``requestHeadTimeoutMilliseconds`` from the end of the headers; a slower one is cut
        /// off. 0 means no minimum (the idle timeout still applies).
        public var bodyMinimumBytesPerSecond: Int
        /// How long the server is idle (no request begun, no connection closed) before it hands
        /// freed memory back to the system (`malloc_trim`); 0 turns that off.
        public var idleMemoryTrimMilliseconds: Int
        /// Largest accepted request body after gzip inflation; larger ones get 413.
        public var maxBodyBytes: Int
        /// After a refusal sent before the request was read to its end (413, 415, and
        /// libmicrohttpd's own 431 and 400), the most bytes the server still reads and discards
        /// so that a client that is still sending finishes its write and reads the answer
        /// (see ``LingeringClose``); past it, or past ``refusalDrainSeconds``, it closes.
        public var refusalDrainBytes: Int
        /// The longest the server keeps reading a refused request (see ``refusalDrainBytes``).
        public var refusalDrainSeconds: Int
        /// Memory per connection for the request line, headers and I/O buffers; it bounds the
        /// size of the request line plus headers (about this many bytes less 400; larger
        /// requests get 431 or are dropped). libmicrohttpd zeroes this memory after every
        /// request, so every kept-alive connection holds all of it resident: 8 KiB keeps
        /// 10,000 idle connections near 80 MB and still holds headers of about 7.8 KB (the
        /// order of Apache's and nginx's 8 KiB header limits; an ID token is about 1 KB).
        public var connectionMemoryLimitBytes: Int
        /// Pending connections the kernel queues before accepting.
        public var listenBacklog: Int
        /// One JSON line per request; `nil` turns the access log off.
        public var accessLog: AccessLog?
        /// Where the server's own messages (and libmicrohttpd's) go.
        public var log: Log
        /// Fixed answers to `GET`/`HEAD` of exact paths (a health check), served without
        /// building a request or routing once ``HTTPServer/enableStaticResponses()`` is called.
        /// Health checks come often, from every load balancer; they should cost next to nothing.
        public var staticResponses: [String: Response] = [:]

        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            threadCount: Int = Configuration.processorCount,
            connectionLimit: Int = 10_000,
            perIPConnectionLimit: Int = 1_000,
            connectionTimeoutSeconds: Int = 30,
            requestHeadTimeoutMilliseconds: Int = 10_000,
            bodyMinimumBytesPerSecond: Int = 1_024,
            idleMemoryTrimMilliseconds: Int = 1_000,
            maxBodyBytes: Int = 1024 * 1024,
            refusalDrainBytes: Int = 16 * 1024 * 1024,
            refusalDrainSeconds: Int = 10,
            connectionMemoryLimitBytes: Int = 8 * 1024,
            listenBacklog: Int = 1024,
            accessLog: AccessLog? = AccessLog(),
            log: Log = Log()
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.connectionLimit = connectionLimit
            self.perIPConnectionLimit = perIPConnectionLimit
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.requestHeadTimeoutMilliseconds = requestHeadTimeoutMilliseconds
            self.bodyMinimumBytesPerSecond = bodyMinimumBytesPerSecond
            self.idleMemoryTrimMilliseconds = idleMemoryTrimMilliseconds
            self.maxBodyBytes = maxBodyBytes
            self.refusalDrainBytes = refusalDrainBytes
            self.refusalDrainSeconds = refusalDrainSeconds
            self.connectionMemoryLimitBytes = connectionMemoryLimitBytes
            self.listenBacklog = listenBacklog
            self.accessLog = accessLog
            self.log = log
        }

        /// The processors this process may run on.
        public static var processorCount: Int {
            max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }
    }
}
