#!/usr/bin/env python3
"""Uploads against the bodies' share of the memory budget, for ImageServiceTests: prints one
JSON object of what the server did. The service under test has a 2 MiB share.

Usage: bodies.py PORT PHOTO share | bodies.py PORT PHOTO drip
share:
  held_bytes:      one upload promises 1.6 MB and sends 1.5 MB, then waits: the
                   lumen_bodies_held_bytes this shows (its whole length is reserved at once).
  held_then_full:  a second upload of 1 MiB meanwhile: its status, and its Retry-After;
  closed_after_full: seconds from that answer until the server closed the connection (None
                   if not within 5 s: the rest of that body is not read).
  after:           the first closed, PHOTO uploaded whole: the status (the share is back).
  held_after:      lumen_bodies_held_bytes once that upload was answered (polled 2 s).
drip:
  drip:            an upload that sends its body 10 bytes every 0.2 s: the status, and
  drip_seconds:    the seconds from its first byte until the answer;
  closed_after_drip: seconds from that answer until the server closed the connection.
"""
import json, socket, sys, time
from loopback import answer, connect as loopback_connect, get

port, photo, mode = int(sys.argv[1]), open(sys.argv[2], "rb").read(), sys.argv[3]
path = "/unsafe/w:100/upload"

def connect():
    return loopback_connect(port)

def head(length):
    return f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n".encode()

def closed_after(s):
    """Seconds until the server closes `s` (None if it is still open after 5 s)."""
    start = time.monotonic()
    s.settimeout(0.1)
    while time.monotonic() < start + 5:
        try:
            if s.recv(65536) == b"":
                return round(time.monotonic() - start, 2)
        except socket.timeout:
            try:
                s.sendall(b"w" * 100)  # a client still sending the rest of its body
            except (BrokenPipeError, ConnectionResetError):
                return round(time.monotonic() - start, 2)
        except ConnectionResetError:
            return round(time.monotonic() - start, 2)
    return None

def metric(name):
    for line in get(port, "/metrics")[1].decode(errors="replace").split("\n"):
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None

def send_all(s, data):
    try:
        s.sendall(data)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered before it had read everything

result = {}
if mode == "share":
    first = connect()
    first.sendall(head(1_600_000) + b"x" * 1_500_000)
    for _ in range(50):  # until the server holds it
        held = metric("lumen_bodies_held_bytes") or 0
        if held >= 1_500_000:
            break
        time.sleep(0.1)
    result["held_bytes"] = held

    second = connect()
    send_all(second, head(1 << 20) + b"y" * (1 << 20))
    status, headers = answer(second)
    result["held_then_full"] = status
    result["retry_after"] = headers.get("retry-after")
    result["closed_after_full"] = closed_after(second)
    second.close()

    first.close()
    time.sleep(0.3)
    after = connect()
    after.sendall(head(len(photo)) + photo)
    result["after"] = answer(after)[0]
    after.close()
    for _ in range(20):  # the render's thread lets the body go just after the answer
        result["held_after"] = metric("lumen_bodies_held_bytes")
        if result["held_after"] == 0:
            break
        time.sleep(0.1)
else:
    drip = connect()
    drip.sendall(head(1000))
    start = time.monotonic()
    status = None
    drip.settimeout(0.2)
    while time.monotonic() < start + 15:
        try:
            drip.sendall(b"z" * 10)
        except (BrokenPipeError, ConnectionResetError):
            break
        try:
            data = drip.recv(65536)
            status = int(data.split()[1]) if data.startswith(b"HTTP/") else "closed"
            break
        except socket.timeout:
            continue
    result["drip"] = status
    result["drip_seconds"] = round(time.monotonic() - start, 2)
    result["closed_after_drip"] = closed_after(drip)
    drip.close()
print(json.dumps(result))
