"""The problem codes the OpenAPI document lists are exactly those the code can raise.

The codes are read from the source: every `RuleViolation("code", ...)` and `ServiceError(kind,
"code", ...)` in the domain, the services and the API, with the status each one leaves as. A code
added to the code without a line in api/contract/problems.py (or left there after its last raise
is gone) fails here, so the document's lists cannot drift.
"""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

from kaiten.api.contract.operations import OPERATIONS
from kaiten.api.contract.problems import EVERY_OPERATION, RULE_CODES, problems_of
from kaiten.api.errors import STATUS_BY_KIND
from kaiten.domain.catalog import GAMES, package_of

ROOT = Path(__file__).resolve().parents[2]
#: Problems the API itself answers (no RuleViolation or ServiceError raises them).
API_CODES = {"malformed-request", "database-unavailable", "database-busy", "not-found", "method-not-allowed"}


def raised_codes() -> dict[str, set[int]]:
    """Every literal code raised in the source, with the statuses it can leave as."""
    found: dict[str, set[int]] = defaultdict(set)
    for package in ("domain", "services", "api"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                args = [arg.value if isinstance(arg, ast.Constant) else None for arg in node.args]
                if node.func.id == "RuleViolation" and isinstance(args[0], str):
                    found[args[0]].add(422)
                elif node.func.id == "NotNow" and isinstance(args[0], str):
                    found[args[0]].add(409)
                elif node.func.id == "InvalidLog" and isinstance(args[0], str):
                    found[args[0]].add(422)
                elif node.func.id == "QuotaExceeded" and isinstance(args[0], str):
                    found[args[0]].add(429)
                elif node.func.id == "ServiceError" and isinstance(args[1], str):
                    # A kind chosen at run time (an unknown game is a 404 or a 422 by where it is
                    # named) leaves the status to the operations' own lists.
                    statuses = found[args[1]]
                    if isinstance(args[0], str):
                        statuses.add(STATUS_BY_KIND[args[0]])
    return found


def documented_codes() -> dict[str, set[int]]:
    found: dict[str, set[int]] = defaultdict(set)
    for operation in OPERATIONS:
        for status, codes in problems_of(operation).items():
            for code in codes:
                found[code].add(status)
    return found


def test_every_raised_code_is_documented_with_its_status() -> None:
    documented = documented_codes()
    missing = {code: statuses - documented.get(code, set()) for code, statuses in raised_codes().items()}
    # A RuleViolation of the catalog is re-raised as a 404 by the routes that name a game in the path.
    missing = {code: statuses for code, statuses in missing.items() if statuses}
    assert missing == {}


def test_every_documented_code_is_raised_somewhere() -> None:
    raised = raised_codes()
    unraised = {code for code in documented_codes() if code not in raised and code not in API_CODES}
    assert unraised == set()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_rule_codes_are_the_ones_its_package_raises(game: str) -> None:
    """The codes a command can meet: those raised in the modules that decide, and in the functions
    of the other modules (options, scoring) that they call, followed call by call."""
    package = Path(importlib.import_module(package_of(GAMES[game])).__path__[0])
    trees = {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in package.glob("*.py")}
    functions = {
        (module, node.name): node
        for module, tree in trees.items()
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    commanding = [name for name in trees if name not in ("options", "scoring", "game")]
    pending = [node for module in commanding for node in [trees[module]]]
    codes: set[str] = set()
    seen: set[tuple[str, str]] = set()
    while pending:
        for node in ast.walk(pending.pop()):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "RuleViolation" and isinstance(node.args[0], ast.Constant):
                codes.add(node.args[0].value)
            for module in ("options", "scoring"):
                key = (module, node.func.id)
                if key in functions and key not in seen:
                    seen.add(key)
                    pending.append(functions[key])
    assert codes == set(RULE_CODES[game])


def test_every_operation_lists_the_problems_any_request_may_meet() -> None:
    for operation in OPERATIONS:
        problems = problems_of(operation)
        for status, codes in EVERY_OPERATION.items():
            assert set(codes) <= set(problems[status]), operation
