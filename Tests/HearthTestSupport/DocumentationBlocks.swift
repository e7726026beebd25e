public import Foundation

/// The fenced blocks of the repository's Markdown documents (`README.md` and `docs/*.md`),
/// read one way for every test that checks them (`DocumentationExampleTests` runs the `json`
/// and `sh` blocks; `OutsidePackageTests` compiles the `swift` blocks).
public enum DocumentationBlocks {
    /// A fenced block of a Markdown file.
    public struct Block: Sendable {
        /// The file, relative to the repository (`docs/sdk.md`).
        public let file: String
        /// The line of the opening fence (1-based).
        public let line: Int
        /// The info string's first word (`json`, `sh`, `swift`, `text`); empty when there is
        /// none, `unclosed …` for a fence never closed.
        public let info: String
        /// The block's lines.
        public let text: String
    }

    /// The repository's root directory.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown files whose examples are checked: the README and every file of `docs/`.
    public static var documents: [String] {
        let docs =
            (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path))
            ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// Every block of every document.
    public static var all: [Block] { documents.flatMap(blocks(in:)) }

    /// The fenced blocks of `file`.
    public static func blocks(in file: String) -> [Block] {
        guard let text = try? String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8) else {
            return []
        }
        var blocks: [Block] = []
        var open: (line: Int, info: String, fence: String)?
        var body: [Substring] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let current = open {
                if trimmed.hasPrefix(current.fence), trimmed.allSatisfy({ $0 == "`" || $0 == " " }) {
                    blocks.append(
                        Block(file: file, line: current.line, info: current.info, text: body.joined(separator: "\n"))
                    )
                    open = nil
                    body = []
                } else {
                    body.append(line)
                }
            } else if trimmed.hasPrefix("```") {
                let fence = String(trimmed.prefix { $0 == "`" })
                let info = trimmed.dropFirst(fence.count).split(separator: " ").first.map(String.init) ?? ""
                open = (index + 1, info, fence)
            }
        }
        if let current = open {
            blocks.append(Block(file: file, line: current.line, info: "unclosed \(current.info)", text: ""))
        }
        return blocks
    }
}
