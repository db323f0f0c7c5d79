"""``graphmem eval load`` starts measuring once every worker is warm (eval.load._wait_ready)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from eval import load


class _Process:
    def poll(self) -> int | None:
        return None


def test_it_waits_for_every_worker_not_the_first_ready_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (issue 17, workers): with two workers the load began when one answered ready,
    while the other still loaded its model; that warm-up's CPU went into the first client count
    (122 ms a request, a negative CPU per search)."""
    answers: list[Any] = [
        httpx.ConnectError("refused"),
        (503, {}),
        (200, {"status": "ready", "worker": 11}),
        (200, {"status": "ready", "worker": 11}),
        (200, {"status": "ready", "worker": 12}),
    ]
    asked: list[str] = []

    def get(url: str, timeout: float) -> httpx.Response:
        asked.append(url)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return httpx.Response(answer[0], json=answer[1])

    monkeypatch.setattr(load.httpx, "get", get)
    monkeypatch.setattr(load.time, "sleep", lambda _: None)
    load._wait_ready("http://127.0.0.1:1", _Process(), workers=2)  # type: ignore[arg-type]
    assert not answers and len(asked) == 5


def test_a_server_that_exits_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Exited:
        def poll(self) -> int:
            return 1

    with pytest.raises(RuntimeError, match="did not become ready"):
        load._wait_ready("http://127.0.0.1:1", Exited(), workers=1)  # type: ignore[arg-type]
