"""Cutting English objects out of the text that follows a matched verb phrase.

Capitalised objects keep their whole multiword name ("New York", "Acme Corp", "Bank of America");
lowercase objects run to the clause end ("," " and " " but " " because " ...), minus trailing
filler ("now", "these days", "anymore"). Pronouns and other empty objects ("it", "there", "home")
yield None. ``home_place`` drops a dwelling ("a flat in Oslo" is Oslo); ``is_adverb`` tells a
sentence-initial "Finally" or "Frankly" from a name ("Emily", "Kimberly").
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

NOT_NAMES = frozenset(
    "The A An This That These Those My Our Your His Her Their Its When After Before Since "
    "Last Next Yesterday Today Tomorrow Actually Sorry Correction Maybe Also Then So Well Oh "
    "Yes No Hi Hello Hey Thanks Thank Please Just Now Currently Recently Honestly Both "
    "Everyone Nobody Someone Everybody What Where Who Why How Which If Because But And Or Let "
    "Here There Once Every Some Many Most All Monday Tuesday Wednesday Thursday Friday "
    "Saturday Sunday January February March April May June July August September October "
    "November December Okay Ok Yeah Guess Anyway I Wow Lol Btw Sure Good Great Nice Cool "
    "Right Wait Oops Happy Merry Dear Mr Mrs Ms Dr".split()
)
_NAME_WORD = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
PERSON = rf"(?-i:{_NAME_WORD}(?: {_NAME_WORD}){{0,2}})"
"""One to three capitalised words: a person's name (matched case-sensitively)."""

REL = (
    r"(?:older |younger |little |big |baby |best |good |old |close |twin )?(?:sister|brother|"
    r"friend|wife|husband|partner|girlfriend|boyfriend|fiancee?|mom|mum|mother|dad|father|son|"
    r"daughter|cousin|aunt|uncle|boss|manager|colleague|co-?worker|neighbou?r|roommate|flatmate|"
    r"grandma|grandmother|grandpa|grandfather|niece|nephew|classmate|mentor)"
)
_ORG = re.compile(
    r"(?:[A-Z0-9][\w&'.\-]*)(?:(?: (?:of|de|del|du|la|le|the|&|van|von|der))* "
    r"[A-Z][\w&'.\-]*)*"
)
_ARTICLE = re.compile(r"^(?:the|an?|some)\s+", _I)
_PREPOSITION = re.compile(r"^(?:in|at|for|to|from|with|on|as)\s+", _I)
_CUT = re.compile(
    r"\s*(?:[,;:()\"]|\s-\s|\b(?:and|but|because|since|so|when|while|which|who|where|although|"
    r"though|whereas|until|unless|as well as|whenever)\b).*$",
    _I,
)
_TRAILING = re.compile(
    r"(?:\s+(?:now|right now|these days|currently|at the moment|anymore|any more|lately|recently|"
    r"nowadays|so much|a lot|very much|too|as well|really|again|though|either|for now|"
    r"for a while|at all|forever|today|here|there))+$",
    _I,
)
_EMPTY = frozenset(
    "it that this them him her you me us there here home myself yourself himself herself "
    "themselves one something anything everything nothing what which those these so to too "
    "lots it all work school".split()
)
_MAX_WORDS = 8
_NOT_OBJECT_START = frozenset("how what when where why who whether if that idea thought".split())
_SECOND_PERSON = frozenset("you your yours you're".split())

JOBS = frozenset(
    "engineer teacher nurse doctor designer developer manager lawyer student writer artist "
    "counselor counsellor chef cook accountant scientist researcher programmer analyst consultant "
    "architect professor lecturer pharmacist therapist dentist surgeon physician journalist editor "
    "photographer musician singer actor actress painter pilot firefighter officer detective "
    "mechanic electrician plumber carpenter farmer baker barista waiter waitress bartender cashier "
    "librarian salesperson entrepreneur founder ceo cto cfo director intern freelancer tutor coach "
    "trainer veterinarian vet psychologist worker clerk secretary assistant administrator "
    "technician paramedic economist banker investor marketer recruiter producer animator "
    "illustrator translator soldier instructor principal dietitian nutritionist attorney "
    "paralegal judge mathematician statistician biologist chemist physicist dancer poet novelist "
    "blogger influencer streamer caregiver midwife optometrist surveyor historian".split()
)
ROLES = JOBS | frozenset("lead head chief vp president supervisor chair captain partner".split())
"""Job head nouns plus ranks that only read as a job after "made me" / "named me"."""
PETS = frozenset(
    "dog dogs cat cats puppy puppies kitten kittens hamster hamsters rabbit rabbits bunny parrot "
    "bird birds fish goldfish turtle tortoise snake lizard gecko horse pony ferret chinchilla "
    "hedgehog budgie cockatiel pig retriever labrador poodle beagle terrier bulldog corgi husky "
    "dachshund shepherd spaniel chihuahua pug tabby kitty pup iguana".split()
)
_NOT_OWNED = frozenset(
    "job position role idea question problem feeling cold flu chance baby boyfriend girlfriend "
    "friend partner roommate hobby haircut look plan meeting interview dream lot time day week "
    "degree offer opportunity crush headache fever kid kids child children son daughter".split()
)
_SCHOOL = re.compile(r"\b(?:university|college|school|academy|institute|polytechnic|uni)\b", _I)


