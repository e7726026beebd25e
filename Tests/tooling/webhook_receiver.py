"""A webhook receiver for end-to-end tests: answers 500 to the first --fail-first requests and
200 afterwards (or, with --redirect-to URL, 302 to that URL every time), and prints one JSON
line per request (method, path, headers, body) to stdout, whatever its method.

    python webhook_receiver.py --fail-first 1
    -> {"listening": 40123}
    -> {"path": "/hook", "status": 500, "headers": {...}, "body": "..."}
"""

import argparse
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--redirect-to")
    args = parser.parse_args()
    # The test stops the receiver with SIGTERM, taken with sigwait on the main thread while the
    # server runs on another (blocked everywhere first, so one sent at any moment is pending).
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    state = {"seen": 0}

    class Handler(BaseHTTPRequestHandler):
        def answer(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            state["seen"] += 1
            if args.redirect_to:
                status = 302
            else:
                status = 500 if state["seen"] <= args.fail_first else 200
            record = {
                "method": self.command,
                "path": self.path,
                "status": status,
                "headers": {name: value for name, value in self.headers.items()},
                "body": body.decode("utf-8"),
            }
            self.send_response(status)
            if args.redirect_to:
                self.send_header("Location", args.redirect_to)
            self.send_header("Content-Length", "0")
            self.end_headers()
            print(json.dumps(record), flush=True)

        do_POST = do_GET = do_PUT = do_HEAD = answer

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"listening": server.server_address[1]}), flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})


if __name__ == "__main__":
    sys.exit(main())
