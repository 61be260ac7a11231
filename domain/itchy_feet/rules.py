"""Setup, decide, evolve, awaited and deadlines: the rules of a turn (the moves are built in moves.py).

decide builds its facts in a ``Batch`` that folds each one as it is added, so later checks see
the cards where they are now (a fourth postcard wins the moment it lands, in or out of turn;
facts that happen at once, the cards passed by Pass the Souvenir, are checked together).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from msgspec.structs import replace

from domain.cards import replaced, without
from domain.engine import CLOCK, NOT_STARTED, Awaited, Ctx, Deadline, Rejected, Seat
from domain.itchy_feet.cards import (
    CARD_FILE,
    CARDS,
    CHARACTERS,
    COUNTRIES,
    EXPANSION_TYPES,
    distance_km,
    effect,
    of_type,
)
from domain.itchy_feet.commands import (
    AcceptTrade,
    Action,
    CloseWindow,
    Command,
    DiscardDownToSeven,
    DitchForbidden,
    Draw,
    OfferTrade,
    PassReaction,
    PlayMousetrap,
    PlaySpecial,
    Recycle,
    RejectTrade,
    Smuggle,
    Steal,
    Travel,
)
from domain.itchy_feet.events import (
    ActionDeclared,
    CardPassed,
    CardsDiscarded,
    CardStolen,
    CardTakenFromDiscard,
    CharactersDealt,
    CountriesDealt,
    CountryReplaced,
    DiscardPileReshuffled,
    Event,
    EventCardDrawn,
    FirstTravellerChosen,
    ForbiddenHandedOver,
    ItchyCardDrawn,
    ItchyDeckShuffled,
    MousetrapSprung,
    PassportReceived,
    ReactionPassed,
    ReactionWindowClosed,
    SpecialPlayed,
    StartingHandDealt,
    TradeAccepted,
    TradeCompleted,
    TradeOffered,
    TradeRejected,
    Travelled,
    TravelTurnBegan,
    TripWon,
    TurnEnded,
    TurnPassed,
)
from domain.itchy_feet.memory import remember
from domain.itchy_feet.state import (
    Options,
    State,
    Trade,
    Window,
    card_type,
    destination,
    hand_limit,
    next_seat,
    over_limit,
    power,
    window_id,
)

PASSPORTS = tuple(of_type("passport"))
MAX_DRAW_TRIES = 24  # events drawn in a row before a draw gives up (see Rulings: endless events)

# -- setup -------------------------------------------------------------------------------


def in_play(state: State) -> list[str]:
    """Every card of this game's deck: the objects and the chosen expansions."""
    return list(_in_play(state.options))


@functools.lru_cache(maxsize=64)
def _in_play(options: Options) -> tuple[str, ...]:
    cards = of_type("object")
    for option, kind in EXPANSION_TYPES.items():
        if getattr(options, option):
            cards += of_type(kind)
    return tuple(cards)


def setup(state: State, ctx: Ctx) -> list[Event]:
    players = state.players
    batch = Batch(state, ctx)
    if state.options.characters:
        characters = sorted(CHARACTERS)
        ctx.rng.shuffle(characters)
        batch.add(CharactersDealt(characters=tuple(characters[:players])))
    passports = list(PASSPORTS)
    ctx.rng.shuffle(passports)
    for seat in range(players):
        batch.add(PassportReceived(seat=seat, card=passports[seat]))
    countries = sorted(COUNTRIES)
    ctx.rng.shuffle(countries)
    own, centre = tuple(countries[:players]), countries[players]
    batch.add(CountriesDealt(own=own, centre=centre))
    deck = of_type("object")
    ctx.rng.shuffle(deck)
    batch.add(ItchyDeckShuffled(count=len(deck), order=tuple(deck)))
    n = CARD_FILE.start_hand
    for seat in range(players):
        batch.add(StartingHandDealt(seat=seat, count=n, cards=tuple(deck[seat * n : (seat + 1) * n])))
    extra = [c for c in in_play(state) if card_type(c) != "object"]
    if extra:
        rest = [*deck[players * n :], *extra]
        ctx.rng.shuffle(rest)
        batch.add(ItchyDeckShuffled(count=len(rest), order=tuple(rest)))
    distances = [distance_km(country, centre) for country in own]
    first = min(range(players), key=lambda seat: (distances[seat], seat))
    batch.add(FirstTravellerChosen(seat=first, distances_km=tuple(round(d) for d in distances)))
    batch.begin_turn(first)
    return batch.events


