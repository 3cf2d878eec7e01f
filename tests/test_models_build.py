"""Every pydantic model of the bridge builds. Models outside a Fill's plan are built on first use
(`defer_build`, so a cold bridge's first plan does not wait for them): a type that does not
resolve would otherwise surface only when a person first sends that payload."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pydantic
import pytest

import bridge


def _models() -> list[type[pydantic.BaseModel]]:
    found: dict[str, type[pydantic.BaseModel]] = {}
    for info in pkgutil.walk_packages(bridge.__path__, "bridge."):
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, pydantic.BaseModel) and obj.__module__ == info.name:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[name] for name in sorted(found)]


MODELS = _models()


def test_some_models_are_built_on_first_use() -> None:
    deferred = [m for m in MODELS if m.model_config.get("defer_build")]
    assert deferred and len(deferred) < len(MODELS)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: f"{m.__module__}.{m.__qualname__}")
def test_model_builds(model: type[pydantic.BaseModel]) -> None:
    model.model_rebuild(force=True, raise_errors=True)
    assert model.__pydantic_complete__
    assert model.model_json_schema()["type"] == "object"
