#!/usr/bin/env python3
"""Live test of `cropkit serve` on loopback with real sockets: clients that misbehave at the TCP level.

Starts the service (unsigned, concurrency 2, queue 8) on the bundled photo and, within a fixed budget:
  1. slow senders: 50 connections that send their request headers a few bytes at a time, with pauses (each gets its
     image, or 503 with Retry-After once the 2 slots and the queue of 8 are taken);
  2. slow readers: 4 clients that ask for the full-size photo (JPEG q98) and read it 1 KB at a time, with pauses;
  3. disconnects mid-response: 30 clients that read the first bytes of a large answer and close;
  4. idle sockets: 200 connections opened and never written to.
While each part runs, a well-behaved client must keep getting its images (each within 5 s; during part 1, which
fills the queue on purpose, it may be turned away with 503 too, and must be served once the burst is over). Afterwards the service
must still answer /health, report 0 requests in flight in /metrics, and keep its resident memory under
--max-rss-mb. Exits 1 on any failure.

  Tests/Python/serve_live.py --cropkit .build/debug/cropkit [--max-rss-mb 400]
"""
import argparse
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from editor_client import memory, start_process  # noqa: E402

PHOTO = os.path.join(ROOT, "Sources", "CropSamples", "Samples", "waterfall-orientation6.jpg")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"  FAIL {message}")
    return condition


def start(cropkit, folder):
    return start_process(
        [cropkit, "serve", "--root", folder, "--port", "0", "--allow-unsigned", "--concurrency", "2", "--queue", "8"],
        r"http://127\.0\.0\.1:(\d+)/img/", env={**os.environ, "CROPKIT_SIGNING_KEY": ""})


def get(port, path, timeout=5):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def well_behaved(port, stop, results):
    """Keeps fetching small images until `stop` is set; records (status, seconds) of each."""
    width = 40
    while not stop.is_set():
        start = time.time()
        try:
            status, _ = get(port, f"/img/fall.jpg?width={width}")
        except Exception as error:  # a timeout is a failure of the service to keep answering
            status = repr(error)
        results.append((status, time.time() - start))
        width = 40 + (width - 39) % 40


def during(port, name, body, overload=False):
    """Runs `body` while a well-behaved client fetches images; checks that client was served throughout (or, when
    `body` overloads the queue on purpose, turned away only with 503 and served again once it is over)."""
    stop, results = threading.Event(), []
    client = threading.Thread(target=well_behaved, args=(port, stop, results))
    client.start()
    started = time.time()
    body()
    stop.set()
    client.join()
    if overload:  # one more request once the burst is over
        results.append((get(port, "/img/fall.jpg?width=41")[0], 0))
    ok = [r for r in results if r[0] == 200]
    slowest = max((r[1] for r in results), default=0)
    print(f"{name}: {time.time() - started:.1f} s; meanwhile {len(ok)}/{len(results)} images served, slowest {slowest:.2f} s")
    allowed = (200, 503) if overload else (200,)
    check(results and all(r[0] in allowed for r in results) and results[-1][0] == 200,
          f"{name}: a well-behaved client got {[r[0] for r in results if r[0] != 200][:5]}")
    check(slowest < 5, f"{name}: a well-behaved request took {slowest:.1f} s")


def slow_senders(port):
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
    request = f"GET /img/fall.jpg?width=30 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    for offset in range(0, len(request), 8):
        for s in sockets:
            s.sendall(request[offset:offset + 8])
        time.sleep(0.1)
    answers = {}
    for s in sockets:
        s.settimeout(10)
        head = s.recv(4096)
        status = head[9:12].decode(errors="replace")
        if status == "503" and b"retry-after: 1" not in head.lower():
            status = "503 without Retry-After"
        answers[status] = answers.get(status, 0) + 1
        s.close()
    print(f"  slow senders' answers: {answers}")
    # 50 at once against 2 slots and a queue of 8: the rest are turned away, as configured.
    check(sum(answers.get(code, 0) for code in ("200", "503")) == 50 and answers.get("200", 0) >= 8,
          f"slow senders: answers {answers}")


def slow_readers(port):
    def reader(results):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(f"GET /img/fall.jpg?quality=98 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        total = 0
        s.settimeout(20)
        while True:
            chunk = s.recv(1024)
            if not chunk:
                break
            total += len(chunk)
            if total % 16384 < len(chunk):
                time.sleep(0.01)
        s.close()
        results.append(total)
    results = []
    threads = [threading.Thread(target=reader, args=(results,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(len(results) == 4 and min(results) > 300_000, f"slow readers: got {sorted(results)} bytes")


def disconnects(port):
    for _ in range(30):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(f"GET /img/fall.jpg?quality={60 + _} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        s.settimeout(10)
        s.recv(2048)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST on close
        s.close()


def idle(port):
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
    time.sleep(2)
    for s in sockets:
        s.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cropkit", required=True)
    parser.add_argument("--max-rss-mb", type=float, default=400)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    shutil.copy(PHOTO, os.path.join(folder, "fall.jpg"))
    process, port = start(args.cropkit, folder)
    try:
        for name, body in [("1. slow senders", slow_senders), ("2. slow readers", slow_readers),
                           ("3. disconnects mid-response", disconnects), ("4. idle sockets", idle)]:
            during(port, name, lambda: body(port), overload=body is slow_senders)
            check(process.poll() is None, f"{name}: the service exited")
        status, _ = get(port, "/health")
        check(status == 200, f"/health answered {status}")
        time.sleep(1)
        _, metrics = get(port, "/metrics")
        in_flight = re.search(rb"^cropkit_requests_in_flight (\S+)$", metrics, re.M)
        check(in_flight and float(in_flight.group(1)) == 0, f"in flight afterwards: {in_flight and in_flight.group(1)}")
        rss, hwm = memory(process.pid)
        print(f"resident memory: {rss:.0f} MB now, {hwm:.0f} MB at peak")
        check(hwm < args.max_rss_mb, f"peak resident memory {hwm:.0f} MB over {args.max_rss_mb:.0f} MB")
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)
    check(process.returncode == 0, f"exit status after SIGTERM: {process.returncode}")
    if failures:
        print(f"serve_live: {len(failures)} failure(s)")
        sys.exit(1)
    print("serve_live: all checks passed")


if __name__ == "__main__":
    main()
