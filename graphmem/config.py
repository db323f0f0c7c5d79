"""Settings, read once from the environment at the edge (api/, ingest/, the CLI) and passed inward.

Nothing in graphmem reads the environment except ``Settings()`` here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from graphmem.errors import ConfigError


def _env(*names: str) -> AliasChoices:
    return AliasChoices(*names)


def _variable(loc: tuple[int | str, ...]) -> str:
    name = str(loc[0]) if loc else "settings"
    field = Settings.model_fields.get(name)
    alias = field.validation_alias if field is not None else None
    if isinstance(alias, AliasChoices):
        return str(alias.choices[0])
    return f"GRAPHMEM_{name.upper()}"


def _problems(exc: ValidationError) -> list[dict[str, str]]:
    return [
        {"variable": _variable(e["loc"]), "problem": e["msg"]}
        for e in exc.errors(include_input=False, include_url=False)
    ]


def _settings_problem(exc: ValidationError) -> str:
    return "; ".join(f"{p['variable']}: {p['problem']}" for p in _problems(exc))


class Settings(BaseSettings):
    """All configuration; see the README's configuration table."""

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", extra="ignore", populate_by_name=True)

    def __init__(self, **values: Any) -> None:
        """A bad variable (``GRAPHMEM_NO_AUTH=`` empty) is a ``ConfigError`` naming it and the
        rule, one line at every edge, never a traceback; values are not echoed (they may be keys)."""
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise ConfigError(_settings_problem(exc), details={"errors": _problems(exc)}) from None

    # Neo4j: an external server when NEO4J_URI is set, else the local launcher.
    neo4j_uri: str | None = Field(default=None, validation_alias=_env("NEO4J_URI"))
    neo4j_user: str = Field(default="neo4j", validation_alias=_env("NEO4J_USER"))
    neo4j_password: SecretStr | None = Field(default=None, validation_alias=_env("NEO4J_PASSWORD"))
    neo4j_database: str = Field(default="neo4j", validation_alias=_env("NEO4J_DATABASE"))

    home: Path = Path(".graphmem")
    neo4j_dir: Path | None = None
    cache_dir: Path = Path.home() / ".cache" / "graphmem"
    neo4j_host: str = "127.0.0.1"
    neo4j_port: int = 7687
    # Neo4j's HTTP API and Neo4j Browser (http://host:port/browser/) on the local Neo4j; 0 = Bolt only
    neo4j_http_port: int = Field(default=7474, ge=0, le=65535)
    neo4j_heap: str = "1g"
    neo4j_pagecache_mb: int = 512
    neo4j_auth: bool = False
    neo4j_start_timeout_s: float = 120.0
    # runaway-query bounds on the local Neo4j (neo4j-launcher): db.transaction.timeout for
    # transactions that set none, db.memory.transaction.max per transaction and
    # dbms.memory.transaction.total.max for all (MB, 0 = unset), and the reaper's grace: the thread of
    # a query terminated this long ago that still runs is stopped (0 = off)
    neo4j_tx_timeout_s: int = 600
    neo4j_tx_memory_mb: int = 512
    neo4j_tx_total_memory_mb: int = 700
    neo4j_stuck_query_grace_s: float = 2.0
    java_home: Path | None = Field(default=None, validation_alias=_env("JAVA_HOME"))

    # queries arriving while one is embedded share the next model call; this extra wait lets more
    # join a call (0 = none, so a lone search pays nothing)
    query_batch_window_ms: float = Field(default=0.0, ge=0, le=50)
    query_batch: bool = True  # false: every search embeds its query alone (to measure the batching)
    # query vectors of the most recently searched texts, kept per process (0 = no cache)
    query_cache_size: int = Field(default=1024, ge=0)
    # write admission (graphmem/memory/write_gate.py): writes to one group queue in the process, FIFO;
    # past these depths, or after waiting this long, a write gets 429 overloaded with Retry-After
    write_queue_per_group: int = Field(default=256, ge=1)
    write_queue_total: int = Field(default=2048, ge=1)
    write_wait_s: float = Field(default=30.0, gt=0)
    # group commit: queued writes to any group share one transaction (arrival order, group locks
    # in sorted order), up to this many (1 = off)
    write_batch_max: int = Field(default=32, ge=1)
    # embed new entity names and fact statements before the group lock, not inside the transaction
    write_embed_ahead: bool = True
    embedder: str = "minilm"
    # hashing's size, and the size the openai embedder must answer (required there; checked on the
    # first response); for minilm and local the model fixes it (a set value must agree)
    embedding_dimension: int = Field(
        default=384, validation_alias=_env("GRAPHMEM_EMBED_DIMENSION", "GRAPHMEM_EMBEDDING_DIMENSION")
    )
    embed_threads: int = 1
    # minilm/local: a stored text over the model's window embedded as the mean of its windows
    embed_long_text: bool = False
    embed_base_url: str | None = None  # openai: e.g. http://127.0.0.1:11434/v1 (Ollama)
    embed_model: str | None = None  # openai: the model to request; local: the name recorded in the graph
    embed_api_key: SecretStr | None = None
    embed_batch_size: int = 32  # openai: texts per request
    embed_concurrency: int = 4  # openai: requests in flight at once, shared by the process
    embed_timeout_s: float = 30.0
    embed_max_retries: int = 3
    embed_encoding: str = "base64"  # openai: how vectors travel (base64 float32, or float lists)
    embed_send_dimensions: bool = False  # openai: request "dimensions" (text-embedding-3-*)
    embed_model_dir: Path | None = None  # local: a sentence-transformers directory
    embed_query_prefix: str = ""  # e5-style models: "query: "
    embed_passage_prefix: str = ""  # e5-style models: "passage: "
    extractor: str = "rules"
    extract_processes: int = Field(default=0, ge=0, le=64)  # rules: worker processes (0: in process)
    llm_base_url: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = 30.0
    llm_max_retries: int = 2

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    api_keys: str = ""
    no_auth: bool = False
    max_batch: int = 500
    max_body_bytes: int = 5_000_000
    # admission (api/admission.py): API requests running at once per worker, waiting behind them,
    # and the longest wait; past them 429 overloaded with Retry-After (max_in_flight 0 = no bound)
    max_in_flight: int = Field(default=32, ge=0)
    max_queued: int = Field(default=64, ge=0)
    queue_wait_s: float = Field(default=2.0, gt=0)
    # MCP at /mcp: the Host/Origin headers it accepts (comma-separated; "*" = no check). Unset: the
    # loopback names on a loopback bind, no check on another bind (docs/mcp.md, 421)
    mcp_allowed_hosts: str = ""
    mcp_allowed_origins: str = ""

    cypher_timeout_s: float = 10.0
    cypher_row_cap: int = 10_000

    vector_exact_threshold: int = 1_000
    # the in-process tenant index (graphmem/retrieval/tenant_index): on by default; off = every
    # channel queries Neo4j. Tenants up to index_sync_limit nodes load on their first search, bigger
    # ones in the background; past index_max_nodes in all, the least recently used are dropped.
    search_index: bool = True
    index_max_nodes: int = 1_000_000
    index_sync_limit: int = 5_000
    index_ann_threshold: int = 10_000
    index_max_bytes: int | None = None  # the indexes' byte budget per worker (None: nodes only)
    # the index's vector matrices: int8 rows + an int8 residual for rescoring (half of f32), or f32
    index_vectors: Literal["i8", "f32"] = "i8"
    # tenant index snapshots (graphmem/retrieval/tenant_index/persist.py): a cold load reads the
    # group's file and catches up from the change feed instead of loading from Neo4j; on by
    # default in home/index-snapshots, the coldest files evicted past index_snapshot_max_bytes
    index_snapshots: bool = True
    index_snapshot_dir: Path | None = None  # None: home / "index-snapshots"
    index_snapshot_max_bytes: int = Field(default=2 << 30, gt=0)
    search_default_k: int = 10
    # the change log (graphmem/memory/changes.py): a :Change record per state change, written in
    # the change's own transaction; false = none are written (reads of the log return what exists)
    change_log: bool = True
    # PII redaction on write (graphmem/privacy, docs/lifecycle.md): emails, phones, cards, Chinese
    # resident IDs, IBANs and IP addresses become per-group tokens before anything stores, embeds,
    # extracts or indexes the text; originals only in the AES-GCM vault under pii_key
    pii_redact: bool = False
    pii_key: SecretStr | None = None
    # where exports and backups are kept: the proof of forgetting scans it (graphmem proof)
    export_dir: Path | None = None

    decay_half_life_days: float = 90.0
    archive_threshold: float = 0.05
    archive_min_idle_days: float = 180.0

    @property
    def index_snapshot_path(self) -> Path | None:
        """The tenant index snapshot directory; None when snapshots are off."""
        if not self.index_snapshots:
            return None
        return self.index_snapshot_dir or (self.home / "index-snapshots")

    @property
    def neo4j_data_dir(self) -> Path:
        return self.neo4j_dir or (self.home / "neo4j")

    @property
    def local_uri(self) -> str:
        return f"bolt://{self.neo4j_host}:{self.neo4j_port}"

    @property
    def effective_uri(self) -> str:
        return self.neo4j_uri or self.local_uri

    @property
    def neo4j_auth_tuple(self) -> tuple[str, str] | None:
        if self.neo4j_password is None:
            return None
        return (self.neo4j_user, self.neo4j_password.get_secret_value())
