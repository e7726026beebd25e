#!/usr/bin/env python3
"""Instructions per sendOobCode request, counted by callgrind: a noise-free measure of the work
a change adds or removes in user space (this VM's speed drifts ±10 % between minutes, so timed
runs only show large changes). Not a benchmark row: counts ignore the kernel, cache misses and
the cost of atomic operations, so confirm a gain with `bench/pair.py` or `bench/pair_rows.py`.

    python3 bench/instructions.py BINARY [BINARY ...] [--requests 1600] [--keep DIR]

Runs each binary's `hearth serve` under `valgrind --tool=callgrind` with the sendOobCode row's
project and users (bench/rows_email.py), warms it with 320 sends, zeroes the counts, sends
`--requests` more from 16 keep-alive connections, lets the mail go out, and reports the
instructions counted meanwhile per request, over every thread. `--keep DIR` keeps the profile
(`callgrind_annotate DIR/<binary>/callgrind.out.*.1`). Needs Debian's `valgrind` package.
"""

import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rows_email import API_KEY, USERS, start_server  # noqa: E402
from run import Hearth  # noqa: E402


def send(host, port, start, count):
    connection = http.client.HTTPConnection(host, port, timeout=600)
    for index in range(start, start + count):
        body = json.dumps(
            {"requestType": "PASSWORD_RESET", "email": f"user{index % USERS}@bench.example", "continueUrl": "http://localhost/done"}
        )
        connection.request("POST", f"/v1/accounts:sendOobCode?key={API_KEY}", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"sendOobCode answered {response.status}")


def load(url, requests, connections=16):
    host, port = url.split("//")[1].rstrip("/").split(":")
    share = requests // connections
    threads = [threading.Thread(target=send, args=(host, int(port), k * share, share)) for k in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return share * connections


def measure(binary, requests, profiles):
    name = os.path.basename(binary)
    outdir = os.path.join(profiles, name)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    wrapper = os.path.join(outdir, "hearth-under-callgrind")
    with open(wrapper, "w") as f:
        f.write(
            "#!/bin/sh\n"
            f'if [ "$1" = serve ]; then exec valgrind --tool=callgrind --callgrind-out-file={outdir}/callgrind.out.%p "{binary}" "$@"; fi\n'
            f'exec "{binary}" "$@"\n'
        )
    os.chmod(wrapper, 0o755)
    workdir = tempfile.mkdtemp(prefix="hearth-instructions-")
    server, _ = start_server(Hearth, wrapper, workdir, 0)
    try:
        load(server.url, 320)
        time.sleep(2)
        subprocess.run(["callgrind_control", "-z", str(server.process.pid)], capture_output=True, check=True)
        sent = load(server.url, requests)
        time.sleep(3)  # the mail workers send and record the last messages
        subprocess.run(["callgrind_control", "-d", str(server.process.pid)], capture_output=True, check=True)
        time.sleep(1)
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    dump = next(f for f in sorted(os.listdir(outdir)) if f.endswith(".1"))
    with open(os.path.join(outdir, dump)) as f:
        total = next(int(line.split()[1]) for line in f if line.startswith("summary:"))
    return total / sent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--requests", type=int, default=1600)
    parser.add_argument("--keep", help="keep the profiles in this directory")
    args = parser.parse_args()
    profiles = args.keep or tempfile.mkdtemp(prefix="hearth-callgrind-")
    try:
        for binary in args.binaries:
            per_request = measure(os.path.abspath(binary), args.requests, profiles)
            print(f"{binary}: {per_request / 1000:.1f} k instructions per request (user space, all threads)", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(profiles, ignore_errors=True)


if __name__ == "__main__":
    main()
