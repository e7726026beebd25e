"""Clients migrating from Instance ID, then the stock firebase-admin deleting their IDs.

Usage: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT python firebase_admin_instance_id.py PROJECT API_KEY IOS_APP ANDROID_APP

An iOS and an Android client register with a legacy 11-character Instance ID and its IID token
in the migration header, sending their create requests as the SDKs do (iOS: trailing slash,
X-Ios-Bundle-Identifier; Android: gzip body, X-Android-Package/Cert), keep their IDs and get
tokens for them; firebase-admin's `instance_id.delete_instance_id` deletes both; an unknown
legacy ID raises NotFoundError, a deleted one ConflictError, a malformed one
InvalidArgumentError. Prints one "ok: ..." line per step and "ALL OK" at the end.

firebase-admin has no emulator mode for Instance ID: its service URL is a module constant,
pointed at Hearth here, and the credential is firebase-admin's own emulator credential
(`Authorization: Bearer owner`, which Hearth's development seed accepts).
"""

import base64
import gzip
import json
import os
import secrets
import sys
import urllib.error
import urllib.request

import firebase_admin
from firebase_admin import _utils, credentials, exceptions, instance_id
from identity_toolkit_rest import step


class EmulatorCredential(credentials.Base):
    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


def legacy_id():
    """An IID as the SDKs derive it: 8 bytes (of SHA-1), first nibble 0111, base64url unpadded."""
    raw = bytearray(secrets.token_bytes(8))
    raw[0] = 0x70 | (raw[0] & 0x0F)
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


def call(base, method, path, body=None, headers=None, gzipped=False):
    data = None
    headers = dict(headers or {})
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
        if gzipped:
            data = gzip.compress(data)
            headers["Content-Encoding"] = "gzip"
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def main():
    project, api_key, ios_app, android_app = sys.argv[1:5]
    base = f"http://{os.environ['FIREBASE_AUTH_EMULATOR_HOST']}"
    clients = []

    ios_id = legacy_id()
    status, created = call(
        base,
        "POST",
        f"/v1/projects/{project}/installations/",
        {"fid": ios_id, "authVersion": "FIS_v2", "appId": ios_app, "sdkVersion": "i:11.0.0"},
        {
            "X-Goog-Api-Key": api_key,
            "X-Ios-Bundle-Identifier": "com.example.ios",
            "x-goog-fis-ios-iid-migration-auth": f"{ios_id}:APA91bFake-iOS-IID-default-token",
        },
    )
    assert status == 200 and created["fid"] == ios_id, (status, created)
    clients.append(("iOS", ios_id, created["refreshToken"], "i:11.0.0"))
    step(f"iOS client keeps its legacy ID {ios_id}")

    android_id = legacy_id()
    status, created = call(
        base,
        "POST",
        f"/v1/projects/{project}/installations",
        {"fid": android_id, "appId": android_app, "authVersion": "FIS_v2", "sdkVersion": "a:18.0.0"},
        {
            "x-goog-api-key": api_key,
            "Accept": "application/json",
            "Cache-Control": "no-cache",
            "X-Android-Package": "com.example.android",
            "X-Android-Cert": "0123456789ABCDEF0123456789ABCDEF01234567",
            "x-goog-fis-android-iid-migration-auth": f"{android_id}:APA91bFake-Android-IID-wildcard-token",
        },
        gzipped=True,
    )
    assert status == 200 and created["fid"] == android_id, (status, created)
    clients.append(("Android", android_id, created["refreshToken"], "a:18.0.0"))
    step(f"Android client keeps its legacy ID {android_id}")

    def generate(fid, refresh_token, sdk_version):
        return call(
            base,
            "POST",
            f"/v1/projects/{project}/installations/{fid}/authTokens:generate",
            {"installation": {"sdkVersion": sdk_version}},
            {"x-goog-api-key": api_key, "Authorization": f"FIS_v2 {refresh_token}"},
        )

    for name, fid, refresh_token, sdk_version in clients:
        status, token = generate(fid, refresh_token, sdk_version)
        assert status == 200 and token["expiresIn"].endswith("s"), (status, token)
        payload = token["token"].split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        assert claims["fid"] == fid, claims
        step(f"{name} client gets tokens for its legacy ID")

    instance_id._IID_SERVICE_URL = base + "/v1/"
    firebase_admin.initialize_app(EmulatorCredential(), {"projectId": project})

    for name, fid, refresh_token, sdk_version in clients:
        instance_id.delete_instance_id(fid)
        status, _ = generate(fid, refresh_token, sdk_version)
        assert status == 404, status
        step(f"delete_instance_id deletes the {name} client's legacy ID")

    def refused(fid, error_type, message):
        try:
            instance_id.delete_instance_id(fid)
        except error_type as error:
            assert str(error) == f'Instance ID "{fid}": {message}', str(error)
            assert isinstance(error, exceptions.FirebaseError)
            return
        raise AssertionError(f"delete_instance_id({fid}) did not raise {error_type.__name__}")

    refused(legacy_id(), exceptions.NotFoundError, "Failed to find the instance ID.")
    step("an unknown legacy ID raises NotFoundError")
    refused(clients[0][1], exceptions.ConflictError, "Already deleted.")
    step("a deleted legacy ID raises ConflictError")
    refused("not-an-instance-id", exceptions.InvalidArgumentError, "Malformed instance ID argument.")
    step("an ID of neither shape raises InvalidArgumentError")
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
