"""The package's shape: few parts at the top, no import circle, small modules, and one face for the engine."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "webapp"
MODULES = sorted(path for path in PACKAGE.rglob("*.py"))
ENGINE = PACKAGE / "engine"
# The engine's public vocabulary, which the pages, the table and the command line may take directly: the game
# itself (rules, boards) and the request's clock (pacing). Everything that searches comes through webapp.solver.
VOCABULARY = {"webapp.engine", "webapp.engine.rules", "webapp.engine.boards", "webapp.engine.pacing"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every webapp module ``path`` imports, anywhere in it (``from webapp.x import y`` counts y if it is one)."""
    known = {module_name(p) for p in MODULES}
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known and name != "webapp"}


GRAPH = {module_name(path): imports(path) - {module_name(path)} for path in MODULES}


def test_the_top_of_the_package_holds_a_few_parts():
    entries = [p.name for p in PACKAGE.iterdir() if p.name != "__pycache__" and (p.suffix == ".py" or p.is_dir())]
    assert len(entries) <= 8, sorted(entries)


def test_no_module_imports_itself_in_a_circle():
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for imported in GRAPH.get(name, ()):
            # A package's __init__ is loaded with its modules; only module-to-module circles count.
            if not name.startswith(imported + "."):
                visit(imported, (*path, name))
        done.add(name)

    for name in GRAPH:
        visit(name, ())


@pytest.mark.parametrize("path", [*MODULES, *(ROOT / "tools").glob("*.py")], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_is_under_600_lines(path):
    assert len(path.read_text().splitlines()) < 600


def test_the_engine_has_a_few_modules_at_its_top_and_a_package_for_each_engine():
    entries = sorted(p.name for p in ENGINE.iterdir() if p.name != "__pycache__")
    assert len(entries) <= 10, entries
    assert {"exact", "big"} <= set(entries)
    for engine in ("exact", "big"):
        assert (ENGINE / engine / "__init__.py").is_file()
        assert (ENGINE / engine / "parameters.py").is_file()


@pytest.mark.parametrize(
    "path",
    [*(PACKAGE / "web").rglob("*.py"), *(PACKAGE / "learn").rglob("*.py"), PACKAGE / "match.py"],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_the_pages_take_the_engines_vocabulary_and_reach_the_search_through_the_solver_alone(path):
    engine = {name for name in imports(path) if name.startswith("webapp.engine")}
    assert engine <= VOCABULARY, f"{path.name} imports {sorted(engine - VOCABULARY)}"


def loaded_after(code: str) -> set[str]:
    """The engine modules a fresh interpreter has loaded after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return {name.removeprefix("webapp.engine.") for name in done.stdout.split() if name.startswith("webapp.engine.")}


def test_a_small_board_never_loads_the_big_boards_engine():
    code = (
        "from webapp.solver import analyze, choose_move\n"
        "choose_move('.........', 'minimax'); analyze('X........'); choose_move('.' * 16, 'minimax')\n"
        "from webapp import create_app\n"
        "client = create_app({'TESTING': True, 'SECRET_KEY': 'test'}).test_client()\n"
        "assert client.get('/').status_code == 200 and client.get('/tree').status_code == 200"
    )
    assert not {name for name in loaded_after(code) if name.startswith("big")}


def test_a_big_board_loads_its_engine_when_first_used():
    assert {"big.levels", "big.hard", "big.board"} <= loaded_after(
        "from webapp.solver import choose_move\nchoose_move('.' * 49, 'one-ply')"
    )
