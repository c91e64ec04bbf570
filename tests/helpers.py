"""Turn helpers for rule tests."""

from __future__ import annotations

from pathlib import Path

import rummykit as rk
from rummykit.engine.game import Game
from rummykit.store import Store


def pass_window(g: Game) -> None:
    while g.phase == "may_i":
        g.apply("pass")


def draw_and_discard_it(g: Game) -> None:
    """The seat to play draws from the stock (everyone passes on the discard) and
    discards the card it drew, so hands stay as dealt."""
    seat = g.current
    round_no = g.round_no
    g.apply("draw")
    pass_window(g)
    if g.round_no != round_no or g.is_over:
        return
    drawn = g.hands[seat][-1]
    g.apply(f"discard {drawn}")


def run_out_stock(g: Game, max_turns: int = 5000) -> None:
    """Draw-and-discard until the round ends or the stock is empty at a turn's start."""
    r = g.round_no
    for _ in range(max_turns):
        if g.round_no != r or g.is_over or not g.stock:
            return
        draw_and_discard_it(g)
    raise AssertionError("the stock never ran out")


def events(g: Game, verb: str) -> list[dict]:
    return [e for e in g.log if e["verb"] == verb]


def count_restocks_until_round_ends(g: Game, max_turns: int = 20000) -> int:
    r = g.round_no
    restocks = 0
    for _ in range(max_turns):
        restocks = max(restocks, g.stock_reuses)
        if g.round_no != r or g.is_over:
            return restocks
        draw_and_discard_it(g)
    raise AssertionError("the round never ended")


def values(variant: str) -> list[int]:
    return rk.get_variant(variant).spec.values_table()


def twin_deals() -> tuple[Game, Game]:
    """Two contract deals where seat 1's cards, the upcard and the table are the same and
    the other hands and the stock differ: seat 1's view is the same in both."""
    from conftest import deal

    mine = "7H 7S 7D 9C 9D 3H 4H 5H KC QC"
    a = deal("contract", ["AS 2S 6C 8C 8D TH JH QH 4D 5S", mine, "2C 3C 4C 5D 6D 8S TS JS QD KD"], "9S",
             "6H 7C")
    b = deal("contract", ["2C 3C 4C 5D 6D 8S TS JS QD KD", mine, "AS 2S 6C 8C 8D TH JH QH 4D 5S"], "9S",
             "JK 2D")
    return a, b


def twin_deals_after_meld() -> tuple[Game, Game]:
    """:func:`twin_deals` after seat 1 takes 9S and lays down two sets: it must discard."""
    a, b = twin_deals()
    for g in (a, b):
        g.apply("take")
        g.apply("meld 7H 7S 7D / 9C 9D 9S")
    return a, b