# -- evolve ------------------------------------------------------------------------------


def _move(state: State, giver: int, receiver: int, cards: tuple[str, ...]) -> State:
    hands = replaced(state.hands, giver, without(state.hands[giver], *cards))
    return replace(state, hands=replaced(hands, receiver, hands[receiver] + cards))


def _to_discard(state: State, seat: int, cards: tuple[str, ...]) -> State:
    hands = replaced(state.hands, seat, without(state.hands[seat], *cards))
    return replace(state, hands=hands, discard=state.discard + cards)


def evolve(state: State, event: Event) -> State:
    """``state`` once ``event`` happened, each viewer's memory of the hands with it (memory.py)."""
    return remember(_evolve(state, event), event)


def _evolve(state: State, event: Event) -> State:
    # Cases are tried in order: the most frequent facts of a game come first (a replay applies thousands).
    match event:
        case TravelTurnBegan(seat=seat):
            return replace(state, current=seat, phase="action", rejected_offers=0, trade=None, window=None)
        case TurnEnded() | TurnPassed():
            return replace(state, phase="end", trade=None, window=None)
        case ItchyCardDrawn(seat=seat, card=card):
            drawn = card if card is not None else state.deck[0]
            hands = replaced(state.hands, seat, (*state.hands[seat], drawn))
            return replace(state, deck=without(state.deck, drawn), hands=hands)
        case CardsDiscarded(seat=seat, cards=cards):
            return _to_discard(state, seat, cards)
        case CardStolen(thief=thief, victim=victim, card=card):
            return _move(state, victim, thief, (card or "",))
        case TradeOffered(window=window, offerer=offerer, target=target, give=give, ask=ask, opened_at_ms=at):
            trade = Trade(window=window, offerer=offerer, target=target, give=give, ask=ask, opened_at_ms=at)
            return replace(state, trade=trade, windows_opened=state.windows_opened + 1)
        case TradeRejected():
            return replace(state, trade=None, rejected_offers=state.rejected_offers + 1)
        case ItchyDeckShuffled(order=order):
            return replace(state, deck=order or ())
        case DiscardPileReshuffled(order=order):
            return replace(state, deck=order or (), discard=(), reshuffled=tuple(sorted(state.discard)))
        case CharactersDealt(characters=characters):
            return replace(state, characters=characters)
        case PassportReceived(seat=seat, card=card):
            hands = replaced(state.hands, seat, (*state.hands[seat], card or ""))
            held = {c for hand in hands for c in hand}
            return replace(state, hands=hands, passports_aside=tuple(p for p in PASSPORTS if p not in held))
        case CountriesDealt(own=own, centre=centre):
            aside = tuple(sorted(set(COUNTRIES) - {*own, centre}))
            return replace(state, own=tuple[str | None, ...](own), centre=centre, aside=aside)
        case StartingHandDealt(seat=seat, cards=cards):
            dealt = cards or ()
            return replace(
                state, deck=without(state.deck, *dealt), hands=replaced(state.hands, seat, state.hands[seat] + dealt)
            )
        case EventCardDrawn(card=card):
            return replace(state, deck=without(state.deck, card), discard=(*state.discard, card))
        case CardTakenFromDiscard(seat=seat, card=card):
            hands = replaced(state.hands, seat, (*state.hands[seat], card))
            return replace(state, discard=without(state.discard, card), hands=hands)
        case ActionDeclared(window=window, seat=seat, action=action, opened_at_ms=at):
            waiting = tuple(s for s in range(state.players) if s != seat)
            opened = Window(window=window, seat=seat, action=action, opened_at_ms=at, waiting=waiting)
            return replace(state, window=opened, windows_opened=state.windows_opened + 1)
        case ReactionPassed(seat=seat):
            if state.window is None:
                return state
            waiting = tuple(s for s in state.window.waiting if s != seat)
            return replace(state, window=replace(state.window, waiting=waiting))
        case MousetrapSprung(seat=seat, card=card):
            return replace(_to_discard(state, seat, (card,)), window=None, trade=None)
        case ReactionWindowClosed():
            return replace(state, window=None)
        case TradeAccepted():
            return replace(state, trade=replace(state.trade, accepted=True)) if state.trade else state
        case TradeCompleted(offerer=offerer, target=target, given=given, received=received):
            state = _move(_move(state, offerer, target, given), target, offerer, received)
            return replace(state, trade=None)
        case CardPassed(giver=giver, receiver=receiver, card=card):
            return _move(state, giver, receiver, (card or "",))
        case ForbiddenHandedOver(giver=giver, receiver=receiver, card=card):
            return _move(state, giver, receiver, (card,))
        case Travelled(seat=seat, country=country, used=used):
            state = _to_discard(state, seat, used)
            gone: tuple[str | None, ...] = tuple(
                None if s == seat and c == country else c for s, c in enumerate(state.own)
            )
            travelled = replaced(state.travelled, seat, (*state.travelled[seat], country))
            return replace(state, own=gone, travelled=travelled)
        case SpecialPlayed(seat=seat, card=card):
            return _to_discard(state, seat, (card,))
        case CountryReplaced(seat=seat, old=old, new=new):
            aside = tuple(sorted({*state.aside, old} - {new}))
            if seat is None:
                return replace(state, centre=new, aside=aside)
            return replace(state, own=tuple(new if s == seat else c for s, c in enumerate(state.own)), aside=aside)
        case TripWon(seat=seat, how=how):
            return replace(state, phase="over", winner=seat, won_by=how, trade=None, window=None)
        case FirstTravellerChosen():
            return state
    return state


