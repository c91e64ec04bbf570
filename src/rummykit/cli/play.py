"""``rummykit play``, ``resume``, ``games``, ``replay`` and ``stats``."""

from __future__ import annotations

import difflib
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table

from ..invoked import command
from ..rules.registry import RulesError, Variant, get_variant, load_variant, variant_ids
from ..store import Store, StoreError

if TYPE_CHECKING:
    from ..play.session import Session

DB_HELP = "The games database (default: rummykit's file in your user data folder)."


def open_store(db: str | None, *, create: bool = True, missing: str = "", verify: bool = False) -> Store:
    """The games database.  Reading commands pass ``create=False``: a missing file is an
    error there (nothing is created, not even its folder); ``missing`` words it, with
    ``{path}``.  The commands that write pass ``verify``: every stored row is read first, so
    nothing is added to a file with damage inside a stored value."""
    from ..store import default_path

    path = Path(db) if db is not None else default_path()
    if not create and not path.is_file() and not path.is_dir() and missing:
        raise click.ClickException(missing.format(path=path, play=command("play", db=db)))
    if not create and not path.is_file():
        where = "" if db is not None else " (the default place; --db FILE for another)"
        what = "is a folder, not a games database" if path.is_dir() else "does not exist"
        raise click.ClickException(f"{path} {what}{where}: `{command('play', db=db)}` starts a game and "
                                   "creates it.")
    try:
        store = Store(path)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    if verify:
        try:
            store.verify()
        except StoreError as e:
            store.close()
            raise click.ClickException(str(e)) from None
    return store


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """"; did you mean X?" for a near miss, else the whole list."""
    near = difflib.get_close_matches(word.lower(), list(choices), n=1, cutoff=0.6)
    return f"; did you mean {near[0]}?" if near else f"; rummykit knows: {', '.join(choices)}"


def resolve_variant(name: str, rules: str | None = None) -> Variant:
    """A built-in ruleset id, or the path of a rules file; a near miss gets a "did you mean"."""
    try:
        if rules:
            return load_variant(rules)
        if name in variant_ids():
            return get_variant(name)
        if name.endswith(".toml") or Path(name).exists():
            return load_variant(name)
    except RulesError as e:
        raise click.ClickException(str(e)) from None  # a bad file: one line, exit 1
    raise click.BadParameter(f"unknown ruleset {name!r}" + did_you_mean(name, variant_ids()))


def check_levels(levels: list[str]) -> None:
    """Refuse an unknown bot level before anything is saved, with a "did you mean"."""
    from ..players import make_player
    from ..players.base import ALIASES, LEVELS

    for b in levels:
        try:
            make_player(b)
        except ValueError as e:
            key = b.strip().lower().partition(":")[0]
            names = [*LEVELS, *ALIASES]
            if key in names:
                raise click.UsageError(str(e)) from None
            raise click.UsageError(f"unknown level {b!r}" + did_you_mean(key, names)) from None


def _printed_plainly(rows: list[dict[str, Any]], as_json: bool, db: str | None) -> bool:
    """Print ``rows`` as JSON, or say there are none; False when a table is still to print."""
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return True
    if not rows:
        click.echo(f"No games yet: `{command('play', db=db)}` starts one.")
        return True
    return False


CARDS_HELP = "Cards on the table as symbols (10♣) or letters (TC); `c` switches while playing."


def _run(session: Session, variant: Variant, plain: bool, speed: float, cards: str = "symbols") -> None:
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from ..play.plain import PlainUI

        PlainUI(session, variant, sys.stdin, sys.stdout, speed).run()
        return
    from ..play.tui import RummyApp

    RummyApp(session, variant, speed=speed, symbols=cards == "symbols").run()


@click.command()
@click.option("--variant", "-v", default="contract", show_default=True,
              help="A ruleset id (see `rummykit rules list`) or a rules file.")
@click.option("--players", "-p", type=int, default=4, show_default=True, help="Players, you included.")
@click.option("--bots", "-b", default="medium", show_default=True,
              help="The bots' levels, comma-separated (easy, medium, hard); one level for all of them.")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
              help="A house-rules file (TOML; `extends` a built-in ruleset).")
@click.option("--seed", type=int, default=None, help="The deal's seed (default: a random one).")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option("--speed", type=float, default=0.6, show_default=True,
              help="Seconds each bot move stays on screen (0: as fast as possible).")
@click.option("--plain", is_flag=True, help="Line-by-line text, for screen readers, scripts and ssh.")
@click.option("--cards", type=click.Choice(["symbols", "letters"]), default="symbols", show_default=True,
              help=CARDS_HELP)
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=DB_HELP)
def play(variant: str, players: int, bots: str, rules_file: str | None, seed: int | None, name: str,
         speed: float, plain: bool, cards: str, db: str | None) -> None:
    """Play a game against computer opponents (you sit at seat 0)."""
    from ..play.session import Session

    v = resolve_variant(variant, rules_file)
    lo, hi = v.spec.players
    if not lo <= players <= hi:
        raise click.UsageError(f"{v.spec.name} is for {lo}-{hi} players, not {players}")
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels = levels * (players - 1)
    if len(levels) != players - 1:
        raise click.UsageError(f"--bots names {len(levels)} bots; {players} players need {players - 1} "
                               "(or give one level for all)")
    check_levels(levels)
    if speed < 0:
        raise click.UsageError("--speed must be 0 or more")
    store = open_store(db, verify=True)
    with store:
        session = Session.start(store, v, players, levels, seed=seed, name=name)
        _run(session, v, plain, speed, cards)


@click.command()
@click.argument("game_id", type=int, required=False)
@click.option("--speed", type=float, default=0.6, show_default=True,
              help="Seconds each bot move stays on screen.")
