"""A keep-alive HTTP/1.1 client that times ``POST /v1/groups/{group}/search``, run as its own process
by ``eval.speed`` so the server under test has its event loop to itself, as it would in production
(a client in the server's loop adds its own work to every request it times).

Usage: ``python -m eval.http_probe PORT GROUP K WARMUP`` with the queries as a JSON list on stdin;
prints ``{"ms": [...], "search_ms": [...]}`` (per query after the warm-up: the latency seen here, and
the search's own ``timings_ms.total`` from the response, so their difference is what HTTP added to
that very request) or ``{"error": "..."}``.
Plain sockets rather than httpx: httpx added a constant ~44 ms per request here (``GET /healthz``
included) where curl and this client see 2-3 ms. ``AsyncClient`` is the same client on asyncio
streams, for drivers with several concurrent clients (``eval.tenants``).
"""

from __future__ import annotations

import asyncio
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


class AsyncClient:
    """One keep-alive loopback connection on asyncio streams (``TCP_NODELAY``); ``post`` raises
    ``OSError`` (a dropped connection included) or ``TimeoutError``, then reconnects on the next."""

    def __init__(self, port: int, timeout_s: float = 60.0) -> None:
        self.port, self.timeout_s = port, timeout_s
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            sock = self.writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return self.reader, self.writer

    async def post(self, path: str, payload: dict[str, object]) -> tuple[int, bytes]:
        try:
            return await asyncio.wait_for(self._post(path, payload), self.timeout_s)
        except BaseException:
            await self.close()  # the connection's state is unknown: start afresh
            raise

    async def _post(self, path: str, payload: dict[str, object]) -> tuple[int, bytes]:
        reader, writer = await self._connect()
        body = json.dumps(payload).encode()
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()
        line = await reader.readline()
        if not line:
            raise ConnectionResetError("the server closed the connection")
        status, length, close = int(line.split()[1]), 0, False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        data = await reader.readexactly(length)
        if close:
            await self.close()
        return status, data

    async def close(self) -> None:
        writer, self.reader, self.writer = self.writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass


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
