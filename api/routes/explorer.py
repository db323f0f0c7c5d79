"""The memory explorer: a static page (shipped in the package, no CDN) over the public API."""

from __future__ import annotations

from importlib import resources
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from graphmem.errors import NotFound

router = APIRouter(tags=["explorer"], include_in_schema=False)

ASSETS = {
    "index.html": "text/html; charset=utf-8",
    "explorer.js": "text/javascript; charset=utf-8",
    "explorer.css": "text/css; charset=utf-8",
}
# the page loads only its own assets and talks only to this origin's API
POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def _asset(name: str) -> Response:
    if name not in ASSETS:
        raise NotFound("no such explorer asset", details={"asset": name})
    body = resources.files("api").joinpath("explorer", name).read_bytes()
    headers = {
        "Content-Security-Policy": POLICY,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
    }
    return Response(content=body, media_type=ASSETS[name], headers=headers)


@router.get("/explorer")
async def explorer_page(
    group: Annotated[
        str | None, Query(max_length=128, description="The group to open (read by the page).")
    ] = None,
) -> Response:
    return _asset("index.html")


@router.get("/explorer/{name}")
async def explorer_asset(name: str) -> Response:
    return _asset(name)
