"""Issue 38 step 1: the observation holds what its player knows. Each test builds two positions that differ only in
what the acting player knows (and nothing the rules hide from it), and requires its observations to differ, and to
say the right thing. Rule IDs: LN-S2 (choose the main from the deck list), LN-S4 (the mulligan's cards at the bottom),
LN-A3/LN-A4 (attack declaration, combi partner), LN-J7 (combi loss and its chooser), LN-K2 (queued [Start] skills,
entry by entry), LN-B2 (burst alternation), LN-T7 (the end-of-turn stage), LN-T8 (modifier durations)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.obs_layout import (
    AP_UNIT, CHAR_AP_BATTLE, CHAR_AP_NEXT, CHAR_AP_TURN, CHAR_ATTACKER, CHAR_PARTNER, CHAR_QUEUED,
    CONTEXT_BURST_ONE_PASS, CONTEXT_CHOICE_AMOUNT, CONTEXT_CHOICE_EFFECT, CONTEXT_COMBI_LOSS_OPP, CONTEXT_COMBI_LOSS_OWN, CONTEXT_END_STAGE,
    CONTEXT_LEVEL_DOWN_OPP, CONTEXT_LEVEL_DOWN_OWN, CONTEXT_RESULT_DEFENDER, CONTEXT_RESULT_TIE, OBS, QUEUED_CARD_ID,
    QUEUED_NEXT_EFFECT, QUEUED_OPP, QUEUED_OWN, QUEUED_TRIGGER, QUEUED_WHERE,
)
from cardenvs.games.levelneo.state import (
    ES_CLEANUP, ES_DISCARD_OPPONENT, ES_DISCARD_TURN_PLAYER, ES_SKILLS, QUEUE_ENTRY_INST, QUEUE_ENTRY_NEXT_EFFECT,
    QUEUE_ENTRY_PLAYER, QUEUE_ENTRY_SIZE, QUEUE_ENTRY_TRIGGER, RES_DEFENDER, RES_TIE, ST_BURST, ST_CHOOSE_MAIN,
    ST_COMBI_LOSS, ST_END, ST_LEVEL_DOWN, ST_MAIN, ST_PARTNER, ST_TARGET,
)
from cardenvs.games.levelneo.tables import TR_END_TURN, TR_EVENT, TR_ON_PLAY

from levelneo_helpers import POOL, A, build, field, inst_of


def side(**kw) -> dict:
    return {"main": "Ashen Recruit", **kw}


def observe(g: BatchGame, p: int) -> np.ndarray:
    return g.observe([p])[0]


def card_id(name: str) -> int:
    return POOL.by_name[name] + 1


def test_LN_S2_choose_main_observation_holds_the_deck_list_the_action_indexes() -> None:
    """Two deck lists with the same cards on other instances: choose_main's action i picks instance i, so the
    observation must say which card each instance is (it showed neither, and aggro and control looked the same)."""
    a = build(side(deck=["Ember Squire", "Cinder Pup"]), side(), step=ST_CHOOSE_MAIN)
    b = build(side(deck=["Cinder Pup", "Ember Squire"]), side(), step=ST_CHOOSE_MAIN)
    oa, ob = observe(a, 0), observe(b, 0)
    assert not np.array_equal(oa, ob)
    for g, o in ((a, oa), (b, ob)):
        assert list(OBS.get(o, "deck_list").astype(int)) == list(field(g, "deck_list")[0] + 1)
    top = int(field(a, "deck_count")[0])  # the main is instance 0, the deck's instances follow it, top last
    assert OBS.get(oa, "deck_list")[top - 1] == card_id("Ember Squire")
    assert OBS.get(ob, "deck_list")[top - 1] == card_id("Cinder Pup")
    # each viewer sees its own deck list, never the opponent's
    assert list(OBS.get(observe(a, 1), "deck_list").astype(int)) == list(field(a, "deck_list")[1] + 1)
    # fresh games: the starter decks' deck lists are told apart at the first choose_main
    seen = []
    for decks in (("aggro", "aggro"), ("control", "control")):
        g = BatchGame(SPEC, 1, decks=decks, seed=3)
        g.step([A("go_first")])
        assert int(field(g, "step")) == ST_CHOOSE_MAIN
        seen.append(observe(g, int(g.to_act[0])))
    assert not np.array_equal(seen[0], seen[1])


def test_LN_S4_mulliganed_cards_at_the_deck_bottom_are_observed_by_their_owner_only() -> None:
    """A card its owner put at the bottom of its deck at the mulligan is known there (no shuffle follows); an unseen
    card at the same place is not."""
    known = build(side(deck=["Magma Titan"]), side(), step=ST_MAIN)
    unknown = build(side(deck=["Magma Titan"]), side(), step=ST_MAIN)
    for g in (known, unknown):  # Magma Titan (on top as built) to the very bottom of the deck
        deck = field(g, "deck")[0]
        n = int(field(g, "deck_count")[0])
        deck[:n] = np.roll(deck[:n], 1)
        bottom = int(deck[0])
        assert POOL.name(int(field(g, "deck_list")[0, bottom])) == "Magma Titan"
    field(known, "drawn")[0, bottom] = 1
    ok, ou = observe(known, 0), observe(unknown, 0)
    assert not np.array_equal(ok, ou)
    assert OBS.get(ok, "deck_bottom")[0] == card_id("Magma Titan")
    assert not OBS.get(ou, "deck_bottom").any()
    # the opponent does not know it
    assert np.array_equal(observe(known, 1), observe(unknown, 1))


def _attack_declared(step: int, attacker: str) -> BatchGame:
    g = build(side(supports=["Meadow Scout", "Harbor Watch"]), side(), step=step)
    field(g, "atk_a")[...] = inst_of(g, 0, "main") if attacker == "main" else inst_of(g, 0, "support", 0)
    return g


def test_LN_A3_partner_and_target_steps_show_the_declared_attacker() -> None:
    """At the partner and target steps the attacker is declared: the main and a support attacking must look
    different (the observation showed attackers only once the target was declared)."""
    for step in (ST_PARTNER, ST_TARGET):
        by_main, by_support = _attack_declared(step, "main"), _attack_declared(step, "support")
        om, os_ = observe(by_main, 0), observe(by_support, 0)
        assert not np.array_equal(om, os_), step
        assert OBS.get(om, "main")[0, CHAR_ATTACKER] == 1 and OBS.get(os_, "main")[0, CHAR_ATTACKER] == 0
        assert OBS.get(os_, "supports")[0, 0, CHAR_ATTACKER] == 1
        # public: the defender sees the declaration too
        assert not np.array_equal(observe(by_main, 1), observe(by_support, 1))


def _combi(swap: bool, result: int = RES_DEFENDER, step: int = ST_COMBI_LOSS) -> BatchGame:
    g = build(side(supports=["Meadow Scout", "Harbor Watch"]), side(level=["Clumsy Page"]), step=step, to_act=1)
    s0, s1 = inst_of(g, 0, "support", 0), inst_of(g, 0, "support", 1)
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = s1 if swap else s0
    field(g, "atk_b")[...] = s0 if swap else s1
    field(g, "target")[...] = inst_of(g, 1, "main")
    field(g, "orig_target")[...] = inst_of(g, 1, "main")
    field(g, "combi_chooser")[...] = 1
    field(g, "result")[...] = result
    return g


def test_LN_J7_combi_loss_tells_the_attacker_from_its_partner() -> None:
    """combi_loss 0 discards the attacker, 1 its partner: the chooser must see which is which."""
    a, b = _combi(False), _combi(True)
    oa, ob = observe(a, 1), observe(b, 1)
    assert not np.array_equal(oa, ob)
    sup = OBS.get(oa, "supports")[1]  # the viewer's opponent's supports
    assert sup[0, CHAR_ATTACKER] == 1 and sup[0, CHAR_PARTNER] == 0
    assert sup[1, CHAR_ATTACKER] == 0 and sup[1, CHAR_PARTNER] == 1


def test_LN_J1_the_judged_result_is_observed() -> None:
    """After the judgement a tie (a loss for both) and a defender's win look different."""
    tie, won = observe(_combi(False, RES_TIE), 1), observe(_combi(False, RES_DEFENDER), 1)
    assert not np.array_equal(tie, won)
    assert OBS.get(tie, "context")[CONTEXT_RESULT_TIE] == 1 and OBS.get(won, "context")[CONTEXT_RESULT_DEFENDER] == 1


