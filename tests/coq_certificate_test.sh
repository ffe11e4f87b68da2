#!/usr/bin/env bash
# The certificate writer's fast test (theory/src/coq_certificate.cpp, `ssac bounds --coq`):
#  1. the files written for three tables equal the stored copies in tests/golden/coq/ byte for
#     byte: the default row (`ssac bounds`), a table whose binomial-sum etas are refused for each
#     reason the writer gives ("the capped terms' bound exceeds ...", "below the closed form's
#     ceiling ...") with beta at q = 1, and two rows of huge etas: one certified only at 150 digits
#     (k = 10, eta about 10^110: the escalated precision hints) and one beyond every ceiling (eta
#     above 10^484; binomial sums "none printed"). So the lemmas, their precision hints, the certified count and every
#     not-certified reason are pinned;
#  2. with coqc and CoqInterval: each file, with every fallback precision replaced by the first one,
#     compiles against Inversion, Bounds, BoundsMcDiarmid, BinomialTail and Certificate (built here,
#     not the proofs label's build): every lemma certifies at its first precision. The tactics try
#     the first precision first, so this also compiles the written file. Without coqc this part is
#     skipped with a message (the golden comparison still runs) and the test reports it.
# Usage: coq_certificate_test.sh SSAC_BINARY [--update]   (--update rewrites the stored copies)
set -euo pipefail
ssac=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
golden=$root/tests/golden/coq
work=$(mktemp -d "${TMPDIR:-/tmp}/ssac-coq-fast.XXXXXX")
trap 'rm -rf "$work"' EXIT
# name and `ssac bounds` arguments of each stored certificate
tables=(
  "default|"
  "reasons|--k 2,3 --m 2 --gamma 3 --q 0.3,0.01,1"
  "huge|--k 10,42 --m 2 --gamma 3 --q 1e-12"
)
fail=0
for t in "${tables[@]}"; do
  name=${t%%|*} args=${t#*|}
  # shellcheck disable=SC2086  # the arguments are split as the shell splits them
  "$ssac" bounds $args --coq "$work/$name.v" >/dev/null
  if [ "${2:-}" = --update ]; then
    cp "$work/$name.v" "$golden/$name.v"
  elif ! cmp -s "$work/$name.v" "$golden/$name.v"; then
    echo "coq_certificate: ssac bounds $args --coq differs from tests/golden/coq/$name.v:" >&2
    diff "$golden/$name.v" "$work/$name.v" >&2 || true
    fail=1
  fi
done
[ "${2:-}" = --update ] && { echo "updated $golden"; exit 0; }
((fail == 0)) || exit 1
echo "coq_certificate: the three certificates equal tests/golden/coq/"

if ! command -v coqc >/dev/null || ! coqc -where >/dev/null 2>&1 ||
   ! printf 'From Interval Require Import Tactic.\n' >"$work/probe.v" ||
   ! (cd "$work" && coqc probe.v >/dev/null 2>&1); then
  echo "coq_certificate: SKIPPED the compilation: coqc with CoqInterval not found"
  exit 77
fi
coq=$root/proofs-notes/coq
mkdir "$work/vo"
cp "$coq"/{Inversion,Bounds,BoundsMcDiarmid,BinomialTail,Certificate}.v "$work/vo/"
(cd "$work/vo" && for f in Inversion Bounds BoundsMcDiarmid BinomialTail Certificate; do
  coqc -R . SSAC "$f.v"; done)
for t in "${tables[@]}"; do
  name=${t%%|*}
  sed -E 's/certify(|_binomial|_binomial_1) ([0-9]+)%positive [0-9]+%positive/certify\1 \2%positive \2%positive/' \
    "$work/$name.v" >"$work/${name}_first.v"
  lemmas=$(grep -c '^Lemma ' "$work/$name.v" || true)
  firsts=$(grep -cE '^Proof\. certify(|_binomial|_binomial_1) ([0-9]+)%positive \2%positive' \
    "$work/${name}_first.v" || true)
  if [ "$lemmas" != "$firsts" ]; then
    echo "coq_certificate: $name.v has $lemmas lemmas but $firsts proofs by certify p p'" >&2
    exit 1
  fi
  if ! (cd "$work" && coqc -R vo SSAC "${name}_first.v" >"$name.log" 2>&1); then
    echo "coq_certificate: $name.v does not certify at its first precisions:" >&2
    cat "$work/$name.log" >&2
    exit 1
  fi
  echo "coq_certificate: $name.v: $lemmas lemmas certify at their first precision"
done
