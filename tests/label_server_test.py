#!/usr/bin/env python3
"""ssac label as a web service, over real sockets on 127.0.0.1 (no browser: tests/browser_label_test.py).

- Requests no browser of the person would send (a forged Host, a post from another page, a
  missing or wrong token) get a 403 and leave the answer file's bytes and mode as they were.
- Every route and every error (the library's own 400, 404, 413, 414 among them) carries the
  framing and referrer headers; every 4xx is one line and changes nothing; a method a path does
  not take is a 405; the printed address, opened in a browser, sets the cookie and leaves the
  token behind (303, or a page that goes on by itself after a link from another site); a
  request without Content-Length or Transfer-Encoding is answered at once.
- One writer per answer file: a second `ssac label` on it is one line naming the file and the
  first one's pid, exit 1; an undo keeps the file's mode; a run that cannot listen creates nothing.
- Slow clients: with 20 silent and 20 trickling connections open, a normal request is answered
  within 1 s; 200 concurrent requests are all answered; a connection trickling a byte every 0.3 s
  is cut off at the request deadline (10 s), which no byte extends.

Every loop is bounded; the bounds are generous (this is a test of behaviour, not a benchmark).
Usage: label_server_test.py SSAC WORKDIR
"""
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

SSAC, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def start(args):
    p = subprocess.Popen([SSAC, "label"] + args + ["--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}) ", line)
    if not m:
        p.kill()
        raise SystemExit("ssac label printed no address: %r %r" % (line, p.stderr.read()))
    return p, int(m.group(1)), m.group(2)


def request(port, raw, timeout=10.0):
    """Sends raw bytes; returns (status, headers+body text) of the reply, (0, '') if none."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(raw.encode())
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            pass
    text = data.decode("utf-8", "replace")
    m = re.match(r"HTTP/1\.1 (\d+)", text)
    return (int(m.group(1)) if m else 0), text


def http(port, method, path, host=None, headers=(), body=""):
    lines = ["%s %s HTTP/1.1" % (method, path), "Host: %s" % (host or "127.0.0.1:%d" % port),
             "Connection: close"]
    lines += list(headers)
    if method == "POST":
        lines += ["Content-Type: application/x-www-form-urlencoded",
                  "Content-Length: %d" % len(body)]
    return request(port, "\r\n".join(lines) + "\r\n\r\n" + body)


def exchange(port, raw, limit=5.0):
    """Sends raw bytes and reads one response (its headers, then Content-Length bytes) without
    closing the sending side, as a client waiting for its answer does. Returns (status, headers as
    (lower-case name, value) pairs, body, seconds until the response was complete)."""
    t0 = time.time()
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.sendall(raw if isinstance(raw, bytes) else raw.encode())
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            m = re.search(rb"\r\ncontent-length: *(\d+)", head, re.I)
            head_request = (raw if isinstance(raw, bytes) else raw.encode()).startswith(b"HEAD ")
            while m and not head_request and len(body) < int(m.group(1)):
                chunk = s.recv(65536)
                if not chunk:
                    break
                body += chunk
        except socket.timeout:
            return 0, [], b"", time.time() - t0
    took = time.time() - t0
    lines = head.decode("latin-1").split("\r\n")
    m = re.match(r"HTTP/1\.1 (\d+)", lines[0])
    headers = [(k.strip().lower(), v.strip()) for k, _, v in
               (line.partition(":") for line in lines[1:])]
    return (int(m.group(1)) if m else 0), headers, body, took


POLICY = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
          "form-action 'self'; frame-ancestors 'none'")
FRAMING = [("content-security-policy", POLICY), ("x-frame-options", "DENY"),
           ("referrer-policy", "same-origin")]


def framing_headers_ok(headers):
    """Each of the framing and referrer headers exactly once, with its value."""
    return all([v for k, v in headers if k == name] == [value] for name, value in FRAMING)


def file_state(path):
    return open(path, "rb").read(), stat.S_IMODE(os.stat(path).st_mode)


data = os.path.join(WORK, "d.csv")
with open(data, "w") as f:
    f.write("x,y,label\n0,0,1\n0.1,0,1\n0.2,0.1,1\n5,5,2\n5.1,5,2\n5.2,5.1,2\n")
answers = os.path.join(WORK, "answers.txt")
if os.path.exists(answers):
    os.remove(answers)
args = [data, "--k", "2", "--eta", "2", "--seed", "3", "--answers", answers]
servers = []
try:
    server, port, token = start(args)
    servers.append(server)
    cookie = "Cookie: ssac-label-%d=%s" % (port, token)
    own = "Origin: http://127.0.0.1:%d" % port

    # The first GET with the token: the page and the cookie.
    st, text = http(port, "GET", "/?token=" + token)
    check(st == 200 and ("Set-Cookie: ssac-label-%d=%s; Path=/; HttpOnly; SameSite=Strict"
                         % (port, token)) in text and 'id="pair"' in text,
          "the first GET is the page, with the cookie: %r" % text[:300])
    st, page = http(port, "GET", "/", headers=[cookie])
    check(st == 200 and 'id="pair"' in page, "the page with the cookie: %d" % st)
    # Two answers, so that an undo has something to do; the file is then made private.
    for q in (1, 2):
        st, _ = http(port, "POST", "/answer", headers=[cookie, own], body="q=%d&a=yes" % q)
        check(st == 303, "answer %d from the page: %d" % (q, st))
    os.chmod(answers, 0o600)
    before = open(answers, "rb").read()
    before_state = file_state(answers)
    check(len(before.splitlines()) == 3, "header and two answers saved")

    wrong = token[:-1] + ("0" if token[-1] != "0" else "1")
    hostile = [
        ("forged Host (DNS rebinding) reading the page",
         ("GET", "/", "attacker.example", [cookie], "")),
        ("forged Host posting an undo", ("POST", "/undo", "attacker.example:%d" % port,
                                         [cookie], "to=1")),
        ("cross-site form post of an undo (Origin)",
         ("POST", "/undo", None, [cookie, "Origin: http://attacker.example"], "to=1")),
        ("cross-site form post of an answer (Sec-Fetch-Site)",
         ("POST", "/answer", None, [cookie, "Sec-Fetch-Site: cross-site"], "q=3&a=no")),
        ("opaque origin", ("POST", "/undo", None, [cookie, "Origin: null"], "to=1")),
        ("no token", ("POST", "/undo", None, [own], "to=1")),
        ("no token on GET /", ("GET", "/", None, [], "")),
        ("no token on the script", ("GET", "/app.js", None, [], "")),
        ("wrong token in the cookie", ("POST", "/undo", None,
                                       ["Cookie: ssac-label-%d=%s" % (port, wrong), own], "to=1")),
        ("wrong token as parameter", ("POST", "/undo?token=" + wrong, None, [own], "to=1")),
        ("another port's cookie", ("POST", "/undo", None,
                                   ["Cookie: ssac-label-%d=%s" % (port + 1, token), own], "to=1")),
    ]
    for what, (method, path, host, headers, body) in hostile:
        st, text = http(port, method, path, host=host, headers=headers, body=body)
        check(st == 403 and "ssac label: " in text and "d.csv" not in text,
              "%s: 403 naming nothing of the session (%d)" % (what, st))
        check(file_state(answers) == before_state, "%s: the answer file's bytes and mode are as "
              "they were" % what)

    # Every route and every error carries the framing and referrer headers; every 4xx is one line
    # (a text line, or the page's one error paragraph) and leaves the answer file's bytes and mode.
    host = "Host: 127.0.0.1:%d" % port

    def raw(method, path, headers=(), body=None):
        lines = ["%s %s HTTP/1.1" % (method, path), host] + list(headers)
        if body is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      "Content-Length: %d" % len(body)]
        return "\r\n".join(lines) + "\r\n\r\n" + (body or "")

    navigate = ["Sec-Fetch-Mode: navigate", "Sec-Fetch-Dest: document"]
    routes = [
        ("GET /", raw("GET", "/", [cookie]), 200),
        ("HEAD /", raw("HEAD", "/", [cookie]), 200),
        ("GET /style.css", raw("GET", "/style.css", [cookie]), 200),
        ("GET /app.js", raw("GET", "/app.js", [cookie]), 200),
        ("GET /favicon.svg", raw("GET", "/favicon.svg", [cookie]), 200),
        ("GET /favicon.ico", raw("GET", "/favicon.ico", [cookie]), 204),
        ("GET / with the token, from a script", raw("GET", "/?token=" + token), 200),
        ("GET / with the token, a navigation typed or bookmarked",
         raw("GET", "/?token=" + token, navigate + ["Sec-Fetch-Site: none"]), 303),
        ("GET / with the token, a navigation from another site",
         raw("GET", "/?token=" + token, navigate + ["Sec-Fetch-Site: cross-site"]), 200),
        ("GET /labels.csv before the end", raw("GET", "/labels.csv", [cookie]), 409),
        ("GET /trace.jsonl before the end", raw("GET", "/trace.jsonl", [cookie]), 409),
        ("GET of no such page", raw("GET", "/nope", [cookie]), 404),
        ("POST of no such page", raw("POST", "/nope", [cookie, own], "q=1"), 404),
        ("POST /answer, a stale question", raw("POST", "/answer", [cookie, own], "q=1&a=yes"), 409),
        ("POST /answer, an unknown answer", raw("POST", "/answer", [cookie, own], "q=3&a=maybe"),
         400),
        ("POST /undo out of range", raw("POST", "/undo", [cookie, own], "to=9"), 400),
        ("PUT /", raw("PUT", "/", [cookie, own], ""), 405),
        ("DELETE /answer", raw("DELETE", "/answer", [cookie, own], ""), 405),
        ("POST /", raw("POST", "/", [cookie, own], "q=3&a=yes"), 405),
        ("GET /undo", raw("GET", "/undo?to=1", [cookie]), 405),
        ("OPTIONS /", raw("OPTIONS", "/", [cookie, own]), 405),
        ("no token", raw("GET", "/", []), 403),
        ("a forged Host", raw("GET", "/", [cookie]).replace(host, "Host: evil.example"), 403),
        ("a request line that is no request", "NONSENSE\r\n\r\n", 400),
        ("a request target over 8 KiB", raw("GET", "/" + "a" * 9000, [cookie]), 414),
        ("a body over 4 KiB", raw("POST", "/answer", [cookie, own], "a" * 5000), 413),
    ]
    for what, request_bytes, want in routes:
        prior = file_state(answers)
        st, headers, body, _ = exchange(port, request_bytes)
        text = body.decode("utf-8", "replace")
        check(st == want, "%s: %d (want %d)" % (what, st, want))
        check(framing_headers_ok(headers), "%s: the framing and referrer headers, once each: %r"
              % (what, [h for h in headers if h[0] in dict(FRAMING)]))
        if 400 <= st < 500:
            ctype = dict(headers).get("content-type", "")
            one_line = (text.count("\n") == 1 and text.endswith("\n") and
                        text.startswith("ssac label: ")) if ctype.startswith("text/plain") else \
                text.count('<p class="error">') == 1
            check(one_line, "%s: one line: %r" % (what, text[:200]))
            check(file_state(answers) == prior, "%s: the answer file's bytes and mode are as they "
                  "were" % what)
        if st == 405:
            allow = dict(headers).get("allow")
            check(allow in ("GET, HEAD", "POST"), "%s: Allow: %s" % (what, allow))
        if "with the token" in what:
            cookies = [v for k, v in headers if k == "set-cookie"]
            check(cookies == ["ssac-label-%d=%s; Path=/; HttpOnly; SameSite=Strict" % (port, token)],
                  "%s: the cookie is set: %r" % (what, cookies))
            location = dict(headers).get("location")
            if st == 303:
                check(location == "/", "%s: redirected to / without the token (%r)" % (what, location))
            elif "another site" in what:
                check(location is None and 'http-equiv="refresh" content="0; url=/"' in text and
                      token not in text, "%s: a page going on to / by itself: %r" % (what, text))
            else:
                check(location is None and 'id="pair"' in text, "%s: the page at once" % what)
    # The redirect keeps the path (a known one); an unknown path goes to the page.
    st, headers, _, _ = exchange(port, raw("GET", "/style.css?token=" + token,
                                           navigate + ["Sec-Fetch-Site: same-origin"]))
    check(st == 303 and dict(headers).get("location") == "/style.css",
          "the redirect keeps a known path: %d %r" % (st, dict(headers).get("location")))
    st, headers, _, _ = exchange(port, raw("GET", "//evil.example/?token=" + token,
                                           navigate + ["Sec-Fetch-Site: none"]))
    check(st == 303 and dict(headers).get("location") == "/",
          "an unknown path is redirected to the page, never to another host: %d %r"
          % (st, dict(headers).get("location")))

    # A request with neither Content-Length nor Transfer-Encoding has an empty body (RFC 9112,
    # section 6.3): answered at once, not at the request deadline. The connection stays open on
    # the client's side, as a client waiting for its answer keeps it.
    for method, path, want in [("PUT", "/", 405), ("PATCH", "/", 405), ("DELETE", "/", 405),
                               ("POST", "/answer", 400), ("POST", "/undo", 400),
                               ("POST", "/nope", 404), ("PUT", "/nope", 404),
                               ("PATCH", "/nope", 404)]:
        prior = file_state(answers)
        st, headers, body, took = exchange(port, raw(method, path, [cookie, own]), limit=3.0)
        check(st == want and took < 1.0, "a bodyless %s %s: %d in %.2f s (want %d within 1 s)"
              % (method, path, st, took, want))
        check(framing_headers_ok(headers), "a bodyless %s %s: the framing headers" % (method, path))
        check(file_state(answers) == prior, "a bodyless %s %s changed nothing" % (method, path))
    # A transfer coding whose end only the connection's end would tell: 400 at once.
    prior = file_state(answers)
    st, headers, body, took = exchange(port, raw("POST", "/answer", [cookie, own,
                                                                   "Transfer-Encoding: gzip"]),
                                       limit=3.0)
    check(st == 400 and took < 1.0 and body.count(b"\n") == 1 and file_state(answers) == prior,
          "Transfer-Encoding: gzip: %d in %.2f s, one line, nothing changed (%r)"
          % (st, took, body))
    st, page2 = http(port, "GET", "/", headers=[cookie])
    check(st == 200 and 'data-question="3"' in page2, "the session is still at question 3")

    # One writer per answer file.
    r = subprocess.run([SSAC, "label"] + args + ["--port", "0"], capture_output=True, text=True,
                       timeout=20)
    check(r.returncode == 1 and r.stderr == "ssac label: error: %s: another ssac label (pid %d) is "
          "writing this answer file; stop it first or use another file\n" % (answers, server.pid),
          "a second ssac label on the file: %r" % r.stderr)
    check(open(answers, "rb").read() == before, "the second one wrote nothing")

    # Undo keeps the mode; the file is then the header and one answer.
    st, _ = http(port, "POST", "/undo", headers=[cookie, own], body="to=2")
    check(st == 303, "undo from the page: %d" % st)
    mode = stat.S_IMODE(os.stat(answers).st_mode)
    check(mode == 0o600, "undo kept mode 600 (now %o)" % mode)
    check(open(answers, "rb").read() == b"\n".join(before.splitlines()[:2]) + b"\n",
          "undo rewrote the file to the header and answer 1")
    check(not os.path.exists(answers + ".undo-tmp"), "no temporary left")
    # The lock moved with the rename: a second one is still refused.
    r = subprocess.run([SSAC, "label"] + args + ["--port", "0"], capture_output=True, text=True,
                       timeout=20)
    check(r.returncode == 1 and "(pid %d)" % server.pid in r.stderr,
          "after the undo, a second ssac label is still refused: %r" % r.stderr)

    # A run that cannot listen creates nothing.
    fresh = os.path.join(WORK, "fresh-answers.txt")
    if os.path.exists(fresh):
        os.remove(fresh)
    r = subprocess.run([SSAC, "label", data, "--k", "2", "--eta", "2", "--answers", fresh,
                        "--port", str(port)], capture_output=True, text=True, timeout=20)
    check(r.returncode == 1 and len(r.stderr.splitlines()) == 1 and
          "cannot listen on 127.0.0.1:%d" % port in r.stderr and not os.path.exists(fresh),
          "a taken port: one line, no answer file created: %r" % r.stderr)

    # Slow clients. 20 silent connections, 20 that trickle a request one byte every 0.3 s.
    silent, tricklers, cut = [], [], {}
    for _ in range(20):
        silent.append(socket.create_connection(("127.0.0.1", port), timeout=5))
    trickle_start = time.time()
    stop_trickling = threading.Event()

    def trickle(i):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        tricklers.append(s)
        line = ("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Pad: " % port) + "a" * 200
        for ch in line:  # 200+ bytes at 0.3 s: over 60 s if never cut off
            if stop_trickling.is_set():
                return
            try:
                s.sendall(ch.encode())
                s.settimeout(0.3)
                if s.recv(1) == b"":
                    cut[i] = time.time() - trickle_start
                    return
            except socket.timeout:
                continue
            except OSError:
                cut[i] = time.time() - trickle_start
                return

    threads = [threading.Thread(target=trickle, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    time.sleep(1.5)  # every trickler has sent a few bytes
    t0 = time.time()
    st, page3 = http(port, "GET", "/", headers=[cookie])
    took = time.time() - t0
    check(st == 200 and took < 1.0,
          "a normal request with 40 stalled connections open: %d in %.2f s" % (st, took))

    # 200 concurrent requests, all answered.
    results = [None] * 200

    def fetch(i):
        try:
            results[i] = http(port, "GET", "/style.css", headers=[cookie])[0]
        except OSError as e:
            results[i] = repr(e)

    many = [threading.Thread(target=fetch, args=(i,)) for i in range(200)]
    for t in many:
        t.start()
    for t in many:
        t.join(60)
    answered = sum(1 for r in results if r == 200)
    check(answered == 200, "200 concurrent requests: %d answered (%s)"
          % (answered, sorted(set(map(str, results)))))

    # The tricklers are cut off at the deadline (10 s after they began), not kept by their bytes.
    for t in threads:
        t.join(25)
    stop_trickling.set()
    times = sorted(cut.values())
    check(len(times) == 20 and times[-1] < 16.0,
          "every trickling connection cut off within 16 s (%s)" % ["%.1f" % t for t in times])
    for s in silent + tricklers:
        s.close()

    server.send_signal(signal.SIGTERM)
    server.wait(timeout=20)
    check(server.returncode == 0, "SIGTERM stops the server (exit %s)" % server.returncode)
finally:
    for s in servers:
        if s.poll() is None:
            s.kill()
            s.wait()
sys.exit(1 if failures else 0)
