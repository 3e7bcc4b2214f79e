"""What a seat (or an onlooker) may see of a card game: the VIEW FORMAT, kept stable (keys are added, never renamed).

`view(state, None)` (public) is a JSON-able dict with exactly these keys:

- `game`: "cards"; `players`: int; `expert`: bool; `solo`: bool; `turn`: int (turns played so far)
- `current`: seat whose turn it is; `phase`: "turn" | "traitor" | "count" | "announce" | "token" | "vivien_give"
  | "vivien_keep" | "arthur" | "gawain" | "gawain_pick" | "percival" | "over"
- `silence`: bool — Morgan's silence holds (C-SILENCE): players may not communicate (never once the game is over)
- `threat_top`: the card id on top of the Threat pile, `"hidden"` for a face-down Morgan #1 card, or None (empty)
- `threat_announced`: None, or `{"seat", "quest", "value"}` — what the player who laid the face-down top card
  announced (value: 2..5 or "q" for "?"); it may be a lie
- `threat_count`: int (cards in the Threat pile; only the top one is ever shown)
- `quest_options`: quests one may go on now given the top card ("war" → picts/saxons, "any" → all five)
- `swords`: `{"white", "black", "left"}` (left = still in the box)
- `deck_count`, `discard_count`: Rumor cards in the deck and in the discards
- `accusations`: list of `{"by", "target", "loyalty", "swords"}` in order (each player accuses at most once)
- `revealed`: list of `{"seat", "loyalty"}` for every seat whose loyalty was shown (accused, or the final reveal),
  as it was shown (Vivien may since have let the seat swap its card in secret); at the end, every seat's last card
- `traitors_revealed`: sorted list of seats revealed as Traitors
- `pending`: list of `{"seat", "kind", "timing"}` (the engine's prompts; kinds: turn, traitor_place, morgan2_count,
  morgan1_announce, merlin4_token, vivien_give, vivien_keep, arthur, gawain, gawain_pick, percival)
- `morgan1`, `morgan2`: bool — Morgan #1 (face-down listening) / Morgan #2 (count announcements) in force (never
  once the game is over)
  (the number the next Morgan #2 listener must announce is deliberately absent: it is a memory challenge)
- `merlin4_token`: bool — Merlin #4's token lies face down (its quest is secret: the seed says face down)
- `knights`: None unless expert, else `{"deck": int, "held": [int per seat], "played": [card ids in order],
  "morgans_aside": int}` (how many Knight cards each seat holds is public: they lie face down in front of it)
- `resolution`: None, or the quest being resolved: `{"quest", "by", "totals": {quest: total}, "main_cards": int}`
  (totals are public once the pile is sorted; shown while a Gawain window is open)
- `result`: None while running, else the dict of `CardGame.result`

`view(state, seat)` has every public key plus `you`:

- `seat`: int; `loyalty`: "loyal" | "traitor" | None (solo)
- `accused`: the seat you accused, or None; `knights`: your Knight card ids (expert, else [])
- `looks`: Galahad looks, list of `{"seat", "loyalty"}` (as seen at the time)
- `tristan`: None, or the Rumor deck (top first) as you last saw it with Tristan
- `morgan1_card`: the card id under the face-down top card if you know it (you laid it, or your current
  Tristan look showed the deck it came from), else None
- `held`: the quest card you are looking at under Morgan #1 before announcing, else None
- `merlin4_quest`: the quest on Merlin #4's token if you chose it, else None
- `traitor_draw`: the Rumor cards you drew as a revealed Traitor and must place one of, else []
- `gawain_draw`: the Rumor cards you drew with Gawain and must play one of, else []
- `vivien_card`: the loyalty of the card Vivien gave you to keep or swap (while deciding), else None
"""

from __future__ import annotations

from typing import Any

from engine.cards.catalogue import CARDS, EXHAUSTED_ICONS, SWORDS_TOTAL, TRAITOR
from engine.cards.state import PUBLIC, State, seen
from engine.core.prompts import Prompt


