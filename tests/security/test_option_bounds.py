"""Every number a new table takes has bounds, published in its schema and enforced when the table
opens: a game's options (400 ``out_of_bounds``, naming the option and its bounds), the number of
players (422 ``bad_players``) and the turn clock (422 ``bad_clock``). A refused table changes nothing.

The options come from the catalog and their bounds from the published OpenAPI document, so a game or
an option added later is covered without touching this file."""

from __future__ import annotations

import json
from typing import Any

from tests.server.conftest import ADMIN, Running

HUGE = 10**30


def resolve(schemas: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = schemas[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


async def lobby(server: Running) -> list[Any]:
    games: list[Any] = (await server.http.get("/api/v1/games")).json()["games"]
    return games


async def refused(server: Running, body: dict[str, Any], status: int, code: str) -> dict[str, Any]:
    before = await lobby(server)
    r = await server.http.post("/api/v1/games", json=body)
    assert r.status_code == status and r.json()["error"] == code, (body, r.text)
    assert await lobby(server) == before, body
    answer: dict[str, Any] = r.json()
    return answer


async def test_every_table_option_has_bounds_and_out_of_bounds_values_are_refused(server: Running) -> None:
    catalog = (await server.http.get("/api/v1/games/catalog")).json()["games"]
    schemas = (await server.http.get("/openapi.json")).json()["components"]["schemas"]
    bounded = 0
    for entry in catalog:
        game = entry["game"]
        players = entry["min_players"]
        published = resolve(schemas, schemas[f"{game}.Options"])
        assert published["additionalProperties"] is False
        assert set(published["properties"]) == set(entry["options"]), game
        for name, default in entry["options"].items():
            option = published["properties"][name]
            assert option["type"] in ("boolean", "integer"), (game, name, option)
            if option["type"] == "boolean":  # two values: anything else is the wrong type
                assert isinstance(default, bool)
                await refused(server, {"game": game, "players": players, "options": {name: 2}}, 422, "bad_options")
                continue
            least, most = option["minimum"], option["maximum"]
            assert least <= default <= most, (game, name)
            assert entry["bounds"][name] == [least, most], "the catalog's bounds are the schema's"
            for value in (least - 1, most + 1, -HUGE, HUGE, float(HUGE)):
                body = {"game": game, "players": players, "options": {name: value}}
                error = await refused(server, body, 400, "out_of_bounds")
                expected = {"field": f"options.{name}", "minimum": least, "maximum": most}
                assert error["details"].items() >= expected.items()
                assert name in error["message"] and f"{least} to {most}" in error["message"], error
            for value in (least, most):
                r = await server.http.post(
                    "/api/v1/games", json={"game": game, "players": players, "options": {name: value}}
                )
                assert r.status_code == 201, r.text
                export = await server.get(f"/api/v1/games/{r.json()['game_id']}/export", ADMIN)
                opened = json.loads(export.text.splitlines()[1])  # the first fact, after the export's header
                assert opened["event"]["type"] == "TableOpened" and opened["event"]["options"][name] == value
            bounded += 1
    assert bounded >= 2  # Itchy Feet's two answer times, at least


async def test_the_tables_own_numbers_have_bounds_and_out_of_bounds_values_are_refused(server: Running) -> None:
    catalog = (await server.http.get("/api/v1/games/catalog")).json()["games"]
    schemas = (await server.http.get("/openapi.json")).json()["components"]["schemas"]
    seconds = schemas["Clock"]["properties"]["seconds"]
    for entry in catalog:
        game = entry["game"]
        players = schemas[f"{game}.CreateGame"]["properties"]["players"]
        assert (players["minimum"], players["maximum"]) == (entry["min_players"], entry["max_players"])
        for count in (players["minimum"] - 1, players["maximum"] + 1, -HUGE, HUGE):
            await refused(server, {"game": game, "players": count}, 422, "bad_players")
        for value in (seconds["minimum"] - 1, seconds["maximum"] + 1, -HUGE, HUGE):
            body = {"game": game, "players": entry["min_players"], "clock": {"seconds": value}}
            error = await refused(server, body, 422, "bad_clock")
            assert error["details"]["field"] == "clock.seconds"
