/// A failure of the store. It carries the backend's message for logs; callers branch on `kind`.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A unique or primary-key constraint refused the write.
        case uniqueViolation
        /// Another constraint (foreign key, check, not null) refused the write.
        case constraintViolation
        /// The database stayed locked past the busy timeout.
        case busy
        /// The database server cannot be reached, is shutting down or restarting, lacks the
        /// resources to run the statement, or a statement ran past its timeout.
        case unavailable
        /// The transaction lost a race with another (a deadlock, a serialization failure):
        /// running it again may succeed.
        case conflict
        /// The database could not be opened or created.
        case cannotOpen
        /// The disk is full, unwritable, or failed.
        case io
        /// The store is shutting down or closed.
        case closed
        /// The schema is newer than this binary understands.
        case incompatibleSchema
        /// A stored value could not be decoded.
        case corruptValue
        /// Anything else the backend reported.
        case other
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "store error (\(kind)): \(message)" }

    /// Whether the store cannot take writes for now (a full or failing disk, a lock held too
    /// long, an unreachable database server, a race lost past its retries, shutting down):
    /// the request may succeed later, so it is answered 503.
    public var isUnavailable: Bool {
        switch kind {
        case .io, .busy, .closed, .unavailable, .conflict: true
        default: false
        }
    }

    /// Whether running the whole transaction again may succeed (the database chose it as the
    /// loser of a deadlock or a serialization conflict, and rolled it back).
    public var isRetryable: Bool { kind == .conflict }
}
