"""What the learning seats of :class:`~spadeskit.rl.VectorSpadesEnv` see and are paid (part
of :mod:`spadeskit.rl`): each table's observation in the rule set's encoding, its legal
actions, its text, and every side's reward for a hand just scored.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from spadeskit.core.cards import card_at
from spadeskit.engine.encoding import Encoding
from spadeskit.rl.tables import Tables

__all__ = ["Observing"]


class Observing(Tables):
    """The tables as their learning seats to act see them (see the module)."""

    encoding: Encoding
    num_actions: int
    menu_ids: NDArray[np.int64]
    side_of: NDArray[np.int64]
    unit: int
    render_mode: str | None
    _bid_column: NDArray[np.int64]
    """Each seat's bid as its observation column (see ``VectorSpadesEnv.__init__``)."""
    _bid_base: NDArray[np.int64]
    """Where each seat's entries of :attr:`_bid_column` start, plus one (no bid: -1)."""
    _row_base: NDArray[np.int64]
    """Each table's first index in the observations flattened."""
    _who: NDArray[np.int64]
    """Each table's learning seat to act (or, after a hand, the one that acted last)."""
    _last_mask: NDArray[np.bool_]
    _match_slots: NDArray[np.float32]
    _hand: int

    # -- rewards ---------------------------------------------------------------------------

    def _margins(self) -> NDArray[np.float64]:
        """Return each side's reward for the hand just scored (tables x sides): its
        points less the best other side's, in hundreds."""
        points = self.points
        if self.sides == 1:
            return np.zeros(points.shape, dtype=np.float64)
        margins = np.empty(points.shape, dtype=np.float64)
        for side in range(self.sides):
            others = np.delete(points, side, axis=1).max(axis=1)
            margins[:, side] = (points[:, side] - others) / self.unit
        return margins

    # -- what the learning seat sees ---------------------------------------------------------

    def _text(self, table: int) -> str:
        """Return table ``table`` as its learning seat to act sees it, in a few lines."""
        names = self.rules.table.seat_names
        seat = int(self._who[table])

        def cards(mask: int) -> str:
            return " ".join(card_at(i).code for i in range(53, -1, -1) if mask >> i & 1) or "-"

        bids = [int(k) for k in self.choice[table]]
        lines = [
            f"table {table}, hand {self._hand + 1}, {names[seat]} learning; "
            f"dealer {names[int(self.dealer[table])]}",
            f"hand: {cards(int(self.held[table, seat]))}",
            "bids: "
            + ", ".join(
                f"{names[s]} {self.menu[k] if k >= 0 else '-'}" for s, k in enumerate(bids)
            ),
            "books: " + ", ".join(f"{names[s]} {int(b)}" for s, b in enumerate(self.books[table])),
        ]
        if not self._bidding:
            order = [(int(self.leader[table]) + k) % self.n for k in range(self.n)]
            trick = [
                f"{names[s]} {cards(int(self.on_table[table, s]))}"
                for s in order
                if self.on_table[table, s]
            ]
            lines.append(f"trick {int(self.trick_no[table]) + 1}: " + (", ".join(trick) or "-"))
        if self.matches:
            match = self.match[table]
            show = self.rules.table.show_score
            lines.append("scores: " + ", ".join(show(s) for s in match.scores))
        return "\n".join(lines)

    def _acting(self) -> NDArray[np.int64]:
        """Return the learning seat to act at every table."""
        return self._bidder() if self._bidding else self._to_act()

    def _mask(self) -> NDArray[np.bool_]:
        mask = np.zeros((self.num_envs, self.num_actions), dtype=bool)
        if self._bidding:
            mask[:, self.menu_ids] = True
            return mask
        allowed = self._allowed(self._turn(self._rows, self._who))  # _who: set by _info
        mask[:, : self.encoding.cards] = _unpack(allowed[:, None], self.encoding.cards)[:, 0]
        return mask

    def _info(self) -> dict[str, Any]:
        self._who = self._acting()
        self._last_mask = self._mask()
        return {"action_mask": self._last_mask.copy(), "seat": self._who.copy()}

    def _update_match_slots(self) -> None:
        """Keep each table's match (scores, bags, hands played) as observation slots."""
        sides = self.sides
        scores = np.array([m.scores for m in self.match], dtype=np.float32)
        bags = np.array([m.bags for m in self.match], dtype=np.float32)
        hands = np.array([len(m.results) for m in self.match], dtype=np.float32)
        self._match_slots[:, :sides] = np.clip(scores / 1000, -1.0, 1.0)
        self._match_slots[:, sides : 2 * sides] = np.minimum(bags / 10, 1.0)
        self._match_slots[:, -1] = np.minimum(hands / 50, 1.0)

    def _observe(self, final: bool = False) -> NDArray[np.float32]:
        """Return each table's observation by its learning seat to act (``final``: the
        hand just played out, by the seat that last acted), in the encoding's slots."""
        encoding, n, size, rows = self.encoding, self.n, self.num_envs, self._rows
        c, slots = encoding.cards, encoding.slots
        who = self._who
        out = np.empty((size, encoding.observation_size), dtype=np.float32)
        # The card blocks (own cards, then what each seat played, then the trick by seat)
        # lie side by side: unpack all their masks' bytes at once, little end first, into
        # a view of the blocks (splitting a row's contiguous slots never copies).
        masks = np.concatenate(
            (self.held[rows, who][:, None], self.deals & ~self.held, self.on_table), axis=1
        )
        blocks = out[:, : slots["trick"].stop].reshape(size, 2 * n + 1, c)
        blocks[...] = _unpack(masks, c)
        out[:, slots["trick"].stop :] = 0.0
        # Every one-hot slot set at once: each seat's bid, the seat, the seat to act,
        # the dealer, the leader and the phase.
        ones = [self._bid_column[self._bid_base + self.choice], who + slots["seat"].start]
        if not final:
            ones.append(who + slots["to_act"].start)
        ones.append(self.dealer + slots["dealer"].start)
        if not self._bidding and not final:
            ones.append(self.leader + slots["leader"].start)
        ones.append(np.full(size, slots["phase"].start + (0 if self._bidding else 2)))
        flat = self._row_base[:, None] + np.column_stack(ones)
        out.reshape(-1)[flat] = 1.0
        out[:, slots["books"]] = self.books / encoding.tricks
        out[:, slots["held"]] = np.bitwise_count(self.held) / encoding.largest_hand
        out[:, slots["tricks"].start] = self.trick_no / encoding.tricks
        if self.matches:
            out[:, slots["scores"].start :] = self._match_slots
        return out


def _unpack(masks: NDArray[np.uint64], cards: int) -> NDArray[np.uint8]:
    """Return each of the masks (rows x masks) as ``cards`` zeros and ones, by card
    index: rows x masks x cards.  Only the bytes that hold cards are unpacked."""
    rows, count = masks.shape
    little = masks.astype("<u8", copy=False).view(np.uint8).reshape(rows, count, 8)
    bits = np.unpackbits(little[:, :, : (cards + 7) // 8], axis=2, bitorder="little")
    return bits[:, :, :cards]
