/// A write as a value the store runs in up to three steps, each allowed one kind of work:
///
/// * `plan` reads what the write depends on and decides what to change, or refuses by
///   throwing (any error). It runs inside the write's own transaction on the store's writing
///   connection, so what it reads still holds when the changes commit; it changes nothing, so
///   its refusal fails this write alone.
/// * `apply` makes the changes the plan decided. By its type it throws only `StoreError`:
///   it cannot refuse with a domain error after its first change, so the store runs it
///   without a savepoint of its own. A `StoreError` means the database failed mid-change, and
///   fails every write committed with it.
/// * `afterCommit` turns the durable value into the caller's answer (a token signed for the
///   FID the write chose, an email handed to the mail workers). It runs once the commit is
///   durable, outside any transaction; it is never run for a write that failed.
///
/// A body that may throw anything at any point goes to `Store.write(_:)` instead, which runs
/// it in a savepoint: the choice is made by the type of the write.
public struct StoreWrite<Plan, Value: Sendable, Answer: Sendable>: Sendable {
    public let plan: @Sendable (ReadTransaction) throws -> Plan
    public let apply: @Sendable (Plan, WriteTransaction) throws(StoreError) -> Value
    public let afterCommit: @Sendable (Value) throws -> Answer

    public init(
        plan: @escaping @Sendable (ReadTransaction) throws -> Plan,
        apply: @escaping @Sendable (Plan, WriteTransaction) throws(StoreError) -> Value,
        afterCommit: @escaping @Sendable (Value) throws -> Answer
    ) {
        self.plan = plan
        self.apply = apply
        self.afterCommit = afterCommit
    }
}

extension StoreWrite where Answer == Value {
    /// A write whose answer is what `apply` returned.
    public init(
        plan: @escaping @Sendable (ReadTransaction) throws -> Plan,
        apply: @escaping @Sendable (Plan, WriteTransaction) throws(StoreError) -> Value
    ) {
        self.init(plan: plan, apply: apply, afterCommit: { $0 })
    }
}

extension StoreWrite where Plan == Void {
    /// A write that needs no plan. `apply` takes the plan's `()` as its first argument, so
    /// the store calls it directly, without a wrapping closure.
    public init(
        apply: @escaping @Sendable ((), WriteTransaction) throws(StoreError) -> Value,
        afterCommit: @escaping @Sendable (Value) throws -> Answer
    ) {
        self.init(plan: { _ in () }, apply: apply, afterCommit: afterCommit)
    }
}

extension StoreWrite where Plan == Void, Answer == Value {
    /// A write that needs no plan and answers what `apply` returned.
    public init(apply: @escaping @Sendable ((), WriteTransaction) throws(StoreError) -> Value) {
        self.init(plan: { _ in () }, apply: apply, afterCommit: { $0 })
    }
}
