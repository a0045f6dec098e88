"""How often a finger's tap lands on the square meant, on 15×15 and 7×7 at phone widths, with and without the
magnifier that a tap opens on squares too small for a finger (static/app.js).

Opens the game in Debian's chromium (the app in this process, on a loopback port) and, for taps spread around
each square's centre as a finger's are (a normal spread of ``--spread`` CSS pixels on each axis; about 1.5 mm,
8 px, is what studies of touch screens find), asks the page which square lies under each tap
(``document.elementFromPoint``): on the board itself, and in the magnifier opened on it. Also the one tap the
issue measured, 12 px to the right of a square's centre. Prints the share of taps on the square meant.

    .venv/bin/python scripts/tap_accuracy.py [--spread 8] [--taps 2000]
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
from pathlib import Path

from playwright.sync_api import expect, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spread", type=float, default=8.0, help="the taps' standard deviation, CSS px")
    parser.add_argument("--taps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    app = create_app({"TESTING": True, "SECRET_KEY": "tap-accuracy", "RANDOM_SEED": 1})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    print(f"taps spread {args.spread:g} px on each axis; share on the square meant")
    print("board  width  square  board itself  12 px off   magnifier  12 px off")
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
                spread = [[m, rng.gauss(0, args.spread), rng.gauss(0, args.spread)] for m in meant]
                off = [[m, 12, 0] for m in meant]
                size = page.locator("#cell-0").bounding_box()["width"]
                board = share(page.evaluate(HITS, [spread, "#board "]), meant)
                board_off = share(page.evaluate(HITS, [off, "#board "]), meant)
                # The magnifier, opened on the middle square: its 25 squares, each tapped the same way.
                centre = page.locator(f"#cell-{n * n // 2}").bounding_box()
                page.touchscreen.tap(centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2)
                shown = page.locator(".loupe-cell")
                if shown.count():
                    cells = [int(c) for c in shown.evaluate_all("cs => cs.map(c => c.dataset.cell)")]
                    aimed = [rng.choice(cells) for _ in range(args.taps)]
                    spread = [[m, rng.gauss(0, args.spread), rng.gauss(0, args.spread)] for m in aimed]
                    loupe = share(page.evaluate(HITS, [spread, ".loupe "]), aimed)
                    loupe_off = share(page.evaluate(HITS, [[[m, 12, 0] for m in aimed], ".loupe "]), aimed)
                    magnified = f"{loupe:9.1%}  {loupe_off:9.1%}"
                else:
                    magnified = "(none: squares big enough)"
                print(f"{key:6} {width:5}  {size:5.1f}  {board:12.1%}  {board_off:9.1%}  {magnified}")
                context.close()
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
