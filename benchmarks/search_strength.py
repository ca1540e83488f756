"""Strength of the search bots against their budget (not a test): for each budget, the
mean score margin a hand against the heuristic bot on duplicate deals and the share of
decided deals won, each with its 95% interval, written as a table and as two SVG charts
for the docs.

    python benchmarks/search_strength.py [--bot ismcts] [--deals 60] [--budgets 50,100,200,400]
        [--variant standard] [--svg docs/_static/search_strength.svg]
        [--svg-wins docs/_static/search_win_rate.svg]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math

import spadeskit
from spadeskit.arena import evaluate_hands


def svg(
    points: list[tuple[int, float, float, float]],
    title: str,
    label: str = "margin a hand (points)",
    even: float = 0.0,
    step: int = 2,
    percent: bool = False,
) -> str:
    """Return a small SVG line chart of (budget, value, low, high), with a dashed line at
    ``even`` (what a bot as strong as the baseline scores)."""
    width, height, left, bottom, top, right = 560, 300, 60, 40, 30, 20
    xs = [p[0] for p in points]
    lows = [p[2] for p in points] + [even]
    highs = [p[3] for p in points] + [even]
    y0, y1 = min(lows) - step / 2, max(highs) + step / 2

    def x(value: int) -> float:
        k = xs.index(value)
        return left + (width - left - right) * (k / max(1, len(xs) - 1))

    def y(value: float) -> float:
        return top + (height - top - bottom) * (1 - (value - y0) / (y1 - y0))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<text x="{width / 2}" y="18" text-anchor="middle">{title}</text>',
        f'<line x1="{left}" y1="{y(even)}" x2="{width - right}" y2="{y(even)}" stroke="#999" '
        'stroke-dasharray="4"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#333"/>',
        f'<text x="14" y="{height / 2}" transform="rotate(-90 14 {height / 2})" '
        'text-anchor="middle">'
        f"{label}</text>",
        f'<text x="{width / 2}" y="{height - 6}" text-anchor="middle">iterations a decision</text>',
    ]
    for tick in range(math.ceil(y0), math.floor(y1) + 1):
        if tick % step == 0:
            text = f"{tick}%" if percent else f"{tick:+d}"
            parts.append(f'<text x="{left - 6}" y="{y(tick) + 4}" text-anchor="end">{text}</text>')
    path = " ".join(
        f"{'M' if k == 0 else 'L'}{x(b):.1f},{y(m):.1f}" for k, (b, m, _, _) in enumerate(points)
    )
    parts.append(f'<path d="{path}" fill="none" stroke="#1f6feb" stroke-width="2"/>')
    for b, m, lo, hi in points:
        parts.append(f'<line x1="{x(b)}" y1="{y(lo)}" x2="{x(b)}" y2="{y(hi)}" stroke="#1f6feb"/>')
        parts.append(f'<circle cx="{x(b)}" cy="{y(m)}" r="4" fill="#1f6feb"/>')
        parts.append(f'<text x="{x(b)}" y="{height - bottom + 16}" text-anchor="middle">{b}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument(
        "--extra", default="veto=0.2", help="more settings of the bot, e.g. veto=0.2"
    )
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--budgets", default="50,100,200,400")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--svg", default=None, help="write the margin chart here")
    parser.add_argument(
        "--svg-wins", default=None, help="write the chart of decided deals won here"
    )
    args = parser.parse_args()
    rules = spadeskit.load_rules(args.variant)
    points = []
    wins = []
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        for budget in (int(b) for b in args.budgets.split(",")):
            settings = ",".join(filter(None, [f"iterations={budget}", args.extra]))
            result = evaluate_hands(
                rules,
                f"{args.bot}[{settings}]",
                "heuristic",
                deals=args.deals,
                executor=pool,
                batch=2,
            )
            low, high = result.interval
            points.append((budget, result.mean_margin, low, high))
            rate, rate_low, rate_high = result.win_rate
            wins.append((budget, 100 * rate, 100 * rate_low, 100 * rate_high))
            plus, minus = result.deals_won
            print(
                f"{budget:>6} iterations: {result.mean_margin:+6.2f} a hand (95% CI "
                f"{low:+.2f} to {high:+.2f}); "
                f"deals won {plus} / lost {minus}: {100 * rate:.1f}% "
                f"({100 * rate_low:.1f}-{100 * rate_high:.1f}%)",
                flush=True,
            )
    title = (
        f"{args.bot} ({args.extra}) against the heuristic bot, {args.variant}, "
        f"{2 * args.deals} hands each"
    )
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(svg(points, title))
    if args.svg_wins:
        with open(args.svg_wins, "w", encoding="utf-8") as handle:
            handle.write(
                svg(wins, title, "decided deals won (%)", even=50.0, step=10, percent=True)
            )


if __name__ == "__main__":
    main()
