"""How often a finger's tap plays the square meant on 15×15 (and 7×7) at phone widths, and how many taps a move takes,
for each way the game offers to play small squares by touch (static/app.js): a tap that plays at once, the same with
the page zoomed in with two fingers, and the magnifier a tap opens.

Opens the game in Debian's chromium (the app in this process, on a loopback port) and, for taps spread around each
square's centre as a finger's are (a normal spread of ``--spread`` CSS pixels on each axis at no zoom; about 1.5 mm,
8 px, is what studies of touch screens find), asks the page which square lies under each tap
(``document.elementFromPoint``). Zoomed in by a factor z, the same finger covers 1/z as many of the page's pixels,
so its spread there is ``--spread`` / z. In the magnifier, the tap that opens it only has to land near the square
(its 5 × 5 squares hold the one meant when the first tap lands within two squares), and the second is measured on
the magnifier's own squares. Also the one tap the first report measured, 12 px to the right of a square's centre.

    .venv/bin/python scripts/tap_accuracy.py [--spread 8] [--taps 2000]
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
from pathlib import Path

from playwright.sync_api import FloatRect, Locator, expect, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ZOOM = 2.0  # two fingers spread once: the board's squares twice as wide on the screen

# For each [square meant, dx, dy]: the square under that point, or -1 off any square. Marks are ignored.
HITS = """([targets, scope]) => targets.map(([cell, dx, dy]) => {
  const square = document.querySelector(scope + '[data-cell="' + cell + '"], ' + scope + '#cell-' + cell);
  const box = square.getBoundingClientRect();
  const found = document.elementFromPoint(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
  const hit = found && found.closest('.cell');
  return hit ? Number(hit.dataset.cell || hit.value) : -1;
})"""


def share(hits: list[int], meant: list[int]) -> float:
    return sum(h == m for h, m in zip(hits, meant, strict=True)) / len(meant)


def spread_taps(rng: random.Random, meant: list[int], spread: float) -> list[list[float]]:
    return [[m, rng.gauss(0, spread), rng.gauss(0, spread)] for m in meant]


def box(locator: Locator) -> FloatRect:
    """Where a shown element is on the page."""
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spread", type=float, default=8.0, help="the taps' standard deviation, CSS px at no zoom")
    parser.add_argument("--taps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    app = create_app({"TESTING": True, "SECRET_KEY": "tap-accuracy", "RANDOM_SEED": 1})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    print(f"taps spread {args.spread:g} px on each axis; on the square meant, and taps a move")
    print("board  width  square | at once       | zoomed 2×: square, at once | magnifier: square, on target", end="")
    print(" | 12 px off")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for key, n in (("15x15", 15), ("7x7", 7)):
            for width in (320, 360, 414):
                context = browser.new_context(viewport={"width": width, "height": 740}, has_touch=True)
                page = context.new_page()
                page.goto(base + "/")
                page.get_by_role("combobox", name="Board").select_option(key)
                expect(page.locator("#board .cell")).to_have_count(n * n)
                # Squares away from the edges, so that a tap off the board is not counted against it.
                inner = [r * n + c for r in range(1, n - 1) for c in range(1, n - 1)]
                meant = [rng.choice(inner) for _ in range(args.taps)]
                size = box(page.locator("#cell-0"))["width"]
                at_once = share(page.evaluate(HITS, [spread_taps(rng, meant, args.spread), "#board "]), meant)
                zoomed = share(page.evaluate(HITS, [spread_taps(rng, meant, args.spread / ZOOM), "#board "]), meant)
                off = share(page.evaluate(HITS, [[[m, 12, 0] for m in meant], "#board "]), meant)
                line = f"{key:6} {width:5}  {size:5.1f}  | {at_once:6.1%}, 1 tap"
                line += f" | {size * ZOOM:5.1f} px, {zoomed:6.1%}, 1 tap"
                # The magnifier, opened on the middle square: its 25 squares, each tapped the same way.
                centre = box(page.locator(f"#cell-{n * n // 2}"))
                page.touchscreen.tap(centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2)
                shown = page.locator(".loupe-cell")
                if shown.count():
                    cells = [int(c) for c in shown.evaluate_all("cs => cs.map(c => c.dataset.cell)")]
                    loupe_size = box(shown.first)["width"]
                    aimed = [rng.choice(cells) for _ in range(args.taps)]
                    loupe = share(page.evaluate(HITS, [spread_taps(rng, aimed, args.spread), ".loupe "]), aimed)
                    loupe_off = share(page.evaluate(HITS, [[[m, 12, 0] for m in aimed], ".loupe "]), aimed)
                    line += f" | {loupe_size:4.1f} px, {loupe:6.1%}, 2 taps | {off:6.1%}, magnified {loupe_off:6.1%}"
                else:
                    line += f" | (none: squares big enough)          | {off:6.1%}"
                print(line, flush=True)
                context.close()
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
