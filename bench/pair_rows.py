#!/usr/bin/env python3
"""Two Hearth binaries side by side on the rows that share a reference: `/healthz`, token
generation, installation create and sendOobCode, in alternating rounds (B first in every
other round), then each binary's medians, its create/token and send/token ratios (what the
benchmark reports), and B against A. For changes that may move one row at another's cost
(an allocator, server threading): `bench/pair.py` shows the sendOobCode row's CPU by thread,
this shows whether the other rows moved too.

    python3 bench/pair_rows.py A B [--rounds 4] [--seconds 6] [--connections 32]

A binary may be a wrapper script that sets an environment variable and execs `hearth`.
"""

import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import rows  # noqa: E402
from pair import pair_arguments  # noqa: E402
from rows_email import start_server  # noqa: E402
from run import Hearth, wrk  # noqa: E402

LOADS = ["healthz", "token", "create", "send"]


def main():
    args = pair_arguments(__doc__.splitlines()[0])

    started, workdirs, setups = [], [], []
    try:
        for binary in (args.a, args.b):
            workdir = tempfile.mkdtemp(prefix="hearth-pair-rows-")
            workdirs.append(workdir)
            main_server = Hearth(binary, workdir, 0)
            started.append(main_server)
            now_ms = int(time.time() * 1000)
            pairs = rows.bulk_insert(os.path.join(main_server.data, "hearth.db"), 0, rows.TARGETS, now_ms)
            email_server, send_script = start_server(Hearth, binary, workdir, 0)
            started.append(email_server)
            setups.append(
                {
                    "binary": binary,
                    "main": main_server,
                    "targets": rows.write_targets(workdir, pairs, "tokens.txt"),
                    "email": email_server,
                    "send_script": send_script,
                }
            )
        for setup in setups:  # by side, not by path: A and B may be the same binary
            setup["rates"] = {load: [] for load in LOADS}
        for round_index in range(args.rounds):
            for setup in setups if round_index % 2 == 0 else setups[::-1]:
                measured = measure_round(setup, args)
                for load, rate in measured.items():
                    setup["rates"][load].append(rate)
                summary = " ".join(f"{load} {rate:.0f}" for load, rate in measured.items())
                print(f"round {round_index + 1} {os.path.basename(setup['binary'])}: {summary}", flush=True)
        a, b = (medians(setup["rates"]) for setup in setups)
        print("medians (rates in requests/s; ratios taken per round, then the median):")
        for key in a:
            print(f"  {key:13s} A {a[key]:10.3f}  B {b[key]:10.3f}  B/A {b[key] / a[key]:.3f}")
    finally:
        for server in started:
            server.stop()
        for workdir in workdirs:
            shutil.rmtree(workdir, ignore_errors=True)


def measure_round(setup, args):
    """One round of every load on one binary's servers: rates in requests/s."""
    os.environ["HEARTH_BENCH_TOKENS"] = setup["targets"]
    url = setup["main"].url

    def measure(target, script=None):
        return wrk(target, args.seconds, args.connections, script=script)["rate"]

    measured = {
        "healthz": measure(url + "/healthz"),
        "token": measure(
            url + "/v1/projects/demo-project/installations/x/authTokens:generate",
            os.path.join(HERE, "installation_token.lua"),
        ),
        "create": measure(url + "/v1/projects/demo-project/installations", os.path.join(HERE, "installation_create.lua")),
    }
    time.sleep(2)  # the previous round's mail goes out first
    measured["send"] = measure(setup["email"].url + "/", setup["send_script"])
    return measured


def medians(rates):
    """Median rate of each load, and the median of the per-round ratios to token generation."""
    values = {load: statistics.median(rates[load]) for load in LOADS}
    for load in ("create", "send"):
        values[f"{load}/token"] = statistics.median(
            [rate / token for rate, token in zip(rates[load], rates["token"])]
        )
    return values


if __name__ == "__main__":
    main()
