"""Benchmark rows on PostgreSQL: the same installation and email rows with the store on a
PostgreSQL 15 server, each against the same row on SQLite in the same run, and installation
create against PostgreSQL's own `pgbench -N` on the same server.

* installation token generation on PostgreSQL against it on SQLite (the main server, the
  same 10 thousand installations): bar 0.8.
* installation create on PostgreSQL against `pgbench -N` (its built-in simple-update
  transaction: three updates and an insert, one commit) at the same connection count on the
  same server: bar 0.5. Also reported against create on SQLite.
* sendOobCode on PostgreSQL against it on SQLite (both the bench-email project of
  rows_email.py): no bar.
* installation token generation and installation create on two nodes on the same
  PostgreSQL database (the second node started with the first's master key), each node
  driven by its own wrk with half the connections, rates summed, against the same row on
  the first node alone with all the connections: no bar (on a machine of few cores the
  nodes, wrk and PostgreSQL share them; the row shows that nothing breaks or serialises).

The cluster is made for the run (`scripts/postgres start … --durable`: fsync on, as a real
server runs), on loopback, and removed at the end. Rows named `*-postgres` select these rows;
`postgres` selects them all.
"""

import os
import shutil
from concurrent.futures import ThreadPoolExecutor
import subprocess
import tempfile
import time

import rows
import rows_email
from rounds import alternate

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = "/usr/lib/postgresql/15/bin"
NAMES = [
    "installation-token-postgres", "installation-create-postgres", "sendoobcode-postgres",
    "installation-token-two-nodes", "installation-create-two-nodes",
]