# -- the batch of facts one command causes ------------------------------------------------


class Batch:
    """Facts added one by one, each folded at once; nothing is added once someone has won."""

    def __init__(self, state: State, ctx: Ctx) -> None:
        self.state = state
        self.ctx = ctx
        self.events: list[Event] = []

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def add(self, event: Event) -> None:
        self.add_together((event,))

    def add_together(self, events: Iterable[Event]) -> None:
        """Facts that happen at once: all folded, then the postcards counted once."""
        if self.over:
            return
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
        if self.state.options.postcards:
            self._postcards()

    def _postcards(self) -> None:
        """Four postcards win at once, in or out of turn (the current seat first, then clockwise)."""
        state = self.state
        start = state.current or 0
        for step in range(state.players):
            seat = (start + step) % state.players
            if sum(1 for c in state.hands[seat] if card_type(c) == "postcard") >= CARD_FILE.postcards_to_win:
                self.add(TripWon(seat=seat, how="postcards"))
                return

    def reshuffle(self) -> None:
        order = list(self.state.discard)
        self.ctx.rng.shuffle(order)
        self.add(DiscardPileReshuffled(count=len(order), order=tuple(order)))

    def after_take(self) -> None:
        """The last card of the deck is gone: the discard pile becomes the new deck at once."""
        if not self.over and not self.state.deck and self.state.discard:
            self.reshuffle()

    def draw(self, seat: int, reason: str, nested: bool = False) -> None:
        """One card from the deck into a hand; events drawn on the way are resolved and replaced."""
        for _ in range(MAX_DRAW_TRIES):
            state = self.state
            if self.over:
                return
            if not state.deck:
                if not state.discard:
                    return  # nothing left to draw anywhere
                self.reshuffle()
                continue
            card = state.deck[0]
            if card_type(card) == "event":
                if all(card_type(c) == "event" for c in (*state.deck, *state.discard)):
                    return
                self.add(EventCardDrawn(seat=seat, card=card, nested=nested))
                if not nested:
                    self.resolve_event(seat, card)
                self.after_take()
                continue
            self.add(ItchyCardDrawn(seat=seat, reason=reason, card=card))  # type: ignore[arg-type]
            self.after_take()
            return

    def resolve_event(self, drawer: int, card: str) -> None:
        players = self.state.players
        order = [(drawer + step) % players for step in range(players)]
        rng = self.ctx.rng
        match effect(card):
            case "duty_free":
                for seat in order:
                    self.draw(seat, "event", nested=True)
            case "lost_luggage":
                for seat in order:
                    hand = self.state.hands[seat]
                    if hand:
                        lost = hand[rng.randrange(len(hand))]
                        self.add(CardsDiscarded(seat=seat, cards=(lost,), reason="lost_luggage"))
            case "new_destination":
                state = self.state
                if state.aside and state.centre is not None:
                    new = state.aside[rng.randrange(len(state.aside))]
                    self.add(CountryReplaced(seat=None, old=state.centre, new=new))
            case "pass_left":  # all at once: every card is picked, then they all pass, then postcards count
                hands = self.state.hands
                picks = [(seat, hands[seat][rng.randrange(len(hands[seat]))]) for seat in order if hands[seat]]
                self.add_together(
                    CardPassed(giver=seat, receiver=next_seat(self.state, seat), card=picked) for seat, picked in picks
                )

    def begin_turn(self, seat: int) -> None:
        self.add(TravelTurnBegan(seat=seat))
        if not self.over and not self.state.hands[seat]:
            for _ in range(CARD_FILE.empty_hand_draw):
                self.draw(seat, "empty_hand")
        self.pass_if_stuck()

    def pass_if_stuck(self) -> None:
        """Rulings, "never without an action": a player awaited for an action who has none passes
        the turn, an automatic fact. Counting the cards shows that no game gets there; the guard
        stops a made-up position where nobody can act from passing round the table for ever."""
        state = self.state
        seat = state.current
        if self.over or seat is None or awaited(state) != [Awaited(seat=seat, reason="action")]:
            return
        if can_act(state, seat) or sum(isinstance(e, TurnPassed) for e in self.events) >= state.players:
            return
        self.add(TurnPassed(seat=seat))
        self.next_turn_if_ready()

    def end_turn(self, seat: int) -> None:
        self.add(TurnEnded(seat=seat))
        self.next_turn_if_ready()

    def next_turn_if_ready(self) -> None:
        state = self.state
        if not self.over and state.phase == "end" and not over_limit(state) and state.current is not None:
            self.begin_turn(next_seat(state, state.current))


