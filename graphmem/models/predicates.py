"""The canonical predicate vocabulary.

A *functional* predicate holds one value at a time for a subject (a new value supersedes the old);
a *multi-valued* one may hold many at once (each value has its own history). ``temporary``
predicates describe short-lived states; being a different predicate, they never supersede durable ones.
``attribute:<key>`` predicates are functional. Unknown predicates are allowed and are multi-valued.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Predicate:
    name: str
    functional: bool
    temporary: bool = False
    object_is_entity: bool = True
    object_kind: str = "thing"
    phrase: str = ""


VOCABULARY: dict[str, Predicate] = {
    p.name: p
    for p in (
        Predicate("name", True, object_is_entity=False, phrase="is named"),
        Predicate("lives_in", True, object_kind="place", phrase="lives in"),
        Predicate("works_at", True, object_kind="organization", phrase="works at"),
        Predicate("job_title", True, object_is_entity=False, phrase="works as"),
        Predicate("studies_at", True, object_kind="organization", phrase="studies at"),
        Predicate("relationship_status", True, object_is_entity=False, phrase="is"),
        Predicate("located_at", True, temporary=True, object_kind="place", phrase="is staying in"),
        Predicate("likes", False, object_kind="thing", phrase="likes"),
        Predicate("dislikes", False, object_kind="thing", phrase="dislikes"),
        Predicate("prefers", True, object_kind="thing", phrase="prefers"),
        Predicate("has_pet", False, object_is_entity=False, phrase="has a pet"),
        Predicate("owns", False, object_kind="thing", phrase="owns"),
        Predicate("knows", False, object_kind="person", phrase="knows"),
        Predicate("plans", False, object_is_entity=False, phrase="plans to"),
        Predicate("age", True, object_is_entity=False, phrase="is aged"),
        Predicate("speaks", False, object_is_entity=False, phrase="speaks"),
        Predicate("married_to", True, object_kind="person", phrase="is married to"),
        Predicate("born_in", True, object_kind="place", phrase="was born in"),
        # events (multi-valued: each occasion is its own fact, dated by valid_from)
        Predicate("attended", False, object_is_entity=False, phrase="attended"),
        Predicate("visited", False, object_is_entity=False, phrase="visited"),
        Predicate("met", False, object_kind="person", phrase="met"),
    )
}


def lookup(name: str) -> Predicate:
    """Return the predicate definition; unknown names are multi-valued, ``attribute:*`` functional."""
    known = VOCABULARY.get(name)
    if known is not None:
        return known
    if name.startswith("attribute:"):
        key = name.split(":", 1)[1]
        return Predicate(name, True, object_is_entity=False, phrase=f"has {key}")
    return Predicate(name, False, object_is_entity=False, phrase=name.replace("_", " "))


def is_functional(name: str) -> bool:
    return lookup(name).functional
