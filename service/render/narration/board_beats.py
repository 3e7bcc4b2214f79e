"""The board game's beats: which events a line tells together (see `beats.py`).

Every rule here reads the engine's own fields: the `why` an effect carries names its cause (a quest id, a card id,
"siege", "evil", …), so an effect joins the line of the event that caused it and of no other.
"""

from __future__ import annotations

from engine.core.events import Event
from service.render.narration.beats import ABSORB, PART, Beat

# A private event that tells its reader the same fact as the public event just before it, with the secret in it.
TWINS = {
    "black_drawn": "black_drawn",
    "white_drawn": "white_gained",
    "face_down_value": "black_placed",
    "exchange_cards": "exchanged",
    "white_received": "white_given",
    "stolen_card": "stolen",
}

# Relics leave the game just BEFORE the event that says why (a death, a drink, a cancel, an unmasking); told after it.
_RELIC_REASON = {"death": "died", "drunk": "revived", "cancel": "black_cancelled", "traitor": "traitor_revealed"}

_EFFECTS = frozenset(("life", "swords", "siege_engines", "white_gained", "sword_flipped", "relic_removed"))
_BLACK_EFFECTS = frozenset(("figure_added", "black_placed", "excalibur_moved", "grail_lost", "all_to_camelot"))


def prepare(events: list[Event]) -> list[Event]:
    """Move each run of `relic_removed` after the event that explains it, so that event can take them as parts."""
    out = list(events)
    i = 0
    while i < len(out):
        e = out[i]
        if e.kind == "relic_removed" and e.data.get("why") in _RELIC_REASON:
            j = i
            while j < len(out) and out[j].kind == "relic_removed" and out[j].data.get("why") == e.data["why"]:
                j += 1
            if j < len(out) and out[j].kind == _RELIC_REASON[e.data["why"]]:
                out[i:j + 1] = [out[j], *out[i:j]]
                i = j + 1
                continue
        i += 1
    return out


def kinds(beat: Beat) -> set[str]:
    return {beat.head.kind, *(e.kind for e in beat.absorbed)}


def causes(beat: Beat) -> set[str]:
    """The `why` values of effects this beat caused."""
    head, found = beat.head, kinds(beat)
    out: set[str] = set()
    if "quest_over" in found:
        quest = (beat.took("quest_over") or head).data.get("quest")
        out |= {quest, "heroism", "mists_of_avalon"}
    if found & {"siege_fight", "siege_roll"}:
        out.add("siege")
    for kind in ("black_drawn", "black_not_cancelled", "special_played", "volunteer"):
        if kind in found:
            event = head if head.kind == kind else beat.took(kind)
            out |= {event.data.get("card"), "quest_over"}
    if head.kind == "evil":
        out.add("no_black_card")
    if head.kind == "accused":
        out |= {"accusation", "false_accusation", "traitor"}
    if head.kind == "special_played" and head.data.get("arg") == "reveal":
        out.add("traitor")
    if head.kind == "traitor_revealed":
        out.add("traitor")
    if head.kind in ("died", "left"):
        out.add("death")
    if head.kind == "revived":
        out.add("drunk")
    if head.kind == "black_cancelled":
        out.add("cancel")
    return out - {None}


def take(beat: Beat, e: Event) -> str | None:
    """ABSORB, PART or None (the event opens a beat of its own)."""
    head, why, found = beat.head, e.data.get("why"), kinds(beat)
    if head.kind == "evil" and not beat.absorbed:
        choice = head.data.get("choice")
        if (choice, e.kind) in (("black", "black_drawn"), ("siege", "siege_engines"), ("life", "life")) and (
            why in (None, "evil")
        ):
            return ABSORB
    if (head.kind, e.kind) in (("siege_roll", "siege_fight"), ("fight", "quest_over"), ("left", "died")) and (
        not beat.absorbed
    ):
        return ABSORB
    if head.kind in ("sacrifice", "healed") and e.kind == "life" and why in ("sacrifice", "heal") and not beat.absorbed:
        return ABSORB
    if e.kind == "excalibur_moved" and head.kind == "excalibur_push" and not beat.absorbed:
        return ABSORB
    if e.kind == "traitor_revealed" and why in ("accused", "fate") and head.kind in ("accused", "special_played"):
        return ABSORB
    if head.kind == "special_played" and e.kind == "merlin":
        return ABSORB
    if head.kind == "special_played" and e.kind == "white_gained" and why == head.data.get("card"):
        return ABSORB  # Fate, Reinforcements: the line says who draws what
    if head.kind == "black_placed" and head.data.get("card") == "hidden" and e.kind == "white_gained" and (
        why == "face_down" and not beat.absorbed
    ):
        return ABSORB
    if head.kind == "face_down_value" and e.kind == "white_drawn" and why == "face_down" and not beat.absorbed:
        return ABSORB
    if e.kind in _EFFECTS and why in causes(beat):
        return PART
    if e.kind == "relic_won" and "quest_over" in found:
        return PART
    if e.kind == "excalibur_moved" and head.kind == "special_played":
        return PART
    if e.kind in _BLACK_EFFECTS and found & {"black_drawn", "black_not_cancelled"}:
        return PART
    return None
