"""The golden records (run by hand, only when a rule change is meant to change whole games):
python tests/golden/make_golden.py

Two kinds: random games (``GAMES``) and medium-bot games (``BOT_GAMES``), each record its
actions and final scores.  ``replayed.json`` holds, for every record, each round's result and
a digest of every line of the log, as the engine replayed them when the records were made:
all of them were made before the contract was laid meld by meld (issue 41), and
tests/test_views_records.py replays them to the same rounds and log.  ``--replayed`` writes
that file again from this engine (only when a change is meant to change old records' logs)."""

import json
import random
import sys
from pathlib import Path

import rummykit as rk
from rummykit.cli.simulate import play_random
from rummykit.players import make_player

GAMES = [("basic", 2, 101), ("traditional", 3, 102), ("block", 4, 103), ("wrotham", 3, 104),
         ("contract", 4, 105), ("liverpool", 4, 106), ("may-i", 5, 107), ("denexa", 3, 108),
         ("combination", 3, 109)]
BOT_GAMES = [("shanghai", 4, 110), ("shanghai-kolsov", 3, 111), ("shanghai-powe", 4, 112),
             ("progressive", 4, 113), ("ten-card", 5, 114), ("seven-hand", 4, 115)]

if __name__ == "__main__":
    here = Path(__file__).parent
    if "--replayed" in sys.argv:
        sys.path.insert(0, str(here.parent))
        from test_views_records import _replayed

        names = sorted(p.stem for p in here.glob("*-*p-*.json"))
        out = {name: _replayed(json.loads((here / f"{name}.json").read_text())) for name in names}
        (here / "replayed.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
        sys.exit(0)
    for vid, n, seed in GAMES + BOT_GAMES:
        g = rk.new_game(vid, players=n, seed=seed)
        if (vid, n, seed) in GAMES:
            play_random(g, random.Random(seed))
        else:
            bots = [make_player("medium", seed=seed * 10 + s) for s in range(n)]
            while not g.is_over:
                s = g.current_player
                g.apply(bots[s].choose(g.view(s), g.legal_actions()))
        (here / f"{vid}-{n}p-{seed}.json").write_text(json.dumps(g.record(), separators=(",", ":")) + "\n")
        print(vid, n, seed, [str(s) for s in g.scores], len(g.actions), "actions")
