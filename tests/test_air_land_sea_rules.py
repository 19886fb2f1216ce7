"""Air, Land & Sea: the printed cards, every tactical ability, the Supreme Commander cards'
withdrawal tables, battles and the war — and the GameBench bugs that must not come back.

Positions are set up with ``AirLandSeaState.arrange`` and played through the legal-action
adapter by label, as a person or a model would write them.
"""

from __future__ import annotations

import pyspiel
import pytest

from games.actions import Text, legal_moves, resolve
from games.gamebench.air_land_sea_cards import (
    CARDS,
    FIRST,
    SECOND,
    decode,
    withdrawal_points,
)
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.registry import get

SPEC = get("air_land_sea")
AIR, LAND, SEA = 0, 1, 2
RED, BLUE = 0, 1
(SUPPORT, AIR_DROP, AIR_MANEUVER, AERODROME, CONTAINMENT, HEAVY_BOMBERS,
 REINFORCE, AMBUSH, LAND_MANEUVER, COVER_FIRE, DISRUPT, HEAVY_TANKS,
 TRANSPORT, ESCALATION, SEA_MANEUVER, REDEPLOY, BLOCKADE, SUPER_BATTLESHIP) = range(18)


def arranged(**position) -> AirLandSeaState:
    state = SPEC.load(position.pop("params", None)).new_initial_state()
    state.arrange(**position)
    return state


def labels(state: pyspiel.State) -> list[str]:
    return [m.label for m in legal_moves(SPEC, state, state.current_player())]


def play(state: pyspiel.State, *moves: str) -> None:
    """Apply each move, written as a person would, for whoever must decide."""
    for text in moves:
        move = resolve(SPEC, state, state.current_player(), Text(text=text))
        state.apply_action(move.action)


def top(state: AirLandSeaState, seat: int, theater: int) -> int:
    return state.stacks[seat][theater][-1]


# --- the cards ---------------------------------------------------------------------------


def test_the_deck_is_the_eighteen_printed_cards():
    for theater in (AIR, LAND, SEA):
        assert sorted(c.strength for c in CARDS if c.theater == theater) == [1, 2, 3, 4, 5, 6]
    instants = {c.name for c in CARDS if c.kind == "instant"}
    ongoing = {c.name for c in CARDS if c.kind == "ongoing"}
    assert instants == {"Air Drop", "Air Maneuver", "Land Maneuver", "Sea Maneuver", "Reinforce",
                        "Ambush", "Disrupt", "Transport", "Redeploy"}  # Disrupt is instant
    assert ongoing == {"Support", "Aerodrome", "Containment", "Cover Fire", "Escalation",
                       "Blockade"}
    assert [c.name for c in CARDS if not c.kind] == ["Heavy Bombers", "Heavy Tanks",
                                                     "Super Battleship"]


@pytest.mark.parametrize("role,points", [
    (FIRST, [6, 4, 3, 3, 2, 2, 2]),   # 1st Player card: 4+ → 2, 2-3 → 3, 1 → 4, 0 → 6
    (SECOND, [6, 6, 4, 3, 3, 2, 2]),  # 2nd Player card: 5+ → 2, 3-4 → 3, 2 → 4, 0-1 → 6
])
def test_withdrawal_points_are_the_supreme_commander_cards(role, points):
    assert [withdrawal_points(role, left) for left in range(7)] == points


def test_a_withdrawing_second_player_gives_by_its_own_card_not_the_first_players():
    state = arranged(hands=([SUPPORT, AIR_DROP, AIR_MANEUVER], [REINFORCE, AMBUSH, COVER_FIRE,
                                                               DISRUPT]), first=RED, turn=BLUE)
    play(state, "withdraw")
    assert state.vp == [3, 0]  # 2nd Player, 4 cards: 3 VP (GameBench's swap gave 2)
    assert state.phase == "deal" and state.battle == 2 and state.first == BLUE


