"""Bots: strategies that pick one of a seat's commands (pure; their randomness from an rng passed in).

A bot is ``choose(game, state, seat, rng) -> command | None``: one of the seat's complete
commands, reached through the game's move-building picks (``None`` when the seat may not act
now). ``BOTS`` lists the levels there are, each with its name, title and description, for the
server, the lobby and the duel alike; ``bot_name`` names a bot's seat at a table.

- ``random`` (here): any legal command, a random option at each pick.
- ``greedy`` (greedy.py): one command ahead in an imagined world, judged by the game's points.
- ``strong`` (search.py): information-set Monte Carlo tree search over imagined worlds, with a
  ``level`` (1 to 5) that trades strength for time.

The named levels are what a player meets, each one of those bots at a stated budget, calibrated
on the ladder (``ludoteca duel --ladder``, docs/bots.md): ``beginner`` (greedy that slips),
``casual`` (greedy), ``skilled`` (strong at level 1), ``expert`` (strong at level 3). The levels
above casual spend their budget on what beats greedy in the game (``Strategy.beats_greedy``,
``deliberate``): the search, or greedy's one command judged in more imagined worlds; where nothing
does, the expert is greedy and casual and skilled slip, less than the beginner; where a larger
budget of it does not beat a smaller (``Strategy.budget_pays``), only the expert plays it, greedy
is the skilled level and casual slips.

Randomness: a bot draws only from the rng it is given, and what it draws decides what it plays.
Whoever runs a bot for a table (the server) must give it the operating system's randomness
(``random.SystemRandom()``) or a generator seeded by a secret it keeps, never a seed made of
values a client can see (a game id, a version, a seat): from those, a player can replay the
bot's choices before it makes them (docs/bots.md, "Unpredictable").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.bots.greedy import candidates, greedy, samples, standing
from domain.bots.play import Choose, Duel, duel, play_out, wilson
from domain.bots.search import LEVEL, LEVELS, strong
from domain.bots.world import Hidden, SeededRng, determinize
from domain.engine import AnyGame, Rng, Seat
from domain.table import default_name


def random_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """Any legal command: a random option at each pick (every legal move can come)."""
    return game.random_command(state, seat, rng)


def greedy_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """One command ahead in an imagined world, judged by the game's points (greedy.py)."""
    return greedy(game, state, seat, rng)


SLIPS = 0.1  # the beginner: a move a tenth of the game's spread worse is e (2.7) times less likely
# Where nothing beats greedy, the levels climb to it: casual and skilled slip too, less than the
# beginner (I Love Portugal, 2 seats, 400 paired games each: greedy beats greedy slipping 0.02 64%
# of the time, that one 0.05 83%, that one 0.1 86%; docs/bots.md, "The named levels on the ladder").
CASUAL_SLIPS = 0.05
SKILLED_SLIPS = 0.02


def beginner_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """Greedy's judgement, but it picks among its moves at random, the better ones more often."""
    return greedy(game, state, seat, rng, SLIPS)


def beats_greedy(game: AnyGame) -> str | None:
    """What plays better than greedy in this game (``Strategy.beats_greedy``): the search by default."""
    return game.strategy.beats_greedy if game.strategy is not None else "search"


def budget_pays(game: AnyGame) -> bool:
    """Whether more of what beats greedy beats less of it here (``Strategy.budget_pays``)."""
    return game.strategy.budget_pays if game.strategy is not None else True


def climbs_to_greedy(game: AnyGame) -> bool:
    """Whether the levels up to greedy slip, the higher the less, so that each beats the one below:
    where nothing beats greedy, or only one budget of what does (docs/bots.md)."""
    return beats_greedy(game) is None or not budget_pays(game)


def casual_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """Greedy; where the levels above climb to greedy, greedy that slips a little."""
    return greedy(game, state, seat, rng, CASUAL_SLIPS if climbs_to_greedy(game) else 0.0)