_ADVERBS = frozenset(
    "just finally still also already even only soon now then really truly newly sadly frankly "
    "luckily anyway anyhow so well honestly seriously basically literally obviously clearly "
    "apparently thankfully fortunately unfortunately hopefully ultimately suddenly officially "
    "recently currently lately eventually happily actually definitely totally kinda".split()
)
_LY_NAMES = frozenset(
    "beverly kimberly shelly everly reilly connolly donnelly o'reilly ashely natally".split()
)


def is_adverb(word: str) -> bool:
    """An adverb that may open a sentence ("Finally", "Frankly"); not a name ("Emily", "Kimberly").

    Known adverbs, plus words of six letters or more ending in "ly" that are not in a short list of
    such names (names ending in "ly" are mostly five letters or fewer: Emily, Kelly, Molly)."""
    w = word.lower()
    return w in _ADVERBS or (len(w) >= 6 and w.endswith("ly") and w not in _LY_NAMES)


def leading_name(text: str, *, allow_lower: bool = False) -> str | None:
    """The capitalised multiword name at the start of ``text`` (after "the"), if any."""
    text = _ARTICLE.sub("", text.strip())
    m = _ORG.match(text)
    if m is None:
        if allow_lower and re.match(r"[a-z]+\b", text):
            return text.split()[0].capitalize()
        return None
    name = m.group(0).strip()
    if name.endswith(".") and name.count(".") == 1:
        name = name[:-1]
    if not name or name.split()[0] in NOT_NAMES or name.lower() in _EMPTY:
        return None
    return name


def phrase(text: str) -> str | None:
    """A lowercase object: up to the clause end, without articles and trailing filler."""
    text = _CUT.sub("", text.strip())
    text = _TRAILING.sub("", text).strip(" .!?'\"")
    text = _ARTICLE.sub("", text)
    words = text.lower().split()
    if not words or text.lower() in _EMPTY or len(words) > _MAX_WORDS:
        return None
    if words[0] in _NOT_OBJECT_START or _SECOND_PERSON.intersection(words):
        return None
    return text


def object_for(mode: str, text: str) -> str | None:
    """``name``: capitalised names only; ``place``: a name, else a phrase; ``phrase``: the clause
    text (a leading name only when it is the whole clause: "Taylor Swift", but "Italian food")."""
    name = leading_name(text)
    if mode == "name":
        return name
    if mode == "place":
        return name if name is not None else phrase(text)
    if name is not None and _CUT.sub("", text.strip()).strip(" .!?") == name:
        return name
    return phrase(text)


def clean_place(text: str, *, strip_preposition: bool = False) -> str | None:
    if strip_preposition:
        text = _PREPOSITION.sub("", text.strip())
    return object_for("place", text)


_DWELLING = re.compile(
    r"^(?:(?:a|an|the|my|our|his|her|their|this|that) )?(?:(?:new|nice|small|tiny|little|big|"
    r"lovely|cozy|cosy|shared|rented|great|cute|beautiful|one-bedroom|two-bedroom) )*"
    r"(?:flat|apartment|place|house|home|condo|studio|loft|room|dorm|townhouse|cottage|villa) "
    r"(?:in|near) (?=\S)",
    _I,
)


def home_place(text: str) -> str | None:
    """Where someone lives: "a flat in Oslo" and "a new place in Rome" name the city."""
    return object_for("place", _DWELLING.sub("", text.strip(), count=1))


def job_parts(text: str, *, check: bool) -> tuple[str, str | None] | None:
    """Split "senior engineer at Acme" into ("senior engineer", "Acme"); check the head noun."""
    parts = re.split(r"\s+(?:at|for|with|in|from|on)\s+", text.strip(), maxsplit=1)
    title = phrase(parts[0])
    if title is None or len(title.split()) > 4:
        return None
    title = title.lower() if not title.isupper() else title
    if check and title.split()[-1].strip(".,") not in JOBS:
        return None
    org = leading_name(parts[1]) if len(parts) > 1 else None
    return title, org


def school(text: str) -> str | None:
    found = object_for("place", text)
    return found if found is not None and _SCHOOL.search(found) else None


def pet_or_thing(text: str, *, owns_verb: bool) -> tuple[str, str] | None:
    """("has_pet", "dog named Max") or ("owns", "car"); None for "a question", "a cold"..."""
    text = re.sub(r"\b(?:called|named)\b", "named", text.strip(), flags=_I)
    named = re.search(r"\bnamed ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)", text)
    base = phrase(text[: named.start()] if named else text)
    if base is None:
        return None
    is_new = re.match(r"(?:brand )?new\s+", base, _I) is not None
    base = re.sub(r"^(?:(?:brand )?new|little|cute|pet|sweet|another|other)\s+", "", base, flags=_I)
    words = [w.strip(".,").lower() for w in base.split()]
    if any(w in PETS for w in words[:4]) or "guinea pig" in base.lower():
        return "has_pet", f"{base} named {named.group(1)}" if named else base
    if not (owns_verb or is_new) or words[-1] in _NOT_OWNED or words[0] in _NOT_OWNED:
        return None
    return "owns", base
