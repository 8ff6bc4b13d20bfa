"""Playing an option out in a sampled world.

The coach samples worlds with the expert's sampler (``bots.sampler``) from the seat's
view, never from the record's hidden cards. An option is then played to the end of
the hand in each world: a card by the simulator and the playout policy (the same as the
expert's search, ``bots.playout``); a decision before the play (pick, bury, call,
alone, crack, name) on an engine ``Game`` rebuilt from the world, the rest of the
auction by the standard bot, and then the play by the playout policy. So pick, bury
and call are judged by playouts, not by the computer players' thresholds.
"""

from __future__ import annotations

from dataclasses import dataclass

from sheepshead.actions import Action, Bury, Call, Move, Play, parse_move

# The coach plays with version 4 of the bots' play, frozen, whatever the live version:
# its measurements (the planted errors, the five players' order: docs/performance.md)
# were made with version 4's policy, and a reviewed hand must get the same review
# whatever the computer players' version (issue 16).
from sheepshead.bots.frozen.v4 import make_bot
from sheepshead.bots.frozen.v4.expert import partners_of, sim_of
from sheepshead.bots.frozen.v4.playout import playout
from sheepshead.bots.frozen.v4.rng import Rng
from sheepshead.bots.frozen.v4.sampler import World, plays_of
from sheepshead.bots.frozen.v4.sim import SimHand
from sheepshead.game import Game, Phase
from sheepshead.kernel import bit, mask_of
from sheepshead.view import SeatView

__all__ = ["Outcome", "Playouts", "play_out"]

_STANDARD = make_bot("standard")
# The standard bot's choices are a function of the view alone; its generator is unused.
_NO_NOISE = Rng.from_bytes(b"coach-continuation")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one option gave in one world, for the seat judged."""

    #: Game points of the seat.
    game_points: float
    #: Card points of the seat's side (in a leaster: of the seat, counted negative).
    card_points: float


class Playouts:
    """Options played out in the sampled worlds of one view, a world at a time."""

    __slots__ = ("_rewire", "_template", "view")

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self._template: SimHand | None = None
        # At a card decision the public play is the same in every world: the first
        # world's hand is rewired with each other world's hidden cards (as the expert's
        # search does), not replayed card by card. Not once a card went face down:
        # which card it was differs between worlds.
        self._rewire = view.phase is Phase.PLAYING and all(
            card is not None for _, card, _ in plays_of(view)
        )

    def play(self, world: World, options: list[Action]) -> list[Outcome]:
        """Each option played to the end of the hand in ``world``."""
        view = self.view
        if view.phase is Phase.PLAYING:
            return _cards(self._sim(world), view.seat, options)
        game = world_game(view, world)
        return [_finish(game.apply(option, view.seat), view.seat) for option in options]

    def _sim(self, world: World) -> SimHand:
        """The world's hand at the view's point of play (``sim_of``)."""
        template = self._template
        if template is None or not self._rewire:
            template = self._template = sim_of(self.view, world)
            return template
        blind = world.blind or ()
        return template.rewire(
            [mask_of(h) for h in world.hands],
            partners_of(self.view, world),
            0 if world.unknown is None else bit(world.unknown),
            mask_of(world.bury),
            sum(c.points for c in blind),
        )


def play_out(view: SeatView, world: World, options: list[Action]) -> list[Outcome]:
    """Each option played to the end of the hand in ``world`` (``Playouts`` for many
    worlds of one view)."""
    return Playouts(view).play(world, options)


def _cards(base: SimHand, me: int, options: list[Action]) -> list[Outcome]:
    out = []
    for option in options:
        assert isinstance(option, Play)
        sim = base.copy()
        sim.play(bit(option.card))
        playout(sim)
        score, own = sim.outcome(me)
        out.append(Outcome(float(score), float(own)))
    return out


def _finish(game: Game, me: int) -> Outcome:
    """The rest of the hand: the auction by the standard bot, the play by the playout."""
    while game.phase not in (Phase.PLAYING, Phase.DONE):
        seat = game.turn
        assert seat is not None
        game = game.apply(_STANDARD.choose(game.view(seat), _NO_NOISE), seat)
    if game.phase is Phase.DONE:  # a doubler: nobody picked, nothing played
        result = game.result()
        assert result is not None
        return Outcome(float(result.scores[me]), 0.0)
    sim = SimHand.from_game(game)
    playout(sim)
    score, own = sim.outcome(me)
    return Outcome(float(score), float(own))


def world_game(view: SeatView, world: World) -> Game:
    """The world as an engine ``Game`` at the view's moment, before any card is played.

    A picker who is not this seat is dealt the cards it holds now and given its bury
    as the blind: any split of its eight cards into hand and blind looks the same to
    this seat. Moves this seat saw without their cards (another picker's bury, its
    unknown card) take the world's.
    """
    n = view.players
    picker = view.picker
    if view.blind is not None:
        blind = view.blind
    elif world.blind is not None:
        blind = world.blind
    else:
        blind = world.bury
    hands = [list(world.hands[s]) for s in range(n)]
    if picker is not None:
        bury = view.bury if picker == view.seat and view.bury is not None else world.bury
        held = [*hands[picker], *bury]
        hands[picker] = [c for c in held if c not in blind]
    game = Game.from_deal(view.rules, view.dealer, hands, blind, view.multiplier)
    for text in view.moves:
        game = game.apply_move(_seen_move(text, world))
    return game


def _seen_move(text: str, world: World) -> Move:
    """A move as this seat saw it, its hidden cards taken from the world."""
    parts = text.split()
    if parts[1] == "bury" and len(parts) == 2:
        return Move(int(parts[0]), Bury(tuple(world.bury)))
    if parts[1] == "call" and parts[-1] == "unknown":
        assert world.unknown is not None
        called = parse_move(" ".join(parts[:3])).action
        assert isinstance(called, Call)
        return Move(int(parts[0]), Call(called.card, world.unknown))
    return parse_move(text)
