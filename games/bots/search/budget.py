"""How much the search bot (Hard) searches one move, and how it samples deals and takes
its opponents: one frozen ``Budget``, whose defaults are Hard as it plays. Benches and the
arena's trial kinds play variants of it (``games.bots._BUDGETS``, ``bench.variants``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """How much searching one move gets, and how deals are sampled. The defaults keep a
    move under 300 ms on one core (``python -m bench.search``)."""

    batch: int = 8  # deals a round plays every live candidate in
    max_worlds: int = 40  # deals at most for one move
    max_plies: int = 1500  # moves simulated at most for one move (about 0.06 ms each)
    discards: int = 4  # discards kept after pruning by greedy's score
    others: int = 2  # melds, lay-offs and takes kept after pruning by deadwood
    drop_z: float = 2.0  # how many standard errors behind the leader a candidate is dropped
    beat_z: float = 2.0  # how many standard errors ahead of greedy's move another must be
    shape: int = 1  # discards at most a sampled opponent hand is shaped by (see sample_world)
    tries: int = 20  # deals drawn at most to find one that fits a Draw call (see sample_world)
    discard_tries: int = 4  # deals drawn at most to find one that fits the last discards
    win_bonus: float = 0.0  # chips a rollout's win is worth on top of its chips
    search_play: bool = True  # search the play step (melds, lay-offs, discards) too
    search_start: bool = True  # search the start step (call, draw, take)
    # Draw decisions (calling Draw at the start step, folding or fighting a call) go to the
    # move with the best mean chips in the rollouts, with no bar in favour of greedy's rule.
    draw_by_value: bool = True
    # The opponents are not all greedy: in each sampled deal each other seat is, with a
    # chance (``noisy_chance``: ``noisy_share`` before any evidence, then weighed by the
    # discards it threw), a noisy player, dealt a hand shaped by nothing but the view and
    # making any legal move in ``noise`` of its rollout moves (greedy's otherwise).
    noisy_share: float = 0.25
    noise: float = 0.5
    read_discards: bool = True
    # A seat whose chance of being a noisy player, reading also whether it has opened by
    # now (``random_chance``), is above ``random_above`` is taken for a player who makes
    # any legal move: in every deal, its hand shaped by nothing but the view, and every
    # one of its rollout moves any legal move. Above 1: never. (docs/bots.md, reading
    # random players: 0.5 since 4 December 2026.)
    random_above: float = 0.5
    # Where the race takes a seat for a random player, every candidate plays a deal with
    # the same rollout randomness (a seed drawn once a deal): that seat's moves then differ
    # between candidates only where the candidates led the game apart, and the race
    # compares moves, not luck. Elsewhere each rollout draws from the race's ``rng`` in
    # turn, as before: paired there too, the race leaves greedy's move more often against
    # greedy players, and loses by it (docs/bots.md, paired rollouts, 4 December 2026).
    paired_rollouts: bool = True
    # The learned discard model (``games.bots.learned``, trained by ``manage.py train_bot``):
    # ``learned_rollouts`` has our own seat in the rollouts throw the model's card where
    # greedy would throw its own (the other seats stay greedy or noisy, as they are taken to
    # be); ``learned_order`` keeps the model's best discards as candidates
    # rather than greedy's. Both on since 3 December 2026 (docs/bots.md, the learned model).
    learned_rollouts: bool = True
    learned_order: bool = True
    # Our own seat plays greedy by other rules of thumb (``greedy.TUNED``): its move to
    # beat in the race, and its moves in the rollouts. The other seats stay Normal's.
    own_tuned: bool = False


DEFAULT_BUDGET = Budget()
