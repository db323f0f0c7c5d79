"""``/docs``: Swagger UI served from the ``swagger-ui-bundle`` package, so it works offline.

FastAPI's default page loads Swagger UI's JavaScript and CSS from a CDN and is blank without the
internet; here the same files come from the installed package, under ``/docs/assets``.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

DOCS_URL = "/docs"
ASSETS_URL = f"{DOCS_URL}/assets"


def install_docs(app: FastAPI) -> None:
    """Mount the packaged Swagger UI assets and the ``/docs`` page that uses them."""
    app.mount(ASSETS_URL, StaticFiles(directory=swagger_ui_path), name="swagger-ui-assets")

    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - API docs",
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_URL}/favicon-32x32.png",
        )

    app.add_api_route(DOCS_URL, swagger_ui, methods=["GET"], include_in_schema=False)
