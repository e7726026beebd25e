"""Verifies Hearth's ID tokens offline with stock verifiers pointed at Hearth's Google-shaped keys.

Usage: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT python google_id_token_verifiers.py PROJECT API_KEY ADMIN

google-auth's `id_token.verify_token` reads the x509 document
(`/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com`, also under the
`/www.googleapis.com` prefix) and PyJWT's `PyJWKClient` the JWK document
(`/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`). Both verify a fresh token,
refuse a tampered one and one for another audience, and after an ID-token key rotation verify
both the new token and the one signed before it. Prints one "ok: ..." line per step and
"ALL OK" at the end; any failure raises (non-zero exit).
"""

import base64
import json
import os
import sys
import urllib.request

import google.auth.exceptions
import jwt
from cryptography import x509
from google.auth.transport import requests as google_requests
from google.oauth2 import id_token
from identity_toolkit_rest import rest, step

X509_PATH = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
JWK_PATH = "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"


def kid(token):
    header = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


def tampered(token):
    header, payload, signature = token.split(".")
    flipped = "A" if signature[5] != "A" else "B"
    return ".".join([header, payload, signature[:5] + flipped + signature[6:]])


def refused_by_google_auth(token, request, certs_url, audience):
    try:
        id_token.verify_token(token, request, audience=audience, certs_url=certs_url)
    except (ValueError, google.auth.exceptions.GoogleAuthError):
        return True
    return False


def refused_by_pyjwt(token, client, audience, issuer):
    try:
        key = client.get_signing_key_from_jwt(token)
        jwt.decode(token, key.key, algorithms=["RS256"], audience=audience, issuer=issuer)
    except jwt.PyJWTError:
        return True
    return False


def main():
    project, api_key, admin = sys.argv[1], sys.argv[2], sys.argv[3]
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    base = f"http://{host}"
    issuer = f"https://securetoken.google.com/{project}"
    request = google_requests.Request()

    credentials = {"email": "verifier@example.com", "password": "pass-word-1", "returnSecureToken": True}
    status, signed_up = rest(host, "accounts:signUp", credentials, api_key)
    assert status == 200, signed_up
    first = signed_up["idToken"]
    uid = signed_up["localId"]

    with urllib.request.urlopen(base + X509_PATH, timeout=30) as response:
        cache_control = response.headers["Cache-Control"]
        certificates = json.load(response)
    assert cache_control.startswith("public, max-age="), cache_control
    assert 0 < int(cache_control.split("max-age=")[1]) <= 300, cache_control
    certificate = x509.load_pem_x509_certificate(certificates[kid(first)].encode())
    assert certificate.subject == certificate.issuer, certificate.subject
    certificate.verify_directly_issued_by(certificate)
    step(f"x509 document: {len(certificates)} certificate(s), self-signed, {cache_control}")

    for certs_url in [base + X509_PATH, base + "/www.googleapis.com" + X509_PATH]:
        claims = id_token.verify_token(first, request, audience=project, certs_url=certs_url)
        assert claims["iss"] == issuer and claims["sub"] == uid and claims["user_id"] == uid, claims
        assert claims["email"] == "verifier@example.com", claims
    step("google-auth verify_token of a fresh ID token (both x509 URLs)")

    assert refused_by_google_auth(tampered(first), request, base + X509_PATH, project)
    assert refused_by_google_auth(first, request, base + X509_PATH, "another-project")
    step("google-auth refuses a tampered token and another audience")

    # A long-lived client that looks a missing key up again at once (PyJWT's default waits 30 s
    # between refetches, so a verifier that just fetched misses a key made in that time).
    jwk_client = jwt.PyJWKClient(base + JWK_PATH, cooldown_duration=0)
    for client in [jwk_client, jwt.PyJWKClient(base + "/www.googleapis.com" + JWK_PATH)]:
        key = client.get_signing_key_from_jwt(first)
        claims = jwt.decode(first, key.key, algorithms=["RS256"], audience=project, issuer=issuer)
        assert claims["sub"] == uid, claims
    step("PyJWKClient verifies a fresh ID token (both JWK URLs)")

    assert refused_by_pyjwt(tampered(first), jwk_client, project, issuer)
    assert refused_by_pyjwt(first, jwk_client, "another-project", issuer)
    step("PyJWT refuses a tampered token and another audience")

    rotation = urllib.request.Request(
        f"{base}/hearth/v1/projects/{project}/signingKeys:rotate",
        data=json.dumps({"purpose": "idTokens"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {admin}"},
        method="POST",
    )
    with urllib.request.urlopen(rotation, timeout=30) as response:
        new_key = json.load(response)["keyId"]
    status, signed_in = rest(host, "accounts:signInWithPassword", credentials, api_key)
    assert status == 200, signed_in
    second = signed_in["idToken"]
    assert kid(second) == new_key and kid(first) != new_key, (kid(first), kid(second), new_key)
    step("rotated the ID-token key; a new sign-in is signed by the new key")

    for token in [first, second]:
        claims = id_token.verify_token(token, request, audience=project, certs_url=base + X509_PATH)
        assert claims["sub"] == uid, claims
    step("google-auth verifies the tokens of both keys after the rotation")

    for client in [jwk_client, jwt.PyJWKClient(base + JWK_PATH)]:
        for token in [second, first]:
            key = client.get_signing_key_from_jwt(token)
            claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=project, issuer=issuer)
            assert claims["sub"] == uid, claims
    step("PyJWKClient verifies the tokens of both keys after the rotation (cached and fresh client)")

    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
