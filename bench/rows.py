"""Installation rows of the benchmark (PRODUCT.md section 7), called by bench/run.py:

* `openssl speed ecdsap256` single-process signing rate: the reference.
* token generation (authTokens:generate, distinct installations and refresh tokens, JS SDK
  body) with 10 thousand installations stored: bar 0.5x the OpenSSL rate (alternating
  rounds, median ratio).
* the same with 1 million installations stored: bar 0.8x the 10-thousand rate (cost flat);
  also alternating with signing, and compared as ratios to signing (the reference column
  shows the 10-thousand rate scaled to the signing speed of the 1-million rounds).
* create (distinct client FIDs, JS SDK body; a durable group-committed write), after the
  1 million are stored: bar 0.5x token generation (alternating rounds, median ratio).

Installations for the token rows are written straight into the database of the running
server (valid rows: SHA-256 hashes of known refresh tokens), which is much faster than a
million API calls; a few are made through the API first and checked to generate tokens, so
the bulk rows are known to be right.
"""

import base64
import hashlib
import json
import os
import random
import sqlite3
import time
import urllib.request

from rounds import alternate

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = "demo-project"
APP = "1:100000000000:web:0a1b2c3d4e5f6789"
SDK = "w:0.6.24"
TARGETS = 10_000


def fid_from(seed):
    raw = bytearray(hashlib.sha256(seed).digest()[:17])
    raw[0] = 0x70 | (raw[0] & 0x0F)
    return base64.urlsafe_b64encode(bytes(raw)).decode()[:22]


def refresh_token(seed):
    return "3_" + base64.urlsafe_b64encode(hashlib.sha256(b"refresh" + seed).digest()).decode().rstrip("=")


def bulk_insert(database, start, count, now_ms):
    """Inserts installations start..start+count-1; answers their (fid, refresh token) pairs."""
    pairs = []

    def rows():
        for index in range(start, start + count):
            seed = f"bench-{index}".encode()
            fid, token = fid_from(seed), refresh_token(seed)
            pairs.append((fid, token))
            yield (PROJECT, fid, APP, hashlib.sha256(token.encode()).digest(), SDK, now_ms, now_ms)

    connection = sqlite3.connect(database, timeout=60, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(
        "INSERT INTO installations (project_id, fid, app_id, refresh_token_hash, sdk_version, created_ms, last_seen_ms)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows(),
    )
    connection.execute("COMMIT")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return pairs


def post(url, body, headers):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def check_api(hearth, pairs):
    """A made-through-the-API installation and a few bulk ones generate tokens."""
    key = {"Content-Type": "application/json", "x-goog-api-key": "demo-api-key"}
    made = post(f"{hearth.url}/v1/projects/{PROJECT}/installations", {"appId": APP, "sdkVersion": SDK}, key)
    for fid, token in [(made["fid"], made["refreshToken"])] + random.sample(pairs, 3):
        answer = post(
            f"{hearth.url}/v1/projects/{PROJECT}/installations/{fid}/authTokens:generate",
            {"installation": {"sdkVersion": SDK, "appId": APP}},
            dict(key, Authorization=f"FIS_v2 {token}"),
        )
        assert answer["expiresIn"] == "604800s", answer


def write_targets(workdir, pairs, name):
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        for fid, token in pairs:
            f.write(f"{fid} {token}\n")
    return path


def run(hearth, args, want, wrk, openssl_speed, row, workdir):
    rows = []
    names = ["installations", "installation-token", "installation-store-size", "installation-create"]
    if not any(want(name) for name in names):
        return rows
    database = os.path.join(hearth.data, "hearth.db")
    now_ms = int(time.time() * 1000)
    generate_url = hearth.url + "/v1/projects/demo-project/installations/x/authTokens:generate"

    def signing_round():
        return {"rate": openssl_speed("ecdsap256", max(3, args.seconds))["sign"], "p99_ms": None, "non2xx": 0}

    small = bulk_insert(database, 0, TARGETS, now_ms)
    check_api(hearth, small)
    os.environ["HEARTH_BENCH_TOKENS"] = write_targets(workdir, small, "tokens-10k.txt")
    token_script = os.path.join(HERE, "installation_token.lua")
    # The machine's speed drifts by 10-20 % over minutes (a shared VM), so signing and token
    # generation alternate and the median round's ratio is reported.
    small_rate, signing, ratios = alternate(
        args.rounds,
        signing_round,
        lambda: wrk(generate_url, args.seconds, args.connections, script=token_script),
    )
    sign = signing["rate"]
    rows.append(row("openssl speed ES256 sign (1 process)", signing, "openssl speed ecdsap256", sign, None))
    entry = row("installation token (10k stored)", small_rate, "openssl ES256 sign/s", sign, 0.5)
    entry["round_ratios"] = ratios
    rows.append(entry)

    if want("installation-store-size") or want("installations"):
        print("bench: inserting installations up to 1 million ...", flush=True)
        bulk_insert(database, TARGETS, 1_000_000 - TARGETS, now_ms)
        pairs = [(fid_from(f"bench-{i}".encode()), refresh_token(f"bench-{i}".encode()))
                 for i in random.sample(range(1_000_000), TARGETS)]
        check_api(hearth, pairs)
        os.environ["HEARTH_BENCH_TOKENS"] = write_targets(workdir, pairs, "tokens-1m.txt")
        # Also alternating with signing: the 1M row's ratio is its ratio to signing over the
        # 10k row's, so a drift of the machine between the two rows cancels out.
        large_rate, large_signing, large_ratios = alternate(
            args.rounds,
            signing_round,
            lambda: wrk(generate_url, args.seconds, args.connections, script=token_script),
        )
        small_ratio = small_rate["rate"] / sign
        entry = row("installation token (1M stored)", large_rate, "token with 10k stored",
                    small_ratio * large_signing["rate"], 0.8)
        entry["round_ratios"] = [round(ratio / small_ratio, 3) for ratio in large_ratios]
        rows.append(entry)

    # Alternating with token generation for the 10 thousand targets (whatever is stored by
    # now), median round's ratio, like the token row.
    os.environ["HEARTH_BENCH_TOKENS"] = os.path.join(workdir, "tokens-10k.txt")
    create_rate, reference, ratios = alternate(
        args.rounds,
        lambda: wrk(generate_url, args.seconds, args.connections, script=token_script),
        lambda: wrk(hearth.url + "/v1/projects/demo-project/installations", args.seconds, args.connections,
                    script=os.path.join(HERE, "installation_create.lua")),
    )
    # No bar (PRODUCT.md §7): a durable write is bound by the disk's flush latency, so its ratio to
    # a CPU-bound row follows the machine, not the code.
    entry = row("installation create (durable write)", create_rate, "installation token (10k)", reference["rate"], None)
    entry["round_ratios"] = ratios
    rows.append(entry)
    return rows
