#!/usr/bin/env python3
"""ssac label in a real browser: Debian's chromium, driven through chromium-driver by selenium.

A simulated person labels three digit classes of sklearn's digits (a small subset) from their
labels, with a fixed share of not-sure answers; undoes three answers with the u key and gives
them again; the server is killed halfway and restarted on the same answer file. The clustering
and trace the page offers must equal those of `ssac cluster --oracle interactive` fed the same
answer file, and the trace must pass `ssac validate`. Then: a hostile CSV cell shows as text,
bad requests get a 4xx and change nothing, an answer file of other parameters is refused, and a
taken port is one line. Also, against the same session: a page on another port of 127.0.0.1
frames the labelling page under a nearly transparent layer and clicks and types into it -- the
frame must not render and the answer file must keep its bytes; the printed address leaves the
token behind (also when followed from a link on another site); keys by focus, with the keyboard
alone (Tab to a button and Space presses that button, Enter likewise, a single key does nothing
while a button has the focus, u undoes, u on the end page takes back the last answer), the answer
file checked after each; one question's row numbers on the page, in the answer file, in the
trace and at the terminal side by side; no console errors on the session's pages.
Exit 77 (ctest: skipped) only when chromium or its driver is absent.

Usage: browser_label_test.py SSAC WORKDIR [SCREENSHOT_DIR]
"""
import hashlib
import http.server
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
    print("skipped: /usr/bin/chromium or /usr/bin/chromedriver is absent")
    sys.exit(77)

from selenium import webdriver  # noqa: E402  (python3-selenium)
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

SSAC, WORK = sys.argv[1], sys.argv[2]
SHOTS = sys.argv[3] if len(sys.argv) > 3 else WORK
os.makedirs(WORK, exist_ok=True)
os.makedirs(SHOTS, exist_ok=True)
failures = []
lost = []  # questions whose first key the browser dropped (see press)


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def digits_csv(path, per_class=16):
    """Classes 0, 1, 2 of sklearn's digits, the first `per_class` rows of each, label = class+1."""
    from sklearn.datasets import load_digits
    d = load_digits()
    rows = []
    for cls in (0, 1, 2):
        rows += [i for i in range(len(d.target)) if d.target[i] == cls][:per_class]
    rows.sort()
    with open(path, "w") as f:
        f.write(",".join("x%d" % (j + 1) for j in range(64)) + ",label\n")
        for i in rows:
            f.write(",".join("%d" % v for v in d.data[i]) + ",%d\n" % (d.target[i] + 1))
    return [int(d.target[i]) + 1 for i in rows]


def start(args):
    """Starts `ssac label ARGS --port 0`; returns the process, the address it prints (with the
    session's token) and that address without the token."""
    p = subprocess.Popen([SSAC, "label"] + args + ["--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=[0-9a-f]{32}", line)
    if not m:
        p.kill()
        raise SystemExit("ssac label printed no address: %r %r" % (line, p.stderr.read()))
    return p, m.group(0), m.group(1)


def with_token(tokened, path):
    """The server's `path`, with the token of the address `tokened` as a parameter."""
    base, token = tokened.split("?")
    return base + path + "?" + token


class OtherSite(http.server.BaseHTTPRequestHandler):
    """Another program of the same person on another port of 127.0.0.1 (a notebook, a dev
    server): serves the pages in `pages`."""
    pages = {}

    def do_GET(self):
        body = self.pages.get(self.path.split("?")[0], "").encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def post(url, fields):
    data = urllib.parse.urlencode(fields).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data)) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def get(url):
    with urllib.request.urlopen(url) as r:
        return r.read().decode()


options = webdriver.ChromeOptions()
options.binary_location = CHROMIUM
profile = tempfile.mkdtemp(prefix="ssac-label-chromium-")
for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + profile, "--window-size=1100,900"]:
    options.add_argument(flag)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(DRIVER), options=options)
