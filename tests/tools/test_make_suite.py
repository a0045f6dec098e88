import json

from tools import make_suite, suite


def test_the_7x7_suite_is_what_its_procedure_chooses():
    assert make_suite.make("7x7") == json.loads(suite.path_of("7x7").read_text())


def test_every_opening_counts_once_whatever_its_turn_or_mirror_image():
    found = make_suite.openings(7, 1)
    assert len(found) == len(set(found)) == 38
    assert all(suite.canonical(b) == b and b.count("X") == 2 and b.count("O") == 1 for b in found)


def test_rapfi_is_asked_only_for_what_the_cache_does_not_know(tmp_path, monkeypatch):
    monkeypatch.delenv("RAPFI", raising=False)
    boards = make_suite.openings(7, 1)[:2]
    cache = tmp_path / "judgements.jsonl"
    known = [{"board": b, "nodes": 10, "eval": 5, "mate": None, "depth": 3, "pv": []} for b in boards]
    cache.write_text("".join(json.dumps(row) + "\n" for row in known))
    assert make_suite.judged(boards, 10, cache) == dict(zip(boards, known, strict=True))
