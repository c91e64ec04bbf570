"""Masked PPO (sb3-contrib's MaskablePPO) learns a rummykit seat against random bots.

    pip install -e '.[rl,train]'
    nice -n 15 python examples/train_ppo.py                    # Basic Rummy, 2 players, ~12 minutes
    python examples/train_ppo.py --minutes 2 --out /tmp/curve  # a quick look

It trains on ``rummykit.rl.gym_env(ruleset, players, opponents="random", episode="deal",
reward="win")``: one deal per episode, +1 for winning it, -1 for losing (0 for a tie).  Every
``--eval-every`` steps it plays the same ``--eval-episodes`` deals (seeds 10000, 10001, ...)
with the greedy masked policy and records the win rate and the mean reward.  Two fixed lines
give the scale, played over the same deals: a uniformly random legal action (what the
untrained agent is meant to beat) and rummykit's ``medium`` bot in the learner's seat.

It writes ``OUT.png`` (the learning curve) and ``OUT.csv`` (the numbers; default OUT is
docs/learning_curve).  Training stops at ``--timesteps`` or after ``--minutes`` of training
(evaluations not counted), whichever comes first; one torch thread (``--threads``) so it shares
a small machine.
Not run in CI.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import rummykit.rl as rl
from rummykit.players import make_player

EVAL_SEED = 10_000


def deal_share(env: Any) -> float:
    """The learner's share of the win in the episode just ended: 1 for a win, 1/k for a
    k-way tie for first, 0 for a loss (the same winners as ``reward="win"``)."""
    aec = env.unwrapped.aec
    g = aec.game
    if aec.episode == "deal":
        pts = [float(p) for p in g.history[0]["points"]]
        best = max(pts) if aec.variant.spec.scoring == "winner_takes" else min(pts)
        winners = [s for s in range(aec.n) if pts[s] == best]
    else:
        winners = list(g.winners)
    seat = env.unwrapped.seat
    return 1.0 / len(winners) if seat in winners else 0.0


def evaluate(env: Any, choose: Callable[[np.ndarray, np.ndarray, int], int], episodes: int
             ) -> dict[str, float]:
    """Plays deals ``EVAL_SEED + i``; ``choose(obs, mask, seed)`` gives the learner's id."""
    wins, rewards, lengths = [], [], []
    for i in range(episodes):
        seed = EVAL_SEED + i
        obs, info = env.reset(seed=seed)
        total, steps, done = 0.0, 0, False
        while not done:
            obs, reward, done, _, info = env.step(choose(obs, info["action_mask"], seed))
            total += reward
            steps += 1
        wins.append(deal_share(env))
        rewards.append(total)
        lengths.append(steps)
    return {"win_rate": float(np.mean(wins)), "mean_reward": float(np.mean(rewards)),
            "mean_steps": float(np.mean(lengths))}


def random_policy() -> Callable[[np.ndarray, np.ndarray, int], int]:
    rngs: dict[int, np.random.Generator] = {}

    def choose(obs: np.ndarray, mask: np.ndarray, seed: int) -> int:
        rng = rngs.setdefault(seed, np.random.default_rng(seed))
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


def bot_policy(env: Any, level: str) -> Callable[[np.ndarray, np.ndarray, int], int]:
    """A rummykit bot in the learner's seat, through the same ids (``aec.id_of``)."""
    bots: dict[int, Any] = {}

    def choose(obs: np.ndarray, mask: np.ndarray, seed: int) -> int:
        aec = env.unwrapped.aec
        seat = env.unwrapped.seat
        bot = bots.setdefault(seed, make_player(level, seed))
        g = aec.game
        return int(aec.id_of(bot.choose(g.observe(seat), g.legal_actions())))

    return choose


