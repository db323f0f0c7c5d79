"""Bind checks (no-auth only on loopback)."""

from __future__ import annotations

import ipaddress

from graphmem.config import Settings


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings) -> str | None:
    """Return why this configuration may not be served, or None."""
    if settings.no_auth and not is_loopback(settings.host):
        return (
            f"GRAPHMEM_NO_AUTH is only allowed on a loopback bind, not {settings.host}; "
            "configure GRAPHMEM_API_KEYS instead"
        )
    return None
