"""The 14 ComLQ query types as data: definition, subgraph indicator, shape and a demonstration.

The shapes follow the standard complex-logical-query family (projection p, intersection i,
union u, negation n). In an indicator, E1..E3 are constant entities the query names, R1..R3
relations, ?v and ?w intermediate entities the query leaves unnamed, and ?t the target (the
answer). Triplets are listed in the indicator's order; a negated triplet carries its relation
prefixed with "NOT ".

``form`` says how the triplets combine into a logical form over passages: a list of triplet
indices is one term (the words of those triplets), ("and" | "or", parts...) combines parts and
("not", part) excludes one. Pure projection chains have no Boolean form (``None``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Form = Any  # list[int] | tuple[str, Form, ...]; kept loose because it is nested data


@dataclass(frozen=True)
class QueryType:
    """One ComLQ query type."""

    name: str
    definition: str
    indicator: str
    core_idea: str
    edges: int  # number of triplets
    negations: int  # number of negated triplets
    max_passages: int  # evidence may be spread over 1..max_passages passages of one title
    form: Form | None
    demo: dict[str, Any]  # {"passages": {label: text}, "output": {query, answer, triplets, ...}}


def _demo(passages: dict[str, str], query: str, answer: str, triplets: list[list[str]]) -> dict:
    return {
        "passages": passages,
        "output": {
            "query": query,
            "answer": answer,
            "triplets": triplets,
            "evidence": list(passages),
        },
    }


_TYPES: tuple[QueryType, ...] = (
    QueryType(
        "1p",
        "A one-hop query: start from one named entity and follow a single relation to the answer.",
        "{?t | (E1, R1, ?t)}",
        "One fact about one named entity, asked without giving the answer away.",
        1,
        0,
        1,
        None,
        _demo(
            {"D1": "Marie Curie was a physicist and chemist, born in Warsaw in 1867."},
            "In which city was Marie Curie born?",
            "Warsaw",
            [["Marie Curie", "born in", "?t"]],
        ),
    ),
    QueryType(
        "2p",
        "A two-hop chain: a relation leads from a named entity to an entity the query does not "
        "name, and a second relation leads from that entity to the answer.",
        "{?t | ∃?v: (E1, R1, ?v) ∧ (?v, R2, ?t)}",
        "The reader must first find the hidden middle entity, then follow one more relation.",
        2,
        0,
        2,
        None,
        _demo(
            {
                "D1": "Budapest is the capital and the most populous city of Hungary.",
                "D2": "The Danube divides Budapest into Buda on its west bank and Pest on its "
                "east bank.",
            },
            "Which river flows through the capital of Hungary?",
            "The Danube",
            [["Hungary", "has capital", "?v"], ["?v", "crossed by river", "?t"]],
        ),
    ),
    QueryType(
        "3p",
        "A three-hop chain: from a named entity through two unnamed entities, one relation "
        "after another, to the answer.",
        "{?t | ∃?v, ?w: (E1, R1, ?v) ∧ (?v, R2, ?w) ∧ (?w, R3, ?t)}",
        "Three relations in a row; neither middle entity appears in the query.",
        3,
        0,
        3,
        None,
        _demo(
            {
                "D1": "Parasite is a 2019 film directed by Bong Joon-ho. Bong was born in "
                "Daegu, South Korea, a country whose official language is Korean.",
            },
            "What is the official language of the country where the director of the film "
            "Parasite was born?",
            "Korean",
            [
                ["Parasite", "directed by", "?v"],
                ["?v", "born in country", "?w"],
                ["?w", "official language", "?t"],
            ],
        ),
    ),
    QueryType(
        "2i",
        "An intersection of two constraints: the answer is related to two different named "
        "entities, and both relations must hold.",
        "{?t | (E1, R1, ?t) ∧ (E2, R2, ?t)}",
        "Two independent conditions that the same answer satisfies at once.",
        2,
        0,
        2,
        ("and", [0], [1]),
        _demo(
            {
                "D1": "With Pierre Curie, Marie Curie discovered radium and polonium, an "
                "element she named after her native Poland.",
            },
            "Which element discovered by Marie Curie is named after her home country?",
            "Polonium",
            [["Marie Curie", "discovered", "?t"], ["Poland", "gives its name to", "?t"]],
        ),
    ),
    QueryType(
        "3i",
        "An intersection of three constraints: the answer is related to three named entities "
        "and all three relations must hold.",
        "{?t | (E1, R1, ?t) ∧ (E2, R2, ?t) ∧ (E3, R3, ?t)}",
        "Three independent conditions met by the same answer.",
        3,
        0,
        3,
        ("and", [0], [1], [2]),
        _demo(
            {
                "D1": "Jupiter, the largest planet of the Solar System, is a gas giant best "
                "known for the Great Red Spot, a storm larger than Earth.",
            },
            "Which gas giant has the Great Red Spot and is the largest planet in the Solar System?",
            "Jupiter",
            [
                ["gas giants", "include", "?t"],
                ["Great Red Spot", "located on", "?t"],
                ["Solar System", "has largest planet", "?t"],
            ],
        ),
    ),
    QueryType(
        "pi",
        "Projection then intersection: a two-hop chain from one named entity reaches candidate "
        "answers, and a separate relation from a second named entity must also hold for them.",
        "{?t | ∃?v: (E1, R1, ?v) ∧ (?v, R2, ?t) ∧ (E2, R3, ?t)}",
        "A chain and a one-hop condition meet on the answer.",
        3,
        0,
        2,
        ("and", [0, 1], [2]),
        _demo(
            {
                "D1": "The 1992 Summer Olympics were held in Barcelona.",
                "D2": "Barcelona is the capital of Catalonia, an autonomous community of Spain.",
            },
            "Which Spanish city hosted a Summer Olympics held in the 1990s?",
            "Barcelona",
            [
                ["1990s", "had Summer Olympics", "?v"],
                ["?v", "host city", "?t"],
                ["Spain", "contains city", "?t"],
            ],
        ),
    ),
    QueryType(
        "ip",
        "Intersection then projection: two relations from two named entities meet on an "
        "unnamed entity, and one more relation leads from it to the answer.",
        "{?t | ∃?v: (E1, R1, ?v) ∧ (E2, R2, ?v) ∧ (?v, R3, ?t)}",
        "First find the entity meeting both conditions, then ask about it.",
        3,
        0,
        2,
        ("and", [0], [1], [2]),
        _demo(
            {
                "D1": "Marie Curie received the Nobel Prize in Physics in 1903 and the Nobel "
                "Prize in Chemistry in 1911.",
                "D2": "Curie became the first woman to hold a professorship at the University "
                "of Paris.",
            },
            "At which university did the scientist who won both the Nobel Prize in Physics "
            "and the Nobel Prize in Chemistry teach?",
            "The University of Paris",
            [
                ["Nobel Prize in Physics", "awarded to", "?v"],
                ["Nobel Prize in Chemistry", "awarded to", "?v"],
                ["?v", "taught at", "?t"],
            ],
        ),
    ),
    QueryType(
        "2u",
        "A union of two branches: the answer is related to one named entity or to another; "
        "either relation is enough.",
        "{?t | (E1, R1, ?t) ∨ (E2, R2, ?t)}",
        "Answers from either branch count.",
        2,
        0,
        2,
        ("or", [0], [1]),
        _demo(
            {
                "D1": "Jane Austen wrote Pride and Prejudice and Emma.",
                "D2": "Charlotte Brontë is the author of Jane Eyre.",
            },
            "Which novels were written by Jane Austen or by Charlotte Brontë?",
            "Pride and Prejudice, Emma, Jane Eyre",
            [["Jane Austen", "wrote", "?t"], ["Charlotte Brontë", "wrote", "?t"]],
        ),
    ),
    QueryType(
        "up",
        "Union then projection: either of two relations from two named entities reaches "
        "unnamed entities, and one more relation leads from them to the answer.",
        "{?t | ∃?v: ((E1, R1, ?v) ∨ (E2, R2, ?v)) ∧ (?v, R3, ?t)}",
        "Collect the entities of both branches, then follow one relation from them.",
        3,
        0,
        2,
        ("and", ("or", [0], [1]), [2]),
        _demo(
            {
                "D1": "Apple was founded by Steve Jobs, born in San Francisco, and Steve "
                "Wozniak, born in San Jose.",
                "D2": "Microsoft was founded by Bill Gates and Paul Allen, both born in Seattle.",
            },
            "In which cities were the founders of Apple or of Microsoft born?",
            "San Francisco, San Jose, Seattle",
            [
                ["Apple", "founded by", "?v"],
                ["Microsoft", "founded by", "?v"],
                ["?v", "born in", "?t"],
            ],
        ),
    ),
    QueryType(
        "2in",
        "Intersection with negation: answers related to one named entity, except those related "
        "to a second named entity.",
        "{?t | (E1, R1, ?t) ∧ ¬(E2, R2, ?t)}",
        "One condition must hold and the other must not.",
        2,
        1,
        2,
        ("and", [0], ("not", [1])),
        _demo(
            {
                "D1": "Neon, argon, krypton and xenon are noble gases used in lighting; radon, "
                "another noble gas, is radioactive.",
            },
            "Which noble gases are used in lighting but are not radioactive?",
            "Neon, argon, krypton, xenon",
            [["lighting", "uses noble gas", "?t"], ["radioactive elements", "NOT include", "?t"]],
        ),
    ),
    QueryType(
        "3in",
        "Two positive constraints and one excluded: the answer satisfies two relations with "
        "named entities and fails a third.",
        "{?t | (E1, R1, ?t) ∧ (E2, R2, ?t) ∧ ¬(E3, R3, ?t)}",
        "Two conditions must hold, a third must not.",
        3,
        1,
        3,
        ("and", [0], [1], ("not", [2])),
        _demo(
            {
                "D1": "The Danube flows through four capitals: Vienna, Bratislava, Budapest and "
                "Belgrade.",
                "D2": "Austria, Slovakia and Hungary are members of the European Union; Serbia "
                "is not. Vienna is the capital of Austria.",
            },
            "Which capital cities on the Danube belong to European Union countries other than "
            "Austria?",
            "Bratislava, Budapest",
            [
                ["Danube", "flows through capital", "?t"],
                ["European Union", "has member capital", "?t"],
                ["Austria", "NOT has capital", "?t"],
            ],
        ),
    ),
    QueryType(
        "inp",
        "Intersection with negation, then projection: an unnamed entity satisfies one relation "
        "and fails another, and one more relation leads from it to the answer.",
        "{?t | ∃?v: (E1, R1, ?v) ∧ ¬(E2, R2, ?v) ∧ (?v, R3, ?t)}",
        "Filter the middle entities with an exclusion, then ask about what is left.",
        3,
        1,
        3,
        ("and", [0], ("not", [1]), [2]),
        _demo(
            {
                "D1": "The Andes run through Venezuela, Colombia, Ecuador, Peru, Bolivia, Chile "
                "and Argentina; of these, Venezuela, Bolivia and Argentina have no Pacific "
                "coast.",
                "D2": "Caracas, La Paz and Buenos Aires are the seats of government of "
                "Venezuela, Bolivia and Argentina.",
            },
            "Where is the seat of government of the Andean countries without a Pacific coastline?",
            "Caracas, La Paz, Buenos Aires",
            [
                ["Andes", "run through", "?v"],
                ["Pacific Ocean", "NOT borders", "?v"],
                ["?v", "seat of government", "?t"],
            ],
        ),
    ),
    QueryType(
        "pin",
        "Projection, intersection, negation: a two-hop chain from one named entity reaches "
        "candidate answers, and those related to a second named entity are excluded.",
        "{?t | ∃?v: (E1, R1, ?v) ∧ (?v, R2, ?t) ∧ ¬(E2, R3, ?t)}",
        "Follow the chain, then remove the answers that meet the excluded relation.",
        3,
        1,
        3,
        ("and", [0, 1], ("not", [2])),
        _demo(
            {
                "D1": "Freddie Mercury was the lead singer of Queen.",
                "D2": "Queen recorded We Will Rock You, written by Brian May, and Another One "
                "Bites the Dust, written by John Deacon, besides Mercury's own Bohemian "
                "Rhapsody.",
            },
            "Which songs recorded by the band Freddie Mercury fronted were not written by him?",
            "We Will Rock You, Another One Bites the Dust",
            [
                ["Freddie Mercury", "lead singer of", "?v"],
                ["?v", "recorded", "?t"],
                ["Freddie Mercury", "NOT wrote", "?t"],
            ],
        ),
    ),
    QueryType(
        "pni",
        "Projection with a negated chain: candidate answers are related to one named entity, "
        "and those reached from another named entity through a two-hop chain are excluded.",
        "{?t | (E2, R3, ?t) ∧ ¬∃?v: ((E1, R1, ?v) ∧ (?v, R2, ?t))}",
        "A one-hop condition selects candidates; a whole chain says which of them to drop.",
        3,
        1,
        3,
        ("and", [2], ("not", [0, 1])),
        _demo(
            {
                "D1": "Galileo Galilei was the first to observe the phases of Venus, and in "
                "1610 he discovered Io, Europa, Ganymede and Callisto.",
                "D2": "Jupiter has dozens of other moons, among them Amalthea and Himalia.",
            },
            "Which moons of Jupiter were not discovered by the astronomer who first observed "
            "the phases of Venus?",
            "Amalthea, Himalia and the other non-Galilean moons",
            [
                ["phases of Venus", "first observed by", "?v"],
                ["?v", "NOT discovered", "?t"],
                ["Jupiter", "orbited by", "?t"],
            ],
        ),
    ),
)

QUERY_TYPES: dict[str, QueryType] = {t.name: t for t in _TYPES}
"""The 14 types by name, in the order of the ComLQ tables."""
