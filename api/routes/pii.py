"""Privacy (admin keys only): reveal the original behind a PII token (every reveal is logged), and
the proof of forgetting of a group or an external id."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path
from pydantic import BaseModel, ConfigDict, Field

from api.deps import AdminGroup, MemoryDep, SettingsDep
from api.schemas.common import errors
from api.schemas.privacy import ForgetProofResponse, PiiRevealResponse
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


class ProofRequest(BaseModel):
    """What to prove forgotten: the whole group (empty body), or one ``external_id``; ``probes``
    are texts the caller knows were forgotten (looked for in every store, tokenised like stored
    text). In the body, not the URL: probes may be personal data."""

    model_config = ConfigDict(extra="forbid")

    external_id: str | None = Field(default=None, min_length=1, max_length=500)
    probes: list[str] = Field(default_factory=list, max_length=50)


@router.post(
    "/forget-proof",
    operation_id="forget_proof",
    summary="Proof of forgetting (admin)",
    description=(
        "Looks in every store a group's content can live in and reports what each still holds: "
        "`graph`, `fulltext`, `vector`, `tenant_index` (this worker's), `change_log` (payloads "
        "with content), `vault` (PII originals no remaining text names), `export_dir` "
        "(`GRAPHMEM_EXPORT_DIR`: exports and backups, copies a forget cannot reach) and "
        "`tombstones` (keys and hashes only). `forgotten` is true when every store that holds "
        "content (the export directory aside) found nothing. Writes nothing."
    ),
    responses=errors(),
)
async def forget_proof(
    group: AdminGroup,
    memory: MemoryDep,
    settings: SettingsDep,
    body: Annotated[ProofRequest | None, Body()] = None,
) -> ForgetProofResponse:
    request = body or ProofRequest()
    proof = await memory.forget_proof(
        group, external_id=request.external_id, probes=request.probes, export_dir=settings.export_dir
    )
    return ForgetProofResponse.model_validate(proof.model_dump())
