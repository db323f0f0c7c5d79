"""Quality gates the rules extractor's facts pass before they are written, and the merge of the
phrasing rules' claims with the parse's.

- ``worth_parsing``: which English sentences go to the parser (not questions, not one-word
  exclamations).
- ``can_hold_claim``: the cheap check that keeps a sentence from the parser and the phrasing rules
  altogether: it needs a verb candidate ("Hey Mel!", "Great idea!", "Good luck with Toby!" have
  none) and a subject candidate: a first- or second-person word, a capitalised word after the
  first, or a first word that is not a pronoun or determiner opener ("That's awesome!", "It was
  so fun", "The kids loved it" cannot give a fact: such subjects never resolve).
- ``subject_in_parse``: a phrasing rule's named subject must be a proper noun in the parse and no
  filler word ("Sounds likes good plan", "Bet Max likes ..." are refused).
- ``new_claims``: the parse's claims that say something the phrasing rules did not (another
  predicate and another object), so a canonical fact is not stated twice.
- ``gate_facts``: a resolved subject (not a pronoun, not filler), a well-formed object (non-empty,
  at most ``MAX_OBJECT_WORDS`` words, not only a pronoun, not only a generic noun such as "things",
  "a lot") and no first- or second-person word left in the statement ("John likes sharing what I
  know" is refused), and no reaction to the listener (``toward_listener``: "I'm proud of you",
  "I appreciate your help"), and no light-verb idiom (``light_idiom``: "finds comfort", "takes
  the lead").
- ``points_back``, ``dangling_end``, ``clause_inside``, ``said_with_no``: a value with a
  demonstrative pointing into the talk ("moments like these"), cut on a function word ("plan
  for"), holding a contracted "is" ("studio's a tough job"), or denied by "no" ("I'm no writer");
  a preference whose value names nothing in particular ("likes moments") is refused like a vague
  open value.
- ``drop_time_tail``: a time adverb at the end of a value is cut off ("learns German now" →
  German) before the gates judge it.
- ``said_to_listener``: the clauses whose claims are conversation, not facts: an "I'll ..." with no
  future time phrase that is about the listener or a telling (an offer: "I'll send you the link",
  "I'll let you know") and a wish opened by "hopefully" ("Hopefully we can go camping").
- ``mark_past_likings``: a liking said in the simple past or with "used to" ("I used to love X",
  "When I was younger I liked X") is a past state, no current ``likes``.
- ``merge_duplicates``: one fact per claim (subject, predicate, value, claim kind, qualifier) in an
  episode; the first mention wins, its time kept.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.models.extraction import ExtractedFact
from graphmem.models.predicates import VOCABULARY, lookup
from graphmem.providers.extractors.en_parse import could_be_verb
from graphmem.providers.extractors.rules_base import Claim
from graphmem.providers.extractors.rules_en_open import addressed
from graphmem.providers.extractors.rules_en_parse import (
    MOMENT_ADJS,
    NOT_SUBJECT_WORDS,
    Speakers,
    clause_text,
    group_our,
    shared_head,
    third_person,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

MAX_OBJECT_WORDS = 10
_PERSON_WORDS = re.compile(
    r"(?<![\w'])(?:i|me|my|mine|myself|we|us|our|ours|ourselves|you|your|yours|yourself|"
    r"yourselves|i'm|i've|i'd|i'll|we're|we've|you're|you've|ya)(?![\w'])",
    re.IGNORECASE,
)
_THIRD_PRONOUNS = frozenset(
    "he she it they him her them his hers its their theirs this that these those who someone "
    "everyone anyone nobody somebody everybody there here".split()
)
# a pronoun left inside a value is unresolved: "Nate likes his tech", "getting it made"
_THIRD_IN_VALUE = re.compile(
    r"(?<![\w'])(?:he|she|him|his|her|hers|they|them|their|theirs|it|its)(?![\w'])", re.I
)
_EMPTY_VALUES = frozenset(
    "it that this them something anything everything nothing one stuff everywhere anywhere somewhere "
    "nowhere".split()
)
_WORD = re.compile(r"\w")


def worth_parsing(text: str, zh: bool) -> bool:
    """An English sentence that can hold a claim: not a question, two words or more."""
    stripped = text.strip()
    return not zh and not stripped.endswith("?") and len(stripped.split()) >= 2


_WORDS = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_SUBJECT_WORDS = frozenset(
    "i me my mine myself we us our ours ourselves you your yours yourself yourselves im ive ya".split()
)
_OPENERS = frozenset(
    "that this it its the a an he she they them there here what those these his her their such "
    "some everything something nothing anything each every".split()
)


_PLACE_PREPOSITIONS = frozenset({"in", "at", "from", "to", "on", "near"})


def can_hold_claim(text: str) -> bool:
    """Whether an English sentence has a verb candidate and a subject candidate (module docstring)."""
    words = _WORDS.findall(text.replace("’", "'"))
    if not words:
        return False
    if not any(could_be_verb(part) for w in words for part in w.split("'") if part):
        # a verbless fragment can still place someone somewhere: "In Tokyo for a conference!",
        # "Back home from Nairobi now." (a name after the first word, and a place preposition)
        return any(w[0].isupper() for w in words[1:]) and any(w.lower() in _PLACE_PREPOSITIONS for w in words)
    if any(w.split("'")[0].lower() in _SUBJECT_WORDS for w in words):
        return True
    if any(w[0].isupper() for w in words[1:]):
        return True
    return words[0].split("'")[0].lower() not in _OPENERS


def subject_in_parse(claim: Claim, doc: Doc) -> bool:
    """A named subject from the phrasing rules is a proper noun of the parse and no filler word."""
    if claim.subject is None:
        return True
    words = claim.subject.replace(".", "").split()
    if any(w.lower() in NOT_SUBJECT_WORDS for w in words):
        return False
    last = words[-1]
    return any(t.text == last and t.pos_ == "PROPN" and not addressed(t) for t in doc)


_FINITE = frozenset({"VBD", "VBN", "VBZ", "VBP", "MD"})
_THING_PREDICATES = frozenset({"has_pet", "owns", "likes", "dislikes", "prefers", "knows"})


_PREMODIFIER = frozenset({"amod", "compound", "nmod", "nummod", "det", "poss", "advmod", "npadvmod"})


def cut_inside_phrase(value: str, doc: Doc) -> bool:
    """The value stops on a word that modifies a noun after it in the sentence: "creating a safe"
    (of "a safe, inviting place"), "attended amazing" (of "an amazing and emotional ceremony"),
    "owns new", "likes action" (of "action and sci-fi movies": ``shared_head``): the value has no
    head of its own."""
    words = value.split()
    if not words:
        return False
    last = words[-1]
    found = [t for t in doc if t.text == last]
    return bool(found) and all(
        (t.dep_ in _PREMODIFIER and t.head.i > t.i) or shared_head(t) is not None for t in found
    )


def value_in_parse(claim: Claim, doc: Doc) -> bool:
    """A phrasing rule's value does not open with a finite verb or participle of the parse
    ("has a pet: been awed by birds", "has a pet: got a pup" are refused) and is not cut inside a
    noun phrase (``cut_inside_phrase``)."""
    if cut_inside_phrase(claim.obj, doc):
        return False
    if claim.predicate not in _THING_PREDICATES:
        return True
    first = claim.obj.split()[0] if claim.obj.split() else ""
    return not any(t.text == first and t.tag_ in _FINITE for t in doc)


def _overlaps(a: str, b: str) -> bool:
    a, b = a.casefold(), b.casefold()
    return bool(a and b) and (a in b or b in a)


def _same(a: Claim, b: Claim) -> bool:
    return (a.subject, a.predicate, a.obj.casefold(), a.kind, a.before, a.past) == (
        b.subject,
        b.predicate,
        b.obj.casefold(),
        b.kind,
        b.before,
        b.past,
    )


def new_claims(rule_claims: list[Claim], parse_claims: list[tuple[Claim, str]]) -> list[Claim]:
    """The parse's claims about clauses the phrasing rules did not read (no rule's object in the
    clause) that repeat neither a rule's predicate nor its object for that subject."""
    kept: list[Claim] = []
    changes = [c for c, _ in parse_claims if c.before]
    if changes:  # a change naming both values reads the clause better than a phrasing rule
        rule_claims[:] = [c for c in rule_claims if not any(c.predicate == x.predicate for x in changes)]
    framed = [c for c, _ in parse_claims if c.framed and not any(_same(c, r) for r in rule_claims)]
    if framed:  # a frame decides the predicate and polarity of the values it read
        agreed = [c for c in rule_claims if any(f.framed and _same(c, f) for f, _ in parse_claims)]
        rule_claims[:] = [
            c
            for c in rule_claims
            if c in agreed
            or not any(
                c.subject == f.subject and (_overlaps(c.obj, f.obj) or c.predicate == f.predicate)
                for f in framed
            )
        ]
        for claim in framed:
            if not any(_same(claim, k) for k in kept):
                kept.append(claim)
    for claim, clause in parse_claims:
        if claim.framed:
            continue
        if any(_overlaps(c.obj, clause) and c.obj.casefold() in clause.casefold() for c in rule_claims):
            continue
        same_subject = [c for c in rule_claims if c.subject == claim.subject]
        if any(
            (c.predicate == claim.predicate and c.kind == claim.kind) or _overlaps(c.obj, claim.obj)
            for c in same_subject
        ):
            continue
        if any(c.subject == claim.subject and _overlaps(c.obj, claim.obj) for c in kept):
            continue
        kept.append(claim)
    return kept