def test_a_withdrawing_first_player_gives_by_the_first_players_card():
    state = arranged(hands=([SUPPORT, AIR_DROP, AIR_MANEUVER, AERODROME], [REINFORCE, AMBUSH]),
                     first=RED)
    play(state, "withdraw")
    assert state.vp == [0, 2]  # 1st Player, 4 cards: 2 VP (GameBench's swap gave 3)
    late = arranged(hands=([SUPPORT], [REINFORCE, AMBUSH]), first=RED)
    play(late, "withdraw")
    assert late.vp == [0, 4]


def test_withdrawing_is_only_a_turn_action():
    state = arranged(hands=([AMBUSH, HEAVY_BOMBERS], [REINFORCE, SUPPORT]),
                     table=[(BLUE, TRANSPORT, SEA, True)], first=RED)
    assert "withdraw" in labels(state)
    play(state, "play Ambush face-up to Land")
    assert "withdraw" not in labels(state)  # Ambush's flip is a decision of its own


# --- battles and strength ------------------------------------------------------------------


def test_a_battle_fought_out_goes_to_two_theaters_with_ties_to_the_first_player():
    state = arranged(hands=([SUPER_BATTLESHIP], [HEAVY_TANKS]), first=RED,
                     table=[(RED, HEAVY_BOMBERS, AIR, False), (BLUE, SUPPORT, AIR, False)])
    play(state, "play Super Battleship face-up to Sea", "play Heavy Tanks face-up to Land")
    assert state.results[-1][:2] == (RED, 6)  # Air 2-2 to the 1st Player, Sea Red, Land Blue
    assert state.vp == [6, 0]


def test_empty_theaters_go_to_the_first_player():
    state = arranged(hands=([AMBUSH], [HEAVY_TANKS]), first=BLUE, turn=BLUE)
    play(state, "play Heavy Tanks face-up to Land", "play Ambush face-down to Land")
    assert state.vp == [0, 6]  # Blue: Land 6-2 and the empty Air and Sea


def test_face_down_support_escalation_and_cover_fire_strengths():
    # Row Land, Air, Sea: Land and Sea are not adjacent.
    state = arranged(hands=([], []), order=(LAND, AIR, SEA), table=[
        (RED, SUPPORT, LAND, True), (RED, HEAVY_BOMBERS, AIR, False),
        (RED, SUPER_BATTLESHIP, SEA, True), (RED, COVER_FIRE, SEA, True),
        (BLUE, ESCALATION, SEA, True), (BLUE, AMBUSH, LAND, False)])
    assert state.strength(RED, AIR) == 2 + 3  # face-down 2, Support next door +3
    assert state.strength(RED, LAND) == 1  # no bonus in Support's own theater
    assert state.strength(RED, SEA) == 4 + 4  # Cover Fire: the Battleship it covers counts 4
    assert state.strength(BLUE, LAND) == 4  # Blue's Escalation: Blue's face-down cards are 4
    state.face_up[ESCALATION] = False
    assert state.strength(BLUE, LAND) == 2  # flipped face-down, Escalation stops working


@pytest.mark.parametrize("order", [(AIR, LAND, SEA), (SEA, AIR, LAND), (LAND, SEA, AIR)])
def test_escalation_and_cover_fire_work_in_every_theater_of_the_row(order):
    """GameBench skipped both in the theater at index 0 (``if theater_ind:``)."""
    left = order[0]
    state = arranged(hands=([], []), order=order, table=[
        (RED, HEAVY_TANKS, left, True), (RED, REINFORCE, left, False),
        (RED, COVER_FIRE, left, True), (BLUE, ESCALATION, order[2], True),
        (BLUE, AMBUSH, left, False)])
    assert state.strength(RED, left) == 4 + 4 + 4
    assert state.strength(BLUE, left) == 4


# --- deploying -----------------------------------------------------------------------------


