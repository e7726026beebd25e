#!/usr/bin/env python3
"""Paired comparison of Hearth binaries on the sign-in row's load, with the row's reference
(libargon2 on every core) measured between them in each round: rates, and CPU time per sign-in
(all of Hearth's threads) against CPU time per reference hash. CPU per operation moves less
than rates when the machine is shared, so its ratio tells how far a binary is from the hashing
ceiling when the rate cannot. Not a benchmark row.

    python3 bench/pair_signin.py A [B ...] [--rounds 4] [--seconds 6]
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from probe import thread_times  # noqa: E402
from rows_accounts import API_KEY, EMAIL, PASSWORD, argon2id_all_cores_rate, lua_post, post_json  # noqa: E402
from run import Hearth, wrk  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def hashing_idle(pid):
    """Seconds the hashing threads (argon2-N, or the HTTP threads where those hash) spent on a
    CPU and blocked, summed."""
    on, total = 0.0, 0.0
    for name, _, on_cpu, queued in thread_times(pid).values():
        if name.startswith("argon2") or name.startswith("MHD"):
            on += on_cpu
            total += on_cpu + queued
    return on, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=6)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    workdirs = [tempfile.mkdtemp(prefix="hearth-pair-signin-") for _ in args.binaries]
    servers = [Hearth(os.path.abspath(b), w, 0) for b, w in zip(args.binaries, workdirs)]
    body = {"email": EMAIL, "password": PASSWORD, "returnSecureToken": True}
    scripts = []
    for server, workdir in zip(servers, workdirs):
        post_json(f"{server.url}/v1/accounts:signUp?key={API_KEY}", body)
        scripts.append(lua_post(os.path.join(workdir, "signin.lua"), json.dumps(body), "application/json"))
    results = [{"ratio": [], "cpu_ratio": [], "rate": []} for _ in servers]
    try:
        for round_index in range(args.rounds):
            before = resource.getrusage(resource.RUSAGE_SELF)
            start = time.perf_counter()
            reference = argon2id_all_cores_rate(args.seconds, cores)
            after = resource.getrusage(resource.RUSAGE_SELF)
            hashes = reference["rate"] * (time.perf_counter() - start)
            cpu_per_hash = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / hashes
            line = f"round {round_index + 1}: reference {reference['rate']:.1f}/s ({1000 * cpu_per_hash:.1f} ms CPU a hash)"
            order = list(range(len(servers)))
            if round_index % 2:
                order.reverse()
            for index in order:
                server, pid = servers[index], servers[index].process.pid
                snapshot = {}
                timer = threading.Timer(
                    2.2, lambda: snapshot.update(cpu=process_cpu(pid), idle=hashing_idle(pid), at=time.time())
                )
                timer.start()
                measured = wrk(
                    f"{server.url}/v1/accounts:signInWithPassword?key={API_KEY}", args.seconds, 2 * cores, script=scripts[index]
                )
                timer.join()
                elapsed = time.time() - snapshot["at"]
                requests = measured["rate"] * elapsed
                cpu_per_signin = (process_cpu(pid) - snapshot["cpu"]) / requests
                results[index]["ratio"].append(measured["rate"] / reference["rate"])
                results[index]["cpu_ratio"].append(cpu_per_hash / cpu_per_signin)
                results[index]["rate"].append(measured["rate"])
                line += (
                    f" | {os.path.basename(args.binaries[index])} {measured['rate']:.1f}/s ratio {measured['rate'] / reference['rate']:.3f}"
                    f", {1000 * cpu_per_signin:.1f} ms CPU a sign-in ({cpu_per_hash / cpu_per_signin:.3f})"
                )
            print(line, flush=True)
        for binary, result in zip(args.binaries, results):
            print(
                f"{binary}: median rate {statistics.median(result['rate']):.1f}/s, ratio {statistics.median(result['ratio']):.3f}, "
                f"CPU ratio (reference CPU a hash / Hearth CPU a sign-in) {statistics.median(result['cpu_ratio']):.3f}"
            )
    finally:
        for server in servers:
            server.stop()
        for workdir in workdirs:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
