import HearthHTTP
import HearthServer
import Testing

@Suite struct TrustedProxiesOptionTests {
    @Test func noProxyIsTrustedUnlessNamed() throws {
        #expect(try ServeOptions.parse([]).trustedProxies == .none)
        let named = try ServeOptions.parse(["--trusted-proxies", "10.0.0.5,10.1.0.0/16"]).trustedProxies
        #expect(named.contains("10.1.2.3") && !named.contains("10.2.0.1"))
    }

    @Test func aListWithAnEntryThatIsNoAddressIsRefusedNamingIt() {
        let error = #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--trusted-proxies", "10.0.0.5,nginx.internal"])
        }
        #expect(
            error?.message
                == "hearth serve: --trusted-proxies takes IP addresses and ranges (10.0.0.5, 10.1.0.0/16, fd00::/8) "
                + "separated by commas; \"nginx.internal\" is not one"
        )
    }
}