def plot(out: Path, baselines: dict[str, dict[str, float]], rows: list[dict[str, Any]], title: str) -> None:
    """OUT.png: win rate and mean reward against training steps, the baselines as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["timesteps"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, label in ((axes[0], "win_rate", "win rate"), (axes[1], "mean_reward", "mean reward")):
        ax.plot(steps, [r[key] for r in rows], "o-", color="C0", label="MaskablePPO (greedy)")
        ax.axhline(baselines["random"][key], color="C3", ls="--", label="random legal action")
        ax.axhline(baselines["medium"][key], color="C2", ls=":", label="rummykit medium bot")
        ax.set_xlabel("training steps (the learner's decisions)")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylim(0, 1.05)
    axes[1].set_ylim(-1.05, 1.05)
    axes[0].legend(loc="lower right", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out.with_suffix(".png"), dpi=110)
    plt.close(fig)


def replot(out: Path, title: str) -> None:
    """Draws OUT.png again from OUT.csv (``--replot``), without training."""
    with open(out.with_suffix(".csv"), newline="") as f:
        got = list(csv.DictReader(f))
    num = ("win_rate", "mean_reward", "mean_steps")
    baselines = {r["policy"]: {k: float(r[k]) for k in num} for r in got if r["policy"] != "ppo"}
    rows = [{"timesteps": int(r["timesteps"]), **{k: float(r[k]) for k in num}}
            for r in got if r["policy"] == "ppo"]
    minutes = max(float(r["train_seconds"]) for r in got if r["policy"] == "ppo") / 60
    plot(out, baselines, rows, f"{title}{minutes:.0f} min of training, 1 torch thread)")
    print(f"wrote {out.with_suffix('.png')}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="basic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random", help="bot level of the other seats")
    ap.add_argument("--reward", default="win", choices=("win", "score"))
    ap.add_argument("--minutes", type=float, default=9.0, help="training budget (evaluations not counted)")
    ap.add_argument("--timesteps", type=int, default=2_000_000)
    ap.add_argument("--eval-every", type=int, default=16_384)
    ap.add_argument("--eval-episodes", type=int, default=100)
    ap.add_argument("--n-steps", type=int, default=1024, help="PPO rollout length")
    ap.add_argument("--epochs", type=int, default=5, help="PPO epochs per rollout")
    ap.add_argument("--net", default="64,64", help="hidden layers of the policy and value networks")
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "learning_curve"),
                    help="writes OUT.png and OUT.csv")
    ap.add_argument("--replot", action="store_true", help="only draw OUT.png again from OUT.csv")
    a = ap.parse_args()
    out = Path(a.out)
    title = (f"rummykit {a.ruleset}, {a.players} players, one deal vs {a.opponents} bots "
             f"(reward={a.reward}; {a.eval_episodes} fixed deals per point; ")
    if a.replot:
        replot(out, title)
        return

    try:
        import matplotlib  # noqa: F401  (plot() draws with it)
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError as e:
        raise SystemExit(f"{e.name} is missing: pip install -e '.[rl,train]'") from None
    torch.set_num_threads(a.threads)

    def make_env() -> Any:
        return rl.gym_env(a.ruleset, a.players, opponents=a.opponents, episode="deal", reward=a.reward)

    eval_env = make_env()
    started = time.perf_counter()
    print(f"{a.ruleset}, {a.players} players, vs {a.opponents}, reward={a.reward}; "
          f"{a.eval_episodes} evaluation deals (seeds {EVAL_SEED}-{EVAL_SEED + a.eval_episodes - 1})")
    baselines = {"random": evaluate(eval_env, random_policy(), a.eval_episodes),
                 "medium": evaluate(eval_env, bot_policy(eval_env, "medium"), a.eval_episodes)}
    for name, b in baselines.items():
        print(f"  {name:<7} policy: win rate {b['win_rate']:.3f}, mean reward {b['mean_reward']:+.3f}, "
              f"{b['mean_steps']:.0f} steps a deal")

    rows: list[dict[str, Any]] = []
    model = MaskablePPO("MlpPolicy", make_env(), n_steps=a.n_steps, batch_size=256, n_epochs=a.epochs,
                        gamma=a.gamma, learning_rate=a.lr, ent_coef=a.ent_coef, seed=a.seed, device="cpu",
                        policy_kwargs={"net_arch": [int(w) for w in a.net.split(",")]})

    def greedy(obs: np.ndarray, mask: np.ndarray, seed: int) -> int:
        act, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(act)

    train_clock = [0.0]  # seconds spent training (evaluation excluded)

    def record(steps: int) -> None:
        r = evaluate(eval_env, greedy, a.eval_episodes)
        rows.append({"policy": "ppo", "timesteps": steps, "train_seconds": round(train_clock[0], 1), **r})
        print(f"  {steps:>8} steps, {train_clock[0]:6.0f} s training: win rate {r['win_rate']:.3f}, "
              f"mean reward {r['mean_reward']:+.3f}, {r['mean_steps']:.0f} steps a deal", flush=True)

    class Periodic(BaseCallback):  # type: ignore[misc]
        def _on_training_start(self) -> None:
            self.last = 0
            self.tick = time.perf_counter()

        def _on_step(self) -> bool:
            if self.num_timesteps - self.last >= a.eval_every:
                train_clock[0] += time.perf_counter() - self.tick
                self.last = self.num_timesteps
                record(self.num_timesteps)
                self.tick = time.perf_counter()
            return train_clock[0] + time.perf_counter() - self.tick < a.minutes * 60

        def _on_training_end(self) -> None:
            train_clock[0] += time.perf_counter() - self.tick

    record(0)
    model.learn(total_timesteps=a.timesteps, callback=Periodic())
    if rows[-1]["timesteps"] != model.num_timesteps:
        record(model.num_timesteps)
    print(f"done in {time.perf_counter() - started:.0f} s of wall clock")

    out.parent.mkdir(parents=True, exist_ok=True)
    fields = ["policy", "timesteps", "train_seconds", "win_rate", "mean_reward", "mean_steps"]
    with open(out.with_suffix(".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for name, b in baselines.items():
            w.writerow({"policy": name, "timesteps": "", "train_seconds": "", **b})
        w.writerows(rows)

    plot(out, baselines, rows, f"{title}{train_clock[0] / 60:.0f} min of training, 1 torch thread)")
    print(f"wrote {out.with_suffix('.png')} and {out.with_suffix('.csv')}")


if __name__ == "__main__":
    main()
