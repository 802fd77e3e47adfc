"""The docs cannot drift (issue 31): every example in README.md, CONTRIBUTING.md and docs/**/*.md
runs here.

An example is a fenced block with a tag on the line just before it, an HTML comment GitHub does
not show:

    <!-- example site=cup file=data/events/2024-05-18-cup/event.toml -->   the block is that file
    <!-- example site=cup run -->              each `site-builder …` line of the block is run
    <!-- example site=cup run exit=1 -->       … and must exit 1 (it shows an error)
    <!-- example site=cup output -->           the last run printed these lines, in this order
    <!-- example site=cup written=PATH -->     the file a run wrote is exactly this block
    <!-- example site=cup json=PATH -->        the built file PATH holds this JSON
    <!-- example site=cup contains=PATH -->    the built file PATH has each line of the block
    <!-- example synopsis -->                  the command synopsis: one line per command

The files of one `site` are written into a scratch folder of their own, in the order of the page
(a later block of the same file replaces it), and the commands run there with the real CLI, in
this process, as an organizer runs them from their league's folder. Once the page is read, every
site is built, and must build, unless its last run was meant to fail. In expected output `…`
stands for any text and a time such as `0.37s` for any time. In expected JSON a `"…"` key stands
for the keys left out, and a last `"…"` item for the items left out.

Besides: every TOML, CSV and JSON block is such an example; every `site-builder …` command line
shown (in a code block or in `code`) parses with the CLI's own parser; every `make` target shown
exists; every relative link leads to a file, and its `#anchor` to a heading; the README stays a
front door (at most 8 KB, set-up first, every command in the synopsis, every docs page in an
index)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from site_builder.cli import _parser, main
from site_builder.rules import RULESETS

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
PAGES = [README, REPO / "CONTRIBUTING.md", *sorted(DOCS.rglob("*.md"))]
README_MOST_BYTES = 8 * 1024

PENDING_MAKE_TARGETS = {"test-fast"}
"""Targets the docs name that another branch of issue 31 adds to the Makefile (the quick test
loop); once it is merged this set changes nothing and may go."""

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)")
TAG = re.compile(r"^\s*<!--\s*example\b(?P<attrs>.*?)-->\s*$")
SHELL_LANGS = {"", "sh", "shell", "bash", "console", "text"}
EXAMPLE_LANGS = {"toml", "csv", "json"}


def shown(path: Path) -> str:
    return str(path.relative_to(REPO))


# ------------------------------------------------------------------------------ reading pages

@dataclass
class Block:
    page: Path
    line: int
    """The line of the opening fence, 1-based."""
    lang: str
    text: str
    tag: dict[str, str] | None

    @property
    def where(self) -> str:
        return f"{shown(self.page)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a page, each with the example tag just above it, if any."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, fence = len(opened["indent"]), opened["fence"]
        body, j = [], i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence)
                                      and set(lines[j].strip()) == {fence[0]}):
            line = lines[j]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            j += 1
        assert j < len(lines), f"{shown(page)}:{i + 1}: a code block that never closes"
        tag = TAG.match(lines[i - 1]) if i else None
        found.append(Block(page, i + 1, opened["lang"].lower(), "\n".join(body) + "\n",
                           attributes(tag["attrs"]) if tag else None))
        i = j + 1
    return found


def attributes(text: str) -> dict[str, str]:
    """`site=cup run exit=1` → {"site": "cup", "run": "", "exit": "1"}."""
    pairs = {}
    for word in shlex.split(text):
        key, _, value = word.partition("=")
        pairs[key] = value
    return pairs


def prose(page: Path) -> list[tuple[int, str]]:
    """(line number, text) of the lines outside code blocks."""
    inside, kept = None, []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        opened = FENCE.match(line)
        if inside is None and opened:
            inside = opened["fence"]
        elif inside is not None and line.strip().startswith(inside) and \
                set(line.strip()) == {inside[0]}:
            inside = None
        elif inside is None:
            kept.append((number, line))
    return kept


def code_spans(line: str) -> list[str]:
    return re.findall(r"(?<!`)`([^`]+)`(?!`)", line)


# ------------------------------------------------------------------------------ running examples

@dataclass
class ExampleSite:
    root: Path
    last_output: str = ""
    last_exit: int = 0
    built: bool = False


@dataclass
class Tally:
    files: int = 0
    runs: int = 0
    outputs: int = 0
    written: int = 0
    json: int = 0
    contains: int = 0
    final_builds: int = 0
    sites: dict[str, ExampleSite] = field(default_factory=dict)


def run_cli(argv: list[str], cwd: Path, monkeypatch) -> tuple[int, str]:
    """One command of the CLI, in this process, from `cwd`: (exit code, stdout and stderr as
    one text, in the order they were printed)."""
    monkeypatch.chdir(cwd)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: a command line that does not parse
            code = exc.code if isinstance(exc.code, int) else 2
    return code, printed.getvalue()


def commands(text: str) -> list[list[str]]:
    """The `site-builder` command lines of a shell block, split into words."""
    found = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "site-builder", f"a run block runs site-builder only: {line!r}"
            assert words[1:2] not in (["watch"], ["serve"]), f"{line!r} would never end"
            found.append(words[1:])
    return found


def line_pattern(expected: str) -> re.Pattern:
    """An expected output line as a pattern: `…` is any text, `0.37s` any time."""
    parts = re.split(r"(…|\b\d+\.\d\ds\b)", expected)
    regex = "".join(".*?" if part == "…" else r"\d+\.\d\ds" if re.fullmatch(r"\d+\.\d\ds", part)
                    else re.escape(part) for part in parts)
    return re.compile(regex)


def check_output(expected: str, printed: str, where: str) -> None:
    lines, at = printed.splitlines(), 0
    for wanted in expected.splitlines():
        if not wanted.strip():
            continue
        pattern = line_pattern(wanted)
        for k in range(at, len(lines)):
            if pattern.fullmatch(lines[k]):
                at = k + 1
                break
        else:
            pytest.fail(f"{where}: the docs show the line\n  {wanted}\nbut the command printed "
                        f"(from that point on):\n" + "\n".join(f"  {x}" for x in lines[at:]))


def json_within(expected, actual, path: str = "$") -> str | None:
    """Where `actual` departs from the documented `expected`, or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, found {actual!r}"
        keys = [k for k in expected if k != "…"]
        if "…" not in expected and set(keys) != set(actual):
            return f"{path}: keys {sorted(actual)}, the docs show {sorted(keys)}"
        for key in keys:
            if key not in actual:
                return f"{path}: no key {key!r}"
            wrong = json_within(expected[key], actual[key], f"{path}.{key}")
            if wrong:
                return wrong
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{path}: expected a list, found {actual!r}"
        items = expected[:-1] if expected and expected[-1] == "…" else expected
        if len(items) != len(expected) and len(actual) < len(items) or \
                len(items) == len(expected) and len(actual) != len(items):
            return f"{path}: {len(actual)} items, the docs show {len(items)}"
        for n, item in enumerate(items):
            wrong = json_within(item, actual[n], f"{path}[{n}]")
            if wrong:
                return wrong
        return None
    if expected != actual or type(expected) is not type(actual):
        return f"{path}: {actual!r}, the docs show {expected!r}"
    return None


