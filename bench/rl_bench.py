"""The RL environment's cost per step beside the engine's own cost per decision (figures only).

    pip install -e '.[rl,bench]'     # OpenSpiel and RLCard, both optional
    python bench/rl_bench.py [--steps N] [--cpu] [--parts]

Random play throughout.  An *env step* is what the environment does per move: the acting
seat's observation and legal-action ids, then the move (rummykit: ``observe()`` + ``step()``;
OpenSpiel: ``observation_tensor()`` + ``legal_actions()`` + ``apply_action()``; RLCard:
``env.step()``, which returns the next seat's observation and legal ids).  rummykit's agent
picks as the engine loop does (uniformly, by the action's place in ``legal_actions()``), so the
env and engine loops play the same games: a game's cost per decision varies far more from
game to game than the environment adds.  What reading the mask costs an agent
(``np.flatnonzero`` and a random index) is timed apart, on the mask read as bools and on the
int8 mask itself (numpy's ``flatnonzero`` is several times faster on bools).  The peers'
agents pick from a Python list of legal ids.
rummykit's loops each run in a process of their own and take turns in chunks of 1,000
steps: the ratios hold on a busy machine, and no loop's caches serve another (in one process
the figures depended on the loops' order).  A *decision* is the game engine alone: legal
actions, then the move (rummykit: ``legal_actions()`` + ``apply()``; OpenSpiel:
``legal_actions()`` + ``apply_action()``; RLCard: ``judge.get_legal_actions()`` +
``game.step()``).  New games and (OpenSpiel) chance nodes are inside the timed loop.  With
OpenSpiel or RLCard (``pip install rlcard``, 1.2.0) installed it times their gin rummy and
prints every figure as a ratio to rummykit's basic 2-player one; without them it says "not
installed".  It also prints two bounds: a decision plus the acting seat's ``View`` (what
any observation read from the view pays at least), and the env step's floor (:class:`FloorLoop`:
the step with the ``View`` and the observer taken out).  ``--parts`` also prints where an env
step's time goes, piece by piece."""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np  # noqa: E402

import rummykit as rk  # noqa: E402
import rummykit.rl as rl  # noqa: E402
from rummykit.rl.aec import INT8  # noqa: E402
from rummykit.rl.encoding import MELD_OPTIONS  # noqa: E402

CLOCK = time.perf_counter  # --cpu: time.process_time (this process's CPU time, for a busy machine)


class EnvLoop:
    """Random play through the environment, ``k`` steps at a time (its state kept between
    calls): ``observe()``, then ``step()`` with an id the agent picks as the engine loop
    picks its action (uniformly, by the action's place in ``legal_actions()``: the env
    numbers them in that order), so that both loops play the very same games (a game's
    cost per decision varies far more than the env adds).  Reading the mask instead is
    the agent's work: :class:`PickLoop` times it apart."""

    def __init__(self, vid: str, n: int):
        self.e = rl.env(vid, n)
        self.e.reset(seed=1)
        self.rng = random.Random(1)  # the engine loop's choices
        self.games = 1

    def run(self, k: int) -> float:
        e, rng = self.e, self.rng
        t = CLOCK()
        for _ in range(k):
            if all(e.terminations.values()):
                self.games += 1
                e.reset(seed=self.games)
            e.observe(e.agent_selection)
            ids = list(e._table)  # the legal ids, in legal_actions() order
            e.step(ids[rng.randrange(len(ids))])
        return CLOCK() - t


class FloorLoop(EnvLoop):
    """The env loop with the two pieces that read the view taken out: the floor under an
    env step that no work on the view or the observer can go below.  Each step's "view" is
    only the table's melds (the numbering names a wild's lay-off by the run's end), and
    ``observe()`` copies out the last vector unchanged instead of updating it: the moves,
    the ids, the mask, the copy and the AEC API's bookkeeping all stay.  A measurement, not
    an environment (its observations are wrong)."""

    def __init__(self, vid: str, n: int):
        super().__init__(vid, n)
        from rummykit.engine import seen
        from rummykit.rl import aec

        class TableOnly:
            __slots__ = ("melds",)

            def __init__(self, melds: Any):
                self.melds = melds

        aec.observe = lambda setup, st, seat: TableOnly(seen.meld_views(st))  # (this process only)
        for o in self.e._observers:
            o.update = lambda view, melds=(), x=o.x: x.copy()


