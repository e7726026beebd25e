"""Drives the stock firebase-admin package against a running Hearth in emulator-host mode.

Usage: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:PORT python firebase_admin_accounts.py PROJECT API_KEY

Creates a user, reads it by email and by uid, updates it, signs in over the REST API, verifies
the ID token (also with check_revoked), revokes its sessions, lists and deletes users, and
checks the errors firebase-admin maps. Prints one "ok: ..." line per step and "ALL OK" at the
end; any failure raises (non-zero exit).
"""

import sys
import time

import firebase_admin
from firebase_admin import auth
from identity_toolkit_rest import rest, step


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
