#!/usr/bin/env python3
"""A TCP server on 127.0.0.1 that accepts every connection and never
answers: the worst S3 endpoint (a GET that hangs after connecting).
Prints its port on stdout, then serves until killed."""
import socket
import sys

s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept()
    held.append(c)   # kept open, never read from or written to
    if len(held) > 1000:
        sys.exit(0)