class PickLoop:
    """What reading the mask costs an agent: ``np.flatnonzero`` and a random index, on the
    masks of ``count`` steps of a game played beforehand (untimed); ``as_bool``: the mask's
    bytes read as bools (no copy), else the int8 mask itself."""

    def __init__(self, vid: str, n: int, as_bool: bool, count: int = 300):
        e = rl.env(vid, n)
        e.reset(seed=2)
        rng = random.Random(2)
        self.masks = []
        for i in range(count):
            if all(e.terminations.values()):
                e.reset(seed=3 + i)
            mask = e.observe(e.agent_selection)["action_mask"]
            self.masks.append(mask)
            ids = np.flatnonzero(mask)
            e.step(int(ids[rng.randrange(len(ids))]))
        self.as_bool, self.at, self.rng = as_bool, 0, random.Random(1)

    def run(self, k: int) -> float:
        masks, rng, as_bool, at = self.masks, self.rng, self.as_bool, self.at
        t = CLOCK()
        for _ in range(k):
            mask = masks[at]
            at = at + 1 if at + 1 < len(masks) else 0
            ids = np.flatnonzero(mask.view(bool) if as_bool else mask)
            int(ids[rng.randrange(len(ids))])
        spent = CLOCK() - t
        self.at = at
        return spent


class EngineLoop:
    """Random play through the engine alone: ``legal_actions()`` and ``apply()``;
    ``view``: also the acting seat's typed view (``observe(seat)``) each step, what any
    observation built from the view costs at least."""

    def __init__(self, vid: str, n: int, view: bool = False):
        self.vid, self.n, self.view = vid, n, view
        self.g = rk.new_game(self.vid, players=n, seed=1)
        self.rng = random.Random(1)
        self.games = 1

    def run(self, k: int) -> float:
        g, rng = self.g, self.rng
        t = CLOCK()
        for _ in range(k):
            if g.is_over:
                self.games += 1
                g = self.g = rk.new_game(self.vid, players=self.n, seed=self.games)
            if self.view:
                g.observe(g.current_player)
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
        return CLOCK() - t


LOOPS = {
    "env": lambda vid, n: EnvLoop(vid, n),
    "pick as bool": lambda vid, n: PickLoop(vid, n, as_bool=True),
    "pick as int8": lambda vid, n: PickLoop(vid, n, as_bool=False),
    "decision": lambda vid, n: EngineLoop(vid, n),
    "decision with the view": lambda vid, n: EngineLoop(vid, n, view=True),
    "env floor": lambda vid, n: FloorLoop(vid, n),
}


def _serve_loop(conn: Any, kind: str, vid: str, n: int, cpu: bool) -> None:
    """A loop in a process of its own: runs ``k`` steps each time it is asked, and answers
    with the seconds they took."""
    global CLOCK
    if cpu:
        CLOCK = time.process_time
    loop = LOOPS[kind](vid, n)
    loop.run(200)  # untimed: the process's first steps pay for imports and first-time set-up
    while (k := conn.recv()) is not None:
        conn.send(loop.run(k))


def interleaved(vid: str, n: int, steps: int, chunk: int = 1000) -> tuple[float, ...]:
    """µs per env step, per pick from the mask (read as bool), per pick (int8 mask), per
    engine decision, per decision with the acting seat's view, and per step of the env's
    floor (:class:`FloorLoop`).  Each loop runs in a
    process of its own (in one process the loops share the engine's caches, and their
    figures depended on the order they ran in), and they take turns in chunks of ``chunk``
    steps, so that a busy spell on the machine falls on all alike."""
    ctx = multiprocessing.get_context("spawn")
    workers = []
    for kind in LOOPS:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_serve_loop, args=(theirs, kind, vid, n, CLOCK is time.process_time),
                           daemon=True)
        proc.start()
        workers.append((proc, mine))
    spent = [0.0] * len(workers)
    done = 0
    try:
        while done < steps:
            k = min(chunk, steps - done)
            for i, (_, conn) in enumerate(workers):
                conn.send(k)
                spent[i] += conn.recv()
            done += k
    finally:
        for proc, conn in workers:
            conn.send(None)
            proc.join(timeout=10)
    us = [x / steps * 1e6 for x in spent]
    return us[0], us[1], us[2], us[3], us[4], us[5]


