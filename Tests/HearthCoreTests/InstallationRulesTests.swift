import HearthCore
import Testing

@Suite struct FIDTests {
    @Test func generatedFIDsAreWellFormedDistinctAndUseAllFourLeadingCharacters() {
        let fids = (0..<4_000).map { _ in FID.generate() }
        #expect(fids.allSatisfy(FID.isWellFormed))
        #expect(Set(fids).count == fids.count)
        #expect(Set(fids.map { $0.first! }) == ["c", "d", "e", "f"])
    }

    @Test func theHeaderNibbleIsForcedTo0111() {
        #expect(FID.make(fromRandom: [UInt8](repeating: 0xFF, count: 17)).first == "f")
        #expect(FID.make(fromRandom: [UInt8](repeating: 0x00, count: 17)) == "cAAAAAAAAAAAAAAAAAAAAA")
    }

    @Test func theShapesClientsSendThatAreNotFIDsAreRejected() {
        #expect(FID.isWellFormed("dGVzdC1maWQtMTIzNDU2Nz"))
        // pyfm: standard base64 with padding, 24 characters.
        #expect(!FID.isWellFormed("cGVzdC1maWQtMTIzNDU2Nzg="))
        #expect(!FID.isWellFormed("cGVzdC1maWQtMTIzNDU2Nz+"))
        #expect(!FID.isWellFormed("cGVzdC1maWQtMTIzNDU2N/"))
        #expect(!FID.isWellFormed(""))
        // A migrated 11-character IID.
        #expect(!FID.isWellFormed("dy1ebDcq-R0"))
        // Wrong header bits: the first character must be c, d, e or f.
        #expect(!FID.isWellFormed("aGVzdC1maWQtMTIzNDU2Nz"))
        #expect(!FID.isWellFormed("gGVzdC1maWQtMTIzNDU2Nz"))
        #expect(!FID.isWellFormed("dGVzdC1maWQtMTIzNDU2Nzz"))
        #expect(!FID.isWellFormed("dGVzdC1maWQtMTIzNDU2N "))
        #expect(!FID.isWellFormed("dGVzdC1maWQtMTIzNDU2Né"))
    }
}

@Suite struct RefreshTokenTests {
    @Test func aTokenMatchesItsOwnHashOnly() {
        let (token, hash) = InstallationRefreshToken.generate()
        let (other, _) = InstallationRefreshToken.generate()
        #expect(token.hasPrefix("3_"))
        #expect(hash.count == 32)
        #expect(InstallationRefreshToken.matches(token, storedHash: hash))
        #expect(!InstallationRefreshToken.matches(other, storedHash: hash))
        #expect(!InstallationRefreshToken.matches(token + "x", storedHash: hash))
    }

    @Test func theAuthorizationHeaderMustUseTheFISv2Scheme() {
        #expect(InstallationRefreshToken.fromAuthorization("FIS_v2 3_abc") == "3_abc")
        #expect(InstallationRefreshToken.fromAuthorization("fis_v2   3_abc ") == "3_abc")
        #expect(InstallationRefreshToken.fromAuthorization("Bearer 3_abc") == nil)
        #expect(InstallationRefreshToken.fromAuthorization("FIS_v2") == nil)
        #expect(InstallationRefreshToken.fromAuthorization("FIS_v2 ") == nil)
        #expect(InstallationRefreshToken.fromAuthorization(nil) == nil)
        #expect(InstallationRefreshToken.fromAuthorization("FIS_v2 " + String(repeating: "a", count: 600)) == nil)
    }
}

@Suite struct RetryScheduleTests {
    @Test func theDelayDoublesFromTheBaseUpToTheCap() {
        let schedule = RetrySchedule(baseMilliseconds: 30_000, maximumMilliseconds: 6 * 3_600_000, maximumAttempts: 20)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 1) == 30_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 2) == 60_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 3) == 120_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 10) == 15_360_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 11) == 21_600_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 19) == 21_600_000)
    }

    @Test func afterTheLastAttemptThereIsNoDelayButGivingUp() {
        let schedule = RetrySchedule(baseMilliseconds: 100, maximumMilliseconds: 1_000, maximumAttempts: 3)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 2) == 200)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 3) == nil)
    }

    @Test func hugeAttemptCountsDoNotOverflow() {
        let schedule = RetrySchedule(baseMilliseconds: 1 << 40, maximumMilliseconds: 1 << 62, maximumAttempts: 1_000)
        #expect(schedule.delayMilliseconds(afterFailedAttempts: 900) == 1 << 62)
    }
}

@Suite struct LastSeenPolicyTests {
    @Test func aBusyInstallationRecordsAtMostHourly() {
        let inactivity: Int64 = 270 * 86_400
        let seen: Int64 = 1_000_000
        #expect(!LastSeenPolicy.shouldRecord(lastSeen: seen, now: seen + 1, inactivitySeconds: inactivity))
        #expect(!LastSeenPolicy.shouldRecord(lastSeen: seen, now: seen + 3_599_999, inactivitySeconds: inactivity))
        #expect(LastSeenPolicy.shouldRecord(lastSeen: seen, now: seen + 3_600_000, inactivitySeconds: inactivity))
    }

    @Test func aShortInactivityWindowRecordsAtATenthOfIt() {
        #expect(LastSeenPolicy.resolutionMilliseconds(inactivitySeconds: 600) == 60_000)
        #expect(LastSeenPolicy.shouldRecord(lastSeen: 0, now: 60_000, inactivitySeconds: 600))
        #expect(!LastSeenPolicy.shouldRecord(lastSeen: 0, now: 59_999, inactivitySeconds: 600))
    }
}

@Suite struct WebhookSignatureTests {
    private let secret = Array("whsec_test-secret".utf8)
    private let body = Array(#"{"fid":"dGVzdC1maWQtMTIzNDU2Nz","cause":"client"}"#.utf8)

    @Test func theHeaderCarriesTheTimestampAndTheHMACOfTimestampDotBody() {
        let header = WebhookSignature.header(secret: secret, timestamp: 1_735_689_600, body: body)
        // Computed independently: printf '1735689600.<body>' | openssl dgst -sha256 -hmac whsec_test-secret
        #expect(header == "t=1735689600,v1=" + Self.expectedHex)
        #expect(WebhookSignature.isValid(header: header, secret: secret, body: body, now: 1_735_689_700))
    }

    @Test func aChangedBodyAWrongSecretOrAnOldTimestampFail() {
        let header = WebhookSignature.header(secret: secret, timestamp: 1_735_689_600, body: body)
        #expect(!WebhookSignature.isValid(header: header, secret: secret, body: body + [0x20], now: 1_735_689_600))
        #expect(!WebhookSignature.isValid(header: header, secret: Array("x".utf8), body: body, now: 1_735_689_600))
        #expect(!WebhookSignature.isValid(header: header, secret: secret, body: body, now: 1_735_689_600 + 301))
        #expect(!WebhookSignature.isValid(header: "v1=00", secret: secret, body: body, now: 1_735_689_600))
    }

    static let expectedHex = "74aebc264e0ed236a5f9ee87a03ce227562719337f5966c99daad797723c065d"
}
