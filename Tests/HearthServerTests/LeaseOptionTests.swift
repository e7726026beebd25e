import HearthServer
import Testing

@Suite struct LeaseOptionTests {
    @Test func theSingletonLeaseLastsThirtySecondsUnlessToldOtherwise() throws {
        #expect(try ServeOptions.parse([]).leaseSeconds == 30)
        #expect(try ServeOptions.parse(["--lease-seconds", "2"]).leaseSeconds == 2)
        #expect(ServeOptions.usage.contains("--lease-seconds N"))
    }

    @Test(arguments: ["0", "-5", "3601", "ten", ""])
    func aLeaseThatIsNoWholeNumberOfSecondsFromOneToAnHourIsRefusedInOneLine(value: String) throws {
        let error = #expect(throws: UsageError.self) { try ServeOptions.parse(["--lease-seconds", value]) }
        #expect(
            error?.message == "hearth serve: --lease-seconds must be a whole number from 1 to 3600, not \"\(value)\""
        )
    }
}