def test_LN_T8_ap_modifiers_are_observed_by_how_long_they_last() -> None:
    """+500 until end of turn and +500 until the end of the next battle give the same AP now, and end differently."""
    obs = {}
    for name in ("ap_turn", "ap_next", "ap_battle"):
        g = build(side(supports=["Meadow Scout"]), side())
        field(g, name)[0, inst_of(g, 0, "support", 0)] = 500
        obs[name] = observe(g, 0)
    assert not np.array_equal(obs["ap_turn"], obs["ap_next"])
    assert not np.array_equal(obs["ap_next"], obs["ap_battle"])
    for name, col in (("ap_turn", CHAR_AP_TURN), ("ap_next", CHAR_AP_NEXT), ("ap_battle", CHAR_AP_BATTLE)):
        assert OBS.get(obs[name], "supports")[0, 0, col] == 500 // AP_UNIT  # stored in hundreds


def _choice(source_slot: int, queued: bool = False, step: int = ST_MAIN) -> BatchGame:
    g = build(side(supports=["Red Lotus Striker", "Storm Archon", "Ember Squire"]), side(supports=["Meadow Scout"]),
              step=step)
    field(g, "choice_player")[...] = 0
    field(g, "choice_inst")[...] = inst_of(g, 0, "support", source_slot)
    field(g, "choice_effect")[...] = 0
    if queued:
        entry = field(g, "queue")[0]
        entry[QUEUE_ENTRY_PLAYER] = 0
        entry[QUEUE_ENTRY_INST] = inst_of(g, 0, "support", 2)
        entry[QUEUE_ENTRY_TRIGGER] = TR_END_TURN
        field(g, "queue_count")[...] = 1
    return g


