"""The catalogs are honest (docs/i18n.md): every key in every language, the same placeholders everywhere, no key
unused, every refusal the rules and the server can raise has a message in every language, every event a log line,
every move a word, and no message is assembled by concatenating translated fragments."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain import words
from domain.bots import BOTS
from domain.catalog import GAMES
from domain.engine import AnyGame, Ctx, Rejected
from domain.table import TABLE_EVENTS, decide_game, default_name
from domain.words.format import Words, parameters, parse, terms_named
from projections.verify import SENTENCES
from tests.domain.contract import random_game

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {  # every folder that holds a catalog, by the package that reads it
    "server.service": ROOT / "server" / "service",
    "clients": ROOT / "clients",
    **{f"domain.{g.id.replace('-', '_')}": ROOT / "domain" / g.id.replace("-", "_") for g in GAMES.values()},
}
CATALOGS = {package: words.read(package) for package in PACKAGES}
SHARED = CATALOGS["server.service"]
CLI = CATALOGS["clients"]
# The kinds of error the application raises, whose first argument is the code (and the rule's Rejected).
RAISERS = {
    "Rejected", "AppError", "Invalid", "Unauthorized", "Forbidden", "NotFound", "UnknownGame", "Conflict",
    "VersionConflict", "CommandIdReused", "Refused", "TableMoved", "TooLarge", "UnsupportedMedia", "TooMany",
    "Unavailable", "ErrorBody",
}  # fmt: skip
CODE = re.compile(r"[a-z][a-z_]*")
LISTED = ("en", "pt", "gl", "es")  # the columns of each rules page's terms table


def package_of(game: AnyGame) -> str:
    return f"domain.{game.id.replace('-', '_')}"


def messages() -> Iterator[tuple[str, str, str, str, str]]:
    """Every message: (package, language, part, key, text)."""
    for package, catalogs in CATALOGS.items():
        for lang, catalog in catalogs.items():
            for part, entries in catalog.items():
                for key, text in entries.items():
                    yield package, lang, part, key, text


def sources(*folders: str) -> Iterator[Path]:
    for folder in folders:
        path = ROOT / folder
        yield from [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))


def raised_codes(*folders: str) -> set[str]:
    """Every code the code under ``folders`` raises: the first argument of a refusal, and a ``(code, message,
    details)`` tuple returned to be raised later (``Rejected(*problem)``)."""
    codes: set[str] = set()
    for path in sources(*folders):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in RAISERS:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 3:
                head, second = node.value.elts[:2]
                if isinstance(head, ast.Constant) and isinstance(head.value, str) and isinstance(second, ast.Constant):
                    codes.add(head.value)
    return {c for c in codes if CODE.fullmatch(c)}


def strings_in(*folders: str) -> set[str]:
    """Every string constant in the code under ``folders``."""
    found: set[str] = set()
    for path in sources(*folders):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def struct_tags(union: Any) -> dict[str, type[msgspec.Struct]]:
    members = union.__args__ if hasattr(union, "__args__") else (union,)
    return {m.__struct_config__.tag: m for m in members}


# -- every key, every language, the same placeholders ------------------------------------------------


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_key_is_in_every_language(package: str) -> None:
    catalogs = CATALOGS[package]
    assert set(catalogs) == set(words.LANGUAGES)
    english = catalogs[words.DEFAULT]
    for lang, catalog in catalogs.items():
        assert set(catalog) == set(english), (package, lang)
        for part, entries in english.items():
            assert set(catalog[part]) == set(entries), (package, lang, part, set(catalog[part]) ^ set(entries))


def test_every_message_follows_the_format_with_the_same_placeholders_in_every_language() -> None:
    for package, lang, part, key, text in messages():
        parse(text)
        english = CATALOGS[package][words.DEFAULT][part][key]
        assert set(parameters(text)) == set(parameters(english)), (package, lang, part, key)
        assert terms_named(text) == terms_named(english), (package, lang, part, key)
        assert text.strip() == text and text, (package, lang, part, key)


def test_no_message_is_a_fragment_of_another() -> None:
    """Whole messages only: no translated text is kept for gluing into another (a message that would only make
    sense beside another ends or starts with a joining word or a bare separator)."""
    for package, lang, part, key, text in messages():
        if part == "terms":
            continue
        assert not re.search(r"(^[,;:]|[,;]$|\b(and|e|y|or|ou|o)$)", text), (package, lang, part, key, text)


def test_a_default_named_seat_is_said_in_every_language_and_in_english_as_it_is_stored() -> None:
    """The table's terms ``seat`` and ``bot_seat`` say a seat's default name (docs/i18n.md, "Seats' names"): in
    English the very name the table stores, in every other language no English of it."""
    for lang in words.LANGUAGES:
        say = Words(lang, SHARED[lang]["terms"])
        for seat in (0, 4):
            for bot in (None, *BOTS, "strong:2"):
                said = say.default_seat(seat, bot)
                if lang == words.DEFAULT:
                    assert said == default_name(seat, bot), (seat, bot)
                else:
                    assert "Player" not in said and " bot " not in said and str(seat + 1) in said, (lang, said)
                    kind = bot.partition(":")[0] if bot else None  # the bot by its word in the language
                    assert kind is None or SHARED[lang]["terms"][f"bot.{kind}"] in said.lower(), (lang, said)
    assert Words("gl", SHARED["gl"]["terms"]).default_seat(2, "casual") == "Bot casual 3"
    assert Words("pt", SHARED["pt"]["terms"]).default_seat(1) == "Jogador 2"
    assert Words("es", SHARED["es"]["terms"]).default_seat(3, "greedy") == "Bot codicioso 4"


# -- no key unused --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_refusal_the_rules_raise_has_a_message_and_every_message_a_refusal(game: AnyGame) -> None:
    own = set(CATALOGS[package_of(game)][words.DEFAULT]["refusals"])
    folder = f"domain/{game.id.replace('-', '_')}"
    raised = raised_codes(folder)
    assert raised <= own | set(SHARED[words.DEFAULT]["refusals"]), raised - own
    table = raised_codes("domain/table", "domain/engine.py", "projections")
    assert own <= raised | table, f"{game.id}: catalog codes nothing raises: {own - raised - table}"


def test_every_refusal_of_the_table_and_the_server_has_a_message_and_every_message_is_raised() -> None:
    shared = set(SHARED[words.DEFAULT]["refusals"])
    raised = raised_codes(
        "domain/table",
        "domain/chat.py",
        "domain/engine.py",
        "domain/clock.py",
        "projections",
        "server/service",
        "server/web",
    )
    assert raised <= shared, raised - shared
    # A few codes are picked from a mapping (an HTTP status's) or built where they are answered.
    named = strings_in(
        "server/web/application.py",
        "server/web/rest.py",
        "server/web/tables.py",
        "server/web/play.py",
        "server/service/quotas.py",
    )
    assert shared <= raised | named, shared - raised - named


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_event_has_a_log_line_and_every_log_line_an_event(game: AnyGame) -> None:
    events = set(struct_tags(game.event_type))
    log = set(CATALOGS[package_of(game)][words.DEFAULT]["log"])
    assert log == events, (game.id, log ^ events)
    table = {e.__struct_config__.tag for e in TABLE_EVENTS}
    assert set(SHARED[words.DEFAULT]["log"]) == table
    for key, text in CATALOGS[package_of(game)][words.DEFAULT]["log"].items():
        fields = {f.encode_name for f in msgspec.structs.fields(struct_tags(game.event_type)[key])}
        assert set(parameters(text)) <= fields, (game.id, key, set(parameters(text)) - fields)


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_move_field_and_awaited_reason_has_a_word_and_every_term_is_used(game: AnyGame) -> None:
    terms = CATALOGS[package_of(game)][words.DEFAULT]["terms"]
    commands = struct_tags(game.command_type)
    clock_only = {"CloseWindow"}  # only the table's clock sends it: no player picks it
    assert {k.partition(".")[2] for k in terms if k.startswith("move.")} == set(commands) - clock_only
    fields = {
        f.encode_name for name, c in commands.items() if name not in clock_only for f in msgspec.structs.fields(c)
    }
    assert {k.partition(".")[2] for k in terms if k.startswith("field.")} == fields
    names = set(printed_ids(game.components))
    # a kind of term is used when a message looks it up, the CLI shows it, or (word.*) the rules page lists it
    looked_up = {kind for *_, text in messages() for kind in terms_named(text)} | {"move", "field", "awaiting", "game"}
    page = (ROOT / "docs" / "games" / f"{game.id}.md").read_text()
    for key in terms:
        kind, _, value = key.partition(".")
        if kind == "name":
            assert value in names, (game.id, key, "no component has that id")
            continue
        said = [CATALOGS[package_of(game)][lang]["terms"][key].replace("|", "\\|") for lang in LISTED]
        listed = f"| `{key}` | " + " | ".join(said) + " |" in page
        assert kind in looked_up or listed, (game.id, key, "no message, no CLI line and no rules page uses it")
        if kind in ("word", "move", "category", "colour", "pile", "theme", "building", "kind"):
            assert listed, (game.id, key, "the rules page's terms table does not say it so")
    assert f"game.{game.id}" in terms


def printed_ids(components: Any) -> Iterator[str]:
    stack = [msgspec.to_builtins(components)]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("id"), str):
                yield value["id"]
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)


def test_every_line_the_verifier_says_has_a_message_and_every_message_is_said() -> None:
    """The verifier's report (projections/verify.py) says each line as a code (``Said(code, ...)``, or a fact no
    step accounts for, ``_Unaccounted(code, ...)``): each code has a message in the catalogs' ``verify`` part,
    its English the report's sentence, and every message there is said, the head lines by ``ludoteca verify``."""
    said: set[str] = set()
    for node in ast.walk(ast.parse((ROOT / "projections" / "verify.py").read_text())):
        name = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""
        if isinstance(node, ast.Call) and name in ("Said", "_Unaccounted") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                said.add(first.value)
    part = SHARED[words.DEFAULT]["verify"]
    heads = {"head", "head_file"}
    assert heads <= strings_in("server/cli.py")
    assert said == set(part) - heads, said ^ (set(part) - heads)
    assert {code: text for code, text in part.items() if code not in heads} == SENTENCES


