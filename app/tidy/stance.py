"""What one memory asserts and what it refuses, read cheaply from its clauses, and whether two memories'
stances may contradict.

A memory's things (its content words) are asserted unless a negation ("never npm", "does not like long
answers") or a rejection ("tabs over spaces", "Neovim instead of VS Code", "moved from Jest to Vitest")
reaches them; the reach ends at the clause's end or at a word that starts its purpose ("never print for
logging": print is refused, logging is not). A word a memory both asserts and refuses says nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.tidy.lexicon import (
    BROAD_WORDS,
    CHOICE_VERBS,
    CHOOSE,
    CLAUSE_BREAKS,
    CUE_WORDS,
    MEMBER_OF,
    NEGATIONS,
    PREFER,
    REJECTING,
    SCOPE_OF,
    SWITCH_WORDS,
)
from app.tidy.words import GENERIC_WORDS, STOP_WORDS, phrased, stem, words

_CLAUSES = re.compile(r"[,;:!?()]|\.(?=\s|$)| - | — ")
_WORD = re.compile(r"[a-z0-9][a-z0-9'+#._/-]*")


@dataclass(frozen=True, slots=True)
class Stance:
    """One memory's reading: the things it asserts, refuses, names from a category, and where it holds."""

    asserted: frozenset[str]
    refused: frozenset[str]
    choices: dict[str, frozenset[str]]  # category -> its members named (asserted or refused)
    scopes: dict[str, frozenset[str]]  # scope -> its members named
    switches: bool  # says something replaced something ("switched to", "moved from")
    chooses: bool  # says something is chosen ("prefers", "uses", "wants", "default")


def _clause_words(clause: str) -> list[str]:
    return [stem(word.rstrip("'._/-")) for word in _WORD.findall(clause)]


def _reached(clause: list[str], switching: bool) -> tuple[set[int], set[int]]:
    """The positions of one clause's words that a negation or a rejection reaches, and of the named
    things among them that only say whose the refused thing is: "never hardcodes the Postgres
    password" refuses a password, not Postgres ("never Postgres" would)."""
    reached: set[int] = set()
    owners: set[int] = set()
    reach = False
    preferring = False
    for position, word in enumerate(clause):
        if word == PREFER:
            preferring = True
        starts = (
            word in NEGATIONS
            or word in REJECTING
            or (word == "to" and preferring and not switching)
            or (word == "from" and switching)
        )
        if starts:
            # "never other cloud options": what is refused is left unnamed, the cloud itself is not
            reach = clause[position + 1 : position + 2] not in (["other"], ["another"])
        elif reach and word in CLAUSE_BREAKS:
            reach = False
        elif reach and word in MEMBER_OF and _names_more(clause[position + 1 : position + 2]):
            owners.add(position)
        elif reach:
            reached.add(position)
    return reached, owners


def _names_more(following: list[str]) -> bool:
    """Whether the word after a named thing is a noun of its own (its cache, its settings), not the
    clause's end, a break, a stop word or another named thing."""
    return bool(following) and not (
        following[0] in STOP_WORDS
        or following[0] in CLAUSE_BREAKS
        or following[0] in MEMBER_OF
        or following[0] in GENERIC_WORDS
    )


def read_stance(normal: str) -> Stance:
    """The stance of a memory from its `normal_form`."""
    asserted: set[str] = set()
    refused: set[str] = set()
    text = phrased(normal)
    every = _clause_words(text)
    switches = any(word in SWITCH_WORDS for word in every)
    for clause in _CLAUSES.split(text):
        clause_words = _clause_words(clause)
        reached, owners = _reached(clause_words, switches)
        for position, word in enumerate(clause_words):
            if word not in STOP_WORDS and position not in owners:
                (refused if position in reached else asserted).add(word)
    meaningful = {word for word in asserted | refused if word not in GENERIC_WORDS}
    return Stance(
        asserted=frozenset(asserted - refused),
        refused=frozenset(refused - asserted),
        choices=_grouped(meaningful, MEMBER_OF),
        scopes=_grouped(meaningful, SCOPE_OF),
        switches=switches,
        chooses=any(word in CHOICE_VERBS for word in every),
    )


def gist(normal: str) -> str:
    """What close wording compares: the words in order, stop words and cues left out, verbs of choice
    as one word ("Prefers pnpm" and "Uses pnpm" read alike; "Keeps pnpm configuration…" does not)."""
    kept = (CHOOSE if word in CHOICE_VERBS else word for word in words(normal))
    return " ".join(word for word in kept if word not in STOP_WORDS and word not in CUE_WORDS) or normal


def _grouped(found: set[str], index: dict[str, str]) -> dict[str, frozenset[str]]:
    groups: dict[str, set[str]] = {}
    for word in found:
        name = index.get(word)
        if name is not None:
            groups.setdefault(name, set()).add(word)
    return {name: frozenset(members) for name, members in groups.items()}


def different_scopes(a: Stance, b: Stance) -> str | None:
    """The scope the two hold in apart ("language: go / python"), or None: neither is about the other."""
    for name, mine in a.scopes.items():
        theirs = b.scopes.get(name)
        if theirs and not mine & theirs:
            return f"{name}: {', '.join(sorted(mine))} / {', '.join(sorted(theirs))}"
    return None


def refusal_clash(a: Stance, b: Stance) -> list[str]:
    """The things one memory refuses and the other asserts (generic words aside)."""
    clashing = (a.refused & b.asserted) | (b.refused & a.asserted)
    return sorted(word for word in clashing if word not in GENERIC_WORDS)


def choice_clash(a: Stance, b: Stance) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """A category where each memory names a member the other does not (pnpm / npm), or None."""
    for name, mine in a.choices.items():
        theirs = b.choices.get(name)
        if theirs and mine - theirs and theirs - mine:
            return name, mine - theirs, theirs - mine
    return None


def shared_subject(a: Stance, b: Stance) -> list[str]:
    """Words both memories assert that say what they are about: no stance verbs, no chosen things, and
    no scopes ("also in CI" says where a choice holds, not what it is about)."""
    both = a.asserted & b.asserted
    broad = GENERIC_WORDS | BROAD_WORDS
    return sorted(w for w in both if w not in broad and w not in MEMBER_OF and w not in SCOPE_OF)
