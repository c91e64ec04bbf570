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
from ..rules.registry import RulesError, Variant, get_variant, load_variant, variant_ids
from .describe import describe_rules
from .simulate import run_simulation


def _variant(name: str) -> Variant:
    """A built-in id or the path of a rules file."""
    if name in variant_ids():
        return get_variant(name)
    if name.endswith(".toml") or Path(name).exists():
        return load_variant(name)
    raise click.BadParameter(f"unknown ruleset {name!r}; rummykit knows: {', '.join(variant_ids())}")


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
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(variant: str, players: int | None, games: int, seed: int, options: tuple[str, ...],
             as_json: bool, records: str | None, quiet: bool) -> None:
    """Play random legal games and summarise them."""
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
                                 progress=not quiet, console=out)
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
    return opts


def _print_summary(out: Console, s: dict[str, Any]) -> None:
    t = Table(title=f"{s['name']} — {s['players']} players, {s['games']} random games (seed {s['seed']})")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("games", str(s["games"]))
    t.add_row("rounds", str(s["rounds"]))
    t.add_row("mean actions per game", f"{s['mean_actions']:.1f}")
    for how, k in sorted(s["round_endings"].items()):
        t.add_row(f"rounds ended: {how}", f"{k} ({100 * k / max(1, s['rounds']):.1f}%)")
    for seat, sc in enumerate(s["mean_scores"]):
        t.add_row(f"mean final score, seat {seat}", f"{sc:.1f}")
    t.add_row("games per second", f"{s['games_per_s']:.2f}")
    t.add_row("µs per decision", f"{s['us_per_decision']:.1f}")
    out.print(t)


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


if __name__ == "__main__":  # pragma: no cover
    main()