def test_face_up_only_to_the_matching_theater_face_down_anywhere():
    state = arranged(hands=([HEAVY_TANKS], [AMBUSH]))
    assert labels(state) == ["play Heavy Tanks face-down to Air", "play Heavy Tanks face-up to Land",
                             "play Heavy Tanks face-down to Land",
                             "play Heavy Tanks face-down to Sea", "withdraw"]


def test_aerodrome_lets_its_owner_play_strength_three_or_less_anywhere():
    state = arranged(hands=([AMBUSH, HEAVY_TANKS, TRANSPORT], [ESCALATION]),
                     table=[(RED, AERODROME, AIR, True), (BLUE, SUPPORT, AIR, True)])
    shown = labels(state)
    for theater in ("Air", "Land", "Sea"):
        assert f"play Ambush face-up to {theater}" in shown
        assert f"play Transport face-up to {theater}" in shown
    assert "play Heavy Tanks face-up to Air" not in shown
    play(state, "play Ambush face-down to Sea")
    assert "play Escalation face-up to Air" not in labels(state)  # not Blue's Aerodrome


def test_air_drop_frees_the_next_play_only_and_listing_moves_does_not_spend_it():
    state = arranged(hands=([AIR_DROP, HEAVY_TANKS, SUPER_BATTLESHIP], [AMBUSH, REINFORCE,
                                                                      SUPPORT]))
    play(state, "play Air Drop face-up to Air", "play Support face-up to Air")
    for _ in range(5):
        assert "play Heavy Tanks face-up to Sea" in labels(state)
    play(state, "play Heavy Tanks face-up to Sea", "play Ambush face-down to Air")
    assert "play Super Battleship face-up to Air" not in labels(state)  # spent by one play
    assert state.air_drop == [False, False]


def test_an_unused_air_drop_ends_with_the_battle():
    state = arranged(hands=([AIR_DROP], [HEAVY_TANKS]), first=BLUE, turn=BLUE)
    play(state, "play Heavy Tanks face-up to Land", "play Air Drop face-up to Air")
    assert state.phase == "deal" and state.air_drop == [False, False]


# --- flips ---------------------------------------------------------------------------------


def test_maneuver_flips_in_adjacent_theaters_and_the_revealed_ability_goes_to_its_owner():
    state = arranged(hands=([LAND_MANEUVER, HEAVY_BOMBERS], [AMBUSH, HEAVY_TANKS]), table=[
        (BLUE, TRANSPORT, AIR, False), (BLUE, SUPPORT, SEA, True), (RED, ESCALATION, SEA, True)])
    play(state, "play Land Maneuver face-up to Land")
    assert state.current_player() == RED
    assert labels(state) == ["flip Escalation (Sea)", "flip Blue's face-down card (Air)",
                             "flip Support (Sea)"]
    play(state, "flip Blue's face-down card (Air)")
    assert state.face_up[TRANSPORT]
    assert state.current_player() == BLUE  # Transport is Blue's: Blue decides, in Red's turn
    assert "skip Transport" in labels(state)
    play(state, "move Transport from Air to Land")
    assert top(state, BLUE, LAND) == TRANSPORT
    assert state.phase == "main" and state.current_player() == BLUE


def test_a_maneuver_cannot_reach_a_theater_that_is_not_adjacent():
    state = arranged(hands=([AIR_MANEUVER], [AMBUSH]), order=(AIR, LAND, SEA),
                     table=[(BLUE, SUPER_BATTLESHIP, SEA, True)])
    play(state, "play Air Maneuver face-up to Air")
    assert state.phase == "main" and state.current_player() == BLUE  # nothing to flip in Land


def test_ambush_flips_an_uncovered_card_in_any_theater_never_a_covered_one():
    state = arranged(hands=([AMBUSH], [REINFORCE]), order=(LAND, AIR, SEA), table=[
        (BLUE, HEAVY_BOMBERS, SEA, True), (BLUE, BLOCKADE, SEA, True)])
    play(state, "play Ambush face-up to Land")
    assert labels(state) == ["flip Ambush (Land)", "flip Blockade (Sea)"]
    play(state, "flip Blockade (Sea)")
    assert not state.face_up[BLOCKADE] and state.strength(BLUE, SEA) == 6 + 2


