"""Arena output: the table, CSV rows and the score plot."""

from __future__ import annotations

import csv

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table

from ..arena import Summary


def arena_table(s: Summary, width: int = 120) -> RenderableType:
    """The results: one table when the terminal is wide (120 columns or more); else two
    narrower ones (results, then time per decision) that read well at 80 columns."""
    title = (f"{s.variant}, {s.players} players: {s.games} duplicate games (seed {s.seed}); "
             f"parity {1 / s.players:.0%}")
    wide = width >= 120
    results = Table(title=title, title_justify="left", box=box.HEAVY_HEAD if wide else box.SIMPLE_HEAD)
    if wide:
        cols = ["bot", "games", "win share", "95% interval", "mean score", "deals out", "ms/decision mean",
                "median", "p99", "rating (±2σ)"]
    else:  # every bot plays every game (the title says how many); the rating's range apart
        cols = ["bot", "win\nshare", "95%\ninterval", "mean\nscore", "deals\nout", "rating", "rating\n±2σ"]
    for col in cols:
        results.add_column(col, justify="left" if col == "bot" else "right", overflow="fold",
                           no_wrap=col != "bot", min_width=7 if col == "bot" else None)
    for b in s.bots:
        lo, hi = b["win_share_ci"]
        rlo, rhi = b["rating_ci"]
        if wide:
            results.add_row(b["bot"], str(b["games"]), f"{b['win_share']:.1%}", f"{lo:.1%}-{hi:.1%}",
                            f"{b['mean_score']:.1f}", str(b["rounds_out"]), f"{b['mean_decision_ms']:.2f}",
                            f"{b['median_decision_ms']:.2f}", f"{b['p99_decision_ms']:.1f}",
                            f"{b['rating']:.1f} ({rlo:.1f}..{rhi:.1f})")
        else:
            results.add_row(b["bot"], f"{b['win_share']:.1%}", f"{lo:.1%}-{hi:.1%}", f"{b['mean_score']:.1f}",
                            str(b["rounds_out"]), f"{b['rating']:.1f}", f"{rlo:.1f}-{rhi:.1f}")
    if wide:
        return results
    times = Table(title="Time per decision (ms)", title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("bot", "mean", "median", "p99"):
        times.add_column(col, justify="left" if col == "bot" else "right", overflow="fold")
    for b in s.bots:
        times.add_row(b["bot"], f"{b['mean_decision_ms']:.2f}", f"{b['median_decision_ms']:.2f}",
                      f"{b['p99_decision_ms']:.1f}")
    return Group(results, times)


FIELDS = ("bot", "games", "win_share", "win_share_lo", "win_share_hi", "mean_score", "rounds_out",
          "mean_decision_ms", "median_decision_ms", "p99_decision_ms", "rating", "rating_lo", "rating_hi")


def write_csv(s: Summary, path: str) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(("ruleset", "players", *FIELDS))
        for b in s.bots:
            w.writerow((s.variant, s.players, b["bot"], b["games"], b["win_share"], *b["win_share_ci"],
                        b["mean_score"], b["rounds_out"], b["mean_decision_ms"], b["median_decision_ms"],
                        b["p99_decision_ms"], b["rating"],
                        *b["rating_ci"]))


def write_plot(s: Summary, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.hist([b["scores"] for b in s.bots], bins=20, label=[b["bot"] for b in s.bots])
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(f"{s.variant}, {s.players} players, {s.games} games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
