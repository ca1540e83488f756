"""The JSON Schemas the package ships (records and views), for clients in any language."""

from __future__ import annotations

import importlib.resources
import json
from typing import Any

__all__ = ["load_schema"]


def load_schema(name: str) -> dict[str, Any]:
    """Return the shipped schema ``name`` (``"record"`` or ``"view"``) as JSON data."""
    text = importlib.resources.files(__name__).joinpath(f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
