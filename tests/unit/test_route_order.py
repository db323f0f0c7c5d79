"""The API's routers are matched hot-first (api.main.ROUTERS): that is safe only while no two routes
serve the same method and path, so that any order chooses the same route. Locks the class of bug
where a router moved to the front shadows another router's route (a literal segment such as
``/search`` taken by a ``{param}`` route of another router)."""

from __future__ import annotations

import re

from fastapi.routing import APIRoute

import api.main as main

# a parameter filled with a plain value, and with each literal segment of any route
LITERALS = {seg for r in main.ROUTERS for a in r.routes for seg in getattr(a, "path", "").split("/")}
FILLS = {"x"} | {seg for seg in LITERALS if seg and "{" not in seg}


def _routes() -> list[APIRoute]:
    return [route for router in main.ROUTERS for route in router.routes if isinstance(route, APIRoute)]


def test_no_two_routes_serve_the_same_method_and_path() -> None:
    routes = _routes()
    assert routes[0].path.endswith("/search")  # the hot routes come first
    samples = {
        (method, re.sub(r"\{[^}]+\}", fill, route.path))
        for route in routes
        for method in route.methods
        for fill in FILLS
    }
    for method, path in sorted(samples):
        serving = [r.path for r in routes if method in r.methods and r.path_regex.match(path)]
        assert len(serving) <= 1, (method, path, serving)
