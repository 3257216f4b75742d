"""The web viewer in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium. Each seed game's log is opened and stepped through,
what the page shows is checked against the state, and a short game is played by clicks.

Skipped, saying why, where Selenium or the browser is not installed (``.ci/run`` installs
both). ``RULEBOOK_SCREENSHOTS=DIR`` saves a screenshot of each seed game there (docs/images/).
"""
from __future__ import annotations

import os
import shutil
from contextlib import ExitStack
from pathlib import Path

import pytest

import interpreter
from interpreter.play.agents import make_agents
from interpreter.play.logs.gamelog import play_game
from interpreter.web.server import serving
from interpreter.web.games import LiveGame, LogView

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("Chromium or chromedriver is not installed (apt-get install chromium chromium-driver): "
                "the browser tests are skipped", allow_module_level=True)

SEEDS = [("diamonds", 4, 3), ("diams", 3, 2), ("mister_diamond", 3, 2), ("diamonds_club", 3, 2)]


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    except Exception as e:   # noqa: BLE001 - a browser that cannot start here
        pytest.skip(f"Chromium does not start here: {e}")
    yield driver
    driver.quit()


@pytest.fixture
def serve():
    with ExitStack() as stack:
        yield lambda game: stack.enter_context(serving(game))


def _wait(driver, check, timeout=10):
    # (an element read while the page draws the next position anew is stale: read again)
    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: check(d))


def _position(driver) -> str:
    return driver.find_element(By.ID, "position").text


def _go(driver, at: int, length: int):
    """Home, then → until position ``at`` (each press waits for the page to show it)."""
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    _wait(driver, lambda d: _position(d) == f"0 / {length - 1}")
    for k in range(1, at + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        _wait(driver, lambda d, k=k: _position(d) == f"{k} / {length - 1}")


def _shown_cards(driver, seat: int, zone: str) -> list[str]:
    row = driver.find_element(By.CSS_SELECTOR, f'.panel[data-seat="{seat}"] .item[data-kind="zone"][data-name="{zone}"]')
    return [c.get_attribute("data-card") for c in row.find_elements(By.CSS_SELECTOR, ".card")]


@pytest.mark.parametrize("name,players,seed", SEEDS)
def test_a_seed_game_log_steps_to_its_end_and_shows_the_state(browser, serve, tmp_path, name, players, seed):
    rules = interpreter.load(name)
    log = tmp_path / f"{name}.jsonl"
    result = play_game(rules, players, seed, make_agents("random", players, seed), log=str(log))
    game = LogView(log)
    length = len(game.positions)
    browser.get(serve(game))
    _wait(browser, lambda d: _position(d) == f"0 / {length - 1}")
    assert browser.find_element(By.ID, "title").text == rules.title
    # a position in the middle: seat 0's own view shows its cards and counters as the state has them
    at = min(12, length - 1)
    _go(browser, at, length)
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '.panel[data-seat="0"]'))
    S = game.positions[at][1]
    mine = [z for z, o in rules.zone_owner.items() if o == "player" and S.z[z][0] and z not in game.table.hide]
    if mine:
        _wait(browser, lambda d: _shown_cards(d, 0, mine[0]) == [rules.card_labels[c] for c in S.z[mine[0]][0]])
    counters = [c for c, o in rules.counter_owner.items() if o == "player" and c not in game.table.hide
                and (rules.counter_decl.get(c) or {}).get("visible", "all") == "all"]
    for c in counters[:3]:
        value = browser.find_element(By.CSS_SELECTOR, f'.panel[data-seat="1"] .item[data-name="{c}"] .value')
        assert value.text == str(S.c[c][1])
    # one event at a time: the cursor moves through the decision's events
    if game.view(at, 0)["events"]:
        browser.find_element(By.ID, "event-next").click()
        _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#events li.current"))
    # the end: the scores and winners the log holds
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    _wait(browser, lambda d: d.find_elements(By.ID, "scores"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#scores tr[data-seat]")
    assert [r.find_element(By.CSS_SELECTOR, ".score").text for r in rows] == [str(s) for s in result["scores"]]
    assert [int(r.get_attribute("data-seat")) for r in rows if "winner" in r.get_attribute("class")] == result["winners"]
    assert browser.find_element(By.ID, "error").text == ""
    shots = os.environ.get("RULEBOOK_SCREENSHOTS")
    if shots:
        Select(browser.find_element(By.ID, "seat")).select_by_value("all")
        _go(browser, min(length - 1, {"diamonds_club": 60}.get(name, 30)), length)
        Path(shots).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(shots) / f"viewer-{name}.png"))