def test_disrupt_each_player_flips_one_of_their_own_cards():
    """GameBench asked the Disrupt player to choose the opponent's flip too."""
    state = arranged(hands=([DISRUPT, HEAVY_BOMBERS], [AMBUSH, HEAVY_TANKS]), table=[
        (RED, SUPPORT, AIR, True), (BLUE, TRANSPORT, SEA, True), (BLUE, ESCALATION, AIR, True)])
    play(state, "play Disrupt face-up to Land")
    assert state.current_player() == RED
    assert labels(state) == ["flip Support (Air)", "flip Disrupt (Land)"]
    play(state, "flip Support (Air)")
    assert state.current_player() == BLUE
    assert labels(state) == ["flip Escalation (Air)", "flip Transport (Sea)"]
    play(state, "flip Transport (Sea)")
    assert not state.face_up[SUPPORT] and not state.face_up[TRANSPORT]
    assert state.phase == "main" and state.current_player() == BLUE


def test_instant_abilities_resolve_one_by_one_in_the_order_they_were_triggered():
    state = arranged(hands=([DISRUPT, HEAVY_BOMBERS], [HEAVY_TANKS, SUPPORT]), table=[
        (RED, TRANSPORT, SEA, False), (BLUE, AMBUSH, AIR, False)])
    play(state, "play Disrupt face-up to Land", "flip face-down Transport (Sea)")
    assert state.current_player() == BLUE  # Disrupt is finished before Transport starts
    play(state, "flip face-down Ambush (Air)")
    assert state.phase == "transport" and state.current_player() == RED  # Red's came first
    assert [(owner, card) for owner, card, _ in state.queue] == [(BLUE, AMBUSH)]
    play(state, "skip Transport")
    assert state.phase == "flip" and state.current_player() == BLUE  # then Blue's Ambush
    play(state, "flip Disrupt (Land)")
    assert state.phase == "main" and state.turn == BLUE


# --- Transport, Redeploy, Reinforce -------------------------------------------------------------


def test_transport_moves_any_own_card_on_top_and_moving_is_not_playing():
    state = arranged(hands=([TRANSPORT, HEAVY_BOMBERS], [AMBUSH, SUPPORT]), table=[
        (RED, HEAVY_TANKS, AIR, True), (RED, AIR_DROP, AIR, True),
        (BLUE, BLOCKADE, SEA, True), (BLUE, REINFORCE, LAND, False),
        (BLUE, COVER_FIRE, LAND, False), (RED, LAND_MANEUVER, LAND, False)])
    play(state, "play Transport face-up to Sea")
    shown = labels(state)
    assert "move Heavy Tanks from Air to Land" in shown  # a covered card may move
    assert "move Transport from Sea to Air" in shown and "skip Transport" in shown
    assert not any("Blockade" in label or "Reinforce" in label for label in shown)
    play(state, "move Heavy Tanks from Air to Land")
    assert top(state, RED, LAND) == HEAVY_TANKS  # not destroyed by Blockade: not a play


def test_redeploy_returns_a_face_down_card_then_a_card_must_be_played():
    state = arranged(hands=([REDEPLOY, SUPER_BATTLESHIP], [AMBUSH, SUPPORT]), table=[
        (RED, HEAVY_TANKS, AIR, False), (RED, ESCALATION, SEA, True)])
    play(state, "play Redeploy face-up to Sea")
    assert labels(state) == ["return face-down Heavy Tanks from Air to hand", "skip Redeploy"]
    play(state, "return face-down Heavy Tanks from Air to hand")
    assert state.hands[RED] == [HEAVY_TANKS, SUPER_BATTLESHIP]
    assert "withdraw" not in labels(state) and state.current_player() == RED
    play(state, "play Heavy Tanks face-up to Land")
    assert state.hands[RED] == [SUPER_BATTLESHIP] and state.current_player() == BLUE


