import HearthBase
import HearthCore
import HearthStore

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The `hearth` command line: reads the sub-command and runs it, answering the exit status.
/// Errors are one readable line on standard error.
public enum HearthCommand {
    public static let usage = """
        usage: hearth <command> [flags]

        commands:
          serve                          run the server (see hearth serve --help)
          version                        print the version
          project list|show ID           list projects, show one as JSON
          admin-key create --project P [--label L]
                                         make an admin credential (printed once)
          admin-key list --project P     list a project's admin credentials
          admin-key revoke --project P ID
                                         revoke one
          keys list --project P          list a project's published signing keys
          keys rotate --project P --purpose installations|idTokens
                                         replace a signing key (the old one stays published)
        \(MailCommand.usage)
        \(InstallationsCommand.usage)
        \(DoctorCommand.usage)
        \(TransferCommand.usage)

        Commands other than serve work on the same data as the server: pass the same
        --data DIR or --database URL (default: .hearth). Those that need the master key
        read it as serve does: --master-key-file FILE, else HEARTH_MASTER_KEY, else
        master.key in --data DIR; they never make one.
        """

    /// Runs `arguments` (without the program name) and answers the exit status.
    public static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        // Log lines are buffered; whatever happens, they reach the terminal before exit.
        defer { LogWriter.standardOutput.flush() }
        do {
            return try run(arguments, environment: environment)
        } catch let error as UsageError {
            writeError(error.message)
            return 2
        } catch let error as CommandFailure {
            writeError(error.message)
            return 1
        } catch {
            writeError("hearth: \(error)")
            return 1
        }
    }

    private static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        guard let command = arguments.first else {
            writeError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command == "serve" ? ServeOptions.usage : usage)
            return 0
        }
        switch command {
        case "--help", "-h", "help":
            print(usage)
            return 0
        case "version", "--version":
            print("hearth \(HearthVersion.current)")
            return 0
        case "serve":
            return try ServeCommand.run(try ServeOptions.parse(rest), environment: environment)
        case "project", "admin-key", "keys":
            return try AdministrationCommand.run(command, rest, environment: environment)
        case "mail":
            return try MailCommand.run(rest, environment: environment)
        case "doctor":
            return try DoctorCommand.run(rest)
        case "migrate", "export", "import":
            return try TransferCommand.run(command, rest, environment: environment)
        case "installations", "webhooks":
            return try InstallationsCommand.run(command, rest, environment: environment)
        default:
            throw UsageError("hearth: unknown command \"\(command)\" (see hearth --help)")
        }
    }

    static func writeError(_ message: String) {
        var line = message
        if !line.hasSuffix("\n") { line += "\n" }
        _ = line.withCString { fputs($0, stderr) }
    }
}
