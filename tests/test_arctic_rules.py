"""Arctic Scavengers' rules: OpenSpiel's checks, then each phase on hand-set tables.

Tables are set up the way a dealer would: the initiator and the cards drawn are chance
outcomes chosen here; a few tests then put cards straight into a hand or a skirmish.
"""

from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest

from games.actions import Text, legal_moves, resolve
from games.gamebench import arctic_moves as mv
from games.gamebench.arctic_cards import CARDS, INDEX, NUM_CARDS, people, supply
from games.gamebench.arctic_table import ROUNDS
from games.registry import get
from sessions.record import placement_scores

SPEC = get("arctic_scavengers")
GAME = SPEC.load()
C = INDEX


def labels(state) -> list[str]:
    return [m.label for m in legal_moves(SPEC, state, state.current_player())]


def play(state, *moves: str) -> None:
    """Play moves by their labels (each must be legal now)."""
    for text in moves:
        move = resolve(SPEC, state, state.current_player(), Text(text=text))
        state.apply_action(move.action)


def dealt(hands: dict[int, list[str]] | None = None, *, initiator: int = 0, players: int = 2):
    """Round 1 after the deal: ``hands`` drawn from the starting decks (the rest drawn as
    they come), ``initiator`` first to gather."""
    state = (GAME if players == 2 else SPEC.load({"players": players})).new_initial_state()
    state.apply_action(initiator)
    wanted = {p: [C[n] for n in cards] for p, cards in (hands or {}).items()}
    while state.is_chance_node():
        seat = state.pending[0][1]
        chosen = wanted.get(seat, [])
        state.apply_action(chosen.pop(0) if chosen else state.chance_outcomes()[0][0])
    return state


def hand(state, seat: int, *cards: str) -> None:
    """Put exactly ``cards`` in ``seat``'s hand (the deck keeps its other cards)."""
    state.tribes[seat].hand = sorted(C[n] for n in cards)


def draw_from_junkyard(state, *cards: str) -> None:
    for name in cards:
        assert state.is_chance_node()
        state.apply_action(C[name])


def test_openspiel_random_simulation_checks():
    pyspiel.random_sim_test(GAME, num_sims=2, serialize=True, verbose=False)
    pyspiel.random_sim_test(SPEC.load({"players": 4}), num_sims=1, serialize=True,
                            verbose=False)


def test_setup_takes_the_starting_decks_out_of_the_box():
    state = GAME.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert [a for a, _ in state.chance_outcomes()] == [0, 1]  # who starts is chance's
    for tribe in state.tribes:
        assert sorted(tribe.cards()) == sorted([C["Refugee"]] * 4 + [C["Scavenger"]] * 3
                                               + [C["Brawler"], C["Spear"], C["Shovel"]])
    assert state.mercs[C["Scavenger"]] == 14 and state.mercs[C["Brawler"]] == 8
    assert sum(state.junk) == 42 and state.junk[C["Spear"]] == 4
    assert sum(state.contested) == 14
    assert [state.contested[C[f"Tribe Family ({n})"]] for n in (3, 4, 5)] == [2, 2, 2]
    five = supply(5, "junkyard")
    assert five[C["Shovel"]] == 1 and supply(5, "mercenary")[C["Scavenger"]] == 5
    with pytest.raises(ValueError, match="players must be 2-5, got 6"):
        SPEC.load({"players": 6})


def test_each_round_deals_five_cards_and_the_initiator_gathers_first():
    state = dealt(initiator=1)
    assert state.round == 1 and state.current_player() == 1
    assert [len(t.hand) for t in state.tribes] == [5, 5]
    assert [sum(t.deck) for t in state.tribes] == [5, 5]
    play(state, "end gathering")
    assert state.current_player() == 0
    play(state, "end gathering")  # round 2: the rest are discarded, five new cards
    assert state.round == 2 and state.current_player() == pyspiel.PlayerId.CHANCE
    assert [kind for kind, _, _ in state.pending] == ["deal", "deal"]  # no peek yet
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 1
    assert [len(t.hand) for t in state.tribes] == [5, 5]
    assert [sum(t.deck) for t in state.tribes] == [0, 0]
    play(state, "end gathering", "end gathering")
    # round 3: decks reshuffled from the discard piles; the initiator peeks
    kinds = []
    while state.is_chance_node():
        kinds.append(state.pending[0][0])
        state.apply_action(state.chance_outcomes()[-1][0])
    assert kinds == ["deal"] * 10 + ["peek"] and state.round == 3
    assert state.top is not None and sum(state.contested) == 13


