"""The arena on Ray (the optional ``ray`` extra; CI installs it and runs this file)."""

from __future__ import annotations

import pytest
from test_arena import played

import spadeskit
from spadeskit.arena import RayExecutor, evaluate

ray = pytest.importorskip("ray")


def test_an_evaluation_on_a_local_ray_equals_the_single_process_one() -> None:
    rules = spadeskit.load_rules("standard", options={"target": 200})
    here = evaluate(rules, "heuristic", "simple", deals=4, seed=7)
    executor = RayExecutor(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = evaluate(rules, "heuristic", "simple", deals=4, seed=7, executor=executor, batch=1)
    finally:
        executor.shutdown()
        ray.shutdown()
    assert played(on_ray) == played(here)