def run_examples(page: Path, tmp_path: Path, monkeypatch) -> Tally:
    tally = Tally()

    def site_named(block: Block) -> ExampleSite:
        name = block.tag.get("site")
        assert name, f"{block.where}: an example names its site (site=…)"
        if name not in tally.sites:
            root = tmp_path / name
            (root / "data" / "events").mkdir(parents=True)
            tally.sites[name] = ExampleSite(root)
        return tally.sites[name]

    def build(site: ExampleSite, where: str) -> None:
        code, printed = run_cli(["build"], site.root, monkeypatch)
        assert code == 0, f"{where}: the example site does not build:\n{printed}"
        site.built = True

    for block in blocks(page):
        tag = block.tag
        if tag is None or "synopsis" in tag:
            continue
        site = site_named(block)
        if "file" in tag:
            target = site.root / tag["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text, encoding="utf-8")
            site.built, tally.files = False, tally.files + 1
        elif "run" in tag:
            wanted = int(tag.get("exit") or 0)
            printed_all = []
            for argv in commands(block.text):
                code, printed = run_cli(argv, site.root, monkeypatch)
                assert code == wanted, (f"{block.where}: `site-builder {shlex.join(argv)}` "
                                        f"exited {code}, the docs expect {wanted}:\n{printed}")
                printed_all.append(printed)
                tally.runs += 1
            site.last_output, site.last_exit = "".join(printed_all), wanted
            site.built = False
        elif "output" in tag:
            check_output(block.text, site.last_output, block.where)
            tally.outputs += 1
        elif "written" in tag:
            written = (site.root / tag["written"]).read_text(encoding="utf-8")
            assert written == block.text, (f"{block.where}: {tag['written']} holds\n{written}\n"
                                           f"but the docs show\n{block.text}")
            tally.written += 1
        elif "json" in tag:
            if not site.built:
                build(site, block.where)
            actual = json.loads((site.root / tag["json"]).read_text(encoding="utf-8"))
            wrong = json_within(json.loads(block.text), actual)
            assert wrong is None, f"{block.where}: {tag['json']}: {wrong}"
            tally.json += 1
        elif "contains" in tag:
            if not site.built:
                build(site, block.where)
            text = (site.root / tag["contains"]).read_text(encoding="utf-8")
            for line in block.text.splitlines():
                assert line.strip() in text, \
                    f"{block.where}: {tag['contains']} has no line {line.strip()!r}"
            tally.contains += 1
        else:
            pytest.fail(f"{block.where}: an example tag says what the block is: file=, run, "
                        f"output, written=, json=, contains= or synopsis")
    for name, site in tally.sites.items():
        if site.last_exit == 0:
            build(site, f"{shown(page)} (site {name})")
            tally.final_builds += 1
    return tally


PAGES_WITH_EXAMPLES = [p for p in PAGES if p.exists() and any(b.tag for b in blocks(p))]


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=shown)
def test_every_example_of_the_page_runs(page, tmp_path, monkeypatch):
    tally = run_examples(page, tmp_path, monkeypatch)
    print(f"{shown(page)}: {len(tally.sites)} sites, {tally.files} files, {tally.runs} commands "
          f"run, {tally.outputs} outputs, {tally.written} files written, {tally.json} JSON, "
          f"{tally.contains} pages read, {tally.final_builds} final builds")


