"""Lighthouse on every page, mobile and desktop, against the production server: the 32 scores.

Installs the pinned Lighthouse from npm into .lighthouse/ (git ignores it) when it is missing, as
scripts/ensure-chromium installs the browser; starts gunicorn with gunicorn.conf.py on a free port
of 127.0.0.1 (as `make load` does); runs Lighthouse with Debian's chromium on /, /tree, /numbers
and /tournament, with its mobile settings and with its desktop preset; prints the score of each
category and exits 1 if one is below 100. Slow (a minute or more per page), so not part of
`make test`: run it with `make lighthouse`. Latest scores: docs/audits.md.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

from load import Server

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / ".lighthouse"
VERSION = "13.5.0"
CLI = TOOLS / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME = "/usr/bin/chromium"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
PAGES = ("/", "/tree", "/numbers", "/tournament")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FORM_FACTORS = ("mobile", "desktop")
ATTEMPTS = 3


def ensure_lighthouse() -> None:
    """Install the pinned Lighthouse into .lighthouse/ unless that very version is there."""
    installed = TOOLS / "node_modules" / "lighthouse" / "package.json"
    if installed.exists() and json.loads(installed.read_text())["version"] == VERSION:
        return
    TOOLS.mkdir(exist_ok=True)
    (TOOLS / "package.json").write_text(json.dumps({"private": True, "dependencies": {"lighthouse": VERSION}}))
    print(f"Installing Lighthouse {VERSION} into {TOOLS.relative_to(ROOT)}/ ...", file=sys.stderr)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS, check=True)


def audit(port: int, page: str, form_factor: str) -> dict[str, int]:
    """One Lighthouse run: each category's score out of 100, and the audits that cost points."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = ["node", str(CLI), f"http://127.0.0.1:{port}{page}", "--quiet", "--output=json"]
        command += [f"--output-path={report}", f"--chrome-flags={CHROME_FLAGS}"]
        command += [f"--only-categories={','.join(CATEGORIES)}"]
        if form_factor == "desktop":
            command.append("--preset=desktop")
        for attempt in range(1, ATTEMPTS + 1):
            # On a busy machine Lighthouse now and then fails to record the page load's trace (NO_NAVSTART).
            run = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROME}, timeout=300)
            if run.returncode == 0:
                break
            print(f"  {page} {form_factor}: Lighthouse failed (attempt {attempt} of {ATTEMPTS})", file=sys.stderr)
        else:
            raise SystemExit(f"Lighthouse failed {ATTEMPTS} times on {page} ({form_factor}).")
        found = json.loads(report.read_text())
    scores = {name: round(found["categories"][name]["score"] * 100) for name in CATEGORIES}
    for name in CATEGORIES:
        for ref in found["categories"][name]["auditRefs"]:
            result = found["audits"][ref["id"]]
            if ref["weight"] and result["score"] is not None and result["score"] < 1:
                print(f"  {page} {form_factor} {name}: {ref['id']} scored {result['score']}", file=sys.stderr)
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", nargs="*", default=list(PAGES))
    parser.add_argument("--form-factors", nargs="*", default=list(FORM_FACTORS), choices=FORM_FACTORS)
    args = parser.parse_args()
    ensure_lighthouse()
    rows = []
    print(f"{'page':<12} {'device':<8} " + " ".join(f"{name:>14}" for name in CATEGORIES), flush=True)
    with Server("webapp:create_app()", ROOT, secrets.token_urlsafe(32), workers=2) as server:
        for page in args.pages:
            for form_factor in args.form_factors:
                scores = audit(server.port, page, form_factor)
                rows.append((page, form_factor, scores))
                print(f"{page:<12} {form_factor:<8} " + " ".join(f"{scores[n]:>14}" for n in CATEGORIES), flush=True)
    below = [(page, ff, name) for page, ff, scores in rows for name in CATEGORIES if scores[name] < 100]
    print(f"\n{len(rows) * len(CATEGORIES) - len(below)} of {len(rows) * len(CATEGORIES)} scores are 100.")
    return 1 if below else 0


if __name__ == "__main__":
    raise SystemExit(main())
