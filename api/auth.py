"""API keys, roles and the groups each key may touch.

``GRAPHMEM_API_KEYS`` holds a JSON list; each entry is one key::

    [{"key_sha256": "<64 hex>", "role": "agent", "groups": ["team-a", "team-b"], "name": "bot-1"},
     {"key_sha256": "<64 hex>", "role": "analyst"},
     {"key": "dev-only-plaintext", "role": "admin"}]

- ``key_sha256`` is the SHA-256 of the key (``printf %s KEY | sha256sum``); ``key`` (plain text, for
  local development) is hashed when loaded. Keys are never kept in plain text, logged or echoed.
- ``agent``: read and write only its ``groups`` (required, non-empty); no ``/v1/cypher``.
- ``analyst``: read every group, write none; may run read-only Cypher.
- ``admin``: everything, including forgetting a whole group.
- ``name`` (optional) is how logs refer to the key; otherwise the first 8 hex digits of its hash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from graphmem.errors import ConfigError, Forbidden, Unauthorized
from graphmem.models.common import GroupId

Role = Literal["agent", "analyst", "admin"]


@dataclass(frozen=True)
class Principal:
    """Who is calling: the key's public name, role and groups (``None`` = every group)."""

    key_id: str
    role: Role
    groups: frozenset[str] | None

    def can_read(self, group_id: str) -> bool:
        return self.groups is None or group_id in self.groups

    def can_write(self, group_id: str) -> bool:
        return self.role != "analyst" and self.can_read(group_id)

    def require_read(self, group_id: str) -> None:
        if not self.can_read(group_id):
            raise Forbidden("this key may not access that group", details={"group_id": group_id})

    def require_write(self, group_id: str) -> None:
        self.require_read(group_id)
        if not self.can_write(group_id):
            raise Forbidden("this key is read-only", details={"group_id": group_id, "role": self.role})

    def require_role(self, *roles: Role) -> None:
        if self.role not in roles:
            raise Forbidden("this key's role may not do that", details={"role": self.role})


LOCAL_ADMIN = Principal(key_id="no-auth", role="admin", groups=None)


class KeyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key_sha256: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]{64}$")
    key: SecretStr | None = Field(default=None, min_length=8)
    role: Role
    groups: list[GroupId] | None = None
    name: str | None = Field(default=None, max_length=64, pattern=r"^[\w.\-]+$")

    @model_validator(mode="after")
    def _check(self) -> KeyEntry:
        if (self.key is None) == (self.key_sha256 is None):
            raise ValueError("give exactly one of 'key_sha256' and 'key'")
        if self.role == "agent" and not self.groups:
            raise ValueError("an agent key needs a non-empty 'groups' list")
        if self.role != "agent" and self.groups is not None:
            raise ValueError("analyst and admin keys cover every group; remove 'groups'")
        return self

    def digest(self) -> str:
        if self.key is not None:
            return hash_key(self.key.get_secret_value())
        assert self.key_sha256 is not None
        return self.key_sha256.lower()


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyRing:
    """Maps the SHA-256 of a presented key to its ``Principal``."""

    def __init__(self, principals: dict[str, Principal]) -> None:
        self._by_digest = principals

    def __len__(self) -> int:
        return len(self._by_digest)

    @classmethod
    def from_json(cls, text: str) -> KeyRing:
        if not text.strip():
            return cls({})
        try:
            raw: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError("GRAPHMEM_API_KEYS is not valid JSON", details={"line": exc.lineno}) from exc
        if not isinstance(raw, list):
            raise ConfigError("GRAPHMEM_API_KEYS must be a JSON list of key entries")
        principals: dict[str, Principal] = {}
        for index, item in enumerate(raw):
            entry = _entry(index, item)
            digest = entry.digest()
            if digest in principals:
                raise ConfigError("GRAPHMEM_API_KEYS lists the same key twice", details={"entry": index})
            groups = frozenset(entry.groups) if entry.groups is not None else None
            principals[digest] = Principal(entry.name or f"key-{digest[:8]}", entry.role, groups)
        return cls(principals)

    def authenticate(self, key: str | None) -> Principal:
        if not key:
            raise Unauthorized("an API key is required (Authorization: Bearer <key> or X-API-Key)")
        principal = self._by_digest.get(hash_key(key))
        if principal is None:
            raise Unauthorized("the API key is not valid")
        return principal


def _entry(index: int, item: Any) -> KeyEntry:
    """Validate one entry; errors name fields and rules, never the values (they may hold keys)."""
    try:
        return KeyEntry.model_validate(item)
    except ValidationError as exc:
        problems = [
            {"field": ".".join(str(p) for p in e["loc"]) or "entry", "problem": e["msg"]}
            for e in exc.errors(include_input=False, include_url=False)
        ]
        raise ConfigError(
            f"GRAPHMEM_API_KEYS entry {index} is invalid", details={"entry": index, "errors": problems}
        ) from None


def presented_key(bearer: str | None, x_api_key: str | None) -> str | None:
    """The key from ``Authorization: Bearer <key>`` (preferred) or ``X-API-Key``."""
    for candidate in (bearer, x_api_key):
        if candidate and candidate.strip():
            return candidate.strip()
    return None