@pytest.mark.parametrize("name,players,seed", [SEEDS[1], SEEDS[3]])
def test_a_redacted_log_reads_as_the_story_its_seat_saw(browser, serve, tmp_path, name, players, seed):
    """A log redacted for seat 1: no table, the story told line by line with the current
    one marked, a line clicked goes there, and the end shows the log's scores."""
    from interpreter.web.timeline import open_log
    rules = interpreter.load(name)
    log = tmp_path / f"{name}.jsonl"
    result = play_game(rules, players, seed, make_agents("random", players, seed), log=str(log), log_for=1)
    game = open_log(log)
    length = len(game.positions)
    browser.get(serve(game))
    _wait(browser, lambda d: _position(d) == f"0 / {length - 1}")
    assert "seat 1 saw it" in browser.find_element(By.ID, "mode").text
    assert [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#seat option")] == ["1"]
    story = browser.find_elements(By.CSS_SELECTOR, "#story li")
    assert [li.text for li in story] == game.story and not browser.find_elements(By.CSS_SELECTOR, ".panel[data-seat]")
    at = min(7, length - 1)
    _go(browser, at, length)
    _wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#story li.current").get_attribute("data-at") == str(at))
    assert browser.find_element(By.ID, "said").text == game.story[at]
    line = game.positions[at]
    assert browser.find_element(By.ID, "options").text == f"chosen: {line['action']}"
    browser.find_elements(By.CSS_SELECTOR, "#story li")[2].click()
    _wait(browser, lambda d: _position(d) == f"2 / {length - 1}")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    _wait(browser, lambda d: d.find_elements(By.ID, "scores"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#scores tr[data-seat]")
    assert [r.find_element(By.CSS_SELECTOR, ".score").text for r in rows] == [str(s) for s in result["scores"]]
    assert browser.find_element(By.ID, "error").text == ""


def test_a_short_game_is_played_to_its_end_by_clicks(browser, serve):
    rules = interpreter.load("diamonds")
    game = LiveGame(rules, 3, 7, "human,random,random", {"params": {"hand_size": 3, "rounds": 1}})
    browser.get(serve(game))
    clicks = 0
    while not browser.find_elements(By.ID, "scores"):
        buttons = _wait(browser, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#options button")
                                            if b.is_enabled()] or d.find_elements(By.ID, "scores"))
        if not isinstance(buttons, list) or not buttons or buttons[0].tag_name != "button":
            break
        before = len(game.positions)
        buttons[-1].click()            # the last option: not always the first card
        _wait(browser, lambda d, b=before: len(game.positions) > b and _position(d).split(" / ")[0]
              == str(len(game.positions) - 1))
        clicks += 1
        assert clicks < 100
    assert game.state.over and clicks >= 3
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tr[data-seat]"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#scores tr[data-seat]")
    assert [r.find_element(By.CSS_SELECTOR, ".score").text for r in rows] == [str(s) for s in game.state.scores()]
    # every click was seat 0's, and the log of the game holds them
    mine = [line for line, _ in game.positions[1:] if line.get("seat") == 0]
    assert len(mine) == clicks


def test_with_two_human_seats_each_persons_page_plays_only_their_seat(browser):
    import threading
    from interpreter.web.server import make_server
    game = LiveGame(interpreter.load("diamonds"), 3, 7, "human,human,random")
    server = make_server(game)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/?token="
    try:
        deciding = game.waiting_for()
        for seat, token in server.seat_tokens.items():
            browser.get(base + token)
            _wait(browser, lambda d, s=seat: [o.text for o in d.find_elements(By.CSS_SELECTOR, "#seat option")]
                  == ["a spectator", f"you: seat {s}"])
            if seat == deciding:
                _wait(browser, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#options button") if b.is_enabled()])
            else:
                _wait(browser, lambda d: f"waiting for seat {deciding}" in d.find_element(By.ID, "options").text)
                assert not [b for b in browser.find_elements(By.CSS_SELECTOR, "#options button") if b.is_enabled()]
        browser.get(base + server.token)                              # the spectator's address
        _wait(browser, lambda d: [o.text for o in d.find_elements(By.CSS_SELECTOR, "#seat option")] == ["a spectator"])
    finally:
        server.shutdown()
        server.server_close()


def test_the_page_without_its_token_says_what_to_open(browser, serve):
    game = LiveGame(interpreter.load("diamonds"), 3, 7, "human,random,random")
    url = serve(game)
    browser.get(url.split("?")[0])
    _wait(browser, lambda d: "needs its token" in d.find_element(By.ID, "error").text)
    assert not browser.find_elements(By.CSS_SELECTOR, "#options button")
    browser.get(url)
    _wait(browser, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#options button") if b.is_enabled()])
    assert browser.find_element(By.ID, "error").text == ""


def test_a_grid_market_shows_its_prices_and_is_bought_by_a_click(browser, serve):
    rules = interpreter.load("diamonds_club")
    game = LiveGame(rules, 3, 1, "human,random,random")
    browser.get(serve(game))
    S = game.state
    while S.prompt() != "buy":     # play the first decisions in the page until a buy
        _wait(browser, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#options button") if b.is_enabled()])
        before = len(game.positions)
        browser.find_element(By.CSS_SELECTOR, "#options button").click()
        _wait(browser, lambda d, b=before: len(game.positions) > b)
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, 'table.grid td .price'))
    option = _wait(browser, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#options button")
                                       if b.get_attribute("data-label") != "pass"])[0]
    at, label = option.get_attribute("data-label").split(":")
    cell = browser.find_element(By.CSS_SELECTOR, f'table.grid td[data-at="{at}"]')
    assert cell.find_element(By.CSS_SELECTOR, ".card").text == label
    price = int(cell.find_element(By.CSS_SELECTOR, ".price").text.split()[0])
    assert option.find_element(By.CSS_SELECTOR, ".note").text.split()[0] == str(price)
    coins = S.c["coins"][0]
    before = len(game.positions)
    option.click()
    _wait(browser, lambda d: len(game.positions) > before)
    bought = game.positions[before][0]
    assert bought["action"] == f"{at}:{label}"
    assert game.positions[before][1].c["coins"][0] == coins - price


def test_game_over_shows_the_scores_by_category_and_what_decided(browser, serve, tmp_path):
    rules = interpreter.load("diamonds")
    log = tmp_path / "d.jsonl"
    result = play_game(rules, 4, 3, make_agents("random", 4, 3), log=str(log))
    game = LogView(log)
    browser.get(serve(game))
    _wait(browser, lambda d: _position(d).startswith("0 / "))
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#scores tr[data-seat]"))
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#scores th.category")]
    assert heads == list(result["breakdown"][0])
    for row in browser.find_elements(By.CSS_SELECTOR, "#scores tr[data-seat]"):
        seat = int(row.get_attribute("data-seat"))
        shown = {td.get_attribute("data-category"): td.text for td in row.find_elements(By.CSS_SELECTOR, "td.category")}
        assert shown == {k: str(v) for k, v in result["breakdown"][seat].items()}


@pytest.mark.parametrize("width", [360, 1280])
def test_the_page_fits_a_phone_and_a_wide_screen(browser, serve, tmp_path, width):
    rules = interpreter.load("diamonds_club")
    game = LiveGame(rules, 3, 2, "human,random,random")
    browser.set_window_size(width, 900)
    try:
        browser.get(serve(game))
        _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#options button"))
        wide = browser.execute_script("return document.documentElement.scrollWidth")
        inner = browser.execute_script("return window.innerWidth")
        assert wide <= inner, f"the page is {wide} px wide in a {inner} px window"
        # the decision stays reachable: beside the table when wide, under it on a phone
        aside = browser.find_element(By.TAG_NAME, "aside").rect
        board = browser.find_element(By.ID, "board").rect
        assert (aside["y"] >= board["y"] + board["height"] - 1) == (width == 360)
        icon = browser.execute_script("return document.querySelector('link[rel=icon]').href")
        status = browser.execute_script("return fetch(arguments[0]).then(r => r.status)", icon)
        assert status == 200
    finally:
        browser.set_window_size(1400, 1000)


def test_a_rounds_end_is_drawn_as_a_table_of_each_seats_change(browser, serve, tmp_path):
    rules = interpreter.load("diams")
    log = tmp_path / "d.jsonl"
    play_game(rules, 4, 3, make_agents("random", 4, 3), log=str(log))
    game = LogView(log)
    last = len(game.positions) - 1
    browser.get(serve(game))
    _wait(browser, lambda d: _position(d).startswith("0 / "))
    assert not browser.find_elements(By.CSS_SELECTOR, "#summary tr")   # the setup changes no seat's counter
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)      # the last round's end
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#summary tr"))
    seat = browser.find_element(By.ID, "seat").get_attribute("value")
    summary = game.view(last, "all" if seat in ("", "all") else int(seat))["summary"]
    rows = [[c.text for c in tr.find_elements(By.CSS_SELECTOR, "th, td")] for tr in browser.find_elements(By.CSS_SELECTOR, "#summary tr")]
    assert rows == [["", *summary["seats"]], *summary["rows"]]


def test_a_simultaneous_choice_in_progress_reads_as_words(browser, serve):
    rules = interpreter.load("goofspiel")
    game = LiveGame(rules, 3, 1, "random,human,random")   # seat 0 has chosen in secret when seat 1 is asked
    browser.get(serve(game))
    row = _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#running .item[data-name="simultaneous"]'))[0]
    assert " ".join(row.text.split()) == "secret choices chosen: seat 0; still to choose: you, seat 2"
