"""Regenerate the golden records (run by hand, only when a rule change is meant to change
whole games): python tests/golden/make_golden.py"""

import json
import random
from pathlib import Path

import rummykit as rk
from rummykit.cli.simulate import play_random

GAMES = [("basic", 2, 101), ("traditional", 3, 102), ("block", 4, 103), ("wrotham", 3, 104),
         ("contract", 4, 105), ("liverpool", 4, 106), ("may-i", 5, 107), ("denexa", 3, 108),
         ("combination", 3, 109)]

if __name__ == "__main__":
    here = Path(__file__).parent
    for vid, n, seed in GAMES:
        g = rk.new_game(vid, players=n, seed=seed)
        play_random(g, random.Random(seed))
        (here / f"{vid}-{n}p-{seed}.json").write_text(json.dumps(g.record(), separators=(",", ":")) + "\n")
        print(vid, n, seed, [str(s) for s in g.scores], len(g.actions), "actions")
