"""``rummykit review``: after the game, one seat's decisions judged on what it knew."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..store import StoreError
from . import play as play_cmds
from .records import read_record


@click.command()
@click.argument("game")
@click.option("--seat", type=int, default=None,
              help="The seat to review, from 0 (a saved game: yours by default; a record file: needed).")
@click.option("--deal", type=int, default=None, help="Review only this deal (from 1).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole review as JSON.")
@click.option("--samples", type=int, default=32, show_default=True,
              help="Deals of the cards the seat could not see, per decision.")
@click.option("--horizon", type=int, default=4, show_default=True,
              help="Rounds of the table each rollout plays before the hands are judged (0: to the deal's "
                   "end).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", "-w", type=int, default=None, help="Processes (default: one per core).")
@click.option("--line", type=int, default=1, show_default=True,
              help="For a file of JSON lines (simulate --records): which record.")
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=play_cmds.DB_HELP)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def review(game: str, seat: int | None, deal: int | None, as_json: bool, samples: int, horizon: int,
           seed: int, workers: int | None, line: int, db: str | None, quiet: bool) -> None:
    """Review one seat's decisions in GAME (a saved game's number, see `rummykit games`, or a
    game record file): at each decision, judged only on what that seat knew then, the move
    made against the best one, the points it cost and why; the few that cost the most per
    deal; luck kept apart from the choices."""
    from ..players.review import review as run_review
    from .simulate import default_workers

    if samples < 2:
        raise click.UsageError("--samples must be at least 2")
    if horizon < 0:
        raise click.UsageError("--horizon must be 0 (to the deal's end) or more")
    if workers is not None and workers < 1:
        raise click.UsageError("--workers must be at least 1")
    names: list[str] | None = None
    saved_id: int | None = None
    if game.isdigit() and not Path(game).exists():
        saved_id = int(game)
        with play_cmds.open_store(db, create=False) as store:
            try:
                saved = store.game(saved_id)
            except StoreError as e:
                raise click.ClickException(str(e)) from None
        record: Any = saved.record()
        names = [saved.name if s == saved.human else f"{lvl} bot" for s, lvl in enumerate(saved.seats)]
        if seat is None:
            seat = saved.human
        if saved.finished is None and seat != saved.human:
            # (the review shows the seat's hand at each moment: a bot's, hidden while the game goes on)
            raise click.ClickException(f"game {saved_id} is not finished: only your own seat ({saved.human}) "
                                       "may be reviewed until it is")
        where = f"game {saved_id}"
    else:
        try:
            text = Path(game).read_text(encoding="utf-8")
        except OSError as e:
            raise click.ClickException(f"cannot read {game}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise click.ClickException(f"{game} is not a game record: it is not UTF-8 text") from None
        record = read_record(game, text, line)
        if seat is None:
            players = record.get("players") if isinstance(record, dict) else None
            seats = f" (0-{players - 1})" if isinstance(players, int) and players > 0 else ""
            raise click.UsageError(f"which seat? give --seat{seats}: a record does not say whose it is")
        where = game
    err = Console(stderr=True)
    with Progress(TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                  TimeElapsedColumn(), console=err, disable=quiet, transient=True) as bar:
        task = bar.add_task("decisions", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            got = run_review(record, seat, deal=deal, samples=samples, seed=seed,
                             horizon=horizon or None, workers=workers or default_workers(), progress=progress)
        except ValueError as e:
            raise click.ClickException(f"{where}: {e}") from None
    if as_json:
        click.echo(json.dumps(got.as_dict(), indent=1))
        return
    print_review(Console(), got, where, names)


def seat_words(seat: int, names: list[str] | None) -> str:
    return f"{names[seat]} (seat {seat})" if names else f"seat {seat}"


def print_review(out: Console, r: Any, where: str, names: list[str] | None = None) -> None:
    """The review for a reader: the totals per deal and for the game, then the moments."""
    s = r.settings
    ahead = "to the deal's end" if s["horizon"] is None else f"{s['horizon']} rounds of the table ahead"
    out.print(f"[bold]Review of {seat_words(r.seat, names)}, {r.name}, {where}[/bold]")
    out.print(f"Each decision is judged only on what the seat saw then: {s['samples']} deals of the cards it "
              f"could not see, the moves compared played out by the hard bot's rollouts, {ahead}. Points are "
              "against the table: the seat's points less the other players' mean, + is good.",
              highlight=False)
    if not r.over:
        out.print("The game is not over: its finished deals are reviewed.")
    t = Table(title="Decisions, and what decided each deal")
    for col in ("deal", "decisions", "best move", "points lost", "result", "cards", "choices"):
        t.add_column(col, justify="right")
    rows = [(str(d.deal), d.totals()) for d in r.deals]
    if len(r.deals) > 1:
        rows.append(("game", r.totals()))
    for name, x in rows:
        t.add_row(name, str(x["reviewed"]), _pct(x["agreement"]), f"{x['points_lost']:.1f}",
                  f"{x['result']:+.1f}", f"{x['cards']:+.1f}", f"{x['choices']:+.1f}",
                  style="bold" if name == "game" else None)
    out.print(t)
    out.print("best move: the decisions where the move made was as good as the best found. points lost: "
              "against the best move, decision by decision (a chance missed at every turn counts at every "
              "turn). result = cards + choices: choices, the moves' expected points against par (the medium "
              "bot's move at each decision), summed; cards, what the cards and the other players decided.",
              style="dim", highlight=False)
    for d in r.deals:
        moments = [d.decisions[i] for i in d.moments]
        if not moments:
            out.print(f"\n[bold]Deal {d.deal}[/bold]: no decision cost points the evaluation can tell apart.")
            continue
        out.print(f"\n[bold]Deal {d.deal}[/bold] ({d.contract}): the decisions that cost the most")
        for m in moments:
            out.print(moment_text(m), highlight=False)


def moment_text(m: Any) -> str:
    top = (m.view or {}).get("discard_top")
    pile = f", {top} on the pile" if top else ""
    head = f"  Turn {m.turn} ({PHASE_WORDS.get(m.phase, m.phase)}): hand {' '.join(m.hand)}{pile}"
    cost = f"{m.lost:.1f} points" if m.lost else "going out"
    return (f"{head}\n    you: {m.taken}   better: {m.out_move or m.best}   cost: {cost}\n"
            f"    {m.why}\n    {m.evidence}")


PHASE_WORDS = {"draw": "draw or take", "play": "meld, lay off, discard", "may_i": "an offer",
               "call": "a call"}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"
