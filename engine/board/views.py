"""What a seat (or an onlooker) may see of a board game: plain JSON-able dicts.

The renderer (text and board image) builds on these keys; they are stable — new keys may be added, none renamed.

`view(state, None)` — the public view:
- `game`: "board"; `phase`: kind of the decision now due ("gesture", "split", "evil", "heroic", "post", "window", …)
  or "over"; `current`: seat whose turn it is; `turn`: turns begun so far; `order`: seats in turn order.
- `seats`: one dict per seat, index = seat: `seat`, `knight` (knight id, None for a squire), `life` (0..6), `location`
  ("camelot" or a quest id), `alive`, `hand` (number of white cards), `accused` (was accused and shown loyal),
  `has_accused` (used his one accusation), `revealed` (a revealed Traitor), `loyalty` ("loyal"/"traitor" when public,
  else None), `relics` (list of "excalibur", "grail", "armor").
- `quests`: per quest id (`black_knight`, `lancelot`, `dragon`, `excalibur`, `grail`, `picts`, `saxons`) a dict with
  `open` (can still be played), `knights` (seats present) and:
  - fight quests: `white` (fight card ids, in play order), `black` (black card ids, `"hidden"` when face down);
  - `excalibur`: `position` (0 = lost … `win` = won), `win`;
  - `grail`: `spots` (7 entries from the relic outwards: "grail", None, "despair" or "desolation"), `dark_forest`;
  - wars `picts`/`saxons`: `white` (fight card ids of the run), `figures` (0..4), `black` (the figures' card ids),
    `mordred` (Mordred strengthens this war), `needed` (next value to play, None when complete).
- `heroism`: quest holding the Heroism card or None; `vivien`, `mists_of_avalon`, `dark_forest`: special cards in play.
- `swords`: {"white", "black"}; `siege_engines`; `decks` and `discards`: {"white", "black"} sizes; `removed`: count.
- `table`: cards face up awaiting a decision (opening gesture, shared rewards, Convocation), `proposal`: the seat
  proposed for each of them so far; `drawn`: the black card being resolved (None if none; `"hidden"` for a Black
  Knight or Lancelot/Dragon card that may still go face down — in the drawer's own view it is the card itself).
- `pending`: [{"seat", "kind", "timing"}]; `result`: None, or {"winner": "loyal"|"evil", "reason", "loyalty": [...]}.

`view(state, seat)` is the public view plus `you`: `seat`, `hand` (sorted card ids), `loyalty` (None while the
three-player rule hides it), `black_top` (black cards the seat knows on top of the deck, top first: Percival's and
Clairvoyance's looks), `face_down` (its own face-down black cards: [{"quest", "index", "card"}]),
`legal` (its action codes now), `standing` (codes it may also send now without being asked — the Traitor's
unmasking with Fate — not repeated from `legal`; always [] for a seat that has none, and nothing of it reaches the
public view), `reorder` (while it puts Clairvoyance's black cards back: those still to place,
in the order `top:<i>` indexes them; else []), `bury` (while Percival with the Armor chooses: the two black cards
he saw, top first, in the order `bury:<i>` indexes them; else []), `armor` (while the holder of Lancelot's Armor
keeps one of the two black cards he drew: both, in the order `armor:<i>` indexes them; else []), `known_hands`
(per seat, the white cards it knows that seat holds — seen going there through Arthur's exchange, a Messenger or a
face-up split, and not seen leaving since; sorted; [] for its own seat).
"""

from __future__ import annotations

from typing import Any

from engine.board import catalogue as cat
from engine.board.state import BoardState


def _black_list(rows: list[list[Any]]) -> list[str]:
    return ["hidden" if down else card for card, down, _ in rows]


def _present(s: BoardState, where: str) -> list[int]:
    return [i for i in range(s.n) if s.alive[i] and not s.revealed[i] and s.loc[i] == where]


def quest_open(s: BoardState, quest: str) -> bool:
    if quest == "lancelot" or quest == "dragon":
        return s.lancelot_stage == quest
    if quest == "excalibur":
        return not s.excalibur_done
    if quest == "grail":
        return not s.grail_done
    return True


def war_needed(s: BoardState, war: str) -> int | None:
    run = s.war_white[war]
    full = len(cat.WAR_RUN) + (1 if s.mordred == war else 0)
    if len(run) >= full:
        return None
    return cat.MORDRED_EXTRA if len(run) >= len(cat.WAR_RUN) else cat.WAR_RUN[len(run)]


def public_loyalty(s: BoardState, seat: int) -> str | None:
    if s.revealed[seat] or s.known_loyal[seat] or s.config["traitor"] == "none":
        return s.loyalty[seat]
    return None