def test_redeploy_may_be_skipped():
    state = arranged(hands=([REDEPLOY, SUPER_BATTLESHIP], [AMBUSH, SUPPORT]),
                     table=[(RED, HEAVY_TANKS, AIR, False)])
    play(state, "play Redeploy face-up to Sea", "skip Redeploy")
    assert state.stacks[RED][AIR] == [HEAVY_TANKS] and state.current_player() == BLUE


def test_reinforce_draws_by_chance_and_plays_face_down_next_door():
    state = arranged(hands=([REINFORCE, AMBUSH], [HEAVY_TANKS, SUPPORT]), order=(AIR, LAND, SEA))
    play(state, "play Reinforce face-up to Land")
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == sorted(state.pool)
    state.apply_action(HEAVY_BOMBERS)
    assert state.current_player() == RED
    assert labels(state) == ["play Heavy Bombers face-down to Air",
                             "play Heavy Bombers face-down to Sea"]
    play(state, "play Heavy Bombers face-down to Sea")
    assert state.stacks[RED][SEA] == [HEAVY_BOMBERS] and state.hands[RED] == [AMBUSH]


@pytest.mark.parametrize("guard", ["containment", "blockade"])
def test_reinforces_card_is_destroyed_by_containment_and_blockade(guard):
    """GameBench's Reinforce skipped both."""
    table = [(BLUE, CONTAINMENT, AIR, True)] if guard == "containment" else [
        (BLUE, BLOCKADE, LAND, True), (BLUE, SUPPORT, SEA, False), (BLUE, AMBUSH, SEA, False),
        (RED, ESCALATION, SEA, False)]
    state = arranged(hands=([REINFORCE, HEAVY_TANKS], [SUPER_BATTLESHIP, COVER_FIRE]),
                     order=(AIR, LAND, SEA), table=table)
    play(state, "play Reinforce face-up to Land")
    state.apply_action(HEAVY_BOMBERS)
    play(state, "play Heavy Bombers face-down to Sea")
    assert HEAVY_BOMBERS not in state.stacks[RED][SEA]
    assert state.bottom == [HEAVY_BOMBERS] and state.current_player() == BLUE


def test_reinforce_draws_destroyed_cards_once_the_deck_is_spent():
    rest = [c for c in range(18) if c not in (REINFORCE, AMBUSH, HEAVY_TANKS, SUPPORT, TRANSPORT)]
    state = arranged(hands=([REINFORCE, AMBUSH], [HEAVY_TANKS, SUPPORT]), bottom=[TRANSPORT],
                     table=[(BLUE if i % 2 else RED, c, i % 3, False) for i, c in enumerate(rest)])
    assert state.pool == []
    play(state, "play Reinforce face-up to Land")
    assert not state.is_chance_node() and state.held == TRANSPORT and state.bottom == []


# --- ongoing destruction ---------------------------------------------------------------------


def test_containment_destroys_every_face_down_play_even_its_owners():
    state = arranged(hands=([HEAVY_TANKS, AMBUSH], [SUPER_BATTLESHIP, SUPPORT]),
                     table=[(RED, CONTAINMENT, AIR, True)])
    play(state, "play Heavy Tanks face-down to Sea", "play Super Battleship face-down to Land")
    assert state.stacks[RED][SEA] == [] and state.stacks[BLUE][LAND] == []
    assert state.bottom == [HEAVY_TANKS, SUPER_BATTLESHIP]
    play(state, "play Ambush face-up to Land")
    assert state.stacks[RED][LAND] == [AMBUSH]  # face-up plays stand