def quest_options(s: State) -> tuple[str, ...]:
    """The quests the top Threat card allows (C-QUEST), or all of them when nothing can be drawn any more."""
    if not s.deck and not s.discard:
        return EXHAUSTED_ICONS if s.threat else ()
    if not s.threat:
        return ()
    if s.threat_seen[-1] != PUBLIC:
        ann = s.announced[-1]
        return (ann[1],) if ann else ()
    return CARDS[s.threat[-1]].icons


def public_view(s: State, prompts: list[Prompt], result: dict[str, Any] | None) -> dict[str, Any]:
    top = None
    if s.threat:
        top = "hidden" if s.threat_seen[-1] != PUBLIC else s.threat[-1]
    ann = None
    if top == "hidden" and s.announced[-1] is not None:
        seat, quest, value = s.announced[-1]
        ann = {"seat": seat, "quest": quest, "value": value}
    knights = None
    if s.expert:
        knights = {
            "deck": len(s.knight_deck),
            "held": [len(h) for h in s.knights],
            "played": list(s.knights_played),
            "morgans_aside": len(s.aside),
        }
    res = None
    if s.resolution is not None and "totals" in s.resolution:
        res = {
            "quest": s.resolution["main"],
            "by": s.resolution["by"],
            "totals": dict(s.resolution["totals"]),
            "main_cards": len(s.resolution["stacks"].get(s.resolution["main"], ())),
        }
    return {
        "game": "cards",
        "players": s.n,
        "expert": s.expert,
        "solo": s.solo,
        "turn": s.turn,
        "current": s.current,
        "phase": s.phase,
        "silence": s.silence,
        "threat_top": top,
        "threat_announced": ann,
        "threat_count": len(s.threat),
        "quest_options": list(quest_options(s)),
        "swords": {"white": s.white, "black": s.black, "left": SWORDS_TOTAL - s.white - s.black},
        "deck_count": len(s.deck),
        "discard_count": len(s.discard),
        "accusations": [{"by": a, "target": t, "loyalty": lo, "swords": n} for a, t, lo, n in s.accusations],
        "revealed": [{"seat": i, "loyalty": s.revealed[i]} for i in range(s.n) if s.revealed[i]],
        "traitors_revealed": [i for i in range(s.n) if s.revealed[i] == TRAITOR],
        "pending": [{"seat": p.seat, "kind": p.kind, "timing": p.timing} for p in prompts],
        "morgan1": s.morgan1,
        "morgan2": s.morgan2,
        "merlin4_token": s.token is not None,
        "knights": knights,
        "resolution": res,
        "result": result,
    }


def seat_view(s: State, seat: int) -> dict[str, Any]:
    """The `you` part of a seat's view: only what this seat knows."""
    top_known = bool(s.threat) and s.threat_seen[-1] != PUBLIC and seen(s.threat_seen[-1], seat)
    acting = s.actor == seat
    vivien_card = None
    if s.phase == "vivien_keep" and s.vivien is not None and seat in s.window:
        vivien_card = s.loyalty[s.vivien["slots"][seat]]
    return {
        "seat": seat,
        "loyalty": None if s.solo else s.loyalty[seat],
        "accused": None if s.accused[seat] < 0 else s.accused[seat],
        "knights": list(s.knights[seat]),
        "looks": [{"seat": t, "loyalty": lo} for t, lo in s.looks[seat]],
        "tristan": None if s.tristan_seen[seat] is None else list(s.tristan_seen[seat]),
        "morgan1_card": s.threat[-1] if top_known else None,
        "held": s.held if (s.phase == "announce" and acting) else None,
        "merlin4_quest": s.token if (s.token is not None and s.token_by == seat) else None,
        "traitor_draw": list(s.traitor_hand) if (s.phase == "traitor" and acting) else [],
        "gawain_draw": list(s.gawain_hand) if (s.phase == "gawain_pick" and acting) else [],
        "vivien_card": vivien_card,
    }

