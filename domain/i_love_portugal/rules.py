"""Setup, decide, evolve, awaited and moves: the rules of setup and of a turn."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.cards import replaced, without
from domain.engine import NOT_STARTED, Awaited, Ctx, Pick, Rejected, Seat, Step, fold
from domain.i_love_portugal.cards import (
    AIRPORTS,
    BACKPACKS,
    CARDS,
    COLOURS,
    GREY,
    HAND_SIZE,
    NEIGHBOURS,
    ORANGE,
    PILE,
    PILE_KINDS,
    RATING,
    RATING_TOKENS,
    REGION,
    REGION_INDEX,
    REGIONS,
    hand_value,
)
from domain.i_love_portugal.commands import (
    BuyCard,
    BuyPhoto,
    ChooseColour,
    Command,
    EndTurnAndDraw,
    FlyTo,
    MoveTourist,
    PlaceTourist,
)
from domain.i_love_portugal.events import (
    CardBought,
    ColourChosen,
    DrawPileShuffled,
    Event,
    FinalScoresCounted,
    FirstPlayerCardGiven,
    HandDiscarded,
    HandDrawn,
    LastCubePlaced,
    NeutralCubesPlaced,
    PhotoBought,
    PhotosStopped,
    PlaneFlown,
    RatingPlaced,
    RatingTokensPlaced,
    TouristMoved,
    TouristPlaced,
    TurnPassedTo,
)
from domain.i_love_portugal.scoring import final_scores
from domain.i_love_portugal.state import (
    STILL_ROUNDS,
    State,
    can_afford,
    free_spaces,
    last_seat,
    order_from_first,
    pile_price,
    starting_regions,
)
from domain.moves import by_type, menu

MOVE_COST = 1  # "Each move between 2 circles always costs 1 EUR"

# -- setup -------------------------------------------------------------------------------


def setup(state: State, ctx: Ctx) -> list[Event]:
    """The 1st player card to a random seat, and the rating tokens shuffled onto the regions."""
    first = ctx.rng.randrange(state.players)
    tokens = list(RATING_TOKENS)
    ctx.rng.shuffle(tokens)
    ratings = tuple(
        RatingPlaced(region=region, token=token, price=RATING[token].price)
        for region, token in zip(REGIONS, tokens, strict=True)
    )
    return [FirstPlayerCardGiven(seat=first), RatingTokensPlaced(ratings=ratings)]


# -- evolve ------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    # Cases are tried in order: the most frequent facts of a game come first (a replay applies thousands).
    match event:
        case TouristMoved(seat=seat, to=to, cost=cost):
            tourists = replaced(state.tourists, seat, to)
            return replace(state, tourists=tourists, spent=state.spent + cost)
        case HandDrawn(seat=seat, cards=cards):
            drawn = cards or ()
            return replace(
                state,
                draw=replaced(state.draw, seat, without(state.draw[seat], *drawn)),
                hands=replaced(state.hands, seat, state.hands[seat] + drawn),
            )
        case TurnPassedTo(seat=seat):
            return replace(state, phase="turn", current=seat, spent=0, quiet=state.quiet + 1)
        case HandDiscarded(seat=seat, cards=cards):
            return replace(
                state,
                hands=replaced(state.hands, seat, without(state.hands[seat], *cards)),
                discards=replaced(state.discards, seat, state.discards[seat] + cards),
                spent=0,
            )
        case PlaneFlown(seat=seat, card=card, to=to):
            tourists = replaced(state.tourists, seat, to)
            return replace(
                state,
                tourists=tourists,
                hands=replaced(state.hands, seat, without(state.hands[seat], card)),
                discards=replaced(state.discards, seat, (*state.discards[seat], card)),
            )
        case DrawPileShuffled(seat=seat, order=order):
            pile = order or ()
            return replace(
                state,
                draw=replaced(state.draw, seat, pile),
                discards=replaced(state.discards, seat, without(state.discards[seat], *pile)),
                box=without(state.box, *pile),
            )
        case CardBought(seat=seat, pile=pile, card=card, price=price):
            index = PILE_KINDS.index(pile) if pile in PILE_KINDS else 0
            piles = replaced(state.piles, index, without(state.piles[index], card))
            discard = (*state.discards[seat], card)
            return replace(
                state, piles=piles, discards=replaced(state.discards, seat, discard), spent=state.spent + price
            )
        case PhotoBought(seat=seat, region=region, card=card, price=price):
            index = REGION_INDEX[region]
            cubes = replaced(state.cubes, index, (*state.cubes[index], seat))
            return replace(
                state,
                photo_pile=without(state.photo_pile, card),
                discards=replaced(state.discards, seat, (*state.discards[seat], card)),
                photos=replaced(state.photos, seat, (*state.photos[seat], card)),
                cubes=cubes,
                cubes_left=replaced(state.cubes_left, seat, state.cubes_left[seat] - 1),
                scores=replaced(state.scores, seat, state.scores[seat] + price),
                spent=state.spent + price,
                quiet=0,
            )
        case FirstPlayerCardGiven(seat=seat):
            return replace(state, first=seat, current=seat, phase="colour")
        case RatingTokensPlaced(ratings=ratings):
            return replace(state, ratings=tuple(r.token for r in ratings))
        case ColourChosen(seat=seat, colour=colour):
            colours = replaced(state.colours, seat, colour)
            state = replace(state, colours=colours)
            waiting = [s for s in order_from_first(state) if colours[s] is None]
            if waiting:
                return replace(state, current=waiting[0])
            return replace(state, phase="tourist", current=last_seat(state))
        case NeutralCubesPlaced(regions=regions):
            capacity = tuple(c - 1 if r in regions else c for r, c in zip(REGIONS, state.capacity, strict=True))
            return replace(state, neutral=regions, capacity=capacity)
        case TouristPlaced(seat=seat, region=region):
            tourists = replaced(state.tourists, seat, region)
            following = None if seat == state.first else (seat - 1) % state.players
            return replace(state, tourists=tourists, current=following)
        case LastCubePlaced():
            return replace(state, final_round=True)
        case FinalScoresCounted():
            return replace(state, phase="over", current=None)
    return state


# -- who is awaited, and what they may send ----------------------------------------------


def awaited(state: State) -> list[Awaited]:
    if state.current is None or state.phase not in ("colour", "tourist", "turn"):
        return []
    return [Awaited(seat=state.current, reason=state.phase)]


KINDS = {"colour": "colour", "region": "region", "pile": "pile", "to": "circle", "airport": "circle"}


def moves(state: State, seat: Seat, picks: tuple[Pick, ...]) -> Step:
    """Every command of this game has at most one field over a short list: built from the list."""
    return menu(picks, by_type(_commands(state, seat), KINDS))


def _commands(state: State, seat: Seat) -> list[Command]:
    if seat != state.current:
        return []
    if state.phase == "colour":
        return [ChooseColour(colour=c) for c in COLOURS if c not in state.colours]
    if state.phase == "tourist":
        return [PlaceTourist(region=r) for r in starting_regions(state)]
    if state.phase != "turn":
        return []
    commands: list[Command] = []
    for kind, pile in zip(PILE_KINDS, state.piles, strict=True):
        if pile and can_afford(state, seat, pile_price(state, kind)):
            commands.append(BuyCard(pile=kind))
    here = state.tourists[seat] or ""
    if can_afford(state, seat, MOVE_COST):
        commands += [MoveTourist(to=c) for c in NEIGHBOURS.get(here, ())]
    if _plane_in_hand(state, seat) is not None and _can_fly(state, seat):
        commands += [FlyTo(airport=a) for a in AIRPORTS if a != here]
    if _photo_problem(state, seat) is None:
        commands.append(BuyPhoto())
    commands.append(EndTurnAndDraw())
    return commands


# -- decide ------------------------------------------------------------------------------


def decide(state: State, command: Command, seat: Seat, ctx: Ctx) -> list[Event]:
    if state.phase == "over":
        raise Rejected("game_over", "This game is over.")
    if state.current is None or state.phase == "setup":
        raise Rejected("game_not_started", NOT_STARTED)
    match command:
        case ChooseColour(colour=colour):
            if state.phase != "colour":
                raise Rejected("colours_chosen", "Every player has chosen a colour already.")
            if colour not in COLOURS:
                raise Rejected(
                    "no_such_colour", f"The colours are {', '.join(COLOURS)}.", {"field": "colour", "colours": COLOURS}
                )
            if colour in state.colours:
                raise Rejected("colour_taken", "Another player has that colour.", {"field": "colour"})
            return _choose_colour(state, seat, colour, ctx)
        case PlaceTourist(region=region):
            if state.phase == "colour":
                raise Rejected("choose_colour_first", "Every player chooses a colour before tourists are placed.")
            if state.phase != "tourist":
                raise Rejected("tourists_placed", "Every tourist is on the board already.")
            if region not in REGION:
                raise Rejected("no_such_region", "There is no region of that name.", {"field": "region"})
            if REGION[region].colour in (GREY, ORANGE):
                raise Rejected(
                    "not_a_starting_region", "A tourist cannot start in a grey or orange region.", {"field": "region"}
                )
            if region in state.tourists:
                raise Rejected("region_occupied", "Another tourist already starts there.", {"field": "region"})
            events: list[Event] = [TouristPlaced(seat=seat, region=region)]
            if seat == state.first:
                events.append(TurnPassedTo(seat=seat))
            return events
    if state.phase != "turn":
        raise Rejected("setup_under_way", "The game is still being set up: choose a colour or place your tourist.")
    match command:
        case BuyCard(pile=pile):
            index = PILE_KINDS.index(pile)
            if not state.piles[index]:
                raise Rejected("pile_empty", f"There are no {PILE[pile].name} cards left on the board.", {"pile": pile})
            price = pile_price(state, pile)
            _check_pay(state, seat, price)
            return [CardBought(seat=seat, pile=pile, card=state.piles[index][0], price=price)]
        case MoveTourist(to=to):
            here = state.tourists[seat] or ""
            if to not in NEIGHBOURS:
                raise Rejected("no_such_circle", "There is no circle of that name on the map.", {"field": "to"})
            if to not in NEIGHBOURS.get(here, ()):
                raise Rejected("not_connected", "Your tourist moves one connection at a time.", {"field": "to"})
            _check_pay(state, seat, MOVE_COST)
            return [TouristMoved(seat=seat, origin=here, to=to, cost=MOVE_COST)]
        case FlyTo(airport=airport):
            here = state.tourists[seat] or ""
            if airport not in AIRPORTS:
                raise Rejected(
                    "not_an_airport", "A Plane card flies only to a circle with an airport.", {"field": "airport"}
                )
            if airport == here:
                raise Rejected("already_there", "Your tourist is already at that airport.", {"field": "airport"})
            plane = _plane_in_hand(state, seat)
            if plane is None:
                raise Rejected("no_plane", "You have no Plane card in your hand.")
            if not _can_fly(state, seat):
                raise Rejected(
                    "cannot_pay",
                    "Without that Plane card your hand could not pay for this turn.",
                    {"cost": state.spent, "paying": "plane"},
                )
            return [PlaneFlown(seat=seat, card=plane, origin=here, to=airport)]
        case BuyPhoto():
            problem = _photo_problem(state, seat, check_money=False)
            if problem is not None:
                raise Rejected(*problem)
            region = state.tourists[seat] or ""
            price = RATING[state.ratings[REGION_INDEX[region]]].price
            _check_pay(state, seat, price)
            card = next(c for c in state.photo_pile if CARDS[c].region == region)
            events = [PhotoBought(seat=seat, region=region, card=card, price=price)]
            if state.cubes_left[seat] == 1:
                events.append(LastCubePlaced(seat=seat))
                if seat == last_seat(state):  # the round is over at once
                    return _end_turn(state, seat, events, game_ends=True)
            return events
        case EndTurnAndDraw():
            if seat == last_seat(state) and not state.final_round and still(state):
                return _end_turn(state, seat, [PhotosStopped(rounds=STILL_ROUNDS)], game_ends=True)
            return _end_turn(state, seat, [], game_ends=state.final_round and seat == last_seat(state), ctx=ctx)
    raise Rejected("unknown_command", "I Love Portugal does not know that command.")


def _choose_colour(state: State, seat: Seat, colour: str, ctx: Ctx) -> list[Event]:
    pile = list(BACKPACKS[colour])
    ctx.rng.shuffle(pile)
    events: list[Event] = [
        ColourChosen(seat=seat, colour=colour),
        DrawPileShuffled(seat=seat, count=len(pile), order=tuple(pile)),
        HandDrawn(seat=seat, count=HAND_SIZE, cards=tuple(pile[:HAND_SIZE])),
    ]
    colours = {*(c for c in state.colours if c is not None), colour}
    if state.players == 2 and len(colours) == 2:
        full = colours | {GREY, ORANGE}
        events.append(NeutralCubesPlaced(regions=tuple(r for r in REGIONS if REGION[r].colour not in full)))
    return events


def _check_pay(state: State, seat: Seat, cost: int) -> None:
    if not can_afford(state, seat, cost):
        raise Rejected(
            "cannot_pay",
            f"Your hand cannot pay for that: this turn would cost {state.spent + cost} EUR.",
            {"cost": state.spent + cost, "paying": "turn"},
        )


def _plane_in_hand(state: State, seat: Seat) -> str | None:
    return next((c for c in sorted(state.hands[seat]) if CARDS[c].kind == "plane"), None)


def _can_fly(state: State, seat: Seat) -> bool:
    """Playing a Plane for its ability takes its 3 EUR out of the hand."""
    plane = _plane_in_hand(state, seat)
    rest = [c for c in state.hands[seat] if c != plane]
    return state.spent <= hand_value(rest)


def _photo_problem(state: State, seat: Seat, check_money: bool = True) -> tuple[str, str, dict[str, Any]] | None:
    """Why this seat cannot buy a photo here and now, or None."""
    region = state.tourists[seat] or ""
    if region not in REGION:
        return ("not_on_black_circle", "Photos are bought on a region's black circle only.", {})
    index = REGION_INDEX[region]
    if seat in state.cubes[index]:
        return ("photo_already_bought", "You already have this region's photo: one photo per region.", {})
    if state.cubes_left[seat] == 0:
        return ("no_cubes_left", "You have no cubes left to place.", {})
    if free_spaces(state, index) <= 0:
        return ("region_full", "Every space of this region holds a cube: no more photos here.", {})
    price = RATING[state.ratings[index]].price
    if check_money and not can_afford(state, seat, price):
        return ("cannot_pay", "Your hand cannot pay for that photo.", {"cost": state.spent + price, "paying": "photo"})
    return None


def still(state: State) -> bool:
    """Whether the turn under way ends ``STILL_ROUNDS`` whole rounds with no photo bought."""
    return state.quiet >= STILL_ROUNDS * state.players


def _end_turn(state: State, seat: Seat, events: list[Event], game_ends: bool, ctx: Ctx | None = None) -> list[Event]:
    """Pay with no change, lay the whole hand on the discard pile, then draw 5 or end the game."""
    after = fold(evolve, state, events)
    events = [*events, HandDiscarded(seat=seat, paid=after.spent, cards=after.hands[seat])]
    after = fold(evolve, after, events[-1:])
    if game_ends:
        return [*events, FinalScoresCounted(scores=tuple(s.points for s in final_scores(after)))]
    assert ctx is not None
    pile = after.draw[seat]
    if len(pile) >= HAND_SIZE:
        events.append(HandDrawn(seat=seat, count=HAND_SIZE, cards=pile[:HAND_SIZE]))
    else:
        if pile:
            events.append(HandDrawn(seat=seat, count=len(pile), cards=pile))
        fresh = list(after.discards[seat])
        ctx.rng.shuffle(fresh)
        rest = tuple(fresh[: HAND_SIZE - len(pile)])
        events.append(DrawPileShuffled(seat=seat, count=len(fresh), order=tuple(fresh)))
        if rest:
            events.append(HandDrawn(seat=seat, count=len(rest), cards=rest))
    following = order_from_first(after)[(order_from_first(after).index(seat) + 1) % state.players]
    events.append(TurnPassedTo(seat=following))
    return events
