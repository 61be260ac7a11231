"""What the bots are told of Itchy Feet (the contract: ``Strategy`` in domain/engine.py).

A seat stands by the trips it made (10 points each) and by how near its next trip is, as a
player who builds towards a trip sees it:

- ``TRIP``: a trip needs the next country's 3 objects and a passport, and its worth grows faster
  the nearer it is (convex): the third object with a passport (the trip can be made) adds more
  than the first two together, so greedy keeps what it has gathered and reaches for the last
  piece (a recycle of it from the discard pile, a steal that may bring it).
- ``HAND``: a hand counts up to the hand limit (7 cards) where hands compete for cards (fewer
  than 12 cards in play a seat: 3 to 6 seats of the base game), else up to 5 (a trip's 4 cards
  and one to pay with), each card more than the one before (convex too): a draw that grows a
  short hand beats a steal that leaves the thief's hand as large and only shortens another's,
  and a full backpack shields what it holds (a steal takes one card of seven). It weighs fully
  where cards are scarce (a full table: 38 cards for 6 hands, where 2 hands share 34) and half
  where they are plenty. Not weighed at 2 seats, hands there shrank to 2 to 4 cards once both
  seats raced for the centre's objects, each steal hit one, and a game ran 580 turns a seat
  (docs/bots.md). Counted up to 7, a seat with a full hand makes its own trip only once it holds
  the centre's objects too, then both trips on two turns running: the race for the centre's
  three objects is run with one's own trip still in hand, and a 6-seat table ends in about 45
  turns a seat, not 177 (with the hand counted up to 5 and a trip made as soon as it could be,
  the race began when every seat had travelled and ran for hundreds of turns). ``backpack``
  says where it is counted up to 5 instead: where cards are plenty (two searching bots took 129
  turns a seat at 2 seats with 7, 48 with 5), and for a seat whose own trip needs one of the
  centre's objects; and where up to 6: past the seat's own trip, where hands of 7 would hold
  nearly every card (5 and 6 seats: the deck stayed empty and a game ran to the cap).
- ``SPARE_SHARE``: a card that is not part of the trip buys its missing cards (a trade, a
  recycle's two, a steal's one), so it is worth a share of the trip's next step, two for each
  card the trip misses; beyond those, little (``LOOSE``).

Only the seat's own hand and the table are read (for every seat alike): the bots score imagined
worlds, never the real hidden hands.

The moves: ``proposals`` are the trades a traveller would offer (greedy judges each by the
target's answer in its imagined worlds); ``bounds`` keeps the deck, once shuffled from the
face-up discard pile, to those cards; ``RIVALRY`` 0 (a seat judges a move by its own progress)
and ``SAMPLES`` 6 (worlds a move is judged in).
"""

from __future__ import annotations

from domain.engine import Awaited, Place, Seat, Strategy
from domain.itchy_feet.cards import CARDS, COUNTRIES, HAND_LIMIT
from domain.itchy_feet.commands import OfferTrade
from domain.itchy_feet.rules import awaited, offers_left
from domain.itchy_feet.state import State, destination

TRIP_POINTS = 10.0  # a country travelled
# How near the next trip is, by (passport held, needed objects held); 9 once the trip can be
# made, so that travelling (10, and the next trip begun) beats waiting.
TRIP = {False: (0.0, 0.3, 1.0, 3.0), True: (0.3, 1.0, 3.0, 9.0)}
HAND = 0.25  # times the square of the cards in hand, up to HAND_CARDS, where cards are scarcest
HAND_CARDS = HAND_LIMIT  # a full backpack, where hands compete for cards: a steal takes one of seven
HAND_CARDS_PLENTY = 5  # a trip's cards (3 objects and a passport) and one to pay with, where cards are plenty
PLENTY, SCARCE = 12.0, 6.5  # cards in play a seat: the hand counts the least (HAND_FLOOR), fully
STARVED = HAND_LIMIT + 1  # cards in play a seat: full backpacks leave the deck a card a seat or less
HAND_FLOOR = 0.5  # where cards are plenty a hand still shields what it holds from a steal
SPARE_SHARE = 0.3  # a spare card is worth this share of the trip's next step
LOOSE = 0.05  # a spare card beyond two for each card the trip misses
FORBIDDEN = -2.0  # blocks every trip until ditched with another card
POSTCARD = 1.5  # four win
LIKELY = 0.3  # ask a seat for a card out of sight only if it holds it this likely


