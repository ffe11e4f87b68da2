(* Extraction to OCaml, for run-differential-test.sh, of
   - RunTheorem.run_events: the run Theorem 1 is about (Theorem1Run.phase1_run's Phase 1,
     Algorithm1.v's iterations, on w : Theorem1Run.Blocks * Erasure.Table; RunTheorem.v says why
     its events are that run's and `run_events_final` that its output is the theorem's), with
     Theorem1Run.Euclid, the metric the run computes with (the checker's exactness test reads it);
   - RunModel.run: the run by rows for every rule of the corpus.
   The reals are realized by OCaml's floats: R is `float`, the field operations the run performs
   (the mean of Z_p: sums and one division by |Z_p|; the Euclidean distance: differences, products,
   sums, a square root; INR) are float's, and Rlt_dec (line 10's order, r'_i, C'_p) is float `<`.
   Rminus and Rdiv are realized directly by float's `-.` and `/.` rather than through their
   definitions x + -y and x * /y (the same reals; `/.` is the one rounding lib's mean makes).  Why
   float and real comparisons agree on the test's instances, and how each run is checked for it:
   proofs-notes/extracted-run.md.  `sig_forall_dec`, the axiom behind Coq's classical reals, lands
   in the extracted file with the module of R's definitions although the run never calls it: it is
   realized by a function that fails if called.  nat and Z are OCaml's int (the run's numbers are
   below 2^30). *)
From SSAC Require Import RunModel RunTheorem Theorem1Run.
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
Extract Constant ClassicalDedekindReals.sig_forall_dec =>
  "(fun _ -> failwith ""sig_forall_dec: not used by the run"")".
Extraction "run_extracted.ml" RunModel.run RunTheorem.run_events Theorem1Run.Euclid.
