import HearthHTTP
import Testing

/// Which address a request counts as coming from, behind trusted proxies and not.
@Suite struct TrustedProxiesTests {
    private let proxies = try! TrustedProxies(parsing: "10.0.0.5, 10.1.0.0/16,fd00::/8")

    @Test func aPeerThatIsNoTrustedProxyIsTheClientWhateverItsHeadersSay() {
        #expect(proxies.clientAddress(peer: "198.51.100.7", forwardedFor: ["203.0.113.9"]) == "198.51.100.7")
        #expect(TrustedProxies.none.clientAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.9"]) == "10.0.0.5")
    }

    @Test func behindATrustedProxyTheClientIsTheRightmostEntryThatIsNoTrustedProxy() {
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.9"]) == "203.0.113.9")
        // What the client wrote itself stands left of what the proxy appended, and is never read.
        #expect(
            proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["192.0.2.1, 198.51.100.2, 203.0.113.9"])
                == "203.0.113.9"
        )
        // A chain of trusted proxies (a load balancer before nginx) is walked through.
        #expect(
            proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["192.0.2.1, 203.0.113.9, 10.1.4.4"]) == "203.0.113.9"
        )
        // Several header lines read as one list, in the order received.
        #expect(
            proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["192.0.2.1", "203.0.113.9 , 10.1.4.4"])
                == "203.0.113.9"
        )
        #expect(proxies.clientAddress(peer: "fd00::1", forwardedFor: ["2001:db8::7"]) == "2001:db8::7")
    }

    @Test func anEntryThatIsNoAddressEndsTheWalkAtTheLastTrustedHop() {
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: []) == "10.0.0.5")
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: [""]) == "10.0.0.5")
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["unknown"]) == "10.0.0.5")
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.9, unknown, 10.1.0.9"]) == "10.1.0.9")
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["1.2.3.4.5"]) == "10.0.0.5")
        #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.9/8"]) == "10.0.0.5")
    }

    @Test func oneClientHasOneFormWhateverTheProxyWrote() {
        // A client's limits are counted by this text: two spellings of one address must not
        // count as two clients.
        for written in ["2001:0db8:0000::7", "[2001:db8::7]", "[2001:DB8::7]:443", "2001:db8:0:0:0:0:0:7"] {
            #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: [written]) == "2001:db8::7", "\(written)")
        }
        for written in ["203.0.113.9:5123", "::ffff:203.0.113.9", "[::ffff:203.0.113.9]:80"] {
            #expect(proxies.clientAddress(peer: "10.0.0.5", forwardedFor: [written]) == "203.0.113.9", "\(written)")
        }
    }

    @Test func rangesMatchTheirPrefixOnly() throws {
        let ranges = try TrustedProxies(parsing: "192.0.2.128/25,2001:db8:ff00::/40,0.0.0.0/0")
        #expect(ranges.contains("192.0.2.200"))
        #expect(try TrustedProxies(parsing: "192.0.2.128/25").contains("192.0.2.127") == false)
        #expect(try TrustedProxies(parsing: "2001:db8:ff00::/40").contains("2001:db8:ff7f::1"))
        #expect(try TrustedProxies(parsing: "2001:db8:ff00::/40").contains("2001:db8:fe00::1") == false)
        // An IPv4 range holds no IPv6 address, and the other way round.
        #expect(try TrustedProxies(parsing: "0.0.0.0/0").contains("::1") == false)
        #expect(try TrustedProxies(parsing: "::/0").contains("127.0.0.1") == false)
    }

    @Test(arguments: [
        "", ",", "10.0.0.256", "10.0.0.0/33", "fd00::/129", "10.0.0.0/-1", "10.0.0.0/", "example.com",
        "::ffff:10.0.0.0/104",
    ])
    func aListWithAnEntryThatIsNoAddressOrRangeIsRefused(list: String) {
        #expect(throws: TrustedProxies.InvalidEntry.self) { try TrustedProxies(parsing: list) }
    }
}
