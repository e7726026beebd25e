#!/usr/bin/env python3
"""Where the sendOobCode row's time goes: runs the row's server and load (bench/rows_email.py)
and reports, per round, the rate, Hearth's CPU time per request, each thread's share of the
wall-clock time on a CPU, waiting for one (run queue) and blocked (lock, I/O, idle), and the
bytes and system calls per request. Not a benchmark row: no reference, no bar.

    python3 bench/probe.py --hearth .build/release/hearth [--seconds 8] [--rounds 3]
        [--connections 32] [--perf perf.data]

`--perf` records the last round with `perf record -g` (call graphs by frame pointer).
Threads are named by the kernel's `comm`: `MHD-single` are the HTTP workers; the store's writer
is the busiest of the others.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rows_email import start_server  # noqa: E402
from run import Hearth, wrk  # noqa: E402

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def thread_times(pid):
    """{tid: (name, CPU seconds, seconds on a CPU, seconds in the run queue)}."""
    times = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            with open(f"{task}/comm") as f:
                name = f.read().strip()
            with open(f"{task}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"{task}/schedstat") as f:
                on_cpu, queued, _ = f.read().split()
        except OSError:
            continue  # the thread ended meanwhile
        cpu = (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND
        times[task.rsplit("/", 1)[1]] = (name, cpu, int(on_cpu) / 1e9, int(queued) / 1e9)
    return times


def io_counters(pid):
    with open(f"/proc/{pid}/io") as f:
        return {key: int(value) for key, value in (line.split(": ") for line in f.read().splitlines())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hearth", required=True)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--perf", help="record the last round with perf into this file")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="hearth-probe-")
    server, script = start_server(Hearth, os.path.abspath(args.hearth), workdir, 0)
    pid = server.process.pid
    try:
        for round_index in range(args.rounds):
            time.sleep(3)  # the previous round's mail goes out
            recorder = None
            if args.perf and round_index == args.rounds - 1:
                recorder = subprocess.Popen(
                    ["perf", "record", "-g", "-F", "2000", "-p", str(pid), "-o", args.perf, "--", "sleep", str(args.seconds)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            # `wrk` warms up for 2 s before its measured run; the counters start after that.
            snapshot = {}
            timer = threading.Timer(2.2, lambda: snapshot.update(times=thread_times(pid), io=io_counters(pid), start=time.time()))
            timer.start()
            measured = wrk(server.url + "/", args.seconds, args.connections, script=script)
            timer.join()
            before, io_before, start = snapshot["times"], snapshot["io"], snapshot["start"]
            after, io_after, elapsed = thread_times(pid), io_counters(pid), time.time() - start
            if recorder:
                recorder.wait()
            requests = measured["rate"] * elapsed
            cpu = sum(after[t][1] - before.get(t, (None, 0, 0, 0))[1] for t in after)
            print(
                f"round {round_index + 1}: {measured['rate']:.0f} requests/s, p99 {measured['p99_ms']} ms, "
                f"Hearth CPU {cpu / requests * 1e6:.0f} µs/request"
            )
            print("  thread                 on CPU   run queue   blocked")
            rows = []
            for tid, (name, _, on_cpu, queued) in after.items():
                _, _, on_cpu_before, queued_before = before.get(tid, (name, 0, 0, 0))
                running, waiting = (on_cpu - on_cpu_before) / elapsed, (queued - queued_before) / elapsed
                if running >= 0.01:
                    rows.append((running, f"  {name + ' ' + tid:20s} {100 * running:6.1f} %  {100 * waiting:7.1f} %  {100 * (1 - running - waiting):6.1f} %"))
            for _, line in sorted(rows, reverse=True):
                print(line)
            per_request = {key: (io_after[key] - io_before[key]) / requests for key in ("wchar", "syscw", "rchar", "syscr")}
            print(
                f"  per request: {per_request['wchar'] / 1024:.1f} KiB in {per_request['syscw']:.1f} writes, "
                f"{per_request['rchar'] / 1024:.1f} KiB in {per_request['syscr']:.1f} reads (files and sockets)"
            )
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)  # the row's database grows by ~0.5 GB a run


if __name__ == "__main__":
    main()
