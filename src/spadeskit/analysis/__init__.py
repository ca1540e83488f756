"""Double-dummy analysis: best play with every hand known, hand reviews and par."""

from spadeskit.analysis.position import AnalysisUnsupported
from spadeskit.analysis.solver import Goal, Solution, side_tricks, solve

__all__ = ["AnalysisUnsupported", "Goal", "Solution", "side_tricks", "solve"]