# -- who is awaited, and what they may send ------------------------------------------------


def awaited(state: State) -> list[Awaited]:
    if state.phase in ("setup", "over"):
        return []
    over = over_limit(state)
    if over:
        return [Awaited(seat=seat, reason="discard") for seat in over]
    if state.window is not None:
        return [Awaited(seat=seat, reason="react") for seat in state.window.waiting]
    if state.trade is not None and not state.trade.accepted:
        return [Awaited(seat=state.trade.target, reason="trade_answer")]
    if state.phase == "action" and state.current is not None:
        return [Awaited(seat=state.current, reason="action")]
    return []


def deadlines(state: State) -> list[Deadline]:
    """The open windows that close by themselves: a trade offer, a reaction window."""
    out: list[Deadline] = []
    if state.phase == "over":
        return out
    if state.trade is not None and not state.trade.accepted:
        due = state.trade.opened_at_ms + state.options.trade_answer_ms
        out.append(Deadline(window=state.trade.window, due_ms=due, command=CloseWindow(window=state.trade.window)))
    if state.window is not None:
        due = state.window.opened_at_ms + state.options.reaction_ms
        out.append(Deadline(window=state.window.window, due_ms=due, command=CloseWindow(window=state.window.window)))
    return out


@functools.lru_cache(maxsize=64)
def kinds_in_play(options: Options) -> tuple[str, ...]:
    """Every kind a trade may ask for in a game with these options (never an event), passports first."""
    cards = [*PASSPORTS, *_in_play(options)]
    return tuple(dict.fromkeys(CARDS[c].kind for c in cards if card_type(c) != "event"))


def matching(hand: tuple[str, ...], ask: tuple[str, ...]) -> tuple[str, ...] | None:
    """Cards of the asked kinds from this hand (first ones in hand order), or None if lacking."""
    chosen: list[str] = []
    for kind in ask:
        card = next((c for c in hand if CARDS[c].kind == kind and c not in chosen), None)
        if card is None:
            return None
        chosen.append(card)
    return tuple(chosen)


