#!/usr/bin/env python3
"""An SMTP sink on loopback for the acknowledgement-mail tests (#41): aiosmtpd accepts every
message and writes it to DIR/N.eml (the envelope's recipients in an X-Envelope-To line first).

    tools/mail/smtp-sink.py DIR     prints "port N" once listening; stops when stdin closes

Needs aiosmtpd (tools/setup installs it with pip).
"""
import socket
import sys
import threading
from pathlib import Path

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, directory):
        self.directory = Path(directory)
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            number = self.count
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8")
        head = ("X-Envelope-To: " + ", ".join(envelope.rcpt_tos) + "\r\n").encode("ascii", "replace")
        partial = self.directory / f".{number}.eml"
        partial.write_bytes(head + content)
        partial.rename(self.directory / f"{number}.eml")
        return "250 Message accepted"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
    port = free_port()
    controller = Controller(Sink(sys.argv[1]), hostname="127.0.0.1", port=port)
    controller.start()
    print(f"port {port}", flush=True)
    try:
        sys.stdin.read()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
