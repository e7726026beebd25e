"""Schemathesis against a running Hearth, from its OpenAPI description, plus the hosted page's form.

    python3 schemathesis_routes.py --base-url http://127.0.0.1:9099 --spec docs/openapi.json \
        --server-pid 1234 --max-time 90 --seed 7

Needs a server with the development seed (API key demo-api-key, admin credential owner).
Schemathesis runs its examples, coverage, fuzzing and stateful phases over every described
operation (the stateful phase follows the description's links: sign-up → lookup, update and
refresh with its tokens; installation create → generateAuthToken and delete with its refresh
token), with the seed's credentials for each security scheme. Then the hosted action page's
form is posted with random fields around a real code and form token.

The rule: no 5xx, no dropped connection, no answer slower than 5 s, the hosted page always
answers HTML, the server still answers /healthz afterwards, and its resident memory grows by
at most MEMORY_GROWTH_LIMIT_MIB. Prints the counts (requests, statuses); exit status 1 on a
problem.
"""

import argparse
import json
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

PROJECT = "demo-project"
API_KEY = "demo-api-key"
ADMIN_CREDENTIAL = "owner"
TIMEOUT_SECONDS = 5.0
MEMORY_GROWTH_LIMIT_MIB = 256
# Moving the test clock would expire every token mid-run: it is a development switch, not input.
EXCLUDED_OPERATIONS = ["emulator.clock.advance"]

# Path parameters name the seed project, so that requests get past the project lookup.
CONFIG = f"""
[parameters]
"path.project" = "{PROJECT}"

[auth.openapi.apiKey]
api_key = "{API_KEY}"

[auth.openapi.apiKeyHeader]
api_key = "{API_KEY}"

[auth.openapi.admin]
bearer = "{ADMIN_CREDENTIAL}"
"""


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def call(base_url, method, path, body=None, headers=None, form=False):
    """(status, content type, text) of one request; raises on no answer within the time limit."""
    data, headers = None, dict(headers or {})
    if body is not None:
        if form:
            data = urllib.parse.urlencode(body).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base_url + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode("utf-8", "replace")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


urllib.request.install_opener(urllib.request.build_opener(NoRedirect))


def run_schemathesis(args, workdir):
    config = os.path.join(workdir, "schemathesis.toml")
    with open(config, "w") as file:
        file.write(CONFIG)
    har = os.path.join(workdir, "run.har")
    command = [
        os.path.join(os.path.dirname(sys.executable), "schemathesis"), "--config-file", config, "--no-color",
        "run", os.path.abspath(args.spec), "--url", args.base_url,
        "--checks", "not_a_server_error", "--max-response-time", str(TIMEOUT_SECONDS),
        "--request-timeout", str(TIMEOUT_SECONDS * 2), "--request-retries", "0",
        "--phases", "examples,coverage,fuzzing,stateful", "--max-time", str(args.max_time),
        "--max-examples", str(args.max_examples), "--seed", str(args.seed), "--mode", args.mode, "--workers", "1",
        "--suppress-health-check", "all", "--generation-database", "none", "--continue-on-failure",
        "--report", "har", "--report-har-path", har, "--warnings", "off",
    ]
    for operation in EXCLUDED_OPERATIONS:
        command += ["--exclude-operation-id", operation]
    started = time.monotonic()
    # In the temporary folder: schemathesis keeps a crash cache in its working directory.
    result = subprocess.run(command, capture_output=True, text=True, timeout=args.max_time * 3 + 120, cwd=workdir)
    seconds = time.monotonic() - started
    entries = []
    if os.path.exists(har):
        with open(har) as file:
            entries = json.load(file).get("log", {}).get("entries", [])
    return result, entries, seconds


