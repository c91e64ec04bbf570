"""The ``rummykit`` command: simulate games, check and show rules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from .. import __version__
from ..rules.describe import describe_rules
from ..rules.registry import RulesError, Variant, get_variant, load_variant, variant_ids
from ..store import StoreError
from . import online
from . import play as play_cmds
from .records import read_record
from .review import review as review_cmd
from .simulate import run_simulation


def _variant(name: str) -> Variant:
    """A built-in id or the path of a rules file ("did you mean" for a near miss)."""
    return play_cmds.resolve_variant(name)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummykit")
def main() -> None:
    """rummykit: the Rummy family of card games, from rule data."""


@main.command()
@click.option("--variant", "-v", default="contract", show_default=True,
              help="A ruleset id (see `rummykit rules list`) or a rules file.")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the fewest allowed).")
@click.option("--games", "-n", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first game; game i uses seed+i.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="A house rule, e.g. -o melds_per_turn=any (value read as JSON if it can be).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON record per game on stdout; the summary goes to stderr.")
@click.option("--records", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write one JSON record per game to this file (JSON lines).")
@click.option("--workers", "-w", type=int, default=None,
              help="Processes to play on (default: one per CPU core; the results do not depend on it).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(variant: str, players: int | None, games: int, seed: int, options: tuple[str, ...],
             as_json: bool, records: str | None, workers: int | None, quiet: bool) -> None:
    """Play random legal games and summarise them (on every core; prints games per second)."""
    from .simulate import default_workers

    try:
        v = _variant(variant)
        opts = _parse_options(options)
        v.with_options(opts)
    except (RulesError, ValueError) as e:
        raise click.UsageError(str(e)) from None
    n = players if players is not None else v.spec.players[0]
    lo, hi = v.spec.players
    if not lo <= n <= hi:
        raise click.UsageError(f"{v.id} is for {lo}-{hi} players, not {n}")
    if games < 1:
        raise click.UsageError("--games must be at least 1")
    if workers is not None and workers < 1:
        raise click.UsageError("--workers must be at least 1")
    workers = min(workers or default_workers(), games)
    out = Console(stderr=as_json)
    sink = open(records, "w") if records else None  # noqa: SIM115
    try:
        def emit(rec: dict[str, Any]) -> None:
            line = json.dumps(rec, separators=(",", ":"))
            if as_json:
                sys.stdout.write(line + "\n")
            if sink is not None:
                sink.write(line + "\n")

        summary = run_simulation(v, n, games, seed, opts, emit if (as_json or sink) else None,
                                 progress=not quiet, console=out, workers=workers)
    finally:
        if sink is not None:
            sink.close()
    _print_summary(out, summary)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for p in pairs:
        if "=" not in p:
            raise ValueError(f"option {p!r}: write KEY=VALUE, e.g. melds_per_turn=any")
        k, val = p.split("=", 1)
        try:
            opts[k.strip()] = json.loads(val)
        except json.JSONDecodeError:
            opts[k.strip()] = val
        except RecursionError:
            raise ValueError(f"option {k.strip()!r}: the value is nested too deep to read") from None
    return opts


def _print_summary(out: Console, s: dict[str, Any]) -> None:
    t = Table(title=f"{s['name']} — {s['players']} players, {s['games']} random games (seed {s['seed']})")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("games", str(s["games"]))
    t.add_row("deals", str(s["rounds"]))
    t.add_row("mean actions per game", f"{s['mean_actions']:.1f}")
    for how, k in sorted(s["round_endings"].items()):
        t.add_row(f"deals ended: {how}", f"{k} ({100 * k / max(1, s['rounds']):.1f}%)")
    for seat, sc in enumerate(s["mean_scores"]):
        t.add_row(f"mean final score, seat {seat}", f"{sc:.1f}")
    t.add_row("games per second", f"{s['games_per_s']:.2f}")
    t.add_row("µs per decision", f"{s['us_per_decision']:.1f}")
    out.print(t)
    w = s["workers"]
    out.print(f"{s['games']} games in {s['seconds']:.1f} s on {w} worker{'s' if w != 1 else ''}: "
              f"{s['games_per_s']:.2f} games/s")


@main.command()
@click.option("--variant", "-v", default="contract", show_default=True, help="A built-in ruleset id.")
@click.option("--players", "-p", type=int, default=None, help="Seats (default: as many as --bots).")
@click.option("--bots", "-b", default="medium,random,random,random", show_default=True,
              help="The line-up, one per seat: random, easy, medium, hard (hard:samples=4:budget=0.5 "
                   "sets the search's budget).")
@click.option("--games", "-n", type=int, default=40, show_default=True,
              help="Games to play (rounded up to whole rotations of the line-up).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", "-w", type=int, default=None,
              help="Local worker processes (default: one per core).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write one row per bot to this CSV file.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Also draw the final score distributions to this PNG (needs matplotlib).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where games run: a local process pool, or Ray (needs the ray extra).")
@click.option("--address", default=None, help="With --backend ray: an existing Ray cluster to join.")
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Keep every game in this file (JSON lines) as it ends; run the same command "
                   "again to go on after a stop.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def arena(variant: str, players: int | None, bots: str, games: int, seed: int, workers: int | None,
          as_json: bool, csv_path: str | None, plot_path: str | None, backend: str,
          address: str | None, results_path: str | None, quiet: bool) -> None:
    """Measure bots against each other with duplicate play (same deals, seats rotated)."""
    from ..arena import GameResult, ResultsFile, run_arena
    from .report import arena_table, write_csv, write_plot

    lineup = [b.strip() for b in bots.split(",") if b.strip()]
    if variant not in variant_ids():
        near = play_cmds.did_you_mean(variant, variant_ids())
        raise click.BadParameter(f"unknown ruleset {variant!r}{near}")
    v = get_variant(variant)
    play_cmds.check_levels(lineup)
    n = players if players is not None else len(lineup)
    if n != len(lineup):
        raise click.UsageError(f"--bots names {len(lineup)} bots for {n} seats")
    lo, hi = v.spec.players
    if not lo <= n <= hi:
        raise click.UsageError(f"{v.id} is for {lo}-{hi} players, not {n}")
    if games < 1 or (workers is not None and workers < 1):
        raise click.UsageError("--games and --workers must be at least 1")
    if workers is None:
        from .simulate import default_workers

        workers = min(default_workers(), games)
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise click.UsageError("--backend ray needs Ray: pip install -e '.[ray]'") from None
    elif address:
        raise click.UsageError("--address is for --backend ray")
    if plot_path:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise click.UsageError("--plot needs matplotlib: pip install -e '.[plot]'") from None
    done: list[GameResult] = []
    keep = None
    if results_path:
        keep = ResultsFile(results_path, v.id, lineup, seed)
        try:
            done = keep.load()
        except (ValueError, OSError) as e:
            raise click.UsageError(str(e)) from None
    out = Console(stderr=as_json)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    total = max(1, -(-games // n)) * n

    def on_game(r: GameResult) -> None:
        if keep:
            keep.append(r)
        bar.advance(task)

    with Progress(TextColumn("[bold]arena"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=out, disable=quiet, transient=True) as bar:
        task = bar.add_task("games", total=total, completed=min(total, len(done)))
        summary = run_arena(v.id, lineup, games, seed, workers, on_game=on_game,
                            backend=backend, address=address, done=done)
    if csv_path:
        write_csv(summary, csv_path)
    if plot_path:
        write_plot(summary, plot_path)
    if as_json:
        click.echo(json.dumps({
            "ruleset": summary.variant, "players": n, "games": summary.games, "seed": seed,
            "bots": [{k: b[k] for k in b if k != "scores"} for b in summary.bots],
        }, indent=2))
    else:
        out.print(arena_table(summary, out.width))


@main.command()
@click.argument("record_file", type=click.Path(dir_okay=False), required=False)
@click.option("--game", "game_id", type=int, default=None,
              help="A saved game (see `rummykit games`) instead of a record file.")
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=play_cmds.DB_HELP)
@click.option("--seat", type=int, default=None, help="The seat to advise (default: the seat to act).")
@click.option("--line", type=int, default=1, show_default=True,
              help="For a file of JSON lines (simulate --records): which record.")
@click.option("--level", default="medium", show_default=True, help="Which bot advises: easy, medium or hard.")
def hint(record_file: str | None, game_id: int | None, db: str | None, seat: int | None, line: int,
         level: str) -> None:
    """Suggest a move, with the reason, for a saved game position (a game record or a saved game)."""
    from ..engine.game import replay
    from ..players import make_player

    if (record_file is None) == (game_id is None):
        raise click.UsageError("give a record file or --game ID (one of them)")
    human: int | None = None  # a saved game's person: only their seat is advised
    if game_id is not None:
        with play_cmds.open_store(db, create=False) as store:
            try:
                saved = store.game(game_id)
                data = saved.record()
            except StoreError as e:
                raise click.ClickException(str(e)) from None
        human = saved.human
        record_file = f"game {game_id}"
    else:
        assert record_file is not None
        try:
            text = Path(record_file).read_text(encoding="utf-8")
        except OSError as e:
            raise click.ClickException(f"cannot read {record_file}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise click.ClickException(f"{record_file} is not a game record: it is not UTF-8 text") from None
        data = read_record(record_file, text, line)
    seed = data.get("seed") if isinstance(data, dict) else None
    if isinstance(data, dict) and "seed" in data and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise click.ClickException(f"{record_file}: the record's seed must be a whole number, not "
                                   f"{json.dumps(seed)}; it is not a record rummykit wrote")
    try:
        g = replay(data)
    except ValueError as e:
        raise click.ClickException(f"{record_file}: {e}") from None
    if g.is_over:
        raise click.ClickException("that game is over: there is no move to suggest")
    who = g.current_player if seat is None else seat
    if who != g.current_player:
        raise click.ClickException(f"seat {who} is not to act: seat {g.current_player} is")
    if human is not None and who != human:  # (the advice would show a bot's hidden hand)
        raise click.ClickException(f"it is seat {who}'s turn, a bot's, in game {game_id}: a hint is only "
                                   f"for your own seat ({human}), on your own turn")
    view = g.view(who)
    try:
        bot = make_player(level, 0, variant=g.variant)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    explain = getattr(bot, "explain", None)
    if explain is None:
        raise click.UsageError(f"{level} cannot explain its moves; ask easy, medium or hard")
    action, why = explain(view, g.legal_actions())
    click.echo(f"{g.spec.name}, deal {view['round']} ({view['contract']}), seat {who}, phase {view['phase']}")
    click.echo(f"hand: {' '.join(view['hand'])}   discard: {view['discard_top'] or '-'}")
    click.echo(f"hint: {action.text()} — {why}")


@main.group()
def rules() -> None:
    """List, show and check rulesets and house-rules files."""


@rules.command("list")
def rules_list() -> None:
    """Every built-in ruleset."""
    t = Table()
    for col in ("id", "name", "players", "deals"):
        t.add_column(col)
    for vid in variant_ids():
        sp = get_variant(vid).spec
        deals = str(sp.num_deals() or f"to {sp.match_target(sp.players[0])}")
        t.add_row(vid, sp.name, f"{sp.players[0]}-{sp.players[1]}", deals)
    Console().print(t)


@rules.command("show")
@click.argument("name")
def rules_show(name: str) -> None:
    """Print a ruleset (an id or a rules file) in plain words."""
    try:
        v = _variant(name)
    except RulesError as e:
        raise click.ClickException(str(e)) from None
    click.echo(describe_rules(v))


@rules.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
def rules_check(path: str) -> None:
    """Report every problem in a house-rules file, by key."""
    try:
        v = load_variant(path)
    except RulesError as e:
        click.echo(f"{path}: {len(e.problems)} problem{'s' if len(e.problems) != 1 else ''}")
        for p in e.problems:
            click.echo(f"  - {p}")
        sys.exit(1)
    click.echo(f"{path}: OK — {v.name} ({v.id}), {v.spec.players[0]}-{v.spec.players[1]} players")


main.add_command(play_cmds.play)
main.add_command(play_cmds.resume)
main.add_command(play_cmds.games)
main.add_command(play_cmds.replay)
main.add_command(play_cmds.stats)
main.add_command(online.serve)
main.add_command(online.join)
main.add_command(review_cmd)

if __name__ == "__main__":  # pragma: no cover
    main()