def statement_words(fact: ExtractedFact) -> str:
    phrase = lookup(fact.predicate).phrase or fact.predicate.replace("_", " ")
    return f"{fact.subject} {phrase} {fact.literal}"


def well_formed(fact: ExtractedFact, speakers: Speakers) -> bool:
    """The gates: resolved subject, well-formed object, no first/second person in the statement."""
    return rejected_by(fact, speakers) is None


def rejected_by(fact: ExtractedFact, speakers: Speakers) -> str | None:
    """The name of the first gate that refuses ``fact`` (None: it passes); ``TRACE`` collects them."""
    subject = fact.subject.strip()
    if not subject or subject.casefold() in _THIRD_PRONOUNS or _PERSON_WORDS.fullmatch(subject):
        return "subject_pronoun"
    if subject not in (speakers.speaker, speakers.other) and any(
        w.lower() in NOT_SUBJECT_WORDS for w in subject.split()
    ):
        return "subject_filler"
    value = fact.literal.strip()
    if not value or not _WORD.search(value) or value.casefold() in _EMPTY_VALUES | _THIRD_PRONOUNS:
        return "empty_value"
    if len(value.split()) > MAX_OBJECT_WORDS:
        return "too_long"
    if _THIRD_IN_VALUE.search(value) or value.endswith("'s"):
        return "third_in_value"
    if _cut_word(value, fact.quote or ""):
        return "cut_word"
    if _clause_fragment(fact.predicate, value):
        return "clause_fragment"
    if generic(value):
        return "generic"
    if vague_outcome(fact.predicate, value):
        return "vague_outcome"
    if unnamed_people(fact.predicate, value):
        return "unnamed_people"
    if generic_place(fact.predicate, value):
        return "generic_place"
    if bare_standing(fact.predicate, value):
        return "bare_standing"
    if named_by_origin(fact.predicate, value, fact.quote or ""):
        return "named_by_origin"
    if fact.predicate not in VOCABULARY and indefinite_generic(fact.predicate, value, fact.quote or ""):
        return "indefinite_generic"
    if toward_listener(fact, speakers):
        return "toward_listener"
    if light_idiom(fact.predicate, value):
        return "light_idiom"
    if fact.predicate not in VOCABULARY and vague_open_value(value):
        return "vague_open_value"
    if fact.predicate not in VOCABULARY and (
        _sympathy(fact.predicate) or moment_feeling(fact.predicate) or passing_want(fact.predicate)
    ):
        return "moment_feeling"
    if coming_progressive(fact):
        return "coming_progressive"
    if ends_on_one(value) or torn_pair(value):
        return "one_or_torn_pair"
    if not family_value_ok(fact.predicate, value):
        return "family_value"
    if points_back(value):
        return "points_back"
    if dangling_end(value):
        return "dangling_end"
    if clause_inside(value):
        return "clause_inside"
    if fact.claim != "end" and said_with_no(value, fact.quote or ""):
        return "said_with_no"
    if fact.predicate in _PREFERENCES and vague_open_value(value):
        return "vague_preference"
    if _PERSON_WORDS.search(statement_words(fact)) is not None:
        return "person_word"
    return None


