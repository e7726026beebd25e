import Foundation
import Testing

@testable import Hearth

/// Every ``SecureStorage`` the SDK can use, each in a place of its own for one test.
enum SecureStorageKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// The 0600 files of Linux (and of any platform without the Keychain).
    case files
    #if canImport(Security)
        /// The Keychain of Apple platforms. Not run on Linux, where Security does not exist.
        case keychain
    #endif

    var testDescription: String { rawValue }

    /// A fresh, empty storage and a way to clean it up.
    func make() -> (storage: any SecureStorage, cleanUp: @Sendable () -> Void) {
        let unique = "hearth-storage-\(UUID().uuidString)"
        switch self {
        case .files:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(unique, isDirectory: true)
            return (FileStorage(directory: directory), { try? FileManager.default.removeItem(at: directory) })
        #if canImport(Security)
            case .keychain:
                let storage = KeychainStorage(service: unique)
                return (storage, { for key in ["entry", "other"] { try? storage.remove(key) } })
        #endif
        }
    }
}

/// The contract of ``SecureStorage``, which every implementation must pass.
@Suite("SecureStorage contract")
struct SecureStorageContractTests {
    @Test("A missing entry reads as nil, and removing it is not an error", arguments: SecureStorageKind.allCases)
    func missingEntry(kind: SecureStorageKind) throws {
        let (storage, cleanUp) = kind.make()
        defer { cleanUp() }
        #expect(try storage.read("entry") == nil)
        try storage.remove("entry")
        #expect(try storage.read("entry") == nil)
    }

    @Test("A write is read back whole; a second write replaces it", arguments: SecureStorageKind.allCases)
    func writeThenReplace(kind: SecureStorageKind) throws {
        let (storage, cleanUp) = kind.make()
        defer { cleanUp() }
        try storage.write(Data(#"{"fid":"first"}"#.utf8), for: "entry")
        #expect(try storage.read("entry") == Data(#"{"fid":"first"}"#.utf8))
        try storage.write(Data(#"{"fid":"second, longer than the first"}"#.utf8), for: "entry")
        #expect(try storage.read("entry") == Data(#"{"fid":"second, longer than the first"}"#.utf8))
        try storage.write(Data("short".utf8), for: "entry")
        #expect(try storage.read("entry") == Data("short".utf8), "nothing of a longer old entry is left")
    }

    @Test(
        "Entries under different keys are independent; removal takes only its own",
        arguments: SecureStorageKind.allCases
    )
    func keysAreIndependent(kind: SecureStorageKind) throws {
        let (storage, cleanUp) = kind.make()
        defer { cleanUp() }
        try storage.write(Data("one".utf8), for: "entry")
        try storage.write(Data("two".utf8), for: "other")
        try storage.remove("entry")
        #expect(try storage.read("entry") == nil)
        #expect(try storage.read("other") == Data("two".utf8))
    }

    @Test("Files are mode 0600 in a directory of mode 0700, and no temporary file is left behind")
    func filesAreTheUsersOnly() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-storage-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = FileStorage(directory: directory)
        try storage.write(Data("one".utf8), for: "entry")
        try storage.write(Data("two".utf8), for: "entry")
        func mode(_ url: URL) throws -> Int? {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(try mode(directory) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["entry.json"])
        #expect(try mode(directory.appendingPathComponent("entry.json")) == 0o600)
    }
}
