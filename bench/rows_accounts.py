"""Benchmark rows of the accounts area: password sign-in and token refresh.

`run(...)` is called by bench/run.py's driver (through rows.py) with the running Hearth and the
driver's helpers, and returns its rows. Each row is a ratio against a reference measured on the
same machine in the same run:

* sign-in (`accounts:signInWithPassword`) is bounded by its one Argon2id verification (OWASP
  parameters: 19 MiB, 2 passes, 1 lane). Its reference is the hashing ceiling of the machine:
  the same C library (libargon2, called through ctypes, which lets go of the GIL) with the same
  parameters on every core at once, one thread per core, alternated with the row in rounds
  (median ratio). The ratio says how much of the machine's hashing the server turns into
  sign-ins (the rest of a sign-in: an RS256 signature, a durable write, HTTP). Bar 0.95. The
  row also reads Hearth's resident memory a few seconds after its load, once the hashing
  threads have given theirs back, less the pages of the database's memory map (page cache).
* token refresh (`POST /v1/token`) is one store read and one RS256 signature. Its reference is
  `openssl speed rsa2048` signing in one process. Bar 0.5, like installation tokens against
  ES256.
"""

import ctypes
import ctypes.util
import json
import os
import re
import subprocess
import threading
import time
import urllib.request

from rounds import alternate

API_KEY = "demo-api-key"
EMAIL = "bench-signin@example.com"
PASSWORD = "bench-password-1"

# Hearth's Argon2id parameters (HearthCrypto `Argon2id()` defaults).
ARGON2_MEMORY_KIB = 19_456
ARGON2_ITERATIONS = 2
ARGON2_LANES = 1


def argon2id_all_cores_rate(seconds, threads):
    """Argon2id hashes per second on `threads` threads at once, with libargon2 and Hearth's
    parameters: each thread hashes until the time is up; the rate counts every hash finished."""
    path = ctypes.util.find_library("argon2") or "libargon2.so.1"
    library = ctypes.CDLL(path)  # ctypes releases the GIL for the duration of each call
    function = library.argon2id_hash_raw
    function.restype = ctypes.c_int
    function.argtypes = [
        ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32,
        ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
    ]
    password = PASSWORD.encode()
    counts = [0] * threads
    failures = []
    start = time.perf_counter()
    deadline = start + seconds

    def hash_until_deadline(index):
        salt = os.urandom(16)
        output = ctypes.create_string_buffer(32)
        while time.perf_counter() < deadline:
            status = function(
                ARGON2_ITERATIONS, ARGON2_MEMORY_KIB, ARGON2_LANES,
                password, len(password), salt, len(salt), output, 32,
            )
            if status != 0:
                failures.append(status)
                return
            counts[index] += 1

    workers = [threading.Thread(target=hash_until_deadline, args=(index,)) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise RuntimeError(f"argon2id_hash_raw failed with {failures[0]}")
    return {"rate": sum(counts) / (time.perf_counter() - start)}


def openssl_rsa2048_sign_rate(seconds):
    """RS256-sized signatures per second, one process: `openssl speed rsa2048`."""
    out = subprocess.run(
        ["openssl", "speed", "-seconds", str(seconds), "rsa2048"], capture_output=True, text=True, check=True
    ).stdout
    # "rsa 2048 bits 0.000680s 0.000020s   1470.6  49853.0" (sign/s, verify/s last)
    for line in out.splitlines():
        if line.strip().startswith("rsa") and "2048" in line and "bits" in line:
            numbers = re.findall(r"[\d.]+", line.split("bits", 1)[1])
            if len(numbers) >= 4:
                return float(numbers[-2])
    raise RuntimeError("could not read openssl speed rsa2048 output:\n" + out)


def post_json(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def lua_post(path, body, content_type):
    with open(path, "w") as f:
        f.write('wrk.method = "POST"\n')
        f.write(f"wrk.body = {json.dumps(body)}\n")
        f.write(f'wrk.headers["Content-Type"] = "{content_type}"\n')
    return path


def run(hearth, args, want, wrk, openssl_speed, row, workdir):
    rows = []
    if not (want("signin") or want("refresh")):
        return rows
    signed_up = post_json(
        f"{hearth.url}/v1/accounts:signUp?key={API_KEY}",
        {"email": EMAIL, "password": PASSWORD, "returnSecureToken": True},
    )

    if want("signin"):
        cores = os.cpu_count() or 1
        script = lua_post(
            os.path.join(workdir, "signin.lua"),
            json.dumps({"email": EMAIL, "password": PASSWORD, "returnSecureToken": True}),
            "application/json",
        )
        # Two requests in flight per core keep every hashing thread busy without queueing
        # requests past wrk's timeout.
        measured, reference, ratios = alternate(
            args.rounds,
            lambda: argon2id_all_cores_rate(args.seconds, cores),
            lambda: wrk(
                f"{hearth.url}/v1/accounts:signInWithPassword?key={API_KEY}",
                args.seconds,
                min(2 * cores, args.connections),
                script=script,
            ),
        )
        result = row(
            "POST accounts:signInWithPassword",
            measured,
            f"Argon2id, {cores} threads (libargon2)",
            reference["rate"],
            0.95,
        )
        result["round_ratios"] = ratios
        result["argon2id_ms"] = round(1000 * cores / reference["rate"], 1)
        result["cores"] = cores
        time.sleep(4)  # the hashing threads give their memory back after 2 s without work
        result["rss_after_mb"] = round(hearth.rss_mb(), 1)
        result["rss_without_database_after_mb"] = round(hearth.rss_without_database_mb(), 1)
        rows.append(result)
        print(f"argon2id (m={ARGON2_MEMORY_KIB} KiB, t={ARGON2_ITERATIONS}, p={ARGON2_LANES}): "
              f"{reference['rate']:.1f} hashes/s on {cores} threads ({result['argon2id_ms']} ms each); "
              f"Hearth's resident memory 4 s after the load: {result['rss_without_database_after_mb']} MB "
              f"besides the database's memory map ({result['rss_after_mb']} MB with it)")

    if want("refresh"):
        sign_rate = openssl_rsa2048_sign_rate(min(args.seconds, 5))
        script = lua_post(
            os.path.join(workdir, "refresh.lua"),
            f"grant_type=refresh_token&refresh_token={signed_up['refreshToken']}",
            "application/x-www-form-urlencoded",
        )
        measured = wrk(f"{hearth.url}/v1/token?key={API_KEY}", args.seconds, args.connections, script=script)
        rows.append(row("POST /v1/token (refresh)", measured, "openssl rsa2048 sign, 1 process", sign_rate, 0.5))
    return rows
