#!/usr/bin/env python3
"""Uploads against the bodies' share of the memory budget, for ImageServiceTests: prints one
JSON object of what the server did. The service under test has a 2 MiB share.

Usage: bodies.py PORT PHOTO share | bodies.py PORT PHOTO drip
share:
  held_bytes:      one upload promises 1.6 MB and sends 1.5 MB, then waits: the
                   lumen_bodies_held_bytes this shows (its whole length is reserved at once).
  held_then_full:  a second upload announcing 1 MiB, sending 64 KB of it, meanwhile: its
                   status, and its Retry-After;
  closed_after_full: seconds from that answer until the server closed the connection, the
                   client still sending what it announced (None if not within 5 s).
  too_large, closed_after_too_large: the same for an upload announcing 3 MiB (over the share).
  after:           the first closed, PHOTO uploaded whole: the status (the share is back).
  held_after:      lumen_bodies_held_bytes once that upload was answered (polled 2 s).
drip:
  drip:            an upload that sends its body 10 bytes every 0.2 s: the status, and
  drip_seconds:    the seconds from its first byte until the answer;
  closed_after_drip: seconds from that answer until the server closed the connection.
"""
import json, socket, sys, time
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from loopback import answer, connect as loopback_connect, get

port, photo, mode = int(sys.argv[1]), open(sys.argv[2], "rb").read(), sys.argv[3]
path = "/unsafe/w:100/upload"

def connect():
    return loopback_connect(port)

def head(length):
    return f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n".encode()

def closed_after(s, unsent):
    """Seconds until the server closes `s` (None if it is still open after 5 s), the client
    meanwhile sending the `unsent` bytes its body still owes, 100 at a time (never more: what
    followed the body would be read as a new request, and refused)."""
    start = time.monotonic()
    s.settimeout(0.1)
    while time.monotonic() < start + 5:
        try:
            if s.recv(65536) == b"":
                return round(time.monotonic() - start, 2)
        except socket.timeout:
            try:
                if unsent > 100:
                    s.sendall(b"w" * 100)
                    unsent -= 100
            except (BrokenPipeError, ConnectionResetError):
                return round(time.monotonic() - start, 2)
        except ConnectionResetError:
            return round(time.monotonic() - start, 2)
    return None

def held():
    return metric("lumen_bodies_held_bytes") or 0

def until_held(condition):
    """lumen_bodies_held_bytes once `condition` holds for it (or after 5 s)."""
    for _ in range(50):
        value = held()
        if condition(value):
            break
        time.sleep(0.1)
    return value

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
    result["held_bytes"] = until_held(lambda value: value >= 1_500_000)

    for name, length in [("full", 1 << 20), ("too_large", 3 << 20)]:
        refused = connect()
        send_all(refused, head(length) + b"y" * 65536)
        status, headers = answer(refused)
        result["held_then_full" if name == "full" else name] = status
        if name == "full":
            result["retry_after"] = headers.get("retry-after")
        result[f"closed_after_{name}"] = closed_after(refused, length - 65536)
        refused.close()

    first.close()
    until_held(lambda value: value == 0)
    after = connect()
    after.sendall(head(len(photo)) + photo)
    result["after"] = answer(after)[0]
    after.close()
    # The render's thread lets the body go just after the answer.
    result["held_after"] = until_held(lambda value: value == 0)
elif mode == "drip":
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
    result["closed_after_drip"] = closed_after(drip, 1000)
    drip.close()
else:
    sys.exit(f"unknown mode {mode}")
print(json.dumps(result))
