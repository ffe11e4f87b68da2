(* Theorem 1 (thm:optimal_cover_ran) for Theorem1Run.v's run at the dimension-free
   eta_random_pinelis (Bounds.v: eta_random with the factor 2 in place of m + 1), with no
   probabilistic hypothesis: Lemma 7's per-cluster tail is Pinelis's inequality
   (Pinelis.vector_pinelis, proved), 2 e^{-l (gamma-1)^2/8} for l uniform draws from a cluster.
   Theorem1.v's Theorem 1 is stated with the factor Rpos m + 1 of its eta_random; it is used here
   at m = 1, where that factor is 2 and eta_random is eta_random_pinelis (the run's dimension is
   the m of `Euclid m`, which Theorem1.v does not see). *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Metric Bounds MeanTail Theorem1Run.
From SSAC Require Algorithm1 Erasure Theorem1 Pinelis.
Open Scope R_scope.

Section Theorem1Pinelis.
(* Theorem 1's parameters, the run as in Theorem1Run.v (r >= k eta draws per iteration, elim S2's
   elimination, needed for k = 1); eta >= eta_random_pinelis, which does not depend on m. *)
Variables (k n : positive) (m : nat) (delta gamma q eta : R) (beta : nat) (elim : bool) (r : nat).
Hypothesis delta_pos : 0 < delta.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis q_range : 0 < q < 1.
Hypothesis eta_enough : eta_random_pinelis k delta gamma q <= eta.
Hypothesis beta_enough : beta_union k n delta q <= INR beta.
Hypothesis r_enough : INR (Pos.to_nat k) * eta <= INR r.
Hypothesis k_elim : (2 <= Pos.to_nat k)%nat \/ elim = true.
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < Pos.to_nat n)%nat -> (label x < Pos.to_nat k)%nat.
Hypothesis margin : forall x y, (x < Pos.to_nat n)%nat -> (y < Pos.to_nat n)%nat -> label y <> label x ->
  gamma * dist (m := Euclid m) (pt x) (center_of n label pt (label x)) <
  dist (m := Euclid m) (pt y) (center_of n label pt (label x)).
Variable qt : R.
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis qt_ge_q : q <= qt.

Lemma two_is_factor_1 : Rpos 1 + 1 = 2.
Proof. unfold Rpos. simpl. lra. Qed.

(* Theorem 1 at eta >= eta_random_pinelis: the run outputs the oracle's clustering with probability
   at least 1 - delta, in R^m for every m. *)
Theorem theorem1_random_weak_pinelis :
  P (run_law k n beta r qt qt_range)
    (fun w => negb (Algorithm1.recovered_b (Euclid m) (Pos.to_nat n) (Pos.to_nat k)
                     label pt _ (phase1_run k n m beta elim label pt)
                     (fun w i j b => Erasure.erased_at (snd w) i j b) beta w)) <= delta.
Proof.
  assert (Cl : forall t (Hc : cluster_rows n label t <> []) l,
             P (iid (uniform (cluster_rows n label t) Hc) l) (bad_z n m gamma label pt t)
             <= 2 * exp (- (INR l * ((gamma - 1) ^ 2 / 8)))).
  { apply (cluster_tail_from n m gamma label pt (fun l => 2 * exp (- (INR l * ((gamma - 1) ^ 2 / 8))))).
    - simpl INR. rewrite Rmult_0_l, Ropp_0, exp_0. lra.
    - exact gamma_gt_1.
    - intros t HC l Hl.
      replace ((gamma - 1) ^ 2 / 8) with (((gamma - 1) / 2) ^ 2 / 2) by field.
      apply Pinelis.vector_pinelis; [apply cluster_radius | exact Hl | lra]. }
  assert (E1 : eta_random k 1 delta gamma q <= eta).
  { unfold eta_random, eta_assign. rewrite two_is_factor_1. exact eta_enough. }
  refine (Theorem1.theorem1_random_weak_given_lemma7 k 1 n delta gamma q eta beta delta_pos gamma_gt_1
            q_range E1 beta_enough (Euclid m) label pt (center_of n label pt)
            label_range margin Blocks (iid (block_law k n r qt qt_range) (Pos.to_nat k))
            qt qt_range qt_ge_q (phase1_run k n m beta elim label pt) _).
  intros i Hi. eapply Rle_trans.
  { apply (run_lemma7 k n m gamma beta elim r qt qt_range k_elim label pt label_range
             gamma_gt_1 margin 2 ((gamma - 1) ^ 2 / 8)); [| | exact Cl | exact Hi].
    - lra.
    - apply Rmult_le_pos; [apply pow2_ge_0 | lra]. }
  rewrite two_is_factor_1. apply Rmult_le_compat_l; [lra |].
  apply draws_bound; [lra | lra | apply Rmult_le_pos; [apply pow2_ge_0 | lra] | lia | exact r_enough].
Qed.
End Theorem1Pinelis.
