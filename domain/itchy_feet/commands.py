"""What a seat may ask for. Actions are one per turn; answers and reactions come from other seats.

Every command that names cards is checked whole by decide; moves.py builds every one it accepts,
pick by pick (docs/games/itchy-feet.md, "How a move is built").
"""

from __future__ import annotations

from domain import messages


class Draw(messages.Command):
    """Action: take 1 card from the deck."""


class Recycle(messages.Command):
    """Action: discard ``pay`` (2 cards; 1 for the Bargain Hunter), take ``take`` from the discard pile."""

    pay: tuple[str, ...]
    take: str


class OfferTrade(messages.Command):
    """Offer ``give`` (own cards, face up) to ``target`` for cards of the kinds ``ask``."""

    target: int
    give: tuple[str, ...]
    ask: tuple[str, ...]


class AcceptTrade(messages.Command):
    """The offer's target hands over cards of the asked kinds and takes the offered cards."""


class RejectTrade(messages.Command):
    """The offer's target turns it down (the only answer for one who lacks the cards)."""


class Steal(messages.Command):
    """Action: discard ``pay`` (none for the Pickpocket), take a random card from ``target``'s hand."""

    target: int
    pay: str | None = None


class Travel(messages.Command):
    """Action: travel to ``country`` (your own first, then the centre one)."""

    country: str


class DitchForbidden(messages.Command):
    """Action (the whole turn): discard a forbidden object together with 1 other card."""

    forbidden: str
    other: str


class Smuggle(messages.Command):
    """Action of the Smuggler: hand 1 forbidden object to another player."""

    card: str
    target: int


class PlaySpecial(messages.Command):
    """Play a special object from your hand; ``cards`` names what it needs (see the card)."""

    card: str
    cards: tuple[str, ...] = ()


class PlayMousetrap(messages.Command):
    """Reaction: spring a Mousetrap on the action waiting in the open window."""

    card: str


class PassReaction(messages.Command):
    """Reaction: let the action waiting in the open window go ahead."""


class DiscardDownToSeven(messages.Command):
    """Over the hand limit: discard one card (never a forbidden object)."""

    card: str


class CloseWindow(messages.Command):
    """From the table clock only: close a trade offer or a reaction window whose time is up."""

    window: str


Action = Draw | Recycle | OfferTrade | Steal | Travel | DitchForbidden | Smuggle | PlaySpecial

Command = (
    Draw
    | Recycle
    | OfferTrade
    | AcceptTrade
    | RejectTrade
    | Steal
    | Travel
    | DitchForbidden
    | Smuggle
    | PlaySpecial
    | PlayMousetrap
    | PassReaction
    | DiscardDownToSeven
    | CloseWindow
)
