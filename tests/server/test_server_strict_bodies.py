"""#32-4: every HTTP body is strict, as the WebSocket's messages are (docs/protocol.md "HTTP API").

The sweep enumerates the app's routes, so a route added later with a JSON body fails
here until it has an example below: every number in every body (the cash options'
too) is sent as a string, a whole float, a fraction, a boolean, null, a list and an
object, every flag as ``"true"``, ``1`` and ``0``, and each
answer is ``400 bad_message`` naming the field, with nothing changed.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

from freezeout.server.transport.apicore import Body

TABLE = "{table_id}"  # replaced by a real cash table's id

# Valid bodies of each route with a JSON body: (method, path) -> bodies.  Every number and
# flag field of the route's model appears in one, so the sweep below reaches each.
EXAMPLES: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("POST", "/api/register"): [{"name": "zed", "password": "correct horse"}],
    ("POST", "/api/login"): [{"name": "zed", "password": "correct horse"}],
    ("POST", "/api/me/display"): [{"display": "Zed"}],
    ("POST", "/api/quickplay"): [{"bot": "easy", "game": "NT"}],
    ("POST", "/api/tokens"): [{"label": "bot", "days": 30}],
    ("POST", "/api/tables"): [{"format": "cash", "game": "NT", "seats": 4,
                              "cash": {"big_blind": 200, "min_buy_in": 4000, "max_buy_in": 20000, "rake_bp": 500,
                                       "rake_cap": [100, 200, 300], "straddle": True, "run_twice": True,
                                       "button_straddle": False, "show_called": False}},
                               {"slots": [None, "easy"], "ranked": False, "sit": True, "game": "NT", "private": False,
                                "approval": False}],
    ("POST", "/api/tables/{table_id}/sit"): [{"slot": 1}],
    ("POST", "/api/tables/{table_id}/buy_in"): [{"chips": 5000, "slot": 0, "transfer": "t-5000", "post": True}],
    ("POST", "/api/tables/{table_id}/bots"): [{"level": "easy"}],
    ("POST", "/api/me/reload"): [{"transfer": "reload-0001"}],
    ("POST", "/api/cash/first_available"): [{"table": "t0123456789ab"}],  # C13 (transport/apiwaitlist.py)
    ("DELETE", "/api/cash/first_available"): [{"table": "t0123456789ab"}],
    ("POST", "/api/tables/{table_id}/reserve"): [{"name": "zed", "slot": 1, "seconds": 300}],
    ("POST", "/api/tables/{table_id}/unreserve"): [{"slot": 1}],
    ("POST", "/api/tables/{table_id}/approval"): [{"on": True}],
    ("POST", "/api/tables/{table_id}/requests"): [{"user_id": 2, "approve": True}],
    ("POST", "/api/tables/{table_id}/remove"): [{"slot": 1}],
    ("POST", "/api/chat/reports"): [{"message": 1}],
    ("PUT", "/api/notes/{account}"): [{"text": "calls too much", "label": "red"}],
}


def _body_routes(app: Any) -> dict[tuple[str, str], tuple[type[BaseModel], dict[str, Any]]]:
    """Every route with a JSON body, from the app's own OpenAPI description: its model and schema."""
    spec = app.openapi()
    models = {model.__name__: model for model in _subclasses(Body)}
    found = {}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if "requestBody" not in operation:
                continue
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            refs = [s["$ref"] for s in schema.get("anyOf", [schema]) if "$ref" in s]
            assert len(refs) == 1, f"{method} {path}: a body that is not one model: {schema}"
            name = refs[0].rsplit("/", 1)[-1]
            assert name in models, f"{method} {path}: its body {name} is not a transport.apicore.Body (strict)"
            found[(method.upper(), path)] = models[name], spec["components"]["schemas"][name]
    return found


def _subclasses(cls: type[BaseModel]) -> list[type[BaseModel]]:
    return [cls, *(sub for direct in cls.__subclasses__() for sub in _subclasses(direct))]


def _schema_types(schema: dict[str, Any]) -> set[str]:
    return {s.get("type", "?") for s in schema.get("anyOf", [schema])}


