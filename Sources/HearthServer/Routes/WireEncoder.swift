import HearthBase
import HearthHTTP

/// Turns a HearthWire value into a ``JSONValue`` through its own `Encodable` conformance, so
/// the server answers in exactly the shape the SDKs decode: a field the type does not declare
/// cannot be written, and a field it declares is written under its `CodingKeys` name.
///
/// Object members come out in the order the type encodes them — declaration order for a
/// synthesized conformance — which keeps answers byte-for-byte stable. `nil` optionals are
/// left out (`encodeIfPresent`), as Google's APIs leave out unset fields.
///
/// The installation and Secure Token answers, which every app launch and every signed-in
/// hour costs, are written straight into bytes instead (`WireJSON.swift`), still under the
/// same types' `CodingKeys`.
enum WireEncoder {
    /// The JSON of `value`. The encoder itself never fails; only a type's own `encode(to:)`
    /// could, and none of HearthWire's does, so a failure is a programming error.
    static func encode(_ value: some Encodable) -> JSONValue {
        let root = Slot()
        do {
            try value.encode(to: SlotEncoder(slot: root, codingPath: []))
        } catch {
            preconditionFailure("\(type(of: value)) failed to encode: \(error)")
        }
        return root.value
    }
}

extension Response {
    /// A 200 JSON answer of a HearthWire value (see ``WireEncoder``).
    static func wire(_ value: some Encodable) -> Response {
        .json(WireEncoder.encode(value))
    }
}

/// Where one encoded value goes. Containers hand out slots for their members before the
/// members are encoded, so a slot is a reference that is filled in later.
private final class Slot {
    private enum Kind { case empty, single, object, array }

    private var kind = Kind.empty
    private var single = JSONValue.null
    private var members: [(key: String, slot: Slot)] = []
    private var elements: [Slot] = []

    var value: JSONValue {
        switch kind {
        case .empty: .object(JSONObject())
        case .single: single
        case .object: .object(JSONObject(members.map { ($0.key, $0.slot.value) }))
        case .array: .array(elements.map(\.value))
        }
    }

    func set(_ value: JSONValue) {
        kind = .single
        single = value
    }

    /// A new slot for `key` in this object (replacing an earlier member of that name).
    func member(_ key: String) -> Slot {
        makeObject()
        let slot = Slot()
        members.removeAll { $0.key == key }
        members.append((key, slot))
        return slot
    }

    /// A new slot at the end of this array.
    func element() -> Slot {
        makeArray()
        let slot = Slot()
        elements.append(slot)
        return slot
    }

    var count: Int { kind == .array ? elements.count : 0 }

    func makeObject() { kind = .object }
    func makeArray() { kind = .array }
}

/// The JSON of the scalar kinds `Encodable` knows.
private enum Scalar {
    static func int(_ value: some BinaryInteger) -> JSONValue {
        if let exact = Int64(exactly: value) { return .int(exact) }
        return .double(Double(value))
    }
}

private struct SlotEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeObject()
        return KeyedEncodingContainer(KeyedSlotContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeArray()
        return UnkeyedSlotContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleSlotContainer(slot: slot, codingPath: codingPath)
    }
}

private struct KeyedSlotContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func put(_ value: JSONValue, _ key: Key) { slot.member(key.stringValue).set(value) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(Scalar.int(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(Scalar.int(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try value.encode(to: SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    /// The same object: a superclass's fields join the subclass's.
    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        SlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedSlotContainer: UnkeyedEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    var count: Int { slot.count }

    private func put(_ value: JSONValue) { slot.element().set(value) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.double(value)) }
    mutating func encode(_ value: Float) throws { put(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int8) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int16) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int32) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int64) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt8) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt16) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt32) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt64) throws { put(Scalar.int(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: SlotEncoder(slot: slot.element(), codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        SlotEncoder(slot: slot.element(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        SlotEncoder(slot: slot.element(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { SlotEncoder(slot: slot.element(), codingPath: codingPath) }
}

private struct SingleSlotContainer: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    private func put(_ value: JSONValue) { slot.set(value) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.double(value)) }
    mutating func encode(_ value: Float) throws { put(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int8) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int16) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int32) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: Int64) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt8) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt16) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt32) throws { put(Scalar.int(value)) }
    mutating func encode(_ value: UInt64) throws { put(Scalar.int(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: SlotEncoder(slot: slot, codingPath: codingPath))
    }
}
