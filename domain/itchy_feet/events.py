"""The facts of a game. Secret fields default to None: their public form leaves them out.

Visibility of each event type is declared in ``views.REDACTIONS``; every other type is public.
"""

from __future__ import annotations

from typing import Literal

from domain import messages
from domain.itchy_feet.commands import Action


class ItchyDeckShuffled(messages.Event):
    """The deck was formed; ``order`` is top first (secret from every seat)."""

    count: int
    order: tuple[str, ...] | None = None


class DiscardPileReshuffled(messages.Event):
    """The last card of the deck was taken: the discard pile became the new deck (order secret)."""

    count: int
    order: tuple[str, ...] | None = None


class PassportReceived(messages.Event):
    """Setup 1: a passport into a seat's hand (secret to that seat); the rest are set aside."""

    seat: int
    card: str | None = None


class CharactersDealt(messages.Event):
    """Setup 1 (characters): one character face up before each seat."""

    characters: tuple[str, ...]


class CountriesDealt(messages.Event):
    """Setup 2: a country before each seat (``own`` by seat) and one in the centre."""

    own: tuple[str, ...]
    centre: str


class StartingHandDealt(messages.Event):
    """Setup 3: cards from the top of the deck (secret to that seat)."""

    seat: int
    count: int
    cards: tuple[str, ...] | None = None


class FirstTravellerChosen(messages.Event):
    """The seat whose country's capital lies closest to the centre country's capital."""

    seat: int
    distances_km: tuple[int, ...]


class TravelTurnBegan(messages.Event):
    seat: int


class ItchyCardDrawn(messages.Event):
    """A card from the top of the deck into a hand (secret to that seat)."""

    seat: int
    reason: Literal["draw", "empty_hand", "bonus", "travel", "special", "event"]
    card: str | None = None


class EventCardDrawn(messages.Event):
    """An event came off the deck: it is resolved at once, face up, then discarded."""

    seat: int
    card: str
    nested: bool = False  # drawn while another event was resolving: discarded with no effect


class CardsDiscarded(messages.Event):
    """Cards from a hand to the discard pile, face up."""

    seat: int
    cards: tuple[str, ...]
    reason: Literal["recycle", "steal", "ditch", "hand_limit", "special", "lost_luggage"]


class CardTakenFromDiscard(messages.Event):
    seat: int
    card: str


class ActionDeclared(messages.Event):
    """Special objects in play: the action waits in a reaction window before it happens."""

    window: str
    seat: int
    action: Action
    opened_at_ms: int


class ReactionPassed(messages.Event):
    window: str
    seat: int


class MousetrapSprung(messages.Event):
    """A Mousetrap interrupts the waiting action: it does not happen and that turn ends."""

    window: str
    seat: int
    card: str
    interrupted: int


class ReactionWindowClosed(messages.Event):
    """Every seat passed, or the time ran out: the waiting action happens now."""

    window: str
    timed_out: bool = False


class TradeOffered(messages.Event):
    window: str
    offerer: int
    target: int
    give: tuple[str, ...]
    ask: tuple[str, ...]
    opened_at_ms: int


class TradeAccepted(messages.Event):
    window: str


class TradeRejected(messages.Event):
    window: str
    timed_out: bool = False


class TradeCompleted(messages.Event):
    """The cards changed hands, face up."""

    offerer: int
    target: int
    given: tuple[str, ...]
    received: tuple[str, ...]


class CardStolen(messages.Event):
    """A random card moved from ``victim`` to ``thief`` (the card is secret to those two)."""

    thief: int
    victim: int
    card: str | None = None


class CardPassed(messages.Event):
    """A random card moved from ``giver`` to ``receiver`` (secret to those two)."""

    giver: int
    receiver: int
    card: str | None = None


class Travelled(messages.Event):
    """A travel: the whole ``hand`` shown to everyone, ``used`` discarded, the country done."""

    seat: int
    country: str
    hand: tuple[str, ...]
    used: tuple[str, ...]


class ForbiddenHandedOver(messages.Event):
    """The Smuggler handed a forbidden object to another seat, face up."""

    giver: int
    receiver: int
    card: str


class SpecialPlayed(messages.Event):
    """A special object was played face up and discarded; its effect follows."""

    seat: int
    card: str


class CountryReplaced(messages.Event):
    """A country went aside and one from aside took its place (``seat`` None: the centre)."""

    seat: int | None
    old: str
    new: str


class TurnEnded(messages.Event):
    """The action is done (or interrupted); the next turn starts once nobody is over the limit."""

    seat: int


class TurnPassed(messages.Event):
    """The player awaited for an action had none at all: its turn passes (docs, Rulings: never without
    an action). An automatic fact, like the empty hand's draw; no shipped game reaches it."""

    seat: int


class TripWon(messages.Event):
    seat: int
    how: Literal["centre", "postcards"]


Event = (
    ItchyDeckShuffled
    | DiscardPileReshuffled
    | PassportReceived
    | CharactersDealt
    | CountriesDealt
    | StartingHandDealt
    | FirstTravellerChosen
    | TravelTurnBegan
    | ItchyCardDrawn
    | EventCardDrawn
    | CardsDiscarded
    | CardTakenFromDiscard
    | ActionDeclared
    | ReactionPassed
    | MousetrapSprung
    | ReactionWindowClosed
    | TradeOffered
    | TradeAccepted
    | TradeRejected
    | TradeCompleted
    | CardStolen
    | CardPassed
    | Travelled
    | ForbiddenHandedOver
    | SpecialPlayed
    | CountryReplaced
    | TurnEnded
    | TurnPassed
    | TripWon
)
