"""The RL API (docs/rl.md): PettingZoo's and Gymnasium's own checks, the action encoding
(every legal action has its own id; the mask is exactly the legal ids; an illegal id
changes nothing), and observations that hide what they must."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import rummykit as rk  # noqa: E402
import rummykit.rl as rl  # noqa: E402
from rummykit.rl.encoding import MELD_OPTIONS  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def counts(vid):
    lo, hi = rk.get_variant(vid).spec.players
    return sorted({lo, hi})


@pytest.mark.parametrize("vid, n", [(v, n) for v in rk.variant_ids() for n in counts(v)])
def test_pettingzoo_api_test_every_ruleset_smallest_and_largest_table(vid, n):
    api_test(rl.env(vid, n), num_cycles=60)


def test_pettingzoo_seed_test():
    seed_test(lambda: rl.env("may-i", 4), num_cycles=100)


def test_gymnasium_check_env():
    check_env(rl.gym_env("basic", 2, opponents="random"), skip_render_check=True)
    check_env(rl.gym_env("contract", 3, opponents=["random", "medium"], episode="deal"),
              skip_render_check=True)


def play_some(vid, n, steps, seed):
    e = rl.env(vid, n)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if all(e.terminations.values()):
            return e
        yield e
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("vid", ["contract", "basic", "shanghai", "ten-card", "seven-hand", "progressive",
                                 "wrotham", "denexa"])
def test_mask_is_exactly_the_legal_actions_and_every_one_has_its_own_id(vid):
    n = counts(vid)[0]
    for e in play_some(vid, n, 400, 7):
        g = e.game
        legal = g.legal_actions()
        mask = e.observe(e.agent_selection)["action_mask"]
        assert mask.dtype == np.int8
        ids = np.flatnonzero(mask)
        melds = sum(isinstance(a, rk.Meld) for a in legal)
        assert len(ids) == len(legal) - max(0, melds - MELD_OPTIONS)
        melds_listed = [a for a in legal if isinstance(a, rk.Meld)]
        reachable = [a for a in legal if not isinstance(a, rk.Meld)] + melds_listed[:MELD_OPTIONS]
        assert [e.action_of(i) for i in ids] == sorted(reachable, key=e.id_of)
        for a in legal:
            assert e.action_of(e.id_of(a)) == a
        table_melds = g.observe(g.current_player).melds
        for i, a in e._table.items():  # the compiled numbering's fast paths agree with encode()
            if not isinstance(a, rk.Meld):
                assert e.codec.encode(a, table_melds) == i, a.text()
        table = e.codec.table(legal, table_melds)  # the codec alone gives the env's ids and mask
        assert table == e._table
        assert np.array_equal(e.codec.mask(table), mask)
        for other in (s for s in e.possible_agents if s != e.agent_selection):
            assert not e.observe(other)["action_mask"].any()


def test_an_illegal_id_raises_and_changes_nothing():
    e = rl.env("contract", 4)
    e.reset(seed=3)
    before = (e.game.record(), e.agent_selection, e.observe(e.agent_selection)["observation"].copy())
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        e.step(bad)
    assert e.game.record() == before[0] and e.agent_selection == before[1]
    assert np.array_equal(e.observe(e.agent_selection)["observation"], before[2])


def test_gym_an_action_outside_the_mask_ends_the_episode_with_minus_one():
    env = rl.gym_env("basic", 2, opponents="random")
    obs, info = env.reset(seed=1)
    assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert reward == -1.0 and terminated and not truncated


def test_out_of_turn_windows_are_turns_of_the_seat_asked():
    e = rl.env("contract", 3)
    e.reset(seed=2)
    g = e.game
    e.step(e.id_of(rk.Draw()))  # the player to draw declines the upcard: a May I window opens
    assert g.phase == "may_i" and e.agent_selection == f"player_{g.current_player}"
    assert {e.action_of(i).text() for i in np.flatnonzero(e.observe(e.agent_selection)["action_mask"])} == {
        "buy", "pass"}


def test_score_rewards_sum_to_each_deal_and_win_rewards_are_zero_sum():
    for reward in ("score", "win"):
        e = rl.env("contract", 3, episode="deal", reward=reward)
        e.reset(seed=5)
        total = {a: 0.0 for a in e.possible_agents}
        rng = random.Random(5)
        for agent in e.agent_iter(max_iter=5000):
            obs, r, term, trunc, info = e.last()
            total[agent] += r
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        points = e.game.history[0]["points"]
        if reward == "score":
            assert [round(total[a] * 100, 6) for a in e.possible_agents] == [-float(p) for p in points]
        else:
            assert abs(sum(total.values())) < 1e-9 and max(total.values()) > 0


def twin_games(vid, n, seed):
    """Two games in which seat 0 holds the same cards and sees the same upcard, while seat 1's
    hand differs (swapped with stock cards): everything seat 0 may see is the same."""
    v = rk.get_variant(vid)
    from rummykit.cards import make_pack

    pack = make_pack(*v.spec.pack_for(n))
    random.Random(seed).shuffle(pack)
    size = v.spec.cards_dealt(1, n)
    dealt = n * size + (1 if v.spec.starter_extra_card else 0)
    seat1 = [i for i in range(n * size) if (1 + i) % n == 1]  # dealer 0: card i goes to seat (1+i) % n
    stock = list(range(dealt + 1, dealt + 1 + len(seat1)))
    other = list(pack)
    for a, b in zip(seat1, stock, strict=True):
        other[a], other[b] = other[b], other[a]
    return (rk.new_game(vid, players=n, seed=seed, deck=pack, dealer=0),
            rk.new_game(vid, players=n, seed=seed, deck=other, dealer=0))


@pytest.mark.parametrize("vid", rk.variant_ids())
def test_observations_hide_other_hands_twin_deals_look_the_same_to_seat_0(vid):
    n = counts(vid)[0]
    a, b = twin_games(vid, n, 11)
    for g in (a, b):
        if g.phase == "cut":
            g.apply("cut")  # the same cut in both (same seed)
    assert a.hands[1] != b.hands[1] and sorted(a.hands[0]) == sorted(b.hands[0])
    ea, eb = rl.env(vid, n), rl.env(vid, n)
    for e, g in ((ea, a), (eb, b)):
        e.reset(seed=11)
        e.game = g
        e._refresh()
    assert np.array_equal(ea.observe("player_0")["observation"], eb.observe("player_0")["observation"])
    # the first player draws from the stock (a card seat 0 cannot see) in both games
    for e, g in ((ea, a), (eb, b)):
        if "draw" in [x.text() for x in g.legal_actions()] and g.current_player != 0:
            g.apply("draw")
        e._refresh()
    assert np.array_equal(ea.observe("player_0")["observation"], eb.observe("player_0")["observation"])


def test_render_shows_the_acting_agents_view_only():
    e = rl.env("basic", 2, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    seat = e.game.current_player
    assert " ".join(e.game.view(seat)["hand"]) in text
    other = e.game.view(1 - seat)["hand"]
    assert " ".join(other) not in text


@pytest.mark.parametrize("reward", ["score", "win"])
def test_block_rummy_split_points_give_rewards(reward):
    """Block Rummy splits a blocked deal's points (here 37/2 each, seed 12 with these moves):
    the rewards read the exact numbers the result gives as text."""
    import random

    e = rl.env("block", 6, reward=reward, episode="deal")
    e.reset(seed=12)
    rng = random.Random(12)
    total = {a: 0.0 for a in e.possible_agents}
    while not all(e.terminations.values()):
        acts = e.game.legal_actions()  # the same moves as rk.new_game("block", 6, seed=12) played so
        e.step(e.id_of(acts[rng.randrange(len(acts))]))
        for a, r in e.rewards.items():
            total[a] += r
    points = e.game.history[0]["points"]
    assert points.count("37/2") == 2
    if reward == "score":
        sign = 1 if e.variant.spec.scoring == "winner_takes" else -1
        assert total["player_2"] == pytest.approx(sign * 37 / 2 / rl.aec.SCORE_SCALE)
    else:
        assert sum(total.values()) == pytest.approx(0.0)


def test_the_action_layout_has_a_block_only_for_what_the_ruleset_can_do():
    """Blocks are contiguous from id 0 and end at the size; a ruleset without wild cards has
    no wild lay-off or swap ids, one without calls no call ids, and house rules add them."""
    def names(env):
        return [name.split(":")[0].split(" face")[0] for name, _, _ in env.space.blocks()]

    for vid in rk.variant_ids():
        for n in counts(vid):
            sp = rl.env(vid, n).space
            at = 0
            for _, first, count in sp.blocks():
                assert first == at and count > 0
                at += count
            assert at == sp.size
    assert names(rl.env("basic", 2)) == ["draw / take / buy / pass / cut / draw both", "discard",
                                         "lay off", "meld"]
    assert rl.env("basic", 2).space.size == 6 + 53 + 53 * (52 // 3) + MELD_OPTIONS
    assert "call Rummy, shedding" in names(rl.env("basic", 2, options={"rummy_call": True}))
    wild = names(rl.env("basic", 2, options={"twos_wild": True, "swap": "to_hand"}))
    assert "lay off wild w on slot m at a run's high end" in wild and "swap" in wild
    shanghai = names(rl.env("shanghai", 4))
    assert "discard" in shanghai and "call Shanghai" in shanghai and "call Rummy, shedding" not in shanghai
    assert rl.env("contract", 4).space.slots == 107 // 3  # 2 decks, 3 jokers (players - 1); melds of 3+


def kind_block(env, a):
    """The block an action's id must fall in, by its kind."""
    sp = env.space
    if isinstance(a, rk.Discard):
        return sp.discard, 53
    if isinstance(a, rk.LayOff):
        return (sp.layoff, sp.layoff_high + len(sp.wilds) * sp.slots - sp.layoff)
    if isinstance(a, rk.Swap):
        return sp.swap, 53 * sp.slots
    if isinstance(a, rk.Meld):
        return sp.meld, MELD_OPTIONS
    if isinstance(a, rk.CallRummy):
        return sp.rummy, 53
    if isinstance(a, rk.CallShanghai):
        return (sp.shanghai_call, 2 * sp.slots) if a.layoff is not None else (sp.shanghai_discard, 53)
    return 0, len(sp.FIXED)


@pytest.mark.parametrize("vid, n", [(v, n) for v in rk.variant_ids() for n in counts(v)])
def test_every_legal_id_falls_in_its_kinds_block_and_the_table_never_outgrows_its_slots(vid, n):
    """Random games (bounded: 600 steps): each legal action's id lies in its kind's block,
    and the table holds no more melds than the layout has slots for."""
    for e in play_some(vid, n, 600, 3):
        g = e.game
        assert len(g.observe(g.current_player).melds) <= e.space.slots
        for a in g.legal_actions():
            if isinstance(a, rk.Meld) and not any(b is a for b in e._melds):
                continue  # a meld option past the 64th has no id (docs/rl.md)
            first, count = kind_block(e, a)
            assert first <= e.id_of(a) < first + count, a.text()
