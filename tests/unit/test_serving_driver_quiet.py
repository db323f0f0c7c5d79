"""The driver's RUN debug line: its parameters are formatted only while debug logging is on."""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

from graphmem.store import driver


class Counted:
    """A parameter value that counts how often it is formatted."""

    calls = 0

    def __repr__(self) -> str:
        Counted.calls += 1
        return "Counted()"


def _bolts() -> list[type[Any]]:
    """The newest Bolt class of every guarded module (the one a current server negotiates)."""
    found = []
    for name in driver.quiet_run_logging():
        module = importlib.import_module(name)
        classes = [c for c in vars(module).values() if inspect.isclass(c) and "run" in vars(c)]
        found.append(max(classes, key=lambda c: getattr(c, "PROTOCOL_VERSION", (0, 0))))
    return found


def _run(cls: type[Any], params: dict[str, Any]) -> list[Any]:
    bolt = object.__new__(cls)
    appended: list[Any] = []
    bolt.local_port = 1
    bolt._client_state_manager = mock.MagicMock()  # Bolt 4.4+: tracks the state, not the message
    bolt._append = lambda *args, **kw: appended.append(args)
    bolt.run("RETURN $x", params, dehydration_hooks={}, hydration_hooks={})
    return appended


@pytest.fixture
def io_log() -> Iterator[logging.Logger]:
    log = logging.getLogger("neo4j.io")
    level = log.level
    yield log
    log.setLevel(level)


def test_the_guarded_modules_include_the_current_bolt() -> None:
    assert "neo4j._async.io._bolt._bolt5" in driver.quiet_run_logging()


def test_run_does_not_format_parameters_with_debug_off(io_log: logging.Logger) -> None:
    io_log.setLevel(logging.INFO)
    for cls in _bolts():
        Counted.calls = 0
        appended = _run(cls, {"x": Counted(), "rows": [Counted(), Counted()]})
        assert Counted.calls == 0, cls.__name__
        assert appended, cls.__name__  # the message itself is still sent


def test_run_formats_parameters_when_debug_is_on(
    io_log: logging.Logger, caplog: pytest.LogCaptureFixture
) -> None:
    io_log.setLevel(logging.DEBUG)
    with caplog.at_level(logging.DEBUG, logger="neo4j.io"):
        for cls in _bolts():
            Counted.calls = 0
            _run(cls, {"x": Counted()})
            assert Counted.calls == 1, cls.__name__
    assert any("C: RUN 'RETURN $x' {'x': Counted()}" in r.getMessage() for r in caplog.records)


def test_the_shadow_is_repr_while_debug_is_on(io_log: logging.Logger) -> None:
    io_log.setLevel(logging.DEBUG)
    assert driver._run_field_repr([1.5, "a"]) == repr([1.5, "a"])
    io_log.setLevel(logging.WARNING)
    assert driver._run_field_repr([1.5, "a"]) == driver.QUIET
