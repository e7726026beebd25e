import Foundation
import HearthCrypto
import HearthTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The nginx configuration of `docs/scaling.md` ("Behind nginx"), run as it stands in front of
/// two nodes on one PostgreSQL database.
@Suite(.enabled(if: TestDatabase.runsOnPostgreSQL, "nodes share a database on PostgreSQL"))
struct ScalingExampleTests {
    @Test("the documented nginx configuration spreads requests over both nodes and survives one being killed")
    func theNginxExampleBalancesTwoNodesAndSurvivesOneKilled() throws {
        let database = try TestDatabase()
        let key = ["HEARTH_MASTER_KEY": Base64URL.encode(SecureRandom.bytes(count: 32))]
        // What the docs give each node, with nginx's address here.
        let arguments = ["--per-ip-connection-limit", "0", "--trusted-proxies", "127.0.0.1"]
        let a = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let b = try HearthServerProcess(arguments: arguments, environment: key, database: database)
        let nginx = try DocumentedNginx(upstreamPorts: [a.port, b.port])
        let balancer = TestHTTPClient(port: nginx.port)
        let ready = eventually { (try? balancer.request("GET", "/healthz"))?.status == 200 }
        try #require(ready, "nginx did not answer /healthz; its error log:\n\(nginx.errorLog)")

        let rounds = 20
        for _ in 0..<rounds {
            let installation = try balancer.register()
            let token = try balancer.generateToken(installation)
            #expect(token.status == 200, "\(token.text)")
        }
        // Access-log lines are flushed every 50 ms.
        var (servedByA, servedByB) = (0, 0)
        let bothCounted = eventually {
            (servedByA, servedByB) = (Self.installationRequests(a), Self.installationRequests(b))
            return servedByA + servedByB == 2 * rounds
        }
        #expect(bothCounted, "A \(servedByA), B \(servedByB) of \(2 * rounds)")
        #expect(servedByA > 0 && servedByB > 0, "A \(servedByA), B \(servedByB)")

        // A client (from another loopback address) naming another address in its own
        // X-Forwarded-For: the nodes count and log the address nginx appended.
        let disguised = try TestHTTPClient(port: nginx.port, from: "127.0.0.2").request(
            "GET",
            "/v1/projects/\(Seed.project)/jwks",
            headers: [("X-Forwarded-For", "192.0.2.1")]
        )
        #expect(disguised.status == 200)
        let remote = { (text: String) in [a, b].contains { $0.output.contains { $0.contains(text) } } }
        #expect(eventually { remote(#""remote":"127.0.0.2""#) }, "no node logged the client's own address")
        #expect(!remote(#""remote":"192.0.2.1""#), "a node took the address the client named")

        b.kill()
        var statuses: [Int] = []
        for _ in 0..<rounds {
            let registered = try balancer.json(
                "POST",
                "/v1/projects/\(Seed.project)/installations",
                ["fid": generateClientFID(), "appId": Seed.webApp, "authVersion": "FIS_v2", "sdkVersion": "w:0.6.24"],
                headers: [("x-goog-api-key", Seed.apiKey)]
            )
            statuses.append(registered.status)
            guard let fid = registered.json["fid"] as? String,
                let refreshToken = registered.json["refreshToken"] as? String
            else { continue }
            let installation = Registered(fid: fid, refreshToken: refreshToken, token: "")
            statuses.append(try balancer.generateToken(installation).status)
        }
        #expect(statuses == Array(repeating: 200, count: 2 * rounds), "\(statuses)")
        var servedByAAfterKill = 0
        #expect(
            eventually {
                servedByAAfterKill = Self.installationRequests(a) - servedByA
                return servedByAAfterKill == 2 * rounds
            },
            "A served \(servedByAAfterKill) of \(2 * rounds) after B was killed"
        )
        print(
            "nginx example: \(2 * rounds) installation requests through nginx, A served \(servedByA), B \(servedByB); "
                + "after B was killed, \(statuses.filter { $0 == 200 }.count) of \(statuses.count) answered 200, "
                + "all by A"
        )
    }

    /// The installation requests (create and token) a node's access log shows.
    static func installationRequests(_ node: HearthServerProcess) -> Int {
        node.output.filter { $0.contains(#""path":"/v1/projects/\#(Seed.project)/installations"#) }.count
    }
}

/// nginx running the `nginx` block of `docs/scaling.md` in a directory of its own (pid file,
/// logs, temporary files), in the foreground, stopped when the value is released. The block's
/// `server` addresses of its upstream become the given loopback ports, in order, and its
/// `listen` a free loopback port.
final class DocumentedNginx: @unchecked Sendable {
    let port: Int
    let directory: URL
    private let process: Process

    init(upstreamPorts: [Int]) throws {
        let blocks = DocumentationBlocks.blocks(in: "docs/scaling.md").filter { $0.info == "nginx" }
        guard blocks.count == 1, let block = blocks.first else {
            throw TestHTTPError("docs/scaling.md should have one nginx block, not \(blocks.count)")
        }
        let port = try freeLoopbackPort()
        self.port = port
        var servers = upstreamPorts.makeIterator()
        var (replacedServers, replacedListens) = (0, 0)
        let lines = block.text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let words = line.split(separator: " ")
            let indent = line.prefix { $0 == " " }
            if words.first == "server", words.count > 1, words[1].contains(":"), let upstream = servers.next() {
                replacedServers += 1
                return indent + (["server", "127.0.0.1:\(upstream)"] + words.dropFirst(2)).joined(separator: " ")
            }
            if words.first == "listen" {
                replacedListens += 1
                return indent + "listen 127.0.0.1:\(port);"
            }
            return String(line)
        }
        guard replacedServers == upstreamPorts.count, replacedListens == 1 else {
            throw TestHTTPError(
                "docs/scaling.md's nginx block should name \(upstreamPorts.count) upstream servers and listen once; "
                    + "found \(replacedServers) and \(replacedListens)"
            )
        }

        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let example = directory.appendingPathComponent("hearth.conf")
        try Data(lines.joined(separator: "\n").utf8).write(to: example)
        let path = directory.path
        let main = """
            daemon off;
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log;
            events { worker_connections 256; }
            http {
                access_log \(path)/access.log;
                client_body_temp_path \(path)/client-body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                include \(example.path);
            }
            """
        let configuration = directory.appendingPathComponent("nginx.conf")
        try Data(main.utf8).write(to: configuration)

        guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)
        else { throw TestHTTPError("nginx is missing (scripts/bootstrap --test installs it)") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // -e: the error log before the configuration is read (the default is under /var/log).
        process.arguments = ["-p", path, "-e", "\(path)/error.log", "-c", configuration.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// What nginx wrote to its error log so far.
    var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A TCP port free on 127.0.0.1 a moment ago (for a child that cannot be told to pick one).
func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestHTTPError("socket: errno \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw TestHTTPError("bind: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
