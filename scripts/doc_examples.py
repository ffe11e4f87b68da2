#!/usr/bin/env python3
"""Runs the examples of the documentation and checks its links (docs/README.md, "Examples are tests").

An example is a fenced code block whose first non-blank line starts with `$ ` (a console
example: commands and the output they print) or with `>>> ` (a Python session, run as a
doctest). The examples of one page run in order in one scratch directory, so a page may build on
its earlier examples; the scratch directory holds symbolic links to the repository's top-level
folders, so that paths such as examples/exact/four-points.csv read as they do from a clone's root.

Console examples: every `$ ` line is a command (a line ending in a backslash continues on the
next line), run by bash with the program's directory first on PATH, stdin empty, stderr merged
into stdout; the lines after it, up to the next `$ `, are its expected output. A command must
exit with status 0: an example shows a failure by ending its command with `; echo "exit $?"`.

What may vary is marked in the page one way, for both kinds of example:
  a line `...`  matches any number of lines (none included);
  `[..]`        inside a line matches any text within that line.

An example that cannot run here says why, visibly, on the line just before its fence:
  *Not run by the docs test: REASON.*
It is counted and reported as skipped; a skip without a reason is an error. A `$ ` command in an
indented code block is an error too (it would escape the test): examples are fenced.

When the program's output changes on purpose, --update writes what each failing console command
printed into its page, in place of what the page showed; the markers of what varies must then be
put back by hand, and the diff read before it is committed.

Usage: doc_examples.py [--bin DIR] [--pythonpath DIR] [--root DIR] [--keep] [--links] [--update]
                       PAGE|FOLDER...
Exit status: 0 every example matched (and with --links every link resolves), 1 otherwise,
2 usage.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP_RE = re.compile(r"^\s*\*Not run by the docs test:?\s*(.*?)\.?\*\s*$")
FENCE_RE = re.compile(r"^(\s*)(```+|~~~+)(.*)$")
ANY_LINES = "..."
IN_LINE = "[..]"
COMMAND_TIMEOUT = 600  # seconds for one command; a hung example fails rather than hangs ctest


class Block:
    """A fenced block of a page: where it starts, its lines, and a skip reason if marked."""

    def __init__(self, page, line, lines, skip):
        self.page, self.line, self.lines, self.skip = page, line, lines, skip

    @property
    def kind(self):
        first = next((l for l in self.lines if l.strip()), "")
        if first.startswith("$ "):
            return "console"
        if first.startswith(">>> "):
            return "pycon"
        return None


def parse_blocks(page, text):
    """Fenced blocks of a page, and the problems the format forbids (indented `$` examples,
    skip markers without a reason or not followed by an example, unclosed fences)."""
    blocks, problems = [], []
    lines = text.split("\n")
    i, previous = 0, ""
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if m:
            indent, fence = m.group(1), m.group(2)
            start = i
            body = []
            i += 1
            while i < len(lines) and not (lines[i].strip().startswith(fence[0] * len(fence))
                                          and lines[i].strip().strip(fence[0]) == ""):
                line = lines[i]
                body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
                i += 1
            if i == len(lines):
                problems.append(f"{page}:{start + 1}: a fence that is never closed")
            skip = None
            s = SKIP_RE.match(previous)
            if s:
                skip = s.group(1)
                if not skip:
                    problems.append(f"{page}:{start}: a skip marker must say why the example cannot run")
            block = Block(page, start + 1, body, skip)
            if s and block.kind is None:
                problems.append(f"{page}:{start}: a skip marker before a block that is not an example")
            blocks.append(block)
            previous = ""
            i += 1
            continue
        line = lines[i]
        if re.match(r"^( {4,}|\t)\$ ", line):
            problems.append(f"{page}:{i + 1}: a `$ ` example in an indented block: fence it so that it runs")
        if SKIP_RE.match(previous) and line.strip() and not FENCE_RE.match(line):
            problems.append(f"{page}:{i}: a skip marker must be the line just before a fence")
        if line.strip():
            previous = line
        i += 1
    if SKIP_RE.match(previous):
        problems.append(f"{page}: a skip marker at the end of the page")
    return blocks, problems


def console_steps(block):
    """(line number, command, expected output lines, the expected lines' span in the block) for
    each `$ ` command of a console block."""
    steps = []
    i, lines = 0, block.lines
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            i += 1  # blank lines before the first command
            continue
        number = block.line + 1 + i
        command = [line[2:]]
        while command[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            command.append(lines[i])
        i += 1
        start = i
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        while expected and not expected[-1].strip():
            expected.pop()
        steps.append((number, "\n".join(command), expected, (start, start + len(expected))))
    return steps


def line_matches(pattern, line):
    if IN_LINE not in pattern:
        return pattern == line
    parts = [re.escape(p) for p in pattern.split(IN_LINE)]
    return re.fullmatch(".*?".join(parts), line, re.DOTALL) is not None


def output_matches(expected, actual):
    """Whether the actual lines match the expected ones, `...` lines taking any run of lines."""
    expected = [l.rstrip() for l in expected]
    actual = [l.rstrip() for l in actual]
    while actual and not actual[-1]:
        actual.pop()
    memo = {}

    def match(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            result = a == len(actual)
        elif expected[e].strip() == ANY_LINES:
            result = any(match(e + 1, b) for b in range(a, len(actual) + 1))
        else:
            result = a < len(actual) and line_matches(expected[e], actual[a]) and match(e + 1, a + 1)
        memo[key] = result
        return result

    return match(0, 0)


DOCTEST_DRIVER = r"""
import doctest, sys
text = sys.stdin.read()
name = sys.argv[1]
parser = doctest.DocTestParser()
test = parser.get_doctest(text, {"__name__": "__doc_example__"}, name, name, 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
sys.exit(1 if runner.failures else 0)
"""


class Runner:
    def __init__(self, bin_dir, pythonpath, root, keep, out=sys.stdout, update=False):
        self.bin_dir, self.pythonpath, self.root, self.keep = bin_dir, pythonpath, root, keep
        self.update, self.updates = update, []
        self.out = out
        self.failures, self.passed, self.commands, self.skipped = [], 0, 0, []

    def environment(self, scratch):
        env = dict(os.environ)
        path = env.get("PATH", "/usr/bin:/bin")
        if self.bin_dir:
            path = os.path.abspath(self.bin_dir) + os.pathsep + path
        env.update(PATH=path, HOME=scratch, LC_ALL="C.UTF-8", TZ="UTC", COLUMNS="100",
                   PYTHONDONTWRITEBYTECODE="1")
        pythonpath = [p for p in [self.pythonpath, os.path.join(self.root, "examples", "python")] if p]
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in pythonpath)
        return env

    def scratch_for(self, page):
        scratch = tempfile.mkdtemp(prefix="ssac-doc-" + os.path.basename(page).replace(".", "-") + "-")
        # The repository's folders, read-only by intent, so that the examples' relative paths
        # resolve as they do from a clone's root; what an example writes stays in the scratch.
        for entry in sorted(os.listdir(self.root)):
            if entry.startswith(".") or entry.startswith("build") or entry == "results":
                continue
            if os.path.isdir(os.path.join(self.root, entry)):
                os.symlink(os.path.join(self.root, entry), os.path.join(scratch, entry))
        return scratch

    def fail(self, where, message, expected, actual):
        diff = "\n".join(difflib.unified_diff(expected, actual, "page", "program", lineterm=""))
        self.failures.append(f"{where}: {message}\n{diff}")

    def run_console(self, block, scratch, env):
        ok = True
        for number, command, expected, span in console_steps(block):
            self.commands += 1
            where = f"{block.page}:{number}"
            try:
                done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.fail(where, f"`{command}` did not finish in {COMMAND_TIMEOUT} s", expected, [])
                return False
            actual = [l.rstrip() for l in done.stdout.decode("utf-8", "replace").split("\n")]
            while actual and not actual[-1]:
                actual.pop()
            if done.returncode != 0:
                self.fail(where, f"`{command}` exited with status {done.returncode} (show a failure"
                          " with `; echo \"exit $?\"`)", expected, actual)
                return False
            if not output_matches(expected, actual):
                self.fail(where, f"`{command}` printed other output", expected, actual)
                if not self.update:
                    return False
                # --update: the page is to show what the command printed; the later commands of
                # the block still run, on the state this one left
                self.updates.append((block.line + span[0], block.line + span[1], actual))
                ok = False
        return ok

    def run_pycon(self, block, scratch, env):
        self.commands += sum(1 for l in block.lines if l.startswith(">>> "))
        text = "\n".join(block.lines).replace(IN_LINE, ANY_LINES) + "\n"
        where = f"{block.page}:{block.line}"
        done = subprocess.run([sys.executable, "-c", DOCTEST_DRIVER, where], input=text.encode(),
                              cwd=scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=COMMAND_TIMEOUT)
        if done.returncode != 0:
            self.failures.append(f"{where}: the Python example failed\n"
                                 + done.stdout.decode("utf-8", "replace"))
            return False
        return True

    def run_page(self, page, blocks):
        examples = [b for b in blocks if b.kind]
        if not examples:
            return
        scratch = self.scratch_for(page)
        env = self.environment(scratch)
        try:
            for block in examples:
                if block.skip:
                    self.skipped.append(f"{block.page}:{block.line}: {block.skip}")
                    continue
                start = time.monotonic()
                runner = self.run_console if block.kind == "console" else self.run_pycon
                ok = runner(block, scratch, env)
                if ok:
                    self.passed += 1
                seconds = time.monotonic() - start
                print(f"{'ok  ' if ok else 'FAIL'} {block.page}:{block.line} ({seconds:.1f} s)",
                      file=self.out)
            if self.updates:
                with open(page, encoding="utf-8") as f:
                    lines = f.read().split("\n")
                for start, end, actual in sorted(self.updates, reverse=True):
                    lines[start:end] = actual
                with open(page, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
                print(f"updated {len(self.updates)} outputs of {page}: mark what varies again",
                      file=self.out)
                self.updates = []
        finally:
            if self.keep:
                print(f"kept {scratch}", file=self.out)
            else:
                shutil.rmtree(scratch, ignore_errors=True)


def github_anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation other than - and _ dropped,
    spaces as hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path):
    anchors, seen = set(), {}
    in_fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE_RE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = github_anchor(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                anchors.add(base if n == 0 else f"{base}-{n}")
            for name in re.findall(r'<a\s+(?:name|id)="([^"]+)"', line):
                anchors.add(name)
    return anchors


LINK_RE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def check_links(pages):
    """Every relative link and image of the pages names an existing file, and an anchor one of
    the target page's headings. Returns the problems."""
    problems = []
    for page in pages:
        in_fence = False
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for number, line in enumerate(lines, 1):
            if FENCE_RE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            stripped = re.sub(r"`[^`]*`", "", line)
            for target in LINK_RE.findall(stripped):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                if not os.path.exists(full):
                    problems.append(f"{page}:{number}: link to {target}: no such file")
                    continue
                if anchor and full.endswith(".md") and anchor not in anchors_of(full):
                    problems.append(f"{page}:{number}: link to {target}: no heading with that anchor")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--bin", help="directory put first on PATH (the built ssac program's)")
    parser.add_argument("--pythonpath", help="directory of the built Python module")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the repository's root (its folders are linked into each scratch directory)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directories")
    parser.add_argument("--links", action="store_true", help="check the links only, run nothing")
    parser.add_argument("--update", action="store_true",
                        help="write what each failing console command printed into its page (then"
                             " mark again what varies, and read the diff)")
    args = parser.parse_args(argv)
    pages = []
    for page in args.pages:
        if os.path.isdir(page):  # a folder stands for its pages, its subfolders' included
            pages += sorted(os.path.join(d, f) for d, _, files in os.walk(page)
                            for f in files if f.endswith(".md"))
        elif os.path.isfile(page):
            pages.append(page)
        else:
            print(f"doc_examples: error: {page}: no such page or folder", file=sys.stderr)
            return 2
    args.pages = pages
    if args.links:
        problems = check_links(args.pages)
        for p in problems:
            print(p)
        print(f"links: {len(args.pages)} pages, {len(problems)} broken")
        return 1 if problems else 0

    root = os.path.abspath(args.root)
    runner = Runner(args.bin, args.pythonpath, root, args.keep, update=args.update)
    problems = []
    start = time.monotonic()
    for page in args.pages:
        with open(page, encoding="utf-8") as f:
            blocks, page_problems = parse_blocks(page, f.read())
        problems += page_problems
        runner.run_page(page, blocks)
    for p in problems:
        print(p)
    for f in runner.failures:
        print("\nFAIL " + f)
    for s in runner.skipped:
        print(f"skipped {s}")
    print(f"doc examples: {runner.passed} passed, {len(runner.failures)} failed, "
          f"{len(runner.skipped)} skipped ({runner.commands} commands, {len(args.pages)} pages,"
          f" {time.monotonic() - start:.1f} s)")
    return 1 if runner.failures or problems else 0


if __name__ == "__main__":
    sys.exit(main())
