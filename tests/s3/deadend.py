#!/usr/bin/env python3
"""Endpoints on 127.0.0.1 that never answer, for first-contact tests.

    deadend.py blackhole|silent SECONDS

blackhole: a listening socket whose accept queue is already full, so the
kernel drops every further SYN, as a firewall or an unroutable address
does (the connect times out). silent: connections are accepted and then
never get a byte (a hung proxy or load balancer). Prints the port, then
holds for SECONDS and exits by itself.
"""
import socket
import sys
import time

kind, hold = sys.argv[1], float(sys.argv[2])
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(0 if kind == "blackhole" else 64)
port = srv.getsockname()[1]
fillers = []
if kind == "blackhole":
    # backlog 0 still queues one connection: fill the queue, never accept
    for _ in range(2):
        c = socket.socket()
        c.setblocking(False)
        c.connect_ex(("127.0.0.1", port))
        fillers.append(c)
    time.sleep(0.2)
    probe = socket.socket()
    probe.settimeout(1.0)
    try:
        probe.connect(("127.0.0.1", port))
        sys.exit("deadend: the kernel accepted a connection past the full queue")
    except socket.timeout:
        pass
    finally:
        probe.close()
print(port, flush=True)
time.sleep(hold)
