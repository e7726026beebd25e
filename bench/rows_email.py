"""Benchmark row of the email actions: `accounts:sendOobCode` for password reset.

Each call is a durable write of a new action code and its outbox message (composed from the
template in the request), group-committed with the other calls in flight; the delivery
worker picks the messages up in the background (log transport). The reference is the
installation token-generation rate (PRODUCT.md §7: durable writes at ≥ 0.5× token
generation), measured on the main server in rounds alternating with this row; without the
token row's targets the ratio is left out.

A second Hearth runs a bench project whose send limits are out of the way (so the row
measures the work, not the limiter) and whose users exist (enumeration protection is on,
so unknown addresses would write nothing).
"""

import json
import os
import subprocess
import time
import urllib.request

from rounds import alternate

USERS = 2000
API_KEY = "bench-email-key"


def start_server(hearth_class, binary, workdir, threads, name="hearth-email", extra_args=()):
    """Starts the bench project's Hearth with its users and writes the wrk script; answers the
    server (stop it when done) and the script's path. Shared with bench/probe.py and
    bench/rows_postgres.py (which names a database in `extra_args`)."""
    config = os.path.join(workdir, "email-bench.json")
    with open(config, "w") as f:
        json.dump(
            {
                "projects": [
                    {
                        "projectId": "bench-email",
                        "projectNumber": "700000000000",
                        "apiKeys": [API_KEY],
                        "apps": [{"appId": "1:700000000000:web:bench", "platform": "web"}],
                        "authorizedDomains": ["localhost"],
                        "settings": {"emailsPerRecipientPerHour": 1000000000, "emailsPerClientAddressPerHour": 1000000000},
                    }
                ]
            },
            f,
        )
    server = hearth_class(binary, workdir, threads, name=name, extra_args=["--config", config, *extra_args])
    try:
        credential = subprocess.run(
            [binary, "admin-key", "create", "--project", "bench-email", "--data", server.data, *extra_args],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for index in range(USERS):
            body = json.dumps({"email": f"user{index}@bench.example"}).encode()
            request = urllib.request.Request(
                f"{server.url}/v1/projects/bench-email/accounts",
                data=body,
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {credential}"},
                method="POST",
            )
            urllib.request.urlopen(request).read()
    except BaseException:
        server.stop()
        raise
    script = os.path.join(workdir, "sendoobcode.lua")
    with open(script, "w") as f:
        f.write(
            f"""
local counter = 0
request = function()
  counter = counter + 1
  local body = string.format('{{"requestType":"PASSWORD_RESET","email":"user%d@bench.example","continueUrl":"http://localhost/done"}}', counter % {USERS})
  return wrk.format("POST", "/v1/accounts:sendOobCode?key={API_KEY}", {{["Content-Type"]="application/json"}}, body)
end
"""
        )
    return server, script


def run(hearth, args, want, wrk, openssl_speed, row, workdir):
    if not want("sendoobcode"):
        return []
    server, script = start_server(args.hearth_class, hearth.binary, workdir, hearth.threads)
    try:
        tokens = os.path.join(workdir, "tokens-10k.txt")
        if not os.path.exists(tokens):
            measured = wrk(server.url + "/", args.seconds, args.connections, script=script)
            return [row("sendOobCode (password reset)", measured, "(no token row in this run)", 0, None)]
        # Alternating with token generation on the main server (its 10 thousand targets),
        # median round's ratio: the machine's speed drifts between rows measured minutes apart.
        os.environ["HEARTH_BENCH_TOKENS"] = tokens
        generate_url = hearth.url + "/v1/projects/demo-project/installations/x/authTokens:generate"
        token_script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "installation_token.lua")
        def send_codes():
            time.sleep(3)  # let the previous round's messages finish going out
            return wrk(server.url + "/", args.seconds, args.connections, script=script)

        measured, reference, ratios = alternate(
            args.rounds, lambda: wrk(generate_url, args.seconds, args.connections, script=token_script), send_codes
        )
    finally:
        server.stop()
    # No bar, like installation create (PRODUCT.md §7).
    entry = row("sendOobCode (password reset)", measured, "installation token generation", reference["rate"], None)
    entry["round_ratios"] = ratios
    return [entry]
