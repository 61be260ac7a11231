"""``ludoteca duel``: bots against bots, in process (no Redis, no server), with the figures of
docs/bots.md: one bot's win share against another, how long their games run and what happened in
them (``--count``), paired deals (``--paired``), and the ladder of the named levels (``--ladder``)."""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import itertools
import json
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from domain.bots import LADDER, bot_for
from domain.bots.play import Played, deal_of, lineup, play_game, seats_for, tally
from domain.bots.world import SeededRng
from domain.catalog import GAMES
from server.service.ratings import Rating, ordinal, rerate


def duel_game(
    game_id: str,
    first: str,
    second: str,
    players: int,
    index: int,
    seed: int,
    paired: bool = False,
    options: dict[str, Any] | None = None,
    cap: int = 20_000,
) -> tuple[int, Played]:
    """One game of a duel (a worker process runs it): the first bot's seat and the game."""
    import random

    game = GAMES[game_id]
    bots = lineup(bot_for(first), bot_for(second), index, players)
    dealt = deal_of(index, players, paired)
    deal = None if dealt is None else SeededRng(seed + dealt)
    return seats_for(index, players), play_game(game, bots, random.Random(seed + index), options, cap, deal)


def options_from(pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs: a value is JSON (true, 3), else a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


def counted(games: Sequence[Played], players: int, names: Sequence[str]) -> list[str]:
    """Lines for ``--count``: how long the games ran, and each named event type (``A/B``: the
    ratio of two types' totals) a seat, the median game, and in all."""
    lines = []
    lengths = [g.commands for g in games]
    unfinished = sum(g.outcome is None for g in games)
    lines.append(
        f"commands a game: median {statistics.median(lengths):,.0f}, most {max(lengths):,}; "
        f"{unfinished} of {len(games)} unfinished at the cap"
    )
    total: Counter[str] = Counter()
    for g in games:
        total.update(g.events)
    for name in names:
        top, _, bottom = name.partition("/")
        if bottom:
            share = total[top] / total[bottom] if total[bottom] else 0.0
            lines.append(f"{name}: {share:.1%} ({total[top]:,} of {total[bottom]:,})")
            continue
        seat = [g.events[name] / players for g in games]
        lines.append(
            f"{name}: median {statistics.median(seat):.1f} a seat (quartiles "
            f"{_quantile(seat, 0.25):.1f} to {_quantile(seat, 0.75):.1f}, most {max(seat):.1f}), "
            f"{total[name]:,} in all"
        )
    return lines


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


ELO = 400 / math.log(10)  # a rating point in Elo's scale: 400 points are odds of 10 to 1


def elo(share: float) -> float:
    """The rating lead that wins ``share`` of the games (Elo's logistic curve), kept finite."""
    share = min(max(share, 0.01), 0.99)
    return ELO * math.log(share / (1 - share))


def rung(games: Sequence[tuple[int, Played]], players: int) -> tuple[float, float, float, float]:
    """One rung of the ladder from its games: the upper bot's share, its rating lead over the
    bot below, and that lead's 95% interval (Wilson's interval of the share, on Elo's curve)."""
    figure = tally("", players, [(seat, played.outcome) for seat, played in games])
    low, high = figure.interval
    return figure.share, elo(figure.share), elo(low), elo(high)


Rung = tuple[str, str, list[tuple[int, Played]]]  # the upper level, the lower, their games (upper's seat, game)


def players_ratings(rungs: Sequence[Rung]) -> dict[str, Rating]:
    """The levels rated as players are on the leaderboard (server/service/ratings.py: OpenSkill's
    Plackett-Luce, every level from the same start), from every rung's games, a game of each rung
    in turn so that no rung is rated before the others. An unfinished game rates nobody."""
    ratings: dict[str, Rating] = {}
    turns = itertools.zip_longest(*[[(upper, lower, game) for game in games] for upper, lower, games in rungs])
    for played in itertools.chain.from_iterable(turns):
        if played is None:
            continue
        upper, lower, (seat, game) = played
        if game.outcome is None:
            continue
        winners = game.outcome.winners
        ranked = [(upper, 1 if seat in winners else 2), (lower, 1 if 1 - seat in winners else 2)]
        ratings.update(rerate(ranked, ratings))
    return ratings


def ladder_verb(args: argparse.Namespace, kinds: list[str], options: dict[str, Any]) -> int:
    """The named levels' ladder: each rung against the one below, two seats, paired deals; the
    random bot rated 0, each level the sum of the leads below it (an interval adds in quadrature).
    Then the same games rate the levels as players are rated (``players_ratings``)."""
    rungs = list(LADDER[: LADDER.index(args.up_to) + 1]) if args.up_to else list(LADDER)
    print(f"the ladder: {', '.join(rungs)}; {args.games} paired two-seat games a rung and game; rating: random = 0")
    print(
        f"{'game':<18} {'level':<9} {'vs below':>9} {'95% interval':>16} {'lead':>6} {'rating':>7} {'95% interval':>14}"
    )
    for kind in kinds:
        rating, spread2 = 0.0, 0.0
        played: list[Rung] = []
        print(f"{kind:<18} {'random':<9} {'':>9} {'':>16} {'':>6} {0:>7.0f}", flush=True)
        for lower, upper in itertools.pairwise(rungs):
            run = functools.partial(
                duel_game, kind, upper, lower, 2, seed=args.seed, paired=True, options=options, cap=args.cap
            )
            games = _play(run, args.games, args.jobs, f"{kind}, {upper} against {lower}")
            played.append((upper, lower, games))
            share, lead, low, high = rung(games, 2)
            sh, sl = share, wilson_interval(games)
            rating += lead
            spread2 += ((high - low) / 2) ** 2
            half = math.sqrt(spread2)
            print(
                f"{'':<18} {upper:<9} {sh:>9.1%} {sl[0]:>7.1%} to {sl[1]:>5.1%} {lead:>+6.0f} {rating:>7.0f} "
                f"{rating - half:>6.0f} to {rating + half:<5.0f}",
                flush=True,
            )
        rated = players_ratings(played)
        levels = "; ".join(
            f"{level} {ordinal(rated[level]):.1f} (mu {rated[level].mu:.1f}, sigma {rated[level].sigma:.2f})"
            for level in rungs
            if level in rated
        )
        print(f"{'':<18} as players are rated (mu - 3 sigma): {levels}", flush=True)
    return 0


def wilson_interval(games: Sequence[tuple[int, Played]]) -> tuple[float, float]:
    return tally("", 2, [(seat, played.outcome) for seat, played in games]).interval


PROGRESS_S = 60.0  # how often a long run says, on stderr, how far it has come


def _play(run: Any, games: int, jobs: int, label: str, players: int = 2) -> list[tuple[int, Played]]:
    """The ``games`` games ``run`` plays (``jobs`` at once), with a running tally on stderr every
    :data:`PROGRESS_S` seconds: a rung of the strong bots takes hours, and the table prints at its end."""
    if jobs <= 1:
        return _tallied((run(i) for i in range(games)), games, label, players)
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        return _tallied(pool.map(run, range(games)), games, label, players)


def _tallied(results: Iterable[tuple[int, Played]], games: int, label: str, players: int) -> list[tuple[int, Played]]:
    out: list[tuple[int, Played]] = []
    started = said = time.monotonic()
    for result in results:
        out.append(result)
        now = time.monotonic()
        if now - said >= PROGRESS_S and len(out) < games:
            said = now
            share = tally("", players, [(seat, played.outcome) for seat, played in out]).share
            print(
                f"ludoteca duel: {label}: {len(out)} of {games} games played, the first bot's share {share:.1%} so "
                f"far ({(now - started) / 60:.0f} min)",
                file=sys.stderr,
                flush=True,
            )
    return out


def duel_verb(args: argparse.Namespace) -> int:
    """One bot against another, in process (no Redis): the first bot's win share per game."""
    kinds = [args.game] if args.game else sorted(GAMES)
    unknown = [k for k in kinds if k not in GAMES]
    if unknown:
        print(f"no game {unknown[0]!r}; games: {', '.join(sorted(GAMES))}", file=sys.stderr)
        return 2
    try:
        bot_for(args.first), bot_for(args.second)
    except ValueError as exc:
        print(f"ludoteca duel: {exc}", file=sys.stderr)
        return 2
    first, second = args.first, args.second
    options = options_from(args.option)
    if args.ladder:
        return ladder_verb(args, kinds, options)
    seats = f"{args.players}-seat" if args.players else "two-seat"
    paired = ", each deal from every seat" if args.paired else ""
    print(f"{first} against {second}, {args.games} {seats} games each, {first} in each seat in turn{paired}")
    a, b = max(7, len(first)), max(7, len(second))
    print(f"{'game':<18} {first:>{a}} {'ties':>5} {second:>{b}} {first + ' share':>13}")
    for kind in kinds:
        game = GAMES[kind]
        players = args.players or 2
        if not game.min_players <= players <= game.max_players:
            print(f"{kind:<18} not played: {game.min_players} to {game.max_players} players")
            continue
        run = functools.partial(
            duel_game, kind, first, second, players, seed=args.seed, paired=args.paired, options=options, cap=args.cap
        )
        results = _play(run, args.games, args.jobs, f"{kind}, {first} against {second}", players)
        figure = tally(kind, players, [(seat, played.outcome) for seat, played in results])
        low, high = figure.interval
        print(f"{kind:<18} {figure.won:>{a}} {figure.tied:>5} {figure.lost:>{b}} {figure.share:>13.1%}")
        unfinished = f"; {figure.unfinished} unfinished" if figure.unfinished else ""
        print(
            f"{'':<18} 95% interval {low:.1%} to {high:.1%}; fair share {figure.fair:.1%}, "
            f"{figure.share / figure.fair:.2f}x{unfinished}",
            flush=True,
        )
        if args.count is not None:
            names = [n for n in args.count.split(",") if n]
            for line in counted([played for _, played in results], players, names):
                print(f"{'':<18} {line}", flush=True)
    return 0


def add_duel_verb(verbs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    match = verbs.add_parser("duel", help="one bot against another, in process: the first bot's win share per game")
    match.add_argument("first", nargs="?", default="greedy", help="the bot measured: random, greedy, strong[:level]")
    match.add_argument("second", nargs="?", default="random", help="the bot in every other seat (default random)")
    match.add_argument("--players", type=int, default=0, help="seats at each table (default 2)")
    match.add_argument("--games", type=int, default=200, help="games per game kind (default 200)")
    match.add_argument("--game", help="only this game (default: every game)")
    match.add_argument("--seed", type=int, default=0, help="game i is played with seed + i (default 0)")
    match.add_argument("--jobs", type=int, default=1, help="games played at once, one process each (default 1)")
    match.add_argument(
        "--paired", action="store_true", help="deal each table once for every seat, the first bot in each in turn"
    )
    match.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option (JSON value), repeatable"
    )
    match.add_argument("--cap", type=int, default=20_000, help="commands a game at most (default 20,000)")
    match.add_argument(
        "--count",
        metavar="EVENTS",
        help="also how long the games ran and these event types a seat (comma separated; A/B: a ratio of totals)",
    )
    match.add_argument(
        "--ladder",
        action="store_true",
        help="rate the named levels: each against the one below, paired two-seat games (--games a rung)",
    )
    match.add_argument("--up-to", choices=LADDER[1:], help="with --ladder: the highest level rated (default expert)")
    match.set_defaults(func=duel_verb)
