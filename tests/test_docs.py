"""The prose stays small: README and docs/ together under a ceiling, so that each addition replaces something."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# README.md and docs/*.md together, in bytes (issue 62: the prose had outgrown the code).
MOST_BYTES = 100_000


def test_the_readme_and_the_docs_stay_under_100_kb_in_all():
    sizes = {path.name: path.stat().st_size for path in DOCS}
    assert sum(sizes.values()) <= MOST_BYTES, sorted(sizes.items(), key=lambda item: -item[1])


def test_every_doc_the_readme_lists_exists():
    readme = (ROOT / "README.md").read_text()
    for path in DOCS[1:]:
        assert f"(docs/{path.name})" in readme, f"README does not list docs/{path.name}"
