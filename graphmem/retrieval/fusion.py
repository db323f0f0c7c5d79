"""Pure ranking functions: weighted reciprocal rank fusion, recency/confidence boosts, MMR."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from graphmem.retrieval.config import SearchConfig

Key = tuple[str, str]  # (type, id)
_WORD = re.compile(r"\w+", re.UNICODE)
DAY_S = 86400.0
ZSCORE_PRIOR = 3.0  # pseudo-candidates of the z-score shrinkage (``zscore``)


@dataclass(frozen=True, slots=True)
class Features:
    """What the rerank reads of a candidate: its time (epoch seconds: a fact's ``valid_from``, else
    its ``recorded_at``; an episode's reference time; None for entities), a fact's confidence and
    tier (0 and stated for the others) and the text MMR compares."""

    when: float | None
    confidence: float
    inferred: bool
    text: str
    speaker: str | None = None  # an episode's speaker (a name or a chat role), for speaker_weight


def rerank(
    keys: Sequence[Key],
    fused: Mapping[Key, float],
    features: Mapping[Key, Features],
    how: SearchConfig,
    *,
    newest: float | None,
    limit: int,
    focus: float | None = None,
    speakers: frozenset[str] = frozenset(),
) -> tuple[list[Key], dict[Key, float]]:
    """Boost the fused scores by recency (relative to ``newest``, else the newest candidate),
    closeness to the query's time ``focus`` (epoch seconds), confidence and, by ``speaker_weight``,
    an episode told by one of the ``speakers`` the query points at (``intent.named_speakers``),
    damp inferred facts, then order by MMR over the texts' words. Returns the first ``limit`` keys
    in order and every key's boosted score."""
    keys = [k for k in keys if k in features]
    if newest is None:
        newest = max((w for k in keys if (w := features[k].when) is not None), default=None)
    scores: dict[Key, float] = {}
    for key in keys:
        f = features[key]
        recency = recency_boost(f.when, newest, half_life_days=how.recency_half_life_days)
        boost = how.recency_weight * recency + how.confidence_weight * f.confidence
        if focus is not None and f.when is not None:
            boost += how.time_weight * math.exp(-abs(f.when - focus) / (how.time_window_days * DAY_S))
        if speakers and f.speaker is not None and f.speaker.casefold() in speakers:
            boost += how.speaker_weight
        scores[key] = fused[key] * (1.0 + boost) * (how.inferred_factor if f.inferred else 1.0)
    toks = {k: tokens(features[k].text) for k in keys}
    if how.newer_similarity is not None:
        scores = prefer_newer(scores, features, toks, how.newer_similarity, min_words=how.newer_min_words)
    order = mmr(
        sorted(keys, key=lambda k: -scores[k]),
        scores,
        lambda a, b: jaccard(toks[a], toks[b]),
        lam=how.mmr_lambda,
        limit=limit,
    )
    return order, scores


NEWER_GAP_S = DAY_S  # two items at least this far apart are an older and a newer telling
NEWER_POOL = 30  # prefer_newer compares the best this many candidates pairwise


def prefer_newer(
    scores: Mapping[Key, float],
    features: Mapping[Key, Features],
    toks: Mapping[Key, frozenset[str]],
    threshold: float,
    *,
    min_words: int = 0,
) -> dict[Key, float]:
    """A later telling of the same thing ranks just above the earlier one: of two candidates among
    the best ``NEWER_POOL`` whose words overlap by at least ``threshold`` (Jaccard) and whose times
    are a day or more apart, the newer one gets at least the older one's score (plus 1%). Each
    lift reads the scores before any lift, so lifts do not chain. What changed since ("I got it
    serviced at the shop on Main St" after "I'll take it to a shop") is what a user asks about.
    Texts of fewer than ``min_words`` distinct words take no part: two short chat lines share a
    quarter of their words by chance ("yeah", "that", "so"), two long ones only when they tell
    the same thing."""
    out = dict(scores)
    best = sorted(scores, key=lambda k: -scores[k])[:NEWER_POOL]
    for i, older in enumerate(best):
        t_old = features[older].when
        if t_old is None or len(toks[older]) < min_words:
            continue
        for newer in best[i + 1 :]:
            t_new = features[newer].when
            if t_new is None or t_new - t_old < NEWER_GAP_S or len(toks[newer]) < min_words:
                continue
            if jaccard(toks[older], toks[newer]) >= threshold:
                out[newer] = max(out[newer], scores[older] * 1.01)
    return out


def rrf(
    rankings: Mapping[str, Sequence[Key]], weights: Mapping[str, float], *, k: int = 60
) -> dict[Key, float]:
    """Σ_channel weight / (k + rank), rank starting at 1. Items absent from a channel get nothing."""
    scores: dict[Key, float] = {}
    for channel, items in rankings.items():
        w = weights.get(channel, 1.0)
        if w <= 0:
            continue
        for rank, key in enumerate(items, start=1):
            scores[key] = scores.get(key, 0.0) + w / (k + rank)
    return scores


def fuse(
    rankings: Mapping[str, Sequence[Key]],
    scores: Mapping[Key, Mapping[str, float]],
    weights: Mapping[str, float],
    how: SearchConfig,
) -> dict[Key, float]:
    """The fused score of every candidate, by ``how.fusion``: ``rrf`` over the rankings, or
    ``zscore`` over each channel's own scores (``scores``: key -> channel -> score)."""
    if how.fusion == "rrf":
        return rrf(rankings, weights, k=how.rrf_k)
    by_channel = {name: {key: scores[key][name] for key in items} for name, items in rankings.items()}
    return zscore(by_channel, weights, log_channels=how.log_scores)


def compressed(values: Sequence[float]) -> list[float]:
    """log(1 + max(score, 0)): a sum of term weights (BM25, the graph's path counts) has a long
    right tail, and its best hit would otherwise sit several standard deviations out whatever
    the other channels say; a bounded score (cosine) needs no such care."""
    return [math.log1p(max(v, 0.0)) for v in values]


def zscore(
    channels: Mapping[str, Mapping[Key, float]],
    weights: Mapping[str, float],
    *,
    log_channels: Sequence[str] = (),
) -> dict[Key, float]:
    """Σ_channel weight × z, z = (score − mean) / std over the channel's candidates; a candidate the
    channel did not return gets its lowest z. A channel's z-scores are shrunk by n / (n + ZSCORE_PRIOR)
    for its n candidates: over two or three candidates z is always about ±1, which would turn a near
    tie into a gap no rerank boost can close. Channels whose kind (the name's part before ":") is in
    ``log_channels`` are z-scored on ``compressed`` scores. Returned through a logistic: in (0, 1),
    same order."""
    summed: dict[Key, float] = {}
    floors = 0.0  # Σ weight × lowest z: what every candidate gets from channels that miss it
    for name, raw in channels.items():
        w = weights.get(name, 1.0)
        if w <= 0 or not raw:
            continue
        found = (
            dict(zip(raw, compressed(list(raw.values())), strict=True))
            if name.split(":")[0] in log_channels
            else raw
        )
        values = list(found.values())
        mu = sum(values) / len(values)
        sd = math.sqrt(sum((v - mu) ** 2 for v in values) / len(values)) or 1.0
        sd *= (len(values) + ZSCORE_PRIOR) / len(values)  # the small-set shrinkage
        low = (min(values) - mu) / sd
        floors += w * low
        for key, v in found.items():
            summed[key] = summed.get(key, 0.0) + w * ((v - mu) / sd - low)
    return {key: _logistic(s + floors) for key, s in summed.items()}


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(x, 60.0), -60.0)))