def test_dig_turns_up_the_dig_total_keeps_one_and_puts_the_rest_under():
    state = dealt()
    hand(state, 0, "Brawler", "Shovel", "Refugee", "Spear")
    play(state, "dig")
    assert labels(state) == ["add Refugee", "add Brawler", "add Shovel", "cancel"]  # no Spear
    play(state, "add Shovel", "add Brawler")
    assert "dig with Brawler + Shovel" in labels(state)
    play(state, "Dig with shovel + brawler")  # any order or case names the same move
    before = sum(state.junk)
    draw_from_junkyard(state, "Net", "Junk", "Medkit")  # Brawler 1 + Shovel 2
    assert sum(state.junk) == before - 3
    assert sorted(labels(state)) == ["keep Junk", "keep Medkit", "keep Net", "keep nothing"]
    play(state, "keep Medkit")
    assert (C["Medkit"], True) in state.tribes[0].discard
    assert state.bottom == [C["Net"], C["Junk"]]
    assert "dig" not in labels(state)  # once a round
    assert state.tribes[0].played == [C["Shovel"], C["Brawler"]]


def test_a_tool_needs_a_member_with_that_skill_one_tool_each():
    state = dealt()
    hand(state, 0, "Shovel", "Pickaxe", "Refugee", "Spear")
    play(state, "dig", "add Shovel")
    assert "add Pickaxe" not in labels(state)  # the one Refugee carries only one tool
    assert not any(label.startswith("dig with") for label in labels(state))  # no carrier yet
    play(state, "add Refugee", "dig with Refugee + Shovel")
    assert state.pending == [["dig", 0, 2]]  # Refugee 0 + Shovel 2


def test_hire_is_paid_with_your_own_food_and_medicine():
    state = dealt()
    hand(state, 0, "Hunter", "Spear", "Medkit", "Refugee")
    hand(state, 1, "Medkit", "Medkit", "Medkit", "Pills", "Pills")  # not the hirer's
    assert not {"hire Scout", "hire Thugs"} & set(labels(state))  # no food yet
    play(state, "hunt", "add Hunter", "add Spear", "hunt with Hunter + Spear")
    assert state.tribes[0].food == 3
    offered = {label for label in labels(state) if label.startswith("hire")}
    assert offered == {"hire Scavenger", "hire Brawler", "hire Hunter", "hire Saboteur",
                       "hire Scout", "hire Group Leaders", "hire Sniper Team"}  # 3 + 2 < 6
    play(state, "hire Scout")
    assert labels(state) == ["cancel", "pay with Medkit"]
    play(state, "pay with Medkit")
    mine = state.tribes[0]
    assert (C["Scout"], True) in mine.discard and mine.food == 1
    assert C["Medkit"] in mine.played and C["Medkit"] not in mine.hand
    assert state.mercs[C["Scout"]] == 7
    assert state.tribes[1].hand.count(C["Medkit"]) == 3  # the other hand pays nothing
    assert not any(label.startswith("hire") for label in labels(state))  # once a round


def test_thugs_take_six_food_or_medicine_in_any_mix():
    state = dealt()
    hand(state, 0, "Hunter", "Net", "Medkit", "Pills")
    play(state, "hunt", "add Hunter", "add Net", "hunt with Hunter + Net")  # 4 food
    play(state, "hire Thugs")
    assert state.due == 2
    play(state, "pay with Pills")
    assert state.phase == "pay"  # one short
    play(state, "pay with Medkit")
    assert (C["Thugs"], True) in state.tribes[0].discard and state.tribes[0].food == 0


def test_a_hire_without_medicine_in_hand_is_not_offered():
    state = dealt()
    hand(state, 0, "Scavenger", "Refugee")
    hand(state, 1, "Medkit", "Medkit")
    play(state, "hunt", "add Scavenger", "hunt with Scavenger")
    assert {label for label in labels(state) if label.startswith("hire")} == {"hire Scavenger"}


def test_draw_reshuffles_the_discard_pile_when_the_deck_runs_out():
    state = dealt()
    mine = state.tribes[0]
    hand(state, 0, "Scout", "Refugee")
    mine.deck = [0] * len(mine.deck)
    mine.deck[C["Junk"]] = 1
    mine.discard = [(C["Pills"], True), (C["Net"], False)]
    play(state, "draw", "add Scout", "draw with Scout")
    assert state.chance_outcomes() == [(C["Junk"], 1.0)]
    state.apply_action(C["Junk"])
    assert sorted(a for a, _ in state.chance_outcomes()) == [C["Net"], C["Pills"]]
    state.apply_action(C["Net"])
    assert sorted(mine.hand) == sorted([C["Refugee"], C["Junk"], C["Net"]])
    assert mine.discard == [] and mine.deck[C["Pills"]] == 1