def test_LN_K2_pending_choice_names_its_source_and_the_effects_queued_behind_it() -> None:
    """Two sources with the same one-support rest (Red Lotus Striker, Storm Archon) and a queued [Start] skill
    behind the choice: each is something the chooser knows."""
    a, b = observe(_choice(0), 0), observe(_choice(1), 0)
    assert not np.array_equal(a, b)
    assert OBS.get(a, "choice_card") == card_id("Red Lotus Striker")
    assert OBS.get(b, "choice_card") == card_id("Storm Archon")
    assert OBS.get(a, "context")[CONTEXT_CHOICE_EFFECT] == 0 and OBS.get(a, "context")[CONTEXT_CHOICE_AMOUNT] == 0
    q = observe(_choice(0, queued=True), 0)
    assert not np.array_equal(a, q)
    assert OBS.get(q, "supports")[0, 2, CHAR_QUEUED] == 1 and OBS.get(a, "supports")[0, 2, CHAR_QUEUED] == 0


def test_LN_B2_burst_alternation_shows_a_pass_made() -> None:
    """One pass in the burst alternation: a second pass ends it, so it differs from none."""
    obs = []
    for passes in (0, 1):
        g = build(side(level=["Clumsy Page"]), side(level=["Clumsy Page"]), step=ST_BURST, to_act=1)
        field(g, "battle")[...] = 1
        field(g, "atk_a")[...] = inst_of(g, 0, "main")
        field(g, "target")[...] = inst_of(g, 1, "main")
        field(g, "burst_player")[...] = 1
        field(g, "burst_passes")[...] = passes
        obs.append(observe(g, 1))
    assert not np.array_equal(obs[0], obs[1])
    assert OBS.get(obs[1], "context")[CONTEXT_BURST_ONE_PASS] == 1


def test_LN_S4_the_own_instances_held_and_the_pending_level_down_are_observed() -> None:
    """Which own cards the viewer has held (LN-S4: it knows where each went) and whose main must level down (LN-J5),
    found missing by check_game's observation-completeness check; a stale attacker (no attack declared) is not
    shown, since the rules never read it."""
    a = build(side(deck=["Magma Titan"]), side())
    b = build(side(deck=["Magma Titan"]), side())
    top = int(field(b, "deck")[0, int(field(b, "deck_count")[0]) - 1])
    field(b, "drawn")[0, top] = 1
    oa, ob = observe(a, 0), observe(b, 0)
    titan = POOL.by_name["Magma Titan"]
    assert not np.array_equal(oa, ob) and OBS.get(ob, "held")[titan] == 1 and OBS.get(oa, "held")[titan] == 0
    assert np.array_equal(observe(a, 1), observe(b, 1))
    g = _combi(False)
    field(g, "pending_level_down")[...] = 1
    ctx = OBS.get(observe(g, 1), "context")
    assert ctx[CONTEXT_LEVEL_DOWN_OWN] == 1 and ctx[CONTEXT_LEVEL_DOWN_OPP] == 0
    g = build(side(), side())
    field(g, "atk_a")[...] = inst_of(g, 0, "main")  # stale: no attack declared, the rules never read it
    assert OBS.get(observe(g, 0), "main")[0, CHAR_ATTACKER] == 0