TRACE: list[tuple[str, ExtractedFact]] | None = None
"""Set to a list to collect (gate, fact) for every refused fact (a debugging aid; None: off)."""


_PREFERENCES = frozenset({"likes", "dislikes", "values", "appreciates", "prefers"})
_POINTERS = frozenset("this that these those".split())
_FILLER_NOUNS = frozenset("one ones thing things stuff kind sort".split())
_AFTER_POINTED = frozenset("like around here there".split())


def points_back(value: str) -> bool:
    """A demonstrative that points into the conversation: "moments like these", "sound of that
    place", "a dog with that name", "some of these little ones". One that introduces a described
    thing stays: "this cute pup from a shelter", "that stuffed animal dog"."""
    words = [w.casefold() for w in value.split()]
    for i, w in enumerate(words):
        if w not in _POINTERS:
            continue
        after = words[i + 1 :]
        cut = next((k for k, a in enumerate(after) if a in _PREPOSITIONS | _AFTER_POINTED), len(after))
        content = [a for a in after[:cut] if a not in _FILLER_NOUNS]
        if after[:1] and after[0] in _WHEN:
            continue  # "this weekend" says when
        if len(content) < 2:
            return True
    return False


_DANGLING = frozenset(
    "like of for with to and or but the a an about from in on at as than so very really just both "
    "my our your his her their its".split()
)


def dangling_end(value: str) -> bool:
    """A value that ends on a function word or an intensifier ("moments like", "plan for",
    "likes really"): the phrase was cut."""
    words = value.split()
    return len(words) > 1 and words[-1].casefold() in _DANGLING


_CONTRACTED_IS = re.compile(r"\w's (?:a|an|the|so|really|very|not|just|such|too)\b", re.I)


def clause_inside(value: str) -> bool:
    """ "perfect dance studio's a tough job": a contracted "is" inside the value, a clause."""
    return _CONTRACTED_IS.search(value) is not None


def said_with_no(value: str, quote: str) -> bool:
    """The value's head follows "no" in the quote ("I'm no writer", "we have no pets"): denied
    ("no longer", "no more" end a value: those are ends, read apart)."""
    words = value.split()
    cut = next((i for i, w in enumerate(words) if w.casefold() in _PREPOSITIONS and i > 0), len(words))
    head = words[cut - 1] if cut else ""
    if not head or not quote:
        return False
    pattern = rf"(?<![\w'])no\s+(?!longer\b|more\b)(?:[\w-]+\s+){{0,2}}{re.escape(head)}(?![\w'])"
    return re.search(pattern, quote, re.IGNORECASE) is not None


_GENERIC = frozenset(
    "thing things stuff time times fun lot lots ton tons all it everything something more much one ones "
    "bit way ways".split()
)
_LEADERS = frozenset("a an the some so such much many all lots lot of this that these those".split())


def generic(value: str) -> bool:
    """A value that is only a generic noun, with no modifier to say which ("things", "stuff", "it
    all", "time", "fun", "a lot", "all the things"): a vague fact."""
    words = value.casefold().split()
    while len(words) > 1 and words[0] in _LEADERS:
        words = words[1:]
    return all(w in _GENERIC for w in words)


_LIGHT_VERBS = frozenset(
    "finds takes makes gives shows gets lends focuses raises faces handles brings puts earns works "
    "crosses sends has".split()
)
_IDIOM_NOUNS = frozenset(
    "comfort chill fulfillment fulfilment dedication commitment lead step positive hand team situation "
    "hurdle kind sort ton lot bit break chance look peace strength courage energy joy inspiration "
    "motivation difference impact effort progress sense care part way thing stuff time fun fingers shot "
    "finger heart hearts go push kudos roof wish love prayers prayer vibes hug hugs memories memory "
    "blast".split()
)
# nouns that name no particular thing without a modifier that does: "works on a project", "faces
# the same challenges", "explores options", "expresses Dana's feelings", "finds Dana's center"
_VAGUE_NOUNS = frozenset(
    "project projects details detail options option ones one areas area moments moment experience "
    "experiences opportunities opportunity challenges challenge obstacles obstacle successes success "
    "goals goal dreams dream ambitions ambition passions passion feelings feeling emotions identity "
    "voice skills skillz skill creativity decisions decision abilities ability journey center "
    "influence flexibility endurance mind thoughts thought love future unknown greatness "
    "determination perseverance situation situations stuff things thing ideas idea progress "
    "connections connection relationships bond bonds self myself life lives place spot eachother vibes "
    "other others changes change steps step results result ways hobbies hobby top peace reality "
    "adventure adventures legacy destination food events event muses techniques technique tips tricks "
    "lessons lesson respect".split()
)
# words before such a noun that still do not say which: "Dana's own", "some new", "the same"
_VAGUE_MODIFIERS = frozenset(
    "a an the some any all new other same different few more many much great awesome cool amazing "
    "big little tough real special own best various several lots lot of good positive strong "
    "stronger better hard true deep huge whole every each such so really very together yummy tasty "
    "delicious nice lovely wonderful fantastic incredible beautiful gorgeous fun exciting "
    "interesting intense meaningful".split()
)


def vague_open_value(value: str) -> bool:
    """An open fact's value that names no particular thing (``_VAGUE_NOUNS``), whatever vague
    words or possessor stand before it; what follows a preposition ("a project for veterans")
    does say which."""
    words = [w.casefold() for w in value.split()]
    cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS and i > 0), len(words))
    if cut < len(words):
        return False
    head = [w for w in words if w not in _VAGUE_MODIFIERS and not w.endswith(("'s", "’s"))]
    return bool(head) and all(w in _VAGUE_NOUNS for w in head)


