#!/usr/bin/env python3
"""Hearth's benchmark: every figure is a ratio against a reference measured on the same
machine in the same run (nginx for HTTP, `openssl speed` for signing)."""

import argparse
import glob
import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from rounds import alternate

HERE = os.path.dirname(os.path.abspath(__file__))
NGINX_REPLY = '{"ok":true}'  # 11 bytes, the same size as Hearth's /healthz reply


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except Exception:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not become ready")


def wrk(url, seconds, connections, threads=1, script=None, warmup=2):
    base = ["wrk", f"-t{threads}", f"-c{connections}", "--latency"]
    if script:
        base += ["-s", script]
    subprocess.run(base + [f"-d{warmup}s", url], capture_output=True, check=True)
    out = subprocess.run(base + [f"-d{seconds}s", url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99_ms = None
    if p99:
        value, unit = float(p99.group(1)), p99.group(2)
        p99_ms = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    return {"rate": rate, "non2xx": int(errors.group(1)) if errors else 0, "p99_ms": p99_ms, "raw": out}


class Nginx:
    def __init__(self, workdir, workers):
        self.port = free_port()
        self.dir = os.path.join(workdir, "nginx")
        os.makedirs(self.dir, exist_ok=True)
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""
worker_processes {workers};
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log;
daemon off;
events {{ worker_connections 4096; }}
http {{
    # Both servers log every request, buffered alike (Hearth's access log flushes at 64 KiB
    # or every 50 ms): nginx's own default is to log, and a reference that skips work the
    # server under test does would not compare like with like.
    access_log {self.dir}/access.log combined buffer=64k flush=50ms;
    client_body_temp_path {self.dir};
    proxy_temp_path {self.dir};
    fastcgi_temp_path {self.dir};
    uwsgi_temp_path {self.dir};
    scgi_temp_path {self.dir};
    keepalive_requests 1000000;
    server {{
        listen 127.0.0.1:{self.port};
        location = /healthz {{ default_type application/json; return 200 '{NGINX_REPLY}'; }}
    }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-c", conf, "-p", self.dir], stderr=subprocess.DEVNULL)
        wait_http(f"http://127.0.0.1:{self.port}/healthz")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Hearth:
    def __init__(self, binary, workdir, threads, name="hearth", extra_args=()):
        self.binary = binary
        self.threads = threads
        self.port = free_port()
        self.data = os.path.join(workdir, f"{name}-data")
        self.log = open(os.path.join(workdir, f"{name}.log"), "wb")
        args = [binary, "serve", "--port", str(self.port), "--data", self.data, *extra_args]
        if threads:
            args += ["--threads", str(threads)]
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        wait_http(self.url + "/healthz")

    def rss_mb(self):
        return self.memory_mb("VmRSS")

    def rss_without_database_mb(self):
        """VmRSS less the pages of the database file's memory map: those are the page cache,
        shared and given back under pressure, and after the 1 M-installation rows they alone
        are ~300 MB."""
        mapped_kib = 0
        in_database = False
        with open(f"/proc/{self.process.pid}/smaps") as f:
            for line in f:
                fields = line.split()
                if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:  # a mapping's header
                    in_database = len(fields) >= 6 and fields[5].endswith(".db")
                elif in_database and fields[0] == "Rss:":
                    mapped_kib += int(fields[1])
        return self.rss_mb() - mapped_kib / 1024

    def memory_mb(self, field):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return None

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        self.log.close()


def openssl_speed(algorithm, seconds):
    out = subprocess.run(
        ["openssl", "speed", "-seconds", str(seconds), algorithm], capture_output=True, text=True, check=True
    ).stdout
    # "256 bits ecdsa (nistp256)   0.0000s   0.0000s  67638.0  23042.0"
    for line in out.splitlines():
        if "nistp256" in line and "ecdsa" in line:
            numbers = re.findall(r"[\d.]+", line.split(")")[-1])
            return {"sign": float(numbers[-2]), "verify": float(numbers[-1])}
    raise RuntimeError("could not read openssl speed output:\n" + out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hearth", required=True)
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SECONDS", "10")))
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=0, help="Hearth worker threads (default: cores)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds for the rows measured against a reference that drifts (median ratio)")
    parser.add_argument("rows", nargs="*")
    args = parser.parse_args()
    for tool in ("nginx", "wrk", "openssl"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is missing (scripts/bootstrap --bench installs it)")

    workdir = tempfile.mkdtemp(prefix="hearth-bench-")
    cores = os.cpu_count() or 1
    results = {"machine": {"cores": cores}, "settings": {"seconds": args.seconds, "connections": args.connections}, "rows": []}
    wanted = set(args.rows)

    def want(name):
        return not wanted or name in wanted

    nginx = Nginx(workdir, cores)
    hearth = Hearth(os.path.abspath(args.hearth), workdir, args.threads)
    try:
        time.sleep(1)
        results["idle_rss_mb"] = round(hearth.rss_mb(), 1)
        if want("healthz"):
            # Alternating rounds, median ratio: on a small shared machine a single pair of
            # runs swings with where the kernel happens to put the connections.
            measured, reference, ratios = alternate(
                args.rounds,
                lambda: wrk(f"http://127.0.0.1:{nginx.port}/healthz", args.seconds, args.connections),
                lambda: wrk(hearth.url + "/healthz", args.seconds, args.connections),
            )
            entry = row("GET /healthz", measured, "nginx fixed reply", reference["rate"], 0.9)
            entry["round_ratios"] = ratios
            results["rows"].append(entry)
        # Each area adds its rows in bench/rows*.py with run(hearth, args, want, wrk, openssl_speed, row, workdir).
        sys.path.insert(0, HERE)
        for path in sorted(glob.glob(os.path.join(HERE, "rows*.py"))):
            module = importlib.import_module(os.path.splitext(os.path.basename(path))[0])
            args.rows_so_far = results["rows"]  # later rows may compare with earlier ones
            args.hearth_class = Hearth
            results["rows"] += module.run(hearth, args, want, wrk, openssl_speed, row, workdir)
        results["loaded_rss_mb"] = round(hearth.rss_mb(), 1)
        results["loaded_rss_without_database_mb"] = round(hearth.rss_without_database_mb(), 1)
    finally:
        hearth.stop()
        nginx.stop()
        shutil.rmtree(workdir, ignore_errors=True)  # databases of a million installations and more

    print_table(results)
    os.makedirs(os.path.join(HERE, "out"), exist_ok=True)
    path = os.path.join(HERE, "out", "results.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=2)
    print(f"\nwritten to {os.path.relpath(path)}")
    failed = [r["name"] for r in results["rows"] if r.get("bar") is not None and r["ratio"] is not None and r["ratio"] < r["bar"]]
    if results["idle_rss_mb"] > 50:
        failed.append("idle memory")
    if any(r.get("rss_without_database_after_mb", 0) > 50 for r in results["rows"]):
        failed.append("idle memory after the sign-in load")
    if failed:
        print("below the bar: " + ", ".join(failed))


def row(name, measured, reference_name, reference_rate, bar):
    return {
        "name": name,
        "rate": round(measured["rate"], 1),
        "p99_ms": measured["p99_ms"],
        "non2xx": measured["non2xx"],
        "reference": reference_name,
        "reference_rate": round(reference_rate, 1),
        "ratio": round(measured["rate"] / reference_rate, 3) if reference_rate else None,
        "bar": bar,
    }


def print_table(results):
    print(f"\n{'row':40} {'rate/s':>10} {'p99 ms':>8} {'reference':28} {'ref rate/s':>11} {'ratio':>7} {'bar':>5}")
    for r in results["rows"]:
        p99 = f"{r['p99_ms']:.2f}" if r["p99_ms"] is not None else "-"
        bar = f"{r['bar']:.2f}" if r["bar"] is not None else "-"
        flag = "" if r["non2xx"] == 0 else f"  ({r['non2xx']} non-2xx!)"
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        print(
            f"{r['name']:40} {r['rate']:>10.0f} {p99:>8} {r['reference']:28} {r['reference_rate']:>11.0f} {ratio:>7} {bar:>5}{flag}"
        )
    for r in results["rows"]:
        if r.get("round_ratios"):
            print(f"  {r['name']}: ratios of the alternating rounds {r['round_ratios']}")
        if r.get("node_rates"):
            print(f"  {r['name']}: each node's rate in the median round {r['node_rates']}")
    print(f"\nidle RSS of hearth serve: {results['idle_rss_mb']} MB (bar: 50 MB); after load: "
          f"{results.get('loaded_rss_without_database_mb')} MB besides the database's memory map "
          f"({results.get('loaded_rss_mb')} MB with it)")


if __name__ == "__main__":
    main()
