"""The memory explorer in a real browser (Debian's Chromium driven by Playwright) against a real API
process: timeline with a supersession chain and quotes, a correction shown apart, the as-of slider,
the neighbourhood graph, the search playground and the session view, with Chinese text.

Screenshots go to ``$GRAPHMEM_ARTIFACTS`` (default ``.graphmem/artifacts``), not into the repository;
with ``GRAPHMEM_DOCS_IMG=1`` they are also written to docs/img for the README.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, Page, async_playwright, expect

from graphmem.config import Settings
from tests.api.servers import ROOT, Server, start_server

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("GRAPHMEM_ARTIFACTS", ROOT / ".graphmem" / "artifacts"))

if not Path(CHROMIUM).exists():  # .ci/run installs it; a developer machine may not have it
    pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

EPISODES = [
    {"external_id": "m1", "session_id": "s1", "speaker": "Alice", "reference_time": "2024-03-01T10:00:00Z",
     "content": "I just moved to Hangzhou. I work at Acme."},
    {"external_id": "m2", "session_id": "s2", "speaker": "Alice", "reference_time": "2024-09-15T10:00:00Z",
     "content": "We relocated to Shanghai last week."},
    {"external_id": "m3", "session_id": "s3", "speaker": "张伟", "reference_time": "2024-09-16T10:00:00Z",
     "content": "我住在北京，我不在阿里巴巴工作了。"},
]  # fmt: skip


@pytest.fixture(scope="module")
def server(settings: Settings) -> Iterator[Server]:
    assert settings.neo4j_uri
    running = start_server(settings.neo4j_uri, {"GRAPHMEM_NO_AUTH": "1"})
    yield running
    running.stop()


@pytest.fixture(scope="module")
def group(server: Server) -> str:
    """The README tour's group, plus a corrected fact (Acme -> Initech, said to be a mistake)."""
    gid = f"ex-{uuid.uuid4().hex[:10]}"
    base = f"{server.url}/v1/groups/{gid}"
    assert httpx.post(f"{base}/episodes", json={"episodes": EPISODES}, timeout=120).status_code == 201
    facts = httpx.get(f"{base}/facts", params={"subject": "Alice", "predicate": "works_at"}, timeout=30)
    fact = facts.json()["facts"][0]
    patched = httpx.patch(
        f"{base}/facts/{fact['id']}",
        json={"object": "Initech"},
        headers={"If-Match": str(fact["version"])},
        timeout=30,
    )
    assert patched.status_code == 200, patched.text
    return gid


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        await launched.close()


@pytest.fixture
async def page(browser: Browser, server: Server, group: str) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda e: errors.append(str(e)))
    await opened.goto(f"{server.url}/explorer?group={group}")
    await expect(opened.locator("#entities button").first).to_be_visible(timeout=30_000)
    yield opened
    await context.close()
    assert not errors, errors