def openspiel_us(steps: int, observe: bool) -> float | None:
    """OpenSpiel's gin_rummy: µs per decision, or per env step with ``observe``."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    state, n, t = game.new_initial_state(), 0, CLOCK()
    while n < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if observe:
            state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return (CLOCK() - t) / steps * 1e6


def rlcard_us(steps: int, env_step: bool) -> float | None:
    """RLCard's gin-rummy: µs per env step (``env.step``: the next observation and legal
    ids) or per decision (the game alone)."""
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(1)  # the same cheap choice as the other loops
    if env_step:
        t = CLOCK()
        state, _ = env.reset()
        for _ in range(steps):
            if env.is_over():
                state, _ = env.reset()
            ids = list(state["legal_actions"])
            state, _ = env.step(ids[rng.randrange(len(ids))])
        return (CLOCK() - t) / steps * 1e6
    game = env.game
    t = CLOCK()
    game.init_game()
    for _ in range(steps):
        if game.is_over():
            game.init_game()
        legal = game.judge.get_legal_actions()
        game.step(legal[rng.randrange(len(legal))])
    return (CLOCK() - t) / steps * 1e6


PARTS = ("the view", "legal actions", "numbering (ids, mask bytes)", "observer update",
         "observation copy", "mask array", "apply")


def parts_us(vid: str, n: int, steps: int) -> dict[str, float]:
    """Where an env step's time goes: the environment's work for each step done piece by
    piece (as ``RummyEnv`` does it), a clock read around each piece; µs per step.  The
    clock reads add about 0.1 µs to each piece."""
    e = rl.env(vid, n)
    e.reset(seed=1)
    rng = random.Random(1)
    spent = dict.fromkeys(PARTS, 0.0)
    games = 1
    for _ in range(steps):
        g = e.game
        if g.is_over:
            games += 1
            e.reset(seed=games)
            g = e.game
        t0 = CLOCK()
        seat = g.current_player
        view = g.observe(seat)
        t1 = CLOCK()
        legal = g.legal_actions()
        t2 = CLOCK()
        melds: list[Any] = []
        _, mask = e.codec.numbered(legal, view.melds, melds)
        t3 = CLOCK()
        observer = e._observers[seat]
        observer._tracker.update(view, [m.cards() for m in melds[:MELD_OPTIONS]] if melds else [])
        t4 = CLOCK()
        observer.x.copy()
        t5 = CLOCK()
        np.frombuffer(mask, INT8)
        t6 = CLOCK()
        act = legal[rng.randrange(len(legal))]
        t7 = CLOCK()
        g.apply(act)
        t8 = CLOCK()
        took = (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t8 - t7)
        for name, d in zip(PARTS, took, strict=True):
            spent[name] += d
    return {name: d / steps * 1e6 for name, d in spent.items()}


def print_parts(steps: int) -> None:
    for vid, n in (("contract", 4), ("basic", 2)):
        us = parts_us(vid, n, steps)
        decision = us["legal actions"] + us["apply"]
        print(f"\nrummykit {vid} {n}p: where an env step's time goes "
              "(µs; ÷ the decision, legal actions + apply)")
        for name, x in us.items():
            print(f"  {name:<30}{x:>7.2f}{x / decision:>7.2f}")
        added = sum(us.values()) - decision
        print(f"  {'all the env adds':<30}{added:>7.2f}{added / decision:>7.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--cpu", action="store_true", help="time in CPU time, not wall clock (a busy machine)")
    ap.add_argument("--parts", action="store_true",
                    help="also: where an env step's time goes, piece by piece (wall clock)")
    args = ap.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    rows: list[tuple[str, float | None, float | None, str]] = []
    floors = []
    for vid, n in (("contract", 4), ("basic", 2)):
        step, pick_bool, pick_int8, decision, with_view, floor = interleaved(vid, n, args.steps)
        rows.append((f"rummykit {vid} {n}p", step, decision, f"{pick_bool:.1f} / {pick_int8:.1f}"))
        floors.append(f"rummykit {vid} {n}p: a decision with the acting seat's view {with_view:.1f} µs "
                      f"= {with_view / decision:.2f} decisions; the env step {step / decision:.2f}; "
                      f"the env step without the view and the observer {floor / decision:.2f}")
    spiel = openspiel_us(args.steps, True), openspiel_us(args.steps, False)
    rows.append(("OpenSpiel gin_rummy 2p", *spiel, "-"))
    rows.append(("RLCard gin-rummy 2p", rlcard_us(args.steps, True), rlcard_us(args.steps, False), "-"))
    _, base_e, base_g, _ = rows[1]  # rummykit basic 2p
    assert base_e is not None and base_g is not None
    print(f"{'':<24}{'env µs/step':>12}{'mask read by agent µs (bool / int8)':>37}{'µs/decision':>13}"
          f"{'step/decision':>15}{'step ÷ basic':>14}{'decision ÷ basic':>18}")
    for name, e, g, pick in rows:
        if e is None or g is None:
            print(f"{name:<24}  not installed")
            continue
        print(f"{name:<24}{e:>12.1f}{pick:>37}{g:>13.1f}{e / g:>15.2f}{e / base_e:>14.2f}{g / base_g:>18.2f}")
    print("\nthe view's share (any observation read from view(seat) pays it), and the floor (the env"
          "\nstep with the view cut to the table's melds and the observation not updated):")
    for line in floors:
        print("  " + line)
    if args.parts:
        CLOCK = time.perf_counter  # (process_time ticks too coarsely for one piece)
        print_parts(args.steps)


if __name__ == "__main__":
    main()
