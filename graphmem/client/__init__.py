"""``graphmem.client``: sync and async HTTP clients of the graphmem API, on httpx.

They send the project's own models, parse answers into them, raise the graphmem error of the API's
stable ``code`` (``NotFound``, ``Conflict``, ``Forbidden``...), time out each call (60 s by default)
and retry only what is safe to retry (``RetryPolicy``). Nothing here reads the environment: pass the
base URL and key in.
"""

from graphmem.client._clients import AsyncGraphMemClient, GraphMemClient
from graphmem.client._core import DEFAULT_TIMEOUT_S, Call, RetryPolicy, error_from, retry_after_s
from graphmem.client.models import CypherResult, EpisodeDetail, GroupSummary, SessionTurn, Timeline
from graphmem.models.browse import (
    EpisodeItem,
    EpisodePage,
    GroupPage,
    SessionDigest,
    SessionPage,
    SessionSummary,
)

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "AsyncGraphMemClient",
    "Call",
    "CypherResult",
    "EpisodeDetail",
    "EpisodeItem",
    "EpisodePage",
    "GraphMemClient",
    "GroupPage",
    "GroupSummary",
    "RetryPolicy",
    "SessionDigest",
    "SessionPage",
    "SessionSummary",
    "SessionTurn",
    "Timeline",
    "error_from",
    "retry_after_s",
]