def _numbers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where ``value`` (a JSON body) holds a number or a flag, nested ones too."""
    if isinstance(value, (bool, int, float)):
        return [path]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _numbers(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in _numbers(item, (*path, index))]
    return []


def _replace(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    where: Any = changed
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return changed


async def test_every_body_route_has_an_example_naming_each_of_its_number_fields(harness):
    routes = _body_routes(harness.app)
    assert set(routes) == set(EXAMPLES), "a route with a JSON body needs an example in EXAMPLES"
    for key, (model, schema) in routes.items():
        assert model.model_config.get("strict") is True and model.model_config.get("extra") == "forbid", key
        for example in EXAMPLES[key]:
            model.model_validate(example)  # the example is itself valid
        typed = {name for name, field in schema["properties"].items()
                 if _schema_types(field) & {"integer", "number", "boolean"}}
        named = {name for example in EXAMPLES[key] for name in example}
        assert typed <= named, f"{key}: no example has the fields {typed - named}"


def _bad_values(value: Any, kinds: set[str]) -> list[Any]:
    """What a field of JSON ``kinds`` holding ``value`` must refuse."""
    if isinstance(value, bool):
        return ["true", 1, 0, "yes", None, [value]]
    floats = [] if "number" in kinds else [float(value), value + 0.5]  # a float field takes 30.0 and 30.5
    return [str(value), *floats, True, False, None, [value], {"n": value}]


def _cases(routes: dict[tuple[str, str], tuple[type[BaseModel], dict[str, Any]]]) -> list[tuple[str, str, Any, str]]:
    """(method, path, body, the field it names) for every wrong value of every number and flag."""
    cases = []
    for (method, path), (_, schema) in sorted(routes.items()):
        for example in EXAMPLES[(method, path)]:
            for where in _numbers(example):
                value = example
                for step in where:
                    value = value[step]
                # a nested value (a cash option: server/gamespec.py CashOptions) is a whole number or a flag
                kinds = _schema_types(schema["properties"][where[0]]) if len(where) == 1 else {"integer"}
                field = next(str(step) for step in reversed(where) if isinstance(step, str))
                for bad in _bad_values(value, kinds):
                    if bad is None and "null" in kinds:
                        continue  # null is an optional field's default (absent), as on the WebSocket
                    cases.append((method, path, _replace(example, where, bad), field))
    return cases


async def test_http_refuses_numbers_of_the_wrong_type_in_every_body_and_changes_nothing(harness):
    routes = _body_routes(harness.app)
    ana = await harness.player()
    await ana.register("ana")
    made = await ana.post("/api/tables", EXAMPLES[("POST", "/api/tables")][0])
    assert made.status_code == 200, made.text
    table_id = made.json()["table"]["id"]

    async def state() -> Any:
        balance = (await ana.http.get("/api/me/balance")).json()
        table = (await ana.http.get(f"/api/tables/{table_id}")).json()
        tables = (await ana.http.get("/api/tables")).json()
        tokens = (await ana.http.get("/api/tokens")).json()
        return balance, table, tables, tokens, (await ana.http.get("/api/session")).json()["user"]

    before = await state()
    cases = _cases(routes)
    assert len(cases) >= 100
    for method, path, body, field in cases:
        url = path.replace(TABLE, table_id)
        response = await ana.http.request(method, url, json=body, headers={"X-CSRF-Token": ana.csrf})
        assert response.status_code == 400, (url, body, response.text)
        error = response.json()["error"]
        assert error["code"] == "bad_message" and field in error["message"], (url, body, error)
    assert await state() == before


async def test_a_buy_in_of_string_or_float_chips_is_refused_as_on_the_websocket(harness):
    ana = await harness.player()
    await ana.register("ana")
    made = await ana.post("/api/tables", {"format": "cash", "game": "NT", "seats": 2, "cash": {"big_blind": 200}})
    table_id = made.json()["table"]["id"]
    for chips in ("5000", 5000.0, True, None):
        response = await ana.post(f"/api/tables/{table_id}/buy_in", {"chips": chips})
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_message", response.text
        assert "chips" in response.json()["error"]["message"]
    assert (await ana.http.get("/api/me/balance")).json()["balance"] == 10000
    response = await ana.post(f"/api/tables/{table_id}/buy_in", {"chips": 5000})
    assert response.status_code == 200, response.text
    assert (await ana.http.get("/api/me/balance")).json()["balance"] == 5000
