"""Setup, decide, evolve, awaited and moves: the rules of a turn."""

from __future__ import annotations

from msgspec.structs import replace

from domain.cards import replaced, without
from domain.engine import NO_MOVE, NOT_STARTED, Awaited, Ctx, Pick, Rejected, Seat, Step, fold
from domain.moves import Chosen, menu, offer, pick_one, send
from domain.vilar_de_mouros.cards import BONUS_CARDS, DEAL, GAME_CARDS
from domain.vilar_de_mouros.commands import Command, DrawFromCentre, DrawFromDeck, PlaceCards, TakeBonus
from domain.vilar_de_mouros.events import (
    BonusDeckShuffled,
    BonusRevealed,
    BonusRowRevealed,
    BonusTaken,
    CardDrawn,
    CardsDealt,
    CardsPlaced,
    DeckShuffled,
    Event,
    FirstPlayerDrawn,
    GameEnded,
    TurnStarted,
)
from domain.vilar_de_mouros.scoring import score
from domain.vilar_de_mouros.state import State, bonus_allowed, bonus_required, next_seat

# -- setup -------------------------------------------------------------------------------


def setup(state: State, ctx: Ctx) -> list[Event]:
    deck = sorted(GAME_CARDS)
    ctx.rng.shuffle(deck)
    bonus = sorted(BONUS_CARDS)
    ctx.rng.shuffle(bonus)
    deal = DEAL[state.players]
    first = ctx.rng.randrange(state.players)
    return [
        DeckShuffled(count=len(deck), order=tuple(deck)),
        BonusDeckShuffled(count=len(bonus), order=tuple(bonus)),
        *[
            CardsDealt(seat=seat, count=deal, cards=tuple(deck[seat * deal : (seat + 1) * deal]))
            for seat in range(state.players)
        ],
        BonusRowRevealed(cards=tuple(bonus[: state.players + 1])),
        FirstPlayerDrawn(seat=first),
        TurnStarted(seat=first),
    ]


# -- evolve ------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    # Cases are tried in order: the most frequent facts of a game come first (a replay applies thousands).
    match event:
        case CardDrawn(seat=seat, source=source, card=card):
            if source == "deck":
                drawn = card if card is not None else state.deck[0]
                state = replace(state, deck=without(state.deck, drawn))
            else:
                drawn = card or ""
                state = replace(state, centre=without(state.centre, drawn))
            hands = replaced(state.hands, seat, state.hands[seat] + (drawn,))
            return replace(state, hands=hands, phase="draw" if state.phase == "action" else "place")
        case TurnStarted(seat=seat):
            return replace(state, current=seat, phase="action")
        case CardsPlaced(seat=seat, centre=to_centre, personal=to_personal):
            return replace(
                state,
                hands=replaced(state.hands, seat, without(state.hands[seat], to_centre, to_personal)),
                centre=(*state.centre, to_centre),
                personal=replaced(state.personal, seat, state.personal[seat] + (to_personal,)),
                phase="turn_over",
            )
        case BonusTaken(seat=seat, card=card):
            return replace(
                state,
                bonus_row=without(state.bonus_row, card),
                personal=replaced(state.personal, seat, state.personal[seat] + (card,)),
                phase="turn_over",
            )
        case BonusRevealed(card=card):
            return replace(state, bonus_row=(*state.bonus_row, card), bonus_deck=without(state.bonus_deck, card))
        case DeckShuffled(order=order):
            return replace(state, deck=order or ())
        case BonusDeckShuffled(order=order):
            return replace(state, bonus_deck=order or ())
        case CardsDealt(seat=seat, cards=cards):
            dealt = cards or ()
            hand = state.hands[seat] + dealt
            return replace(state, deck=without(state.deck, *dealt), hands=replaced(state.hands, seat, hand))
        case BonusRowRevealed(cards=cards):
            return replace(state, bonus_row=cards, bonus_deck=without(state.bonus_deck, *cards))
        case FirstPlayerDrawn():
            return state
        case GameEnded():
            return replace(state, current=None, phase="over")
    return state


# -- who is awaited, and what they may send ----------------------------------------------


def awaited(state: State) -> list[Awaited]:
    if state.current is None or state.phase not in ("action", "draw", "place"):
        return []
    bonus_only = state.phase == "action" and bonus_required(state, state.current)
    return [Awaited(seat=state.current, reason="bonus" if bonus_only else state.phase)]