def test_trash_returns_mercenaries_and_shuffles_the_junkyard():
    state = dealt()
    state.bottom = [C["Net"]]
    hand(state, 0, "Refugee", "Scavenger", "Junk", "Brawler")
    scavengers, junk = state.mercs[C["Scavenger"]], sum(state.junk)
    play(state, "trash", "add Refugee", "add Scavenger", "add Junk", "trash Refugee + Scavenger + Junk")
    assert state.mercs[C["Scavenger"]] == scavengers + 1
    assert state.removed == [C["Refugee"]]
    assert sum(state.junk) == junk + 2 and state.bottom == []  # Junk and the known Net, shuffled
    assert people(state.tribes[0].cards()) == 4  # Brawler, and Scavenger, Scavenger, Brawler in the deck


def skirmish(forces: dict[int, list[str]], *, initiator: int = 0, prize: str = "Tribe Family (5)",
             contested_left: bool = True, discards: dict[int, list[str]] | None = None):
    """Round 3 with everyone done gathering and ``forces`` kept for the skirmish (and
    ``discards`` added to discard piles first)."""
    state = dealt(initiator=initiator)
    for _ in range(2):
        for _ in range(2):
            play(state, "end gathering")
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    assert state.round == 3 and state.top is not None
    state.contested[state.top] += 1
    state.top = C[prize]
    state.contested[C[prize]] -= 1
    if not contested_left:
        state.contested = [0] * len(state.contested)
    for seat, cards in forces.items():
        hand(state, seat, *cards)
    for seat, cards in (discards or {}).items():
        state.tribes[seat].discard += [(C[name], True) for name in cards]
    while state.round == 3 and state.phase == "gather" and not state.is_chance_node():
        play(state, "end gathering")
    return state


def test_snipers_and_saboteurs_act_in_turn_order():
    state = skirmish({0: ["Sniper Team", "Brawler", "Shovel"],
                      1: ["Saboteur", "Thugs", "Spear"]})
    assert state.current_player() == 0  # the initiator strikes first
    assert set(labels(state)) == {"snipe Saboteur", "snipe Thugs", "pass"}
    play(state, "snipe Saboteur")  # before it can sabotage the Shovel
    t0, t1 = state.tribes
    assert "player 1 snipes player 2's Saboteur" in state.log[-2]
    assert (C["Shovel"], True) in t0.discard  # not sabotaged
    # Player 2 has nothing left to strike with: the skirmish is resolved at once.
    # Fight: Brawler 2 + Shovel 1 = 3 against Thugs 3 + Spear 2 = 5.
    assert C["Tribe Family (5)"] in t1.won and t0.won == []
    assert state.round == 4 and state.initiator == 1  # the initiator passes on


def test_a_saboteur_disarms_a_tool_and_then_does_not_fight():
    state = skirmish({0: ["Brawler", "Grenade"], 1: ["Saboteur", "Scavenger", "Spear"]},
                     initiator=1)
    assert state.current_player() == 1
    assert set(labels(state)) == {"sabotage Grenade", "pass"}
    assert state.fight(0) == 5 and state.fight(1) == 4  # Brawler+Grenade; Saboteur, Scavenger+Spear
    play(state, "sabotage Grenade")
    # Brawler 2 against Scavenger 1 + Spear 2 = 3: the Saboteur no longer counts.
    assert state.tribes[1].won == [C["Tribe Family (5)"]]
    assert (C["Grenade"], True) in state.tribes[0].discard


def test_a_fight_tie_goes_to_the_most_people_then_into_the_junkyard():
    state = skirmish({0: ["Brawler", "Refugee"], 1: ["Scavenger", "Scavenger"]})
    assert state.tribes[0].won == [] and state.tribes[1].won == []  # 2-2 fight, 2-2 people
    assert state.junk[C["Tribe Family (5)"]] == 1  # shuffled into the junkyard
    state = skirmish({0: ["Brawler", "Refugee"], 1: ["Scavenger", "Scavenger", "Refugee"]})
    assert state.tribes[1].won == [C["Tribe Family (5)"]]  # 2-2 fight, 3 people to 2