def travel_cards(state: State, seat: int, country: str) -> tuple[str, ...] | str:
    """The cards a travel discards (objects, and a stand-in if used), or the code of what is missing."""
    hand = state.hands[seat]
    if any(card_type(c) == "forbidden" for c in hand):
        return "forbidden_in_hand"
    used: list[str] = []
    missing = 0
    for kind in COUNTRIES[country].requires:
        card = next((c for c in hand if CARDS[c].kind == kind and c not in used), None)
        if card is None:
            missing += 1
        else:
            used.append(card)
    wild = [c for c in hand if card_type(c) == "special" and effect(c) == "wild_object"]
    if missing > len(wild):
        return "missing_objects"
    used += wild[:missing]
    if not any(card_type(c) == "passport" for c in hand):
        visa = [c for c in hand if card_type(c) == "special" and effect(c) == "visa"]
        if not visa:
            return "no_passport"
        used.append(visa[0])
    return tuple(used)


# -- what an action needs: decide checks these, the moves offer them, ``can_act`` sums them up --


def recycle_cost(state: State, seat: int) -> int:
    return 1 if power(state, seat) == "bargain_hunter" else 2


def payable(state: State, seat: int) -> list[str]:
    """The cards of this hand that may pay a cost or be a hand-limit discard: not forbidden objects."""
    return [c for c in state.hands[seat] if card_type(c) != "forbidden"]


def takeable(state: State) -> list[str]:
    """The cards of the discard pile a player may take: not events."""
    return [c for c in state.discard if card_type(c) != "event"]


def offers_left(state: State) -> bool:
    return state.rejected_offers < CARD_FILE.max_rejected_offers


def ask_limit(state: State, target: int) -> int:
    """The most cards an offer may ask of ``target``: more than any hand of it can hold is refused."""
    return hand_limit(state, target) + 1


