import HearthBase
import HearthStore
public import HearthWire

/// What the hosted action page may learn of a code without using it: mail scanners and link
/// pre-fetchers open links, so looking never changes anything.
public enum ActionCodeState: Sendable, Equatable {
    /// The code may be used now.
    case usable(ActionCodeInfo)
    /// It was used already.
    case used(ActionCodeOperation)
    case expired(ActionCodeOperation)
    /// It is a code of another project than the link's API key names.
    case otherProject
    /// No such code, or one that can no longer be used (its account changed its address or
    /// password since, or was disabled).
    case invalid
}

extension EmailActionService {
    /// The state of `code` in `project`, read without using it.
    public func state(of code: String, project: Project) throws -> ActionCodeState {
        let now = clock.nowMilliseconds()
        return try store.read { transaction in
            switch try check(code, project: project, in: transaction, now: now) {
            case .usable(let usable): return .usable(usable.info)
            case .used(let operation): return .used(operation)
            case .expired(let operation): return .expired(operation)
            case .void, .disabled: return .invalid
            case .unknown:
                guard !code.isEmpty, code.utf8.count <= ActionCode.maximumLength,
                    let record = try transaction.actionCode(hash: ActionCode.storageKey(code))
                else { return .invalid }
                return record.projectID == project.id ? .invalid : .otherProject
            }
        }
    }
}