def test_the_winner_is_the_largest_tribe_over_every_card_not_the_last_hand():
    state = skirmish({0: ["Refugee"], 1: ["Thugs", "Thugs", "Thugs"]}, contested_left=False,
                     prize="Sled Team", discards={0: ["Tribe Family (5)"] * 3})
    assert state.is_terminal() and state.round == 3
    mine, theirs = state.tribes
    assert theirs.won == [C["Sled Team"]]  # 9 fight to 0: player 2 wins the skirmish...
    sizes = state.tribe_sizes()
    assert sizes == [people(t.cards()) for t in state.tribes]  # all in deck and discard now
    assert sizes[0] > sizes[1]  # ...but player 1's whole tribe (3 Tribe Families) is larger
    assert state.returns() == [1.0, -1.0]


def test_the_six_tribe_families_count_three_four_and_five_people():
    """Two Tribe Families each of 3, 4 and 5 people (two transcriptions of the printed cards;
    GameBench counted 5 for all six): 24 people in the contested pile, counted at the end."""
    assert [(CARDS[C[f"Tribe Family ({n})"]].people, CARDS[C[f"Tribe Family ({n})"]].count)
            for n in (3, 4, 5)] == [(3, 2), (4, 2), (5, 2)]
    assert sum(card.people * card.count for card in CARDS
               if card.name.startswith("Tribe Family")) == 24
    state = skirmish({0: ["Refugee"], 1: ["Refugee"]}, contested_left=False,
                     prize="Tribe Family (3)",
                     discards={0: ["Tribe Family (3)", "Tribe Family (4)"],
                               1: ["Tribe Family (5)", "Scavenger"]})
    assert state.is_terminal()
    base = people(state.tribes[1].cards()) - 6  # the ten starting cards and the hand
    assert state.tribe_sizes() == [base + 7, base + 6]  # 3 + 4 beats 5 + 1
    assert state.returns() == [1.0, -1.0]
    assert mv.label(state, 0, mv.KEEP + C["Tribe Family (4)"]) == "keep Tribe Family (4)"
    keep = re.search(mv._PATTERN, "I keep the Tribe Family (4).")
    assert keep is not None and keep["keep"] == "Tribe Family (4)"


def test_equal_tribes_share_the_win():
    state = skirmish({0: ["Brawler"], 1: ["Brawler"]}, contested_left=False)
    assert state.is_terminal()
    assert state.tribe_sizes()[0] == state.tribe_sizes()[1]
    assert state.returns() == [0.0, 0.0]
    assert placement_scores(state.returns()) == [0.5, 0.5]


def test_a_bigger_table_ranks_every_tribe_and_names_targets_by_seat():
    state = dealt(players=3)
    assert state.order == [0, 1, 2]
    state.over = True
    state.tribes[2].discard.append((C["Tribe Family (5)"], True))
    assert state.returns() == [-0.5, -0.5, 1.0]
    assert mv.label(state, 0, mv.SNIPE + 1 * NUM_CARDS + C["Brawler"]) == \
        "snipe Brawler of player 2"


def _all_cards(state) -> list[int]:
    """Every card on the table: tribes, supplies, junkyard, contested pile, out of the game."""
    cards = [c for p in range(state.players) for c in state.owned(p)] + state.removed
    cards += state.bottom
    for counts in (state.mercs, state.junk, state.contested):
        cards += [c for c, n in enumerate(counts) for _ in range(n)]
    return sorted(cards + state.dug + ([state.top] if state.top is not None else []))


def test_games_last_sixteen_rounds_and_no_card_is_lost_or_made():
    box = sorted(c for c, card in enumerate(CARDS) for _ in range(card.count))
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state = GAME.new_initial_state()
        unused = [C["Refugee"]] * (20 - 4 * state.players)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            if len(state.history()) % 50 == 0:
                assert sorted(_all_cards(state) + unused) == box
        assert state.round == ROUNDS
        assert sum(state.contested) == 0 and state.top is None
        assert sorted(_all_cards(state) + unused) == box
        assert len(state.history()) <= GAME.max_game_length()
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_record_keeps_gamebench_score_and_the_tribe_sizes():
    state = skirmish({0: ["Refugee"], 1: ["Thugs", "Thugs", "Thugs"]}, contested_left=False,
                     prize="Sled Team", discards={0: ["Tribe Family (5)"] * 3})
    kept = SPEC.metrics(state, ["random", "random"])["gamebench"]
    assert kept["share"] == [1.0, 0.0] and kept["tribe_size"] == state.tribe_sizes()
    assert kept["contested_won"] == [[], ["Sled Team"]]
    tied = skirmish({0: ["Brawler"], 1: ["Brawler"]}, contested_left=False)
    assert SPEC.metrics(tied, ["random", "random"])["gamebench"]["share"] == [0.5, 0.5]
