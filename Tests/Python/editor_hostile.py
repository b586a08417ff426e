#!/usr/bin/env python3
"""Hostile-input test of `cropkit edit` on loopback: the WebSocket and the render API under input nobody should send.

Starts the editor (render concurrency 2, queue 4, 8 MB request limit) and, within a fixed budget:
  1. malformed frames: unmasked, binary, reserved opcode, a bad length, invalid UTF-8, fragmented, oversize (past the
     16 KB event limit), a close in the middle of a frame;
  2. thousands of random events on one connection: JSON of every type with random, missing, huge, negative, non-finite
     and wrongly typed fields, and non-JSON text — every one must get exactly one answer, a state or an error;
  3. hundreds of idle sockets and half-sent HTTP requests held open while the editor keeps answering;
  4. render and open bodies (POST /api/render, POST /api/images) cut off mid-upload, and a declared length past the
     limit;
  5. concurrent renders past the queue: only 200 and 503 (with Retry-After) are allowed;
  6. more pictures opened than the editor keeps (16): every one is answered 201, the oldest is forgotten (404), and
     memory stays bounded.
After each part the editor must still be alive and answer /api/health and a WebSocket event. Reports counts, the
answers seen, and the editor's resident memory (VmRSS, VmHWM); fails (exit 1) on a crash, an undocumented answer, a
missing reply, or resident memory past --max-rss-mb.

  Tests/Python/editor_hostile.py --cropkit .build/debug/cropkit [--events 3000] [--idle 300] [--max-rss-mb 400]
"""
import argparse
import http.client
import json
import os
import random
import socket
import struct
import sys
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from editor_client import WebSocket, memory, start_server  # noqa: E402

PHOTO = os.path.join(ROOT, "Sources", "CropSamples", "Samples", "waterfall-orientation6.jpg")
# A small picture for the opens (a debug build takes seconds to make a 1600-px preview of the photo).
SMALL = os.path.join(ROOT, "Tests", "CropEditorTests", "Fixtures", "quadrants-orientation6.jpg")
EVENT_TYPES = ["pointerDown", "pointerMove", "pointerUp", "pointerCancel", "zoom", "straighten", "straightenBy",
               "rotate", "flip", "aspect", "swapAspect", "nudge", "resizeBy", "resetCrop", "reset", "undo", "redo",
               "viewport", "mode", "explode", ""]
FIELDS = ["id", "x", "y", "intent", "factor", "angle", "final", "delta", "direction", "aspectPolicy", "axis", "aspect",
          "dx", "dy", "width", "height", "insets", "mode", "handle"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"  FAIL {message}")
    return condition


def random_value(rng):
    return rng.choice([
        rng.uniform(-1e6, 1e6), rng.uniform(-2, 2), rng.randint(-10, 10), 1e308, -1e308, 0, -0.0, "NaN", "Infinity",
        "", "clockwise", "counterClockwise", "horizontal", "vertical", "16:9", "0:1", "free", "original", "pan",
        "crop", "draw", "auto", "followPicture", "keepOutputRatio", True, False, None, [], {}, {"top": -5},
        "x" * rng.randint(0, 300), 2 ** 63, -(2 ** 63) - 1,
    ])


def random_event(rng):
    event = {"type": rng.choice(EVENT_TYPES)}
    for field in rng.sample(FIELDS, rng.randint(0, 6)):
        event[field] = random_value(rng)
    if rng.random() < 0.1:
        return rng.choice(["{", "[]", "null", "\"text\"", "{\"type\": 5}", json.dumps(event)[:-1]])
    return json.dumps(event)