# an outcome named by a noun that says nothing of what it was: "got good advice", "had a setback",
# "got the win", "had an unexpected adventure", "got some possible leads"
_OUTCOME_VERBS = frozenset("got gets had has receives received gained gains".split())
_OUTCOME_NOUNS = frozenset(
    "advice lead leads setback setbacks adventure adventures win wins loss losses feedback compliment "
    "compliments news support help response responses result results idea ideas boost surprise "
    "surprises experience experiences chance chances opportunity opportunities luck praise "
    "encouragement update updates tip tips suggestion suggestions insight insights perspective "
    "perspectives challenge challenges moment moments day days week weeks night time times".split()
)
_OUTCOME_MODIFIERS = _VAGUE_MODIFIERS | frozenset(
    "possible unexpected useful helpful solid valuable positive negative small minor major bad rough "
    "tough huge big first second final total sudden".split()
)


def _head_words(value: str) -> list[str]:
    """The value's words before its first preposition (after the first word), casefolded."""
    words = [w.casefold() for w in value.split()]
    cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS and i > 0), len(words))
    return words[:cut]


def _has_tail(value: str) -> bool:
    """A preposition after the first word: what follows it says which ("a setback at work")."""
    return len(_head_words(value)) < len(value.split())


def vague_outcome(predicate: str, value: str) -> bool:
    """ "got good advice", "got some possible leads", "had a setback", "got the win", "had an
    unexpected adventure": an open fact of getting or
    having whose head is an outcome noun (``_OUTCOME_NOUNS``) with only vague words before it says
    that something happened, not what. "got a promotion", "had an accident" name it; a tail after a
    preposition says which ("had a setback at work", "got feedback from the editor")."""
    if predicate not in _OUTCOME_VERBS or _has_tail(value):
        return False
    head = [w for w in _head_words(value) if w not in _OUTCOME_MODIFIERS and not w.endswith(("'s", "’s"))]
    return bool(head) and all(w in _OUTCOME_NOUNS for w in head)


_PEOPLE_NOUNS = frozenset(
    "people person folks folk guys guy girls girl kids kid children child investors investor friends "
    "friend members member players player artists artist fans fan owners owner volunteers volunteer "
    "parents locals local strangers stranger others someone somebody everyone everybody ones one "
    "mentors mentor coaches coach students student teens teen teenagers adults families family "
    "neighbors neighbours neighbor neighbour gamers gamer dancers dancer writers writer leaders leader "
    "veterans veteran attendees participants women woman men man ladies lady".split()
)
_MEETING = frozenset({"met", "meets", "meet"})


def unnamed_people(predicate: str, value: str) -> bool:
    """ "met some investors", "met new people", "met other dog owners", "met a guy": a meeting with
    nobody named (no capitalised word, no possessor) and a person noun at its head names no one the
    graph can hold. "met Sarah", "met Dana's mentor", "met a guy at the conference" (where) stay."""
    if predicate not in _MEETING or _has_tail(value):
        return False
    if any(w[:1].isupper() or w.endswith(("'s", "’s")) for w in value.split()):
        return False
    words = _head_words(value)
    return bool(words) and words[-1] in _PEOPLE_NOUNS


_PLACE_NOUNS = frozenset(
    "place places spot spots city town country area neighborhood neighbourhood village countryside "
    "location locations venue suburbs suburb region state island".split()
)
_PLACE_FACTS = frozenset(
    {"lives_in", "visited", "attended", "tried", "tries", "goes_to", "explores", "finds"}
)
_PLACE_IN_NAME = re.compile(
    r"^(?:(?:a|an|the|this|that|some|one)\s+)?(?:[a-z-]+\s+){0,2}(?:place|spot|area)\s+in\s+"
    r"(?:the\s+)?(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})$"
)


def generic_place(predicate: str, value: str) -> bool:
    """ "lives in the city", "lives in a small town", "tried a new spot in town", "visited a cool
    place": a place fact whose head is a generic place noun with only vague words before it, and
    no name after it, names no place. "visited a place in London" is read as London first
    (``place_in_name``)."""
    if predicate not in _PLACE_FACTS:
        return False
    if any(w[:1].isupper() for w in value.split()):
        return False
    head = [w for w in _head_words(value) if w not in _OUTCOME_MODIFIERS | {"small", "local", "nearby"}]
    return (
        bool(head)
        and head[-1] in _PLACE_NOUNS
        and all(w in _PLACE_NOUNS or w in _VAGUE_MODIFIERS for w in head)
    )


def place_in_name(fact: ExtractedFact) -> ExtractedFact:
    """ "visited a place in London", "visited a cool spot in Kyoto": the named place is the value
    (London, Kyoto); the generic noun before it says nothing more."""
    if fact.predicate not in ("visited", "attended"):
        return fact
    m = _PLACE_IN_NAME.match(fact.literal.strip())
    if m is None:
        return fact
    return _with_value(fact, m.group("name"))


# what one is only in some field the sentence does not name: "I'm still a newbie", "I'm a beginner"
_STANDING_NOUNS = frozenset(
    "newbie newbies beginner beginners rookie rookies novice novices amateur amateurs pro pros "
    "natural expert experts noob noobs fan fans fanatic addict nerd geek junkie mess wreck "
    "veteran".split()
)
_STANDING_WORDS = frozenset(
    "a an the still just total complete real such bit kind sort of little big huge true now already "
    "also really very so".split()
)


def bare_standing(predicate: str, value: str) -> bool:
    """ "is a newbie", "is still a beginner", "is a total pro", "is a huge fan": a standing with
    no field says nothing ("is an expert hiker", "is a total movie fan", "is a fan of jazz" say
    which)."""
    if predicate != "is":
        return False
    words = [w.casefold().strip(".,!") for w in value.split()]
    head = [w for w in words if w not in _STANDING_WORDS]
    return len(head) == 1 and head[0] in _STANDING_NOUNS


