(* Extraction of the whole-run model (RunModel.v) to OCaml, for run-differential-test.sh.
   The reals are realized by OCaml's floats: R is `float` and the one operation on reals the run
   performs, Rlt_dec (line 10's order, r'_i, C'_p), is float `<`; the distances themselves are
   the metric record's, built in run_checker.ml.  Why float and real comparisons agree on the
   test's instances, and how each run is checked for it: proofs-notes/extracted-run.md.
   `sig_forall_dec`, the axiom behind Coq's classical reals, lands in the extracted file with
   the module of R's definitions although the run never calls it: it is realized by a function
   that fails if called.  nat and Z are OCaml's int (the run's numbers are below 2^30). *)
From SSAC Require Import RunModel.
From Coq Require Import Reals.
From Coq Require Extraction ExtrOcamlBasic ExtrOcamlNatInt ExtrOcamlZInt.
Extraction Language OCaml.
Extract Inlined Constant R => "float".
Extract Inlined Constant Rlt_dec => "(fun (x : float) y -> x < y)".
Extract Constant ClassicalDedekindReals.sig_forall_dec =>
  "(fun _ -> failwith ""sig_forall_dec: not used by the run"")".
Extraction "run_extracted.ml" RunModel.run RunModel.run_phase1model.