def points(state: State) -> list[float]:
    cards = in_play(state)
    return [_standing(state, s, cards) for s in range(state.players)]


def in_play(state: State) -> float:
    """Cards in play a seat: the deck, the discard pile and the hands (public counts)."""
    return (len(state.deck) + len(state.discard) + sum(len(h) for h in state.hands)) / state.players


def scarcity(state: State) -> float:
    """How scarce cards are at this table, 0 to 1, from the cards in play a seat."""
    return _scarce(in_play(state))


def _scarce(cards: float) -> float:
    return min(1.0, max(0.0, (PLENTY - cards) / (PLENTY - SCARCE)))


def _standing(state: State, seat: int, cards: float) -> float:
    scarce = _scarce(cards)
    hand = state.hands[seat]
    country = destination(state, seat)
    needed = set(COUNTRIES[country].requires) if country is not None else set()
    held = {CARDS[c].kind for c in hand} & needed
    wild = min(sum(1 for c in hand if CARDS[c].effect == "wild_object"), 3 - len(held))
    objects = len(held) + wild
    types = [CARDS[c].type for c in hand]
    passport = "passport" in types or any(CARDS[c].effect == "visa" for c in hand)
    forbidden, postcards = types.count("forbidden"), types.count("postcard")
    spare = len(hand) - objects - passport - forbidden - postcards
    near = TRIP[passport][objects]
    missing = (3 - objects) + (not passport)
    # the trip's next step: the missing piece that adds the most
    step = max(TRIP[passport][min(objects + 1, 3)], TRIP[True][objects]) - near
    useful = min(spare, 2 * missing)
    return (
        TRIP_POINTS * len(state.travelled[seat])
        + near
        + max(HAND_FLOOR, scarce) * HAND * min(len(hand) - forbidden, backpack(state, seat, cards)) ** 2
        + SPARE_SHARE * step * useful
        + LOOSE * (spare - useful)
        + FORBIDDEN * forbidden
        + POSTCARD * postcards
    )


def backpack(state: State, seat: int, cards: float) -> int:
    """The cards the seat's hand counts up to (``cards``: in play a seat): the hand limit where
    hands compete for cards, else a trip's cards and one to pay with. Two exceptions:

    - while the seat's own trip, still to make, needs one of the centre's objects, a trip's cards
      and one to pay with: that seat must not wait with a full hand for the centre's other
      objects, since its own trip would throw that one away. Seats that held such a trip and
      waited kept the object from everyone (it reaches the discard pile, where a recycle takes
      it, only by a trip), and 2 of 24 games at 5 seats never ended;
    - once the seat has made its own trip, one card short of the limit where full backpacks would
      hold nearly every card (under ``STARVED`` cards in play a seat, 5 and 6 seats of the base
      game): the hands at 7 left the deck and the discard pile empty, the centre's objects moved
      only by steals, and a 6-seat game ran to the cap."""
    if not _scarce(cards):
        return HAND_CARDS_PLENTY
    own, centre = state.own[seat], state.centre
    if own is None:
        return HAND_CARDS - 1 if cards < STARVED else HAND_CARDS
    sharing = centre is not None and not set(COUNTRIES[own].requires).isdisjoint(COUNTRIES[centre].requires)
    return HAND_CARDS_PLENTY if sharing else HAND_CARDS


def wanted(state: State, seat: int) -> set[str]:
    """The kinds this seat's next trip needs: its country's objects, and a passport."""
    country = destination(state, seat)
    kinds = set(COUNTRIES[country].requires) if country is not None else set()
    return kinds | {"passport"}


def keeps(state: State, seat: int) -> set[str]:
    """The kinds this seat keeps: its next trip's, and the centre's while its own trip comes first."""
    kinds = wanted(state, seat)
    if state.own[seat] is not None and state.centre is not None:
        kinds |= set(COUNTRIES[state.centre].requires)
    return kinds


