"""The API's OpenAPI document, made from the dispatcher's table and each action's pydantic model.

docs/openapi.json is this document as `relay serve --openapi` prints it; a test keeps the two equal.
"""

from __future__ import annotations

import importlib
from typing import Any

from pydantic import BaseModel

from bridge.actions.registry import ACTIONS
from bridge.api.app import STATUS
from bridge.api.narrow import offered
from bridge.identity import BRIDGE_VERSION
from bridge.protocol.errors import ErrorCode

REF = "#/components/schemas/{model}"


def _schema(model: type[BaseModel], schemas: dict[str, Any]) -> dict[str, Any]:
    body = model.model_json_schema(ref_template=REF)
    schemas.update(body.pop("$defs", {}))
    schemas[model.__name__] = body
    return {"$ref": REF.format(model=model.__name__)}


def _error_responses() -> dict[str, Any]:
    by_status: dict[int, list[str]] = {}
    for code in ErrorCode:
        by_status.setdefault(STATUS.get(code, 400), []).append(code.value)
    return {
        str(status): {
            "description": "error: " + ", ".join(codes),
            "content": {"application/json": {"schema": {"$ref": REF.format(model="Error")}}},
        }
        for status, codes in sorted(by_status.items())
    }


def document() -> dict[str, Any]:
    schemas: dict[str, Any] = {
        "Error": {
            "type": "object",
            "required": ["ok", "error"],
            "properties": {
                "ok": {"const": False},
                "error": {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {
                        "code": {"enum": [c.value for c in ErrorCode]},
                        "message": {"type": "string"},
                    },
                },
            },
        }
    }
    paths: dict[str, Any] = {}
    errors = _error_responses()
    for kind, module_name in sorted(ACTIONS.items()):
        if not offered(kind):
            continue
        model = getattr(importlib.import_module(module_name), "PAYLOAD_MODEL", None)
        body = _schema(model, schemas) if model is not None else {"type": "object"}
        paths[f"/v1/{kind}"] = {
            "post": {
                "operationId": kind.replace(".", "_"),
                "summary": f"the `{kind}` request of docs/protocol.md",
                "parameters": [{"$ref": "#/components/parameters/IdempotencyKey"}],
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": body}},
                },
                "responses": {
                    "200": {
                        "description": "the request's result, as on the native port",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["ok", "result"],
                                    "properties": {"ok": {"const": True},
                                                   "result": {"type": "object"}},
                                }
                            }
                        },
                    },
                    **errors,
                },
            }
        }
    paths["/openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "summary": "this document",
            "responses": {"200": {"description": "the OpenAPI document"}, **errors},
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Relay local API",
            "version": BRIDGE_VERSION,
            "description": "Relay's loopback HTTP API (docs/http.md). It plans and drafts; it "
            "never fills a page or submits anything.",
        },
        "servers": [{"url": "http://127.0.0.1:{port}",
                     "variables": {"port": {"default": "8765"}}}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "the token in RELAY_HOME/api-token"}
            },
            "parameters": {
                "IdempotencyKey": {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "description": "the request's id: the same key with the same body gets the "
                    "first answer and writes nothing new",
                    "schema": {"type": "string", "minLength": 1, "maxLength": 195},
                }
            },
        },
    }
