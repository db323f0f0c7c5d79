"""A keep-alive HTTP/1.1 client that times ``POST /v1/groups/{group}/search``, run as its own process
by ``eval.speed`` so the server under test has its event loop to itself, as it would in production
(a client in the server's loop adds its own work to every request it times).

Usage: ``python -m eval.http_probe PORT GROUP K WARMUP`` with the queries as a JSON list on stdin;
prints ``{"ms": [...], "search_ms": [...]}`` (per query after the warm-up: the latency seen here, and
the search's own ``timings_ms.total`` from the response, so their difference is what HTTP added to
that very request) or ``{"error": "..."}``.
Plain sockets rather than httpx: httpx added a constant ~44 ms per request here (``GET /healthz``
included) where curl and this client see 2-3 ms.
"""

from __future__ import annotations

import json
import socket
import sys
import time


class Client:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def post(self, path: str, payload: dict[str, object]) -> tuple[int, bytes]:
        body = json.dumps(payload).encode()
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        self.sock.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        status = int(self.file.readline().split()[1])
        length = 0
        while (line := self.file.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, self.file.read(length)

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def probe(port: int, group: str, k: int, warmup: int, queries: list[str]) -> dict[str, object]:
    client = Client(port)
    path = f"/v1/groups/{group}/search"
    try:
        for q in queries[:warmup]:
            status, text = client.post(path, {"query": q, "k": k})
            if status != 200:
                return {"error": f"POST {path} -> {status}: {text[:200]!r}"}
        ms, inside = [], []
        for q in queries:
            began = time.perf_counter()
            status, text = client.post(path, {"query": q, "k": k})
            ms.append((time.perf_counter() - began) * 1000)
            if status != 200:
                return {"error": f"POST {path} -> {status}: {text[:200]!r}"}
            inside.append(float(json.loads(text)["timings_ms"]["total"]))
        return {"ms": ms, "search_ms": inside}
    finally:
        client.close()


def main() -> None:
    port, group, k, warmup = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps(probe(port, group, k, warmup, json.load(sys.stdin))))


if __name__ == "__main__":
    main()
