"""The PII vault (admin keys only): reveal the original behind a token; every reveal is logged."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from api.deps import AdminGroup, MemoryDep
from api.schemas.common import errors
from api.schemas.privacy import PiiRevealResponse
from graphmem.privacy.redactor import TOKEN_RE

router = APIRouter(prefix="/v1/groups/{group}", tags=["privacy"])

TokenPath = Annotated[
    str,
    Path(
        pattern=TOKEN_RE.pattern.replace("\\[", "^\\[", 1) + "$",
        max_length=40,
        description="A PII token as it appears in stored text, e.g. `[EMAIL#3f2a9c01b2de]`.",
        examples=["[EMAIL#3f2a9c01b2de]"],
    ),
]


@router.get(
    "/pii/{token}",
    operation_id="reveal_pii",
    summary="Reveal the original behind a PII token (admin)",
    description=(
        "With `GRAPHMEM_PII_REDACT` on, emails, phone numbers, card numbers, Chinese resident IDs, "
        "IBANs and IP addresses are stored as per-group tokens and their originals only in the "
        "group's encrypted vault. This decrypts one. Requires an admin key; every reveal appends a "
        "`pii_revealed` record (actor, token, kind; never the value) to the change log, even when "
        "the change log is switched off. 404 when the group's vault holds no such token."
    ),
    responses=errors(404),
)
async def reveal_pii(group: AdminGroup, token: TokenPath, memory: MemoryDep) -> PiiRevealResponse:
    revealed = await memory.reveal_pii(group, token)
    return PiiRevealResponse.model_validate(revealed.model_dump())