def others(state: State, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def steal_targets(state: State, seat: int) -> list[int]:
    """The players this seat may steal from now: others with cards, if it can pay (the Pickpocket needs not)."""
    if power(state, seat) != "thief" and not payable(state, seat):
        return []
    return [s for s in others(state, seat) if state.hands[s]]


def may_travel(state: State, seat: int) -> bool:
    country = destination(state, seat)
    return country is not None and isinstance(travel_cards(state, seat, country), tuple)


def may_ditch(state: State, seat: int) -> bool:
    hand = state.hands[seat]
    return any(card_type(c) == "forbidden" for c in hand) and bool(payable(state, seat))


def smuggled(state: State, seat: int) -> list[str]:
    """The forbidden objects the Smuggler may hand over (none for anyone else)."""
    if power(state, seat) != "smuggler":
        return []
    return [c for c in state.hands[seat] if card_type(c) == "forbidden"]


def playable_specials(state: State, seat: int) -> list[str]:
    """The special objects of this hand that may be played now as an action (or, the Phrasebook, before one)."""
    out = []
    for card in state.hands[seat]:
        if card_type(card) != "special":
            continue
        match effect(card):
            case "draw_two" | "draw_one_free":
                out.append(card)
            case "new_country" if state.own[seat] is not None and state.aside:
                out.append(card)
            case "swap_draw" if any(c != card for c in payable(state, seat)):
                out.append(card)
            case "take_from_discard" if takeable(state):
                out.append(card)
    return out


def can_act(state: State, seat: int) -> bool:
    """Whether this seat has any action at all now (Rulings: a player who has none passes the turn)."""
    return bool(
        state.deck
        or state.discard  # Draw
        or (offers_left(state) and state.hands[seat])  # OfferTrade
        or steal_targets(state, seat)
        or may_travel(state, seat)
        or may_ditch(state, seat)
        or smuggled(state, seat)
        or playable_specials(state, seat)
    )  # Recycle needs a card in the discard pile: covered by Draw


# -- decide ------------------------------------------------------------------------------

REASONS: dict[type, str] = {
    DiscardDownToSeven: "discard",
    PassReaction: "react",
    PlayMousetrap: "react",
    AcceptTrade: "trade_answer",
    RejectTrade: "trade_answer",
}
WHAT = {
    "discard": "discard down to your hand limit",
    "react": "play a Mousetrap or pass",
    "trade_answer": "accept or reject the trade offer",
    "action": "take your action",
}


def decide(state: State, command: Command, seat: Seat, ctx: Ctx) -> list[Event]:
    if state.phase == "over":
        raise Rejected("game_over", "This game is over.")
    if state.phase == "setup":
        raise Rejected("game_not_started", NOT_STARTED)
    if isinstance(command, CloseWindow):
        return _close_window(state, command, seat, ctx)
    if seat == CLOCK:
        raise Rejected("clock_closes_windows_only", "The table clock only closes windows whose time is up.")
    reasons = {a.reason for a in awaited(state) if a.seat == seat}  # not empty: the table's guard saw to it
    reason = REASONS.get(type(command), "action")
    if reason not in reasons:
        wanted = sorted(reasons)[0]
        raise Rejected("not_now", f"Now you must {WHAT[wanted]}.", {"awaited": wanted})
    batch = Batch(state, ctx)
    match command:
        case DiscardDownToSeven(card=card):
            _check_in_hand(state, seat, (card,))
            if card_type(card) == "forbidden":
                raise Rejected("forbidden_discard", "A forbidden object cannot be a hand-limit discard.")
            batch.add(CardsDiscarded(seat=seat, cards=(card,), reason="hand_limit"))
            batch.next_turn_if_ready()
        case PassReaction():
            window = _window(state)
            batch.add(ReactionPassed(window=window.window, seat=seat))
            if batch.state.window is not None and not batch.state.window.waiting:
                batch.add(ReactionWindowClosed(window=window.window))
                _resolve(batch, window.seat, window.action)
        case PlayMousetrap(card=card):
            window = _window(state)
            _check_in_hand(state, seat, (card,))
            if card_type(card) != "special" or effect(card) != "mousetrap":
                raise Rejected("not_a_mousetrap", "Only a Mousetrap interrupts another player's action.")
            batch.add(MousetrapSprung(window=window.window, seat=seat, card=card, interrupted=window.seat))
            batch.end_turn(window.seat)
        case AcceptTrade():
            trade = _trade(state)
            if matching(state.hands[seat], trade.ask) is None:
                raise Rejected("lacks_cards", "You do not hold cards of every kind asked for; you can only reject.")
            batch.add(TradeAccepted(window=trade.window))
            _declare(batch, trade.offerer, OfferTrade(target=trade.target, give=trade.give, ask=trade.ask))
        case RejectTrade():
            batch.add(TradeRejected(window=_trade(state).window))
        case _:
            _check_action(state, command, seat)
            if isinstance(command, OfferTrade):
                batch.add(
                    TradeOffered(
                        window=window_id(state, "trade"),
                        offerer=seat,
                        target=command.target,
                        give=command.give,
                        ask=command.ask,
                        opened_at_ms=ctx.now_ms,
                    )
                )
            elif isinstance(command, PlaySpecial) and effect(command.card) == "draw_one_free":
                batch.add(SpecialPlayed(seat=seat, card=command.card))
                batch.draw(seat, "special")
            else:
                _declare(batch, seat, command)
    batch.pass_if_stuck()
    return batch.events


def _window(state: State) -> Window:
    assert state.window is not None  # awaited says "react" only while a window is open
    return state.window


def _trade(state: State) -> Trade:
    assert state.trade is not None  # awaited says "trade_answer" only while an offer is open
    return state.trade


def _close_window(state: State, command: CloseWindow, seat: Seat, ctx: Ctx) -> list[Event]:
    if seat != CLOCK:
        raise Rejected("clock_only", "Only the table clock closes a window, once its time is up.")
    due = {d.window: d.due_ms for d in deadlines(state)}
    if command.window not in due:
        raise Rejected("window_closed", "That window is no longer open.", {"window": command.window})
    if ctx.now_ms < due[command.window]:
        raise Rejected("too_early", "That window's time is not up yet.", {"due_ms": due[command.window]})
    batch = Batch(state, ctx)
    if state.window is not None and state.window.window == command.window:
        batch.add(ReactionWindowClosed(window=command.window, timed_out=True))
        _resolve(batch, state.window.seat, state.window.action)
    else:
        batch.add(TradeRejected(window=command.window, timed_out=True))
    batch.pass_if_stuck()
    return batch.events


def _declare(batch: Batch, seat: int, action: Action) -> None:
    """With special objects the action waits in a reaction window; otherwise it happens now."""
    state = batch.state
    if state.options.special_objects:
        window = window_id(state, "react")
        batch.add(ActionDeclared(window=window, seat=seat, action=action, opened_at_ms=batch.ctx.now_ms))
    else:
        _resolve(batch, seat, action)


def _resolve(batch: Batch, seat: int, action: Action) -> None:
    state = batch.state
    rng = batch.ctx.rng
    match action:
        case Draw():
            batch.draw(seat, "draw")
        case Recycle(pay=pay, take=take):
            batch.add(CardsDiscarded(seat=seat, cards=pay, reason="recycle"))
            batch.add(CardTakenFromDiscard(seat=seat, card=take))
        case OfferTrade(target=target, give=give, ask=ask):
            received = matching(state.hands[target], ask) or ()
            batch.add(TradeCompleted(offerer=seat, target=target, given=give, received=received))
            for _ in range(2 if power(batch.state, seat) == "diplomat" else 1):
                batch.draw(seat, "bonus")
        case Steal(target=target, pay=pay):
            if pay is not None:
                batch.add(CardsDiscarded(seat=seat, cards=(pay,), reason="steal"))
            hand = batch.state.hands[target]
            if hand:
                batch.add(CardStolen(thief=seat, victim=target, card=hand[rng.randrange(len(hand))]))
        case Travel(country=country):
            used = travel_cards(state, seat, country)
            assert isinstance(used, tuple)  # checked when declared; hands do not change in a window
            centre = state.own[seat] is None
            batch.add(Travelled(seat=seat, country=country, hand=state.hands[seat], used=used))
            if centre:
                batch.add(TripWon(seat=seat, how="centre"))
                return
            for _ in range(2 if power(state, seat) == "globetrotter" else 1):
                batch.draw(seat, "travel")
        case DitchForbidden(forbidden=forbidden, other=other):
            batch.add(CardsDiscarded(seat=seat, cards=(forbidden, other), reason="ditch"))
        case Smuggle(card=card, target=target):
            batch.add(ForbiddenHandedOver(giver=seat, receiver=target, card=card))
        case PlaySpecial(card=card, cards=cards):
            batch.add(SpecialPlayed(seat=seat, card=card))
            match effect(card):
                case "draw_two":
                    batch.draw(seat, "special")
                    batch.draw(seat, "special")
                case "swap_draw":
                    batch.add(CardsDiscarded(seat=seat, cards=cards, reason="special"))
                    for _ in cards:
                        batch.draw(seat, "special")
                case "new_country":
                    aside, old = batch.state.aside, batch.state.own[seat]
                    if aside and old is not None:
                        batch.add(CountryReplaced(seat=seat, old=old, new=aside[rng.randrange(len(aside))]))
                case "take_from_discard":
                    for taken in cards:
                        batch.add(CardTakenFromDiscard(seat=seat, card=taken))
    batch.after_take()
    batch.end_turn(seat)


# -- checking an action --------------------------------------------------------------------


def _check_in_hand(state: State, seat: int, cards: tuple[str, ...]) -> None:
    if len(set(cards)) != len(cards):
        raise Rejected("same_card", "Name each card once.")
    hand = state.hands[seat]
    if any(c not in hand for c in cards):
        raise Rejected("not_in_hand", "You can only use cards from your hand.")


def _check_payable(state: State, seat: int, cards: tuple[str, ...]) -> None:
    _check_in_hand(state, seat, cards)
    if any(card_type(c) == "forbidden" for c in cards):
        raise Rejected("forbidden_cost", "A forbidden object cannot pay a cost.", {"paying": "cost"})


def _check_other_seat(state: State, seat: int, target: int) -> None:
    if not 0 <= target < state.players or target == seat:
        raise Rejected("bad_target", "Choose another player at this table.", {"field": "target"})


def _check_from_discard(state: State, cards: tuple[str, ...]) -> None:
    if len(set(cards)) != len(cards):
        raise Rejected("same_card", "Name each card once.")
    if any(c not in state.discard for c in cards):
        raise Rejected("not_in_discard", "That card is not in the discard pile.")
    if any(card_type(c) == "event" for c in cards):
        raise Rejected("events_not_recyclable", "Events cannot be taken from the discard pile.")


def _check_action(state: State, command: Command, seat: int) -> None:
    match command:
        case Draw():
            if not state.deck and not state.discard:
                raise Rejected("deck_empty", "The deck and the discard pile are both empty; choose another action.")
        case Recycle(pay=pay, take=take):
            cost = recycle_cost(state, seat)
            if len(pay) != cost:
                raise Rejected(
                    "recycle_cost",
                    f"Recycling costs {cost} {'card' if cost == 1 else 'cards'} from your hand.",
                    {"cost": cost},
                )
            _check_payable(state, seat, pay)
            _check_from_discard(state, (take,))
        case OfferTrade(target=target, give=give, ask=ask):
            most = CARD_FILE.max_rejected_offers
            if state.rejected_offers >= most:
                raise Rejected(
                    "too_many_offers", f"{most} offers were rejected this turn; choose another action.", {"most": most}
                )
            _check_other_seat(state, seat, target)
            if not give or not ask:
                raise Rejected("empty_trade", "A trade gives 1 or more cards and asks for 1 or more.")
            _check_in_hand(state, seat, give)
            if len(ask) > hand_limit(state, target) + 1:
                raise Rejected("ask_too_many", "That is more cards than any hand can hold.")
            if not set(ask) <= set(kinds_in_play(state.options)):
                raise Rejected("unknown_kind", "Ask for kinds of cards that are in this game.", {"field": "ask"})
        case Steal(target=target, pay=pay):
            _check_other_seat(state, seat, target)
            thief = power(state, seat) == "thief"
            if thief and pay is not None:
                raise Rejected(
                    "steal_cost", "The Pickpocket steals without paying: name no card.", {"pickpocket": True}
                )
            if not thief and pay is None:
                raise Rejected("steal_cost", "Stealing costs 1 card from your hand.", {"pickpocket": False})
            if pay is not None:
                _check_payable(state, seat, (pay,))
            if not state.hands[target]:
                raise Rejected("empty_hand", "That player has no cards to steal.")
        case Travel(country=country):
            if country != destination(state, seat):
                raise Rejected("wrong_country", "Travel to your own country first, then to the centre one.")
            used = travel_cards(state, seat, country)
            if used == "forbidden_in_hand":
                raise Rejected("forbidden_in_hand", "You cannot travel with a forbidden object in your hand.")
            if used == "missing_objects":
                raise Rejected("missing_objects", "You need the 3 objects that country requires.")
            if used == "no_passport":
                raise Rejected("no_passport", "You need a passport to travel.")
        case DitchForbidden(forbidden=forbidden, other=other):
            _check_in_hand(state, seat, (forbidden, other))
            if card_type(forbidden) != "forbidden":
                raise Rejected("not_forbidden", "That card is not a forbidden object.", {"smuggling": False})
            if card_type(other) == "forbidden":
                raise Rejected(
                    "forbidden_cost", "Get rid of a forbidden object with a card that is not one.", {"paying": "ditch"}
                )
        case Smuggle(card=card, target=target):
            if power(state, seat) != "smuggler":
                raise Rejected("not_the_smuggler", "Only the Smuggler hands cards over.")
            _check_other_seat(state, seat, target)
            _check_in_hand(state, seat, (card,))
            if card_type(card) != "forbidden":
                raise Rejected("not_forbidden", "The Smuggler hands over only forbidden objects.", {"smuggling": True})
        case PlaySpecial(card=card, cards=cards):
            _check_special(state, seat, card, cards)
        case _:
            raise Rejected("unknown_command", "Itchy Feet does not know that command.")


def _check_special(state: State, seat: int, card: str, cards: tuple[str, ...]) -> None:
    _check_in_hand(state, seat, (card,))
    if card_type(card) != "special":
        raise Rejected("not_special", "That card is not a special object.")
    kind = effect(card)
    if kind in ("mousetrap", "wild_object", "visa"):
        raise Rejected("not_playable", "That special object is not played as an action (see the card).")
    if kind in ("draw_two", "new_country", "draw_one_free") and cards:
        raise Rejected("bad_cards", "That special object names no other cards.", {"from": "none"})
    if kind == "new_country" and (state.own[seat] is None or not state.aside):
        raise Rejected("country_travelled", "You have already travelled to your own country.")
    if kind == "swap_draw":
        if not 1 <= len(cards) <= 3 or card in cards:
            raise Rejected("bad_cards", "Name 1 to 3 other cards of your hand to discard.", {"from": "hand"})
        _check_payable(state, seat, cards)
    if kind == "take_from_discard":
        if not 1 <= len(cards) <= 2:
            raise Rejected("bad_cards", "Name 1 or 2 cards of the discard pile.", {"from": "discard"})
        _check_from_discard(state, cards)
