import Foundation
import HearthBase
import Testing

@Suite struct BackgroundThreadTests {
    #if os(Linux)
        @Test func aBackgroundThreadCarriesItsName() throws {
            let seen = ConditionLock<String?>(nil)
            startBackgroundThread(named: "hearth-test-1") {
                let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                seen.withLockThenBroadcast { $0 = name.trimmingCharacters(in: .newlines) }
            }
            let name = seen.wait(until: { $0 != nil }, timeoutMilliseconds: 10_000, then: { $0 })
            #expect(name == "hearth-test-1")
        }
    #endif
}
