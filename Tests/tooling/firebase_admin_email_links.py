"""Drives the stock firebase-admin package's email-link generation against a running Hearth
in emulator-host mode, and uses every generated link over the REST API.

Usage: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT python firebase_admin_email_links.py PROJECT API_KEY

Prints one "ok: ..." line per step and "ALL OK" at the end; any failure raises.
"""

import json
import os
import sys
import urllib.parse
import urllib.request

import firebase_admin
from firebase_admin import auth, exceptions
from identity_toolkit_rest import rest, step


def parameters(link):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))


def action_parameters(link):
    """The action link's parameters, unwrapping a /__/auth/links?link= hosting link."""
    outer = parameters(link)
    return parameters(outer["link"]) if "link" in outer else outer


def main():
    project, api_key = sys.argv[1], sys.argv[2]
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    firebase_admin.initialize_app(options={"projectId": project})

    user = auth.create_user(email="links@example.com", password="first-password")
    settings = auth.ActionCodeSettings(url="https://www.example.com/after")

    link = auth.generate_email_verification_link("links@example.com", settings)
    found = action_parameters(link)
    assert found["mode"] == "verifyEmail" and found["apiKey"] and found["continueUrl"] == "https://www.example.com/after", link
    status, body = rest(host, "accounts:update", {"oobCode": found["oobCode"]}, api_key)
    assert status == 200 and body["emailVerified"] is True, body
    assert auth.get_user(user.uid).email_verified
    step("generate_email_verification_link, applied")

    link = auth.generate_password_reset_link("links@example.com", settings)
    found = action_parameters(link)
    assert found["mode"] == "resetPassword", link
    status, body = rest(host, "accounts:resetPassword", {"oobCode": found["oobCode"], "newPassword": "second-password"}, api_key)
    assert status == 200 and body["email"] == "links@example.com", body
    status, body = rest(
        host,
        "accounts:signInWithPassword",
        {"email": "links@example.com", "password": "second-password", "returnSecureToken": True},
        api_key,
    )
    assert status == 200, body
    step("generate_password_reset_link, password reset")

    in_app = auth.ActionCodeSettings(
        url="https://www.example.com/finish",
        handle_code_in_app=True,
        ios_bundle_id="com.example.ios",
        android_package_name="com.example.android",
        android_install_app=True,
        link_domain="custom-domain.com",
    )
    link = auth.generate_sign_in_with_email_link("new.link@example.com", in_app)
    assert link.startswith("https://custom-domain.com/__/auth/links?link="), link
    found = action_parameters(link)
    assert found["mode"] == "signIn" and found["continueUrl"] == "https://www.example.com/finish", link
    with urllib.request.urlopen(f"http://{host}/emulator/v1/projects/{project}/oobCodes", timeout=30) as response:
        listed = json.load(response)["oobCodes"]
    entry = next((item for item in listed if item.get("oobCode") == found["oobCode"]), None)
    assert entry and entry["oobLink"] == link and entry["email"] == "new.link@example.com", listed
    assert entry["requestType"] == "EMAIL_SIGNIN", entry
    step("the generated link is in the development listing")
    status, body = rest(host, "accounts:signInWithEmailLink", {"email": "new.link@example.com", "oobCode": found["oobCode"]}, api_key)
    assert status == 200 and body["isNewUser"] is True and body["idToken"], body
    status, updated = rest(
        host,
        "accounts:update",
        {"idToken": body["idToken"], "displayName": None, "photoUrl": None, "deleteAttribute": None},
        api_key,
    )
    assert status == 200, updated
    step("a profile update with null fields accepted")
    assert auth.get_user_by_email("new.link@example.com").email_verified
    step("generate_sign_in_with_email_link (hosting link), signed in")

    try:
        auth.generate_sign_in_with_email_link("new.link@example.com", auth.ActionCodeSettings(url="https://evil.example.net/"))
        raise AssertionError("an unauthorized continue URL was accepted")
    except exceptions.InvalidArgumentError as error:
        assert "UNAUTHORIZED_DOMAIN" in str(error), str(error)
    step("unauthorized continue URL refused: UNAUTHORIZED_DOMAIN")

    try:
        auth.generate_sign_in_with_email_link(
            "new.link@example.com",
            auth.ActionCodeSettings(url="https://www.example.com/", handle_code_in_app=True, link_domain="evil.example.net"),
        )
        raise AssertionError("a foreign link domain was accepted")
    except auth.InvalidHostingLinkDomainError:
        pass
    step("foreign link domain refused: InvalidHostingLinkDomainError")

    try:
        auth.generate_email_verification_link("ghost@example.com")
        raise AssertionError("a link for an unknown user was made")
    except auth.UserNotFoundError:
        pass
    try:
        auth.generate_password_reset_link("ghost@example.com")
        raise AssertionError("a reset link for an unknown user was made")
    except auth.EmailNotFoundError:
        pass
    step("unknown users refused: UserNotFoundError, EmailNotFoundError")
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
