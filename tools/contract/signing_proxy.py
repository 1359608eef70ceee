#!/usr/bin/env python3
"""A loopback proxy that signs every request for `itemaudit serve`, so a contract tester that knows
nothing of the signature (schemathesis) can exercise the API as a logged-in device.

    signing_proxy.py SERVER_PORT APP_ID SECRET_HEX USERNAME PASSWORD

Prints the port it listens on, then forwards each request to 127.0.0.1:SERVER_PORT with the four
signature headers (HMAC-SHA256 over method, path and query, timestamp, transaction id, body SHA-256
and the Content-Type's media type, as RequestSigning documents) and `Authorization: Bearer` of a
session it opened at start.
Only loopback; stops on SIGTERM.
"""
import hashlib
import hmac
import http.client
import json
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

server_port = int(sys.argv[1])
app_id, secret = sys.argv[2], bytes.fromhex(sys.argv[3])
username, password = sys.argv[4], sys.argv[5]
token = None


def media_type(content_type):
    """The signed media type: before any parameters, spaces and tabs trimmed, ASCII letters
    lower-cased (only those, as the server does), empty without a Content-Type."""
    if content_type is None:
        return ""
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in content_type.split(";")[0].strip(" \t"))


def signed_headers(method, path, body, content_type):
    timestamp = str(int(time.time()))
    transaction = str(uuid.uuid4())
    text = "\n".join(
        [method, path, timestamp, transaction, hashlib.sha256(body).hexdigest(), media_type(content_type)])
    signature = hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()
    return {
        "X-ItemAudit-App": app_id,
        "X-ItemAudit-Transaction": transaction,
        "X-ItemAudit-Timestamp": timestamp,
        "X-ItemAudit-Signature": signature,
    }


def forward(method, path, body, headers):
    connection = http.client.HTTPConnection("127.0.0.1", server_port, timeout=30)
    headers = dict(headers)
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), None)
    headers.update(signed_headers(method, path, body, content_type))
    if token and path != "/v1/sessions":
        headers["Authorization"] = "Bearer " + token
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.getheaders(), response.read()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        passed = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "accept")}
        try:
            status, headers, payload = forward(self.command, self.path, body, passed)
        except (http.client.RemoteDisconnected, ConnectionError) as error:
            sys.stderr.write(f"signing_proxy: the server closed the connection on {self.command} {self.path!r}: {error}\n")
            raise
        if status == 401 and b'"code":"signature-' in payload:
            # The proxy signs every request: a refused signature means it signs differently from the server.
            sys.stderr.write(f"signing_proxy: the server refused the signature of {self.command} {self.path!r}: {payload[:300]!r}\n")
        if status == 401 and b"session-unknown" in payload:
            login()  # the tester logged out (DELETE /v1/sessions/current): log in again and retry
            status, headers, payload = forward(self.command, self.path, body, passed)
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        # One request per connection: a client never reuses a socket this proxy is closing.
        self.send_header("Connection", "close")
        self.close_connection = True
        self.end_headers()
        self.wfile.write(payload)

    def __getattr__(self, name):
        # Every method (GET … and the ones a fuzzer invents, TRACE, QUERY) goes to the server.
        if name.startswith("do_"):
            return self.handle_any
        raise AttributeError(name)

    def log_message(self, *args):
        pass


def login():
    global token
    body = json.dumps({"username": username, "password": password}).encode()
    status, _, payload = forward("POST", "/v1/sessions", body, {"Content-Type": "application/json"})
    if status != 201:
        sys.exit(f"signing_proxy: login failed: {status} {payload[:200]!r}")
    token = json.loads(payload)["token"]


def main():
    login()
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(proxy.server_address[1], flush=True)
    proxy.serve_forever()


if __name__ == "__main__":
    main()