def strong_bot(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
    """The searching bot at its default level (search.py)."""
    return strong(game, state, seat, rng, LEVEL)


WORLDS = 4  # where more worlds beat greedy: imagined worlds a move at level 1, doubling a level


def deliberate(
    game: AnyGame,
    state: Any,
    seat: Seat,
    rng: Rng,
    level: int = LEVEL,
    clock: Callable[[], float] | None = None,
    seconds: float | None = None,
) -> Any:
    """A named level above casual, at the search's ``level``: what beats greedy in this game
    (``Strategy.beats_greedy``). The search; or greedy's one command judged in ``WORLDS`` times as
    many imagined worlds as the game's, doubling a level (4 at the skilled level, 16 at the
    expert), in far less time than the search's budget; or, where nothing beats greedy, greedy
    itself at the expert's level and greedy that slips a little below it. Where a larger budget
    does not pay, the expert plays what beats greedy at the skilled budget and the skilled level
    is greedy."""
    better = beats_greedy(game)
    if better is not None and not budget_pays(game):
        if level < LEVEL:
            return greedy(game, state, seat, rng)
        level = 1  # four times the plays won 53.8% against it (Miss Liz's parks), in four times the time
    if better == "search":
        return strong(game, state, seat, rng, level, clock, seconds)
    if better == "worlds":
        return greedy(game, state, seat, rng, worlds=samples(game) * WORLDS * 2 ** (level - 1))
    return greedy(game, state, seat, rng, SKILLED_SLIPS if level < LEVEL else 0.0)


# A searching level's move: (game, state, seat, rng, level, clock, seconds), the server's clock and
# CPU budget given (``strong``, ``deliberate``).
Think = Callable[[AnyGame, Any, Seat, Rng, int, Callable[[], float] | None, float | None], Any]


@dataclass(frozen=True)
class Bot:
    """One level of play the server can seat: call it as a bot, or ``at(level)`` for another level."""

    name: str  # what a client asks for: {"bot": "greedy"}
    title: str  # how its seats are named: "Greedy bot 2"
    description: str  # one line for the lobby
    choose: Choose
    levels: tuple[int, ...] = ()  # the levels it plays at, if it has several
    level: int | None = None  # the default one
    by_level: Callable[[int], Choose] | None = field(default=None, compare=False)
    search: int | None = None  # a named level above casual: the search's level it plays at
    thinks: Think = strong  # how a searching level thinks, given the server's clock too

    def __call__(self, game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
        return self.choose(game, state, seat, rng)

    def searches(self, level: int | None) -> int | None:
        """The searching bot's level this bot plays at (``None``: it does not search), so that
        whoever runs it can give the search a clock too (the server's think budget)."""
        if self.search is not None:
            return self.search
        return (level or self.level) if self.name == "strong" else None

    def at(self, level: int | None) -> Choose:
        """This bot at ``level`` (``None``: its default); a level it does not have is refused."""
        if level is None or level == self.level:
            return self.choose
        if self.by_level is None or level not in self.levels:
            raise ValueError(f"the {self.name} bot has no level {level}; levels: {list(self.levels) or 'none'}")
        return self.by_level(level)


def _thinking_at(level: int, thinks: Think = strong) -> Choose:
    def choose(game: AnyGame, state: Any, seat: Seat, rng: Rng) -> Any:
        return thinks(game, state, seat, rng, level, None, None)

    return choose


BOTS: dict[str, Bot] = {
    "random": Bot(
        "random", "Random bot", "Plays any legal move, each as likely: to learn the rules against.", random_bot
    ),
    "greedy": Bot(
        "greedy",
        "Greedy bot",
        "Plays the move that looks best one move ahead, by the game's points and plans: a fair beginner.",
        greedy_bot,
    ),
    "strong": Bot(
        "strong",
        "Strong bot",
        "Searches many moves ahead in worlds it imagines from what it sees: a challenge. Level 1 to 5 (default 3).",
        strong_bot,
        LEVELS,
        LEVEL,
        _thinking_at,
    ),
    # The named levels: what a player meets, weakest first (docs/bots.md, "Levels").
    "beginner": Bot(
        "beginner",
        "Beginner bot",
        "Knows what each move is worth but often plays a weaker one: for a first game.",
        beginner_bot,
    ),
    "casual": Bot(
        "casual",
        "Casual bot",
        "Plays the move that looks best one move ahead, and plans towards its goals (in some games now and"
        " then a weaker one, so that the levels above stay apart): a friendly game.",
        casual_bot,
    ),
    "skilled": Bot(
        "skilled",
        "Skilled bot",
        "Plays better than the casual bot: thinks several moves ahead or weighs more of what it cannot see,"
        " where that pays; else slips less often, or never.",
        _thinking_at(1, deliberate),
        search=1,
        thinks=deliberate,
    ),
    "expert": Bot(
        "expert",
        "Expert bot",
        "Plays best: the most thinking that pays in the game (four times the skilled bot's where more"
        " pays), half a second a move at most.",
        _thinking_at(LEVEL, deliberate),
        search=LEVEL,
        thinks=deliberate,
    ),
}
NAMED = ("beginner", "casual", "skilled", "expert")  # the named levels, weakest first
LADDER = ("random", *NAMED)  # the ladder's rungs: the random bot below them all


def parse_bot(spec: str) -> tuple[Bot, int | None]:
    """A bot seat's ``bot`` as stored: a bot's name, with its level after a colon for a bot that
    has levels (``strong:4``); an unknown name or level is refused with ``ValueError``."""
    name, colon, level = spec.partition(":")
    bot = BOTS.get(name)
    if bot is None:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)}")
    if not colon:
        return bot, None
    if not (level.isascii() and level.isdigit()):
        raise ValueError(f"a level is a number: {spec!r}")
    bot.at(int(level))  # refuses a level it does not have
    return bot, int(level)


def bot_for(spec: str) -> Choose:
    """The bot a stored ``bot`` names, at its level: ``greedy``, ``strong``, ``strong:2``."""
    bot, level = parse_bot(spec)
    return bot.at(level)


def bot_spec(name: str, level: int | None) -> str:
    """What a bot seat stores: the bot's name, and its level when one was asked for."""
    return name if level is None else f"{name}:{level}"


def bot_name(bot: str, seat: Seat) -> str:
    """A bot seat's name at the table, distinct from every other seat's: "Greedy bot 2" (seats count from 1)."""
    return default_name(seat, bot)


__all__ = [
    "BOTS",
    "LADDER",
    "NAMED",
    "Bot",
    "Choose",
    "Duel",
    "Hidden",
    "SeededRng",
    "beats_greedy",
    "beginner_bot",
    "bot_for",
    "bot_name",
    "bot_spec",
    "budget_pays",
    "candidates",
    "casual_bot",
    "climbs_to_greedy",
    "deliberate",
    "determinize",
    "duel",
    "greedy_bot",
    "parse_bot",
    "play_out",
    "random_bot",
    "standing",
    "strong",
    "strong_bot",
    "wilson",
]
