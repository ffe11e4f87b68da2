#!/usr/bin/env python3
"""ssac label in a real browser: Debian's chromium, driven through chromium-driver by selenium.

A simulated person labels three digit classes of sklearn's digits (a small subset) from their
labels, with a fixed share of not-sure answers; undoes three answers with the u key and gives
them again; the server is killed halfway and restarted on the same answer file. The clustering
and trace the page offers must equal those of `ssac cluster --oracle interactive` fed the same
answer file, and the trace must pass `ssac validate`. Then: a hostile CSV cell shows as text,
bad requests get a 4xx and change nothing, an answer file of other parameters is refused, and a
taken port is one line. Exit 77 (ctest: skipped) only when chromium or its driver is absent.

Usage: browser_label_test.py SSAC WORKDIR [SCREENSHOT_DIR]
"""
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
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
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

SSAC, WORK = sys.argv[1], sys.argv[2]
SHOTS = sys.argv[3] if len(sys.argv) > 3 else WORK
os.makedirs(WORK, exist_ok=True)
os.makedirs(SHOTS, exist_ok=True)
failures = []


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
driver = webdriver.Chrome(service=Service(DRIVER), options=options)
started = time.time()
servers = []
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

    def press(key, before):
        ActionChains(driver).send_keys(key).perform()
        WebDriverWait(driver, 10).until(
            lambda d: d.find_elements(By.ID, "done") or state() is None or state()[0] != before)

    given, undone, resumed = 0, False, False
    while True:
        s = state()
        if s is None:
            break
        q, a, b = s
        if q == 3:
            driver.save_screenshot(os.path.join(SHOTS, "label-question.png"))
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
            # the printed address again.
            driver.get(url)
            check(state() is not None and state()[0] == 20, "still at question 20")
            continue
        press(person(a, b), q)
        given += 1
        if given >= 400:
            check(False, "the run ends within 400 answers")
            break
    check(bool(driver.find_elements(By.ID, "done")), "the end page is shown")
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
    before = open(hans).read() if os.path.exists(hans) else ""
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
    after = open(hans).read() if os.path.exists(hans) else ""
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
finally:
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