_ORIGIN_GROUP = (
    r"(?:friends?|people|folks|guys|girls|ladies|members?|kids|colleagues|coworkers|buddies|mates|"
    r"group|gang|crew|someone|somebody|neighbou?rs|family|families|volunteers|team(?:mates)?|"
    r"peeps|pals?)"
)


def named_by_origin(predicate: str, value: str, quote: str) -> bool:
    """ "community work with my friends from church", "hiking with some guys from the gym": the
    place only says where the people come from, not where the speaker went, so it is no event
    there ("got back from church", "went to church" are)."""
    if predicate not in ("attended", "visited") or not quote or not value.strip():
        return False
    place = re.escape(value.strip())
    owner = r"(?:(?:the|my|our|a|his|her|their)\s+)?"
    if re.search(rf"\b{_ORIGIN_GROUP}\s+(?:\w+\s+)?from\s+{owner}{place}\b", quote, re.IGNORECASE) is None:
        return False
    went = rf"\b(?:to|at|in|into|back from|home from|out of|left|leave|visit(?:ed|ing)?)\s+{owner}{place}\b"
    return re.search(went, quote, re.IGNORECASE) is None


# one common noun said with "a"/"an" and nothing else names no particular one: "picked up a book",
# "went on a tour", "played a top team", "watched a movie"
_INDEFINITE_NOUNS = frozenset(
    "book tour game movie film show class trip team song story match course thing place spot event "
    "meal dish drink".split()
)


def indefinite_generic(predicate: str, value: str, quote: str) -> bool:
    """An open fact whose value is one generic count noun (``_INDEFINITE_NOUNS``), with only vague
    words before it, said in the quote after "a"/"an" ("picks up book" of "picked up a book",
    "goes on tour" of "went on a tour", "plays top team" of "played a top team"): which one is not
    said. "reads fantasy novel", "plays Catan" say which."""
    words = [w.casefold() for w in value.split()]
    if predicate.startswith(("was_", "is_", "got_")):
        return False  # a passive says the deed: "was drafted by a team"
    if not words or words[-1] not in _INDEFINITE_NOUNS:
        return False
    if not all(w in _OUTCOME_MODIFIERS | {"top"} for w in words[:-1]):
        return False
    said = r"\s+".join(re.escape(w) for w in value.split())
    return re.search(rf"\b(?:a|an)\s+{said}\b", quote, re.IGNORECASE) is not None


# a want of the moment, no lasting fact: "I'm craving pastries", "I'm dying for pizza"
def passing_want(predicate: str) -> bool:
    """ "craves pastries", "dies for pizza" (of "I'm dying for some pizza"): a craving now."""
    first = predicate.split("_")[0]
    return first in ("craves", "crave", "craving") or predicate.startswith(("dies_for", "is_dying_for"))


_POINTING = frozenset("this that these those there here".split())
# what "Here's a pic of my X", "These are my X", "I got X" name that nobody owns: people, and
# abstract nouns ("my main focuses", "the right attitude", "good feedback", "my true calling")
_NOT_OWNED = frozenset(
    "family fam kids kid friends friend workmates colleagues coworkers companions team teammates mates "
    "buddies folks people parents husband wife partner focus focuses feedback attitude calling success "
    "successes offer offers promotion promotions addition possession memories memory camping goals place "
    "spot go-to way".split()
)
_WHEN = frozenset(
    "weekend week month year morning afternoon evening night summer winter spring fall next coming".split()
)
_HOW_ONE_IS = frozenset("good well great fine ok okay alright better awesome cheers amazing".split())


def family_value_ok(predicate: str, value: str) -> bool:
    """Checks of the value by predicate family: a plan names no pointed-at thing ("make this work",
    "try the seafood there"), no nothing ("have no big events"), no idiom ("make a difference") and
    no vague thing ("create a place"); an owned thing is no person and no abstract noun; an
    activity is no "doing good" or "doing OK, cheers for asking"; what was attended or visited is
    more than a bare "event" or "place" ("at that event", "a great event")."""
    words = [w.casefold() for w in value.split()]
    if predicate == "plans" and len(words) > 1:
        after = [*words[1:], ""]
        if any(w in _POINTING and after[i] not in _WHEN for i, w in enumerate(words)) or "no" in words[1:]:
            return False  # "this weekend", "this next tourney" say when, not what
        rest = " ".join(value.split()[1:])
        verb = third_person(words[0])  # "have fun" → has fun: a light idiom
        return not (light_idiom(verb, rest) or vague_open_value(rest))
    if predicate == "owns":
        cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS and i > 0), len(words))
        return bool(words[:cut]) and words[cut - 1] not in _NOT_OWNED
    if predicate == "does":
        return not words or words[0] not in _HOW_ONE_IS
    if predicate in ("attended", "visited"):
        head = [w for w in words if w not in _VAGUE_MODIFIERS and w not in _POINTING]
        return head not in (["event"], ["events"], ["place"], ["spot"], ["thing"], ["one"], ["area"])
    return True


def moment_feeling(predicate: str) -> bool:
    """ "is_stoked_for", "is_comfy_with" (of "we got comfy with snacks"), "is_happy_with": a
    feeling of the moment toward something (``MOMENT_ADJS``), not a lasting fact about the
    person. A disposition with a to-infinitive ("is_excited_to" meet ...) is read apart."""
    words = predicate.split("_")
    return len(words) == 3 and words[0] == "is" and words[1] in MOMENT_ADJS and words[2] != "to"


# words that, before "one", leave it pointing at something said before: "another one", "a new
# one", "Dana's first one", "the same one"
_ONE_LEADERS = frozenset(
    "a an the another new other same first second third last next old big little whole own".split()
)


def ends_on_one(value: str) -> bool:
    """A value whose head is "one"/"ones" with nothing but such leaders before it ("starts writing
    another one", "buys a new one", "finishes Dana's first one"): which one is said elsewhere.
    "one-on-one mentoring" and "one of the top teams" name it."""
    words = [w.casefold() for w in value.split()]
    cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS and i > 0), len(words))
    if cut == 0 or words[cut - 1] not in ("one", "ones") or words[cut : cut + 1] == ["of"]:
        return False
    before: list[str] = []
    for w in reversed(words[: cut - 1]):
        if w in _ONE_LEADERS or w.endswith(("'s", "’s")):
            before.append(w)
        else:
            break
    rest = words[: cut - 1 - len(before)]
    return bool(before) or not rest or (len(rest) == 1 and could_be_verb(rest[0]))


