#!/usr/bin/env python3
"""An SMTP server for Hearth's tests: accepts mail, parses every message with Python's own
`email` package (an independent MIME reader) and appends one JSON object per message to
OUT/messages.jsonl, also printing it on standard output.

    smtp_sink.py --out DIR [--port N] [--delay S] [--reject TEXT] [--auth USER:PASS]
                 [--tls-cert PEM --tls-key PEM [--implicit-tls]]

The first line printed is {"listening": PORT}. --delay holds each answer to DATA for S
seconds (a slow server, so that messages are caught in flight); recipients containing
--reject TEXT are refused with 550; --auth requires AUTH PLAIN/LOGIN with those
credentials; --tls-cert/--tls-key offer STARTTLS, or with --implicit-tls speak TLS from
the first byte (smtps). SIGTERM stops it.
"""
import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, out, delay, reject):
        self.out = out
        self.delay = delay
        self.reject = reject
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.reject and self.reject in address:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay)
        raw = envelope.original_content or envelope.content
        record = describe(raw, envelope)
        line = json.dumps(record, ensure_ascii=False)
        with self.lock:
            with open(os.path.join(self.out, "messages.jsonl"), "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        print(line, flush=True)
        return "250 Message accepted"


def describe(raw, envelope):
    message = email.message_from_bytes(raw, policy=email.policy.default)
    lines = raw.split(b"\r\n")
    text_part = message.get_body(preferencelist=("plain",))
    html_part = message.get_body(preferencelist=("html",))
    header_block = raw.split(b"\r\n\r\n", 1)[0].decode("ascii", "replace")
    return {
        "envelopeFrom": envelope.mail_from,
        "envelopeTo": envelope.rcpt_tos,
        "headers": {name: str(value) for name, value in message.items()},
        "rawHeaders": header_block,
        "contentType": message.get_content_type(),
        "parts": [
            {
                "contentType": part.get_content_type(),
                "charset": part.get_content_charset(),
                "transferEncoding": part.get("Content-Transfer-Encoding"),
            }
            for part in message.iter_parts()
        ]
        if message.is_multipart()
        else [],
        # Bodies with their line breaks as "\n", whatever the wire used.
        "text": text_part.get_content().replace("\r\n", "\n") if text_part is not None else None,
        "html": html_part.get_content().replace("\r\n", "\n") if html_part is not None else None,
        "maxLineLength": max(len(line) for line in lines),
        "bareLineFeeds": raw.replace(b"\r\n", b"").count(b"\n"),
        "defects": [str(defect) for defect in message.defects],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0)
    parser.add_argument("--reject")
    parser.add_argument("--auth")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--implicit-tls", action="store_true")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)

    options = {}
    context = None
    if arguments.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(arguments.tls_cert, arguments.tls_key)
        if arguments.implicit_tls:
            options["ssl_context"] = context
        else:
            options["server_kwargs"] = {"tls_context": context}
    if arguments.auth:
        user, password = arguments.auth.split(":", 1)

        def authenticate(server, session, envelope, mechanism, data):
            if isinstance(data, LoginPassword) and data.login.decode() == user and data.password.decode() == password:
                return AuthResult(success=True)
            return AuthResult(success=False, handled=False)

        server_kwargs = options.setdefault("server_kwargs", {})
        server_kwargs["authenticator"] = authenticate
        server_kwargs["auth_required"] = True
        server_kwargs["auth_require_tls"] = context is not None and not arguments.implicit_tls

    # SIGTERM/SIGINT stay blocked (in every thread, so the controller's inherit it) and are
    # taken with sigwait: one that arrives at any point, even before the wait, is pending and
    # stops the sink. (A Python handler that sets an Event can deadlock if it runs while the
    # main thread holds that Event's lock, and a test that stops the sink right after it
    # starts would then wait forever.)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    controller = Controller(
        Sink(arguments.out, arguments.delay, arguments.reject),
        hostname="127.0.0.1",
        port=arguments.port or free_port(),
        **options,
    )
    controller.start()
    print(json.dumps({"listening": controller.port}), flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    controller.stop()


def free_port():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


if __name__ == "__main__":
    sys.exit(main())
