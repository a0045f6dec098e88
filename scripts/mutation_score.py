"""The mutation score of each module after `mutmut run`, raw and with the recorded equivalent mutants set aside.

Reads `mutmut results --all true` and the mutant names written in backticks in docs/mutation.md
(the equivalent mutants, each with its reason). A mutant counts as caught when the tests failed
or ran out of time; the raw score is caught / mutants checked. Exits 1 if a module is below the goal.

    python scripts/mutation_score.py [--goal 90]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAUGHT = {"killed", "timeout", "segfault", "caught by type check"}
UNCHECKED = {"not checked", "skipped"}


def results() -> dict[str, str]:
    """Each mutant's name and status, as mutmut reports them."""
    mutmut = Path(sys.executable).with_name("mutmut")
    text = subprocess.run(
        [str(mutmut), "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return dict(re.findall(r"^\s*(\S+__mutmut_\d+): (.+?)\s*$", text, flags=re.MULTILINE))


def equivalents() -> set[str]:
    """The mutants that docs/mutation.md records as equivalent."""
    return set(re.findall(r"`(webapp\.\S+__mutmut_\d+)`", (ROOT / "docs" / "mutation.md").read_text("utf-8")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", type=float, default=90.0, help="the least score, in percent, for each module")
    goal = parser.parse_args().goal
    recorded = equivalents()
    by_module: dict[str, Counter] = defaultdict(Counter)
    unexplained: list[str] = []
    for name, status in sorted(results().items()):
        # "webapp.engine.exact.x_solve__mutmut_3", "webapp.match.xǁTableǁmove__mutmut_1": the module is
        # what comes before ".x_" or ".xǁ" (a plain ".x" would also cut "exact" in two).
        module = re.split(r"\.x[_ǁ]", name, maxsplit=1)[0]
        if status in UNCHECKED:
            by_module[module]["unchecked"] += 1
            continue
        tally = by_module[module]
        tally["checked"] += 1
        if status in CAUGHT:
            tally["caught"] += 1
        elif name in recorded:
            tally["equivalent"] += 1
        else:
            unexplained.append(f"{status}: {name}")
    below = False
    print(f"{'module':<24}{'mutants':>8}{'caught':>8}{'equiv.':>8}{'raw':>8}{'score':>8}  (goal {goal:g} %)")
    for module, tally in sorted(by_module.items()):
        if not tally["checked"]:
            print(f"{module:<24}{'not run':>8}")
            continue
        raw = 100 * tally["caught"] / tally["checked"]
        score = 100 * tally["caught"] / (tally["checked"] - tally["equivalent"])
        below |= score < goal
        print(
            f"{module:<24}{tally['checked']:>8}{tally['caught']:>8}{tally['equivalent']:>8}"
            f"{raw:>7.1f}%{score:>7.1f}%" + ("  below the goal" if score < goal else "")
        )
    if unexplained:
        print(f"\n{len(unexplained)} mutants survived that docs/mutation.md does not explain (`mutmut show NAME`):")
        print("\n".join(unexplained))
    return 1 if below else 0


if __name__ == "__main__":
    raise SystemExit(main())