def torn_pair(value: str) -> bool:
    """ "both classical", "a schedule with both basketball stuff" (of "both X and Y"): "both" with
    no "and" after it in the value is a pair torn in two, the second half lost."""
    words = [w.casefold() for w in value.split()]
    if "both" not in words:
        return False
    at = words.index("both")
    return "and" not in words[at + 1 :] and words[at + 1 : at + 2] != ["of"]


def _sympathy(predicate: str) -> bool:
    """ "I'm sorry about Max", "sorry to hear": condolence said to the listener is no fact."""
    return predicate.startswith(("is_sorry", "is_sad_about", "feels_sorry"))


_PREPOSITIONS = frozenset("in on at with for of to about from into".split())
_ARTICLE_WORDS = frozenset("a an the some any all".split())


def light_idiom(predicate: str, value: str) -> bool:
    """A light verb with an abstract noun is an idiom of the talk, not a fact: "finds comfort (in
    good memories)", "takes the lead", "takes a step back", "shows dedication", "lends a hand",
    "makes a great team", "raises a ton". The noun is the value's head: its last word before a
    preposition, read singular."""
    if predicate.split("_")[0] not in _LIGHT_VERBS:
        return False
    words = [w.casefold() for w in value.split()]
    cut = next((i for i, w in enumerate(words) if w in _PREPOSITIONS), len(words))
    head = [w for w in words[:cut] if w not in _ARTICLE_WORDS]
    if not head:
        return False
    noun = head[-1]
    singular = {noun, noun[:-1] if noun.endswith("s") else noun, noun[:-2] if noun.endswith("es") else noun}
    if predicate.startswith("puts") and noun in _PUT_IN:
        return True  # "puts in (a lot of) work", "put lots of hard work into it"
    return bool(singular & _IDIOM_NOUNS)  # "makes wishes": wishes → wish


_PUT_IN = frozenset("work hustle energy hours".split())


_COURTESY_PREDICATES = frozenset({"values", "appreciates", "admires", "respects"})


def toward_listener(fact: ExtractedFact, speakers: Speakers) -> bool:
    """A reaction to the listener said to the listener is conversation, not a fact: a feeling
    toward them ("I'm so proud of you", "I'm happy for you": is_proud_of Sam) or thanks for what
    is theirs ("I appreciate your help": appreciates Sam's help)."""
    other = speakers.other
    if not other or fact.subject == other:
        return False
    value = fact.literal.strip()
    if fact.predicate.startswith("is_") and fact.predicate.endswith(
        ("_of", "_for", "_with", "_about", "_to")
    ):
        return value == other
    if fact.predicate not in VOCABULARY and (
        value == other or value.endswith((f" for {other}", f" to {other}", f" from {other}"))
    ):
        return True  # "Missed you!", "Rooting for you", "Crossing my fingers for you"
    return fact.predicate in _COURTESY_PREDICATES and (value == other or value.startswith(f"{other}'s "))


_WH_START = frozenset("how what why when where who whom whether which".split())


def _cut_word(value: str, quote: str) -> bool:
    """The value ends inside a hyphenated word of the quote ("runs to de" from "to de-stress")."""
    last = value.split()[-1] if value.split() else ""
    if not last or re.search(rf"(?<![\w-]){re.escape(last)}-\w", quote) is None:
        return False
    # "a dog too, ... a dog-friendly place": the word stands alone elsewhere in the quote
    return re.search(rf"(?<![\w-]){re.escape(last)}(?![\w-])", quote, re.IGNORECASE) is None


def _clause_fragment(predicate: str, value: str) -> bool:
    """A value that is a clause fragment, not a noun phrase: it opens with a wh-word ("develops
    how much"), or a plan whose first word cannot be a verb ("plans to events")."""
    first = value.split()[0].lower()
    if first in _WH_START or any(w.endswith("-") for w in value.split()):
        return True
    return predicate == "plans" and first.isascii() and not could_be_verb(first)


_TIME_TAIL = re.compile(
    r"(?:\s+(?:right now|now|lately|recently|currently|these days|nowadays|again|anymore|today|"
    r"tonight|as well|too|here|there|(?:last|this) (?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\w*))+$",
    re.IGNORECASE,
)


_WISHED_FOR = re.compile(
    r"(?:\s+for (?:a |quite a |such a |so |a really )?(?:while|long time|long|ages|years|months)(?: now)?"
    r"|\s+too|\s+as well)+$",
    re.IGNORECASE,
)


def drop_time_tail(fact: ExtractedFact) -> ExtractedFact:
    """A value that ends on a time adverb ("learns German now", "likes painting together lately",
    "joins activist group last Tues") without it: the time is the fact's, not the value's; so is
    a pointing "here"/"there" ("started volunteering here" → volunteering). Plans keep their time
    phrase."""
    if fact.predicate == "plans":  # "plans to open a bakery for a while now": how long it was wished
        cut = _WISHED_FOR.sub("", fact.literal)
        return _with_value(fact, cut) if cut != fact.literal and cut.strip() else fact
    field = "object" if fact.object is not None else "value"
    before = fact.literal
    value = _TIME_TAIL.sub("", before)
    if value == before or not value.strip():
        return fact
    return fact.model_copy(update={field: value})


def _with_value(fact: ExtractedFact, value: str) -> ExtractedFact:
    field = "object" if fact.object is not None else "value"
    return fact.model_copy(update={field: value})


# a list of examples the value tore: "board games like Catan" of "like Catan and chess"
_LIST_GOES_ON = re.compile(r"^\s*(?:,\s*)?(?:and|or|,)\s+\w", re.IGNORECASE)