class Cluster:
    def __init__(self, port):
        self.directory = tempfile.mkdtemp(prefix="hearth-bench-postgres-")
        self.url = subprocess.run(
            [os.path.join(ROOT, "scripts", "postgres"), "start", self.directory, str(port), "--durable"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
        self.port = port

    def database(self, name):
        """A new empty database; answers its URL."""
        self.psql("postgres", f"CREATE DATABASE {name}")
        return self.url.rsplit("/", 1)[0] + "/" + name

    def psql(self, database, sql, stdin=None):
        subprocess.run(
            [os.path.join(BIN, "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "postgres", "-d", database, "-c", sql],
            input=stdin, text=True, check=True, capture_output=True,
        )

    def stop(self):
        subprocess.run([os.path.join(ROOT, "scripts", "postgres"), "stop", self.directory], check=False)
        shutil.rmtree(self.directory, ignore_errors=True)


def copy_installations(cluster, database, pairs, now_ms):
    """Stores the token row's installations in the PostgreSQL database, as rows.bulk_insert
    does in SQLite."""
    import hashlib

    lines = []
    for fid, token in pairs:
        digest = hashlib.sha256(token.encode()).hexdigest()
        lines.append(f"{rows.PROJECT}\t{fid}\t{rows.APP}\t\\\\x{digest}\t{rows.SDK}\t{now_ms}\t{now_ms}")
    cluster.psql(
        database,
        "COPY installations (project_id, fid, app_id, refresh_token_hash, sdk_version, created_ms, last_seen_ms) FROM STDIN",
        stdin="\n".join(lines) + "\n\\.\n",
    )


def pgbench(cluster, database, seconds, connections):
    """`pgbench -N` transactions per second at `connections` clients on one thread."""
    out = subprocess.run(
        [os.path.join(BIN, "pgbench"), "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "-N",
         "-c", str(connections), "-j", "1", "-T", str(seconds), database],
        capture_output=True, text=True, check=True,
    ).stdout
    for line in out.splitlines():
        if line.startswith("tps = "):
            return {"rate": float(line.split()[2]), "p99_ms": None, "non2xx": 0}
    raise RuntimeError("could not read pgbench output:\n" + out)


def split_load(measure, targets, connections):
    """Runs `measure(target, connections_each)` on every target at once, the connections split
    evenly; answers the rates summed, the worst p99 and the non-2xx answers summed."""
    each = connections // len(targets)
    with ThreadPoolExecutor(len(targets)) as pool:
        results = list(pool.map(lambda target: measure(target, each), targets))
    p99s = [r["p99_ms"] for r in results if r["p99_ms"] is not None]
    return {
        "rate": sum(r["rate"] for r in results),
        "p99_ms": max(p99s) if p99s else None,
        "non2xx": sum(r["non2xx"] for r in results),
        "node_rates": [round(r["rate"], 1) for r in results],
    }


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(hearth, args, want, wrk, openssl_speed, row, workdir):
    if not any(want(name) for name in NAMES) and not want("postgres"):
        return []
    if not os.path.exists(os.path.join(BIN, "pgbench")):
        raise SystemExit("bench: PostgreSQL 15 is missing (scripts/bootstrap --bench installs it)")

    def wanted(name):
        return want(name) or want("postgres")

    results = []
    cluster = Cluster(free_port())
    server = None
    second = None
    email_servers = []
    try:
        url = cluster.database("hearth_bench")
        server = args.hearth_class(hearth.binary, workdir, hearth.threads, name="hearth-postgres",
                                   extra_args=["--database", url])
        now_ms = int(time.time() * 1000)
        token_script = os.path.join(HERE, "installation_token.lua")
        tokens = os.path.join(workdir, "tokens-10k.txt")
        if not os.path.exists(tokens):  # the SQLite token row did not run: make its targets
            pairs = rows.bulk_insert(os.path.join(hearth.data, "hearth.db"), 0, rows.TARGETS, now_ms)
            tokens = rows.write_targets(workdir, pairs, "tokens-10k.txt")
        with open(tokens) as f:
            pairs = [tuple(line.split()) for line in f if line.strip()]
        copy_installations(cluster, "hearth_bench", pairs, now_ms)
        rows.check_api(server, pairs)
        os.environ["HEARTH_BENCH_TOKENS"] = tokens

        def generate_with(target, connections):
            url = target.url + "/v1/projects/demo-project/installations/x/authTokens:generate"
            return wrk(url, args.seconds, connections, script=token_script)

        def create_with(target, connections):
            url = target.url + "/v1/projects/demo-project/installations"
            return wrk(url, args.seconds, connections, script=os.path.join(HERE, "installation_create.lua"))

        def generate(target):
            return lambda: generate_with(target, args.connections)

        def create(target):
            return lambda: create_with(target, args.connections)

        if wanted("installation-token-postgres"):
            measured, reference, ratios = alternate(args.rounds, generate(hearth), generate(server))
            entry = row("installation token (PostgreSQL)", measured, "installation token (SQLite)", reference["rate"], 0.8)
            entry["round_ratios"] = ratios
            results.append(entry)

        if wanted("installation-create-postgres"):
            cluster.database("pgbench")
            subprocess.run(
                [os.path.join(BIN, "pgbench"), "-i", "-q", "-s", "10", "-h", "127.0.0.1", "-p", str(cluster.port),
                 "-U", "postgres", "pgbench"],
                capture_output=True, check=True,
            )
            measured, reference, ratios = alternate(
                args.rounds, lambda: pgbench(cluster, "pgbench", args.seconds, args.connections), create(server)
            )
            entry = row("installation create (PostgreSQL)", measured, f"pgbench -N, {args.connections} clients",
                        reference["rate"], 0.5)
            entry["round_ratios"] = ratios
            results.append(entry)
            measured, reference, ratios = alternate(args.rounds, create(hearth), create(server))
            entry = row("installation create (PostgreSQL/SQLite)", measured, "installation create (SQLite)",
                        reference["rate"], None)
            entry["round_ratios"] = ratios
            results.append(entry)

        if wanted("installation-token-two-nodes") or wanted("installation-create-two-nodes"):
            # The second node on the same database, with the first node's master key.
            second = args.hearth_class(
                hearth.binary, workdir, hearth.threads, name="hearth-postgres-second",
                extra_args=["--database", url, "--master-key-file", os.path.join(server.data, "master.key")],
            )
            rows.check_api(second, pairs)
            nodes = [server, second]
            for name, label, measure in [
                ("installation-token-two-nodes", "installation token", generate_with),
                ("installation-create-two-nodes", "installation create", create_with),
            ]:
                if not wanted(name):
                    continue
                measured, reference, ratios = alternate(
                    args.rounds,
                    lambda: measure(server, args.connections),
                    lambda: split_load(measure, nodes, args.connections),
                )
                entry = row(f"{label} (PostgreSQL, two nodes)", measured, f"{label} (PostgreSQL, one node)",
                            reference["rate"], None)
                entry["round_ratios"] = ratios
                entry["node_rates"] = measured["node_rates"]
                results.append(entry)

        if wanted("sendoobcode-postgres"):
            sqlite_email, script = rows_email.start_server(
                args.hearth_class, hearth.binary, workdir, hearth.threads, name="hearth-email-sqlite"
            )
            email_servers.append(sqlite_email)
            postgres_email, _ = rows_email.start_server(
                args.hearth_class, hearth.binary, workdir, hearth.threads, name="hearth-email-postgres",
                extra_args=["--database", cluster.database("hearth_email_bench")],
            )
            email_servers.append(postgres_email)

            def send(target):
                def measure():
                    time.sleep(3)  # let the previous round's messages finish going out
                    return wrk(target.url + "/", args.seconds, args.connections, script=script)
                return measure

            measured, reference, ratios = alternate(args.rounds, send(sqlite_email), send(postgres_email))
            entry = row("sendOobCode (PostgreSQL)", measured, "sendOobCode (SQLite)", reference["rate"], None)
            entry["round_ratios"] = ratios
            results.append(entry)
    finally:
        for email_server in email_servers:
            email_server.stop()
        for node in (second, server):
            if node:
                node.stop()
        cluster.stop()
    return results
