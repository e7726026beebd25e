#!/usr/bin/env python3
"""Drives headless Chromium (Debian's `chromium` through Selenium and the system
`chromedriver`, nothing fetched) through every email action of a running Hearth, each from
the link in the emailed message to the app's continue URL, and checks what the server did.

    browser_flows.py --base http://127.0.0.1:PORT --sink DIR --screenshots DIR
                     [--project demo-project] [--api-key demo-api-key]
                     [--link-domain custom-domain.com] [--only FLOW,...]

Mail is read from the SMTP sink's DIR/messages.jsonl (Tests/tooling/smtp_sink.py). The pages
are read through the DOM contract of the hosted pages (hosted_pages_contract.md: `data-page`, `data-outcome`,
`data-mode` on `<main>`, element ids), never through their wording.

Stand-ins for what lies outside Hearth, all local:
* the app: an HTTP server on 127.0.0.1 (an authorized domain of the seed) whose pages record
  each visit; its page does what Firebase's JS SDK does on a sign-in link, in its own inline
  script: `isSignInWithEmailLink(location.href)` (mode=signIn, oobCode and apiKey in the
  URL) and `signInWithEmailLink(auth, email, location.href)` (Identity Toolkit
  `accounts:signInWithEmailLink` with the email the app kept in localStorage when it sent the
  link), then reports the answer back to its server;
* the link domain: Chromium resolves it to a local TLS forwarder (a certificate made here
  for that name) in front of Hearth, so the browser sends `Host: <link domain>` as it would
  to the real domain.

Prints "ok: <flow>" per flow that passed and "FAIL: <flow>: <why>" per one that did not,
then "ALL OK" when every flow passed (exit 0), else exits 1.
"""

import argparse
import datetime
import html.parser
import http.server
import json
import os
import re
import socket
import ssl
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from identity_toolkit_rest import rest

