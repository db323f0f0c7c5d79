"""Classes of chat statements read off the dependency tree that no verb-object rule reads.

Each reader works on one clause head whose subject resolves (``subject_of``: "I"/"we" or a chat
sentence without its "I" → the speaker; a name; "you" → the other speaker of a two-party session),
skips negated, hypothetical and question clauses, and returns ``Claim`` objects; the quality
gates (``rules_en_gates``) judge them like every other claim.

- **plans and wishes** (``plans``, inferred): "I want to / hope to / plan to / aim to / can't wait
  to / am looking forward to X", "We're thinking about going camping", "Gonna continue my edu", and
  a present progressive with a future time phrase ("I'm having an art show next month"). A plan
  says what (``has_content``): "keep pushing", "explore more", "do better" give nothing.
- **dispositions with a to-infinitive** (``is_<adjective>_to``): "I'm determined to make it work",
  "I'm excited to meet other people" (adjectives of feeling or resolve, not "able", "sure").
- **what someone values** (``values``): "X is (so) special / important / precious to me", "X
  matters to me", "X means a lot / the world to me", "X speaks to me"; the value is the subject
  noun phrase, never a pronoun. Thanks to the listener are conversation, no value (``courtesy``):
  "Your support means a lot", "I appreciate your help", "Kind words mean a lot".
- **family and possessions said with have/got** (``has`` for a relative, ``owns`` for a thing):
  "I have a husband and two kids", "I'm lucky to have my sister", "I've got lots of kids' books";
  abstract nouns ("a question", "a blast", "time") give nothing.
- **activities** (``does``): a progressive or perfect progressive of a hobby verb without an
  object ("I've been painting a lot", "Been running longer"); "I love to paint" is ``likes``
  painting.
- **a described thing acted on** in the past: "I painted that lake sunrise last year": a
  demonstrative object with a content word beside its head is the thing itself ("paints lake
  sunrise"); a bare "that one" stays anaphoric.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.providers.extractors.en_parse import entity_label, parse
from graphmem.providers.extractors.rules_base import SPEAKER, Claim
from graphmem.providers.extractors.rules_en_events import passion_claims
from graphmem.providers.extractors.rules_en_lemma import verb_lemma
from graphmem.providers.extractors.rules_en_objects import PETS as PET_NOUNS
from graphmem.providers.extractors.rules_en_open import addressed
from graphmem.providers.extractors.rules_en_parse import (
    EVENT_NOUNS,
    SKIP_VERBS,
    TIME_UNITS,
    Speakers,
    clause_text,
    dropped_i,
    group_our,
    is_hypothetical,
    is_negated,
    object_phrase,
    question_clause,
    resolve_subject,
    third_person,
    tidy,
    trim,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_WISH_VERBS = frozenset("want hope plan intend aim wish long yearn aspire".split())
_THINK_ABOUT = frozenset("think consider".split())
_DISPOSITION_ADJS = frozenset(
    "determined excited eager ready keen thrilled stoked psyched pumped motivated committed "
    "dying itching nervous scared afraid anxious lucky grateful thankful blessed happy glad proud "
    "honored honoured relieved sad sorry".split()
)
_PLAN_ADJS = frozenset(
    "determined excited eager ready keen thrilled stoked psyched pumped dying itching".split()
)
_VALUE_ADJS = frozenset(
    "special important precious dear meaningful sacred vital essential interesting valuable".split()
)
_VALUE_VERBS = frozenset("matter mean speak".split())
_KIN = frozenset(
    "husband wife partner spouse kids kid children child son sons daughter daughters sister sisters "
    "brother brothers siblings sibling mom mum mother dad father parents grandma grandmother grandpa "
    "grandfather grandparents grandkids grandchildren aunt uncle cousin cousins niece nephew "
    "fiance fiancee boyfriend girlfriend family twins stepson stepdaughter".split()
)
_QUANTITY = frozenset("lots lot bunch couple plenty pile ton tons loads load number handful few".split())
_ABSTRACT = frozenset(
    "time idea chance question questions feeling feelings fun blast problem problems trouble plan "
    "plans day days week month year moment moments experience experiences way reason goal goals "
    "addition additions story stories project projects offer offers promotion promotions update updates "
    "dream dreams path paths journey journeys hope faith sense thing things stuff news luck courage strength support love "
    "passion interest interests point right rights choice choices option options opportunity "
    "feeling mind heart thoughts thought issue issues doubt doubts fear fears lot lots deal "
    "break rest voice say clue hunch knack talent skill skills energy patience respect vision "
    "access need needs desire urge habit habits tendency side part role job work life memories "
    "memory bond connection relationship friendship back picture pic photo photos pics picture "
    "look view taste sort kind bit ability power control shot go try crush cold flu headache".split()
)
_HOBBY_VERBS = frozenset(
    "paint draw sketch run jog swim hike bike cycle read write cook bake dance sing knit sew crochet "
    "garden camp fish surf ski snowboard skate climb practice practise train volunteer meditate "
    "travel study photograph sculpt craft journal blog skateboard kayak sail golf box row lift "
    "compose quilt embroider woodwork exercise".split()
)
_LOVE_NOUNS = frozenset("love passion fondness weakness".split())
_DEMONSTRATIVE = frozenset("this that these those".split())
_MAX_PLAN_TOKENS = 9


def subject_of(verb: Token, speakers: Speakers) -> tuple[str | None, bool] | None:
    """(SPEAKER or a name, is first person) for ``verb``'s clause, climbing conjuncts,
    open complements and adjective complements ("I'm lucky to have ..."); None when unresolved."""
    tok: Token | None = verb
    while tok is not None:
        subj = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass") and not addressed(c)), None)
        if subj is not None:
            return resolve_subject(subj, verb, speakers)
        if tok.dep_ in ("conj", "xcomp", "acomp", "pcomp", "prep") and tok.head.i != tok.i:
            tok = tok.head
            continue
        if tok.dep_ == "ROOT" and (
            dropped_i(tok) or tok.lower_ in ("gon", "gonna", "gotta") or _cant_wait(tok)
        ):
            return SPEAKER, True
        first = next((t for t in tok.doc if t.pos_ not in ("PUNCT", "INTJ", "CCONJ", "ADV")), None)
        if tok.dep_ == "advcl" and tok.tag_ == "VBD" and first is not None and first.i == tok.i:
            return SPEAKER, True  # "Just got back from a trip, it was fun!"
        return None
    return None


def _cant_wait(verb: Token) -> bool:
    """ "can't wait to X": a negated modal that asserts eagerness."""
    return verb.lemma_ == "wait" and any(c.lower_ == "ca" for c in verb.children) and is_negated(verb)


def _asserted(verb: Token) -> bool:
    if verb.doc.text.rstrip().endswith("?") or question_clause(verb):
        return False
    return _cant_wait(verb) or not is_hypothetical(verb)


_PHRASE_CUT = frozenset({"relcl", "advcl", "conj", "cc", "punct", "mark", "parataxis", "appos", "npadvmod"})


_LOCAL = frozenset({"conj", "cc", "punct"})  # inside a noun phrase they are its own ("focused and efficient")


def _plan_words(target: Token) -> list[Token]:
    """``target``'s words from the verb on, up to the first nested clause that is not its own
    complement ("make this studio work" keeps its ccomp; "..., which is exciting" is cut)."""
    cut = {
        u.i
        for t in target.subtree
        if t.i != target.i and t.dep_ in _PHRASE_CUT and (t.head.i == target.i or t.dep_ not in _LOCAL)
        for u in t.subtree
    }
    out: list[Token] = []
    for t in target.subtree:
        if t.i < target.i:
            continue
        if t.dep_ == "prep" and t.lower_ in ("because", "due", "despite") and t.head.i == target.i:
            break
        if t.i in cut:
            if len(out) > 1:
                break
            continue
        if t.text in ("-", "\u2013", "\u2014") and (t.whitespace_ or t.doc[t.i - 1].whitespace_):
            break  # "adopting a rescue dog - for love and ...": a dash ends the phrase
        out.append(t)
    return out


def noun_phrase(head: Token, speakers: Speakers) -> str | None:
    """``object_phrase``, or for a head it refuses as too generic ("time") the head with its compound
    and adjective words ("family time")."""
    yours = next((c for c in head.children if c.dep_ == "poss" and c.lower_ == "your"), None)
    if yours is not None and speakers.other:  # "your support" → "Sam's support"
        mods = [
            c for c in head.lefts if c.dep_ in ("compound", "amod") and c.pos_ in ("NOUN", "PROPN", "ADJ")
        ]
        return " ".join([f"{speakers.other}'s", *(t.text for t in [*mods, head])])
    value = object_phrase(head, speakers)
    if value is not None:
        first = next(iter(head.subtree))
        if (
            first.i == 0
            and first.pos_ in ("NOUN", "VERB", "ADJ")
            and value.startswith(first.text)
            and value[:1].isupper()
        ):
            value = value[:1].lower() + value[1:]  # "Mental health is important to me"
        return value
    if head.pos_ != "NOUN":
        return None
    words = [t.text for t in head.subtree]
    if any(group_our(words, i) for i in range(len(words))):
        return None  # "great respect for our military": the head alone would say nothing
    mods = [c for c in head.lefts if c.dep_ in ("compound", "amod") and c.pos_ in ("NOUN", "PROPN", "ADJ")]
    if not mods:
        return None
    first = mods[0]
    lead = first.text.lower() if first.i == 0 and first.pos_ in ("NOUN", "VERB", "ADJ") else first.text
    return " ".join([lead, *(t.text for t in [*mods[1:], head])])


def _verb_phrase(target: Token, speakers: Speakers) -> str | None:
    """ "continue Melanie's edu": ``target``'s words from the verb on, lemma first, the nested
    clauses left out; None for a pronoun inside or a bare verb."""
    words = trim(_plan_words(target))
    if len(words) < 2 or len(words) > _MAX_PLAN_TOKENS:
        return None
    out = [target.lemma_.lower()]
    texts = [t.text for t in words]
    for i, t in enumerate(words[1:], start=1):
        low = t.lower_
        if t.dep_ == "det" and low in ("a", "an", "the"):
            continue
        if low in ("my", "our"):
            if speakers.speaker in ("", "user") or group_our(texts, i):
                return None
            out.append(f"{speakers.speaker}'s")
        elif low in ("your",) and speakers.other:
            out.append(f"{speakers.other}'s")
        elif t.pos_ == "PRON" and low not in ("all", "each", "both", "something"):
            return None
        else:
            out.append(t.text)
    return tidy(" ".join(out))


_GENERIC_NOUNS = frozenset(
    "thing things stuff lot lots time times fun more bit way ways dream dreams goal goals destiny best "
    "vibes".split()
)  # generic, or an aspiration with no content of its own ("keep chasing my dreams")


def has_content(target: Token) -> bool:
    """A plan says what: a noun, a name or a number among the verb's words ("open a bakery",
    "run for office"), not only adverbs and aspect verbs ("keep pushing", "explore more", "do
    better", "keep going") nor an aspiration ("keep pursuing my goals", "make my dreams come
    true")."""
    return any(
        (t.pos_ in ("NOUN", "PROPN", "NUM") or (t.dep_ in ("pobj", "dobj") and t.tag_ == "VBG"))
        and t.lemma_.lower() not in _GENERIC_NOUNS
        for t in _plan_words(target)[1:]
    )  # a gerund object counts: "go into policymaking"


def _to_verb(head: Token) -> Token | None:
    """The to-infinitive (or gerund after a preposition) that ``head`` governs."""
    for c in head.children:
        if c.dep_ == "xcomp" and c.pos_ in ("VERB", "AUX") and c.tag_ == "VB":
            return c
        if c.dep_ == "prep" and c.lower_ in ("to", "about", "of", "on"):
            for g in c.children:
                if (
                    g.dep_ == "pcomp"
                    and g.tag_ == "VBG"
                    and not any(w.tag_ in ("WP", "WDT", "WRB") for w in g.subtree)
                ):
                    return g
    return None


_EVENT_PLAN_VERBS = frozenset("go head have host throw attend hold".split())


def _progressive(verb: Token) -> bool:
    return any(c.lower_ in ("am", "'m", "are", "'re") for c in verb.children if c.dep_ == "aux")


def _event_object(verb: Token) -> bool:
    """An event noun as the object, or after "to": "having a party", "going to a conference"."""
    objs = [c for c in verb.children if c.dep_ == "dobj"]
    objs += [o for p in verb.children if p.dep_ == "prep" and p.lower_ == "to" for o in p.children]
    return any(o.pos_ == "NOUN" and o.lemma_.lower() in EVENT_NOUNS for o in objs)


_NOT_PLANNED = frozenset(
    "be say think know mean guess bet sound look seem feel hope wish need let thank wait remember "
    "forget happen agree understand imagine believe suppose wonder mind care love like enjoy hate "
    "appreciate cherish miss".split()
)
_PERCEIVE = frozenset("see hear watch check read know".split())


_PAST_AUX = frozenset("was were had 'd".split())


def wish_in_past(verb: Token) -> bool:
    """ "I wanted to make the place cozy", "I'd been wanting to try yoga", "I was hoping to go",
    "I was excited to meet them": a wish said in the past is no current plan (it was done or
    dropped); "I've always wanted to learn Spanish" (present perfect) still holds."""
    auxes = [c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if verb.lemma_ == "be":
        return verb.tag_ == "VBD"
    if verb.tag_ == "VBD" and not _cant_wait(verb):
        return True
    return any(a in _PAST_AUX for a in auxes) and verb.tag_ in ("VBG", "VBN")


def plan_claims(verb: Token, speakers: Speakers, future: bool) -> list[Claim]:
    """Wishes and plans of the speaker (module docstring)."""
    lemma = verb_lemma(verb)  # the small model reads "hoping" as "hop"
    target: Token | None = None
    if lemma in _WISH_VERBS or (lemma == "look" and any(c.lower_ == "forward" for c in verb.children)):
        target = _to_verb(verb)
        if lemma == "look":
            prep = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ == "to"), None)
            target = next((g for g in prep.children if g.tag_ == "VBG"), None) if prep else None
    elif _cant_wait(verb):  # "can't wait to X"
        target = _to_verb(verb)
    elif lemma in _THINK_ABOUT and verb.tag_ == "VBG":
        target = _to_verb(verb) or next(
            (c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VBG"), None
        )
    elif verb.lemma_ == "be" and any(
        c.lower_ == "off" for c in verb.children if c.dep_ in ("advmod", "prt", "acomp")
    ):
        target = next(
            (c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None
        )  # "I'm off to do X"
    elif verb.lemma_ == "be":
        adj = next((c for c in verb.children if c.dep_ == "acomp" and c.lower_ in _PLAN_ADJS), None)
        target = _to_verb(adj) if adj is not None else None
    elif verb.lower_ in ("gon", "gonna") or (lemma == "go" and verb.tag_ == "NN"):
        target = next(
            (c for c in verb.children if c.pos_ == "VERB" and c.tag_ == "VB" and c.i > verb.i), None
        )
    elif verb.tag_ == "VBG" and _progressive(verb) and _to_verb(verb) is None:
        if (_event_object(verb) and lemma in _EVENT_PLAN_VERBS) or (future and lemma not in SKIP_VERBS):
            target = verb  # "I'm having an art show next month", "I'm going to a conference"
    if target is None or target.lemma_.lower() in _NOT_PLANNED or wish_in_past(verb):
        return []
    if target.lemma_.lower() in _PERCEIVE and not any(
        c.dep_ == "dobj" and c.pos_ == "PROPN" for c in target.children
    ):  # "can't wait to see the vid", "excited to hear more": no plan of one's own
        return []
    if not _cant_wait(verb) and (is_negated(verb) or is_negated(target)):
        return []
    if not has_content(target):
        return []
    value = _verb_phrase(target, speakers)
    return [Claim("plans", value, inferred=True, keeps_time=True)] if value else []


def disposition_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm determined to make it work" → is_determined_to "make it work" (not plans adjectives:
    those are plans); "I'm lucky to have X" is read by ``have_claims``."""
    if verb.lemma_ != "be" or is_negated(verb):
        return []
    adj = next((c for c in verb.children if c.dep_ == "acomp" and c.lower_ in _DISPOSITION_ADJS), None)
    if adj is None or adj.lower_ in _PLAN_ADJS:
        return []
    target = next((c for c in adj.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
    if target is None or target.lemma_.lower() in ("have", "be", "say", "hear", "see", "know"):
        return []
    if not has_content(target):
        return []
    value = _verb_phrase(target, speakers)
    return [Claim(f"is_{adj.lower_}_to", value)] if value else []


def _experiencer_me(tok: Token) -> bool:
    return any(
        c.dep_ in ("prep", "dative")
        and c.lower_ in ("to", "for")
        and any(o.lower_ == "me" for o in c.children)
        for c in tok.children
    )


_BENEFIT_VERBS = frozenset("help make keep bring give calm relax inspire motivate remind".split())
_BENEFIT_NOUNS = frozenset("joy peace happiness comfort strength hope calm purpose energy".split())


_DECIDING = frozenset("want decide think realize realise wonder reflect question rethink wish choose".split())


def _benefits_me(verb: Token) -> bool:
    """ "Painting helps me relax", "Running keeps me sane", "Clay brings me so much joy", "Art
    makes me happy": a thing doing the speaker good (not "reminds me of X": a memory)."""
    lemma = verb.lemma_.lower()
    if lemma not in _BENEFIT_VERBS or lemma == "remind":
        return False
    comps = [c for c in verb.children if c.dep_ in ("ccomp", "xcomp", "oprd", "acomp")]
    direct = any(c.lower_ == "me" and c.dep_ in ("dobj", "dative") for c in verb.children)
    nested = any(c.lower_ == "me" and c.dep_ == "nsubj" for comp in comps for c in comp.children)
    if not (direct or nested):
        return False
    if any(c.lemma_.lower() in _DECIDING for c in comps):
        return False  # "Seeing X made me want to act / decide to help": a cause, not a good
    if lemma in ("bring", "give"):
        return any(c.dep_ == "dobj" and c.lemma_.lower() in _BENEFIT_NOUNS for c in verb.children)
    return bool(comps) or lemma in ("help", "calm", "relax", "inspire", "motivate")


def _whole_gerund(gerund: Token) -> bool:
    """A gerund subject the value can name whole: "Dancing", "Painting landscapes"; not "Seeing my
    students get better" (a clause inside) nor "Playing it" (a pronoun)."""
    if any((t.pos_ == "PRON" and t.tag_ != "PRP$") or t.lower_ in _DEMONSTRATIVE for t in gerund.subtree):
        return False  # "Playing it", "Seeing this pic": a thing of the conversation
    return not any(c.dep_ in ("ccomp", "xcomp", "advcl") for c in gerund.children)


_REACTIONS = frozenset(
    "glad happy great nice good awesome cool amazing sweet lovely wonderful touching".split()
)


def _means_a_lot(verb: Token) -> bool:
    """ "Your support really means a lot": said to the listener, the experiencer is the speaker;
    under a reaction ("Glad the stuffed animal means so much!") it is the listener, whose thing
    it is."""
    if verb.dep_ == "ccomp" and verb.head.lower_ in _REACTIONS:
        return False
    return verb.lemma_.lower() == "mean" and any(
        c.dep_ in ("dobj", "npadvmod", "advmod")
        and c.lemma_.lower() in ("lot", "much", "world", "ton", "everything")
        for c in verb.children
    )


_SPEECH_ACTS = frozenset(
    "word words compliment compliments message messages note notes comment comments feedback praise "
    "thanks wish wishes reply response advice input".split()
)


def courtesy(head: Token, speakers: Speakers) -> bool:
    """A noun phrase a thank-you is about, not a fact about the speaker: the listener's own
    (support, help, kindness, words: "your support means a lot", "I appreciate your patience")
    or a speech act ("kind words mean a lot")."""
    if head.lemma_.lower() in _SPEECH_ACTS or head.lower_ in _SPEECH_ACTS:
        return True
    for c in head.children:
        if c.dep_ != "poss":
            continue
        if c.lower_ in ("your", "yours") or (speakers.other and c.text in speakers.other.split()):
            return True
    return False


def _bare_definite(noun: Token) -> bool:
    """ "the colors", "the name": "the" and a common noun with nothing saying which (a thing of
    the conversation); "the rainbow flag mural", "the people around me" say which."""
    if noun.pos_ != "NOUN":
        return False
    children = list(noun.children)
    return any(c.dep_ == "det" and c.lower_ == "the" for c in children) and all(
        c.dep_ in ("det", "punct") for c in children
    )


def value_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "X is special to me", "X matters to me", "X means a lot to me", "X speaks to me" → the
    speaker values X (the subject noun phrase)."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "csubj")]
    subj = subjects[0] if len(subjects) == 1 else None  # two subjects: a broken parse
    if subj is None or not (subj.pos_ in ("NOUN", "PROPN") or subj.tag_ == "VBG") or is_negated(verb):
        return []
    lemma = verb.lemma_.lower()
    if lemma == "be":
        adj = next((c for c in verb.children if c.dep_ == "acomp" and c.lower_ in _VALUE_ADJS), None)
        if adj is None or not (_experiencer_me(adj) or _experiencer_me(verb)):
            return []
    elif not (
        (lemma in _VALUE_VERBS and (_experiencer_me(verb) or _means_a_lot(verb))) or _benefits_me(verb)
    ):
        return []
    if subj.lower_ in _DEMONSTRATIVE or any(
        (c.dep_ == "poss" and c.tag_ == "PRP$" and c.lower_ not in ("my", "our"))
        or (c.dep_ == "det" and c.lower_ in _DEMONSTRATIVE)
        for c in subj.children
    ):
        return []  # "his X", "your X" (thanks to the listener), "that pic" (a thing of the talk)
    if courtesy(subj, speakers):
        return []
    if _bare_definite(subj):
        return []  # "The colors make me feel calm": the colors of something shown, not a value
    if subj.tag_ == "VBG" and not _whole_gerund(subj):
        return []
    value = noun_phrase(subj, speakers)
    return [Claim("values", value)] if value else []


def _owned(obj: Token) -> Token | None:
    """The possessed noun: "lots of kids' books" is the books; abstract nouns are none."""
    if obj.lower_ in _QUANTITY:
        inner = next(
            (
                o
                for p in obj.children
                if p.dep_ == "prep" and p.lower_ == "of"
                for o in p.children
                if o.dep_ == "pobj"
            ),
            None,
        )
        if inner is None:
            return None
        obj = inner
    lemma = obj.lemma_.lower()
    if (
        obj.pos_ != "NOUN"
        or lemma in _ABSTRACT
        or obj.lower_ in _ABSTRACT
        or lemma in EVENT_NOUNS | _TRIP_NOUNS
    ):
        return None
    return obj


def _own_value(obj: Token, speakers: Speakers) -> str | None:
    value = noun_phrase(obj, speakers)
    if value is None:
        return None
    prefix = f"{speakers.speaker}'s "  # "my husband" → "husband": the owner is the subject
    return value[len(prefix) :] if value.startswith(prefix) else value


_LUCKY = frozenset("lucky blessed fortunate grateful thankful glad happy".split())


def _generic_subject(verb: Token) -> bool:
    """ "We all have our paths", "We both have kids": a generic or shared statement."""
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    return subj is not None and any(c.lower_ in ("all", "both") for c in [*subj.children, *verb.children])


_AHEAD = frozenset("upcoming coming next soon".split())


def _ahead(verb: Token) -> bool:
    return any(t.lower_ in _AHEAD for t in verb.subtree)


def have_claims(verb: Token, speakers: Speakers, future: bool = False) -> list[Claim]:
    """ "I have a husband and two kids", "I'm lucky to have my sister" → has; "I've got lots of
    books" → owns (present tense, not negated, concrete nouns only); "I've always had a love for
    horses" → likes; "I've got a tournament next month" → plans (an event with a time ahead: a
    future time phrase or "coming up", "upcoming", "next")."""
    lemma = verb.lemma_.lower()
    resolved = subject_of(verb, speakers)
    first_person = resolved is not None and resolved[1]
    perfect = any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children)
    got = lemma == "get" and verb.tag_ in ("VBD", "VBN") and perfect
    if not (got or lemma == "have") or is_negated(verb) or _generic_subject(verb):
        return []
    present = (
        got
        or verb.tag_ in ("VBP", "VBZ")
        or (verb.tag_ == "VB" and verb.dep_ == "xcomp" and verb.head.lower_ in _LUCKY)
    )
    out: list[Claim] = []
    for obj in [c for c in verb.children if c.dep_ == "dobj"]:
        if obj.lemma_.lower() in _LOVE_NOUNS:
            target = next(
                (
                    o
                    for p in obj.children
                    if p.dep_ == "prep" and p.lower_ == "for"
                    for o in p.children
                    if o.dep_ == "pobj"
                ),
                None,
            )
            value = noun_phrase(target, speakers) if target is not None else None
            if value:
                out.append(Claim("likes", value))
            continue
        if not present:
            continue
        if first_person and obj.pos_ == "NOUN" and obj.lemma_.lower() in EVENT_NOUNS and verb.dep_ != "xcomp":
            if not (future or _ahead(verb)):
                continue  # "We have regular meetings", "now I have an external drive": no time ahead
            value = _verb_phrase(verb, speakers)  # "I've got a gaming tournament next month"
            if value and value.startswith("get "):
                value = "have " + value[4:]
            if value:
                out.append(Claim("plans", value, inferred=True, keeps_time=True))
            continue
        for one in [obj, *[c for c in obj.children if c.dep_ == "conj"]]:
            noun = _owned(one)
            if noun is None:
                continue
            kin = noun.lemma_.lower() in _KIN or noun.lower_ in _KIN
            described = any(c.dep_ in ("amod", "compound", "nummod", "poss") for c in noun.children)
            if not kin and (verb.dep_ == "xcomp" or not (described or noun is not one)):
                continue
            value = _own_value(noun, speakers)
            if value and (kin or first_person):
                out.append(Claim("has" if kin else "owns", value))
    return out


