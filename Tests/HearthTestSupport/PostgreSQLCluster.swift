public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL 15 server of one test's own (`scripts/postgres start`), so the test can restart
/// it without disturbing anyone else's databases. Stopped and removed when released.
public final class PostgreSQLCluster: Sendable {
    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    public let url: String
    public let directory: URL

    private static let script = DocumentationBlocks.repository.appendingPathComponent("scripts/postgres").path

    /// Starts a cluster on the first of `ports` that is free.
    public init(ports: ClosedRange<Int>) throws {
        var failures: [String] = []
        for port in ports {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "hearth-postgres-\(UUID().uuidString)"
            )
            let started = try Self.run(Self.script, ["start", directory.path, String(port)])
            if started.status == 0 {
                self.url = started.output.trimmingCharacters(in: .whitespacesAndNewlines)
                self.directory = directory
                return
            }
            failures.append("port \(port): \(started.errors)")
            _ = try? Self.run(Self.script, ["stop", directory.path])
        }
        throw TestHTTPError("no PostgreSQL cluster could start:\n" + failures.joined(separator: "\n"))
    }

    deinit {
        _ = try? Self.run(Self.script, ["stop", directory.path])
    }

    /// `pg_ctl restart -m fast`: every session is ended, the server stops and starts again
    /// (with the options it was started with); answers once it accepts connections.
    public func restart() throws { try pgCtl("restart") }

    /// `pg_ctl stop -m fast`: every session is ended and the server stops; answers once it has.
    public func stop() throws { try pgCtl("stop") }

    /// Starts the stopped server again with the options it was started with; answers once it
    /// accepts connections.
    public func start() throws { try pgCtl("start") }

    /// Stops every process of the server (`SIGSTOP`), as a server that hangs: open connections
    /// stay open and the kernel still accepts new ones, but nothing answers.
    public func pause() throws { try signalServer(SIGSTOP) }

    /// Lets a paused server run again (`SIGCONT`).
    public func resume() throws { try signalServer(SIGCONT) }

    private func signalServer(_ signal: Int32) throws {
        let pidFile = directory.appendingPathComponent("data/postmaster.pid")
        guard let line = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n").first,
            let postmaster = pid_t(line)
        else { throw TestHTTPError("no server process in \(pidFile.path)") }
        let children = Self.children(of: postmaster)
        // The postmaster first on the way down, so that it starts nothing more; last on the way up.
        for process in signal == SIGSTOP ? [postmaster] + children : children + [postmaster] {
            Glibc.kill(process, signal)
        }
    }

    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { process in
            let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8)
            return status?.split(separator: "\n").contains("PPid:\t\(parent)") ?? false
        }
    }

    private func pgCtl(_ action: String) throws {
        let pgCtl = TestDatabase.postgresBinaries.appendingPathComponent("pg_ctl").path
        let arguments = [
            "-D", directory.appendingPathComponent("data").path, "-l",
            directory.appendingPathComponent("server.log").path,
            "-m", "fast", "-w", action,
        ]
        // initdb and the server refuse to run as root; scripts/postgres runs them as `postgres`.
        let outcome =
            getuid() == 0
            ? try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", pgCtl] + arguments)
            : try Self.run(pgCtl, arguments)
        guard outcome.status == 0 else {
            throw TestHTTPError("pg_ctl \(action) failed (\(outcome.status)): \(outcome.combined)")
        }
    }

    /// Runs a command that starts the server with every descriptor above standard error closed:
    /// Foundation's `Process` learns that its child ended when a socket it shares with the child
    /// closes, and a server that inherited that socket would keep it open for its whole life.
    private static func run(_ executable: String, _ arguments: [String]) throws -> HearthCommand.Outcome {
        let closeInherited = #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && exec {fd}>&-; done; exec "$@""#
        return try HearthCommand.run(
            ["-c", closeInherited, "bash", executable] + arguments,
            executable: "/bin/bash",
            timeout: 120
        )
    }
}