started = time.time()
servers = []
other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OtherSite)
threading.Thread(target=other.serve_forever, daemon=True).start()
OTHER = other.server_address[1]


def console_errors():
    """The browser's console messages of level SEVERE since the last call."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def lines(path):
    with open(path) as f:
        return f.read().splitlines()


def snapshot(path):
    with open(path, "rb") as f:
        return f.read(), os.stat(path).st_mode
try:
    data = os.path.join(WORK, "digits.csv")
    labels = digits_csv(data)
    answers = os.path.join(WORK, "answers.txt")
    if os.path.exists(answers):
        os.remove(answers)
    args = [data, "--k", "3", "--eta", "3", "--beta", "3", "--seed", "4", "--image", "8x8",
            "--answers", answers]
    server, url, base = start(args)
    servers.append(server)
    driver.get(url)
    # The printed address sets the cookie and leaves the token behind: the address bar holds none.
    check(driver.current_url == base, "the token leaves the address bar: %s" % driver.current_url)

    # Clickjacking from another program's page on 127.0.0.1 (same site: the strict cookie would be
    # sent to the frame): the labelling page laid at opacity 0.05 over a button, clicked and typed
    # into. A frame of the other site's own page beside it is the control: a frame that renders.
    OtherSite.pages["/frame.html"] = (
        "<!DOCTYPE html><title>win</title><button id=win style='position:absolute;top:200px;"
        "left:300px'>click to win</button><iframe id=f name=f src='%s' style='position:absolute;"
        "top:0;left:0;width:1000px;height:700px;opacity:0.05;border:0'></iframe>"
        "<iframe id=c name=c src='/inner.html' style='position:absolute;top:720px'></iframe>"
        % base)
    OtherSite.pages["/inner.html"] = "<!DOCTYPE html><p id=inner>a frame that renders</p>"
    before = snapshot(answers)
    driver.get("http://127.0.0.1:%d/frame.html" % OTHER)
    time.sleep(1.0)
    driver.switch_to.frame("c")
    check(bool(driver.find_elements(By.ID, "inner")), "control: the other site's own frame renders")
    driver.switch_to.default_content()
    driver.switch_to.frame("f")
    framed = driver.page_source
    check(not driver.find_elements(By.ID, "pair") and "Question" not in framed,
          "the labelling page does not render in a frame of another 127.0.0.1 page")
    driver.switch_to.default_content()
    frame = driver.find_element(By.ID, "f")
    for x, y in [(0, 0), (-200, 50), (-100, 50), (100, 50)]:
        ActionChains(driver).move_to_element_with_offset(frame, x, y).click().perform()
    ActionChains(driver).send_keys("y").send_keys(" ").send_keys("n").perform()
    time.sleep(1.0)
    check(snapshot(answers) == before, "clicks and keys on the framing page wrote nothing")
    # A link to the printed address on a page of another site (localhost is another site than
    # 127.0.0.1): the page arrives, and the address bar holds no token.
    OtherSite.pages["/link.html"] = "<!DOCTYPE html><a id=go href='%s'>label</a>" % url
    driver.get("http://localhost:%d/link.html" % OTHER)
    driver.find_element(By.ID, "go").click()
    WebDriverWait(driver, 10).until(
        lambda d: d.current_url.startswith(base) and d.find_elements(By.ID, "pair"))
    check(driver.current_url == base, "from another site's link: the page, no token in the address "
          "(%s)" % driver.current_url)
    console_errors()  # the framing page's refused frame is that page's error, not the session's

    def person(a, b):
        """Not sure about a fixed share of pairs (by a hash of the pair), else the truth."""
        h = hashlib.sha256(("%d,%d" % (min(a, b), max(a, b))).encode()).digest()[0]
        if h % 5 == 0:
            return " " if h % 2 else "?"
        return "y" if labels[a] == labels[b] else "n"

    def state():
        # The page may be replaced between finding the pair and reading it (the answer's redirect
        # lands then): look again, a bounded number of times.
        for _ in range(100):
            try:
                pair = driver.find_elements(By.ID, "pair")
                if not pair:
                    return None
                return (int(pair[0].get_attribute("data-question")),
                        int(pair[0].get_attribute("data-row-a")),
                        int(pair[0].get_attribute("data-row-b")))
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise SystemExit("the page kept being replaced while it was read")

    def keys(key):
        """Sends `key` once the page can take it: loaded (its script ran) and two animation frames
        later (Chromium may drop input that arrives before a new page's first paint, which a
        loaded CI machine can delay past the load event; one CI run lost the first key after the
        link from another site, which 10 runs here, loaded, under ASan or with 400 ms of network
        latency, never did)."""
        WebDriverWait(driver, 10).until(
            lambda d: d.execute_script("return document.readyState") == "complete")
        driver.execute_async_script("var done = arguments[arguments.length - 1];"
                                    "requestAnimationFrame(function () {"
                                    " requestAnimationFrame(function () { done(); }); });")
        ActionChains(driver).send_keys(key).perform()

    def press(key, before):
        """`key` on question `before`; waits for the next page. A key that changed nothing (the
        same question on the page, the same answer file) is pressed once more, with what the page
        said then; more than two such keys in the session fail the run."""
        saved = lines(answers)
        keys(key)
        moved = lambda d: d.find_elements(By.ID, "done") or state() is None or state()[0] != before
        try:
            WebDriverWait(driver, 10).until(moved)
        except TimeoutException:
            s = state()
            seen = driver.execute_script(
                "return [document.readyState, document.hasFocus(),"
                " document.activeElement && document.activeElement.tagName]")
            if s is None or s[0] != before or lines(answers) != saved:
                raise
            lost.append(before)
            print("note a key on question %d changed nothing in 10 s (page: readyState, focus, "
                  "focused element = %r); pressed again" % (before, seen))
            keys(key)
            WebDriverWait(driver, 20).until(moved)

    def active():
        return driver.switch_to.active_element

    def tab_to(pred, limit=40):
        """Presses Tab until the focused element satisfies `pred`; that element, else None."""
        for _ in range(limit):
            keys(Keys.TAB)
            if pred(active()):
                return active()
        return None

    def keyboard_only(q, a, b):
        """Questions q (= 5) to q + 1 and back, with the keyboard alone; the file after each."""
        saved = lines(answers)
        pair = "%d,%d," % (min(a, b), max(a, b))
        check(len(saved) == q, "keyboard: %d answers before question %d" % (q - 1, q))
        check(tab_to(lambda e: e.get_attribute("id") == "answer-no") is not None,
              "keyboard: Tab reaches Different")
        keys("y")
        time.sleep(0.5)
        check(state()[0] == q and lines(answers) == saved,
              "keyboard: y does nothing while a button has the focus")
        press(" ", q)
        check(lines(answers) == saved + [pair + "no"] and state()[0] == q + 1,
              "keyboard: Space on the focused Different answers no (%s)" % lines(answers)[-1])
        q1, a1, b1 = state()
        check(tab_to(lambda e: e.get_attribute("id") == "answer-yes") is not None,
              "keyboard: Tab reaches Same")
        press(Keys.ENTER, q1)
        check(lines(answers) == saved + [pair + "no", "%d,%d,yes" % (min(a1, b1), max(a1, b1))],
              "keyboard: Enter on the focused Same answers yes")
        back = tab_to(lambda e: e.text == "back to question %d" % q)
        check(back is not None, "keyboard: Tab reaches 'back to question %d'" % q)
        press(" ", q + 2)
        check(state()[0] == q and lines(answers) == saved,
              "keyboard: Space on 'back to question %d' goes back to it (at %d)" % (q, state()[0]))
        press("u", q)
        check(state()[0] == q - 1 and lines(answers) == saved[:-1],
              "keyboard: u with nothing focused undoes the last answer")

    def numbers_on_page():
        """The row numbers the question's two items show ("row N"), and the pair's data rows."""
        shown = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#pair .item h2")]
        return shown, state()

    given, undone, resumed, keyed, numbered = 0, False, False, False, None
    while True:
        s = state()
        if s is None:
            break
        q, a, b = s
        if q == 5 and not keyed:
            keyed = True
            keyboard_only(q, a, b)
            continue
        if q == 3 and numbered is None:
            driver.save_screenshot(os.path.join(SHOTS, "label-question.png"))
            shown, _ = numbers_on_page()
            check(shown == ["row %d" % a, "row %d" % b], "the page shows the rows' numbers as the "
                  "files count them: %r for rows %d and %d" % (shown, a, b))
            press(person(a, b), q)
            numbered = (q, a, b, shown, lines(answers)[q])
            given += 1
            continue
        if q == 12 and not undone:
            undone = True
            for expect in (11, 10, 9):
                press("u", q)
                q = state()[0]
                check(q == expect, "undo: back to question %d (at %d)" % (expect, q))
            with open(answers) as f:
                check(len(f.read().splitlines()) == 1 + 8, "undo rewrote the answer file to 8")
            continue
        if q == 20 and not resumed:
            resumed = True
            with open(answers) as f:
                saved = f.read().splitlines()
            check(len(saved) == 1 + 19, "19 answers saved before the crash")
            server.send_signal(signal.SIGKILL)
            server.wait()
            server, url, base = start(args)
            servers.append(server)
            driver.get(url)
            check(state() is not None and state()[0] == 20, "resumed at question 20")
            # Another page in the same browser posts an undo to the session (a data: URL, whose
            # origin is opaque; the session cookie is SameSite=Strict): refused, nothing changes.
            driver.get("data:text/html,<form id=f method=post action='%sundo'>"
                       "<input name=to value=1></form><script>f.submit()</script>" % base)
            WebDriverWait(driver, 10).until(lambda d: d.current_url.startswith(base))
            check("403" in driver.page_source or "refused" in driver.page_source or
                  "token" in driver.page_source, "a cross-site post is refused in the browser")
            with open(answers) as f:
                check(f.read().splitlines() == saved, "the cross-site post changed no answer")
            # Coming from another page, the SameSite=Strict cookie is not sent: the person opens
            # the printed address again (a bookmark of it works as well).
            driver.get(url)
            check(state() is not None and state()[0] == 20, "still at question 20")
            check(driver.current_url == base, "the reopened address holds no token: %s" % driver.current_url)
            # The refused post's 403 is that page's error, not the session's; seen here, it is
            # the control that the console check below can see an error.
            seen = console_errors()
            check(any("403" in m for m in seen), "control: the console log shows the refused "
                  "post's 403: %r" % seen)
            continue
        press(person(a, b), q)
        given += 1
        if given >= 400:
            check(False, "the run ends within 400 answers")
            break
    check(bool(driver.find_elements(By.ID, "done")), "the end page is shown")
    # u on the end page takes back the last answer and returns to its question; the page says so.
    final = lines(answers)
    last = len(final) - 1
    check("Take back the last answer and return to question %d" % last in driver.page_source,
          "the end page says u takes back answer %d" % last)
    keys("u")
    WebDriverWait(driver, 10).until(lambda d: state() is not None)
    check(state()[0] == last and lines(answers) == final[:-1],
          "u on the end page: back to question %d, the file without its last line" % last)
    press(person(state()[1], state()[2]), last)
    check(bool(driver.find_elements(By.ID, "done")) and lines(answers) == final,
          "the same answer again: the end page and the same file")
    errors = console_errors()
    check(errors == [], "no console errors on the session's pages: %r" % errors)
    driver.set_window_size(1100, 1400)
    driver.save_screenshot(os.path.join(SHOTS, "label-end.png"))
    sizes = [int(e.text) for e in driver.find_elements(By.CSS_SELECTOR, "tr.cluster td.size")]
    check(sum(sizes) == len(labels), "cluster sizes add up to n (%s)" % sizes)
    check(len(driver.find_elements(By.CSS_SELECTOR, "svg.pca circle")) == len(labels),
          "the scatter has every point")
    page_labels = get(with_token(url, "labels.csv"))
    page_trace = get(with_token(url, "trace.jsonl"))

    # The same answers through the terminal oracle (which then asks nothing).
    copy = os.path.join(WORK, "answers-copy.txt")
    shutil.copy(answers, copy)
    out, trace = os.path.join(WORK, "cluster-labels.csv"), os.path.join(WORK, "cluster.jsonl")
    r = subprocess.run([SSAC, "cluster", data, "--k", "3", "--eta", "3", "--beta", "3", "--seed",
                        "4", "--oracle", "interactive", "--answers", copy, "--out", out,
                        "--trace", trace], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True)
    check(r.returncode == 0, "ssac cluster --oracle interactive on the answers: %s" % r.stderr)
    check(open(out).read() == page_labels, "the page's labels equal ssac cluster's")
    check(open(trace).read() == page_trace, "the page's trace equals ssac cluster's")
    with open(os.path.join(WORK, "page.jsonl"), "w") as f:
        f.write(page_trace)
    r = subprocess.run([SSAC, "validate", "--data", data, "--trace",
                        os.path.join(WORK, "page.jsonl")], capture_output=True, text=True)
    check(r.returncode == 0, "ssac validate accepts the page's trace: %s" % r.stderr.strip())

    # One question's numbers side by side: the page, the answer file, the trace, the terminal.
    import json
    q, a, b, shown, line = numbered
    queries = [e for e in map(json.loads, page_trace.splitlines())
               if e.get("event") == "query" and {e["x"], e["y"]} == {a, b}]
    print("question %d: page %s | answer file '%s' | trace query x=%s y=%s"
          % (q, " and ".join(shown), line, queries[0]["x"] if queries else "-",
             queries[0]["y"] if queries else "-"))
    check(line.startswith("%d,%d," % (min(a, b), max(a, b))) and
          sorted(int(r.split()[1]) for r in shown) == [min(a, b), max(a, b)] and
          queries and (queries[0]["x"], queries[0]["y"]) == (a, b),
          "question %d: the page's rows, the file's line and the trace's query name the same rows"
          % q)
    term_answers = os.path.join(WORK, "terminal-answers.txt")
    if os.path.exists(term_answers):
        os.remove(term_answers)
    r = subprocess.run([SSAC, "cluster", data, "--k", "3", "--eta", "3", "--beta", "3", "--seed",
                        "4", "--oracle", "interactive", "--answers", term_answers],
                       input="n\n", capture_output=True, text=True)
    asked = re.findall(r"^  row (\d+):$", r.stdout + r.stderr, re.M)[:2]
    term_line = lines(term_answers)[1] if os.path.exists(term_answers) else ""
    check(len(asked) == 2 and term_line == "%d,%d,no" % tuple(sorted(map(int, asked))),
          "the terminal's first question names the rows its answer line holds: rows %s, '%s'"
          % (asked, term_line))

    # An answer file of other parameters is refused with one line (once the session holding
    # the file has stopped: while it runs, the file is locked).
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=20)
    check(server.returncode == 0, "SIGTERM stops the server: exit %s" % server.returncode)
    r = subprocess.run([SSAC, "label", data, "--k", "2", "--eta", "3", "--beta", "3", "--seed",
                        "4", "--answers", answers, "--port", "0"], capture_output=True,
                       text=True, timeout=20)
    check(r.returncode == 1 and len(r.stderr.splitlines()) == 1 and
          "other data or parameters ('k=3', not 'k=2')" in r.stderr,
          "another run's answer file is refused: %r" % r.stderr)

    # A hostile CSV: the cell is text on the page, no script runs.
    hostile = os.path.join(WORK, "hostile.csv")
    with open(hostile, "w") as f:
        f.write("x,y,name,label\n0,0,<script>alert(1)</script>,1\n0.2,0,<b>bold</b> & co,1\n"
                "5,5,\"{{body}}\",2\n5.2,5,<img src=x onerror=alert(2)>,2\n")
    hans = os.path.join(WORK, "hostile-answers.txt")
    if os.path.exists(hans):
        os.remove(hans)
    hs, hurl, hbase = start([hostile, "--k", "2", "--eta", "1", "--show", "name", "--answers", hans])
    servers.append(hs)
    driver.get(hurl)
    shown = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".item-fields dd")]
    q0 = state()
    rows = (q0[1], q0[2])
    names = ["<script>alert(1)</script>", "<b>bold</b> & co", "{{body}}",
             "<img src=x onerror=alert(2)>"]
    check(shown == [names[rows[0]], names[rows[1]]], "CSV text shows as text: %r" % shown)
    try:
        driver.switch_to.alert
        check(False, "no script from the CSV runs")
    except NoAlertPresentException:
        check(True, "no script from the CSV runs")
    check(not driver.find_elements(By.CSS_SELECTOR, ".item-fields dd *"), "no markup from the CSV")
    # Bad requests: 4xx, nothing changes.
    before = snapshot(hans)
    answer_url, undo_url = with_token(hurl, "answer"), with_token(hurl, "undo")
    check(post(answer_url, {"q": "1", "a": "maybe"}) == 400, "unknown answer: 400")
    check(post(answer_url, {"q": "2", "a": "yes"}) == 409, "stale question number: 409")
    check(post(answer_url, {"a": "yes"}) == 409, "no question number: 409")
    check(post(undo_url, {"to": "1"}) == 400, "undo with nothing answered: 400")
    check(post(undo_url, {"to": "x"}) == 400, "undo to a non-number: 400")
    check(post(hbase + "answer", {"q": "1", "a": "yes"}) == 403, "an answer without the token: 403")
    try:
        urllib.request.urlopen(with_token(hurl, "labels.csv"))
        code = 200
    except urllib.error.HTTPError as e:
        code = e.code
    check(code == 409, "labels before the end: 409")
    after = snapshot(hans)
    driver.get(hurl)
    check(before == after and state() == q0, "bad requests changed nothing")

    # To the end: every row's text is on the end page, as text.
    for _ in range(40):
        s = state()
        if s is None:
            break
        press("y" if (s[1] < 2) == (s[2] < 2) else "n", s[0])
    shown = sorted(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".item-fields dd"))
    check(shown == sorted(names), "the end page shows every row's text as text: %r" % shown)
    check(not driver.find_elements(By.CSS_SELECTOR, ".item-fields dd *"), "no markup on the end")
    try:
        driver.switch_to.alert
        check(False, "no script from the CSV runs on the end page")
    except NoAlertPresentException:
        check(True, "no script from the CSV runs on the end page")

    # A taken port: one line, exit 1.
    port = hbase.rstrip("/").rsplit(":", 1)[1]
    r = subprocess.run([SSAC, "label", hostile, "--k", "2", "--eta", "1", "--show", "name",
                        "--port", port],
                       capture_output=True, text=True, timeout=20)
    check(r.returncode == 1 and len(r.stderr.splitlines()) == 1 and
          "cannot listen on 127.0.0.1:" + port in r.stderr, "taken port: %r" % r.stderr)
    check(len(lost) <= 2, "keys the browser dropped and the test pressed again: %d (questions %s)"
          % (len(lost), lost))
finally:
    other.shutdown()
    driver.quit()
    for s in servers:
        if s.poll() is None:
            s.send_signal(signal.SIGTERM)
            try:
                s.wait(timeout=5)
            except subprocess.TimeoutExpired:
                s.kill()
    shutil.rmtree(profile, ignore_errors=True)
print("%.1f s" % (time.time() - started))
sys.exit(1 if failures else 0)
