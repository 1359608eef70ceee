"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (no dependencies).

Chromium reads JSON commands from file descriptor 3 and writes answers and events to file
descriptor 4, each message ended by a NUL byte. One reader thread sorts answers (by id) from
events (kept in a list the caller drains).
"""

import json
import os
import subprocess
import threading
import time


class CDPError(Exception):
    pass


class Browser:
    def __init__(self, executable, profile_dir, extra_args=()):
        # Our ends: we write commands into to_chrome_w; chromium writes into from_chrome_w.
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()

        def child_fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        args = [
            executable,
            "--headless=new",
            "--remote-debugging-pipe",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--metrics-recording-only",
            "--no-proxy-server",
            "--window-size=1280,900",
            "--user-data-dir=" + profile_dir,
        ]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # chromium refuses to run its sandbox as root
        args += list(extra_args) + ["about:blank"]
        self.process = subprocess.Popen(
            args,
            preexec_fn=child_fds,
            # The child closes every other descriptor after preexec_fn has put the pipes at 3 and 4.
            pass_fds=(3, 4),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(profile_dir, "chromium.log"), "wb"),
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._out = to_chrome_w
        self._in = from_chrome_r
        self._next_id = 0
        self._lock = threading.Lock()
        self._answers = {}
        self._answered = threading.Condition(self._lock)
        self.events = []
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self._in, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self._lock:
                    self._closed = True
                    self._answered.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                with self._lock:
                    if "id" in message:
                        self._answers[message["id"]] = message
                        self._answered.notify_all()
                    else:
                        self.events.append(message)

    def send(self, method, params=None, session=None, timeout=60):
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self._out, data)
            data = data[written:]
        deadline = time.monotonic() + timeout
        with self._lock:
            while ident not in self._answers:
                if self._closed:
                    raise CDPError(f"chromium exited while answering {method}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError(f"no answer to {method} within {timeout} s")
                self._answered.wait(left)
            answer = self._answers.pop(ident)
        if "error" in answer:
            raise CDPError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def drain(self):
        """The events received since the last drain."""
        with self._lock:
            events, self.events = self.events, []
        return events

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except CDPError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._out,):
            try:
                os.close(fd)
            except OSError:
                pass
