"""Option ranges and ends on paper: checks that need no match played.

:func:`check_options` probes each documented option range, :func:`draw_options` draws
rule sets across those ranges for the kit's matches, and :func:`check_end_on_paper`
ties two sides at the target on a score sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spadeskit.core.errors import SpadesError
from spadeskit.engine.loader import load_rules
from spadeskit.engine.rules import Rules
from spadeskit.testing.declarations import reading
from spadeskit.testing.scores import reference_end

__all__ = ["check_options", "check_end_on_paper", "draw_options"]

# ------------------------------------------------------------------------------------------
# Options
# ------------------------------------------------------------------------------------------


def _range_values(text: str) -> tuple[list[Any], list[Any]]:
    """Return ``(inside, outside)`` probe values for a documented range.

    ``"1.."``, ``"..0"``, ``"1..13"``, alternatives ``"0|1|2"`` or ``"True|False"``,
    quoted strings ``"'a'|'b'"``, ``"|None"`` for an option that can be turned off, and
    ``"!'x'"`` (or ``"!5"``) for a value that must be refused.
    """
    inside: list[Any] = []
    outside: list[Any] = []
    for part in text.split("|"):
        part = part.strip()
        if part.startswith("!"):
            refused = part[1:]
            outside.append(refused[1:-1] if refused[:1] in "'\"" else int(refused))
        elif ".." in part:
            low_text, high_text = part.split("..")
            low = int(low_text) if low_text else None
            high = int(high_text) if high_text else None
            inside += [v for v in (low, high) if v is not None]
            if low is not None and high is not None and high - low > 1:
                inside.append((low + high) // 2)
            if low is not None and high is not None and high - low > 20:
                # Values a table would choose, 1, 10, 100, 1000 from the end nearer zero
                # (a margin of 1, a target of 101): the ends and the middle are rarely
                # what play reaches.
                near, sign = (low, 1) if abs(low) <= abs(high) else (high, -1)
                inside += [near + sign * 10**k for k in (0, 1, 2, 3) if 10**k < high - low]
            elif low is not None and high is None:
                inside.append(low + 100)  # well inside an open range, away from its end
            elif high is not None and low is None:
                inside.append(high - 100)
            outside += [
                v
                for v in (
                    (low - 1) if low is not None else None,
                    (high + 1) if high is not None else None,
                )
                if v is not None
            ]
            outside.append("1")
        elif part == "None":
            inside.append(None)
        elif part in ("True", "False"):
            inside.append(part == "True")
        elif part[:1] in "'\"":
            inside.append(part[1:-1])
            outside.append(part[1:-1] + "?")
        else:
            inside.append(int(part))
            outside.append(int(part) + 1000)
    if "None" not in text.split("|") and ".." in text:
        outside.append(None)
    return inside, [v for v in outside if v not in inside]


def check_options(rules: Rules, fail: Callable[[Rules, str, str], AssertionError]) -> int:
    """Check every documented option range and default against the plugins; return the
    number of values probed.

    Each value inside a range must load; each value just outside (and a value of the
    wrong type) must raise a :class:`~spadeskit.SpadesError` naming the option; and the
    rule set loaded without options must have every documented default.
    """
    read = reading(rules)
    pm = rules.plugin_manager
    keep = [pm.get_plugin(h) for h in rules.house_rules]
    variant = pm.get_plugin(rules.variant)
    probed = 0
    if read.defaults:
        plain = _load(variant, keep, {})
        for option, (plugin, default) in sorted(read.defaults.items()):
            probed += 1
            if option not in plain.options or plain.options[option] != default:
                raise fail(
                    rules,
                    "options",
                    f"option {option!r} of {plugin}: its default is "
                    f"{plain.options.get(option)!r}, the documented default {default!r}",
                )
    for option, (plugin, text) in sorted(read.ranges.items()):
        inside, outside = _range_values(text)
        for value in inside:
            probed += 1
            try:
                _load(variant, keep, {**rules.options, option: value})
            except SpadesError as exc:
                raise fail(
                    rules,
                    "options",
                    f"option {option!r} of {plugin} (documented {text}): {value!r} is in range "
                    f"but refused: {exc}",
                ) from exc
        for value in outside:
            probed += 1
            try:
                _load(variant, keep, {**rules.options, option: value})
            except SpadesError as exc:
                if option not in str(exc):
                    raise fail(
                        rules,
                        "options",
                        f"option {option!r} of {plugin}: refusing {value!r}, the error does not "
                        f"name the option: {exc}",
                    ) from exc
                continue
            raise fail(
                rules,
                "options",
                f"option {option!r} of {plugin} (documented {text}): {value!r} is out of range "
                "but accepted",
            )
    return probed


def _load(variant: object, house: Sequence[object], options: Mapping[str, Any]) -> Rules:
    return load_rules(variant, list(house), dict(options))


# Two hands that leave partnership sides tied: N/S bid 6 and take 7, E/W bid 6 and take 6,
# then the other way round (61 + 60 each, one bag each).
_TIE = (((3, 3, 3, 3), (4, 3, 3, 3)), ((3, 3, 3, 3), (3, 4, 3, 3)))


def check_end_on_paper(rules: Rules, fail: Callable[[Rules, str, str], AssertionError]) -> bool:
    """Check ties at the target on a score sheet; return whether the check applied.

    With the target set to 121, two hands tie the sides at 121: the match must go on
    (an exact tie at the top plays another hand) and end after a third hand, won by the
    side ahead.  Applies to rule sets of two partnership sides scored on paper with a
    ``target`` option and the ``target`` or ``jjdd`` match end.
    """
    read = reading(rules)
    if (
        len(rules.table.sides) != 2
        or rules.table.players != 4
        or "target" not in rules.options
        or read.values["end"] not in ("target", "jjdd")
    ):
        return False
    options = {**rules.options, "target": 121}
    pm = rules.plugin_manager
    try:
        tied = _load(
            pm.get_plugin(rules.variant), [pm.get_plugin(h) for h in rules.house_rules], options
        )
        sheet = tied.score_sheet()
        for number, (bids, books) in enumerate(_TIE + _TIE[:1]):
            sheet = sheet.add_hand(bids, books)
            ends, winner, rule = reference_end(read.with_options(options), tied, sheet.results)
            end = sheet.match.end
            if ends != (end is not None) or (end is not None and end.winner != winner):
                names = rules.table.side_names
                got = f"ends, won by {names[end.winner]}" if end is not None else "goes on"
                said = f"ends, won by {names[winner or 0]}" if ends else "goes on"
                raise fail(
                    rules,
                    "end",
                    f"match end ({rule}): on a score sheet with the target at 121, after hand "
                    f"{number + 1} (scores {sheet.match.scores}): the reference says the "
                    f"match {said}, the rules that it {got}",
                )
    except SpadesError:
        return False  # these bids are not allowed here (mirror, a board): nothing to check
    return True


def draw_options(rules: Rules, seed: int) -> Rules | None:
    """Return ``rules`` with option values taken from their documented ranges.

    Option ``i`` takes the ``(seed + i)``-th of the values :func:`check_options` probes
    inside its range and its current value (cyclically), so consecutive seeds go
    through every documented value of every option.  If that combination does not
    load, the next seed's is tried (five at most); None if none loads or no option is
    documented.
    """
    read = reading(rules)
    if not read.ranges:
        return None
    pm = rules.plugin_manager
    house = [pm.get_plugin(h) for h in rules.house_rules]
    for attempt in range(seed, seed + 5):
        options = dict(rules.options)
        for index, (option, (_, text)) in enumerate(sorted(read.ranges.items())):
            inside, _ = _range_values(text)
            if rules.options.get(option) not in inside:
                inside.append(rules.options.get(option))  # the default is in range too
            options[option] = inside[(attempt + index) % len(inside)]
        try:
            return _load(pm.get_plugin(rules.variant), house, options)
        except SpadesError:
            continue
    return None
