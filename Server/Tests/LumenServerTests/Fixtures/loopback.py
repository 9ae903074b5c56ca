"""Raw-socket HTTP/1.1 on loopback for the server's test fixtures (hostile.py, bodies.py):
nothing here trusts the server to behave, so every read tolerates a reset or a timeout."""
import socket


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def answer(s):
    """The status code of the answer read from `s` and its headers (lower-case names), or
    ("closed", {}) when the server closed without one."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    lines = data.split(b"\r\n\r\n", 1)[0].decode(errors="replace").split("\r\n")
    if not lines[0].startswith("HTTP/"):
        return "closed", {}
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers


def get(port, path):
    """GET `path` on a connection of its own: the status and the body."""
    s = connect(port)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body
