"""Sends a body larger than the server's limit, ten times each with Python's http.client,
curl, and curl told not to wait for 100-continue, and checks that every attempt reads the 413
answer (not a broken pipe or a reset). Usage: large_body_refusals.py BASE_URL PATH BODY_BYTES"""

import http.client
import json
import subprocess
import sys
import urllib.parse


def with_http_client(base_url, path, body):
    parsed = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)
    try:
        # The whole body goes out in one send() call, as stock clients do.
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        payload = json.loads(response.read())
        return response.status, payload["error"]["code"]
    finally:
        connection.close()


def with_curl(base_url, path, body_file, extra):
    completed = subprocess.run(
        [
            "curl", *extra, "--silent", "--show-error", "--max-time", "30",
            "--output", "-", "--write-out", "\n%{http_code}",
            "--header", "Content-Type: application/json",
            "--data-binary", "@" + body_file,
            base_url + path,
        ],
        capture_output=True,
        check=False,
    )
    if completed.returncode != 0:
        return "curl exit %d: %s" % (completed.returncode, completed.stderr.decode(errors="replace")), None
    text, _, status = completed.stdout.decode().rpartition("\n")
    return int(status), json.loads(text)["error"]["code"]


def main():
    base_url, path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    body = b" " * size
    body_file = "/tmp/large_body_refusals_%d.json" % size
    with open(body_file, "wb") as handle:
        handle.write(body)
    failures = []
    for attempt in range(10):
        for name, send in (
            ("http.client", lambda: with_http_client(base_url, path, body)),
            # curl asks for 100-continue before a large body; without it, it sends at once.
            ("curl", lambda: with_curl(base_url, path, body_file, [])),
            ("curl without Expect", lambda: with_curl(base_url, path, body_file, ["--header", "Expect:"])),
        ):
            try:
                outcome = send()
            except Exception as error:  # a reset or broken pipe is exactly the failure sought
                outcome = (repr(error), None)
            print("%s attempt %d: %s" % (name, attempt + 1, outcome))
            if outcome != (413, 413):
                failures.append((name, attempt + 1, outcome))
    if failures:
        print("FAILED: %r" % failures)
        sys.exit(1)
    print("all 30 attempts answered 413")


if __name__ == "__main__":
    main()
