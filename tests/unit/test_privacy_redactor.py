"""Tokens and the vault cipher (graphmem/privacy/redactor.py) and their configuration."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.errors import ConfigError, InvalidInput
from graphmem.privacy import TOKEN_RE, Redactor, redactor_from_settings, tokens_in

KEY = "unit-test-vault-key-0123456789"


def test_tokens_are_stable_per_group_and_differ_across_groups() -> None:
    r = Redactor(KEY)
    a = r.redact("g1", "write to alice@example.com or Alice@Example.com")
    b = r.redact("g2", "write to alice@example.com")
    assert "alice" not in a.text.lower() and len(tokens_in(a.text)) == 1
    assert tokens_in(a.text) != tokens_in(b.text)
    assert r.redact("g1", "alice@example.com").text in a.text  # a search finds the same token
    assert [f.value for f in a.found] == ["alice@example.com", "Alice@Example.com"]
    assert TOKEN_RE.fullmatch(a.found[0].token)


def test_redaction_is_idempotent_and_keeps_the_rest_of_the_text() -> None:
    r = Redactor(KEY)
    once = r.redact("g", "电话13812345678，卡号4111 1111 1111 1111。谢谢")
    assert once.text.startswith("电话[PHONE#") and once.text.endswith("]。谢谢")
    again = r.redact("g", once.text)
    assert again.text == once.text and again.found == []


def test_off_redacts_nothing() -> None:
    assert Redactor(KEY, enabled=False).redact("g", "alice@example.com").text == "alice@example.com"


def test_the_vault_cipher_is_bound_to_group_token_and_key() -> None:
    r = Redactor(KEY)
    sealed = r.seal("g", "[EMAIL#0123456789ab]", "alice@example.com")
    assert "alice" not in str(sealed)
    assert r.open("g", "[EMAIL#0123456789ab]", **sealed) == "alice@example.com"
    with pytest.raises(InvalidInput):
        r.open("other", "[EMAIL#0123456789ab]", **sealed)
    with pytest.raises(InvalidInput):
        Redactor(KEY + "x").open("g", "[EMAIL#0123456789ab]", **sealed)


def test_configuration() -> None:
    assert redactor_from_settings(Settings()) is None
    with pytest.raises(ConfigError, match="GRAPHMEM_PII_KEY"):
        redactor_from_settings(Settings(pii_redact=True))
    with pytest.raises(ConfigError, match="at least 16"):
        redactor_from_settings(Settings(pii_redact=True, pii_key="short"))
    on = redactor_from_settings(Settings(pii_redact=True, pii_key=KEY))
    assert on is not None and on.enabled
    reveal_only = redactor_from_settings(Settings(pii_key=KEY))
    assert reveal_only is not None and not reveal_only.enabled
