"""The JSON Schemas in schemas/ against what the program writes and what its trace reader accepts.

The trace reader (lib/src/trace/read.cpp) checks the format by hand; the schemas state it for
other implementations. This test keeps them from drifting apart:

1. the committed conformance corpus and its manifest validate against their schemas (each test's
   trace event by event, through the corpus schema's $ref to the trace schema);
2. traces the program writes (every search, the original SSAC, the authors' assignment rule, a
   non-paper rule set, k below the oracle's clusters, a random anchor rule) and the committed trace
   fixtures validate against the trace schema of their version (3, written for a run that draws no
   anchor; 4, written under a random anchor rule; 2 for the committed fixture of the former
   default; 1 for the version-1 fixture), and `ssac validate` accepts them;
3. one trace (and the anchor event of a version-4 trace), edited one field at a time (a field dropped, an unknown field added, a value of the
   wrong type, a string outside its set of values, a negative integer), is rejected by the schema
   exactly when `ssac validate` rejects it as malformed, and both name the same line;
4. negative controls: a trace fixture that breaks the schema on purpose (k = "two"), and a corpus
   file with one trace event broken, must be rejected by this test's validators.

Needs Debian's python3-jsonschema (scripts/install-deps.sh); run with /usr/bin/python3:
    schema_test.py SSAC_PROGRAM SOURCE_DIR
"""

import copy
import json
import pathlib
import re
import subprocess
import sys
import tempfile

import jsonschema

prog = sys.argv[1]
src = pathlib.Path(sys.argv[2])
schemas = {p.name: json.loads(p.read_text()) for p in (src / "schemas").glob("*.schema.json")}
resolver = jsonschema.RefResolver("", {}, store={s["$id"]: s for s in schemas.values()})


def validator(name):
    s = schemas[name]
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s, resolver=resolver)


trace_schemas = {1: validator("ssac-trace-v1.schema.json"),
                 2: validator("ssac-trace-v2.schema.json"),
                 3: validator("ssac-trace-v3.schema.json"),
                 4: validator("ssac-trace-v4.schema.json")}
corpus_schema = validator("ssac-conformance-v2.schema.json")


def version_of(header):
    """The trace schema version for a header: its version when it is 1, 2 or 3, else 4."""
    v = header.get("version") if isinstance(header, dict) else None
    return v if v in (1, 2, 3) and not isinstance(v, bool) else 4
manifest_schema = validator("ssac-conformance-manifest-v1.schema.json")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def schema_bad_line(lines):
    """The first line (1-based) of a trace that the trace schema of its version (the header's:
    1, 2 or 3, else 4) rejects, or None."""
    header = json.loads(lines[0]) if lines else {}
    schema = trace_schemas[version_of(header)]
    for i, line in enumerate(lines, 1):
        if not schema.is_valid(json.loads(line)):
            return i
    return None


def reader_bad_line(data, trace, name):
    """The line `ssac validate` reports as malformed (stderr "NAME:LINE: ..."), or None when it
    reads the trace (it may still find that the trace does not conform)."""
    p = subprocess.run([prog, "validate", "--data", str(data), "--trace", str(trace), "--quiet"],
                       capture_output=True, text=True)
    m = re.search(re.escape(name) + r":(\d+):", p.stderr)
    if p.returncode not in (0, 1) or (p.returncode == 1 and not p.stdout and not m):
        fail(f"{name}: ssac validate exited {p.returncode}: {p.stderr.strip()}")
    return int(m.group(1)) if m else None


# 1. The corpus and its manifest.
corpus = src / "conformance"
for f in sorted(corpus.glob("*.json")):
    doc = json.loads(f.read_text())
    v = manifest_schema if f.name == "manifest.json" else corpus_schema
    for e in v.iter_errors(doc):
        fail(f"{f.name}: {e.json_path}: {e.message}")
print(f"schema: {len(list(corpus.glob('*.json')))} corpus files checked")