CHROMIUM = os.environ.get("HEARTH_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("HEARTH_CHROMEDRIVER", "/usr/bin/chromedriver")
PASSWORD = "Original-Passw0rd!"
NEW_PASSWORD = "Brand-New-Passw0rd!"
SECURITY_HEADERS = ("Content-Security-Policy", "Referrer-Policy", "Cache-Control", "X-Content-Type-Options")


class Failure(AssertionError):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


# The app: a local page on an authorized host that records what it receives.

APP_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Example app</title>
<style>body{{font:16px system-ui,sans-serif;margin:2rem;color:#222}} code{{word-break:break-all}}</style>
</head><body data-identity-toolkit="{toolkit}">
<h1>Example app</h1>
<p>The app's page at <code>{path}</code> received:</p>
<ul>{parameters}</ul>
<p id="script-state" data-state="no-script">Scripts are off.</p>
<p id="result" data-state="none"></p>
<script>
(function () {{
  var state = document.getElementById("script-state");
  state.dataset.state = "ran";
  state.textContent = "Scripts are on.";
  function report(path, body) {{
    return fetch(path, {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: JSON.stringify(body)}});
  }}
  report("/__beacon", {{href: location.href}});
  var url = new URL(location.href);
  var start = url.pathname === "/start";
  if (start) {{
    // What an app does before sendSignInLinkToEmail: it keeps the address for the return.
    localStorage.setItem("emailForSignIn", url.searchParams.get("email"));
    document.getElementById("result").dataset.state = "stored";
    return;
  }}
  // isSignInWithEmailLink(location.href)
  var p = url.searchParams;
  if (p.get("mode") !== "signIn" || !p.get("oobCode") || !p.get("apiKey")) return;
  var result = document.getElementById("result");
  var email = localStorage.getItem("emailForSignIn");
  // signInWithEmailLink(auth, email, location.href)
  var endpoint = document.body.dataset.identityToolkit + "/v1/accounts:signInWithEmailLink?key=" + encodeURIComponent(p.get("apiKey"));
  fetch(endpoint, {{
    method: "POST",
    headers: {{"Content-Type": "application/json"}},
    body: JSON.stringify({{email: email, oobCode: p.get("oobCode")}})
  }}).then(function (response) {{
    return response.json().then(function (body) {{
      result.textContent = response.ok ? "Signed in as " + body.email : "Sign-in refused: " + JSON.stringify(body);
      result.dataset.state = response.ok ? "signed-in" : "refused";
      return report("/__result", {{status: response.status, body: body, email: email}});
    }});
  }}).catch(function (error) {{
    result.dataset.state = "error";
    result.textContent = String(error);
    report("/__result", {{error: String(error)}});
  }});
}})();
</script>
</body></html>
"""


class AppServer:
    """The app's web origin: serves APP_PAGE at every path and records visits and reports."""

    def __init__(self, identity_toolkit):
        self.visits = []
        self.beacons = []
        self.results = []
        self.lock = threading.Condition()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                split = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qsl(split.query, keep_blank_values=True)
                with outer.lock:
                    outer.visits.append({"path": split.path, "query": dict(query), "headers": dict(self.headers)})
                    outer.lock.notify_all()
                items = "".join(
                    f"<li><code>{html_escape(name)}</code> = <code>{html_escape(value)}</code></li>" for name, value in query
                ) or "<li>no parameters</li>"
                body = APP_PAGE.format(
                    toolkit=html_escape(identity_toolkit), path=html_escape(split.path), parameters=items
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with outer.lock:
                    (outer.results if self.path == "/__result" else outer.beacons).append(body)
                    outer.lock.notify_all()
                self.send_response(204)
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def wait(self, what, predicate, timeout=15):
        """Waits until one of the recorded `what` (visits, beacons, results) satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                found = next((item for item in getattr(self, what) if predicate(item)), None)
                if found is not None or time.monotonic() > deadline:
                    return found
                self.lock.wait(0.1)


def html_escape(text):
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    )


# The link domain: TLS for its name in front of Hearth.


class LinkDomainForwarder:
    """Accepts TLS for `domain` with a certificate made here, and forwards the bytes to Hearth."""

    def __init__(self, domain, target_port):
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, domain)])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(domain)]), critical=False)
            .sign(key, hashes.SHA256())
        )
        self.directory = tempfile.mkdtemp(prefix="hearth-link-domain-")
        cert_path = os.path.join(self.directory, "cert.pem")
        key_path = os.path.join(self.directory, "key.pem")
        with open(cert_path, "wb") as handle:
            handle.write(certificate.public_bytes(serialization.Encoding.PEM))
        with open(key_path, "wb") as handle:
            handle.write(
                key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert_path, key_path)
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(32)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        try:
            secure = self.context.wrap_socket(client, server_side=True)
        except (ssl.SSLError, OSError):
            client.close()
            return
        upstream = socket.create_connection(("127.0.0.1", self.target_port))

        def pump(source, sink):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    sink.sendall(data)
            except OSError:
                pass
            finally:
                for end in (source, sink):
                    try:
                        end.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

        threading.Thread(target=pump, args=(upstream, secure), daemon=True).start()
        pump(secure, upstream)


# Mail.


class LinkFinder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attributes):
        if tag == "a":
            href = dict(attributes).get("href")
            if href and "/__/auth/" in href:
                self.links.append(href)


class Mailbox:
    def __init__(self, directory):
        self.path = os.path.join(directory, "messages.jsonl")

    def messages(self):
        try:
            with open(self.path, encoding="utf-8") as handle:
                return [json.loads(line) for line in handle if line.strip()]
        except FileNotFoundError:
            return []

    def count(self):
        return len(self.messages())

    def link(self, recipient, after, timeout=30):
        """The action link of the first message to `recipient` among those after the first
        `after`: the href a person clicks in its HTML body."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in self.messages()[after:]:
                if recipient in message.get("envelopeTo", []):
                    finder = LinkFinder()
                    finder.feed(message.get("html") or "")
                    expect(finder.links, f"no action link in the message to {recipient}: {message.get('html')!r}")
                    text = message.get("text") or ""
                    expect(finder.links[0] in text, "the HTML link is not the text body's link")
                    return finder.links[0]
            time.sleep(0.05)
        raise Failure(f"no message to {recipient} arrived")


# The browser.


def chromium(javascript, resolver_rules, window="1024,900"):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={window}",
        "--lang=en-US",
        f"--host-resolver-rules={resolver_rules}",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ):
        options.add_argument(argument)
    # The link domain's certificate is made by the forwarder for this run.
    options.accept_insecure_certs = True
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    # The system driver, named explicitly: Selenium Manager never looks for (or fetches) one.
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


class Run:
    def __init__(self, arguments):
        self.base = arguments.base.rstrip("/")
        self.host = urllib.parse.urlsplit(self.base).netloc
        self.project = arguments.project
        self.api_key = arguments.api_key
        self.link_domain = arguments.link_domain
        self.mailbox = Mailbox(arguments.sink)
        self.screenshots = arguments.screenshots
        os.makedirs(self.screenshots, exist_ok=True)
        self.shot = 0
        self.app = AppServer(f"{self.base}/identitytoolkit.googleapis.com")
        self.forwarder = LinkDomainForwarder(self.link_domain, int(self.base.rsplit(":", 1)[1]))
        self.resolver_rules = f"MAP {self.link_domain} 127.0.0.1:{self.forwarder.port}"
        self.browser = chromium(True, self.resolver_rules)
        self.browser.set_page_load_timeout(30)
        self.flow = "setup"

    def close(self):
        self.browser.quit()

    # Screenshots and page checks.

    def screenshot(self, step, browser=None):
        self.shot += 1
        name = f"{self.shot:02d}-{self.flow}-{step}.png"
        (browser or self.browser).save_screenshot(os.path.join(self.screenshots, name))
        return name

    def page(self, kind, outcome, mode=None, lang="en", direction="ltr", browser=None, step=None):
        """Checks the hosted page now shown against the DOM contract and screenshots it."""
        browser = browser or self.browser
        try:
            WebDriverWait(browser, 15).until(
                lambda b: b.find_elements(By.CSS_SELECTOR, f'main[data-page="{kind}"][data-outcome="{outcome}"]')
            )
        except TimeoutException:
            mains = browser.find_elements(By.TAG_NAME, "main")
            seen = [(m.get_dom_attribute("data-page"), m.get_dom_attribute("data-outcome")) for m in mains]
            self.screenshot(f"{step or outcome}-unexpected", browser)
            raise Failure(
                f"expected a {kind} page with outcome {outcome} at {browser.current_url}, saw <main> {seen}: "
                f"{browser.page_source[:1200]}"
            )
        mains = browser.find_elements(By.TAG_NAME, "main")
        expect(len(mains) == 1, f"{len(mains)} <main> elements")
        root = browser.find_element(By.TAG_NAME, "html")
        expect(root.get_dom_attribute("lang") == lang, f"lang={root.get_dom_attribute('lang')!r}, expected {lang}")
        expect(root.get_dom_attribute("dir") == direction, f"dir={root.get_dom_attribute('dir')!r}, expected {direction}")
        if mode is not None:
            expect(mains[0].get_dom_attribute("data-mode") == mode, f"data-mode={mains[0].get_dom_attribute('data-mode')!r}")
        expect(len(browser.find_elements(By.TAG_NAME, "h1")) == 1, "no single <h1>")
        expect(browser.find_elements(By.ID, "message"), "no #message")
        self.screenshot(step or outcome, browser)
        return mains[0]

    def narrow(self, step, browser=None, javascript=True):
        """Screenshots the page as a phone shows it (390 CSS pixels wide), checks that nothing
        sticks out sideways (when scripts can run in this browser), and restores the window."""
        browser = browser or self.browser
        size = browser.get_window_size()
        browser.set_window_size(390, 844)
        try:
            if javascript:
                overflow = browser.execute_script(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                expect(overflow <= 0, f"the page is {overflow}px wider than a 390px window")
            return self.screenshot(step, browser)
        finally:
            browser.set_window_size(size["width"], size["height"])

    def headers(self, url, status):
        """Fetches a hosted page outside the browser (a GET uses no code) and checks its
        status and the security headers; a link-domain URL goes to Hearth with that Host."""
        split = urllib.parse.urlsplit(url)
        headers = {"Accept": "text/html"}
        target = url
        if split.hostname == self.link_domain:
            target = f"{self.base}{split.path}?{split.query}"
            headers["Host"] = self.link_domain
        request = urllib.request.Request(target, headers=headers, method="GET")

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        try:
            response = opener.open(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        expect(response.status == status, f"GET {url}: status {response.status}, expected {status}")
        if status not in (301, 302, 303, 307, 308):
            content_type = response.headers.get("Content-Type", "")
            expect(content_type.lower().replace(" ", "") == "text/html;charset=utf-8", f"Content-Type {content_type!r}")
            for name in SECURITY_HEADERS:
                expect(response.headers.get(name), f"GET {url}: no {name}")
            policy = response.headers["Content-Security-Policy"]
            expect("frame-ancestors 'none'" in policy, f"CSP without frame-ancestors 'none': {policy}")
            expect(response.headers["Referrer-Policy"] == "no-referrer", "Referrer-Policy")
            expect("no-store" in response.headers["Cache-Control"], "Cache-Control")
            expect(response.headers["X-Content-Type-Options"] == "nosniff", "X-Content-Type-Options")
        return response

    def click(self, element_id, browser=None):
        browser = browser or self.browser
        old = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.ID, element_id).click()
        WebDriverWait(browser, 15).until(lambda b: _stale(old))

    def app_page(self, path, browser=None, javascript=True):
        """The browser is on the app's page at `path`: its visit was recorded."""
        browser = browser or self.browser
        WebDriverWait(browser, 15).until(lambda b: urllib.parse.urlsplit(b.current_url).path == path)
        expect(browser.current_url.startswith(self.app.url(path)), f"landed on {browser.current_url}")
        visit = self.app.wait("visits", lambda v: v["path"] == path)
        expect(visit is not None, f"the app never received {path}")
        if javascript:
            WebDriverWait(browser, 15).until(
                lambda b: b.find_element(By.ID, "script-state").get_dom_attribute("data-state") == "ran"
            )
        self.screenshot("app")
        return visit

    # Accounts through the REST API, as the app makes them.

    def call(self, method, body, headers=None):
        request = urllib.request.Request(
            f"{self.base}/identitytoolkit.googleapis.com/v1/{method}?key={self.api_key}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def sign_up(self, email):
        status, body = self.call("accounts:signUp", {"email": email, "password": PASSWORD, "returnSecureToken": True})
        expect(status == 200, f"signUp {email}: {body}")
        return body

    def send(self, body, lang=None):
        headers = {"X-Firebase-Locale": lang} if lang else {}
        status, answer = self.call("accounts:sendOobCode", body, headers)
        expect(status == 200, f"sendOobCode {body}: {answer}")

    def lookup(self, id_token):
        status, body = self.call("accounts:lookup", {"idToken": id_token})
        expect(status == 200, f"lookup: {body}")
        return body["users"][0]

    def password_works(self, email, password):
        status, body = self.call(
            "accounts:signInWithPassword", {"email": email, "password": password, "returnSecureToken": True}
        )
        return status == 200 and bool(body.get("idToken"))

    # The flows.

    def reset_password(self, tag, lang="en", direction="ltr", browser=None, javascript=True):
        browser = browser or self.browser
        email = f"reset-{tag}@example.com"
        self.sign_up(email)
        before = self.mailbox.count()
        continue_url = self.app.url(f"/after-reset-{tag}")
        self.send({"requestType": "PASSWORD_RESET", "email": email, "continueUrl": continue_url}, lang)
        link = self.mailbox.link(email, before)
        expect(f"lang={lang}" in link, f"the emailed link has no lang={lang}: {link}")
        self.headers(link, 200)
        browser.get(link)
        self.page("action", "ready", "resetPassword", lang, direction, browser)
        self.narrow("ready-narrow", browser, javascript)
        expect(browser.find_element(By.ID, "email").text.strip() == email, "the page does not show the account's email")
        expect(browser.find_elements(By.CSS_SELECTOR, "ul#password-policy li"), "no password policy shown")
        for field in ("new-password", "confirm-password"):
            element = browser.find_element(By.ID, field)
            expect(element.get_dom_attribute("type") == "password", f"#{field} is not a password field")
            expect(element.get_dom_attribute("autocomplete") == "new-password", f"#{field} autocomplete")
            expect(browser.find_elements(By.CSS_SELECTOR, f'label[for="{field}"]'), f"no label for #{field}")
        form = browser.find_element(By.ID, "action-form")
        expect(form.get_dom_attribute("method").lower() == "post", "the form does not POST")
        hidden = {
            e.get_dom_attribute("name") for e in form.find_elements(By.CSS_SELECTOR, 'input[type="hidden"]')
        }
        expect({"mode", "oobCode", "apiKey", "continueUrl", "lang", "csrf"} <= hidden, f"hidden fields {hidden}")

        # Two different passwords: the form again, the code still good.
        browser.find_element(By.ID, "new-password").send_keys(NEW_PASSWORD)
        browser.find_element(By.ID, "confirm-password").send_keys(NEW_PASSWORD + "x")
        self.click("confirm", browser)
        self.page("action", "passwords-differ", "resetPassword", lang, direction, browser)
        self.narrow("passwords-differ-narrow", browser, javascript)
        expect(self.password_works(email, PASSWORD), "the old password stopped working after a refused form")

        browser.find_element(By.ID, "new-password").send_keys(NEW_PASSWORD)
        browser.find_element(By.ID, "confirm-password").send_keys(NEW_PASSWORD)
        self.click("confirm", browser)
        self.page("action", "done", "resetPassword", lang, direction, browser)
        expect(self.password_works(email, NEW_PASSWORD), "the new password does not work")
        expect(not self.password_works(email, PASSWORD), "the old password still works")
        continue_link = browser.find_element(By.ID, "continue")
        expect(continue_link.get_dom_attribute("href") == continue_url, f"Continue goes to {continue_link.get_dom_attribute('href')}")
        self.click("continue", browser)
        path = f"/after-reset-{tag}"
        WebDriverWait(browser, 15).until(lambda b: urllib.parse.urlsplit(b.current_url).path == path)
        visit = self.app.wait("visits", lambda v: v["path"] == path)
        expect(visit is not None, "the app never received the continue URL")
        expect("Referer" not in visit["headers"], f"the app received a Referer: {visit['headers'].get('Referer')}")
        beacon = self.app.wait("beacons", lambda b: urllib.parse.urlsplit(b["href"]).path == path, timeout=3 if not javascript else 15)
        expect((beacon is not None) == javascript, "scripts ran" if not javascript else "the app's script did not run")
        self.screenshot("app", browser)

        # The link again: used.
        self.headers(link, 400)
        browser.get(link)
        self.page("action", "used", None, lang, direction, browser)

    def flow_reset_en(self):
        self.reset_password("en")
        # A link whose code was mangled: its own page.
        link = f"{self.base}/__/auth/action?mode=resetPassword&oobCode=not-a-code&apiKey={self.api_key}&lang=en"
        self.headers(link, 400)
        self.browser.get(link)
        self.page("action", "invalid", step="invalid-code")
        self.browser.get(f"{self.base}/__/auth/action?lang=en")
        self.page("action", "missing", step="no-code")

    def flow_reset_nojs(self):
        browser = chromium(False, self.resolver_rules)
        try:
            self.reset_password("nojs", browser=browser, javascript=False)
        finally:
            browser.quit()

    def flow_reset_fa(self):
        self.reset_password("fa", lang="fa", direction="rtl")

    def verify_email(self, tag, lang="en", direction="ltr"):
        email = f"verify-{tag}@example.com"
        account = self.sign_up(email)
        expect(not self.lookup(account["idToken"]).get("emailVerified"), "a new account is verified already")
        before = self.mailbox.count()
        path = f"/after-verify-{tag}"
        self.send({"requestType": "VERIFY_EMAIL", "idToken": account["idToken"], "continueUrl": self.app.url(path)}, lang)
        link = self.mailbox.link(email, before)
        self.headers(link, 200)
        self.browser.get(link)
        self.page("action", "ready", "verifyEmail", lang, direction)
        expect(not self.lookup(account["idToken"]).get("emailVerified"), "opening the link verified the email")
        self.click("confirm")
        self.page("action", "done", "verifyEmail", lang, direction)
        self.narrow("done-narrow")
        expect(self.lookup(account["idToken"]).get("emailVerified") is True, "the email is not verified")
        self.click("continue")
        self.app_page(path)

    def flow_verify_en(self):
        self.verify_email("en")

    def flow_verify_fa(self):
        self.verify_email("fa", lang="fa", direction="rtl")

    def flow_sign_in(self):
        email = "sign-in@example.com"
        # The app keeps the address, as it does before sendSignInLinkToEmail.
        self.browser.get(self.app.url(f"/start?email={urllib.parse.quote(email)}"))
        WebDriverWait(self.browser, 15).until(
            lambda b: b.find_element(By.ID, "result").get_dom_attribute("data-state") == "stored"
        )
        before = self.mailbox.count()
        path = "/finish-sign-in"
        self.send(
            {"requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": self.app.url(path), "canHandleCodeInApp": True}
        )
        link = self.mailbox.link(email, before)
        expect(link.startswith(f"https://{self.link_domain}/__/auth/links?link="), f"not a link-domain link: {link}")
        self.headers(link, 302)
        self.browser.get(link)
        # No app took the link: the link domain's page forwards to the action page.
        self.page("action", "ready", "signIn")
        self.click("confirm")
        visit = self.app_page(path)
        query = visit["query"]
        expect(query.get("mode") == "signIn" and query.get("oobCode") and query.get("apiKey") == self.api_key, f"{query}")
        expect(query.get("lang") == "en", f"lang {query.get('lang')!r}")
        result = self.app.wait("results", lambda r: True)
        expect(result is not None, "the app page never reported its sign-in")
        expect(result.get("status") == 200, f"signInWithEmailLink: {result}")
        session = result["body"]
        expect(session.get("idToken") and session.get("refreshToken"), f"no session: {session}")
        user = self.lookup(session["idToken"])
        expect(user["email"] == email and user.get("emailVerified") is True, f"{user}")
        WebDriverWait(self.browser, 15).until(
            lambda b: b.find_element(By.ID, "result").get_dom_attribute("data-state") == "signed-in"
        )
        self.screenshot("app-signed-in")

    def flow_change_and_recover(self):
        old, new = "change-old@example.com", "change-new@example.com"
        account = self.sign_up(old)
        before = self.mailbox.count()
        path = "/after-change"
        self.send(
            {
                "requestType": "VERIFY_AND_CHANGE_EMAIL",
                "idToken": account["idToken"],
                "newEmail": new,
                "continueUrl": self.app.url(path),
            }
        )
        link = self.mailbox.link(new, before)
        self.headers(link, 200)
        self.browser.get(link)
        self.page("action", "ready", "verifyAndChangeEmail")
        expect(self.password_works(old, PASSWORD), "opening the link changed the email")
        after_change = self.mailbox.count()
        self.click("confirm")
        self.page("action", "done", "verifyAndChangeEmail")
        expect(self.password_works(new, PASSWORD) and not self.password_works(old, PASSWORD), "the email did not change")
        self.click("continue")
        self.app_page(path)

        self.flow = "recoverEmail"
        link = self.mailbox.link(old, after_change)
        expect("mode=recoverEmail" in link, f"the old address got {link}")
        self.headers(link, 200)
        self.browser.get(link)
        self.page("action", "ready", "recoverEmail")
        self.click("confirm")
        self.page("action", "done", "recoverEmail")
        expect(self.password_works(old, PASSWORD) and not self.password_works(new, PASSWORD), "the email is not back")

    def flow_back_to_app(self):
        email = "back-to-app@example.com"
        account = self.sign_up(email)
        before = self.mailbox.count()
        path = "/after-verify-in-app"
        target = self.app.url(path)
        self.send(
            {
                "requestType": "VERIFY_EMAIL",
                "idToken": account["idToken"],
                "continueUrl": target,
                "iOSBundleId": "com.example.ios",
                "iOSAppStoreId": "1234567890",
                "androidPackageName": "com.example.android",
                "androidInstallApp": True,
            }
        )
        link = self.mailbox.link(email, before)
        expect(link.startswith(f"{self.base}/__/auth/action?"), f"the app does not handle the code: {link}")
        wrapped = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["continueUrl"][0]
        expect(wrapped.startswith(f"https://{self.link_domain}/__/auth/links?"), f"continueUrl {wrapped}")
        payload = urllib.parse.parse_qs(urllib.parse.urlsplit(wrapped).query)["link"][0]
        expect(payload == target, f"the wrapped payload is {payload}")
        self.browser.get(link)
        self.page("action", "ready", "verifyEmail")
        self.click("confirm")
        self.page("action", "done", "verifyEmail")
        expect(self.lookup(account["idToken"]).get("emailVerified") is True, "the email is not verified")
        expect(self.browser.find_element(By.ID, "continue").get_dom_attribute("href") == wrapped, "Continue is not the wrapped URL")
        self.headers(wrapped, 200)
        self.click("continue")
        # No app took the link on this device: the link domain's page offers the app and the page.
        self.page("links", "offer", step="links-offer")
        expect(self.browser.find_element(By.ID, "open-link").get_dom_attribute("href") == target, "#open-link")
        store = self.browser.find_element(By.ID, "app-store").get_dom_attribute("href")
        expect(store == "https://apps.apple.com/app/id1234567890", f"#app-store {store}")
        play = self.browser.find_element(By.ID, "play-store").get_dom_attribute("href")
        expect(play.startswith("https://play.google.com/store/apps/details?id=com.example.android"), f"#play-store {play}")
        self.click("open-link")
        self.app_page(path)

    def flow_refused_payload(self):
        foreign = "https://evil.example.net/phish?x=1"
        candidates = [
            f"https://{self.link_domain}/__/auth/links?link={urllib.parse.quote(foreign, safe='')}",
            f"https://{self.link_domain}/__/auth/links?link="
            + urllib.parse.quote(f"https://evil.example.net/__/auth/action?mode=signIn&oobCode=x&apiKey={self.api_key}", safe=""),
            f"{self.base}/__/auth/links?link={urllib.parse.quote(foreign, safe='')}",
        ]
        for index, url in enumerate(candidates):
            self.headers(url, 400)
            self.browser.get(url)
            self.page("links", "refused", step=f"refused-{index + 1}")
            expect(urllib.parse.urlsplit(self.browser.current_url).hostname != "evil.example.net", "followed the foreign URL")
            expect("evil.example.net" not in self.browser.page_source, "the refusal names the foreign URL")


FLOWS = [
    ("resetPassword-en", Run.flow_reset_en),
    ("resetPassword-nojs", Run.flow_reset_nojs),
    ("resetPassword-fa", Run.flow_reset_fa),
    ("verifyEmail-en", Run.flow_verify_en),
    ("verifyEmail-fa", Run.flow_verify_fa),
    ("signIn-en", Run.flow_sign_in),
    ("verifyAndChangeEmail-en", Run.flow_change_and_recover),
    ("backToApp", Run.flow_back_to_app),
    ("refusedPayload", Run.flow_refused_payload),
]


def _stale(element):
    try:
        element.tag_name
        return False
    except Exception:
        return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--sink", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--project", default="demo-project")
    parser.add_argument("--api-key", default="demo-api-key")
    parser.add_argument("--link-domain", default="custom-domain.com")
    parser.add_argument("--only", default="")
    arguments = parser.parse_args()
    only = {name for name in arguments.only.split(",") if name}
    started = time.monotonic()
    run = Run(arguments)
    print(f"browser: {run.browser.capabilities.get('browserVersion')} in {time.monotonic() - started:.1f}s", flush=True)
    failed = []
    try:
        for name, flow in FLOWS:
            if only and name not in only:
                continue
            run.flow = name
            began = time.monotonic()
            try:
                flow(run)
                print(f"ok: {name} ({time.monotonic() - began:.1f}s)", flush=True)
            except Exception as error:
                failed.append(name)
                detail = "".join(traceback.format_exception_only(type(error), error)).strip()
                print(f"FAIL: {name}: {detail}", flush=True)
                if not isinstance(error, Failure):
                    traceback.print_exc(file=sys.stdout)
                try:
                    print(f"  at {run.browser.current_url}", flush=True)
                    run.screenshot("failure")
                except Exception:
                    pass
    finally:
        run.close()
    print(f"screenshots: {run.shot} in {arguments.screenshots}", flush=True)
    print(f"total: {time.monotonic() - started:.1f}s", flush=True)
    if failed:
        sys.exit(1)
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
