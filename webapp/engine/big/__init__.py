"""The big boards' engine (7×7 and 15×15, five in a row): its board, line patterns, evaluation, threat search,
alpha-beta, budget and the Hard level.

``levels`` answers the levels' questions (Easy, Medium, Hard, the analysis) and ``facts`` the pages' (threats,
forced wins, a review's facts). Hard (``hard``) plays one ``MoveSearch`` at a time: its steps and their shares of the
``budget``, the threat search (``threats``) and the ``alphabeta`` counting on one meter. The board (``board``)
keeps each line's patterns (``lines``) up to date, from which come the evaluation (``evaluation``, its weights
fitted by ``make tune``) and the move ordering. Tunables: ``parameters``. Nothing here is loaded for 3×3 to 5×5.

The hot modules (``COMPILED``) run compiled by mypyc when ``scripts/build_engine.py`` has built them from these very
sources (``build/engine/``, its stamp the sources' hash): the same files then run as C extensions. Without a build,
with a stale one, or with ``ENGINE_PURE`` set, they run as Python, the same moves more slowly. ``ENGINE`` says which.
"""

import hashlib
import os
import sys
from pathlib import Path

# The modules compiled, in the order mypyc is given them: the board, its lines, the searches and their meter.
COMPILED = ("lines", "evaluation", "board", "moves", "budget", "threats", "alphabeta")
# Where scripts/build_engine.py puts the extensions, beside the package's checkout (ignored by git).
BUILD = Path(__file__).resolve().parents[3] / "build" / "engine"


def sources_stamp() -> str:
    """The hash of the compiled modules' sources and the interpreter's version: a build is used only for these."""
    digest = hashlib.sha256(sys.version.encode())
    for name in COMPILED:
        digest.update((Path(__file__).with_name(f"{name}.py")).read_bytes())
    return digest.hexdigest()


def _use_the_build() -> str:
    """Put a current build's extensions ahead of the sources, and say which engine runs."""
    stamp = BUILD / "stamp"
    if os.environ.get("ENGINE_PURE") or not stamp.is_file() or stamp.read_text().strip() != sources_stamp():
        return "pure Python"
    sys.path.append(str(BUILD))  # mypyc's shared library, a top-level module
    __path__.insert(0, str(BUILD / "webapp" / "engine" / "big"))
    return "compiled (mypyc)"


ENGINE = _use_the_build()
