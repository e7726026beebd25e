"""Hostile input on every Hearth route: a seeded fuzzer that the end-to-end tests run.

    python3 fuzz_routes.py --base-url http://127.0.0.1:9099 --seed 7 --requests 2000

Needs a server with the development seed. It makes fodder (a user and an installation that
requests only read, and spares that requests may use up), then sends N requests round-robin
over every application route, each a valid request with up to three mutations: fields dropped
or of the wrong type, odd unicode (non-ASCII emails, control characters, NUL, lone surrogates),
strings up to 100 KB, huge and negative numbers, unknown fields, deep nesting, invalid or
truncated JSON, a wrong Content-Type, gzip garbage, odd paths, queries, headers and methods.
The same seed sends the same mutations.

The rule: bad input gets a clear 4xx in the Google JSON error envelope, never a 5xx, a dropped
connection or an answer slower than 5 s; afterwards the fodder still works and /healthz answers
200. Each distinct problem is printed on one line with the smallest request that showed it
(exit status 1); otherwise one summary line (exit status 0).

Transport-level attacks (malformed framing, garbage request lines, other HTTP versions,
oversized heads, slow requests) are left out: libmicrohttpd answers those itself and Hearth
never sees them. Setup and the final checks come from a second loopback address, so the
per-client limits that the fuzzed traffic uses up (sign-ups, failed sign-ins, emails) never
refuse them; within the fuzzed traffic TOO_MANY_ATTEMPTS_TRY_LATER is just another 4xx.
"""

import argparse
import base64
import gzip
import json
import random
import re
import secrets
import socket
import sys
import time
import urllib.parse
from collections import Counter, namedtuple
from dataclasses import dataclass, field