def test_LN_J7_the_pending_combi_loss_chooser_is_observed() -> None:
    """A support + support combi tied with the defending main: the defender levels down first (LN-J5), then chooses
    which attacker is discarded (LN-J7). At the level-down step that second choice is still to come, and a level
    down with no combi loss behind it must look different (found by check_game's completeness check: 11 changes
    of combi_chooser not shown)."""
    views = {}
    for chooser in (1, -1):
        g = _combi(False, RES_TIE, step=ST_LEVEL_DOWN)
        field(g, "pending_level_down")[...] = 1
        field(g, "combi_chooser")[...] = chooser
        views[chooser] = (observe(g, 1).copy(), observe(g, 0).copy())  # (one game's views share a buffer)
        g.step([A("level_down", 0)])  # the rules read it next: the combi-loss choice, or the battle's end
        assert (int(field(g, "step")) == ST_COMBI_LOSS) == (chooser == 1), chooser
    assert not np.array_equal(views[1][0], views[-1][0])
    assert not np.array_equal(views[1][1], views[-1][1])  # public: the attacker knows it too
    own, opp = OBS.get(views[1][0], "context"), OBS.get(views[1][1], "context")
    assert own[CONTEXT_COMBI_LOSS_OWN] == 1 and own[CONTEXT_COMBI_LOSS_OPP] == 0
    assert opp[CONTEXT_COMBI_LOSS_OPP] == 1 and opp[CONTEXT_COMBI_LOSS_OWN] == 0
    assert OBS.get(views[-1][0], "context")[[CONTEXT_COMBI_LOSS_OWN, CONTEXT_COMBI_LOSS_OPP]].tolist() == [0, 0]


def test_LN_T7_the_end_of_turn_stage_is_observed() -> None:
    """A one-support choice pending at the end of turn: whether the end-of-turn skills are still to be queued, or
    which player's discard comes next, decides what follows it (found by check_game's completeness check: an
    end_stage change not shown). Outside the end step the stage is stale (set on entering it) and not shown."""
    views = []
    for stage in (ES_SKILLS, ES_DISCARD_TURN_PLAYER, ES_DISCARD_OPPONENT, ES_CLEANUP):
        g = _choice(0, step=ST_END)
        field(g, "end_stage")[...] = stage
        o = observe(g, 0)
        assert OBS.get(o, "context")[CONTEXT_END_STAGE] == stage + 1
        views.append(o)
    for i in range(len(views)):
        for j in range(i):
            assert not np.array_equal(views[i], views[j]), (i, j)
    stale = []
    for stage in (ES_SKILLS, ES_CLEANUP):
        g = _choice(0)
        field(g, "end_stage")[...] = stage
        stale.append(observe(g, 0))
    assert np.array_equal(stale[0], stale[1]) and OBS.get(stale[0], "context")[CONTEXT_END_STAGE] == 0


def test_LN_K2_the_queued_effects_are_observed_entry_by_entry() -> None:
    """The effects queued behind a pending choice, each public: whose source, which card and where, which trigger,
    which of its effects resolves next. Entries that differ only in their next effect or trigger must look
    different (found by check_game's completeness check: a queue entry's next_effect not shown)."""
    def queued(next_effect: int, trigger: int = TR_END_TURN, off_field: bool = False) -> BatchGame:
        g = _choice(0, queued=True)
        entry = field(g, "queue")[0]
        entry[QUEUE_ENTRY_NEXT_EFFECT] = next_effect
        entry[QUEUE_ENTRY_TRIGGER] = trigger
        if off_field:  # an opponent's source off the field (a deck card here, as an event in its discard pile is)
            field(g, "queue")[1, :QUEUE_ENTRY_SIZE] = (1, inst_of(g, 1, "deck", 0), TR_EVENT, 0)
            field(g, "queue_count")[...] = 2
        return g

    base, later, other = queued(0), queued(1), queued(0, TR_ON_PLAY)
    for viewer in (0, 1):
        views = [observe(g, viewer) for g in (base, later, other)]
        assert not np.array_equal(views[0], views[1]) and not np.array_equal(views[0], views[2])
    entry = OBS.get(observe(later, 0), "queue")[0]
    assert entry[QUEUED_OWN] == 1 and entry[QUEUED_OPP] == 0
    assert entry[QUEUED_CARD_ID] == card_id("Ember Squire") and entry[QUEUED_WHERE] == 2 + 2  # support slot 2
    assert entry[QUEUED_TRIGGER] == TR_END_TURN and entry[QUEUED_NEXT_EFFECT] == 1
    g = queued(0, off_field=True)
    card = POOL.name(int(field(g, "deck_list")[1, field(g, "queue")[1, QUEUE_ENTRY_INST]]))
    queue = OBS.get(observe(g, 0), "queue")
    assert queue[1, QUEUED_OPP] == 1 and queue[1, QUEUED_WHERE] == 0 and queue[1, QUEUED_CARD_ID] == card_id(card)
    assert queue[1, QUEUED_TRIGGER] == TR_EVENT and not queue[2:].any()