def evidence_ranking(
    facts: Mapping[str, float], evidence: Mapping[str, Sequence[str]], *, limit: int
) -> list[tuple[str, float]]:
    """Episodes ranked by the facts that cite them (the ``evidence`` channel): each episode scores
    the best fused score among the facts it is evidence of (``facts``: fact id -> fused score;
    ``evidence``: fact id -> episode ids), plus a tenth of the others', so a turn many strong facts
    cite edges ahead of one a single fact cites. Ties by episode id; at most ``limit``."""
    cited: dict[str, list[float]] = {}
    for fact_id, score in facts.items():
        for episode_id in dict.fromkeys(evidence.get(fact_id, ())):
            cited.setdefault(episode_id, []).append(score)
    scored = {e: max(s) + 0.1 * (sum(s) - max(s)) for e, s in cited.items()}
    ranked = sorted(scored.items(), key=lambda h: (-h[1], h[0]))
    return ranked[:limit]


def recency_boost(when: float | None, newest: float | None, *, half_life_days: float = 365.0) -> float:
    """1.0 for the newest item, decaying with age relative to it (epoch seconds); 0 when unknown."""
    if when is None or newest is None:
        return 0.0
    age = max(newest - when, 0.0) / DAY_S
    return math.exp(-math.log(2) * age / half_life_days)


def tokens(text: str) -> frozenset[str]:
    return frozenset(t.lower() for t in _WORD.findall(text))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def mmr(
    items: Sequence[Key],
    scores: Mapping[Key, float],
    similarity: Callable[[Key, Key], float],
    *,
    lam: float = 0.85,
    limit: int | None = None,
) -> list[Key]:
    """Maximal marginal relevance: λ·relevance − (1−λ)·max similarity to what is already chosen."""
    if not items:
        return []
    top = max(scores[i] for i in items) or 1.0
    pool = list(items)
    closest = dict.fromkeys(pool, 0.0)  # max similarity to what is chosen, updated per choice
    chosen: list[Key] = []
    while pool and (limit is None or len(chosen) < limit):
        best = max(pool, key=lambda i: lam * scores[i] / top - (1 - lam) * closest[i])
        chosen.append(best)
        pool.remove(best)
        for i in pool:
            closest[i] = max(closest[i], similarity(i, best))
    return chosen
