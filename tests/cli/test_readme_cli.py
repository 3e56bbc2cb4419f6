"""The README documents every command, option and choice the command line has (generated from the
parser, so a new option without its line in the README fails here), and no link leaves the repository."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

from app.cli import build_parser
from tests.support.console import CHECKOUT, dashboard
from ui.cli_hooks import HOOKS

README = CHECKOUT / "README.md"
PACKAGING_README = CHECKOUT / "packaging" / "README.md"


def _commands(
    parser: argparse.ArgumentParser, prefix: str = ""
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """(`review apply`, its parser) for every command, nested ones too; the top level as ``."""
    yield prefix.strip(), parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, f"{prefix}{name} ")


def _documented() -> list[tuple[str, str]]:
    """(command, what the README must mention) for every command, option string and choice."""
    wanted = []
    for command, parser in _commands(build_parser(HOOKS)):
        if command:
            wanted.append((command, f"`{command}"))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            wanted += [(command, option) for option in action.option_strings]
            wanted += [(command, str(choice)) for choice in action.choices or ()]
    return wanted


def test_the_readme_mentions_every_command_option_and_choice() -> None:
    text = README.read_text(encoding="utf-8")
    command_line = text.split("## Command line", 1)[1].split("\n## ", 1)[0]
    missing = []
    for command, word in _documented():
        where = text if word.startswith("`") or not command else command_line
        if not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", where):
            missing.append(f"{command or '(window)'}: {word}")
    assert missing == [], "undocumented in README.md: " + ", ".join(missing)


def test_every_command_has_help_that_works() -> None:
    for command, _parser in _commands(build_parser(HOOKS)):
        done = dashboard(*command.split(), "--help")
        assert done.returncode == 0 and done.stdout.startswith("usage: memory-dashboard"), command


def test_no_link_leaves_the_repository() -> None:
    for readme in (README, PACKAGING_README):
        text = readme.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)]+)\)", text):
            assert "://" not in target, f"{readme.name}: {target}"
            assert (readme.parent / target.split("#")[0]).resolve().is_relative_to(CHECKOUT), target
            assert (readme.parent / target.split("#")[0]).exists(), target
        assert "../" not in re.sub(r"\]\([^)]+\)", "", text), (
            f"{readme.name} names a path outside the repository"
        )
        assert "http://" not in text and "https://" not in text, readme.name


def test_packaging_readme_starts_from_the_makefile_and_a_virtual_environment() -> None:
    text = PACKAGING_README.read_text(encoding="utf-8")
    first_block = text.split("```sh", 1)[1].split("```", 1)[0]
    assert first_block.lstrip().startswith("make package")
    before_the_manual_way = text.split("```sh")[1]  # the first block and the paragraph after it
    assert "make test" in first_block and "virtual environment `.venv`" in before_the_manual_way
    makefile = (CHECKOUT / "Makefile").read_text(encoding="utf-8")
    for target in re.findall(r"^make (\w[\w-]*)", first_block, re.MULTILINE):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE), target
