"""Drives the stock firebase-admin package against a running Hearth in emulator-host mode.

Usage: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT python firebase_admin_accounts.py PROJECT API_KEY

Creates a user, reads it by email and by uid, updates it, signs in over the REST API, verifies
the ID token (also with check_revoked), revokes its sessions (also one begun in the same
second), manages phone numbers, lists users with their password hashes, deletes users, and
checks the errors firebase-admin maps. Prints one "ok: ..." line per step and "ALL OK" at the
end; any failure raises (non-zero exit).
"""

import base64
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import argon2
import firebase_admin
from firebase_admin import auth, exceptions
from identity_toolkit_rest import rest, step


def refresh(host, api_key, refresh_token):
    """A Secure Token refresh as the JS SDK sends it: (status, JSON body)."""
    request = urllib.request.Request(
        f"http://{host}/securetoken.googleapis.com/v1/token?key={api_key}",
        data=urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": refresh_token}).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def revocation_in_the_same_second(host, api_key, email, password):
    """revoke_refresh_tokens right after a sign-in, both inside one second of the clock Hearth
    shares with this process (retried until they are): the refresh token is refused, the ID
    token still passes check_revoked (Firebase compares whole seconds), a new sign-in works."""
    for _ in range(20):
        started = time.time()
        if started % 1 > 0.5:
            time.sleep(1 - started % 1)
            started = time.time()
        status, signed_in = rest(host, "accounts:signInWithPassword", {"email": email, "password": password}, api_key)
        assert status == 200, signed_in
        auth.revoke_refresh_tokens(signed_in["localId"])
        if int(time.time()) == int(started):
            break
    else:
        raise AssertionError("could not sign in and revoke within one second")
    status, refused = refresh(host, api_key, signed_in["refreshToken"])
    assert status == 400 and refused["error"]["message"].startswith("TOKEN_EXPIRED"), refused
    claims = auth.verify_id_token(signed_in["idToken"], check_revoked=True)
    assert claims["iat"] == auth.get_user(signed_in["localId"]).tokens_valid_after_timestamp // 1000, claims
    time.sleep(0.002)
    status, again = rest(host, "accounts:signInWithPassword", {"email": email, "password": password}, api_key)
    assert status == 200, again
    status, refreshed = refresh(host, api_key, again["refreshToken"])
    assert status == 200, refreshed
    auth.verify_id_token(refreshed["id_token"], check_revoked=True)


def phone_numbers():
    """Phone numbers as firebase-admin manages them (Hearth sends no SMS, but keeps the number)."""
    user = auth.create_user(email="phone.user@example.com", phone_number="+15551230100")
    assert user.phone_number == "+15551230100", user._data
    assert "phone" in [p.provider_id for p in user.provider_data], user._data
    assert auth.get_user_by_phone_number("+15551230100").uid == user.uid
    found = auth.get_users([auth.PhoneIdentifier("+15551230100"), auth.PhoneIdentifier("+15551230199")])
    assert [u.uid for u in found.users] == [user.uid], found.users
    assert [i.phone_number for i in found.not_found] == ["+15551230199"], found.not_found
    step("create_user(phone_number=...), get_user_by_phone_number, get_users with PhoneIdentifier")

    try:
        auth.create_user(phone_number="+15551230100")
        raise AssertionError("duplicate phone number accepted")
    except auth.PhoneNumberAlreadyExistsError:
        pass
    try:
        auth.create_user(phone_number="+1 555 123")
        raise AssertionError("a number not in E.164 form was accepted")
    except exceptions.InvalidArgumentError as error:
        assert "INVALID_PHONE_NUMBER" in str(error), error
    step("PhoneNumberAlreadyExistsError, and INVALID_PHONE_NUMBER as InvalidArgumentError")

    changed = auth.update_user(user.uid, phone_number="+15551230101")
    assert changed.phone_number == "+15551230101", changed._data
    # None leaves the number alone in firebase-admin; DELETE_ATTRIBUTE removes it.
    assert auth.update_user(user.uid, phone_number=None).phone_number == "+15551230101"
    removed = auth.update_user(user.uid, phone_number=auth.DELETE_ATTRIBUTE)
    assert removed.phone_number is None and "phone" not in [p.provider_id for p in removed.provider_data]
    try:
        auth.get_user_by_phone_number("+15551230101")
        raise AssertionError("a removed phone number still finds its user")
    except auth.UserNotFoundError:
        pass
    step("update_user changes the phone number; DELETE_ATTRIBUTE removes it")
    auth.delete_user(user.uid)


def exported_password_hashes(email, password):
    """list_users gives password_hash (base64 of the Argon2id PHC string) and password_salt
    (base64 of its raw salt), and an independent Argon2 implementation verifies the hash."""
    exported = [u for u in auth.list_users().iterate_all() if u.email == email]
    assert len(exported) == 1, exported
    phc = base64.b64decode(exported[0].password_hash).decode()
    assert phc.startswith("$argon2id$v=19$"), phc
    assert argon2.PasswordHasher().verify(phc, password)
    try:
        argon2.PasswordHasher().verify(phc, password + "-not")
        raise AssertionError("an exported hash verified the wrong password")
    except argon2.exceptions.VerifyMismatchError:
        pass
    salt_field = phc.split("$")[4]
    assert base64.b64decode(exported[0].password_salt) == base64.b64decode(salt_field + "=" * (-len(salt_field) % 4))
    step("list_users().users[i].password_hash verifies with argon2-cffi; password_salt is its salt")


def main():
    import os

    project, api_key = sys.argv[1], sys.argv[2]
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    app = firebase_admin.initialize_app(options={"projectId": project})

    user = auth.create_user(
        email="Admin.Made@Example.com", password="first-password", display_name="Ada", email_verified=False
    )
    assert user.uid and user.email == "admin.made@example.com", user._data
    assert user.display_name == "Ada" and not user.email_verified and not user.disabled
    assert user.user_metadata.creation_timestamp > 0
    step(f"create_user -> {user.uid}")

    by_email = auth.get_user_by_email("admin.made@example.com")
    assert by_email.uid == user.uid and by_email.provider_data[0].provider_id == "password"
    assert auth.get_user(user.uid).email == "admin.made@example.com"
    step("get_user_by_email and get_user")

    updated = auth.update_user(
        user.uid, display_name="Ada Lovelace", email_verified=True, password="second-password"
    )
    assert updated.display_name == "Ada Lovelace" and updated.email_verified, updated._data
    auth.set_custom_user_claims(user.uid, {"role": "admin"})
    assert auth.get_user(user.uid).custom_claims == {"role": "admin"}
    step("update_user and set_custom_user_claims")

    status, signed_in = rest(
        host, "accounts:signInWithPassword", {"email": "admin.made@example.com", "password": "second-password"}, api_key
    )
    assert status == 200, signed_in
    claims = auth.verify_id_token(signed_in["idToken"], check_revoked=True)
    assert claims["uid"] == user.uid and claims["email"] == "admin.made@example.com", claims
    assert claims["email_verified"] is True and claims["role"] == "admin", claims
    assert claims["firebase"]["sign_in_provider"] == "password", claims
    step("verify_id_token(check_revoked=True) of a signInWithPassword token")

    # Revocation: tokens issued before validSince are refused by check_revoked, and the
    # refresh token stops working.
    time.sleep(1.1)
    auth.revoke_refresh_tokens(user.uid)
    try:
        auth.verify_id_token(signed_in["idToken"], check_revoked=True)
        raise AssertionError("a revoked token verified")
    except auth.RevokedIdTokenError:
        pass
    step("revoke_refresh_tokens makes check_revoked refuse older tokens")

    revocation_in_the_same_second(host, api_key, "admin.made@example.com", "second-password")
    step("revoke_refresh_tokens in the second of a sign-in refuses its refresh token (TOKEN_EXPIRED)")

    exported_password_hashes("admin.made@example.com", "second-password")
    phone_numbers()

    auth.update_user(user.uid, disabled=True)
    try:
        auth.verify_id_token(signed_in["idToken"], check_revoked=True)
        raise AssertionError("a disabled user's token verified")
    except auth.UserDisabledError:
        pass
    step("disabled users are refused by check_revoked")

    other = auth.create_user(uid="fixed-uid-1", email="second@example.com")
    assert other.uid == "fixed-uid-1"
    try:
        auth.create_user(email="second@example.com")
        raise AssertionError("duplicate email accepted")
    except auth.EmailAlreadyExistsError:
        pass
    try:
        auth.create_user(uid="fixed-uid-1")
        raise AssertionError("duplicate uid accepted")
    except auth.UidAlreadyExistsError:
        pass
    step("EmailAlreadyExistsError and UidAlreadyExistsError")

    listed = [u.uid for u in auth.list_users(max_results=1).iterate_all()]
    assert {user.uid, "fixed-uid-1"} <= set(listed) and len(listed) == len(set(listed)), listed
    found = auth.get_users([auth.UidIdentifier("fixed-uid-1"), auth.EmailIdentifier("nobody@example.com")])
    assert [u.uid for u in found.users] == ["fixed-uid-1"] and len(found.not_found) == 1
    step("list_users pages through every user; get_users reports what it did not find")

    # firebase-admin's delete_users always forces (enabled users are deleted too).
    result = auth.delete_users(["fixed-uid-1", "no-such-uid"])
    assert result.success_count == 2 and result.failure_count == 0, result.errors
    try:
        auth.get_user("fixed-uid-1")
        raise AssertionError("batch-deleted user still found")
    except auth.UserNotFoundError:
        pass
    step("delete_users")

    auth.delete_user(user.uid)
    try:
        auth.get_user(user.uid)
        raise AssertionError("deleted user still found")
    except auth.UserNotFoundError:
        pass
    try:
        auth.get_user_by_email("admin.made@example.com")
        raise AssertionError("deleted user still found by email")
    except auth.UserNotFoundError:
        pass
    step("delete_user, then UserNotFoundError")

    firebase_admin.delete_app(app)
    print("ALL OK", flush=True)


if __name__ == "__main__":
    main()
