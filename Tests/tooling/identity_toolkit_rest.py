"""Shared by the firebase-admin driver scripts: Identity Toolkit REST calls as a client app
makes them, and the one-line progress format the Swift tests look for."""

import json
import urllib.error
import urllib.request


def rest(host, method, body, api_key):
    """POSTs `body` to `accounts:<method>`-style `method` and answers (status, JSON body)."""
    request = urllib.request.Request(
        f"http://{host}/identitytoolkit.googleapis.com/v1/{method}?key={api_key}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def step(text):
    print(f"ok: {text}", flush=True)
