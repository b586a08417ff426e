#!/usr/bin/env python3
"""Load test of `cropkit edit`'s render API: many concurrent POST /api/render requests on loopback.

Starts `cropkit edit` (release build by default) with a render concurrency and queue, and has CLIENTS threads render
a real photo until REQUESTS renders succeeded; a client answered 503 waits BACKOFF seconds and tries again. Reports: status counts (only 200 and the configured 503s are allowed),
latency percentiles, throughput, the server's peak resident memory (VmHWM) and its RSS over time, and the editor
WebSocket's round trip (median / p95) measured idle and *while the renders run* (a drag must stay immediate).
Standard library only. Exit status 1 if any request failed otherwise than 200/503 or memory grew past the bound.

  Benchmarks/editor-load.py [--photo FILE] [--requests 200] [--clients 16] [--concurrency 2] [--queue 8]
"""
import argparse
import base64
import http.client
import json
import os
import re
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Python"))
from editor_client import WebSocket, memory, start_server  # noqa: E402


def round_trips(port, moves, stop=None):
    """Milliseconds per pointerMove of a drag, one event in flight at a time (then the drag is cancelled)."""
    ws = WebSocket(port, "/api/session")
    ws.receive()  # hello
    ws.send(json.dumps({"type": "viewport", "width": 1200, "height": 800}))
    box = ws.receive()["state"]["cropBox"]
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ws.send(json.dumps({"type": "pointerDown", "id": 1, "x": cx, "y": cy - 10}))
    ws.receive()
    times = []
    i = 0
    while (stop is None and i < moves) or (stop is not None and not stop.is_set()):
        i += 1
        event = json.dumps({"type": "pointerMove", "id": 1, "x": cx + 40 * ((i % 20) / 20), "y": cy})
        t0 = time.perf_counter()
        ws.send(event)
        reply = ws.receive()
        times.append((time.perf_counter() - t0) * 1000)
        assert reply["type"] == "state", reply
    ws.send(json.dumps({"type": "pointerCancel", "id": 1}))
    ws.receive()
    ws.sock.close()
    return times


def summary(times):
    s = sorted(times)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    return {"count": len(s), "median_ms": round(statistics.median(s), 3), "p95_ms": round(pick(0.95), 3),
            "max_ms": round(s[-1], 3)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "release", "cropkit"))
    parser.add_argument("--photo", default="/work/shared/testdata/photos/canon-eos450d-4272x2848.jpg")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--queue", type=int, default=8)
    parser.add_argument("--backoff", type=float, default=0.25, help="seconds a client waits after a 503")
    parser.add_argument("--memory-bound-mb", type=float, default=1024,
                        help="fail if the server's peak RSS exceeds this")
    args = parser.parse_args()

    photo = open(args.photo, "rb").read()
    recipe = json.dumps({"version": 1, "crop": {"centerX": 0.5, "centerY": 0.5, "width": 0.6, "height": 0.6},
                         "angle": 5, "quarterTurns": 1})
    uri = "/api/render?quality=85&recipe=" + urllib.parse.quote(recipe)
    server, port = start_server(args.cropkit, args.concurrency, args.queue)
    statuses, latencies, errors = {}, [], []
    lock = threading.Lock()
    remaining = [args.requests]
    rss_samples = []

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        status = 200
        while True:
            if status == 503:
                time.sleep(args.backoff)
            else:
                with lock:
                    if remaining[0] == 0:
                        return
                    remaining[0] -= 1
            t0 = time.perf_counter()
            try:
                connection.request("POST", uri, body=photo, headers={"Content-Type": "image/jpeg"})
                response = connection.getresponse()
                body = response.read()
                status = response.status
            except Exception as error:  # a refused or dropped connection counts as a failure
                status, body = f"exception {type(error).__name__}", b""
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            elapsed = (time.perf_counter() - t0) * 1000
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    latencies.append(elapsed)
                elif status != 503:
                    errors.append(f"{status}: {body[:200]!r}")
            if status not in (200, 503):
                status = 200  # a failure is counted, not retried

    try:
        idle_rtt = summary(round_trips(port, 500))
        base_rss, _ = memory(server.pid)
        stop = threading.Event()
        loaded = []
        sampler_stop = threading.Event()

        def sampler():
            while not sampler_stop.is_set():
                rss_samples.append(memory(server.pid)[0])
                time.sleep(0.05)

        threading.Thread(target=sampler, daemon=True).start()
        rtt_thread = threading.Thread(target=lambda: loaded.extend(round_trips(port, 0, stop)), daemon=True)
        started = time.perf_counter()
        workers = [threading.Thread(target=client) for _ in range(args.clients)]
        for w in workers:
            w.start()
        time.sleep(0.2)
        rtt_thread.start()
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - started
        stop.set()
        rtt_thread.join()
        sampler_stop.set()
        rss, hwm = memory(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)

    ok = statuses.get(200, 0)
    report = {
        "photo": os.path.basename(args.photo), "photo_bytes": len(photo), "requests": args.requests,
        "clients": args.clients, "render_concurrency": args.concurrency, "queue_capacity": args.queue,
        "statuses": {str(k): v for k, v in sorted(statuses.items(), key=lambda kv: str(kv[0]))},
        "throughput_renders_per_s": round(ok / elapsed, 2),
        "latency_ok_ms": summary(latencies) if latencies else None,
        "memory_mb": {"idle_rss": round(base_rss, 1), "peak_rss_sampled": round(max(rss_samples or [rss]), 1),
                      "vm_hwm": round(hwm, 1), "after_rss": round(rss, 1)},
        "websocket_round_trip_idle": idle_rtt,
        "websocket_round_trip_under_load": summary(loaded) if loaded else None,
    }
    print(json.dumps(report, indent=2))
    failed = bool(errors) or hwm > args.memory_bound_mb
    for e in errors[:10]:
        print("unexpected answer:", e, file=sys.stderr)
    if hwm > args.memory_bound_mb:
        print(f"peak memory {hwm:.0f} MiB exceeds the bound {args.memory_bound_mb:.0f} MiB", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