def cut_torn_examples(fact: ExtractedFact) -> ExtractedFact:
    """A value that keeps only the first of a list after "like" ("likes board games like Catan"
    of "board games like Catan and chess", "considers brands like Nike" of "like Nike and Under
    Armour") misstates the list: the value stops before "like". A whole list stays."""
    head, sep, examples = fact.literal.partition(" like ")
    if not sep or not head.strip() or not examples or not fact.quote:
        return fact
    found = fact.quote.casefold().find(f"like {examples.casefold()}")
    if found < 0 or not _LIST_GOES_ON.match(fact.quote[found + len(examples) + 5 :]):
        return fact
    return _with_value(fact, head)


_QUANTITY = re.compile(
    r"^(?:(?:a|an)\s+)?(?:few|couple(?:\s+of)?|bunch\s+of|handful\s+of|lots?\s+of|tons?\s+of|"
    r"loads?\s+of|plenty\s+of|number\s+of|pile\s+of|whole\s+bunch\s+of|(?:so\s+|too\s+)?many|"
    r"several|some\s+of|some|(?:[\w-]+'s\s+)?(?:fair\s+)?share\s+of)\s+",
    re.IGNORECASE,
)
# finding, trying or getting "a few" of something names no particular one: "found a few parks",
# "tried so many unique wines", "picked up a few new recipes"
_SOME_OF_MANY = frozenset(
    "finds found tries tried tries_out picks_up gets got sees discovers uses comes_across".split()
)
# a vague number of animals got or caught is a catch, no pet: "we got a few fish"
_CAUGHT = re.compile(
    r"\b(?:got|caught|catch|get)\s+(?:a\s+)?(?:few|couple|bunch|lot|lots|some|so many|many)\b", re.I
)


def drop_quantity(fact: ExtractedFact) -> ExtractedFact | None:
    """A value that opens with a vague quantity ("a few movies", "a bunch of mystery novels",
    "plenty of photos", "loads of love", "some of Dana's recipes") says the thing without it
    ("watches movies"); after a verb of finding or trying (``_SOME_OF_MANY``) it says nothing in
    particular and the fact is refused, and a pet got so ("we got a few fish") is a catch. A
    part ("a portion of Dana's profits") is no vague quantity. A plan keeps its words."""
    if fact.predicate == "plans":
        return fact
    value = fact.literal
    m = _QUANTITY.match(value)
    if m is None:
        return fact
    rest = value[m.end() :].strip()
    if not rest or rest.casefold().startswith(("of ", "them", "it ")) or rest.casefold() in ("of", "more"):
        return fact
    possessor = rest.split()[0]
    if possessor.endswith(("'s", "’s")) and value[: m.end()].casefold().strip() in ("some", "a few", "few"):
        return fact  # "a few Dana's" is no phrase: leave it to the gates
    if fact.predicate in _SOME_OF_MANY or fact.predicate.split("_")[0] in _SOME_OF_MANY:
        return None
    if fact.predicate == "has_pet" and _CAUGHT.search(fact.quote or ""):
        return None
    return _with_value(fact, rest)


_PROGRESSIVE = re.compile(
    r"\b(?:i'm|i am|we're|we are|im)\s+(?:(?:just|also|still|really|actually|finally|currently)\s+)?"
    r"([a-z]+ing)\b",
    re.IGNORECASE,
)
_AHEAD_TIME = re.compile(
    r"\b(?:tomorrow|tonight|soon|later (?:today|this \w+|on)|"
    r"(?:this|next|coming) (?:weekend|week|month|year|summer|winter|spring|fall|autumn|morning|"
    r"afternoon|evening|mon|tues|wednes|thurs|fri|satur|sun)\w*|"
    r"in (?:a|an|two|three|a few|a couple of) (?:days?|weeks?|months?)|"
    r"(?:two|three|a few|a couple of) (?:days|weeks|weekends|months) (?:later|from now))\b",
    re.IGNORECASE,
)


def _base_form(third: str) -> str:
    """puts → put, organizes → organize, tries → try, watches → watch, goes → go."""
    if third.endswith("ies") and len(third) > 4:
        return f"{third[:-3]}y"
    if third.endswith(("ches", "shes", "sses", "xes", "zzes", "oes")):
        return third[:-2]
    return third[:-1] if third.endswith("s") and not third.endswith("ss") else third


def as_plan(fact: ExtractedFact) -> ExtractedFact:
    """An open fact of a present progressive with a time ahead (``coming_progressive``: "We're
    putting together a talent show for the kids next month") is the plan it states: plans "put
    together talent show for the kids next month", inferred like every plan."""
    if not coming_progressive(fact):
        return fact
    m = _AHEAD_TIME.search(fact.quote or "")
    words = [_base_form(fact.predicate.split("_")[0]), *fact.predicate.split("_")[1:], fact.literal]
    if m is not None:
        words.append(m.group(0))
    return fact.model_copy(
        update={
            "predicate": "plans",
            "object": None,
            "object_kind": "thing",
            "value": " ".join(words),
            "source_kind": "inferred",
            "confidence": min(fact.confidence, 0.5),
        }
    )


def coming_progressive(fact: ExtractedFact) -> bool:
    """ "I'm hiking with some buddies this weekend", "We're trying a new recipe tonight": an open
    fact of a present progressive with a time ahead in its sentence is a plan (read apart), not
    what the subject does now. The time phrase is cut before the parse, so this reads the quote:
    the progressive's verb is the predicate's ("hiking" of "hikes_with")."""
    if fact.predicate in VOCABULARY or not fact.quote or _AHEAD_TIME.search(fact.quote) is None:
        return False
    if _PROGRESSIVE.search(fact.quote) is None:
        return False
    head = fact.predicate.split("_")[0].casefold()
    head = f"{head[:-3]}y" if head.endswith("ies") else head
    return any(g.casefold()[:3] == head[:3] for g in _GERUND.findall(fact.quote))


_GERUND = re.compile(r"\b[A-Za-z]{2,}ing\b")


_OWN_WORD = re.compile(r"(?<![\w'])(my|our)(?=\s+\w)", re.IGNORECASE)


