#!/usr/bin/env python3
"""A loopback HTTP/1.1 server whose answers are each a case an HTTP client must handle, for the download tests.

Binds port 0 on 127.0.0.1 (or ::1 with --ipv6) and prints "PORT <n>" once it accepts connections. With --tls CERT KEY
it speaks TLS. Every path below names a file of FOLDER by its last component:

  /file/NAME              200 with Content-Length
  /chunked/NAME           200, chunked in chunks of 1 to 9000 bytes, with a chunk extension and a trailer
  /close/NAME             200 with neither length nor chunks: the body ends when the connection does
  /continue/NAME          100 Continue, then the file
  /short/NAME             a Content-Length 1000 bytes above what is sent, then the connection closes
  /stall/NAME             the head and 4096 bytes, then silence with the connection open
  /redirect/K/NAME        K redirects (relative Location) before the file
  /absolute/NAME          301 to the absolute URL of /file/NAME
  /cycle/a, /cycle/b      302 to each other
  /missing                404
  /echo                   200 with the request's head as the body
  /keep/NAME              200 with Content-Length and X-Requests-On-Connection (how many requests this connection
                          has carried), the connection kept open for the next request
  /keep-then-close/NAME   the same, then the connection closed 0.3 s later without reading another request
  /PATH                   FOLDER/PATH when it is a file (a debuginfod tree: buildid/ID/debuginfo), else 404
"""
import os
import socket
import socketserver
import ssl
import sys
import threading
import time

folder = sys.argv[1]
arguments = sys.argv[2:]
family = socket.AF_INET6 if "--ipv6" in arguments else socket.AF_INET
tls = None
if "--tls" in arguments:
    index = arguments.index("--tls")
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(arguments[index + 1], arguments[index + 2])


def body_of(name):
    with open(os.path.join(folder, os.path.basename(name)), "rb") as file:
        return file.read()


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        self.requests = 0
        # Every path but /keep/ closes the connection after its answer.
        while self.answer():
            pass

    def answer(self):
        lines = []
        while True:
            line = self.rfile.readline(65536)
            if not line or line in (b"\r\n", b"\n"):
                break
            lines.append(line)
        if not lines:
            return False
        self.requests += 1
        head = b"".join(lines)
        target = lines[0].split(b" ")[1].decode()
        parts = target.split("?")[0].strip("/").split("/")
        write = self.wfile.write
        try:
            kind = parts[0]
            if kind in ("keep", "keep-then-close"):
                body = body_of(parts[1])
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nX-Requests-On-Connection: %d\r\n\r\n"
                      % (len(body), self.requests) + body)
                self.wfile.flush()
                if kind == "keep":
                    return True
                time.sleep(0.3)
            elif kind == "file":
                body = body_of(parts[1])
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
            elif kind == "chunked":
                body = body_of(parts[1])
                write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                offset, size = 0, 1
                while offset < len(body):
                    piece = body[offset:offset + size]
                    write(b"%x;note=1\r\n" % len(piece) + piece + b"\r\n")
                    offset += len(piece)
                    size = size * 7 % 9000 + 1
                write(b"0\r\nX-Trailer: yes\r\n\r\n")
            elif kind == "close":
                write(b"HTTP/1.0 200 OK\r\n\r\n" + body_of(parts[1]))
            elif kind == "continue":
                body = body_of(parts[1])
                write(b"HTTP/1.1 100 Continue\r\n\r\n")
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            elif kind == "short":
                body = body_of(parts[1])
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (len(body) + 1000) + body)
            elif kind == "stall":
                body = body_of(parts[1])
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:4096])
                self.wfile.flush()
                time.sleep(120)
            elif kind == "redirect":
                left = int(parts[1])
                location = ("../%d/%s" % (left - 1, parts[2])) if left > 1 else ("/file/" + parts[2])
                write(b"HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n" % location.encode())
            elif kind == "absolute":
                scheme = "https" if tls else "http"
                host = self.server.server_address[0]
                host = "[%s]" % host if ":" in host else host
                location = "%s://%s:%d/file/%s" % (scheme, host, self.server.server_address[1], parts[1])
                write(b"HTTP/1.1 301 Moved\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n" % location.encode())
            elif kind == "cycle":
                other = "b" if parts[1] == "a" else "a"
                write(b"HTTP/1.1 302 Found\r\nLocation: /cycle/%s\r\nContent-Length: 0\r\n\r\n" % other.encode())
            elif kind == "echo":
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(head) + head)
            elif os.path.isfile(os.path.join(folder, target.strip("/"))):
                body = open(os.path.join(folder, target.strip("/")), "rb").read()
                write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            else:
                write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found")
        except (BrokenPipeError, ConnectionResetError):
            pass
        return False


class Server(socketserver.ThreadingTCPServer):
    address_family = family
    daemon_threads = True
    allow_reuse_address = True

    def get_request(self):
        connection, address = super().get_request()
        if tls:
            try:
                connection = tls.wrap_socket(connection, server_side=True)
            except (ssl.SSLError, OSError):
                # A client that rejects the certificate ends the handshake; the next one is served.
                connection.close()
                raise OSError("handshake failed")
        return connection, address


server = Server(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0), Handler)
print("PORT %d" % server.server_address[1], flush=True)
threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
server.serve_forever()
