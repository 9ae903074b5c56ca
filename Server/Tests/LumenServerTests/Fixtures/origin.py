"""A hostile and a friendly image origin on 127.0.0.1, for the service's origin tests.
Prints its port, then serves until killed. Routes: /photo.jpg (with an ETag), /missing (404),
/slow (answers after 30 s), /redirect (302 to /photo.jpg), /loop (302 to itself),
/big (announces 100 MB), /endless (chunked, never ends), /error (500)."""
import http.server, os, sys, threading, time

photo = open(sys.argv[1], "rb").read()


class Origin(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not any(name == "Content-Length" for name, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/photo.jpg":
            self.send(200, photo, [("Content-Type", "image/jpeg"), ("ETag", '"v1"')])
        elif path == "/missing":
            self.send(404, b"no")
        elif path == "/slow":
            time.sleep(30)
            self.send(200, photo)
        elif path == "/redirect":
            self.send(302, b"", [("Location", "/photo.jpg")])
        elif path == "/loop":
            self.send(302, b"", [("Location", "/loop")])
        elif path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", str(100 << 20))
            self.end_headers()
            self.wfile.write(photo[:1000])
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while True:
                    chunk = b"\xff" * 65536
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (BrokenPipeError, ConnectionResetError):
                pass
        else:
            self.send(500, b"oops")


def exit_with_parent():
    # The test holds our standard input: when it ends (the test finished, or crashed), so do we.
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Origin)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