PROJECT = "demo-project"
API_KEY = "demo-api-key"
ADMIN_AUTHORIZATION = "Bearer owner"
WEB_APP = "1:100000000000:web:0a1b2c3d4e5f6789"
APP_IDS = [WEB_APP, "1:100000000000:ios:0a1b2c3d4e5f6789", "1:100000000000:android:0a1b2c3d4e5f6789"]
MAIL_KINDS = ["TEST", "PASSWORD_RESET", "VERIFY_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "RECOVER_EMAIL"]
PASSWORD = "Passw0rd!fuzz"
TIMEOUT_SECONDS = 5.0
CHECK_SOURCE_ADDRESS = "127.0.0.2"


# --------------------------------------------------------------------------- HTTP


@dataclass
class Request:
    """A request kept in parts until it is sent, so that mutations can change any of them; the
    body stays a JSON value until a mutation needs raw bytes."""

    method: str
    path: str
    query: list = field(default_factory=list)
    headers: list = field(default_factory=list)
    json: object = None
    raw: bytes = None
    content_type: str = None
    ascii_only: bool = False
    query_suffix: str = ""
    fid: str = None  # the installation ID in the path
    mutations: list = field(default_factory=list)

    def body(self):
        if self.raw is not None or self.json is None:
            return self.raw or b""
        return json.dumps(self.json, ensure_ascii=self.ascii_only).encode("utf-8", "surrogatepass")

    def target(self):
        query = urllib.parse.urlencode(self.query, quote_via=urllib.parse.quote, errors="surrogatepass")
        query = "&".join(part for part in (query, self.query_suffix) if part)
        return self.path + ("?" + query if query else "")

    def all_headers(self):
        return self.headers + ([("Content-Type", self.content_type)] if self.content_type is not None else [])

    def encode(self):
        head = [f"{self.method} {self.target()} HTTP/1.1", "Host: hearth", "Connection: close"]
        head += [f"{name}: {value}" for name, value in self.all_headers()]
        if self.body() or self.method in ("POST", "PUT", "PATCH"):
            head.append(f"Content-Length: {len(self.body())}")
        return "\r\n".join(head).encode("utf-8", "surrogatepass") + b"\r\n\r\n" + self.body()

    def describe(self):
        headers = [(name, shorten(value)) for name, value in self.all_headers()]
        body = shorten(self.body().decode("utf-8", "backslashreplace"))
        return f"{self.method} {shorten(self.target())} headers={headers!r} body={body!r}"


class NoAnswer(Exception):
    """The server closed, reset or sat on the connection instead of answering."""


def shorten(text, limit=400):
    """`text` with long repeats written as «unit»×count, and cut at `limit` characters."""
    text = re.sub(r"(.{1,5}?)\1{7,}", lambda m: f"«{m[1]}»×{len(m[0]) // len(m[1])}", text, flags=re.S)
    return text if len(text) <= limit else f"{text[:limit]}...(+{len(text) - limit} chars)"


def exchange(server, request, source_address=None):
    """Sends `request` on a new connection; answers (status, body) once the server closes it."""
    deadline = time.monotonic() + TIMEOUT_SECONDS
    try:
        with socket.create_connection(server, TIMEOUT_SECONDS, (source_address, 0) if source_address else None) as s:
            try:
                s.sendall(request.encode())
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may answer and close before it reads a body it refuses
            data = bytearray()
            while True:
                s.settimeout(max(0.001, deadline - time.monotonic()))
                chunk = s.recv(65536)
                if not chunk:
                    return parse_reply(bytes(data))
                data += chunk
    except TimeoutError:
        raise NoAnswer(f"no answer within {TIMEOUT_SECONDS:g} s")
    except ConnectionRefusedError:
        raise NoAnswer("connection refused: the server is gone")
    except ConnectionResetError:
        raise NoAnswer("connection reset")


def parse_reply(data):
    head, separator, body = data.partition(b"\r\n\r\n")
    if not separator:
        raise NoAnswer("empty reply" if not data else "reply without a complete head")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = status_line.split(" ")[1] if " " in status_line else ""
    if not status.isdigit():
        raise NoAnswer(f"unreadable status line {status_line!r}")
    lengths = [int(line.split(":", 1)[1]) for line in header_lines if line.lower().startswith("content-length:")]
    if lengths and len(body) < lengths[0]:
        raise NoAnswer("reply cut short")
    return int(status), body[: lengths[0]] if lengths else body


def json_object(body):
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def problem_in(status, body):
    error = json_object(body).get("error")
    envelope = isinstance(error, dict) and error.get("code") == status and isinstance(error.get("message"), str)
    if status >= 500:
        return f"status {status}"
    if status >= 400 and not envelope:
        return f"status {status} without a JSON error envelope"
    return None


# --------------------------------------------------------------------------- fodder


def call(server, method, path, body=None, headers=()):
    """A well-formed JSON call for setup and the final checks, from their own source address."""
    content_type = "application/json" if body is not None else None
    request = Request(method, path, headers=list(headers), json=body, content_type=content_type)
    status, answer = exchange(server, request, CHECK_SOURCE_ADDRESS if server[0].startswith("127.") else None)
    return status, json_object(answer)


def post(server, path, body, headers=()):
    status, answer = call(server, "POST", path, body, headers)
    if status != 200:
        sys.exit(f"fuzz_routes: setting up the fodder failed: POST {path}: {status} {shorten(json.dumps(answer))}")
    return answer


def new_fid(random_bytes):
    data = bytearray(random_bytes(17))
    data[0] = 0x70 | data[0] & 0x0F  # a FID starts with the bits 0111
    return base64.urlsafe_b64encode(bytes(data)).decode()[:22]


def make_fodder(server):
    """The records valid requests refer to, by the names route templates use. Requests only read
    the keeper's; the spare's may be deleted, locked or changed by requests that are still valid."""
    tag = secrets.token_hex(4)  # fresh names, so a rerun against the same server still sets up
    fodder, admin = {"tag": tag, "project": PROJECT}, [("Authorization", ADMIN_AUTHORIZATION)]
    for role in ("keeper", "spare"):
        email = f"{role}-{tag}@example.com"
        user = post(server, f"/v1/accounts:signUp?key={API_KEY}", {"email": email, "password": PASSWORD})
        installation = post(server, f"/v1/projects/{PROJECT}/installations",
                            {"fid": new_fid(secrets.token_bytes), "appId": WEB_APP, "authVersion": "FIS_v2",
                             "sdkVersion": "w:1"}, [("x-goog-api-key", API_KEY)])
        fodder.update({f"{role}_email": email, f"{role}_local_id": user["localId"], f"{role}_id_token": user["idToken"],
                       f"{role}_refresh_token": user["refreshToken"], f"{role}_fid": installation["fid"],
                       f"{role}_fis_refresh": installation["refreshToken"],
                       f"{role}_fis_token": installation["authToken"]["token"]})
    for kind in ("PASSWORD_RESET", "VERIFY_EMAIL", "EMAIL_SIGNIN"):
        link = {"requestType": kind, "email": fodder["spare_email"], "returnOobLink": True,
                "continueUrl": "http://localhost/done"}
        fodder[f"spare_{kind.lower()}_code"] = post(server, f"/v1/projects/{PROJECT}/accounts:sendOobCode",
                                                    link, admin)["oobCode"]
    hearth = f"/hearth/v1/projects/{PROJECT}"
    webhook = {"url": "http://127.0.0.1:9/", "description": "fuzz"}
    fodder["webhook"] = post(server, hearth + "/installationWebhooks", webhook, admin)["webhookId"]
    fodder["message"] = post(server, hearth + "/mail:sendTest", {"to": fodder["keeper_email"]}, admin)["id"]
    return fodder


def fodder_problems(server, fodder):
    """What no longer works of what was stored before the run."""
    installation = [("x-goog-api-key", API_KEY), ("Authorization", "FIS_v2 " + fodder["keeper_fis_refresh"])]
    checks = [
        ("the fodder user to sign in with its password",
         ("POST", f"/v1/accounts:signInWithPassword?key={API_KEY}",
          {"email": fodder["keeper_email"], "password": PASSWORD}),
         lambda answer: answer.get("localId") == fodder["keeper_local_id"]),
        ("the fodder installation to get an auth token",
         ("POST", f"/v1/projects/{PROJECT}/installations/{fodder['keeper_fid']}/authTokens:generate",
          {"installation": {"sdkVersion": "w:1"}}, installation),
         lambda answer: isinstance(answer.get("token"), str)),
        ("/healthz to answer 200", ("GET", "/healthz"), lambda answer: True),
    ]
    problems = []
    for what, arguments, holds in checks:
        try:
            status, answer = call(server, *arguments)
        except NoAnswer as error:
            status, answer = str(error), {}
        if status != 200 or not holds(answer):
            problems.append(f"PROBLEM after the run: expected {what}, got {status} {shorten(json.dumps(answer))}")
    return problems


# --------------------------------------------------------------------------- routes

# Paths and bodies are templates: "{name}" stands for a fodder record or a fresh value (see
# `values`), and a list of bodies means one of them. Valid requests only read the keeper's.
Route = namedtuple("Route", "method path auth body query", defaults=("none", None, ()))
CREDENTIALS = {  # (query, headers) of a valid request
    "key": ([("key", API_KEY)], []),
    "admin": ([], [("Authorization", ADMIN_AUTHORIZATION)]),
    "api-key": ([], [("x-goog-api-key", API_KEY)]),
    "keeper-installation": ([], [("x-goog-api-key", API_KEY), ("Authorization", "FIS_v2 {keeper_fis_refresh}")]),
    "spare-installation": ([], [("x-goog-api-key", API_KEY), ("Authorization", "FIS_v2 {spare_fis_refresh}")]),
    "none": ([], []),
}
P, H = "/v1/projects/{project}", "/hearth/v1/projects/{project}"
TEMPLATE = H + "/mail/templates/{mail_kind}/{language}"
ROUTES = [
    Route("POST", "/v1/accounts:signUp", "key", {"email": "{new_email}", "password": PASSWORD, "displayName": "F"}),
    Route("POST", "/v1/accounts:signInWithPassword", "key", {"email": "{spare_email}", "password": PASSWORD}),
    Route("POST", "/v1/accounts:sendVerificationCode", "key", {"phoneNumber": "+15550001234", "recaptchaToken": "x"}),
    Route("POST", "/v1/accounts:signInWithPhoneNumber", "key", {"sessionInfo": "x", "code": "123456"}),
    Route("POST", "/v1/accounts:sendOobCode", "key", [
        {"requestType": "PASSWORD_RESET", "email": "{keeper_email}", "continueUrl": "http://localhost/done"},
        {"requestType": "VERIFY_EMAIL", "idToken": "{keeper_id_token}"},
        {"requestType": "EMAIL_SIGNIN", "email": "{new_email}", "continueUrl": "https://www.example.com/finish",
         "canHandleCodeInApp": True, "iOSBundleId": "com.example.ios", "androidPackageName": "com.example.android",
         "linkDomain": "custom-domain.com"},
        {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": "{keeper_id_token}", "newEmail": "{new_email}"}]),
    Route("POST", "/v1/accounts:resetPassword", "key",
          {"oobCode": "{spare_password_reset_code}", "newPassword": PASSWORD + "-2"}),
    Route("POST", "/v1/accounts:update", "key", [
        {"idToken": "{keeper_id_token}", "displayName": "Keeper", "photoUrl": "https://www.example.com/k.png"},
        {"oobCode": "{spare_verify_email_code}"}]),
    Route("POST", "/v1/accounts:lookup", "key", {"idToken": "{keeper_id_token}"}),
    Route("POST", "/v1/accounts:delete", "key", {"idToken": "{spare_id_token}"}),
    Route("POST", "/v1/accounts:signInWithEmailLink", "key",
          {"email": "{spare_email}", "oobCode": "{spare_email_signin_code}"}),
    Route("POST", "/v1/accounts:createAuthUri", "key",
          {"identifier": "{keeper_email}", "continueUri": "http://localhost/done"}),
    Route("GET", "/v1/projects", "key"),
    Route("GET", P + "/jwks"),
    Route("GET", "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"),
    Route("GET", "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"),
    Route("POST", P + "/accounts", "admin", {"email": "{new_email}", "password": PASSWORD, "emailVerified": True}),
    Route("POST", P + "/accounts:lookup", "admin", {"localId": ["{keeper_local_id}"], "email": ["{keeper_email}"]}),
    Route("POST", P + "/accounts:update", "admin",
          {"localId": "{spare_local_id}", "displayName": "Spare", "emailVerified": True, "disableUser": False}),
    Route("POST", P + "/accounts:delete", "admin", {"localId": "{spare_local_id}"}),
    Route("GET", P + "/accounts:batchGet", "admin", None, [("maxResults", "5")]),
    Route("POST", P + "/accounts:batchDelete", "admin", {"localIds": ["{spare_local_id}"], "force": True}),
    Route("POST", P + "/accounts:sendOobCode", "admin",
          {"requestType": "PASSWORD_RESET", "email": "{keeper_email}", "returnOobLink": True}),
    Route("POST", "/v1/token", "key", {"grant_type": "refresh_token", "refresh_token": "{keeper_refresh_token}"}),
    Route("POST", P + "/installations", "api-key",
          {"fid": "{new_fid}", "appId": "{app_id}", "authVersion": "FIS_v2", "sdkVersion": "w:1"}),
    Route("POST", P + "/installations/{keeper_fid}/authTokens:generate", "keeper-installation",
          {"installation": {"sdkVersion": "w:1", "appId": WEB_APP}}),
    Route("DELETE", P + "/installations/{spare_fid}", "spare-installation"),
    Route("POST", P + "/installations:verifyToken", "admin", {"token": "{keeper_fis_token}"}),
    Route("DELETE", "/v1/project/{project}/instanceId/{spare_fid}", "admin"),
    Route("GET", H + "/installations", "admin", None, [("pageSize", "3")]),
    Route("GET", H + "/installations/{keeper_fid}", "admin"),
    Route("GET", H + "/installationTombstones", "admin", None, [("pageSize", "3")]),
    Route("GET", H + "/installationDeliveries", "admin", None, [("pageSize", "3"), ("state", "failed")]),
    Route("POST", H + "/installationWebhooks", "admin", {"url": "http://127.0.0.1:9/x", "description": "fuzz"}),
    Route("GET", H + "/installationWebhooks", "admin"),
    Route("DELETE", H + "/installationWebhooks/{webhook}", "admin"),
    Route("POST", H + "/signingKeys:rotate", "admin", {"purpose": "{key_purpose}"}),
    Route("GET", H + "/mail/messages", "admin", None, [("pageSize", "5")]),
    Route("GET", H + "/mail/messages/{message}", "admin"),
    Route("POST", H + "/mail:sendTest", "admin", {"to": "{new_email}", "kind": "{mail_kind}", "languageCode": "it"}),
    Route("GET", TEMPLATE, "admin"),
    Route("PUT", TEMPLATE, "admin", {"subject": "Hi %APP_NAME%", "text": "Open %LINK%", "html": "<a href=%LINK%>"}),
    Route("DELETE", TEMPLATE, "admin"),
    Route("GET", "/emulator/v1/projects/{project}/oobCodes"),
    Route("GET", "/emulator/v1/clock"),
    Route("GET", "/healthz"),
]
# The legacy v3 names of the methods above (all POST), and the names Hearth does not serve.
SERVED_V3 = {"signupNewUser": "/v1/accounts:signUp", "verifyPassword": "/v1/accounts:signInWithPassword",
             "getOobConfirmationCode": "/v1/accounts:sendOobCode", "resetPassword": "/v1/accounts:resetPassword",
             "setAccountInfo": "/v1/accounts:update", "getAccountInfo": "/v1/accounts:lookup",
             "deleteAccount": "/v1/accounts:delete", "emailLinkSignin": "/v1/accounts:signInWithEmailLink",
             "createAuthUri": "/v1/accounts:createAuthUri", "getProjectConfig": "/v1/projects",
             "downloadAccount": P + "/accounts:batchGet",
             "sendVerificationCode": "/v1/accounts:sendVerificationCode",
             "verifyPhoneNumber": "/v1/accounts:signInWithPhoneNumber"}
UNSERVED_V3 = ["getRecaptchaParam", "publicKeys", "setProjectConfig", "signOutUser", "uploadAccount", "verifyAssertion",
               "verifyCustomToken"]
V3 = "/identitytoolkit/v3/relyingparty/"
ROUTES += [Route("POST", V3 + name, route.auth, route.body or {})
           for name, path in SERVED_V3.items() for route in ROUTES if route.path == path]
ROUTES += [Route("GET", V3 + "getProjectConfig", "key"), Route("POST", V3 + "{unserved}", "key", {})]


def family(route):
    prefixes = [(V3, "identitytoolkit-v3"), ("/hearth/", "hearth-admin"), ("/emulator/", "emulator"),
                ("/healthz", "healthz"), ("/v1/token", "securetoken"), (P + "/installations", "installations"),
                ("/v1/project/{project}/instanceId", "installations"), ("/v1/", "identitytoolkit-v1"),
                ("/robot/", "google-keys"), ("/service_accounts/", "google-keys")]
    return next(name for prefix, name in prefixes if route.path.startswith(prefix))


def values(fodder, rng):
    return {**fodder, "new_email": f"fuzz-{rng.randrange(10**9)}-{fodder['tag']}@example.com",
            "new_fid": new_fid(rng.randbytes), "app_id": rng.choice(APP_IDS), "unserved": rng.choice(UNSERVED_V3),
            "key_purpose": rng.choice(["installations", "idTokens"]), "mail_kind": rng.choice(MAIL_KINDS),
            "language": rng.choice(["en", "it", "fa", "pt-BR"])}


def resolve(template, values):
    if isinstance(template, str):
        return template.format(**values)
    if isinstance(template, (list, tuple)):
        return type(template)(resolve(item, values) for item in template)
    if isinstance(template, dict):
        return {name: resolve(item, values) for name, item in template.items()}
    return template


def valid_request(route, fodder, rng):
    given = values(fodder, rng)
    query, headers = resolve(CREDENTIALS[route.auth], given)
    body = resolve(rng.choice(route.body) if isinstance(route.body, list) else route.body, given)
    fid = next((given[name] for name in ("keeper_fid", "spare_fid") if f"{{{name}}}" in route.path), None)
    return Request(route.method, route.path.format(**given), [*route.query, *query], headers, body,
                   content_type="application/json" if body is not None else None, fid=fid)


# --------------------------------------------------------------------------- mutations

ODD_VALUES = [None, True, False, 0, -1, 1.5, [], {}, ["x", 1], {"nested": {"a": [None]}}, ""]
ODD_STRINGS = ["", " ", "\u0000", "a\u0000b", "\u0001\u001f\u007f", "\r\n", "\u202e\u0644\u0627", "\ud800",
               "\udfff\ud800", "\u0301", "\ufeff", "\U0001F600" * 50, "\uff45\uff4d\uff41\uff49\uff4c", "%00%zz%",
               "../../etc/passwd", "<script>", "' OR 1=1 --", "%LINK%", "NaN", "-0", "1e309", "9" * 400]
ODD_NUMBERS = [10**30, -(10**30), 2**63, 2**63 - 1, -(2**63), 2**64, -1, -0.0, 1e308, -1e308, 5e-324]
ODD_NUMBER_TEXTS = ["1e999", "-1e999", "1" * 400, "0." + "0" * 400 + "1"]
NON_ASCII_EMAILS = ["caf\u00e9@example.com", "jos\u00e9@ex\u00e4mple.com", "a@ex\u00e4mple.com",
                    "\u0430dmin@example.com", "\u7528\u6237@\u4f8b\u5b50.\u5e7f\u544a", "\U0001F600@example.com",
                    "a\u0301@example.com"]
EMAIL_FIELDS = ["email", "newEmail", "identifier", "to"]
UNKNOWN_FIELDS = ["zzUnknown", "__proto__", "constructor", "tenantId", "targetProjectId", "kind", "x" * 200]
BROKEN_JSON = [b"{", b"}", b"{'a':1}", b'{"a":}', b'{"a" 1}', b"{,}", b'{"a":1,}', b"nul", b'{"a":01}', b'{"a":1e}',
               b'{"a":.5}', b'{"a":"\\x"}', b'{"a":"\\u12"}', b'{"a":"\x01"}', b'{"a":NaN}', b"\xef\xbb\xbf{}", b"{}{}",
               b"{} x", b"\x00\x00", b"{/*c*/}", b"\xc0\x80", b'{"a":"\xff\xfe"}', b"[]", b'"a"', b"1", b"null"]
PATH_SEGMENTS = ["..", ".", "", "%2e%2e", "%2F", "%00", "%zz", "%", "%ff", "%C3%A9", ";x=1", "*", "~"]
PROJECTS = ["100000000000", "other-project", "%20", "DEMO-PROJECT", "demo-project%00", "x" * 1000, "-1", "%C3%A9"]
HOST_PREFIXES = ["/identitytoolkit.googleapis.com", "/securetoken.googleapis.com",
                 "/firebaseinstallations.googleapis.com", "/www.googleapis.com"]
QUERY_GARBAGE = ["&", "&&&", "=", "%", "%zz", "key", "a=%", "=x", ";", "key=demo-api-key&key", "%ff%fe", "a=%00"]
PARAMETERS = ["key", "email", "idToken", "maxResults", "pageSize", "pageToken", "state", "returnOobLink", "alt"]
HEADER_VALUES = {
    "Authorization": ["", "Bearer", "Bearer owner2", "bearer owner", "BEARER OWNER", "Bearer  owner", "Basic b3duZXI6",
                      "FIS_v2", "FIS_v2 " + "A" * 2000, "Bearer \u00e9", "FIS_v2 a b", "Bearer owner, Bearer x"],
    "x-goog-api-key": ["", "wrong", "demo-api-key, demo-api-key", " demo-api-key ", "\u00e9" * 10, "k" * 2000],
    "X-Firebase-Locale": ["", "x" * 2000, "zz-ZZ", "\u00e9", "*", "it;q=2", "../../etc", "fa"],
    "Accept-Language": ["", "*", ",,,", "en;q=-1", "it;q=NaN", "fa;q=1e999", "x" * 2000],
    "Content-Encoding": ["br", "deflate", "gzip, gzip", "GZIP", "identity", "compress"],
    "X-Fuzz": ["\u00e9\u00ff\u4f8b"],
}
CONTENT_TYPES = [None, "", "text/plain", "application/xml", "multipart/form-data; boundary=x",
                 "application/json; charset=utf-16", "application/octet-stream", "application/x-www-form-urlencoded"]


def has_fields(d):
    return d.raw is None and isinstance(d.json, dict) and bool(d.json)


def has_body(d):
    return d.raw is not None or d.json is not None


def always(d):
    return True


def set_field(d, rng, value):
    d.json[rng.choice(sorted(d.json))] = value


def put_raw_value(d, rng, text):
    set_field(d, rng, "@@raw@@")
    d.raw = d.body().replace(b'"@@raw@@"', text.encode())


def non_ascii_email(d, rng):
    d.json[rng.choice([name for name in EMAIL_FIELDS if name in d.json])] = rng.choice(NON_ASCII_EMAILS)


def deep_nesting(d, rng):
    depth, (opener, closer) = rng.choice([65, 1000, 20_000]), rng.choice([("[", "]"), ('{"a":', "}")])
    put_raw_value(d, rng, opener * depth + "1" + closer * depth)


def duplicate_key(d, rng):
    first = f"{json.dumps(rng.choice(sorted(d.json)))}: {json.dumps(rng.choice(ODD_VALUES))}, ".encode()
    d.raw = b"{" + first + d.body()[1:]


def form_encoded(d, rng):
    fields = {name: value if isinstance(value, str) else json.dumps(value) for name, value in d.json.items()}
    d.raw = urllib.parse.urlencode(fields, errors="surrogatepass").encode()
    d.content_type = "application/x-www-form-urlencoded"


def gzipped(d, rng, broken):
    packed = gzip.compress(d.body(), mtime=0)
    d.headers.append(("Content-Encoding", "gzip"))
    d.raw = rng.choice([b"\x1f\x8b\x08\x00" + rng.randbytes(20), packed[: -rng.randint(1, 8)], packed + b"trailing",
                        d.body()]) if broken else packed


def insert_segment(d, rng):
    # Never after the last segment: a trailing ".." could turn a read into a delete of the keeper's.
    segments = d.path.split("/")
    segments.insert(rng.randrange(1, len(segments)), rng.choice(PATH_SEGMENTS))
    d.path = "/".join(segments)


def odd_fid(d, rng):
    d.path = d.path.replace(d.fid, rng.choice(["x", "a" * 23, d.fid[:21], "a" + d.fid[1:], d.fid.upper(), d.fid + "%3D",
                                                "%2F" * 11, "c" + "%" * 21, "%C3%A9" * 11, "a" * 2000]))


def set_header(d, rng, name):
    d.headers = [(n, v) for n, v in d.headers if n.lower() != name.lower()] + [(name, rng.choice(HEADER_VALUES[name]))]


Mutation = namedtuple("Mutation", "name applies apply weight", defaults=(1,))
# Each gets the request being drafted (`d`) and the seeded random generator (`r`). They are
# applied in this order: JSON values, raw bodies, encodings, paths, queries, headers, methods.
# Bad field values are what routes most often mishandle, so they come up more often.
MUTATIONS = [
    Mutation("drop-field", has_fields, lambda d, r: d.json.pop(r.choice(sorted(d.json))), 3),
    Mutation("wrong-type", has_fields, lambda d, r: set_field(d, r, r.choice(ODD_VALUES)), 3),
    Mutation("odd-string", has_fields, lambda d, r: set_field(d, r, r.choice(ODD_STRINGS)), 3),
    Mutation("long-string", has_fields,  # up to 100 KB of UTF-8
             lambda d, r: set_field(d, r, r.choice(["x", "\u00e9", "\U0001F600"]) * r.choice([1_000, 10_000, 25_000]))),
    Mutation("non-ascii-email", lambda d: has_fields(d) and any(name in d.json for name in EMAIL_FIELDS),
             non_ascii_email, 3),
    Mutation("odd-number", has_fields, lambda d, r: set_field(d, r, r.choice(ODD_NUMBERS)), 3),
    Mutation("odd-number-text", has_fields, lambda d, r: put_raw_value(d, r, r.choice(ODD_NUMBER_TEXTS))),
    Mutation("unknown-field", has_fields, lambda d, r: d.json.update({r.choice(UNKNOWN_FIELDS): r.choice(ODD_VALUES)})),
    Mutation("many-fields", has_fields, lambda d, r: d.json.update({f"k{i}": i for i in range(5_000)})),
    Mutation("escaped-unicode", has_fields, lambda d, r: setattr(d, "ascii_only", True)),
    Mutation("deep-nesting", has_fields, deep_nesting),
    Mutation("duplicate-key", has_fields, duplicate_key),
    Mutation("form-encoded", has_fields, form_encoded),
    Mutation("invalid-json", has_body, lambda d, r: setattr(d, "raw", r.choice(BROKEN_JSON))),
    Mutation("truncated-json", has_body, lambda d, r: setattr(d, "raw", d.body()[: r.randrange(1, 60)])),
    Mutation("empty-body", has_body, lambda d, r: setattr(d, "raw", b"")),
    Mutation("gzip", has_body, lambda d, r: gzipped(d, r, broken=False)),
    Mutation("gzip-garbage", has_body, lambda d, r: gzipped(d, r, broken=True)),
    Mutation("odd-content-encoding", has_body, lambda d, r: set_header(d, r, "Content-Encoding")),
    Mutation("wrong-content-type", has_body, lambda d, r: setattr(d, "content_type", r.choice(CONTENT_TYPES))),
    Mutation("trailing-slash", always, lambda d, r: setattr(d, "path", d.path + r.choice(["/", "//"]))),
    Mutation("host-prefix", always, lambda d, r: setattr(d, "path", r.choice(HOST_PREFIXES) + d.path)),
    Mutation("odd-segment", lambda d: d.path.count("/") > 1, insert_segment),
    Mutation("odd-project", lambda d: PROJECT in d.path,
             lambda d, r: setattr(d, "path", d.path.replace(PROJECT, r.choice(PROJECTS)))),
    Mutation("odd-fid", lambda d: d.fid is not None and d.fid in d.path, odd_fid),
    Mutation("upper-case-path", always, lambda d, r: setattr(d, "path", d.path.upper())),
    Mutation("encoded-colon", lambda d: ":" in d.path, lambda d, r: setattr(d, "path", d.path.replace(":", "%3A"))),
    Mutation("drop-parameter", lambda d: bool(d.query), lambda d, r: d.query.pop(r.randrange(len(d.query)))),
    Mutation("odd-parameter", always, lambda d, r: d.query.insert(r.choice([0, len(d.query)]), (
        r.choice(PARAMETERS), str(r.choice(ODD_STRINGS + ODD_NUMBERS + ["wrong", "k" * 2000]))))),
    Mutation("query-garbage", always, lambda d, r: setattr(d, "query_suffix", r.choice(QUERY_GARBAGE))),
    Mutation("drop-credentials", lambda d: bool(d.headers), lambda d, r: setattr(d, "headers", [
        (n, v) for n, v in d.headers if n.lower() not in ("authorization", "x-goog-api-key")])),
    Mutation("odd-authorization", always, lambda d, r: set_header(d, r, "Authorization")),
    Mutation("second-authorization", always, lambda d, r: d.headers.extend(
        [("Authorization", ADMIN_AUTHORIZATION), ("Authorization", "Bearer wrong")][:: r.choice([1, -1])])),
    Mutation("odd-api-key-header", always, lambda d, r: set_header(d, r, "x-goog-api-key")),
    Mutation("odd-language", always, lambda d, r: set_header(d, r, r.choice(["X-Firebase-Locale", "Accept-Language"]))),
    Mutation("non-ascii-header", always, lambda d, r: set_header(d, r, "X-Fuzz")),
    Mutation("other-method", always, lambda d, r: setattr(d, "method", r.choice(
        [m for m in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS") if m != d.method]))),
]


def fuzzed_request(route, fodder, rng):
    """A valid request for `route` with zero to three mutations (one, most often)."""
    request = valid_request(route, fodder, rng)
    candidates = [mutation for mutation in MUTATIONS if mutation.applies(request)]
    chosen = rng.choices(candidates, [mutation.weight for mutation in candidates], k=rng.choice([0, 1, 1, 1, 2, 3]))
    for mutation in sorted(chosen, key=MUTATIONS.index):
        if mutation.applies(request):  # an earlier mutation may have turned the body into raw bytes
            mutation.apply(request, rng)
            request.mutations.append(mutation.name)
    return request


# --------------------------------------------------------------------------- the run


def fuzz(server, fodder, rng, count):
    """Sends `count` requests round-robin over every route; answers the requests per route family
    and, per distinct problem, the smallest request that showed it."""
    families, problems = Counter(), {}
    for number in range(count):
        route = ROUTES[number % len(ROUTES)]
        request = fuzzed_request(route, fodder, rng)
        families[family(route)] += 1
        try:
            status, body = exchange(server, request)
            problem, answer = problem_in(status, body), shorten(body.decode("utf-8", "backslashreplace"), 120)
        except NoAnswer as error:
            problem, answer = str(error), "no answer"
        key, size = (f"{route.method} {route.path}", problem), len(request.encode())
        if problem and (key not in problems or size < problems[key][0]):
            problems[key] = (size, number, request, answer)
        if problem and "server is gone" in problem:
            break
    return families, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="a Hearth with the development seed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.base_url)
    server = (url.hostname, url.port or 80)
    try:
        fodder = make_fodder(server)
    except NoAnswer as error:
        sys.exit(f"fuzz_routes: setting up the fodder failed: {error}")
    started = time.monotonic()
    families, problems = fuzz(server, fodder, random.Random(args.seed), args.requests)
    lines = [f"PROBLEM {route}: {problem} (request {number}, mutations {','.join(request.mutations) or 'none'}): "
             f"{request.describe()} -> {answer}"
             for (route, problem), (_, number, request, answer) in sorted(problems.items())]
    lines += fodder_problems(server, fodder)
    spread = ", ".join(f"{name} {count}" for name, count in families.items())
    seconds = time.monotonic() - started
    print("\n".join(lines + [f"fuzz_routes: seed {args.seed}, {sum(families.values())} requests in {seconds:.1f} s "
                             f"({spread}): {len(lines)} problem(s)"]))
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
