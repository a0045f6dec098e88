"""From a click on a square to the computer's stone on the screen, in Chromium, on every board.

Starts the production server (gunicorn with gunicorn.conf.py, 2 workers, as `make load` does), opens the game
in Debian's chromium at 320×640, and plays whole games as X against the top level of each board (Impossible on
3×3 to 5×5, Hard on 7×7 and 15×15), choosing its own moves with Medium. For each move it measures, in the
page, the time from the click (pointerdown) to the first frame that shows the computer's reply (a
requestAnimationFrame after the board with both moves is in the page), and prints the median, the 90th
percentile and the worst per board. Wall time on a shared machine: run it quiet (docs/audits.md).

    .venv/bin/python scripts/tap_to_stone.py [--moves 40] [--boards 15x15 7x7]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import statistics
import sys
from pathlib import Path

from load import Server
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp.engine.boards import BY_KEY  # noqa: E402
from webapp.solver import choose_move  # noqa: E402

BOARDS = ("3x3", "4x4", "5x5", "7x7", "15x15")
CHROMIUM = "/usr/bin/chromium"

# In the page: when a square is pressed, and when the next frame after the reply's arrival starts.
TIMING = """() => {
  window.taps = [];
  let pressed = null;
  document.addEventListener('pointerdown', event => {
    if (!event.target.closest('#board .cell')) return;
    pressed = {at: performance.now(), ply: Number(document.getElementById('board').dataset.ply)};
  }, true);
  new MutationObserver(() => {
    const board = document.getElementById('board');
    if (!pressed || !board || Number(board.dataset.ply) < pressed.ply + 2) return;
    const from = pressed.at;
    pressed = null;
    requestAnimationFrame(frame => taps.push(frame - from));
  }).observe(document.getElementById('play'), {childList: true, subtree: true, attributes: true});
}"""


def measure(page, base: str, key: str, moves: int, rng: random.Random) -> list[float]:
    """Click ``moves`` squares on board ``key`` against its top level; the tap-to-stone times in ms."""
    page.goto(base + "/")
    # Each dropdown's answer redraws the settings: wait for it before the next choice.
    for name, value in (("Board", key), ("Difficulty", "minimax")):
        page.get_by_role("combobox", name=name).select_option(value)
        page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="New game", exact=True).click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    expect(page.locator("#board .cell")).to_have_count(BY_KEY[key].cells)
    expect(page.get_by_role("heading", name=re.compile(r"^Score against (Hard|Impossible)"))).to_be_attached()
    page.evaluate(TIMING)
    played = 0
    while played < moves:
        board = page.locator("#board")
        if board.get_attribute("data-status") != "playing":
            page.get_by_role("button", name="Play again", exact=True).click()
            expect(board).to_have_attribute("data-ply", "0")
            continue
        text, ply = board.get_attribute("data-board"), int(board.get_attribute("data-ply"))
        cell = choose_move(text, "one-ply", rng)
        page.locator(f"#cell-{cell}").click()
        expect(board).not_to_have_attribute("data-ply", str(ply))
        expect(page.locator("#board.is-pending")).to_have_count(0)
        played += 1
    page.wait_for_timeout(100)  # the last reply's frame
    return page.evaluate("taps")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves per board (default 40)")
    parser.add_argument("--boards", nargs="*", default=list(BOARDS), choices=BOARDS)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with Server("webapp:create_app()", ROOT, secrets.token_urlsafe(32), workers=2) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        print(f"load average at the start: {os.getloadavg()[0]:.1f}")
        print("board  moves  median  p90  worst (ms, click to the computer's stone on screen)")
        for key in args.boards:
            # A visitor of its own for each board: no game in progress to ask about.
            page = browser.new_context(viewport={"width": 320, "height": 640}).new_page()
            times = sorted(measure(page, f"http://127.0.0.1:{server.port}", key, args.moves, rng))
            page.context.close()
            p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
            print(f"{key:6} {len(times):5}  {statistics.median(times):6.0f} {p90:4.0f} {times[-1]:6.0f}")
        browser.close()
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
