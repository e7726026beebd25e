import HearthStore
import Testing

/// Values that would change a statement if they were ever written into its text (quotes,
/// comments, statement separators, `LIKE` wildcards, backslashes, non-ASCII text) go through
/// every store as data: stored and read back byte for byte, and found only by themselves.
@Suite struct SQLMetacharacterTests {
    /// Text that is SQL, or special to `LIKE`, `GLOB`, `ESCAPE` or string literals, but never
    /// NUL (which no text column of the product holds).
    static let hostile = [
        "'; DROP TABLE accounts; --",
        "\"; DROP TABLE installations; --",
        "' OR '1'='1",
        "%",
        "_",
        "\\",
        "\\'",
        "a%b_c\\d",
        "*?[a-z]",
        "') ; DELETE FROM action_codes WHERE ('1'='1",
        "Zoë 🌍 ﷽ Ω≈ç√ — 「引用」",
        "line\nbreak\ttab\r",
        "$1 ?1 :name @name",
    ]

    private func fixture(_ kind: StoreKind) throws -> StoreFixture {
        let fixture = try StoreFixture(kind)
        try fixture.addDemoProject()
        return fixture
    }

    @Test(arguments: StoreKind.allCases)
    func accountFieldsRoundTripByteForByteAndWildcardsMatchNothingElse(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        let plain = AccountRecord(
            projectID: "demo-project",
            localID: "plain",
            email: "ab@example.com",
            displayName: "Plain",
            createdAt: 1,
            validSinceSeconds: 1
        )
        var stored = [plain]
        for (index, value) in Self.hostile.enumerated() {
            stored.append(
                AccountRecord(
                    projectID: "demo-project",
                    localID: "u\(index)\(value)",
                    email: "\(value)\(index)@example.com",
                    passwordHash: value,
                    displayName: value,
                    photoURL: "https://example.com/\(value)",
                    customAttributes: value,
                    language: value,
                    createdAt: 1,
                    validSinceSeconds: 1,
                    phoneNumber: "+1\(index)\(value)"
                )
            )
        }
        let records = stored
        try fixture.store.write { transaction in
            for record in records { try transaction.insertAccount(record) }
        }
        var exact = 0
        for record in records {
            let email = try #require(record.email)
            let phone = record.phoneNumber
            let byID = try fixture.store.read { try $0.account(projectID: "demo-project", localID: record.localID) }
            let byEmail = try fixture.store.read { try $0.account(projectID: "demo-project", email: email) }
            #expect(byID == record, "by ID: \(record.localID.debugDescription)")
            #expect(byEmail == record, "by email: \(email.debugDescription)")
            if let phone {
                let byPhone = try fixture.store.read { try $0.account(projectID: "demo-project", phoneNumber: phone) }
                #expect(byPhone == record, "by phone: \(phone.debugDescription)")
            }
            if byID == record && byEmail == record { exact += 1 }
        }
        // Wildcards and comment tricks as whole lookups: each would match the other rows if
        // it reached SQL as a pattern or as statement text.
        let probes = ["%", "_", "%@example.com", "_b@example.com", "a_@example.com", "' OR '1'='1", "*", "%%"]
        var matched = 0
        for probe in probes {
            let byEmail = try fixture.store.read { try $0.account(projectID: "demo-project", email: probe) }
            let byID = try fixture.store.read { try $0.account(projectID: "demo-project", localID: probe) }
            #expect(byEmail == nil, "email lookup \(probe.debugDescription) found \(byEmail?.localID ?? "")")
            #expect(byID == nil, "ID lookup \(probe.debugDescription) found \(byID?.localID ?? "")")
            if byEmail != nil { matched += 1 }
            if byID != nil { matched += 1 }
        }
        let count = try fixture.store.read { try $0.accountCount(projectID: "demo-project") }
        #expect(count == Int64(records.count))
        print(
            "SQL metacharacters (\(kind.rawValue), accounts): \(records.count) stored, \(exact) read back exactly, "
                + "\(probes.count * 2) wildcard lookups matched \(matched) rows"
        )
    }

    @Test(arguments: StoreKind.allCases)
    func actionCodeAndInstallationFieldsRoundTripByteForByte(kind: StoreKind) throws {
        let fixture = try fixture(kind)
        var codes: [ActionCodeRecord] = []
        var installations: [InstallationRecord] = []
        for (index, value) in Self.hostile.enumerated() {
            codes.append(
                ActionCodeRecord(
                    codeHash: Array(repeating: UInt8(index + 1), count: 32),
                    projectID: "demo-project",
                    operation: "EMAIL_SIGNIN",
                    localID: value,
                    email: "\(value)@example.com",
                    newEmail: value,
                    continueURL: "https://app.example.org/\(value)?next=\(value)#\(value)",
                    language: value,
                    createdAt: 1,
                    expiresAt: 2
                )
            )
            installations.append(
                InstallationRecord(
                    projectID: "demo-project",
                    fid: "f\(index)\(value)",
                    appID: value,
                    refreshTokenHash: Array(repeating: UInt8(index), count: 32),
                    sdkVersion: value,
                    createdMilliseconds: 1,
                    lastSeenMilliseconds: 1
                )
            )
        }
        let plain = InstallationRecord(
            projectID: "demo-project",
            fid: "fab",
            appID: "1:100000000000:web:abc",
            refreshTokenHash: Array(repeating: 0xFF, count: 32),
            sdkVersion: "w:1",
            createdMilliseconds: 1,
            lastSeenMilliseconds: 1
        )
        installations.append(plain)
        let allCodes = codes
        let allInstallations = installations
        try fixture.store.write { transaction in
            for code in allCodes { try transaction.insertActionCode(code) }
            for installation in allInstallations { #expect(try transaction.insertInstallationIfNew(installation)) }
        }
        var exact = 0
        for code in allCodes {
            let read = try fixture.store.read { try $0.actionCode(hash: code.codeHash) }
            #expect(read == code, "action code for \(code.email.debugDescription)")
            if read == code { exact += 1 }
        }
        for installation in allInstallations {
            let read = try fixture.store.read { try $0.installation(projectID: "demo-project", fid: installation.fid) }
            #expect(read == installation, "installation \(installation.fid.debugDescription)")
            if read == installation { exact += 1 }
        }
        var matched = 0
        for probe in ["%", "_", "f%", "f_b", "fa_", "' OR '1'='1"] {
            let found = try fixture.store.read { try $0.installation(projectID: "demo-project", fid: probe) }
            #expect(found == nil, "FID lookup \(probe.debugDescription) found \(found?.fid ?? "")")
            if found != nil { matched += 1 }
        }
        #expect(
            try fixture.store.read { try $0.installationCount(projectID: "demo-project") } == allInstallations.count
        )
        print(
            "SQL metacharacters (\(kind.rawValue), codes and installations): \(allCodes.count + allInstallations.count) "
                + "stored, \(exact) read back exactly, 6 wildcard FID lookups matched \(matched) rows"
        )
    }
}