def test_every_line_of_the_cli_is_said_and_every_line_it_says_is_in_its_catalog() -> None:
    trees = [ast.parse(path.read_text()) for path in sorted((ROOT / "clients" / "cli").glob("*.py"))]
    said: set[str] = set()
    for node in (node for tree in trees for node in ast.walk(tree)):
        name = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""
        if isinstance(node, ast.Call) and name in ("voice", "self", "Trouble") and node.args:
            first = node.args[0]
            options = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            said |= {o.value for o in options if isinstance(o, ast.Constant) and isinstance(o.value, str)}
    lines = set(CLI[words.DEFAULT]["lines"])
    assert said == lines, said ^ lines


# -- nothing is glued together ---------------------------------------------------------------------------

SPEAKERS = {"voice", "Voice", "format", "term", "event", "refusal", "message", "seat"}


def speaks(node: ast.AST) -> bool:
    """Whether ``node`` is a call that renders a message or a term."""
    if not isinstance(node, ast.Call):
        return False
    name = getattr(node.func, "id", getattr(node.func, "attr", ""))
    return name in SPEAKERS or (isinstance(node.func, ast.Attribute) and node.func.attr == "voice")


def words_in(node: ast.AST) -> bool:
    """Whether a literal part of a concatenation holds letters (spaces, padding and signs are layout)."""
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(re.search(r"[A-Za-zÀ-ÿ]", node.value))
    )


