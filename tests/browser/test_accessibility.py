"""axe-core on every screen of the web client (issue 29 D8): no serious or critical violation, and
headings that never skip a level, on each screen of each game at desktop and phone widths.

axe-core comes from the npm registry into a temporary folder, for the tests alone, and is injected
into the page from that file (the client loads nothing from npm or a CDN). Without node and npm the
test skips, saying why; CI has them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests import plain_http
from tests.browser.conftest import PHONE
from tests.browser.ui import bots_game_finished, settled

HERE = Path(__file__).resolve().parent
WEB = HERE.parents[1] / "api" / "web"
GAMES = ["sushi-go", "sushi-go-party", "spin-some-for-dim-sum", "dim-sum-derby"]

#: The rules axe runs by default, and label-content-name-mismatch; what fails: a serious or critical
#: violation, or a skipped heading level.
AUDIT = """async () => {
    // label-content-name-mismatch is experimental, off by default: on here (a card's name must hold its words).
    const rules = { "label-content-name-mismatch": { enabled: true } };
    const result = await axe.run(document, { resultTypes: ["violations"], rules });
    return result.violations
        .filter(rule => ["serious", "critical"].includes(rule.impact) || rule.id === "heading-order")
        .map(rule => `${rule.id} (${rule.impact}, ${rule.nodes.length} nodes): ${rule.help}; `
            + `first: ${rule.nodes[0].html.slice(0, 160)}`);
}"""


READY = """() => !document.querySelector("main [aria-busy=true]")
    && !/Loading…/.test(document.querySelector("main").textContent)"""


@pytest.fixture(scope="module")
def axe_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("no node and npm on this machine: axe-core cannot be installed, the accessibility audit is skipped")
    folder = tmp_path_factory.mktemp("axe")
    shutil.copy(HERE / "axe" / "package.json", folder / "package.json")
    done = subprocess.run(
        ["npm", "install", "--no-package-lock", "--no-audit", "--no-fund", "--silent"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "node_modules" / "axe-core" / "axe.min.js"


def show(page: Any, screen: str) -> None:
    """Go to a screen as a player does, by its address within the page: no reload, so axe-core is
    injected once (reloading the page and axe for each of 27 screens took most of the test's time)."""
    page.evaluate(
        """() => { const heading = document.querySelector("main h1"); if (heading) heading.dataset.left = ""; }"""
    )
    page.evaluate("screen => { location.hash = screen; }", screen)
    page.wait_for_function(
        """() => { const h = document.querySelector("main h1"); return h && !("left" in h.dataset); }"""
    )


def audit(page: Any, axe_script: Path, name: str, problems: list[str]) -> None:
    page.wait_for_selector("main h1")
    # The lobby's open games, a table's first read: a screen is audited once what it waits for is in.
    page.wait_for_function(READY)
    # Injected once a page: moving between screens by their address keeps it.
    if page.evaluate("typeof axe") == "undefined":
        page.add_script_tag(path=str(axe_script))
    problems += [f"{name}: {violation}" for violation in page.evaluate(AUDIT)]


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_no_serious_violation_on_any_screen(
    kaiten: str, open_page: Any, axe_script: Path, viewport: dict[str, int] | None
) -> None:
    watched = open_page(f"{kaiten}/play", **({"viewport": viewport} if viewport else {}))
    watched.expected.append("404 (Not Found)")  # the unknown game's screen
    page = watched.page
    problems: list[str] = []
    open_game = plain_http.post(f"{kaiten}/v1/games", json={"game": "dim-sum-derby", "players": 3}).json()["id"]
    screens = [
        f"#/games/{open_game}/join/0",
        f"#/games/{open_game}",
        "#/history",
        "#/stats",
        "#/players/carol",
        "#/games/00000000-0000-4000-8000-000000000000",
    ]
    for game in GAMES:
        most = plain_http.get(f"{kaiten}/v1/catalog/{game}").json()["max_players"]
        finished = bots_game_finished(
            kaiten,
            {
                "game": game,
                "players": 2 if game != "dim-sum-derby" else 3,
                "seats": [{"bot": "greedy"}] * (2 if game != "dim-sum-derby" else 3),
            },
        )
        running = plain_http.post(
            f"{kaiten}/v1/games",
            json={"game": game, "players": most, "seats": [{"name": "Aiko"}] + [{"bot": "greedy"}] * (most - 1)},
        ).json()
        screens += [
            f"#/new/{game}",
            f"#/stats/{game}",
            f"#/games/{finished['id']}",
            f"#/games/{finished['id']}/replay/{finished['version'] // 2}",
            f"#/games/{running['id']}/seat/0?token={running['tokens']['0']}",
        ]
    audit(page, axe_script, "#/ (the first screen)", problems)
    for screen in screens:
        show(page, screen)
        if "/seat/" in screen:
            settled(page)
            audit(page, axe_script, screen.split("?")[0], problems)
            page.click('button[data-action="resign"]')
            audit(page, axe_script, f"{screen.split('?')[0]} confirming a resignation", problems)
            continue
        audit(page, axe_script, screen, problems)
    assert problems == [], "\n".join(problems)


#: Each family's face as a button, chosen or not, in the page's main; answers how many it drew.
DRAW_EVERY_FAMILY = """async families => {
    const { cardFace } = await import("/play/js/faces.js");
    const main = document.querySelector("main");
    main.replaceChildren();
    for (const family of families) {
        for (const pressed of [false, true]) {
            const scoring = "1 eel -3 points; 2 or more 7 points";
            const info = { slug: family, name: `A ${family}`, scoring, family, facts: {} };
            const face = cardFace(info, { onclick: () => {}, pressed, note: "a note" });
            face.dataset.probe = `${family}-${pressed}`;
            main.append(face);
        }
    }
    return main.querySelectorAll("button.card").length;
}"""

#: axe's contrast rule on the page's main, as it is drawn now.
CONTRAST = """async () => {
    const result = await axe.run(document.querySelector("main"), { runOnly: ["color-contrast"] });
    return result.violations.flatMap(rule => rule.nodes.map(node => node.html.slice(0, 120)));
}"""


def test_every_card_face_keeps_its_contrast_hovered_and_chosen(kaiten: str, open_page: Any, axe_script: Path) -> None:
    """A card's tint deepens under the pointer and when chosen: its quiet words must still read at
    4.5:1 on every family's colour. Where the pointer rested after a click decided whether a screen
    audit met this, so here every face is drawn hovered (Chromium's forced :hover), chosen or not."""
    page = open_page(f"{kaiten}/play").page
    page.wait_for_selector("main h1")
    colours = (WEB / "js" / "faces.js").read_text()
    families = sorted(set(re.findall(r'^\s+"?([a-z-]+)"?: "#[0-9a-f]{6}",$', colours, re.M)))
    assert len(families) > 30, families
    assert page.evaluate(DRAW_EVERY_FAMILY, families) == 2 * len(families)
    devtools = page.context.new_cdp_session(page)
    devtools.send("DOM.enable")
    devtools.send("CSS.enable")
    root = devtools.send("DOM.getDocument")["root"]["nodeId"]
    faces = devtools.send("DOM.querySelectorAll", {"nodeId": root, "selector": "main button.card"})["nodeIds"]
    assert len(faces) == 2 * len(families)
    for face in faces:
        devtools.send("CSS.forcePseudoState", {"nodeId": face, "forcedPseudoClasses": ["hover"]})
    page.add_script_tag(path=str(axe_script))
    problems = page.evaluate(CONTRAST)
    assert problems == [], "\n".join(problems)
