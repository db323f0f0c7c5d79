"""Graph probe: what entity-centred search would add, replayed over a ``eval.fusion_replay`` capture.

LoCoMo questions name one of the two speakers almost always ("When did Caroline go to the LGBTQ
support group?"), and the turns that answer are that speaker's own: of the 885 dev QA of ids 1-4,
793 name exactly one speaker, and 1,113 of their 1,153 evidence turns are spoken by that speaker
(18 more mention the name). A speaker's name is in about half of the conversation's turns, so BM25
gives it almost no weight (idf about ln 2) and the vectors none. This probe replays a capture as the
executor does (``eval.fusion_replay.replay``) with one change after fusion: every candidate whose
speaker is a name the question says (``focus.focus_terms``; ``--rule speaker``: the conversation's
speakers the question names) has its fused logit raised by ``w`` (``--weights``), as
``pipeline._Run._focus`` does; ``--own-words``: a turn that says the name counts too.

    python -m eval.graph_probe out/graph/cap-a.pkl:conv-26,conv-30,conv-41 --locomo-prefix graph-locomo
    python -m eval.graph_probe live --conversations conv-30 --focus 0,1   # GraphMemory.search itself
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import math
import pickle
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from eval import locomo
from eval.fusion_replay import Capture, Captured, channel_rankings, fusion_inputs
from eval.locomo_data import load as load_locomo
from graphmem.retrieval import fusion
from graphmem.retrieval.config import RECIPES, SearchConfig
from graphmem.retrieval.focus import focus_terms
from graphmem.retrieval.fusion import Key, fuse, rerank
from graphmem.text import analyze

K = 25
_WORD = re.compile(r"[A-Za-z][\w'-]*")


def _logit(p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return math.log(p / (1 - p))


def replay_focus(
    q: Captured,
    cfg: SearchConfig,
    matches: Mapping[Key, bool],
    w: float,
    *,
    pool: int | None = None,
    k: int = K,
) -> list[str]:
    rankings = channel_rankings(q, cfg)
    keyed, scores, weights = fusion_inputs(rankings, cfg)
    fused = fuse(keyed, scores, weights, cfg)
    if w and matches:
        fused = {
            key: (1 / (1 + math.exp(-(_logit(v) + w))) if matches.get(key) else v) for key, v in fused.items()
        }
    top = sorted(fused, key=lambda key: (-fused[key], key))[: pool or max(k * 3, 30)]
    order, _ = rerank(top, fused, q.features, cfg, newest=q.as_of, limit=k)
    out: dict[str, None] = {}
    for key in order:
        for ext in q.external.get(key, ()):
            out.setdefault(ext, None)
    return list(out)[:k]


def focus_names(question: str, speakers: set[str]) -> list[str]:
    return [w for w in dict.fromkeys(_WORD.findall(question)) if w in speakers]


async def _live(args: argparse.Namespace) -> None:
    """Named recipes and the default with ``weights["focus"]`` at each weight, searched live
    (GraphMemory.search at NEO4J_URI, over groups ingested with ``--keep``) side by side."""
    from eval.retrievers import config_retriever
    from graphmem.config import Settings
    from graphmem.memory import GraphMemory

    data = load_locomo(args.locomo, group_prefix=args.locomo_prefix, conversations=args.conversations)
    memory = await GraphMemory.from_settings(Settings())
    try:
        runs: list[tuple[str, SearchConfig]] = [(n, RECIPES[n]) for n in args.recipes.split(",") if n]
        for w in (float(x) for x in args.focus.split(",") if x):
            base = RECIPES["default"]
            runs.append(
                (f"default, focus {w:g}", base.model_copy(update={"weights": {**base.weights, "focus": w}}))
            )
        for name, cfg in runs:
            retriever = config_retriever(name, memory, cfg)
            for conv in data.conversations:
                await retriever.prepare(conv.group_id)
            res = await locomo.score_retriever(retriever, data, (1, 5, 10, 25))
            r = res["recall"]["1-4"]
            lat = res.get("search_ms") or {}
            print(
                f"| {name} | "
                + " / ".join(f"{100 * r[k]:.1f}" for k in ("1", "5", "10", "25"))
                + f" | {lat} |",
                flush=True,
            )
    finally:
        await memory.close()


def main(argv: Sequence[str] | None = None) -> None:
    import sys

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["live"]:
        q = argparse.ArgumentParser(prog="python -m eval.graph_probe live")
        q.add_argument("--locomo", default="../shared/data/locomo/locomo_dev.json")
        q.add_argument("--locomo-prefix", default="graph-locomo")
        q.add_argument("--conversations", type=lambda s: s.split(","), default=None)
        q.add_argument("--focus", default="1", help="focus weights over the default recipe")
        q.add_argument("--recipes", default="hybrid,default", help="named recipes beside them")
        asyncio.run(_live(q.parse_args(argv[1:])))
        return
    p = argparse.ArgumentParser(prog="python -m eval.graph_probe")
    p.add_argument(
        "files", nargs="+", help="capture files, each FILE or FILE:conv-26,conv-30 (its --conversations)"
    )
    p.add_argument("--locomo", default="../shared/data/locomo/locomo_dev.json")
    p.add_argument("--locomo-prefix", default="graph-locomo")
    p.add_argument("--weights", default="0,0.5,1,2,4")
    p.add_argument("--recipes", default="default,hybrid")
    p.add_argument("--own-words", action="store_true", help="a turn that says the name counts too")
    p.add_argument("--only", type=lambda s: s.split(","), default=None, help="only these sample ids")
    p.add_argument(
        "--rule", choices=("caps", "speaker"), default="caps", help="focus.focus_terms, or the speakers"
    )
    args = p.parse_args(argv)
    fusion.tokens = functools.lru_cache(maxsize=None)(fusion.tokens)
    loco = load_locomo(args.locomo, group_prefix=args.locomo_prefix)
    caught: list[tuple[Captured, Any, Any]] = []
    for spec in args.files:
        path, _, only = spec.partition(":")
        part = load_locomo(
            args.locomo, group_prefix=args.locomo_prefix, conversations=only.split(",") if only else None
        )
        questions = [(conv, qa) for conv in part.conversations for qa in conv.questions]
        cap: Capture = pickle.loads(Path(path).read_bytes())
        caught += [(c, *questions[c.index]) for c in cap.questions if c.dataset == "locomo"]
    turns: dict[str, dict[str, Any]] = {}
    speakers: dict[str, set[str]] = {}
    for conv in loco.conversations:
        speakers[conv.group_id] = {e.speaker for e in conv.episodes if e.speaker}
        turns[conv.group_id] = {e.external_id: e for e in conv.episodes if e.external_id}
    named = 0
    prepared = []
    for c, conv, qa in caught:
        if args.only and conv.sample_id not in args.only:
            continue
        if args.rule == "speaker":
            terms = {t for n in focus_names(qa.question, speakers[conv.group_id]) for t in analyze(n)}
        else:
            terms = set(focus_terms(qa.question))
        matches: dict[Key, bool] = {}
        if terms:
            named += 1
            for key, ext in c.external.items():
                if key[0] != "episode":
                    continue
                ep = turns[conv.group_id].get(ext[0]) if ext else None
                words = set(analyze(ep.speaker if ep and ep.speaker else ""))
                f = c.features.get(key)
                if args.own_words and f is not None:
                    words |= set(analyze(f.text))
                matches[key] = bool(terms & words)
        prepared.append((c, qa, matches))
    print(f"{len(prepared)} LoCoMo questions, {named} centred on a speaker")
    print("| recipe | w | R@1/5/10/25 |")
    print("| --- | --- | --- |")
    for name in args.recipes.split(","):
        cfg = RECIPES[name]
        for w in (float(x) for x in args.weights.split(",")):
            tally = locomo._Tally((1, 5, 10, 25))
            for c, qa, matches in prepared:
                tally.add(qa.category, qa.evidence, replay_focus(c, cfg, matches, w), 0.0)
            r = tally.result("probe", 0, None)["recall"]["1-4"]
            print(
                f"| {name} | {w:g} | "
                + " / ".join(f"{100 * r[k]:.1f}" for k in ("1", "5", "10", "25"))
                + " |"
            )


if __name__ == "__main__":
    main()
