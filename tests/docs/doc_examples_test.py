#!/usr/bin/env python3
"""The documentation's example runner (scripts/doc_examples.py) on small pages of its own: a
right example passes, and each way an example or a link can be wrong makes it fail (the negative
controls), so that the `docs` test passing means the pages' examples ran and matched."""

import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import doc_examples  # noqa: E402

FENCE = "```"


def page(*parts):
    return "\n".join(parts) + "\n"


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="ssac-doc-examples-test-")
        self.root = self.dir.name
        os.mkdir(os.path.join(self.root, "examples"))
        with open(os.path.join(self.root, "examples", "data.txt"), "w") as f:
            f.write("from the repository\n")

    def tearDown(self):
        self.dir.cleanup()

    def run_page(self, text):
        path = os.path.join(self.root, "page.md")
        with open(path, "w") as f:
            f.write(text)
        out = io.StringIO()
        runner = doc_examples.Runner(None, None, self.root, False, out=out)
        blocks, problems = doc_examples.parse_blocks(path, text)
        runner.run_page(path, blocks)
        return runner, problems

    def test_a_right_example_passes_and_pages_keep_their_state(self):
        runner, problems = self.run_page(page(
            FENCE + "console", "$ echo hello > f.txt", "$ cat f.txt", "hello", FENCE,
            "", "Later on the same page:", "",
            FENCE, "$ cat f.txt examples/data.txt", "hello", "from the repository", FENCE))
        self.assertEqual((problems, runner.failures, runner.passed, runner.commands),
                         ([], [], 2, 3))

    def test_a_broken_example_fails(self):
        runner, _ = self.run_page(page(FENCE, "$ echo 41", "42", FENCE))
        self.assertEqual(len(runner.failures), 1)
        self.assertIn("printed other output", runner.failures[0])
        self.assertIn("+41", runner.failures[0])

    def test_missing_and_extra_lines_fail(self):
        for expected in (["a"], ["a", "b", "c"], ["a", "", "b"]):
            runner, _ = self.run_page(page(FENCE, "$ printf 'a\\nb\\n'", *expected, FENCE))
            self.assertEqual(len(runner.failures), 1, expected)

    def test_a_nonzero_exit_status_fails_unless_shown(self):
        runner, _ = self.run_page(page(FENCE, "$ echo oops >&2; exit 3", "oops", FENCE))
        self.assertIn("status 3", runner.failures[0])
        runner, _ = self.run_page(page(FENCE, "$ (echo oops >&2; exit 3); echo \"exit $?\"",
                                       "oops", "exit 3", FENCE))
        self.assertEqual(runner.failures, [])

    def test_markers_match_what_may_vary_and_nothing_else(self):
        ok = page(FENCE, "$ printf 'time: 1.23 s\\nx\\ny\\nend\\n'", "time: [..] s", "...", "end", FENCE)
        runner, _ = self.run_page(ok)
        self.assertEqual(runner.failures, [])
        # [..] stays within its line, and the text around it must match
        for wrong in (["time: [..] min", "...", "end"], ["time: [..]", "end"], ["[..]"]):
            runner, _ = self.run_page(page(FENCE, "$ printf 'time: 1.23 s\\nx\\ny\\nend\\n'",
                                           *wrong, FENCE))
            self.assertEqual(len(runner.failures), 1, wrong)
        # ... may also stand for no line at all
        runner, _ = self.run_page(page(FENCE, "$ echo a", "a", "...", FENCE))
        self.assertEqual(runner.failures, [])

    def test_continued_commands_run_as_one(self):
        runner, _ = self.run_page(page(FENCE, "$ for i in 1 2; do \\", "    echo $i; done", "1", "2", FENCE))
        self.assertEqual((runner.failures, runner.commands), ([], 1))

    def test_skipped_examples_are_counted_and_need_a_reason(self):
        runner, problems = self.run_page(page(
            "*Not run by the docs test: needs the network.*", FENCE, "$ false", FENCE))
        self.assertEqual((problems, runner.failures, len(runner.skipped)), ([], [], 1))
        self.assertIn("needs the network", runner.skipped[0])
        _, problems = self.run_page(page("*Not run by the docs test.*", FENCE, "$ false", FENCE))
        self.assertEqual(len(problems), 1)
        _, problems = self.run_page(page("*Not run by the docs test: why.*", "", "text", FENCE, "$ true", FENCE))
        self.assertEqual(len(problems), 1)

    def test_an_indented_example_is_refused(self):
        _, problems = self.run_page(page("Text:", "", "    $ ssac bounds", ""))
        self.assertEqual(len(problems), 1)
        self.assertIn("indented", problems[0])

    def test_blocks_that_are_not_examples_are_not_run(self):
        runner, problems = self.run_page(page(FENCE + "sh", "bash scripts/main.sh", FENCE,
                                              FENCE + "json", "{\"a\": 1}", FENCE))
        self.assertEqual((problems, runner.failures, runner.commands), ([], [], 0))

    def test_update_writes_what_the_command_printed(self):
        path = os.path.join(self.root, "page.md")
        text = page("Before.", FENCE, "$ printf 'a\\nb\\n'", "old", FENCE, "After.")
        with open(path, "w") as f:
            f.write(text)
        runner = doc_examples.Runner(None, None, self.root, False, out=io.StringIO(), update=True)
        runner.run_page(path, doc_examples.parse_blocks(path, text)[0])
        with open(path) as f:
            self.assertEqual(f.read(), page("Before.", FENCE, "$ printf 'a\\nb\\n'", "a", "b", FENCE, "After."))

    def test_python_examples_run_as_doctests(self):
        good = page(FENCE + "pycon", ">>> 6 * 7", "42", ">>> 'time %.2f s' % 1.234", "'time [..] s'", FENCE)
        runner, _ = self.run_page(good)
        self.assertEqual((runner.failures, runner.passed, runner.commands), ([], 1, 2))
        runner, _ = self.run_page(page(FENCE + "pycon", ">>> 6 * 7", "43", FENCE))
        self.assertEqual(len(runner.failures), 1)
        self.assertIn("43", runner.failures[0])


class LinksTest(unittest.TestCase):
    def test_links_resolve_or_are_reported(self):
        with tempfile.TemporaryDirectory(prefix="ssac-doc-links-test-") as root:
            os.mkdir(os.path.join(root, "docs"))
            other = os.path.join(root, "docs", "other.md")
            with open(other, "w") as f:
                f.write("# Other page\n\n## The `ssac bounds` section: exact\n")
            main = os.path.join(root, "README.md")
            with open(main, "w") as f:
                f.write(page(
                    "# Top", "",
                    "[ok](docs/other.md), [anchor](docs/other.md#the-ssac-bounds-section-exact),",
                    "[here](#top), [web](https://example.org/x), ![fig](docs/other.md)",
                    "`[in code](nowhere.md)`", FENCE, "[in a fence](nowhere.md)", FENCE))
            self.assertEqual(doc_examples.check_links([main]), [])
            with open(main, "a") as f:
                f.write("[gone](docs/missing.md) [bad anchor](docs/other.md#no-such) [self](#nope)\n")
            problems = doc_examples.check_links([main])
            self.assertEqual(len(problems), 3, problems)
            self.assertIn("no such file", problems[0])
            self.assertIn("anchor", problems[1])


if __name__ == "__main__":
    unittest.main()
