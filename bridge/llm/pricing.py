"""What a call costs: the person's per-model override, then litellm's bundled price map, then
Relay's own table, then the cost the provider reported."""

from __future__ import annotations

from typing import Any

from bridge.llm.config import RELAY_PRICES, LlmConfig, Price


def _litellm_price(model: str, cost_map: dict[str, Any] | None) -> Price | None:
    if not cost_map:
        return None
    candidates = [model]
    if "/" in model:
        candidates.append(model.split("/", 1)[1])
    for name in candidates:
        entry = cost_map.get(name)
        if not isinstance(entry, dict):
            continue
        cin, cout = entry.get("input_cost_per_token"), entry.get("output_cost_per_token")
        if isinstance(cin, int | float) and isinstance(cout, int | float):
            return Price(input_per_mtok=cin * 1e6, output_per_mtok=cout * 1e6)
    return None


def price_for(
    model: str, config: LlmConfig, cost_map: dict[str, Any] | None = None
) -> Price | None:
    if model in config.prices:
        return config.prices[model]
    found = _litellm_price(model, cost_map)
    if found is not None:
        return found
    return RELAY_PRICES.get(model)


def cost_of(price: Price | None, tokens_in: int, tokens_out: int, reported: float | None) -> float:
    if price is None:
        return reported or 0.0
    return (tokens_in * price.input_per_mtok + tokens_out * price.output_per_mtok) / 1e6


def estimate_tokens(text: str) -> int:
    # About four characters a token for English; good enough to decide a downgrade.
    return len(text) // 4 + 1