@pytest.mark.parametrize(
    "path",
    [
        *sorted(str(path.relative_to(ROOT)) for path in (ROOT / "clients" / "cli").glob("*.py")),
        "clients/python/words.py",
        "server/service/words.py",
        "server/web/errors.py",
        "server/cli.py",
    ],
)
def test_no_message_is_assembled_by_concatenating_translated_fragments(path: str) -> None:
    """A translated piece is never glued to words or to another translated piece by ``+``, an f-string or a
    join: word order, agreement and plurals belong to one message, with parameters."""
    tree = ast.parse((ROOT / path).read_text(), path)
    for node in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = [node.left, node.right]
        elif isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.FormattedValue) else v for v in node.values]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "join" and node.args:
            separator = node.func.value  # type: ignore[attr-defined]
            arg = node.args[0]
            inner = arg.elt if isinstance(arg, ast.GeneratorExp | ast.ListComp) else arg
            parts = [separator, inner]
        spoken = [p for p in parts if speaks(p)]
        if spoken:
            others = [p for p in parts if p not in spoken]
            assert len(spoken) < 2 and not any(words_in(p) for p in others), (path, ast.unparse(node))


def test_the_planted_concatenations_are_caught() -> None:
    """The check above finds what it promises: a translated word glued to English, two translated pieces glued."""
    for planted in (
        "f\"{voice('seat', seat=1)} wins\"",
        'voice("a") + voice("b")',
        '" and ".join(voice(x) for x in y)',
    ):
        node = ast.parse(planted).body[0]
        assert isinstance(node, ast.Expr)
        value = node.value
        parts = (
            [value.left, value.right]
            if isinstance(value, ast.BinOp)
            else [v.value if isinstance(v, ast.FormattedValue) else v for v in value.values]
            if isinstance(value, ast.JoinedStr)
            else [value.func.value, value.args[0].elt]  # type: ignore[attr-defined]
        )
        spoken = [p for p in parts if speaks(p)]
        others = [p for p in parts if p not in spoken]
        assert spoken and (len(spoken) > 1 or any(words_in(p) for p in others)), planted


