#!/usr/bin/env python3
"""Paired comparison of two Hearth binaries on the sendOobCode row's load: both servers run
side by side (bench/rows_email.py's set-up each), and wrk drives them in alternating rounds, so
the machine's drift between minutes falls on both alike. Per round and as medians: the rate
and each thread family's on-CPU time per request (from /proc/<pid>/task/*/schedstat, counted
after wrk's warm-up). Not a benchmark row: no reference, no bar.

    python3 bench/pair.py A B [--rounds 4] [--seconds 6] [--connections 32]

A binary may be a wrapper script that sets environment variables and execs hearth, to compare
a scratch switch against the same build.
"""

import argparse
import collections
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from probe import thread_times  # noqa: E402
from rows_email import start_server  # noqa: E402
from run import Hearth, wrk  # noqa: E402

FAMILIES = ("store-writer", "MHD-single", "store-syncer", "mail-send", "wal-checkpoint")


def thread_cpu(pid):
    """On-CPU microseconds so far per thread family (numbered threads summed)."""
    totals = collections.Counter()
    for name, _, on_cpu, _ in thread_times(pid).values():
        totals[name.rstrip("0123456789").rstrip("-") or "?"] += on_cpu * 1e6
    return totals


def pair_arguments(description):
    """The command line shared by the side-by-side tools: binaries A and B, rounds, seconds per
    load, connections."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=32)
    return parser.parse_args()


def main():
    args = pair_arguments(__doc__.splitlines()[0])

    workdirs = [tempfile.mkdtemp(prefix="hearth-pair-") for _ in range(2)]
    servers = [
        start_server(Hearth, os.path.abspath(binary), workdir, 0) for binary, workdir in zip((args.a, args.b), workdirs)
    ]
    results = [collections.defaultdict(list), collections.defaultdict(list)]
    try:
        for round_index in range(args.rounds):
            # Every other round B goes first: whichever runs second in a round was seen to gain
            # (an A/A pair read 1.13 with a fixed order).
            order = (0, 1) if round_index % 2 == 0 else (1, 0)
            for side in order:
                server, script = servers[side]
                time.sleep(2)  # the previous round's mail goes out
                pid = server.process.pid
                before = {}
                # wrk warms up for 2 s before its measured run; count from then on.
                timer = threading.Timer(2.1, lambda: before.update(thread_cpu(pid)))
                timer.start()
                measured = wrk(server.url + "/", args.seconds, args.connections, script=script)
                after = thread_cpu(pid)
                requests = measured["rate"] * args.seconds
                per_request = {name: (after[name] - before.get(name, 0)) / requests for name in after}
                results[side]["rate"].append(measured["rate"])
                results[side]["total"].append(sum(per_request.values()))
                for name in FAMILIES:
                    results[side][name].append(per_request.get(name, 0))
                print(
                    f"round {round_index + 1} {'AB'[side]}: {measured['rate']:.0f}/s, "
                    f"{sum(per_request.values()):.0f} µs/request: "
                    + ", ".join(f"{name} {per_request.get(name, 0):.0f}" for name in FAMILIES),
                    flush=True,
                )
    finally:
        for server, _ in servers:
            server.stop()
        for workdir in workdirs:
            shutil.rmtree(workdir, ignore_errors=True)  # the row's databases grow by ~0.5 GB a run
    print("medians (rate in requests/s, the rest in µs of CPU per request):")
    for key in ["rate", "total", *FAMILIES]:
        a, b = statistics.median(results[0][key]), statistics.median(results[1][key])
        print(f"  {key:15s} A {a:9.1f}  B {b:9.1f}  B/A {b / a if a else float('nan'):.3f}")


if __name__ == "__main__":
    main()