@click.option("--plain", is_flag=True, help="Line-by-line text, for screen readers, scripts and ssh.")
@click.option("--cards", type=click.Choice(["symbols", "letters"]), default="symbols", show_default=True,
              help=CARDS_HELP)
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=DB_HELP)
def resume(game_id: int | None, speed: float, plain: bool, cards: str, db: str | None) -> None:
    """Go on with the last unfinished game (or game GAME_ID) exactly where it was."""
    from ..play.session import Session

    nothing = "There is no unfinished game to resume: {path} does not exist yet; `{play}` starts one."
    with open_store(db, create=False, missing=nothing, verify=True) as store:
        try:
            saved = store.game(game_id) if game_id is not None else store.last_unfinished()
        except StoreError as e:
            raise click.ClickException(str(e)) from None
        if saved is None:
            raise click.ClickException(f"There is no unfinished game to resume; `{command('play', db=db)}` "
                                       "starts one.")
        if saved.finished is not None:
            raise click.ClickException(f"Game {saved.id} is finished; `{command('replay', saved.id, db=db)}` "
                                       "shows it.")
        try:
            session = Session.resume(store, saved)
        except ValueError as e:
            raise click.ClickException(f"Game {saved.id} cannot be rebuilt: {e}") from None
        _run(session, session.game.base_variant, plain, speed, cards)


@click.command()
@click.option("--all", "show_all", is_flag=True, help="List every game, not only the last 50.")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=DB_HELP)
def games(show_all: bool, as_json: bool, db: str | None) -> None:
    """List saved games, newest first."""
    with open_store(db, create=False) as store:
        try:
            rows = store.games(limit=-1 if show_all else 50)
        except StoreError as e:
            raise click.ClickException(str(e)) from None
    if _printed_plainly(rows, as_json, db):
        return
    t = Table(title="Saved games")
    for col in ("id", "ruleset", "players", "started", "state", "scores", "actions"):
        t.add_column(col)
    for r in rows:
        state = "playing" if r["finished"] is None else ("won" if r["won"] else "lost")
        t.add_row(str(r["id"]), r["ruleset"], str(r["players"]),
                  datetime.fromtimestamp(r["started"]).strftime("%Y-%m-%d %H:%M"), state,
                  " ".join(r["scores"]) if r["scores"] else "?", str(r["actions"]))
    Console().print(t)


@click.command()
@click.argument("game_id", type=int)
@click.option("--no-pause", is_flag=True, help="Print every step without waiting for Enter.")
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=DB_HELP)
def replay(game_id: int, no_pause: bool, db: str | None) -> None:
    """Step through a finished game: each action, then the whole table (every hand, the melds,
    the discard pile). Enter for the next action, a number to jump ahead, q to stop."""
    from ..engine.game import replay as rebuild
    from ..play.session import Session
    from ..play.words import describe_view, replay_table, round_table, standings

    with open_store(db, create=False) as store:
        try:
            saved = store.game(game_id)
        except StoreError as e:
            raise click.ClickException(str(e)) from None
        if saved.finished is None:
            again = command("resume", game_id, db=db)
            raise click.ClickException(f"Game {game_id} is not finished; `{again}` goes on with it.")
        try:
            rebuild(saved.record())  # the whole record must replay before stepping through it
        except ValueError as e:
            raise click.ClickException(f"Game {game_id} cannot be rebuilt: {e}") from None
        setup = {**saved.setup, "actions": []}
        g = rebuild(setup)
        session = Session(store, saved.id, g, saved.seats, saved.human, saved.name)
        skip = 0
        click.echo(describe_view(session).splitlines()[0])  # the ruleset, the deal, its contract
        click.echo(replay_table(session))
        for i, text in enumerate(saved.actions, 1):
            seat = g.current_player
            rounds = len(g.history)
            g.apply(text)
            click.echo(f"[{i}/{len(saved.actions)}] {session.seat_name(seat)}: {text}")
            if len(g.history) > rounds:
                click.echo(round_table(session, g.history[-1]))
                if not g.is_over:
                    click.echo(f"--- deal {g.round_no}")
            if not g.is_over:
                click.echo(replay_table(session))
            if no_pause or skip > 0:
                skip -= 1
                continue
            answer = click.prompt("", default="", show_default=False, prompt_suffix="")
            if answer.strip().lower() in ("q", "quit"):
                return
            if answer.strip().isdigit():
                skip = int(answer.strip()) - 1
        click.echo(standings(session))


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--db", default=None, type=click.Path(dir_okay=False), help=DB_HELP)
def stats(as_json: bool, db: str | None) -> None:
    """Per ruleset: games played and won, mean points per round, best game."""

    def low_wins(ruleset: str) -> bool:
        try:
            return not get_variant(ruleset).spec.high_wins
        except ValueError:
            return True

    with open_store(db, create=False) as store:
        try:
            rows = store.stats(low_wins)
        except StoreError as e:
            raise click.ClickException(str(e)) from None
    if _printed_plainly(rows, as_json, db):
        return
    t = Table(title="Your statistics")
    for col in ("ruleset", "played", "won", "unfinished", "deals", "mean points per deal", "best game"):
        t.add_column(col, justify="left" if col == "ruleset" else "right")
    for r in rows:
        best = r["best_game"]
        mean = r["mean_points_per_round"]
        t.add_row(r["ruleset"], str(r["played"]), str(r["won"]), str(r["started"] - r["played"]),
                  str(r["rounds"]), "-" if mean is None else f"{mean:.1f}",
                  "-" if best is None else f"game {best['id']}: {best['score']}")
    Console().print(t)