# -- a refusal is rendered from its code and details alone -------------------------------------------------


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_refusals_met_in_random_games_say_in_english_what_the_rules_said_and_in_every_language_all_of_it(
    game: AnyGame,
) -> None:
    """Commands seen earlier in random games, sent again by any seat: each refusal's English, rendered from the
    catalogs with its code and details only, is the sentence the rules raised it with; and in every language
    every placeholder is filled (each parameter a message needs is in the details)."""
    met: set[str] = set()
    pool: list[Any] = []
    wrong: list[Any] = []  # gathered, and asserted once the games are over

    def resend(state: Any, step: int) -> None:
        rng = random.Random(step)
        for awaited in game.awaited(state):  # what a seat is awaited for has a word, in every language
            if f"awaiting.{awaited.reason}" not in CATALOGS[package_of(game)][words.DEFAULT]["terms"]:
                wrong.append(("awaiting", awaited.reason))
        pool.extend(c for a in game.awaited(state) if (c := game.random_command(state, a.seat, rng)) is not None)
        for _ in range(4):
            command, seat = rng.choice(pool), rng.randrange(len(game.awaited(state)) + 1)
            try:
                decide_game(game, state, command, seat, Ctx(rng=random.Random(step), now_ms=step))
            except Rejected as exc:
                met.add(exc.code)
                for lang in LISTED:
                    said = render(game, lang, exc.code, exc.details)
                    if "{" in said or (lang == words.DEFAULT and said != exc.message):
                        wrong.append((lang, exc.code, exc.details, exc.message, said))

    for seed in range(2):
        try:
            random_game(game, game.min_players + seed, None, seed, check=resend, most_steps=300)
        except AssertionError as exc:  # a game cut short is as good a source of refusals
            assert "no end within" in str(exc), exc
    assert not wrong, wrong[:5]
    assert len(met) >= 5, met


def render(game: AnyGame, lang: str, code: str, details: dict[str, Any]) -> str:
    shared = SHARED[lang]
    own = CATALOGS[package_of(game)][lang]
    message = {**shared["refusals"], **own["refusals"]}[code]
    return Words(lang, {**shared["terms"], **own["terms"]}).format(message, details)