def moves(state: State, seat: Seat, picks: tuple[Pick, ...]) -> Step:
    if seat != state.current:
        return NO_MOVE
    phase, hand = state.phase, state.hands[seat]
    bonus_only = phase == "action" and bonus_required(state, seat)
    may_draw = phase in ("action", "draw") and not bonus_only
    return menu(
        picks,
        {
            "TakeBonus": pick_one(
                "card",
                "card",
                state.bonus_row if phase == "action" and bonus_allowed(state, seat) else (),
                lambda card: TakeBonus(card=card),
            ),
            "DrawFromDeck": send(DrawFromDeck() if may_draw and state.deck else None),
            "DrawFromCentre": pick_one(
                "card", "card", state.centre if may_draw else (), lambda card: DrawFromCentre(card=card)
            ),
            "PlaceCards": (lambda chosen: _place(hand, chosen)) if phase == "place" else send(None),
        },
    )


def _place(hand: tuple[str, ...], chosen: Chosen) -> Step:
    """A card of the hand for the centre, then another for the personal area."""
    centre = chosen.one("centre")
    if centre is None:
        return Step(tuple(offer("centre", "card", hand)))
    personal = chosen.one("personal")
    if personal is not None:
        return Step(command=PlaceCards(centre=centre, personal=personal))
    others = [c for c in hand if c != centre]
    return Step(tuple(offer("personal", "card", others, lambda card: PlaceCards(centre=centre, personal=card))))


# -- decide ------------------------------------------------------------------------------


def decide(state: State, command: Command, seat: Seat, ctx: Ctx) -> list[Event]:
    if state.phase == "over":
        raise Rejected("game_over", "This game is over.")
    if state.current is None or state.phase not in ("action", "draw", "place"):
        raise Rejected("game_not_started", NOT_STARTED)
    match command:
        case DrawFromDeck():
            _check_may_draw(state, seat)
            if not state.deck:
                raise Rejected("deck_empty", "The deck is empty; draw from the centre.")
            return [CardDrawn(seat=seat, source="deck", card=state.deck[0])]
        case DrawFromCentre(card=card):
            _check_may_draw(state, seat)
            if not state.centre:
                raise Rejected("centre_empty", "There are no cards in the centre; draw from the deck.")
            if card not in state.centre:
                raise Rejected("not_in_centre", "That card is not in the centre.", {"field": "card"})
            return [CardDrawn(seat=seat, source="centre", card=card)]
        case PlaceCards(centre=to_centre, personal=to_personal):
            if state.phase == "action" and bonus_required(state, seat):
                raise Rejected(
                    "bonus_required", "You must take a bonus card this turn: you need one in every turn you have left."
                )
            if state.phase != "place":
                drawn = 1 if state.phase == "draw" else 0
                raise Rejected(
                    "draw_first", f"Draw two cards before you place cards (you have drawn {drawn}).", {"drawn": drawn}
                )
            if to_centre == to_personal:
                raise Rejected("same_card", "Place two different cards: one in the centre, one in your area.")
            for field, card in (("centre", to_centre), ("personal", to_personal)):
                if card not in state.hands[seat]:
                    raise Rejected("not_in_hand", "You can only place cards from your hand.", {"field": field})
            return _end_turn(state, seat, [CardsPlaced(seat=seat, centre=to_centre, personal=to_personal)])
        case TakeBonus(card=card):
            if state.phase != "action":
                raise Rejected("drawing_started", "You have started drawing; finish by drawing and placing cards.")
            if not bonus_allowed(state, seat):
                raise Rejected("bonus_limit", "You already have 3 bonus cards, the most a player may take.")
            if card not in state.bonus_row:
                raise Rejected("not_in_bonus_row", "That bonus card is not face up on the table.", {"field": "card"})
            events: list[Event] = [BonusTaken(seat=seat, card=card)]
            if state.bonus_deck:
                events.append(BonusRevealed(card=state.bonus_deck[0]))
            return _end_turn(state, seat, events)
    raise Rejected("unknown_command", "Vilar de Mouros does not know that command.")


def _check_may_draw(state: State, seat: Seat) -> None:
    if state.phase == "place":
        raise Rejected("already_drew", "You have drawn two cards; now place two cards.")
    if state.phase == "action" and bonus_required(state, seat):
        raise Rejected(
            "bonus_required", "You must take a bonus card this turn: you need one in every turn you have left."
        )


def _end_turn(state: State, seat: Seat, events: list[Event]) -> list[Event]:
    after = fold(evolve, state, events)
    following = next_seat(after, seat)
    if following is None:
        return [*events, GameEnded(scores=tuple(s.points for s in score(after)))]
    return [*events, TurnStarted(seat=following)]
