"""One pair of memories judged: likely duplicates (close wording), may contradict, or neither.

Close wording is rapidfuzz's token-set ratio, and its partial ratio where one memory is much shorter (a
short memory said again inside a longer one), over `CLOSE_THRESHOLD`. Before any score, a pair whose
stances clash is no duplicate, however close its words: "Prefers pnpm as the package manager" and
"Prefers npm as the package manager" differ in one word, and that word is the whole point. Such a pair
may contradict when it holds in the same scope and is about the same thing (a shared subject word, or
one of them says it switched).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from app.tidy.lexicon import CUE_WORDS
from app.tidy.stance import (
    Stance,
    choice_clash,
    different_scopes,
    gist,
    read_stance,
    refusal_clash,
    shared_subject,
)
from app.tidy.words import GENERIC_WORDS

# Tuned on tests/tidy/data/labelled_pairs.json (see tests/bench/RESULTS.md, "Tidy").
CLOSE_THRESHOLD = 80.0
# The partial ratio counts only when the shorter text is at most this share of the longer one's length.
PARTIAL_SHARE = 0.6
FIRST_LOOK = 0.5  # share of the smaller memory's words a pair must share to be read further
STEM_CHARS = 5  # words of at least this many letters that begin alike are forms of one word
WORD_ALIKE = 85  # rapidfuzz ratio at which two words are one (a typo, an inflection)


class Side:
    """One memory of a pair: its id, its normal form, its content words, and (read on first use) its
    stance and its gist."""

    __slots__ = ("_forms", "_gist", "_stance", "cued", "id", "normal", "words")

    def __init__(self, memory_id: int, normal: str, words: frozenset[str]) -> None:
        self.id = memory_id
        self.normal = normal
        self.words = words
        self.cued = not words.isdisjoint(CUE_WORDS)
        self._stance: Stance | None = None
        self._gist: str | None = None
        self._forms: dict[str, frozenset[str]] | None = None

    @property
    def forms(self) -> dict[str, frozenset[str]]:
        """Its words of at least `STEM_CHARS` letters by their first `STEM_CHARS` letters: a memory is
        compared with many others, so this is made once."""
        if self._forms is None:
            found: dict[str, set[str]] = {}
            for word in self.words:
                if len(word) >= STEM_CHARS:
                    found.setdefault(word[:STEM_CHARS], set()).add(word)
            self._forms = {start: frozenset(words) for start, words in found.items()}
        return self._forms

    @property
    def stance(self) -> Stance:
        if self._stance is None:
            self._stance = read_stance(self.normal)
        return self._stance

    @property
    def gist(self) -> str:
        if self._gist is None:
            self._gist = gist(self.normal)
        return self._gist


@dataclass(frozen=True, slots=True)
class Close:
    """Close wording. `within`: the id of the memory whose words are all said again inside the other,
    much longer one (None when they are of a size): such a memory joins one group only, that of its
    best match, so one short memory never chains unrelated longer ones together."""

    score: float
    within: int | None = None


@dataclass(frozen=True, slots=True)
class Clash:
    """Two memories that may contradict: what clashes, the subject words they share, and the topic of
    the clash (the thing refused and used, or the category and the two choices), which pairs that clash
    alike share."""

    reason: str
    shared: tuple[str, ...]
    topic: Hashable = None


def is_within(short: str, long: str) -> bool:
    """Whether `short` is much shorter than `long` (at most `PARTIAL_SHARE` of its length)."""
    return len(short) <= PARTIAL_SHARE * len(long)


def close_score(a: str, b: str) -> float:
    """How close two gists are worded, 0 to 100: the token-set ratio, and for a much shorter one the
    lower of that and the partial ratio (it must be said again nearly as it is)."""
    score = fuzz.token_set_ratio(a, b)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if is_within(short, long):
        score = min(score, fuzz.partial_ratio(short, long))
    return float(score)


def _has_own_word(mine: Side, theirs: Side) -> bool:
    """Whether one memory has a word (stance verbs aside) with no like among the other's words: not
    equal, not a form of one ("commit", "committing": the same first `STEM_CHARS` letters), not a typo
    away (rapidfuzz ratio `WORD_ALIKE`)."""
    others: list[str] | None = None  # their words that are not mine, made only for a typo's look
    forms = theirs.forms
    for word in mine.words - theirs.words - GENERIC_WORDS:
        if len(word) >= STEM_CHARS:
            alike = forms.get(word[:STEM_CHARS])
            if alike is not None and not mine.words.issuperset(alike):
                continue  # a form of one of their words that is not mine
        if len(word) < 4:
            return True
        if others is None:
            others = list(theirs.words - mine.words)
        if process.extractOne(word, others, scorer=fuzz.ratio, score_cutoff=WORD_ALIKE) is None:
            return True
    return False


def says_more_each(a: Side, b: Side) -> bool:
    """Whether each memory (by its content words) names something the other does not: then they are
    about different things, however alike the rest ("Prefers zsh as the shell" and "Prefers AWS as the
    cloud"). A duplicate that adds a detail adds it on one side only."""
    return _has_own_word(a, b) and _has_own_word(b, a)


def worth_judging(
    mine: set[str],
    my_categories: frozenset[str],
    later: list[int],
    keys: list[set[str]],
    categories: list[frozenset[str]],
) -> list[int]:
    """The memories of `later` worth judging against one memory (its words `mine`, the categories its
    blocks name `my_categories`), in one quick look before anything is read again: two memories sharing
    under `FIRST_LOOK` of the smaller one's words (those its blocks were made of) are no duplicates, and
    cannot refuse each other's words either; only a shared category (Postgres / MySQL) still may
    contradict. One comprehension over a block's worth of memories: this look is the finder's commonest
    step (nearly every pair the blocks hold ends here)."""
    size = len(mine)
    return [
        other
        for other in later
        if len(mine & keys[other]) >= FIRST_LOOK * min(size, len(keys[other]))
        or (my_categories and not my_categories.isdisjoint(categories[other]))
    ]


def judge(a: Side, b: Side, same_category: bool) -> Close | Clash | None:
    """Close wording, a clash of stances that may contradict, or None (unrelated, or told apart).
    Stances are read only when a clash is possible: a category both name, or a cue in either."""
    if same_category or a.cued or b.cued:
        clash = _clash(a, b)
        if clash is not None:
            return clash if isinstance(clash, Clash) else None
    if says_more_each(a, b):
        return None
    first, second = a.gist, b.gist
    score = close_score(first, second)
    if score < CLOSE_THRESHOLD:
        return None
    within = a.id if is_within(first, second) else b.id if is_within(second, first) else None
    return Close(score, within)


def _about_one_thing(first: Stance, second: Stance, subject: list[str]) -> bool:
    """Whether two memories naming different members of one category make choices about one thing:
    a subject word both assert ("the editor") and a choice in either, or a switch in one and a choice
    or a switch in the other ("Uses Postgres" / "Moved the project to MySQL"). A memory that only
    mentions a member ("Keeps prettier configuration in the repository root") chooses nothing."""
    if subject and (first.chooses or second.chooses):
        return True
    return (first.switches and (second.chooses or second.switches)) or (second.switches and first.chooses)


def _clash(a: Side, b: Side) -> Clash | bool | None:
    """A clash of stances; True when the two hold in different scopes (no duplicates either); None
    when their stances do not clash."""
    first, second = a.stance, b.stance
    if different_scopes(first, second) is not None:
        return True
    refused = refusal_clash(first, second)
    if refused:
        word = refused[0]
        no, yes = (a, b) if word in first.refused else (b, a)
        return Clash(f"{word}: refused in #{no.id}, used in #{yes.id}", tuple(refused), ("refused", word))
    choice = choice_clash(first, second)
    if choice is None:
        return None
    subject = shared_subject(first, second)
    if _about_one_thing(first, second, subject):
        name, mine, theirs = choice
        reason = f"{name}: {', '.join(sorted(mine))} in #{a.id}, {', '.join(sorted(theirs))} in #{b.id}"
        return Clash(reason, tuple(subject), (name, frozenset((mine, theirs))))
    return True