def played_at_random(vid: str, seed: int, steps: int, players: int | None = None) -> Game:
    """A game of ``vid`` (for its fewest players unless ``players`` says) after ``steps``
    random legal actions (fewer if it ends), seeded by ``seed``."""
    import random

    n = rk.get_variant(vid).spec.players[0] if players is None else players
    g = rk.new_game(vid, players=n, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g


def shanghai_called_on_seat_0() -> tuple[Game, str]:
    """Shanghai for four, seed 0, medium bots (seat 0 never protecting its discard), up to
    the discard another seat calls Shanghai on: the game before it, and that discard."""
    from rummykit.players import HeuristicPlayer

    g = rk.new_game("shanghai", players=4, seed=0)
    bots = [HeuristicPlayer(s) for s in range(4)]
    for _ in range(2000):
        seat = g.current_player
        a = bots[seat].choose(g.view(seat), g.legal_actions())
        if seat == 0 and isinstance(a, rk.CallShanghai) and a.discard is not None:
            a = rk.Discard(a.discard)
        if isinstance(a, rk.CallShanghai) and a.layoff is not None:
            last = g.actions[-1]
            return rk.replay(dict(g.record(), actions=g.actions[:-1])), last
        g.apply(a)
    raise AssertionError("no Shanghai call in 2,000 moves")


def seven_hand_rummy_offered() -> tuple[Game, int]:
    """Seven Hand for three, seed 2, medium bots: the game at the first Rummy call offered
    with at most three cards to shed (seat 2's, after 494 actions), and the seat offered it."""
    from rummykit.players import HeuristicPlayer

    g = rk.new_game("seven-hand", players=3, seed=2)
    bots = [HeuristicPlayer(s) for s in range(3)]
    for _ in range(3000):
        s = g.current_player
        acts = g.legal_actions()
        calls = {a.card for a in acts if isinstance(a, rk.CallRummy)}
        if calls and len(calls) <= 3:
            return g, s
        g.apply(bots[s].choose(g.claim_view(s) if g.phase == "may_i" else g.view(s), acts))
    raise AssertionError("no Rummy call with three cards or fewer in 3,000 moves")


def may_i_offered(card: str) -> Game:
    """Contract Rummy for three: seat 0 (7H 7S 9C 9D 2S 4H 6C 8D JD + the 5S drawn, two pairs
    toward two sets) is offered ``card`` (May I), seat 1's discard: 3C or 7D."""
    from conftest import deal

    hands = ["7H 7S 9C 9D 2S 4H 6C 8D JD KC", "7D 3C 4D 5D 6H 8H TS JS QD KD",
             "AS 3S 4S 5H 6S 8C TD JC QS KS"]
    g = deal("contract", hands, "2D", "5S 8S 6D JH AH 3H 4C 2H TH", dealer=2)
    for a in ("draw", "pass", "pass", "discard KC", "draw", "pass", f"discard {card}", "draw"):
        g.apply(a)
    assert g.phase == "may_i" and g.current_player == 0
    return g


def may_i_for_seats_1_2_3() -> Game:
    """Contract Rummy for four, dealer 3: seat 0 has drawn from the stock, and the upcard 2D
    is offered (May I) to seats 1, 2 and 3, in that order of priority."""
    from conftest import deal

    hands = ["7H 7S 9C 9D 2S 4H 6C 8D JD KC", "7D 3C 4D 5D 6H 8H TS JS QD KD",
             "AS 3S 4S 5H 6S 8C TD JC QS KS", "2C 2H 3D 5C 9H TH QH AC AD 4S"]
    g = deal("contract", hands, "2D", "5S 8S 6D JH AH 3H 4C 2H TH 9S 9C", dealer=3)
    g.apply("draw")
    w = g.claim_window()
    assert w is not None and w.seats == (1, 2, 3) and str(w.card) == "2D"
    return g


def movers(g: Game) -> list[int]:
    """The seat that made each of ``g``'s actions (its record replayed once)."""
    setup = g.record()
    h = rk.replay(dict(setup, actions=[]))
    out = []
    for text in g.actions:
        out.append(h.current_player)
        h.apply(text)
    return out


def stored_table(db: Path, g: Game, seats: list[str], name: str, **settings: object) -> str:
    """A server database at ``db`` holding one table that plays ``g`` from where it stands
    (its actions saved as played), ``seats`` "human" or a bot level; its id.  Bots move
    quickly and hints are off unless ``settings`` say otherwise."""
    from rummykit.server.storage import Storage

    setup = g.record()
    del setup["actions"]
    storage = Storage(f"sqlite:///{db}")
    try:
        quick = {"bot_delay": 0.05, "hints": False, **settings}
        tid = storage.create_game(setup, seats, name, settings=quick)
        for n, (seat, text) in enumerate(zip(movers(g), g.actions, strict=True)):
            storage.append_action(tid, n, seat, text)
    finally:
        storage.close()
    return tid


def saved_game(store: Store, g: Game, seats: list[str], name: str) -> int:
    """``g`` saved in the terminal's ``store`` as played so far, to resume; its id."""
    setup = g.record()
    del setup["actions"]
    gid = store.create_game(setup, seats, name)
    for n, (seat, text) in enumerate(zip(movers(g), g.actions, strict=True)):
        store.append_action(gid, n, seat, text)
    return gid
