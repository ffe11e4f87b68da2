#!/usr/bin/env bash
# Builds the whole project with AddressSanitizer and UndefinedBehaviorSanitizer (clang++, -O2, line
# tables; scripts/sanitize-configure.sh) and runs the unit and property suites under them. Any
# report fails the test that triggered it.
# What runs under them is every code path, not every statistic (the Release run of the README's
# test command has those): the property suites at a twentieth of their RapidCheck cases
# (SSAC_PROPS_SCALE=0.05), without the regressions on pinned instances, whose run counts are part
# of their claims and cannot scale (SSAC_PROPS_EXCLUDE below), and without the unit tests that
# repeat code the other tests already run many times over: the Monte Carlo agreements with the
# exact enumerator, the 10^5-instance differential test of Phase 2 (its corpus and generated cases
# still run), the engines' differentials on generated families and the ten-point branch count
# (the paths, states and counts engines still run on every hand-worked case, the committed
# six-point law and the product-form check), the distribution corpus's regeneration and the joint
# law's margins (the enumerator's hand-worked cases still run), the choice law's negative controls
# (500 to 1600 traces each) and its second clean instance (the reference's own 400 traces on the
# squares still run through every path, the joint kinds' included) and its recomputation of every
# bin test at three sizes (the tallies' recomputation still runs), the pooled oracle check's 800
# traces (its exact-numbers test still runs), the Python implementation's test (not this
# project's C++), and the packaging tests (they install and configure, they do not exercise the
# library). Under ASan and
# UBSan these took about 600 s of the two cores' time, and the whole step would not fit CI's budget.
# (-O2 rather than -O1: Eigen-heavy property suites run about ten times slower at -O1 under the
# sanitizers, which the CI budget cannot afford; the sanitizers instrument either level.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SSAC_SANITIZE_BUILD_DIR:-build-sanitize}
# shellcheck source=scripts/sanitize-configure.sh
source scripts/sanitize-configure.sh
configure_sanitize "$build"
cmake --build "$build" -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export SSAC_PROPS_SCALE=${SSAC_PROPS_SCALE:-0.05}
# McDiarmid_Negative: its broken bound is caught only over the full case count, not a twentieth of it
# (the positive McDiarmid property runs the same code under the sanitizers).
export SSAC_PROPS_EXCLUDE=${SSAC_PROPS_EXCLUDE-'*PerAnchorRule:*Counterexample*:*PositiveControl*:*WeightedByPlacements:*StatedClaimIsFalsified:Theorem1AuthorsCode.*:*Exact.*:*Exact_Negative.*:*SecondRefereeInstanceFailsUnderRandomKnownRow:*SelfPairInstanceHoldsOnlyWhenSelfPairsAreAsked:McDiarmid_Negative.*'}
# proofs.*: the Coq proofs and their certificates are the same under a sanitizer (proofs-notes/coq).
# docs_*: the pages' examples check what the program prints, which the Release run checks; under
# the sanitizers their 5000-rep experiment alone would cost minutes.
skip='^(Phase2Order\.SameResultsOnOneHundredThousandRandomInstances|Exact\.MonteCarloAgrees.*'
skip+='|ExactMemory\.ProgramMonteCarloAgreesWithTheExactValues|Exact\.JointLawMarginsAgreeWithTheLabelsLaw'
skip+='|ExactCounts\.SameLawAsTheStatesEngineOnAGeneratedFamily'
skip+='|ExactStates\.BothEnginesGiveTheSameLawOnAGeneratedFamily'
skip+='|Exact\.MergingOnTheFutureGivesTheFormerLaw|Exact\.TenPointsPerfectOracleBranchCount'
skip+='|DistributionCorpus\.RegeneratingGivesTheCommittedBytes|ChoiceLaw\.Catches.*'
skip+='|ChoiceLaw\.NinePointReferenceConforms|ChoiceLaw\.NinePointAnchorDrawsConformUnderBothRandomRules'
skip+='|ChoiceLaw\.EveryBinTestIsRecomputedFromItsCounts|OracleBatch\.ARateOffALittleInEveryTraceIsCaughtPooled'
skip+='|distribution_python|consumer_.*|python_pip_install|proofs\..*|docs_.*)$'
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure -E "$skip" "$@"
