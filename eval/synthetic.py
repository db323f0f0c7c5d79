"""A deterministic synthetic tenant for the speed benchmark (EVAL.md §3).

``Tenant(episodes=N, facts=M, seed=S)`` yields the same conversational English turns, explicit facts
and queries on every machine: sessions of 8-30 turns between two people, each turn from one of ~40
templates naming people, places, companies, pets, hobbies and foods; facts about a pool of people
with explicit subjects and predicates (``lives_in``, ``works_at``, ``likes``, ``has_pet``, ...), some
functional ones changing over time so supersession chains exist; and a fixed query mix (questions,
keyword queries, paraphrases) over entities that are in the tenant. Nothing is random at run time
beyond ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from graphmem.models.episode import EpisodeIn
from graphmem.models.fact import FactIn

FIRST = """Alice Bob Carol David Emma Frank Grace Henry Isla Jack Kara Liam Maya Noah Olivia Peter Quinn
Rosa Sam Tara Umar Vera Will Xena Yusuf Zoe Aaron Bella Caleb Daisy Ethan Fiona George Hana Ivan Julia Kevin
Lena Marco Nina Oscar Paula Rafael Sofia Theo Uma Victor Wendy Yara Zack Amir Bianca Chen Dmitri Elena Farid
Gita Hugo Ines Jonas Keiko Lucas Mei Nadia Omar Priya Ravi Selin Tomas Ulla Vikram Wei Ximena Yuki Zainab
Anton Bruno Clara Diego Elif Felix Greta Hamid Ingrid Jamal Klara Leon Mira Nils Orla Pablo Rhea Stefan
Tilda Ugo Valentina Wanda Xavier Yosef Zelda""".split()
LAST = """Smith Garcia Chen Muller Rossi Novak Silva Kim Patel Ivanova Haddad Okafor Larsen Dubois Tanaka
Kowalski Nguyen Costa Fischer Moreau Jensen Horvat Sato Ali Brown Lopez Weber Romano Berg Ahmed Park Santos
Meyer Conti Lindqvist Yilmaz Ortiz Suzuki Schmidt Ferrari""".split()
CITIES = """Lisbon Porto Madrid Barcelona Paris Lyon Berlin Munich Hamburg Vienna Prague Warsaw Krakow Rome
Milan Naples Athens Istanbul Cairo Nairobi Lagos Accra Dubai Mumbai Delhi Bangalore Singapore Jakarta Manila
Tokyo Osaka Seoul Busan Shanghai Hangzhou Beijing Shenzhen Sydney Melbourne Auckland Toronto Montreal
Vancouver Seattle Portland Denver Chicago Boston Austin Miami Lima Bogota Santiago Quito Oslo Stockholm
Helsinki Copenhagen Dublin Edinburgh Manchester Brighton Zurich Geneva Brussels Amsterdam Rotterdam
Budapest Bucharest Sofia Riga Tallinn Vilnius Reykjavik Marrakesh Tunis Hanoi Bangkok""".split()
COMPANY_NAMES = """Acme Globex Initech Umbrella Hooli Vandelay Wonka Stark Wayne Cyberdyne Soylent Tyrell
Aperture Monarch Gringotts Oscorp Dynamics Nakatomi Virtucon Weyland Prestige Sterling Bluth Kramerica Rekall
Primatech Nimbus Quantum Helix Orbit Lumen Vertex Beacon Northwind Contoso Fabrikam Tailspin Litware Woodgrove
Proseware Alpine Lucerne Humongous Coho Zenith Polaris Keystone Evergreen Summit""".split()
PETS = "Biscuit Pepper Luna Milo Coco Rocky Bella Oreo Ziggy Nala Simba Mochi Waffles Pickles Juniper".split()
PET_KINDS = "dog cat parrot rabbit hamster tortoise ferret goldfish".split()
HOBBIES = """hiking climbing pottery painting chess surfing cycling baking photography knitting gardening
birdwatching kayaking running yoga swimming skiing fishing sailing woodworking calligraphy dancing
archery fencing""".split()
FOODS = "ramen tacos paella sushi dumplings curry pizza falafel pho risotto kimchi pierogi".split()
JOBS = """nurse teacher engineer designer chef pilot architect accountant journalist pharmacist lawyer
electrician photographer researcher librarian""".split()
SCHOOLS = "Oxford MIT Stanford ETH Tsinghua Sorbonne Bocconi Toronto Melbourne Kyoto".split()

TEMPLATES = (
    "I just got back from {city} with {friend}, the food was amazing.",
    "{friend} and I finally went {hobby} near {city} last weekend.",
    "Did I tell you {company} offered me a job as a {job}?",
    "My {pet_kind} {pet} knocked over the plant again this morning.",
    "We're thinking about moving to {city} next spring.",
    "I had the best {food} of my life at a tiny place in {city}.",
    "{friend} says {company} is hiring more {job}s this year.",
    "I started taking {hobby} lessons on Tuesdays, it's harder than it looks.",
    "My sister visited from {city} and we cooked {food} together.",
    "Work at {company} has been hectic, we ship a big release on Friday.",
    "Guess who I ran into at the airport in {city}? {friend}!",
    "I'm training for a {hobby} trip with {friend} in the summer.",
    "{pet} had a check-up at the vet, the {pet_kind} is totally fine.",
    "The conference in {city} was mostly about remote work.",
    "I've been reading about {hobby} every night before bed.",
    "{friend} got promoted to lead {job} at {company}, so proud of them.",
    "Our team at {company} is moving to a new office in {city}.",
    "I tried making {food} at home and it was a disaster.",
    "Remember when we went {hobby} in {city} and it rained all day?",
    "I'm applying to a master's program at {school}.",
    "{friend} graduated from {school} last year and moved to {city}.",
    "My neighbour's {pet_kind} keeps visiting our garden.",
    "We adopted a {pet_kind} and named it {pet}.",
    "I quit {company}, I needed a break from the commute.",
    "How was your week? Mine was all meetings and {food} takeaway.",
    "I booked flights to {city} for my birthday.",
    "{friend} is teaching me {hobby}, I'm terrible but it's fun.",
    "The rent in {city} keeps going up, we might have to move.",
    "My interview at {company} went well, they'll call on Monday.",
    "We celebrated {friend}'s birthday with {food} and karaoke.",
    "I can't believe it's been a year since I moved to {city}.",
    "I'm volunteering at the animal shelter on Saturdays now.",
    "Do you still go {hobby} with {friend}?",
    "My mentor at {company} suggested I learn more about {hobby}.",
    "We spent the holidays with my parents in {city}.",
    "Thanks for the {food} recipe, {friend} loved it.",
    "I'm nervous about the {job} certification exam next month.",
    "Our {pet_kind} {pet} turned five today!",
    "There's a new {food} place opening near the {company} office.",
    "I finally finished the {hobby} course I started in {city}.",
)

FACT_PREDICATES = (
    ("lives_in", "city"),
    ("works_at", "company"),
    ("likes", "hobby"),
    ("has_pet", "pet"),
    ("knows", "person"),
    ("studies_at", "school"),
    ("job_title", "job"),
    ("attribute:favorite_food", "food"),
)

QUERY_TEMPLATES = (
    "Where does {person} live?",
    "Who works at {company}?",
    "What does {person} like to do on weekends?",
    "Tell me about {first}'s pet",
    "trip to {city}",
    "{company} job offer",
    "Which city did {first} move to?",
    "{hobby} with friends",
    "Who has a {pet_kind} named {pet}?",
    "What is {person}'s job?",
    "best {food} in {city}",
    "Where did {person} study?",
    "Who does {person} know?",
    "{first} {hobby} lessons",
    "moving to {city} next year",
    "office in {city}",
)


@dataclass
class Tenant:
    """The synthetic tenant; iterate ``episodes()``, ``facts()``; read ``queries(n)``."""

    episodes_n: int
    facts_n: int
    seed: int = 7
    start: datetime = field(default_factory=lambda: datetime(2022, 1, 3, 9, 0, tzinfo=UTC))

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        size = max(50, min(len(FIRST) * len(LAST), self.facts_n // 4 + self.episodes_n // 50))
        pairs = [(f, la) for f in FIRST for la in LAST]
        rng.shuffle(pairs)
        self.people = [f"{f} {la}" for f, la in pairs[:size]]

    def _slots(self, rng: random.Random, speaker: str | None = None) -> dict[str, str]:
        friend = rng.choice(self.people)
        while friend == speaker:
            friend = rng.choice(self.people)
        return {
            "city": rng.choice(CITIES),
            "friend": friend.split()[0] if rng.random() < 0.6 else friend,
            "company": rng.choice(COMPANY_NAMES),
            "job": rng.choice(JOBS),
            "pet": rng.choice(PETS),
            "pet_kind": rng.choice(PET_KINDS),
            "hobby": rng.choice(HOBBIES),
            "food": rng.choice(FOODS),
            "school": rng.choice(SCHOOLS),
        }

    def episodes(self) -> Iterator[EpisodeIn]:
        """N turns in sessions of 8-30 turns, two speakers each, sessions about a day apart, closer
        together for large N so that every turn falls within four years of ``start`` (a reader
        refuses timestamps in the future)."""
        rng = random.Random(self.seed * 1_000_003 + 1)
        made, session = 0, 0
        gap = min(26.0, 4 * 365 * 24 / max(1.0, self.episodes_n / 19))  # ~19 turns a session
        while made < self.episodes_n:
            session += 1
            a, b = rng.sample(self.people, 2)
            length = min(rng.randint(8, 30), self.episodes_n - made)
            when = self.start + timedelta(hours=session * gap)
            for turn in range(length):
                speaker = a if turn % 2 == 0 else b
                text = rng.choice(TEMPLATES).format(**self._slots(rng, speaker))
                yield EpisodeIn(
                    content=text,
                    reference_time=when + timedelta(minutes=turn),
                    speaker=speaker,
                    session_id=f"s{session}",
                    external_id=f"s{session}:{turn + 1}",
                )
            made += length

    def _value(self, rng: random.Random, kind: str, subject: str) -> tuple[str | None, str | None]:
        """(object entity, literal value) for a predicate's kind."""
        if kind == "person":
            other = rng.choice(self.people)
            return (other if other != subject else self.people[0]), None
        pool = {"city": CITIES, "company": COMPANY_NAMES, "school": SCHOOLS}
        if kind in pool:
            return rng.choice(pool[kind]), None
        literal = {"hobby": HOBBIES, "pet": PETS, "job": JOBS, "food": FOODS}[kind]
        return None, rng.choice(literal)

    def facts(self) -> Iterator[FactIn]:
        """M explicit facts about the people pool; valid_from spread over three years."""
        rng = random.Random(self.seed * 1_000_003 + 2)
        for i in range(self.facts_n):
            subject = self.people[i % len(self.people)]
            predicate, kind = FACT_PREDICATES[rng.randrange(len(FACT_PREDICATES))]
            obj, value = self._value(rng, kind, subject)
            yield FactIn(
                subject=subject,
                predicate=predicate,
                object=obj,
                value=value,
                valid_from=self.start + timedelta(days=rng.randint(0, 3 * 365), hours=i % 24),
                source_kind="user_stated",
            )

    def queries(self, n: int = 240) -> list[str]:
        """A fixed mix of n queries: each template in turn, filled with tenant entities."""
        rng = random.Random(self.seed * 1_000_003 + 3)
        out = []
        for i in range(n):
            person = rng.choice(self.people)
            slots = self._slots(rng) | {"person": person, "first": person.split()[0]}
            out.append(QUERY_TEMPLATES[i % len(QUERY_TEMPLATES)].format(**slots))
        return out