def form_problems(base_url, rng, count):
    """POSTs to the hosted action page: a real reset code and form token, then random fields.
    Answers the problems and the statuses seen."""
    problems, statuses = [], Counter()
    email = f"form-{secrets.token_hex(4)}@example.com"  # fresh, so a rerun against the same server sets up
    status, _, text = call(base_url, "POST", f"/v1/accounts:signUp?key={API_KEY}",
                           {"email": email, "password": "Passw0rd!form"})
    if status != 200:
        return [f"PROBLEM setting up the form fuzzing: sign-up answered {status} {text[:200]}"], statuses
    status, _, text = call(base_url, "POST", f"/v1/projects/{PROJECT}/accounts:sendOobCode",
                           {"requestType": "PASSWORD_RESET", "email": email, "returnOobLink": True},
                           {"Authorization": f"Bearer {ADMIN_CREDENTIAL}"})
    if status != 200:
        return [f"PROBLEM setting up the form fuzzing: sendOobCode answered {status} {text[:200]}"], statuses
    link = urllib.parse.urlsplit(json.loads(text)["oobLink"])
    query = dict(urllib.parse.parse_qsl(link.query))
    status, _, page = call(base_url, "GET", "/__/auth/action?" + link.query)
    csrf = re.search(r'name="csrf"\s+value="([^"]*)"', page) or re.search(r'value="([^"]*)"\s+name="csrf"', page)
    valid = {**query, "csrf": csrf.group(1) if csrf else "", "newPassword": "Passw0rd!new1",
             "confirmPassword": "Passw0rd!new1"}
    odd = ["", "\x00", "é" * 3000, "A" * 100_000, "%", "<script>", "resetPassword", "verifyEmail", "signIn",
           "recoverEmail", "verifyAndChangeEmail", "javascript:alert(1)", "https://evil.example/", "../../etc",
           "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"), "0" * 64, valid["oobCode"], valid["csrf"]]
    names = list(valid) + ["unknown", "csrf", "mode"]
    for index in range(count):
        fields = dict(valid)
        for _ in range(rng.randint(1, 4)):
            name = rng.choice(names)
            if rng.random() < 0.3:
                fields.pop(name, None)
            else:
                fields[name] = rng.choice(odd) if rng.random() < 0.8 else valid.get(rng.choice(list(valid)), "")
        try:
            status, content_type, text = call(base_url, "POST", "/__/auth/action", fields, form=True)
        except Exception as error:  # a dropped connection or a timeout
            problems.append(f"PROBLEM form #{index}: no answer ({error}) to {shorten(fields)}")
            continue
        statuses[status] += 1
        if status >= 500:
            problems.append(f"PROBLEM form #{index}: {status} to {shorten(fields)}: {text[:200]}")
        elif status != 303 and status != 302 and not content_type.startswith("text/html"):
            problems.append(f"PROBLEM form #{index}: {status} {content_type} (not a page) to {shorten(fields)}")
    return problems, statuses


def shorten(value):
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) < 300 else text[:300] + "…"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--spec", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--max-time", type=int, default=90, help="seconds of schemathesis")
    parser.add_argument("--max-examples", type=int, default=25)
    parser.add_argument("--seed", type=int, default=20261203)
    parser.add_argument("--forms", type=int, default=300)
    parser.add_argument("--mode", default="all", choices=["all", "positive", "negative"])
    args = parser.parse_args()

    before = resident_mib(args.server_pid)
    problems = []
    with tempfile.TemporaryDirectory(prefix="hearth-schemathesis-") as workdir:
        result, entries, seconds = run_schemathesis(args, workdir)
    statuses = Counter(entry["response"]["status"] for entry in entries)
    slowest = max((entry.get("time", 0) for entry in entries), default=0) / 1000
    server_errors = [entry for entry in entries if entry["response"]["status"] >= 500]
    if result.returncode != 0 or server_errors:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-80:])
        problems.append(f"PROBLEM schemathesis exited {result.returncode} with {len(server_errors)} 5xx:\n{tail}")
    for entry in server_errors[:10]:
        request = entry["request"]
        problems.append(f"PROBLEM {entry['response']['status']} to {request['method']} {request['url']} "
                        f"{shorten(request.get('postData', {}).get('text', ''))}")
    if not entries:
        problems.append("PROBLEM schemathesis made no requests")

    form_issues, form_statuses = form_problems(args.base_url, random.Random(args.seed), args.forms)
    problems += form_issues

    try:
        health, _, _ = call(args.base_url, "GET", "/healthz")
    except Exception as error:
        health = f"no answer ({error})"
    if health != 200:
        problems.append(f"PROBLEM after the run: /healthz answered {health}")
    after = resident_mib(args.server_pid)
    if after - before > MEMORY_GROWTH_LIMIT_MIB:
        problems.append(f"PROBLEM resident memory grew from {before:.0f} MiB to {after:.0f} MiB")

    def counts(counter):
        return ", ".join(f"{status}: {count}" for status, count in sorted(counter.items()))

    output = (result.stdout + result.stderr).splitlines()
    summary = [line for line in output[next((i for i, line in enumerate(output) if "SUMMARY" in line), len(output)):]
               if line.strip() and not line.startswith("  - HAR")]
    # The calls that only succeed with a token from an earlier answer (the description's links).
    linked = {name: sum(1 for entry in entries if entry["response"]["status"] < 300
                        and urllib.parse.urlsplit(entry["request"]["url"]).path.endswith(name))
              for name in ("/authTokens:generate", "/accounts:lookup", "/accounts:update", "/token")}
    print("\n".join(problems + summary + [
        "schemathesis_routes: 2xx answers needing an earlier answer's token: "
        + ", ".join(f"{name} {count}" for name, count in linked.items()),
        f"schemathesis_routes: {len(entries)} schemathesis requests in {seconds:.0f} s (slowest {slowest:.2f} s), "
        f"statuses {counts(statuses)}",
        f"schemathesis_routes: {sum(form_statuses.values())} hosted-form posts, statuses {counts(form_statuses)}",
        f"schemathesis_routes: resident memory {before:.0f} MiB before, {after:.0f} MiB after",
    ]))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