def _keep(name: str, text: str | None = None) -> Path:
    """The artifact's path (its folder made); ``text`` is written to it when given."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    if text is not None:
        path.write_text(text)
    return path


async def _shot(page: Page, name: str) -> None:
    path = await asyncio.to_thread(_keep, name)
    await page.screenshot(path=str(path), full_page=True)
    if os.environ.get("GRAPHMEM_DOCS_IMG"):
        await asyncio.to_thread(shutil.copy, path, ROOT / "docs" / "img" / name)


async def _open_alice(page: Page) -> None:
    await page.locator("#entities button", has_text="Alice").first.click()
    await expect(page.locator("#timeline .bar")).not_to_have_count(0)


async def test_timeline_shows_the_chain_with_quotes_and_the_correction_apart(page: Page) -> None:
    await _open_alice(page)
    bars = page.locator("#timeline .bar")
    values = await bars.evaluate_all("bs => bs.map(b => b.dataset.value)")
    assert {"Hangzhou", "Shanghai", "Initech"} <= set(values)
    assert "Acme" not in values  # corrected: expired, listed apart
    await expect(page.locator("#expired li", has_text="Acme")).to_have_count(1)
    # Shanghai SUPERSEDES Hangzhou: one link drawn between their bars
    shanghai = await page.locator('#timeline .bar[data-value="Shanghai"]').get_attribute("data-fact-id")
    await expect(page.locator(f'#timeline path.supersedes[data-from="{shanghai}"]')).to_have_count(1)
    await expect(page.locator('#timeline .bar[data-value="Hangzhou"] a.evidence')).to_contain_text("Hangzhou")
    await _shot(page, "explorer-timeline.png")


async def test_the_as_of_slider_redraws_what_was_believed_then(page: Page) -> None:
    await _open_alice(page)
    # at the far left nothing had been recorded yet; at the right, everything current is back
    await page.locator("#asof").fill("0")
    await expect(page.locator("#timeline .bar")).to_have_count(0)
    await expect(page.locator("#expired li")).to_have_count(0)
    await page.locator("#asof").fill("1000")
    await expect(page.locator('#timeline .bar[data-value="Shanghai"]')).to_have_count(1)


async def test_evidence_opens_the_session_with_the_facts_each_turn_produced(page: Page) -> None:
    await _open_alice(page)
    await page.locator('#timeline .bar[data-value="Shanghai"] a.evidence').click()
    await expect(page.locator("#view-session")).to_be_visible()
    turn = page.locator("#turns li.highlight")
    await expect(turn).to_contain_text("We relocated to Shanghai")
    await expect(turn.locator(".fact-chip")).to_contain_text(["Shanghai"])


async def test_graph_shows_the_neighbourhood(page: Page) -> None:
    await _open_alice(page)
    await page.locator('#tabs button[data-tab="graph"]').click()
    await expect(page.locator("#graph .node.center")).to_have_count(1)
    await expect(page.locator("#graph .node", has_text="Shanghai")).to_have_count(1)
    labels = await page.locator("#graph .node text").all_text_contents()
    assert "Alice" in labels and "Shanghai" in labels
    assert "Hangzhou" not in labels  # the graph is what holds now, not the history
    await _shot(page, "explorer-graph.png")


async def test_search_playground_shows_hits_channels_and_context(page: Page) -> None:
    await page.locator('#tabs button[data-tab="search"]').click()
    await page.locator("#query").fill("张伟住在哪里")
    await page.locator("#search-form button").click()
    await expect(page.locator("#hits tbody tr").first).to_be_visible()
    await expect(page.locator("#context")).to_contain_text("北京")
    await expect(page.locator("#context-tokens")).to_contain_text("tokens")
    assert (await page.locator("#hits tbody tr .channels").first.text_content() or "").strip()
    await _shot(page, "explorer-search.png")


async def test_a_2000_fact_entity_renders(browser: Browser, server: Server) -> None:
    """Usability at 2,000 facts for one entity: the timeline draws them all; the time to first render
    is recorded (printed and in the artifacts), not asserted."""
    gid = f"ex-big-{uuid.uuid4().hex[:8]}"
    base = f"{server.url}/v1/groups/{gid}"
    async with httpx.AsyncClient(timeout=300) as client:
        # the largest batch the API takes (max_batch's default): 4 writes, not 20, for the same
        # 2,000 facts (per batch the write path's fixed work, mostly in Neo4j, is paid once)
        for start in range(0, 2000, 500):
            facts = [
                {
                    "subject": "Bob",
                    "predicate": "likes",
                    "object": f"Topic {i}",
                    "valid_from": f"20{10 + i % 14}-{1 + i % 12:02d}-01T00:00:00Z",
                }
                for i in range(start, start + 500)
            ]
            r = await client.post(f"{base}/facts", json={"facts": facts})
            assert r.status_code == 201, r.text
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(f"{server.url}/explorer?group={gid}")
    await page.locator("#entities button", has_text="Bob").first.click()
    await expect(page.locator("#timeline .bar")).to_have_count(2000, timeout=60_000)
    render_ms = await page.evaluate("window.__explorer.renderMs.timeline")
    await asyncio.to_thread(_keep, "explorer-2000-facts.txt", f"timeline render ms: {render_ms:.1f}\n")
    print(f"explorer: 2000-fact timeline rendered in {render_ms:.1f} ms")
    await context.close()