def public_view(s: BoardState, pending: list[dict[str, Any]]) -> dict[str, Any]:
    top = s.frames[-1] if s.frames else None
    grail_spots: list[str | None] = ["grail"] * s.grail_white
    grail_spots += [None] * (cat.GRAIL_SPOTS - s.grail_white - len(s.grail_black))
    grail_spots += list(reversed(s.grail_black))
    lance = {"white": list(s.lancelot_white), "black": _black_list(s.lancelot_black)}
    empty = {"white": [], "black": []}
    quests: dict[str, dict[str, Any]] = {
        "black_knight": {"white": list(s.black_knight_white), "black": _black_list(s.black_knight_black)},
        "lancelot": lance if s.lancelot_stage == "lancelot" else dict(empty),
        "dragon": lance if s.lancelot_stage == "dragon" else dict(empty),
        "excalibur": {"position": s.excalibur_position, "win": cat.EXCALIBUR_WIN},
        "grail": {"spots": grail_spots, "dark_forest": s.dark_forest},
    }
    for war in cat.WARS:
        quests[war] = {
            "white": list(s.war_white[war]), "figures": len(s.war_black[war]), "black": list(s.war_black[war]),
            "mordred": s.mordred == war, "needed": war_needed(s, war),
        }
    for q, d in quests.items():
        d["open"] = quest_open(s, q)
        d["knights"] = _present(s, q)
    split = s.frames[-2] if top and top["kind"] == "deal_first" else top  # (cards still on the table meanwhile)
    table = split.get("cards", []) if split and split["kind"] == "split" else []  # (a gesture's: once all chose)
    return {
        "game": "board",
        "phase": "over" if s.result else (top["kind"] if top else "over"),
        "current": s.current,
        "turn": s.turns,
        "order": list(s.order),
        "seats": [
            {
                "seat": i, "knight": s.knight[i], "life": s.life[i], "location": s.loc[i], "alive": s.alive[i],
                "hand": len(s.hands[i]), "accused": s.known_loyal[i], "has_accused": s.has_accused[i],
                "revealed": s.revealed[i], "loyalty": public_loyalty(s, i), "relics": list(s.relics[i]),
            }
            for i in range(s.n)
        ],
        "quests": quests,
        "heroism": s.heroism,
        "vivien": s.vivien,
        "mists_of_avalon": s.mists,
        "dark_forest": s.dark_forest,
        "swords": {"white": s.swords_white, "black": s.swords_black},
        "siege_engines": s.engines,
        "decks": {"white": len(s.white_deck), "black": len(s.black_deck)},
        "discards": {"white": len(s.white_discard), "black": len(s.black_discard)},
        "removed": len(s.removed),
        "table": list(table),
        "proposal": list(top.get("assign", [])) if top and top["kind"] == "split" else [],
        "drawn": _drawn(s, top),
        "pending": pending,
        "result": s.result,
    }


def _drawn(s: BoardState, top: dict[str, Any] | None, seat: int | None = None) -> str | None:
    if not top or top["kind"] not in ("window", "face", "war_choice"):
        return None
    card = top["card"]
    if card in cat.FACE_DOWN_ABLE and not s.revealed[s.current] and seat != s.current:
        return "hidden"
    return card


def seat_view(
    s: BoardState, seat: int, pending: list[dict[str, Any]], legal: list[str], standing: list[str]
) -> dict[str, Any]:
    view = public_view(s, pending)
    top = s.frames[-1] if s.frames else None
    face_down = []
    for quest, rows in (("black_knight", s.black_knight_black), (s.lancelot_stage, s.lancelot_black)):
        for index, (card, down, owner) in enumerate(rows):
            if down and owner == seat:
                face_down.append({"quest": quest, "index": index, "card": card})
    view["drawn"] = _drawn(s, s.frames[-1] if s.frames else None, seat)
    view["you"] = {
        "seat": seat,
        "hand": sorted(s.hands[seat]),
        "loyalty": s.loyalty[seat] if s.loyalty_seen[seat] else None,
        "black_top": list(s.peeks[seat]),
        "face_down": face_down,
        "legal": legal,
        "standing": standing,
        "reorder": list(top["cards"]) if top and top["kind"] == "clairvoyance" and seat == s.current else [],
        "bury": list(top["cards"]) if top and top["kind"] == "percival" and seat == s.current else [],
        "armor": list(top["cards"]) if top and top["kind"] == "armor" and seat == s.current else [],
        "known_hands": [sorted(cards) for cards in s.known[seat]],
    }
    return view