def own_possessive(fact: ExtractedFact, speakers: Speakers) -> ExtractedFact | None:
    """A value that kept the speaker's "my"/"our" (the phrasing rules' values: "likes camping trips
    with my fam", "likes running my own studio") names the speaker's own: "Dana's fam". An "our"
    of a group ("our community", "our friendship": ``group_our``) is nobody's own and the fact is
    refused; with no speaker's name ("user") the gates refuse the "my" as before."""
    value = fact.literal
    if _OWN_WORD.search(value) is None or speakers.speaker in ("", "user"):
        return fact
    words = value.split()
    if any(group_our(words, i) for i in range(len(words))):
        return None
    return _with_value(fact, _OWN_WORD.sub(f"{speakers.speaker}'s", value))


_DASH_GLUED = re.compile(r"(?<=\w)-(?:\s|$)")


def cut_glued_dash(fact: ExtractedFact) -> ExtractedFact:
    """A dash glued to the word before it ends the phrase ("kids' books- classics, stories" →
    "kids' books", "surfing for the first time- it was" → "surfing for the first time"); what
    follows it is an aside or another clause."""
    m = _DASH_GLUED.search(fact.literal)
    if m is None or not fact.literal[: m.start()].strip():
        return fact
    return _with_value(fact, fact.literal[: m.start()].rstrip())


def gate_facts(facts: list[ExtractedFact], speakers: Speakers) -> list[ExtractedFact]:
    out = []
    for f in facts:
        g = own_possessive(f, speakers)
        g = (
            None
            if g is None
            else drop_quantity(cut_torn_examples(drop_time_tail(as_plan(place_in_name(cut_glued_dash(g))))))
        )
        if g is None:
            if TRACE is not None:
                TRACE.append(("quantity", f))
            continue
        gate = rejected_by(g, speakers)
        if gate is None:
            out.append(g)
        elif TRACE is not None:
            TRACE.append((gate, g))
    return out


_ARTICLES = re.compile(r"(?<=\s)(?:a|an|the)\s+")


def _said_better(fact: ExtractedFact, facts: list[ExtractedFact]) -> bool:
    """ "does volunteering" beside "volunteers at animal shelter", "does training" beside "trains
    for triathlon" (one sentence): the bare activity repeats, vaguer, the deed the same verb states
    with its object."""
    if fact.predicate != "does" or len(fact.literal.split()) != 1 or not fact.literal.endswith("ing"):
        return False
    stem = fact.literal.casefold()[:-3][:4]
    return len(stem) >= 3 and any(
        o is not fact
        and o.subject == fact.subject
        and o.quote == fact.quote
        and o.predicate not in VOCABULARY
        and o.predicate.casefold().startswith(stem)
        for o in facts
    )


def merge_duplicates(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """One fact per claim in an episode (values compared without articles: "take a team trip" is
    "take team trip"): the first mention (and its time) wins; a bare activity the same sentence
    states better goes (``_said_better``)."""
    seen: set[tuple[str, ...]] = set()
    unique = []
    facts = [f for f in facts if not _said_better(f, facts)]
    for fact in facts:
        value = " ".join(_ARTICLES.sub(" ", f" {fact.literal.casefold()} ").split())
        key = (fact.subject.casefold(), fact.predicate, value, fact.claim, fact.qualifier)
        if key not in seen:
            seen.add(key)
            unique.append(fact)
    return unique


_WILL = frozenset({"'ll", "will", "ll"})
_FIRST = frozenset({"i", "we"})


def _clause_chain(verb: Token) -> list[Token]:
    """``verb`` and the heads it shares its auxiliaries and subject with (conjuncts, xcomps)."""
    chain = [verb]
    while chain[-1].dep_ in ("conj", "xcomp") and chain[-1].head.i != chain[-1].i:
        chain.append(chain[-1].head)
    return chain


_TELL = frozenset("let send tell show share text call email message update post keep forward".split())


def _offer(verb: Token, speakers: Speakers) -> bool:
    """ "I'll send you the link", "I'll let you know", "I'll share the recipe": an "I'll" about
    the listener (you, your, their name) or a verb of telling, not the speaker's own plan ("I
    will paint a mural")."""
    chain = _clause_chain(verb)
    will = any(c.dep_ == "aux" and c.lower_ in _WILL for v in chain for c in v.children)
    first = any(c.dep_ == "nsubj" and c.lower_ in _FIRST for v in chain for c in v.children)
    if not (will and first):
        return False
    other = set((speakers.other or "").split())
    listener = any(t.lower_ in ("you", "your", "ya") or t.text in other for t in verb.subtree)
    return listener or verb.lemma_.lower() in _TELL


def _wished(verb: Token) -> bool:
    ancestors = {verb.i, *(a.i for a in verb.ancestors)}
    return any(t.lower_ == "hopefully" and t.head.i in ancestors for t in verb.doc)


def said_to_listener(doc: Doc, speakers: Speakers, future: bool) -> set[str]:
    """The clause texts of offers and wishes (module docstring)."""
    out: set[str] = set()
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        if (_offer(verb, speakers) and not future) or _wished(verb):
            out.add(clause_text(verb))
    return out


_LIKING = {
    "likes": frozenset("like love enjoy adore".split()),
    "dislikes": frozenset("hate dislike detest".split()),
}


def _past_liking(verb: Token) -> bool:
    used_to = verb.dep_ == "xcomp" and verb.head.lemma_ == "use" and verb.head.tag_ == "VBD"
    return used_to or verb.tag_ == "VBD"


def mark_past_likings(claims: list[Claim], doc: Doc) -> None:
    """Mark ``past`` the likings of the module docstring: the value lies in a past liking verb's
    words and in no present one's ("I used to hate X, now I love X" keeps the present liking)."""
    for claim in claims:
        verbs = _LIKING.get(claim.predicate)
        if verbs is None or claim.past or claim.kind != "assert":
            continue  # an "end" of a liking ("used to" read by the phrasing rules) is already past
        value = [w for w in claim.obj.casefold().split() if not w.endswith("'s")]  # "my X" → "Dana's X"
        past = present = False
        for tok in doc:
            if tok.lemma_.lower() not in verbs or tok.pos_ != "VERB":
                continue
            words = {t.lower_ for t in tok.subtree}
            if value and all(w in words for w in value):
                if _past_liking(tok):
                    past = True
                else:
                    present = True
        if past and not present:
            claim.past = True