def test_blockade_destroys_a_card_played_next_door_to_three_and_its_ability_never_happens():
    state = arranged(hands=([AMBUSH, HEAVY_BOMBERS, HEAVY_TANKS], [ESCALATION, SUPPORT, AERODROME]),
                     order=(AIR, LAND, SEA), table=[
                         (BLUE, BLOCKADE, SEA, True), (BLUE, REINFORCE, LAND, False),
                         (RED, COVER_FIRE, LAND, False), (RED, TRANSPORT, LAND, False),
                         (RED, DISRUPT, AIR, False), (BLUE, REDEPLOY, AIR, False),
                         (BLUE, SEA_MANEUVER, AIR, False)])
    play(state, "play Ambush face-up to Land")
    assert AMBUSH in state.bottom and state.current_player() == BLUE  # no Ambush flip
    play(state, "play Escalation face-down to Sea", "play Heavy Bombers face-up to Air")
    assert top(state, RED, AIR) == HEAVY_BOMBERS  # Air is not next to Sea


def test_blockade_spares_a_theater_with_two_cards():
    state = arranged(hands=([HEAVY_TANKS], [SUPPORT]), order=(AIR, LAND, SEA), table=[
        (BLUE, BLOCKADE, SEA, True), (BLUE, REINFORCE, LAND, False),
        (RED, COVER_FIRE, LAND, False)])
    play(state, "play Heavy Tanks face-up to Land")
    assert top(state, RED, LAND) == HEAVY_TANKS


# --- battles, the war ------------------------------------------------------------------------


def test_theaters_rotate_right_and_the_commander_changes_hands_each_battle():
    state = SPEC.load().new_initial_state()
    state.apply_action(BLUE)  # Blue holds the 1st Player card
    state.apply_action(0)  # the first order: Air, Land, Sea
    assert state.order == (AIR, LAND, SEA) and state.first == BLUE
    for card in range(12):
        state.apply_action(card)
    assert state.hands == [[6, 7, 8, 9, 10, 11], [0, 1, 2, 3, 4, 5]]  # the 1st Player first
    assert state.current_player() == BLUE
    play(state, "withdraw")
    assert state.order == (SEA, AIR, LAND) and state.first == RED and state.battle == 2
    assert state.vp == [2, 0] and state.is_chance_node()
    assert len(state.chance_outcomes()) == 18


@pytest.mark.parametrize("target", [12, 18])
def test_the_war_ends_at_the_target_with_win_loss_and_gamebenchs_vp_share(target):
    state = arranged(hands=([SUPPORT], [AMBUSH, HEAVY_TANKS]), vp=(target - 2, 4), first=BLUE,
                     turn=RED, params={"target": target})
    play(state, "withdraw")
    assert not state.is_terminal() and state.vp == [target - 2, 10]
    done = arranged(hands=([SUPPORT, AIR_DROP, AERODROME, CONTAINMENT, HEAVY_BOMBERS, AMBUSH],
                           [HEAVY_TANKS, TRANSPORT, ESCALATION, REDEPLOY, BLOCKADE, REINFORCE]),
                    vp=(target - 2, 4), first=RED, turn=BLUE, params={"target": target})
    play(done, "withdraw")
    assert done.is_terminal() and done.returns() == [1.0, -1.0]
    metric = SPEC.metrics(done, ["a", "b"])["gamebench"]
    assert metric["vp"] == [target, 4]
    assert metric["share"] == pytest.approx([target / (target + 4), 4 / (target + 4)])


def test_actions_decode_to_what_their_labels_say():
    state = arranged(hands=([HEAVY_TANKS], [AMBUSH]))
    move = resolve(SPEC, state, RED, Text(text="play Heavy Tanks face-down to Land"))
    assert decode(move.action).card == HEAVY_TANKS and not decode(move.action).face_up
    assert state.action_to_string(RED, move.action) == "play Heavy Tanks face-down to Land"


def test_openspiel_random_simulation_checks():
    pyspiel.random_sim_test(SPEC.load(), num_sims=10, serialize=True, verbose=False)
