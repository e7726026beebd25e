import HearthBase
import Testing

@Suite struct JSONValueTests {
    @Test func readsMembersAndElements() {
        let value: JSONValue = ["a": ["b": [10, 20]]]
        #expect(value["a"]?["b"]?[1] == 20)
        #expect(value["missing"] == nil)
        #expect(value["a"]?["b"]?[5] == nil)
        #expect(value[0] == nil)
        #expect(JSONValue.string("x")["a"] == nil)
    }

    @Test func readsInt64FromNumbersAndNumericStrings() {
        #expect(JSONValue.int(5).int64Value == 5)
        #expect(JSONValue.double(3600).int64Value == 3600)
        #expect(JSONValue.double(1.5).int64Value == nil)
        #expect(JSONValue.string("9223372036854775807").int64Value == .max)
        #expect(JSONValue.string("-12").int64Value == -12)
        #expect(JSONValue.string("12a").int64Value == nil)
        #expect(JSONValue.string(" 12").int64Value == nil)
        #expect(JSONValue.bool(true).int64Value == nil)
    }

    @Test func readsTypedScalars() {
        #expect(JSONValue.string("s").stringValue == "s")
        #expect(JSONValue.int(1).stringValue == nil)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.string("true").boolValue == nil)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.string("2.5").doubleValue == 2.5)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).objectValue?["a"] == 1)
    }

    @Test func comparesNumbersByValue() {
        #expect(JSONValue.int(1) == .double(1))
        #expect(JSONValue.double(1.5) != .int(1))
        #expect(JSONValue.int(.max) != .double(9_223_372_036_854_775_808.0))
        #expect(JSONValue.int(1) != .string("1"))
    }

    @Test func comparesObjectsRegardlessOfOrder() {
        #expect(JSONValue.object(["a": 1, "b": 2]) == .object(["b": 2, "a": 1]))
        #expect(JSONValue.object(["a": 1]) != .object(["a": 1, "b": 2]))
    }

    @Test func editsObjectMembers() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = "one"
        object["c"] = 3
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["a"] == "one")
        #expect(JSONObject([("x", 1), ("x", 2)]).members.count == 1)
    }
}