def proposals(state: State, seat: Seat) -> list[OfferTrade]:
    """Trades a traveller would offer, from what the seat sees (its hand, the discard pile, every
    seat's country, the cards it has seen go into each hand): a kind its next trip lacks, asked of
    the seat it knows holds it, or else of each seat likely enough to (a card out of sight is in a
    hand as likely as anywhere else unseen), never one lying in the discard pile (a recycle takes
    that); for a card it can spare, the one the target's trip needs first (an offer the target
    has reason to take), else one nobody's trip needs. Whether it is worth offering is greedy's
    to judge: in each imagined world the target answers as it would (domain/bots/greedy.py,
    ``answered``)."""
    if Awaited(seat=seat, reason="action") not in awaited(state) or not offers_left(state):
        return []
    hand = state.hands[seat]
    memory = state.known[seat] if state.known else ((),) * state.players
    held = {CARDS[c].kind for c in hand}
    lacking = sorted(wanted(state, seat) - held - {CARDS[c].kind for c in state.discard})
    spare = spare_cards(state, seat)
    if not lacking or not spare:
        return []
    where = {CARDS[c].kind: holder for holder, cards in enumerate(memory) for c in cards}
    remembered = sum(len(cards) for cards in memory)
    unseen = len(state.deck) + sum(len(h) for s, h in enumerate(state.hands) if s != seat) - remembered
    needed = {s: keeps(state, s) for s in range(state.players)}
    offers = []
    for kind in lacking:
        if kind in where and kind != "passport":
            targets = [where[kind]]
        else:
            targets = [
                t
                for t in range(state.players)
                if t != seat and unseen > 0 and len(state.hands[t]) - len(memory[t]) >= LIKELY * unseen
            ]
            targets += [t for t in range(state.players) if t != seat and kind == "passport" and t not in targets]
        for target in targets:
            theirs = [c for c in spare if CARDS[c].kind in needed[target]]
            nobody = [
                c for c in spare if not any(CARDS[c].kind in needed[s] for s in range(state.players) if s != seat)
            ]
            for give in list(dict.fromkeys(theirs[:1] + nobody[:1] + spare[:1]))[:2]:
                offers.append(OfferTrade(target=target, give=(give,), ask=(kind,)))
    return offers


def spare_cards(state: State, seat: int) -> list[str]:
    """The cards of the seat's hand it can do without: objects no trip of its own needs, a second passport."""
    hand = state.hands[seat]
    mine = keeps(state, seat)
    passports = [c for c in hand if CARDS[c].type == "passport"]
    return sorted(c for c in hand if (CARDS[c].type == "object" and CARDS[c].kind not in mine) or (c in passports[1:]))


def pool(place: Place, card: str) -> str:
    """The deck and the hands are one pool; the passports set aside stay aside; what other seats
    remember (``known``: a card the seat did not see go there) and the cards the deck was last
    formed from (``reshuffled``, a set) are each dealt among themselves, never into a hand or the
    deck, where those cards already are."""
    if place[0] in ("passports_aside", "known", "reshuffled"):
        return str(place[0])
    return "card"


def bounds(state: State) -> list[tuple[Place, frozenset[str]]]:
    """Once the discard pile, face up, was shuffled into the deck, the deck holds only its cards:
    a card every seat keeps (the centre's objects) is then in some hand, not in the deck."""
    return [(("deck",), frozenset(state.reshuffled))] if state.reshuffled else []


# A race: a seat judges a move by how far it gets on itself, the others' progress not counted
# against it (denial only delays: a card taken from one is stolen back the next turn; an
# exchange that helps both, a trade, is worth taking). Counted at 1 (the lead over the best
# opponent), all-greedy tables stole in half their turns and four seats ran 550 turns a seat.
RIVALRY = 0.0
SAMPLES = 6  # a steal's card and a trade's answer are chances: each move judged in this many worlds

STRATEGY = Strategy(
    points=points, pool=pool, bounds=bounds, proposals=proposals, spread=10.0, rivalry=RIVALRY, samples=SAMPLES
)