@pytest.mark.parametrize("page", [p for p in PAGES if p.exists()], ids=shown)
def test_every_file_example_is_run(page):
    """A TOML, CSV or JSON block that no test reads could say anything: each one is tagged."""
    untagged = [b.where for b in blocks(page) if b.lang in EXAMPLE_LANGS and not b.tag]
    assert not untagged, ("these blocks are not examples a test runs; tag each one "
                          "(see tests/test_docs.py): " + ", ".join(untagged))


# ------------------------------------------------------------------------------ command lines

def subcommands() -> dict[str, set[str]]:
    """Each command of the CLI with its options (--help aside)."""
    parser = _parser()
    action = next(a for a in parser._actions if a.dest == "command")
    for sub in action.choices.values():
        sub.complete()  # pair's options are added when it runs (they ask the games)
    return {name: {opt for a in sub._actions for opt in a.option_strings
                   if opt not in ("-h", "--help")}
            for name, sub in action.choices.items()}


def shell_commands(text: str) -> list[list[str]]:
    """The commands of a shell line, each split into words (`a && b | c` is three)."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:
        return []
    found, current = [], []
    for word in words:
        if word in ("&&", "||", ";", "|", "&"):
            found.append(current)
            current = []
        else:
            current.append(word)
    return [c for c in found + [current] if c]


WRAPPERS = {"time", "sudo", "nice", "env", "exec"}
"""Commands that run the command after them (`/usr/bin/time -v site-builder build`)."""


def site_builder_argv(words: list[str]) -> list[str] | None:
    """The arguments given to site-builder in one command, or None if it does not run it: the
    command word, after variables (`X=1`) and wrappers with their options, is `site-builder`
    (any path to it) or `python -m site_builder`."""
    n = 0
    while n < len(words) and (re.fullmatch(r"\w+=.*", words[n]) or
                              words[n].rsplit("/", 1)[-1] in WRAPPERS or
                              n and words[n].startswith("-") and
                              words[n - 1].rsplit("/", 1)[-1] in WRAPPERS):
        n += 1
    if n == len(words):
        return None
    program = words[n].rsplit("/", 1)[-1]
    if program == "site-builder":
        return words[n + 1:]
    if re.fullmatch(r"python[\d.]*", program) and words[n + 1:n + 3] == ["-m", "site_builder"]:
        return words[n + 3:]
    return None


def is_synopsis(argv: list[str]) -> bool:
    """A line with placeholders (`[--seed N]`, `EVENT_FOLDER`, `…`), not one to run as it is."""
    return any(re.search(r"[\[\]<>|…]|\.\.\.", w) or re.fullmatch(r"[A-Z][A-Z_]*", w)
               for w in argv)


def check_command_line(argv: list[str], where: str) -> None:
    known = subcommands()
    if argv and argv[0] in ("--help", "-h", "--version"):
        return
    assert argv and argv[0] in known, f"{where}: `site-builder {shlex.join(argv)}`: no such command"
    if len(argv) == 1 or is_synopsis(argv):  # `site-builder pair` names the command
        options = re.findall(r"--[a-z][a-z-]*", " ".join(argv[1:]))
        unknown = [o for o in options if o not in known[argv[0]] and o != "--help"]
        assert not unknown, f"{where}: site-builder {argv[0]} has no option {', '.join(unknown)}"
        return
    if "--help" in argv or "-h" in argv:
        return
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed):
        try:
            _parser().parse_args(argv)
        except SystemExit:
            pytest.fail(f"{where}: `site-builder {shlex.join(argv)}` does not parse: "
                        f"{printed.getvalue().strip()}")


def makefile_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", (REPO / "Makefile").read_text(), flags=re.M))


def shown_command_lines(page: Path) -> list[tuple[str, list[str]]]:
    """(where, words) of every command a page shows: in shell blocks and in `code`."""
    found = []
    for block in blocks(page):
        if block.lang in SHELL_LANGS and not (block.tag and ("output" in block.tag)):
            for k, line in enumerate(block.text.splitlines(), start=1):
                for words in shell_commands(line.lstrip("$ ")):
                    found.append((f"{shown(page)}:{block.line + k}", words))
    known = subcommands()
    for number, line in prose(page):
        for span in code_spans(line):
            for words in shell_commands(span):
                argv = site_builder_argv(words)
                # In prose, `site-builder state\n` may be text: a command names a command
                if words[0] == "make" or argv and (argv[0] in known or argv[0].startswith("-")):
                    found.append((f"{shown(page)}:{number}", words))
    return found


@pytest.mark.parametrize("page", [p for p in PAGES if p.exists()], ids=shown)
def test_every_command_line_shown_is_a_valid_command(page):
    targets = makefile_targets() | PENDING_MAKE_TARGETS
    for where, words in shown_command_lines(page):
        if words[0] == "make":
            missing = [w for w in words[1:] if not w.startswith("-") and "=" not in w
                       and w not in targets]
            assert not missing, f"{where}: the Makefile has no target {', '.join(missing)}"
            continue
        argv = site_builder_argv(words)
        if argv is not None:
            check_command_line(argv, where)


# ------------------------------------------------------------------------------ links

def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose(page):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = github_anchor(heading[1])
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(re.findall(r'<a\s+(?:id|name)="([^"]+)"', line))
    return found


LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")


def links(page: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in prose(page):
        without_code = re.sub(r"`[^`]*`", "", line)
        found += [(number, m["target"]) for m in LINK.finditer(without_code)]
    return found


@pytest.mark.parametrize("page", [p for p in PAGES if p.exists()], ids=shown)
def test_every_relative_link_leads_somewhere(page):
    for number, target in links(page):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        assert destination.exists(), f"{shown(page)}:{number}: {target}: no such file"
        if anchor:
            assert destination.suffix == ".md", f"{shown(page)}:{number}: {target}: an anchor " \
                                                 "in a file that is not a page"
            assert anchor in anchors(destination), (
                f"{shown(page)}:{number}: {target}: {shown(destination)} has no heading "
                f"#{anchor} (it has {', '.join(sorted(anchors(destination)))})")


# ------------------------------------------------------------------------------ the front door

def test_the_readme_is_a_front_door():
    """At most 8 KB; a paragraph saying what the tool is, then the set-up, `make site` and
    `make test` first, then how to start a league, and one line per game."""
    text = README.read_text(encoding="utf-8")
    size = len(text.encode("utf-8"))
    assert size <= README_MOST_BYTES, (f"README.md is {size:,} bytes: at most "
                                       f"{README_MOST_BYTES:,}; the manual goes in docs/")
    lines = text.splitlines()
    sections = [(n, line[3:]) for n, line in enumerate(lines, start=1) if line.startswith("## ")]
    assert sections[0][1] == "Set up", "the first section says how to set up"
    paragraphs = "\n".join(lines[1:sections[0][0] - 1]).strip().split("\n\n")
    assert len(paragraphs) == 1, "one paragraph says what the tool is, then comes the set-up"
    setup = next(b for b in blocks(README) if b.line > sections[0][0])
    shown_first = [line.split("#")[0].strip() for line in setup.text.splitlines()]
    assert shown_first[:2] == ["make site", "make test"], setup.text
    assert sections[1][1] == "Start your own league", "then how to start a league"
    assert "site-builder new" in "\n".join(lines[sections[1][0]:sections[2][0]])
    games = re.findall(r"^\* \[\*\*.+?\*\*\]\(docs/games/(\w+)\.md\)", text, flags=re.M)
    assert sorted(games) == sorted(RULESETS), "one line per game, linking its page in docs/games/"


def test_the_synopsis_lists_every_command_and_option_once():
    synopsis = [b for p in (README, DOCS / "commands.md") for b in blocks(p)
                if b.tag and "synopsis" in b.tag]
    assert len(synopsis) == 2, "README.md and docs/commands.md each have a synopsis"
    known = subcommands()
    for block in synopsis:
        lines = [shlex.split(line) for line in block.text.splitlines() if line.strip()]
        named = [words[1] for words in lines]
        assert sorted(named) == sorted(known), f"{block.where}: one line per command"
        for words in lines:
            options = set(re.findall(r"--[a-z][a-z-]*", " ".join(words[2:])))
            assert options == known[words[1]], (f"{block.where}: site-builder {words[1]}: the "
                                                f"synopsis shows {sorted(options)}, the command "
                                                f"has {sorted(known[words[1]])}")


def test_every_docs_page_is_in_an_index():
    linked = set()
    for index in (README, DOCS / "README.md"):
        linked |= {(index.parent / t.partition("#")[0]).resolve() for _, t in links(index)
                   if not re.match(r"[a-z]+:", t)}
    missing = [shown(p) for p in sorted(DOCS.rglob("*.md")) if p.resolve() not in linked
               and p != DOCS / "README.md"]
    assert not missing, f"not linked from README.md or docs/README.md: {missing}"
    assert (REPO / "CONTRIBUTING.md").resolve() in linked
    assert (DOCS / "README.md").resolve() in linked
