#!/usr/bin/env python3
"""hostile.py: an S3 endpoint on 127.0.0.1 that misbehaves on purpose.

  hostile.py --mode silent --ready FILE   accepts connections, reads the
                                          request, never answers
  hostile.py --mode error  --ready FILE   answers every request with 403
                                          and an S3 error XML whose Code
                                          and Message carry terminal
                                          escapes (OSC 52 clipboard write,
                                          title change, screen clear), C1
                                          controls and bidi overrides

The port goes to FILE once listening. Ends by itself after --max-s
seconds (default 300), so a test that dies leaves nothing running.
"""
import argparse
import socket
import threading
import time

HOSTILE_CODE = ("Denied\x1b]52;c;cHduZWQ=\x07\x1b]0;owned\x07\x1b[2J"
                "\u202eevil\u2066\u200b\ufeff\u0085\u009b31m")
HOSTILE_MSG = ("Access\x1b[2J\x1b[H denied\x1b]52;c;Y2xpcA==\x1b\\ by "
               "\u202etnemucod\u202c policy\u009d0;t\u009c")


def error_body():
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>%s</Code>'
            '<Message>%s</Message><RequestId>1</RequestId></Error>'
            % (HOSTILE_CODE, HOSTILE_MSG)).encode("utf-8")


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return False
        data += chunk
    return True


def serve(conn, mode):
    try:
        while read_request(conn):
            if mode == "silent":
                time.sleep(3600)
                return
            body = error_body()
            conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Type: application/xml\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body) + body)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["silent", "error"], required=True)
    ap.add_argument("--ready", required=True)
    ap.add_argument("--max-s", type=float, default=300)
    a = ap.parse_args()
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    srv.settimeout(0.5)
    with open(a.ready + ".tmp", "w") as f:
        f.write(str(srv.getsockname()[1]))
    import os
    os.rename(a.ready + ".tmp", a.ready)
    end = time.time() + a.max_s
    while time.time() < end:
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn, a.mode), daemon=True).start()


if __name__ == "__main__":
    main()
