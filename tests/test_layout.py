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


KNOWN = {module_name(p) for p in MODULES}
# What a dynamic import stands for when its name is not a plain string: an f-string's constant start.
UNKNOWN = "<a module named at run time>"


def imported_by(source: str, name: str, is_package: bool = False) -> set[str]:
    """Every module the code of module ``name`` imports, anywhere in it: ``import``, ``from x import y`` (y counts
    if it is a module), relative imports, and importlib.import_module or __import__ of a string. An f-string stands
    for every module its constant start names; any other name made at run time is UNKNOWN."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            found.update(_dynamically_imported(node.args[0], package))
    return found


def _is_dynamic_import(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id in ("import_module", "__import__")) or (
        isinstance(func, ast.Attribute) and func.attr == "import_module"
    )


def _dynamically_imported(argument: ast.expr, package: list[str]) -> set[str]:
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        text = argument.value
        if text.startswith("."):  # relative to this module's package, as import_module(".x", __package__) is
            level = len(text) - len(text.lstrip("."))
            text = ".".join([*package[: len(package) - level + 1], text.lstrip(".")])
        return {text}
    if isinstance(argument, ast.JoinedStr) and argument.values and isinstance(argument.values[0], ast.Constant):
        start = str(argument.values[0].value)
        return {name for name in KNOWN if name.startswith(start)} or {UNKNOWN}
    return {UNKNOWN}


def imports(path: Path) -> set[str]:
    """Every webapp module ``path`` imports (see imported_by), and UNKNOWN if it names one at run time."""
    found = imported_by(path.read_text(), module_name(path), path.name == "__init__.py")
    return {name for name in found if (name in KNOWN and name != "webapp") or name == UNKNOWN}


GRAPH = {module_name(path): imports(path) - {module_name(path)} for path in MODULES}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from . import rules", {"webapp.engine", "webapp.engine.rules"}),
        ("from .big import levels", {"webapp.engine.big", "webapp.engine.big.levels"}),
        ("from ..web import state", {"webapp.web", "webapp.web.state"}),
        ("import importlib\nimportlib.import_module('webapp.match')", {"importlib", "webapp.match"}),
        (
            "from importlib import import_module\nimport_module('.rules', __package__)",
            {"importlib", "importlib.import_module", "webapp.engine.rules"},
        ),
        ("__import__('webapp.solver')", {"webapp.solver"}),
        ("import importlib\nimportlib.import_module(name)", {"importlib", UNKNOWN}),
    ],
)
def test_the_import_reader_sees_relative_and_dynamic_imports(source, expected):
    assert imported_by(source, "webapp.engine.search") == expected


def test_an_f_string_import_stands_for_every_module_it_can_name():
    found = imported_by("importlib.import_module(f'webapp.engine.{name}')", "webapp.solver")
    assert {"webapp.engine.big.levels", "webapp.engine.exact.search"} <= found
    assert not any(name.startswith("webapp.web") for name in found)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_names_what_it_imports(path):
    # A module named at run time would slip past the circle and vocabulary checks.
    assert UNKNOWN not in imports(path) or path.relative_to(PACKAGE) in NAMED_AT_RUN_TIME


# The one module allowed to import by a name it is given: a search process loads the app from the factory name
# gunicorn was given, as gunicorn itself does, so that the serving layer names nothing of the game.
NAMED_AT_RUN_TIME = {Path("serving/searches.py")}


# The few parts at the top: the engine and its face (solver), the game's table and friend game, the pages (web), the
# serving layer (serving), the learning pages' reckoning (learn), and the command line.
TOP = {"__init__.py", "__main__.py", "engine", "solver.py", "match.py", "friend_game.py", "learn", "web", "serving"}


def test_the_top_of_the_package_holds_a_few_parts():
    entries = {p.name for p in PACKAGE.iterdir() if p.name != "__pycache__" and (p.suffix == ".py" or p.is_dir())}
    assert entries == TOP


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


# Every module of webapp/ but the engine and its face.
OUTSIDE_THE_ENGINE = [path for path in MODULES if ENGINE not in path.parents and path != PACKAGE / "solver.py"]


def test_the_modules_outside_the_engine_are_all_checked():
    names = {str(path.relative_to(PACKAGE)) for path in OUTSIDE_THE_ENGINE}
    assert {"__init__.py", "__main__.py", "friend_game.py", "match.py", "web/app.py", "learn/tree.py"} <= names


@pytest.mark.parametrize("path", OUTSIDE_THE_ENGINE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_pages_take_the_engines_vocabulary_and_reach_the_search_through_the_solver_alone(path):
    engine = {name for name in imports(path) if name.startswith("webapp.engine")}
    assert engine <= VOCABULARY, f"{path.name} imports {sorted(engine - VOCABULARY)}"


SERVING = PACKAGE / "serving"
# What the serving layer may import besides itself: the standard library and the server's own packages. Not even the
# engine's pacing: the game hands its searches a request's pace through costs.init_app's hook instead.
SERVING_MAY_IMPORT = {"flask", "werkzeug", "gunicorn", "gevent"}


@pytest.mark.parametrize("path", sorted(SERVING.glob("*.py")), ids=lambda p: p.name)
def test_the_serving_layer_imports_nothing_of_the_game(path):
    found = imported_by(path.read_text(), module_name(path), path.name == "__init__.py") - {UNKNOWN}
    outside = {
        name
        for name in found
        if name.split(".")[0] not in sys.stdlib_module_names | SERVING_MAY_IMPORT
        and name != "webapp"
        and not name.startswith("webapp.serving")
    }
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_loading_the_serving_layer_loads_no_game_module():
    names = ", ".join(module_name(path) for path in sorted(SERVING.glob("*.py")))
    done = subprocess.run(
        [sys.executable, "-c", f"import {names}, sys; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    loaded = {name for name in done.stdout.split() if name.startswith("webapp.")}
    assert {name for name in loaded if not name.startswith("webapp.serving")} == set()


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


# Names that may stand in more than one module of webapp/, and why. Names starting with _ are each module's own.
SHARED_NAMES = {
    # Flask's conventions: each extension module's setup hook, a view named after its endpoint in each blueprint,
    # and a program's entry point.
    "init_app": "Flask's extension hook",
    "move": "a view per blueprint (game.move, friend.move, api.move)",
    "main": "a program's entry point",
    # Until the engine branch lands: it renames the engine's own duplicates (the engine issue), and Outlook with them.
    "analyze": "engine",
    "candidates": "engine",
    "children": "engine",
    "describe": "engine",
    "outlook": "engine",
    "load": "engine",
}


def top_level_names(path: Path) -> set[str]:
    """The public functions and classes defined at the top of ``path``."""
    found = ast.parse(path.read_text(), str(path)).body
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in found if isinstance(node, kinds) and not node.name.startswith("_")}


def is_the_solver_s(places: list[str]) -> bool:
    """Whether a name is the solver's and one engine module's only."""
    return len(places) == 2 and "webapp.solver" in places and any(p.startswith("webapp.engine.") for p in places)


def test_no_two_modules_define_a_function_or_class_of_the_same_name():
    where: dict[str, list[str]] = {}
    for path in MODULES:
        for name in top_level_names(path):
            where.setdefault(name, []).append(module_name(path))
    # webapp.solver is the engine's one face: its functions that hand a call to the engine's own keep its name.
    shared = {name: places for name, places in where.items() if len(places) > 1 and not is_the_solver_s(places)}
    assert not {name: places for name, places in shared.items() if name not in SHARED_NAMES}
    assert not set(SHARED_NAMES) - set(shared), "a name listed as shared is no longer: take it off SHARED_NAMES"
