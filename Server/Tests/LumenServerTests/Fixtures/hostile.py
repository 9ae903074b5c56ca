#!/usr/bin/env python3
"""Hostile clients against lumen-serve on loopback, for LumenServeProcessTests: prints one
JSON object of what the server did.

Usage: hostile.py PORT SLOW_PATH RESET_PATH CLOSE_PATH   (three renders of the same weight)
  huge_header:  a request with a 100 KB header line: the status the server answered, or
                "closed" when it closed without one.
  slowloris:    half a request, then silence: seconds until the server closed the connection
                (None if it was still open after 15 s).
  header_drip:  half a request, then a header byte every 0.25 s: seconds until the server
                closed the connection (None if it was still open after 15 s).
  disconnect:   SLOW_PATH rendered whole first (full_render_seconds: the time a render takes
                with someone listening); then RESET_PATH with the connection reset 0.3 s later,
                mid-render, and CLOSE_PATH closed politely (FIN); /health's status, and the
                seconds from each drop until /metrics showed no render in flight (None if not
                within 30 s).
"""
import json, socket, sys, time
sys.dont_write_bytecode = True  # no __pycache__ beside the fixtures
from loopback import answer, connect as loopback_connect, get as get_on

port, slow_path, reset_path, close_path = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

def connect():
    return loopback_connect(port)

def status_of(s):
    return answer(s)[0]

def get(path):
    return get_on(port, path)

result = {}

s = connect()
try:
    s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 100_000 + b"\r\n\r\n")
except (BrokenPipeError, ConnectionResetError):
    pass
result["huge_header"] = status_of(s)
s.close()

s = connect()
s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
start = time.monotonic()
s.settimeout(15)
try:
    closed = s.recv(1) == b""
except ConnectionResetError:
    closed = True
except socket.timeout:
    closed = False
result["slowloris_closed_after"] = round(time.monotonic() - start, 2) if closed else None
s.close()

s = connect()
s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ")
start = time.monotonic()
s.settimeout(0.25)
closed = False
while not closed and time.monotonic() < start + 15:
    try:
        s.sendall(b"a")
        closed = s.recv(1) == b""
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    except socket.timeout:
        pass
result["header_drip_closed_after"] = round(time.monotonic() - start, 2) if closed else None
s.close()

start = time.monotonic()
result["full_render_status"] = get(slow_path)[0]
result["full_render_seconds"] = round(time.monotonic() - start, 2)

def drop(path, reset):
    s = connect()
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    time.sleep(0.3)
    if reset:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()
    dropped = time.monotonic()
    while time.monotonic() < dropped + 30:
        if b"lumen_renders_in_flight 0" in get("/metrics")[1]:
            return round(time.monotonic() - dropped, 2)
        time.sleep(0.05)
    return None

result["drained_after_reset"] = drop(reset_path, reset=True)
result["health_after_disconnect"] = get("/health")[0]
result["drained_after_close"] = drop(close_path, reset=False)
print(json.dumps(result))