def raw_frame(opcode, payload, fin=True, mask=True, length=None):
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | opcode])
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def alive(port, label):
    """The editor answers /api/health and a WebSocket event."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/health")
        ok = conn.getresponse().status == 200
        conn.close()
        ws = WebSocket(port, "/api/session")
        ws.sock.settimeout(10)
        ws.receive()
        ws.send(json.dumps({"type": "viewport", "width": 640, "height": 480}))
        ok = ok and ws.receive().get("type") == "state"
        ws.sock.close()
    except Exception as error:  # noqa: BLE001 - any failure here is the finding
        ok = False
        print(f"  ({error!r})")
    return check(ok, f"the editor stopped answering after {label}")


def malformed_frames(port):
    cases = {
        "unmasked text frame": raw_frame(0x1, b'{"type":"undo"}', mask=False),
        "binary frame": raw_frame(0x2, b"\x00\x01\x02"),
        "reserved opcode 0x3": raw_frame(0x3, b"x"),
        "invalid UTF-8": raw_frame(0x1, b'{"type":"\xff\xfe"}'),
        "oversize text frame (64 KB)": raw_frame(0x1, b"{" + b" " * 65536 + b"}"),
        "length past the data (then close)": raw_frame(0x1, b"abc", length=1000),
        "fragments without FIN, 40 KB in all": b"".join(
            raw_frame(0x1 if i == 0 else 0x0, b"a" * 4000, fin=False) for i in range(10)),
        "64-bit length of 2^62": bytes([0x81, 0xFF]) + struct.pack(">Q", 1 << 62) + os.urandom(4),
        "half a header": bytes([0x81]),
    }
    answers = {}
    for name, data in cases.items():
        ws = WebSocket(port, "/api/session")
        ws.sock.settimeout(5)
        ws.receive()
        ws.send(json.dumps({"type": "viewport", "width": 640, "height": 480}))
        ws.receive()
        try:
            ws.sock.sendall(data)
            ws.sock.shutdown(socket.SHUT_WR) if name in ("length past the data (then close)", "half a header") else None
            reply = ws.receive()
            answers[name] = f"answer {reply.get('type')}: {reply.get('message', '')[:60]}"
        except (EOFError, ConnectionError, socket.timeout, OSError) as error:
            answers[name] = f"connection closed ({type(error).__name__})"
        ws.sock.close()
    for name, answer in answers.items():
        # swift-websocket does not insist on client masking (RFC 6455 says a server should close): an unmasked
        # frame is read as the event it is, which is lenient but harmless. Every other malformed frame must not be.
        lenient = name == "unmasked text frame"
        print(f"  {name}: {answer}" + (" (lenient: unmasked client frames are accepted)" if lenient else ""))
        check(lenient or not answer.startswith("answer state"), f"{name} was taken as an event")
    alive(port, "malformed frames")


def random_events(port, count, seed):
    rng = random.Random(seed)
    ws = WebSocket(port, "/api/session")
    ws.sock.settimeout(10)
    ws.receive()
    ws.send(json.dumps({"type": "viewport", "width": 900, "height": 700}))
    ws.receive()
    kinds = {"state": 0, "error": 0}
    for i in range(count):
        ws.send(random_event(rng))
        try:
            reply = ws.receive()
        except Exception as error:  # noqa: BLE001
            check(False, f"event {i}: no answer ({error!r})")
            break
        kind = reply.get("type")
        if not check(kind in kinds, f"event {i}: undocumented answer {reply!r:.120}"):
            break
        kinds[kind] += 1
        if kind == "state":
            box, s = reply["state"]["cropBox"], reply["state"]
            check(box["width"] > 0 and box["height"] > 0 and -45 <= s["angle"] <= 45,
                  f"event {i}: implausible state {s!r:.120}")
    ws.sock.close()
    print(f"  {count} random events: {kinds['state']} states, {kinds['error']} errors, one answer each")
    alive(port, "random events")


def idle_and_half_sent(port, count):
    sockets = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if i % 3 == 1:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        elif i % 3 == 2:
            s.sendall(b"POST /api/render?recipe=%7B%22version%22%3A1%7D HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Content-Type: image/jpeg\r\nContent-Length: 1000000\r\n\r\n" + b"\xff" * 1000)
        sockets.append(s)
    t0 = time.perf_counter()
    ok = alive(port, f"{count} idle and half-sent connections")
    print(f"  {count} idle or half-sent connections held open; health and a WebSocket event answered in "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms" if ok else "")
    for s in sockets:
        s.close()
    alive(port, "closing them")


def cut_uploads(port, target):
    photo = open(PHOTO, "rb").read()
    statuses = []
    for cut in [0, 100, len(photo) // 2, len(photo) - 1]:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall((f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   f"Content-Type: image/jpeg\r\nContent-Length: {len(photo)}\r\n\r\n").encode() + photo[:cut])
        s.shutdown(socket.SHUT_WR)
        data = b""
        try:
            while chunk := s.recv(65536):
                data += chunk
        except (ConnectionError, socket.timeout):
            pass
        s.close()
        statuses.append(data.split(b"\r\n", 1)[0].decode(errors="replace") or "connection closed")
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("POST", target)
    conn.putheader("Content-Type", "image/jpeg")
    conn.putheader("Content-Length", str(64 * 1024 * 1024))
    conn.endheaders()
    too_large = conn.getresponse()
    statuses.append(f"declared 64 MB: {too_large.status}")
    conn.close()
    print(f"  cut uploads to {target.split('?')[0]}: {statuses}")
    check(all(" 200 " not in s and " 201 " not in s for s in statuses[:-1]), "a cut upload was rendered or opened")
    check(too_large.status == 413, f"a declared 64 MB body got {too_large.status}, not 413")
    alive(port, "cut uploads")


def many_pictures(port, count):
    photo = open(SMALL, "rb").read()
    statuses, ids = {}, []
    for i in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", f"/api/images?name=p{i}.jpg", body=photo, headers={"Content-Type": "image/jpeg"})
        response = conn.getresponse()
        body = response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
        if response.status == 201:
            ids.append(json.loads(body)["id"])
        conn.close()

    def status(path):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        conn.close()
        return response.status

    print(f"  {count} pictures opened: {statuses}; first {ids[:1]}, last {ids[-1:]}")
    check(statuses == {201: count}, f"opening answered {statuses}")
    check(len(ids) == count and status(f"/api/images/{ids[0]}") == 404, "the oldest upload was not forgotten")
    check(status(f"/api/images/{ids[-1]}/preview") == 200, "the newest upload has no preview")
    alive(port, "many pictures")


def hostile_regions(port, count, seed):
    """Region renders (sharp zoom) with random, broken and enormous parameters: only 200, 400 or 503, never a crash,
    and never more pixels than the source region or 4096 a side."""
    rng = random.Random(seed)
    statuses = {}
    values = ["0", "-1", "1e308", "nan", "inf", "", "12.5", "99999999999", "abc", "0x10", "-0"]
    for i in range(count):
        params = {}
        for name in ["x", "y", "width", "height", "outWidth", "outHeight"]:
            if rng.random() < 0.9:
                params[name] = rng.choice(values) if rng.random() < 0.4 else str(rng.uniform(-50, 2500))
        if rng.random() < 0.5:
            params.update(x=str(rng.uniform(0, 1500)), y=str(rng.uniform(0, 1000)), width=str(rng.uniform(1, 800)),
                          height=str(rng.uniform(1, 800)), outWidth=str(rng.randint(1, 100000)),
                          outHeight=str(rng.randint(1, 100000)))
        query = "&".join(f"{k}={urllib.parse.quote(v)}" for k, v in params.items())
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/api/images/0/region?" + query)
        response = conn.getresponse()
        body = response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
        if response.status == 200:
            w, h = int(response.getheader("X-Image-Width")), int(response.getheader("X-Image-Height"))
            rw, rh = [int(v) for v in response.getheader("X-Region").split(",")][2:]
            check(w <= min(4096, rw) and h <= min(4096, rh) and len(body) > 0,
                  f"region {query}: {w}×{h} for a {rw}×{rh} source region")
        conn.close()
    print(f"  {count} region requests: {statuses}")
    check(set(statuses) <= {200, 400, 503}, f"region answers other than 200/400/503: {statuses}")
    check(statuses.get(200, 0) > 0 and statuses.get(400, 0) > 0, f"the region requests were not mixed: {statuses}")
    alive(port, "region requests")


def renders_past_the_queue(port, clients):
    photo = open(PHOTO, "rb").read()
    statuses, lock = {}, threading.Lock()

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        recipe = urllib.parse.quote(json.dumps(
            {"version": 1, "crop": {"centerX": 0.5, "centerY": 0.5, "width": 0.6, "height": 0.6}, "angle": 7}))
        conn.request("POST", f"/api/render?recipe={recipe}", body=photo,
                     headers={"Content-Type": "image/jpeg"})
        response = conn.getresponse()
        response.read()
        with lock:
            statuses[response.status] = statuses.get(response.status, 0) + 1
            if response.status == 503:
                check(response.getheader("Retry-After") is not None, "a 503 without Retry-After")
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"  {clients} concurrent renders: {statuses}")
    check(set(statuses) <= {200, 503}, f"answers other than 200/503: {statuses}")
    check(statuses.get(503, 0) > 0, "no render was refused past the queue")
    alive(port, "renders past the queue")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "debug", "cropkit"))
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--idle", type=int, default=300)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--max-rss-mb", type=float, default=400)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    process, port = start_server(args.cropkit, 2, 4, "--max-request-mb", "8")
    try:
        baseline = memory(process.pid)[0]
        print(f"editor on port {port}, resident {baseline:.0f} MB")
        for title, part in [("malformed frames", lambda: malformed_frames(port)),
                            ("random events", lambda: random_events(port, args.events, args.seed)),
                            ("idle sockets and half-sent requests", lambda: idle_and_half_sent(port, args.idle)),
                            ("render uploads cut off",
                             lambda: cut_uploads(port, "/api/render?recipe=%7B%22version%22%3A1%7D")),
                            ("opened pictures cut off", lambda: cut_uploads(port, "/api/images?name=cut.jpg")),
                            ("more pictures than are kept", lambda: many_pictures(port, 20)),
                            ("hostile region renders", lambda: hostile_regions(port, 120, args.seed)),
                            ("renders past the queue", lambda: renders_past_the_queue(port, args.clients))]:
            print(f"{title}:")
            part()
            rss, hwm = memory(process.pid)
            print(f"  resident {rss:.0f} MB, peak {hwm:.0f} MB")
            check(process.poll() is None, f"the editor exited ({process.returncode}) during {title}")
        rss, hwm = memory(process.pid)
        check(hwm <= args.max_rss_mb, f"peak resident memory {hwm:.0f} MB is past {args.max_rss_mb:.0f} MB")
    finally:
        process.terminate()
        process.wait(timeout=10)
    if failures:
        print(f"editor hostile test: {len(failures)} failures")
        sys.exit(1)
    print(f"editor hostile test: all checks passed (resident {rss:.0f} MB at the end, peak {hwm:.0f} MB)")


if __name__ == "__main__":
    main()
