"""A standard-library client for `cropkit edit`: start it on loopback, read its memory, speak its WebSocket.

Shared by Benchmarks/editor-load.py (the load test) and Tests/Python/editor_hostile.py (the hostile-input test).
"""
import base64
import json
import os
import re
import socket
import struct
import subprocess
import threading
import time


def start_server(cropkit, concurrency, queue, *extra):
    """Starts `cropkit edit` on a free loopback port; returns (process, port)."""
    return start_process([cropkit, "edit", "--port", "0", "--render-concurrency", str(concurrency), "--render-queue",
                          str(queue), *extra], r"http://127\.0\.0\.1:(\d+)/")


def start_process(command, port_pattern, env=None):
    """Starts a cropkit server and waits for the line that names its port (`port_pattern`'s group 1); returns
    (process, port). Its later output is drained in the background."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = process.stdout.readline()
        match = re.search(port_pattern, line or "")
        if match:
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process, int(match.group(1))
        if not line and process.poll() is not None:
            break
    process.kill()
    raise RuntimeError(f"{' '.join(command[:2])} did not start")


def memory(pid):
    """(VmRSS, VmHWM) in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    kib = lambda k: int(fields.get(k, "0 kB").split()[0]) / 1024
    return kib("VmRSS"), kib("VmHWM")


class WebSocket:
    """The smallest RFC 6455 client that can talk to the editor: text frames, masked, no extensions."""

    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Origin: http://127.0.0.1:{port}\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"WebSocket upgrade refused: {head!r}")
        self.buffer = b""

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        n = len(payload)
        header += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive(self):
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            if b0 & 0x0F == 0x1:
                return json.loads(payload)
            # ping/pong/close frames are ignored here
