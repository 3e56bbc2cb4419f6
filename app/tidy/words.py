"""The words of a memory as the tidy finder compares them: one normal form for exact duplicates, and
content words (stemmed lightly, aliases folded, stop words dropped) for blocking and for cues.

Pure functions over text; nothing here knows about memories or the database.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import chain

# Words that say nothing about what a memory is about: they never make a block and never count as a
# shared subject. Cue words ("never", "not", "instead") are kept out of here on purpose: the
# contradiction finder reads them from the clause, not from this set.
STOP_WORDS = frozenset(
    """a an the and or but if then so as at by for from in into of on onto to with within without
    is are was were be been being am it its it's this that these those there here their they them he she
    his her him i me my we our you your user person also just very really every all any each some
    more most much many few one ones other such than too can could should would will shall may might
    must do does did done has have had having what which who whom whose when where why how about
    after before again up down out off over under same own only both either neither now""".split()  # noqa: SIM905
)

# Verbs and other words that carry a stance but no subject: two memories sharing only these share no
# subject ("Uses npm" and "Uses Neovim" both use something).
GENERIC_WORDS = frozenset(
    """use using used prefer want need like love keep work write run runs running make get always
    usually often generally default main primary instead rather never not no longer stop stopped avoid
    dislike don't doesn't didn't won't isn't aren't switch switched move moved migrate migrated
    replace replaced deploy deploys hosting host also""".split()  # noqa: SIM905
)

# Spellings of one thing folded into one word, so they block and compare as one.
ALIASES = {
    "postgresql": "postgres",
    "pg": "postgres",
    "psql": "postgres",
    "golang": "go",
    "js": "javascript",
    "ts": "typescript",
    "py": "python",
    "nvim": "neovim",
    "likes": "prefer",
    "like": "prefer",
    "liked": "prefer",
    "favors": "prefer",
    "favours": "prefer",
    "favor": "prefer",
    "favour": "prefer",
    "preferred": "prefer",
    "prefers": "prefer",
    "wants": "want",
    "uses": "use",
    "prod": "production",
    "dev": "development",
    "docs": "documentation",
    "doc": "documentation",
    "pr": "pull-request",
    "prs": "pull-request",
    "pull": "pull-request",
    "colour": "color",
    "repo": "repository",
    "repos": "repository",
    "k8s": "kubernetes",
    "front-end": "frontend",  # as `PHRASES` joins them, for a chunk with its punctuation ("front-end,")
    "back-end": "backend",
    "ifs": "if",
}

# Names that end in `s` without being plurals: never stemmed.
KEEP_WHOLE = frozenset(
    {
        "postgres",
        "jenkins",
        "windows",
        "macos",
        "ios",
        "kubernetes",
        "redis",
        "sass",
        "less",
        "always",
        "towards",
    }
)

# Names of more than one word, joined before the split so each is one word.
PHRASES = (
    ("visual studio code", "vscode"),
    ("vs code", "vscode"),
    ("github actions", "github-actions"),
    ("gitlab ci", "gitlab-ci"),
    ("ruff format", "ruff"),
    ("docker compose", "docker-compose"),
    ("go test", "go-test"),
    ("no longer", "no-longer"),
    ("instead of", "instead-of"),
    ("rather than", "rather-than"),
    ("do not", "don't"),
    ("does not", "doesn't"),
    ("did not", "didn't"),
    ("pull request", "pull-request"),
    ("front-end", "frontend"),
    ("front end", "frontend"),
    ("back-end", "backend"),
    ("back end", "backend"),
)

_TRAILING = " .!?,;:…"
STEM_CACHE_SIZE = 1 << 16
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_WORD = re.compile(r"[a-z0-9][a-z0-9'+#._/-]*")
_WORD_END = "'._/-"


def normal_chunks(text: str) -> list[str]:
    """The white-space separated chunks of `text` after Unicode NFKC and case folding: a normal form
    is their join, and blocking reads its words off the first of them without splitting again."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    return text.casefold().split()


def joined(chunks: list[str]) -> str:
    """The normal form of the text `chunks` (from `normal_chunks`) came from."""
    return " ".join(chunks).rstrip(_TRAILING)


def normal_form(text: str) -> str:
    """The text exact duplicates share: Unicode NFKC, case folded, runs of white space as one space,
    trailing punctuation dropped."""
    return joined(normal_chunks(text))


@lru_cache(maxsize=STEM_CACHE_SIZE)  # a memory's words recur across the memories it is compared with
def stem(word: str) -> str:
    """A light English stem: plurals and a third person's `-s` dropped ("tabs", "prefers"), aliases
    folded. Enough for blocking and cues; fuzzy scores read the whole text."""
    alias = ALIASES.get(word)
    if alias is not None:
        return alias
    if word in KEEP_WHOLE or word in STOP_WORDS:
        return word
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        word = word[:-1]
    return ALIASES.get(word, word)


def phrased(normal: str) -> str:
    """`normal` (a `normal_form`) with multi-word names and cues joined into single words."""
    for phrase, joined in PHRASES:
        if phrase in normal:
            normal = normal.replace(phrase, joined)
    return normal


def words(normal: str) -> list[str]:
    """Every word of `normal` (a `normal_form`), stemmed, in order, stop words included: the clause
    reading of the contradiction finder needs them."""
    return [stem(word.rstrip(_WORD_END)) for word in _WORD.findall(phrased(normal))]


def _chunk_words(chunk: str) -> tuple[str, ...]:
    """The content words of one white-space separated chunk ("pnpm," -> pnpm; "ci/cd" -> ci/cd)."""
    found = (stem(word.rstrip(_WORD_END)) for word in _WORD.findall(chunk))
    return tuple(word for word in found if word and word not in STOP_WORDS)


# Chunks seen before and their words: a person's memories reuse their words, so nearly every chunk is
# looked up here, in C, rather than read again (bounded, so a stream of unique chunks cannot grow it).
_CHUNKS: dict[str, tuple[str, ...]] = {}
CHUNK_CACHE_SIZE = 200_000


def content_words(normal: str, window: int | None = None) -> set[str]:
    """The words of `normal` (or of its first `window` characters) that can say what it is about: no
    stop words."""
    return _words_of(set(phrased(normal if window is None else normal[:window]).split()))


# The first words of the multi-word names `phrased` joins: a head without any of them as a chunk has
# nothing to join (a name glued to punctuation, "(vs code)", is read as two words there: blocking only).
_PHRASE_STARTS = frozenset(phrase.split()[0] for phrase, _joined in PHRASES)


def head_words(chunks: list[str]) -> set[str]:
    """`content_words` of the text whose first chunks (from `normal_chunks`) are `chunks`, without
    joining and splitting them again unless a multi-word name may be among them."""
    distinct = set(chunks)
    if not _PHRASE_STARTS.isdisjoint(distinct):  # a set: the few phrase starts are looked up in it
        return content_words(" ".join(chunks))
    return _words_of(distinct)


def _words_of(chunks: set[str]) -> set[str]:
    try:
        return set(chain.from_iterable(map(_CHUNKS.__getitem__, chunks)))
    except KeyError:
        pass
    if len(_CHUNKS) > CHUNK_CACHE_SIZE:
        _CHUNKS.clear()
    found: set[str] = set()
    for chunk in chunks:
        known = _CHUNKS.get(chunk)
        if known is None:
            known = _CHUNKS[chunk] = _chunk_words(chunk)
        found.update(known)
    return found
