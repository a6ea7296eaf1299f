"""The documents: every relative link in README.md and docs/*.md leads to
a file of the repository and, where it names an `#anchor`, to a heading
of that file as GitHub names it; README.md stays a short page for users
(the details live in docs/). Reads text only: no binary is built."""

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 260

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target); the text may hold brackets one deep.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def documents():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def prose_lines(text):
    """(line number, line) for each line outside fenced and indented code
    blocks."""
    fence = None
    previous_blank = True
    for number, line in enumerate(text.splitlines(), 1):
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            previous_blank = False
            continue
        if opening:
            fence = opening.group(1)
            continue
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and previous_blank and line.strip():
            # An indented code block (a list item's continuation is not
            # one: it follows a non-blank line).
            continue
        previous_blank = not line.strip() or (indented and previous_blank)
        yield number, line


def links(text):
    """(line number, target) for every link and image in the text, not
    counting those in code."""
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for match in INLINE_LINK.finditer(line):
            yield number, match.group(1)
        reference = REFERENCE.match(line)
        if reference:
            yield number, reference.group(1)


def slug(heading):
    """GitHub's anchor for a heading: its text as rendered (links to their
    text, code and emphasis marks dropped), lowercased, punctuation other
    than `-` and `_` removed, spaces turned into `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    """Every anchor the headings of a Markdown text give, duplicates
    numbered as GitHub numbers them (`name`, `name-1`, ...)."""
    seen = {}
    result = set()
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def broken_links(files, root):
    """Each broken relative link of `files` as `file:line: target (why)`."""
    problems = []
    anchor_cache = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        for number, target in links(text):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
                continue  # http:, https:, mailto: ...: not ours to check
            file_part, _, anchor = target.partition("#")
            where = f"{path.relative_to(root)}:{number}: {target}"
            linked = (path.parent / unquote(file_part)).resolve() if file_part else path
            if not linked.exists():
                problems.append(f"{where} (no such file)")
                continue
            try:
                linked.relative_to(root)
            except ValueError:
                problems.append(f"{where} (outside the repository)")
                continue
            if not anchor:
                continue
            if linked.suffix != ".md":
                problems.append(f"{where} (an anchor into a file that is not Markdown)")
                continue
            if linked not in anchor_cache:
                anchor_cache[linked] = anchors(linked.read_text(encoding="utf-8"))
            if unquote(anchor).lower() not in anchor_cache[linked]:
                problems.append(f"{where} (no heading with that anchor)")
    return problems


def test_every_relative_link_leads_to_a_file_and_heading():
    problems = broken_links(documents(), ROOT)
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_the_documents_link_to_one_another():
    # The checker has something to check: README.md links into docs/.
    targets = {t for _, t in links((ROOT / "README.md").read_text(encoding="utf-8"))}
    assert any(t.startswith("docs/") and t.endswith(".md") for t in targets), targets


def test_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; at most {README_MAX_LINES}: details belong in docs/"
    )


def test_the_checker_finds_broken_files_and_anchors(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b.md").write_text(
        "# B's page: `code` and *more*\n\n## Twice\n\n## Twice\n\n## [Linked](x.md) heading\n"
    )
    (tmp_path / "a.md").write_text(
        "[ok](docs/b.md) [ok](docs/b.md#bs-page-code-and-more) [ok](docs/b.md#twice-1)\n"
        "[ok](docs/b.md#linked-heading) [ok](https://example.org/nowhere.md) [ok](#a)\n"
        "# A\n"
        "`[in code](nowhere.md)`\n\n"
        "```\n[in a block](nowhere.md)\n```\n\n"
        "    [indented code](nowhere.md)\n\n"
        "[gone](docs/c.md) ![gone](docs/c.png) [bad anchor](docs/b.md#twice-2)\n"
        "[ref]: docs/missing.md\n"
    )
    problems = broken_links([tmp_path / "a.md"], tmp_path)
    assert len(problems) == 4, problems
    assert all(": docs/" in p for p in problems), problems
    assert any("docs/b.md#twice-2 (no heading with that anchor)" in p for p in problems), problems
    assert any("docs/missing.md (no such file)" in p for p in problems), problems
