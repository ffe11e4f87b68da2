#!/usr/bin/env python3
"""ssac label as a web service, over real sockets on 127.0.0.1 (no browser: tests/browser_label_test.py).

- Requests no browser of the person would send (a forged Host, a post from another page, a
  missing or wrong token) get a 403 and leave the answer file's bytes and mode as they were.
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
    check(open(answers, "rb").read() == before, "the refused requests left the answer file as it was")
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
