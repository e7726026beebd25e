import Foundation

/// Runs the `openssl` command-line tool against files in a private temporary directory, so our output can be
/// checked by an implementation we did not write the glue for.
struct OpenSSLTool {
    struct Result {
        var status: Int32
        var output: String
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-crypto-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
    }

    func write(_ text: String, to name: String) throws {
        try write(Array(text.utf8), to: name)
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Runs `openssl <arguments>` with stdin closed, returning its exit status and combined output.
    func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}

/// Minimal DER for ECDSA signatures, written independently of the module under test so the cross-checks do not
/// trust its own conversion.
enum TestDER {
    /// `SEQUENCE { INTEGER r, INTEGER s }` from 64-byte `r ‖ s`.
    static func ecdsaSignature(fromRaw raw: [UInt8]) -> [UInt8] {
        precondition(raw.count == 64)
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var body = Array(bytes.drop { $0 == 0 })
            if body.isEmpty { body = [0] }
            if body[0] & 0x80 != 0 { body.insert(0, at: 0) }
            return [0x02, UInt8(body.count)] + body
        }
        let content = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(content.count)] + content
    }

    /// 64-byte `r ‖ s` from `SEQUENCE { INTEGER r, INTEGER s }`, or `nil` if it is not that shape.
    static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var output: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            guard index + 2 + length <= der.count else { return nil }
            let value = Array(der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 })
            guard value.count <= 32 else { return nil }
            output += [UInt8](repeating: 0, count: 32 - value.count) + value
            index += 2 + length
        }
        return index == der.count ? output : nil
    }
}

extension Array where Element == UInt8 {
    /// Bytes from a hex literal; traps on bad input (test fixtures only).
    init(hex: String) {
        var bytes: [UInt8] = []
        var iterator = hex.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(String([high, low]), radix: 16)!)
        }
        self = bytes
    }
}