def _gerund(lemma: str) -> str:
    if lemma.endswith("ie"):
        return lemma[:-2] + "ying"
    if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")):
        return lemma[:-1] + "ing"
    if (
        len(lemma) >= 3
        and lemma[-1] not in "aeiouwxy"
        and lemma[-2] in "aeiou"
        and lemma[-3] not in "aeiou"
        and lemma in ("run", "swim", "jog", "shop", "skip", "sit", "plan", "chat", "row")
    ):
        return lemma + lemma[-1] + "ing"
    return lemma + "ing"


def activity_claims(verb: Token, future: bool = False) -> list[Claim]:
    """ "I've been painting a lot" → does painting; "I love to paint" → likes painting."""
    lemma = verb.lemma_.lower()
    if lemma in ("love", "like", "enjoy", "adore") and not is_negated(verb):
        inf = next((c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
        if (
            inf is not None
            and inf.lemma_.lower() in _HOBBY_VERBS
            and not any(c.dep_ in ("dobj", "prep") for c in inf.children)
        ):
            return [Claim("likes", _gerund(inf.lemma_.lower()))]
        return []
    if verb.tag_ != "VBG" or lemma not in _HOBBY_VERBS or is_negated(verb):
        return []
    auxes = [c.lower_ for c in verb.children if c.dep_ == "aux"]
    if not auxes or auxes[-1] not in ("been", "am", "'m", "are", "'re", "is", "'s"):
        if not (verb.dep_ == "ROOT" and dropped_i(verb)):
            return []
    if any(
        c.dep_ in ("dobj", "xcomp", "ccomp") and c.lemma_.lower() not in ("lot", "bunch", "ton")
        for c in verb.children
    ):
        return []
    if _other_sense(verb) or _practice_for(verb, lemma) or _coming(verb, auxes, future):
        return []
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    return [Claim("does", f"{verb.lower_} {particle}" if particle else verb.lower_)]


def _practice_for(verb: Token, lemma: str) -> bool:
    """ "I've been practicing (hard)", "Been practicing for my recital": practice says what only
    with what it is of or for, which the open rule reads ("practices_for" the recital); bare, it is
    no activity."""
    return lemma in ("practice", "practise")


def _coming(verb: Token, auxes: list[str], future: bool) -> bool:
    """ "I'm hiking with my cousins this weekend", "We're camping next month": a present
    progressive with a time ahead (``future``: the sentence's time phrase, cut before the parse,
    lies ahead) is a plan, read by ``plan_claims``, not an activity now."""
    present = bool(auxes) and auxes[-1] in ("am", "'m", "are", "'re", "is", "'s")
    return present and (future or _ahead(verb))


def _other_sense(verb: Token) -> bool:
    """ "running for office", "running around", "running out": a hobby verb whose particle, or
    for "run" whose "for"/"against" (not a time span), gives it another sense."""
    for c in verb.children:
        if c.dep_ in ("prt", "advmod") and c.lower_ in ("around", "errands", "late", "out", "away"):
            return True
        if c.dep_ == "prep" and c.lower_ in ("for", "against") and verb.lemma_.lower() == "run":
            if not any(o.lemma_.lower() in TIME_UNITS | {"while", "ages"} for o in c.children):
                return True
    return False


def described_thing_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I painted that lake sunrise last year" → paints "lake sunrise" (past tense only)."""
    if verb.tag_ != "VBD" or verb.lemma_.lower() in SKIP_VERBS or is_negated(verb):
        return []
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is None or dobj.pos_ != "NOUN":
        return []
    dets = {c.lower_ for c in dobj.children if c.dep_ == "det"}
    described = [c for c in dobj.children if c.dep_ in ("compound", "amod") and c.pos_ in ("NOUN", "ADJ")]
    if not dets & _DEMONSTRATIVE or not described or dobj.lemma_.lower() in _ABSTRACT:
        return []
    words = [*described, dobj]
    value = " ".join(t.text for t in sorted(words, key=lambda t: t.i))
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    name = "_".join(w for w in (third_person(verb_lemma(verb)), particle) if w)
    return [Claim(name, value)]


_GOOD = frozenset(
    "amazing awesome great wonderful fantastic incredible beautiful lovely cool fun relaxing calming "
    "therapeutic inspiring magical expressive graceful brilliant excellent epic gorgeous peaceful "
    "rewarding soothing fascinating addictive underrated timeless delicious".split()
)


def _favorite_of_mine(verb: Token) -> bool:
    return any(
        a.dep_ == "attr"
        and a.lemma_.lower() in ("favorite", "favourite", "fave")
        and any(p.lower_ == "of" and any(o.lower_ == "mine" for o in p.children) for p in a.children)
        for a in verb.children
    )


def liking_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "Harry Potter and Game of Thrones are amazing", "Contemporary dance is so expressive" →
    likes (a name, or a bare noun phrase with no article or possessive: a kind, not a thing of
    the conversation); "Love a good fantasy with strong characters" (a chat "I" dropped) → likes."""
    if is_negated(verb):
        return []
    if verb.dep_ == "ROOT" and verb.tag_ == "VB" and verb.lower_ in ("love", "like", "enjoy", "adore"):
        first = next((t for t in verb.doc if t.pos_ not in ("PUNCT", "INTJ", "ADV")), None)
        dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        definite = dobj is not None and any(
            c.dep_ in ("det", "predet") and c.lower_ in ("the", "all", *_DEMONSTRATIVE) for c in dobj.children
        )
        if (
            first is not None
            and first.i == verb.i
            and dobj is not None
            and dobj.pos_ in ("NOUN", "PROPN")
            and not definite
            and not courtesy(dobj, speakers)  # "Enjoy your family time!": a wish to the listener
        ):
            value = noun_phrase(dobj, speakers)
            return [Claim("likes", value)] if value else []
        return []
    if verb.lemma_ != "be" or verb.tag_ not in ("VBZ", "VBP", "VBN"):
        return []
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subj is not None and subj.pos_ in ("NOUN", "PROPN") and _favorite_of_mine(verb):
        value = noun_phrase(subj, speakers)  # "Spider-Man has always been a favorite of mine"
        return [Claim("likes", value)] if value else []
    if verb.tag_ == "VBN":
        return []
    adj = next((c for c in verb.children if c.dep_ == "acomp" and c.lower_ in _GOOD), None)
    if subj is None or adj is None or subj.pos_ not in ("NOUN", "PROPN"):
        return []
    if subj.pos_ == "NOUN" and any(c.dep_ in ("det", "poss") for c in subj.children):
        return []
    before = subj.doc[subj.left_edge.i - 1] if subj.left_edge.i > 0 else None
    if before is not None and before.lower_ in _DEMONSTRATIVE | {"the"}:
        return []  # "that painting is awesome" with "that" misread as a marker
    if any(t.pos_ in ("VERB", "AUX", "PRON") for t in subj.subtree):
        return []
    if subj.pos_ == "NOUN" and subj.lemma_.lower() in _ABSTRACT | EVENT_NOUNS:
        return []
    if subj.text in (speakers.speaker, speakers.other) or subj.text in (speakers.speaker.split() or [""])[:1]:
        return []  # "Melanie is amazing": praise of a person, no liking
    out = []
    for one in [subj, *[c for c in subj.children if c.dep_ == "conj"]]:
        value = noun_phrase(one, speakers)
        if value:
            out.append(Claim("likes", value))
    return out


def shown_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "These are my lucky basketball shoes", "This is my sister" → owns / has (a thing shown);
    "This was our tree last year" (past) shows what was."""
    if verb.lemma_ != "be" or is_negated(verb) or verb.tag_ == "VBD":
        return []
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    attr = next((c for c in verb.children if c.dep_ == "attr" and c.pos_ == "NOUN"), None)
    if subj is None or attr is None or subj.lower_ not in _DEMONSTRATIVE:
        return []
    if not any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in attr.children):
        return []
    noun = _owned(attr)
    if noun is None:
        return []
    value = _own_value(noun, speakers)
    kin = noun.lemma_.lower() in _KIN or noun.lower_ in _KIN
    return [Claim("has" if kin else "owns", value)] if value else []


def been_in_claims(verb: Token) -> list[Claim]:
    """ "I was in Chicago" → visited Chicago (a past stay in a named place)."""
    if verb.lemma_ != "be" or verb.tag_ != "VBD" or is_negated(verb):
        return []
    for p in verb.children:
        if p.dep_ == "prep" and p.lower_ == "in":
            place = next((o for o in p.children if o.dep_ == "pobj" and o.pos_ == "PROPN"), None)
            if place is not None:
                parts = [c for c in place.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"] + [place]
                return [Claim("visited", " ".join(t.text for t in parts), object_kind="place")]
    return []


def counted_claims(verb: Token) -> list[Claim]:
    """ "I scored 40 points" (the small model reads the count as an adverbial noun) → scores."""
    if verb.tag_ != "VBD" or verb.lemma_.lower() in SKIP_VERBS or is_negated(verb):
        return []
    if any(c.dep_ in ("dobj", "prep") for c in verb.children):
        return []
    for c in verb.children:
        if c.dep_ == "npadvmod" and c.pos_ == "NOUN" and c.lemma_.lower() not in TIME_UNITS:
            num = next((n for n in c.children if n.dep_ == "nummod"), None)
            if num is not None:
                return [Claim(third_person(verb_lemma(verb)), f"{num.text} {c.text}")]
    return []


def appreciation_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I really appreciate your support" → appreciates Sam's support (a noun phrase object)."""
    if verb.lemma_.lower() not in ("appreciate", "value", "admire", "respect") or is_negated(verb):
        return []
    if verb.tag_ == "VBN":
        return []
    if verb.tag_ not in ("VBP", "VBZ", "VB") or (verb.tag_ == "VB" and verb.dep_ != "ROOT"):
        return []
    dobj = next((c for c in verb.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")), None)
    if dobj is None or any(c.dep_ == "det" and c.lower_ in _DEMONSTRATIVE for c in dobj.children):
        return []
    if courtesy(dobj, speakers) or dobj.text in (speakers.other or "").split():
        return []  # "I appreciate your help", "I appreciate you, Sam": thanks
    value = noun_phrase(dobj, speakers)
    return [Claim(third_person(verb_lemma(verb)), value)] if value else []


_RETURN_VERBS = frozenset("get come return fly drive head".split())
_TRIP_NOUNS = frozenset("trip vacation holiday cruise getaway tour visit journey honeymoon break".split())


def back_from_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "Just got back from a family road trip", "We returned from our vacation" → attended (an
    event or a trip) or visited (a named place)."""
    if verb.lemma_.lower() not in _RETURN_VERBS or verb.tag_ not in ("VBD", "VBN") or is_negated(verb):
        return []
    back = verb.lemma_.lower() == "return" or any(c.lower_ == "back" for c in verb.children)
    if not back:
        return []
    preps = [c for c in verb.children if c.dep_ == "prep" and c.lower_ == "from"]
    preps += [p for b in verb.children if b.lower_ == "back" for p in b.children if p.lower_ == "from"]
    for p in preps:
        obj = next((o for o in p.children if o.dep_ == "pobj"), None)
        if obj is None:
            continue
        value = noun_phrase(obj, speakers)
        if value and obj.pos_ == "PROPN":
            return [Claim("visited", value, object_kind="place")]
        if value and obj.lemma_.lower() in EVENT_NOUNS | _TRIP_NOUNS:
            return [Claim("attended", value)]
    return []


_ACTIVITY_VERBS = frozenset("do practice practise play take".split())


def doing_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm doing kickboxing", "I've been doing aerial yoga" → does (an activity noun, said in the
    progressive); "doing great" (no noun) and abstract nouns give nothing."""
    if verb.lemma_.lower() != "do" or verb.tag_ != "VBG" or is_negated(verb):
        return []
    dobj = next((c for c in verb.children if c.dep_ == "dobj" and c.pos_ == "NOUN"), None)
    if dobj is None or dobj.lemma_.lower() in _ABSTRACT | {"work", "job", "homework", "chore", "chores"}:
        return []
    value = noun_phrase(dobj, speakers)
    return [Claim("does", value)] if value else []


_PICTURE = frozenset("pic pics picture pictures photo photos snap shot selfie".split())


def picture_claims(doc: Doc, speakers: Speakers) -> list[Claim]:
    """ "Here's a pic of my family", "a photo of my new bike" → has (a relative) or owns."""
    out: list[Claim] = []
    for tok in doc:
        if tok.lemma_.lower() not in _PICTURE or tok.pos_ != "NOUN":
            continue
        for p in tok.children:
            if p.dep_ != "prep" or p.lower_ != "of":
                continue
            for obj in p.children:
                if obj.dep_ != "pobj" or not any(
                    c.dep_ == "poss" and c.lower_ in ("my", "our") for c in obj.children
                ):
                    continue
                noun = _owned(obj)
                if noun is None or noun.lemma_.lower() in PET_NOUNS:
                    continue
                value = _own_value(noun, speakers)
                kin = noun.lemma_.lower() in _KIN or noun.lower_ in _KIN
                if value:
                    out.append(Claim("has" if kin else "owns", value))
    return out


_PERSON_NOUNS = frozenset(
    "mom mum dad parent mother father woman man girl kid vegan vegetarian introvert "
    "extrovert bookworm fan lover advocate enthusiast gamer athlete foodie nerd geek homebody ally veteran survivor "
    "newbie beginner native local immigrant christian muslim buddhist atheist".split()
)
_AGENT_SUFFIX = ("er", "ist", "or", "ian", "ent", "ant")
_RELATIONAL = frozenset("fan lover supporter believer advocate follower admirer enthusiast".split())
_NOT_IDENTITY = frozenset("mess wreck member part number matter order corner center winner".split())


_HEDGES = frozenset("kind sort bit of".split())


def _hedge(tok: Token) -> bool:
    """ "kind of a sucker for X", "sort of a night owl", "a bit of a foodie": a hedge before the
    article, none of the value's words."""
    return tok.lower_ in _HEDGES and tok.dep_ == "advmod"


def identity_claims(verb: Token, speakers: Speakers) -> list[Claim]:
    """ "I'm a single parent", "I'm a huge bookworm", "I'm an avid runner" → is (a person noun:
    one of a short list or an agent noun in -er/-ist/-or/-ian/-ent/-ant); jobs are the phrasing
    rules' ``job_title``. The value keeps its article: "Dana is an avid runner". A relational noun
    (fan, lover, supporter, believer) needs what it relates to: "a firm believer in second
    chances", "a nature lover"; "I'm a huge fan" alone gives nothing."""
    if verb.lemma_ != "be" or verb.tag_ not in ("VBP", "VBZ") or is_negated(verb):
        return []
    attr = next((c for c in verb.children if c.dep_ == "attr" and c.pos_ == "NOUN"), None)
    if attr is None or not any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in attr.children):
        return []
    head = attr.lemma_.lower()
    if head in _NOT_IDENTITY or head in _ABSTRACT or any(c.dep_ in ("relcl", "acl") for c in attr.children):
        return []
    if head not in _PERSON_NOUNS and not (head.endswith(_AGENT_SUFFIX) and len(head) > 4):
        return []
    compound = any(c.dep_ == "compound" for c in attr.children)
    of = next((p for p in attr.children if p.dep_ == "prep" and p.lower_ in ("of", "for", "in")), None)
    target = next((o for o in of.children if o.dep_ == "pobj"), None) if of is not None else None
    anaphoric = target is not None and any(c.lower_ in _DEMONSTRATIVE for c in target.subtree)
    complement = noun_phrase(target, speakers) if target is not None and not anaphoric else None
    if anaphoric:
        return []  # "a huge fan of this genre": which genre?
    if head in _RELATIONAL and not compound and complement is None:
        return []  # "I'm a huge fan": of what?
    words = [
        c
        for c in attr.lefts
        if c.dep_ in ("amod", "compound", "advmod", "nmod") and c.pos_ != "PRON" and not _hedge(c)
    ]
    hedged = any(_hedge(c) for c in attr.lefts)
    bare = attr.text if hedged else noun_phrase(attr, speakers)
    value = " ".join([*(t.text for t in words), attr.text]) if words else bare
    if not value:
        return []
    if complement is not None and of is not None:
        value = f"{value} {of.lower_} {complement}"
    article = "an" if value[:1].lower() in "aeiou" else "a"
    return [Claim("is", f"{article} {value}")]


_KEY = frozenset("key crucial vital essential".split())
_CONTRACTED_NEXT = frozenset("so super really very definitely always truly mostly just been".split())


def contracted_is(doc: Doc, speakers: Speakers) -> Doc | None:
    """ "Family's super important to me", "Good flooring's crucial", "Art's awesome for X": the
    small model reads a contracted "is" after a noun as a possessive, so the sentence has no verb
    and no reader fires. The sentence read again with "is" written out, when the "'s" follows a
    noun that is no person's name and comes before an adverb, an adjective that ends its phrase,
    or "my"/"a"/"the"; None otherwise (the one parse more runs only for such sentences)."""
    for t in doc:
        if t.lower_ not in ("'s", "\u2019s") or t.tag_ != "POS" or t.i == 0 or t.i + 1 >= len(doc):
            continue
        owner, after = doc[t.i - 1], doc[t.i + 1]
        if owner.pos_ not in ("NOUN", "PROPN") or owner.ent_type_ == "PERSON":
            continue
        if owner.text in (speakers.speaker, speakers.other, *speakers.speaker.split()):
            continue
        nxt = doc[t.i + 2] if t.i + 2 < len(doc) else None
        if after.lower_ in _CONTRACTED_NEXT or after.lower_ in ("my", "a", "an", "the"):
            pass
        elif (after.pos_ == "ADJ" or after.lower_ in _VALUE_ADJS | _GOOD | _KEY) and (
            nxt is None or nxt.pos_ not in ("NOUN", "PROPN", "ADJ")
        ):
            pass
        else:
            continue
        verb = " has" if after.lower_ == "been" or (nxt is not None and nxt.lower_ == "been") else " is"
        return parse(doc.text[: t.idx] + verb + doc.text[t.idx + len(t.text) :])
    return None


def chat_claims(doc: Doc, speakers: Speakers, future: bool) -> list[tuple[Claim, str]]:
    """Every reader's claims for the asserted clauses of ``doc``, each with its clause text; a
    contracted "is" read as a possessive (``contracted_is``) gives its values and likings."""
    out: list[tuple[Claim, str]] = []
    fixed = contracted_is(doc, speakers)
    if fixed is not None:
        # the opinions reader imports this module's neighbours: imported here, not at the top
        from graphmem.providers.extractors.rules_en_readers_opinions import opinion_claims

        for verb in fixed:
            if verb.lemma_ == "be" and _asserted(verb):
                found = value_claims(verb, speakers) + liking_claims(verb, speakers)
                found += passion_claims(verb, lambda t: object_phrase(t, speakers))
                opener = fixed[0]
                for c in found:
                    if c.obj.startswith(opener.text) and opener.pos_ == "PROPN" and not entity_label(opener):
                        c.obj = c.obj[:1].lower() + c.obj[1:]  # "Guitar's my thing": a word, no name
                out.extend((c, doc.text) for c in found)
        out.extend((c, doc.text) for c, _ in opinion_claims(fixed, speakers))
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") and verb.lower_ not in ("gon", "gonna"):
            continue
        if not _asserted(verb):
            continue
        values = value_claims(verb, speakers) + shown_claims(verb, speakers) + liking_claims(verb, speakers)
        resolved = subject_of(verb, speakers)
        claims = [*values]
        if resolved is not None:
            name, first = resolved
            own: list[Claim] = []
            if first:
                own += plan_claims(verb, speakers, future)
            own += disposition_claims(verb, speakers) + have_claims(verb, speakers, future)
            own += activity_claims(verb, future) + described_thing_claims(verb, speakers)
            own += been_in_claims(verb) + counted_claims(verb) + appreciation_claims(verb, speakers)
            own += back_from_claims(verb, speakers) + doing_claims(verb, speakers)
            if first:
                own += identity_claims(verb, speakers)
            for claim in own:
                claim.subject = name
            claims += own
        text = clause_text(verb)
        out.extend((c, text) for c in claims)
    out.extend((c, doc.text) for c in picture_claims(doc, speakers))
    return out
