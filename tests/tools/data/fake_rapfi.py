"""A stand-in for Rapfi that speaks its side of the Gomocup protocol, for the client's tests.

It plays at x = its own stones' count, y = 10 + the other side's, so that a test can tell whether the client
sent the stones as the side to move's and read the move as column, row. Like Rapfi, it drops a command that
comes right after its move. FAKE_RAPFI_CRASH (a file: crash once, creating it), FAKE_RAPFI_HANG and
FAKE_RAPFI_OCCUPIED make it fail the way a broken engine would; FAKE_RAPFI_LOG (a file) gets every INFO line.
"""

import os
import sys
import time


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    say("MESSAGE Load config from config.toml")
    deaf_until = 0.0
    lines = iter(sys.stdin.readline, "")
    for raw in lines:
        line = raw.strip()
        if time.monotonic() < deaf_until and line != "END":
            deaf_until = 0.0
            continue  # still "thinking": the command is lost, as Rapfi loses it
        if line.startswith("START"):
            say("OK")
        elif line == "YXHASHCLEAR":
            say("MESSAGE Transposition table cleared.")
        elif line == "BOARD":
            stones = []
            for raw_stone in lines:
                if raw_stone.strip() == "DONE":
                    break
                stones.append(raw_stone.strip().split(","))
            crash = os.environ.get("FAKE_RAPFI_CRASH")
            if crash and not os.path.exists(crash):
                open(crash, "w").close()
                os._exit(3)
            if os.environ.get("FAKE_RAPFI_HANG"):
                continue
            mine = sum(who == "1" for _, _, who in stones)
            x, y = mine, 10 + len(stones) - mine
            if os.environ.get("FAKE_RAPFI_OCCUPIED"):
                x, y = int(stones[0][0]), int(stones[0][1])
            say("MESSAGE Depth 6-11 | Eval 35 | Time 2ms | h8 i9 j10")
            say("MESSAGE Speed 1.0M | Depth 7-12 | Eval -M4 | Node 2.0K | Time 3ms")
            say(f"{x},{y}")
            deaf_until = time.monotonic() + 0.05
        elif line == "END":
            return
        elif line.startswith("INFO"):
            if os.environ.get("FAKE_RAPFI_LOG"):
                with open(os.environ["FAKE_RAPFI_LOG"], "a") as log:
                    log.write(line + "\n")
        else:
            say(f"ERROR Unknown command: {line}")


if __name__ == "__main__":
    main()