with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    data = tmp / "d.csv"
    subprocess.run([prog, "generate", "--n", "90", "--m", "2", "--k", "3", "--std", "1.0",
                    "--gamma-min", "0", "--gamma-max", "100", "--seed", "5", "--out", str(data)],
                   check=True, capture_output=True)
    # 2. Traces the program writes, and the committed fixtures.
    common = {"--k": "3", "--eta": "2", "--oracle": "random", "--q": "0.6", "--seed": "1"}
    runs = {
        "unified": {"--search": "unified"},
        "random": {"--search": "random", "--beta": "2"},
        "distance": {"--search": "distance", "--oracle": "local", "--q": None, "--nu": "1.05",
                     "--rho": "0.9"},
        "original": {"--algorithm": "original"},
        "code": {"--assignment": "code"},
        # Also the edits' base (3. below): per-pair memory puts oracle_memory in its header.
        "rules": {"--semantics": "authors-code", "--rule": "anchor=lowest-labelled-row",
                  "--memory": "per-pair"},
        "k-below": {"--k": "2"},
        # Version 4: the anchor events of a random anchor rule (also an edits' base, 3. below).
        "anchor": {"--rule": "anchor=random-known-row"},
    }
    written = []
    for name, options in runs.items():
        t = tmp / f"{name}.jsonl"
        args = ["cluster", str(data), "--trace", str(t)]
        for option, value in {**common, **options}.items():
            args += [option, value] if value is not None else []
        subprocess.run([prog, *args], check=True, capture_output=True)
        written.append((t, data))
    for t in sorted((src / "fuzz" / "corpus" / "trace").glob("*.jsonl")):
        written.append((t, None))
    written.append((src / "tests" / "fixtures" / "trace.jsonl", src / "tests/fixtures/tiny.csv"))
    written.append((src / "tests" / "fixtures" / "trace-v1.jsonl", src / "tests/fixtures/tiny.csv"))
    for t, d in written:
        lines = t.read_text().splitlines()
        bad = schema_bad_line(lines)
        if bad is not None:
            err = next(trace_schemas[version_of(json.loads(lines[0]))].iter_errors(
                json.loads(lines[bad - 1])))
            fail(f"{t.name}:{bad}: the schema rejects a trace the program wrote: {err.message}")
        if d is not None and reader_bad_line(d, t, str(t)) is not None:
            fail(f"{t.name}: ssac validate cannot read a trace the program wrote")
    print(f"schema: {len(written)} traces checked")
    headers = [json.loads(t.read_text().splitlines()[0]) for t, _ in written]
    if sorted({h["version"] for h in headers}) != [1, 2, 3, 4]:
        fail("the traces checked are not of every version, 1, 2, 3 and 4")
    for field in ("oracle", "seed", "oracle_clusters", "semantics", "rules", "oracle_memory"):
        if not any(field in h for h in headers):
            fail(f"no trace checked has the optional header field {field!r}")

    # 3. One-field edits: the schema and the reader must agree on whether a line is malformed.
    base = [json.loads(l) for l in (tmp / "rules.jsonl").read_text().splitlines()]
    anchored = [json.loads(l) for l in (tmp / "anchor.jsonl").read_text().splitlines()]
    firsts = {}
    for i, e in enumerate(base):
        k = e["event"]
        better = k == "step" and e["x1_answer"] is not None and e["sample"]
        if k not in firsts or (better and not firsts[k][1]):
            firsts[k] = (i, k != "step" or better)
    expected_kinds = {"header", "iteration", "sample", "query", "assignment", "cluster", "step",
                      "outcome", "final"}
    if set(firsts) != expected_kinds:
        fail(f"the edited trace lacks events {sorted(expected_kinds - set(firsts))}")
    edits = []
    # Version 4's own event, edited in its own trace (the first anchor drawn from two rows or more).
    anchor_at = next((i for i, e in enumerate(anchored)
                      if e["event"] == "anchor" and len(e["candidates"]) > 1), None)
    if anchor_at is None:
        fail("the version-4 trace has no anchor event drawn from more than one row")
    targets = [(base, i, kind) for kind, (i, _) in sorted(firsts.items())]
    targets += [(anchored, anchor_at, "anchor")] if anchor_at is not None else []
    for trace, i, kind in targets:
        ev = trace[i]
        edits.append((trace, i, f"{kind} + unknown field", {**ev, "unknown": 1}))
        for key, value in ev.items():
            edits.append((trace, i, f"{kind} without {key}",
                          {k: v for k, v in ev.items() if k != key}))
            edits.append((trace, i, f"{kind}.{key} = {{}}", {**ev, key: {}}))
            if isinstance(value, str):
                edits.append((trace, i, f"{kind}.{key} = \"bogus\"", {**ev, key: "bogus"}))
            if isinstance(value, int) and not isinstance(value, bool):
                edits.append((trace, i, f"{kind}.{key} = -1", {**ev, key: -1}))
                edits.append((trace, i, f"{kind}.{key} = 1.5", {**ev, key: 1.5}))
            if isinstance(value, list) and value:
                edits.append((trace, i, f"{kind}.{key}[0] = \"bogus\"",
                              {**ev, key: ["bogus", *value[1:]]}))
    disagree = 0
    t = tmp / "edited.jsonl"
    for trace, i, what, ev in edits:
        lines = [json.dumps(e, separators=(",", ":")) for e in trace]
        lines[i] = json.dumps(ev, separators=(",", ":"))
        t.write_text("".join(l + "\n" for l in lines))
        s, r = schema_bad_line(lines), reader_bad_line(data, t, str(t))
        if s != r:
            disagree += 1
            fail(f"{what}: the schema rejects line {s}, ssac validate line {r} (None: accepted)")
    print(f"schema: {len(edits)} one-field edits, {disagree} where the schema and the reader differ")

    # 4. Negative controls: this test's validators must reject a schema-violating file.
    control = (src / "tests" / "fixtures" / "trace-schema.jsonl").read_text().splitlines()
    if schema_bad_line(control) != 1:
        fail("negative control: trace-schema.jsonl (k = \"two\") passed the trace schema")
    doc = json.loads((corpus / "ssac_unified_search_test.json").read_text())
    broken = copy.deepcopy(doc)
    broken["testGroups"][0]["tests"][0]["trace"][1]["remaining"] = "many"
    if corpus_schema.is_valid(broken) or not corpus_schema.is_valid(doc):
        fail("negative control: a corpus file with a broken trace event passed the corpus schema")

if failures:
    print(f"schema: {len(failures)} failures", file=sys.stderr)
    sys.exit(1)
print("schema: ok")
