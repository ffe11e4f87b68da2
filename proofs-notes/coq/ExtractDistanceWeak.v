(* Extraction to OCaml, for dw-differential-test.sh, of
   - DistanceWeak.local_oracle and DistanceWeak.global_oracle: Definitions 6 and 7 read with "iff"
     (errata E1), the answers of the oracles Theorems 2 and 3 are about;
   - RunModel.run: the run by rows (Phase 1 by rows with every anchor rule of lib, S2's
     elimination, S4's self-pairs, Algorithms 2, 3 and 4), whose answers dw_checker.ml makes the
     oracle's above (a query's erasure coin is "the oracle says not-sure on the pair");
   - DistanceWeakRun.definite_place: Definition 4 with the oracle's answers to one anchor row per
     cluster (Theorem2Run.v's Phase 1), compared with lib's placements under the opener rule;
   - DistanceWeakRun.dw_state, dw_iteration, dw_labels with Theorem2Run.algorithm3: the run
     Theorem 2' is about, compared with lib's runs under the opener rule and Algorithm 3, its
     anchors a_t the rows that opened the clusters in lib's run.
   Why the run by rows as well: DistanceWeakRun.v's run is the corrected theorems' (a fixed anchor
   row a_t per cluster, or a seed per cluster asked from the start:
   proofs-notes/distance-weak-corrected.md), and lib has no anchor rule that fixes anchors in
   advance; under the opener rule a_t is fixed once t is opened, which is all DistanceWeakRun's
   run reads, but lib's other rules (lowest labelled row, random labelled row, random known row)
   and Algorithms 2 and 4 are only RunModel.run's.  Neither comparison covers the corrected
   statements' anchors (rows of G_t chosen in advance).  RunModel.run and RunTheorem.run_events
   are extracted into the same run_extracted.ml as ExtractRun.v extracts them so that
   run_checker.ml's reader and comparison (its main part left out) compile against it.
   The reals are realized by OCaml's floats as in ExtractRun.v (the reasons there); Rle_dec, which
   DistanceWeak's Rmin calls, is float <=.  The test checks per queried pair that every comparison
   of Definitions 6 and 7 has in floats the outcome it has in integers
   (proofs-notes/extracted-run.md, "The distance-weak runs"). *)
From SSAC Require Import RunModel RunTheorem Theorem1Run DistanceWeak DistanceWeakRun Theorem2Run.
From Coq Require Import Reals.
From Coq Require Extraction ExtrOcamlBasic ExtrOcamlNatInt ExtrOcamlZInt.
Extraction Language OCaml.
Extract Inlined Constant R => "float".
Extract Inlined Constant Rdefinitions.RbaseSymbolsImpl.R0 => "0.0".
Extract Inlined Constant Rdefinitions.RbaseSymbolsImpl.R1 => "1.0".
Extract Inlined Constant Rdefinitions.RbaseSymbolsImpl.Rplus => "(+.)".
Extract Inlined Constant Rdefinitions.RbaseSymbolsImpl.Rmult => "( *. )".
Extract Inlined Constant Rdefinitions.RbaseSymbolsImpl.Ropp => "(fun x -> -. x)".
Extract Inlined Constant Rdefinitions.RinvImpl.Rinv => "(fun x -> 1.0 /. x)".
Extract Inlined Constant Rminus => "(-.)".
Extract Inlined Constant Rdiv => "(/.)".
Extract Inlined Constant sqrt => "Float.sqrt".
Extract Inlined Constant Rlt_dec => "(fun (x : float) y -> x < y)".
Extract Inlined Constant Rle_dec => "(fun (x : float) y -> x <= y)".
Extract Constant ClassicalDedekindReals.sig_forall_dec =>
  "(fun _ -> failwith ""sig_forall_dec: not used by the run"")".
Extraction "run_extracted.ml" RunModel.run RunTheorem.run_events Theorem1Run.Euclid
  DistanceWeak.local_oracle DistanceWeak.global_oracle DistanceWeakRun.definite_place
  DistanceWeakRun.dw_state DistanceWeakRun.dw_iteration DistanceWeakRun.dw_labels Theorem2Run.algorithm3.
