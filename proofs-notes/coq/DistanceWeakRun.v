(* The run of Algorithm 1 with a deterministic oracle whose cluster-assignment answers are
   definite, and a deterministic Phase 2 that is exact from a point of G_p(c): the common half of
   the corrected Theorems 2 and 3 and of Appendix C's distance-weak claim
   (proofs-notes/distance-weak-corrected.md).  Theorem2Run.v instantiates it.

   The run.  Phase 1 is Phase1Model's (Algorithm 1, lines 3-8, on the run's draws as
   Theorem1Run.v draws them: one block of r positions per iteration, read modulo |S_i|), except
   that Definition 4's answers are the oracle's, Q(x, a_t) for the anchor a_t of each known cluster
   t (in discovery order; the first yes places x, S2, S3): a draw's coins are not read, so Phase 1's
   only randomness is the draws.  The anchor of cluster t is a fixed row `anchor t` (the corrected
   statements' anchor rule).  Phase 2 (lines 10-13) orders S_i by d(x, mu'_p) (Algorithm1.order,
   S6), x_1 is the first row of that order (the row of S_i closest to mu'_p, ties to the lower row),
   and the search (BinarySearch.binary_search) decides position j by `decide x_1 x_j`: Algorithm 3
   is "in iff Q(x_1, x_j) = yes", Algorithm 4 is decide_unified (Theorem2Run.v).

   The proof.  With every Q(x, a_t) definite and true, Definition 4 places every draw as the
   perfect oracle would, so Phase 1 is Theorem1Run.phase1_run on the run's draws with every coin
   cleared (`clear`), and under the law at q~ = 1 clearing the coins changes no probability
   (`run_law_clear`).  From a good mu'_p (d(mu'_p, mu_p) <= eps r(C_p)) and an x* with
   d(x*, mu_p) < (c - 2 eps) r(C_p), x_1 lies in G_p(c) (DistanceWeak.closest_point_step), and if
   `decide` is exact from such a point, each search probe decides as Algorithm 2 does on the
   truth, so the iteration is Theorem1Run's on the cleared randomness.  Hence the run fails only
   if one of Theorem1Run's runs (at beta = 1, on the cleared randomness) has a bad Phase 1 after
   good iterations, whose probability Theorem1Run.run_lemma7 bounds with McDiarmid's tail
   (Theorem1McDiarmid.uniform_lemma7_mcd_tail), at the margin gamma' = 1 + 2 eps. *)
From Coq Require Import Reals Lra Lia ZArith List Sorted Permutation Classical_Prop.
Import ListNotations.
From SSAC Require Import FiniteProb Phase1 Phase1Model Phase1Tail MeanTail Metric Bounds
  BinarySearch Theorem1Run.
From SSAC Require Algorithm1 Erasure Theorem1 BoundsMcDiarmid Theorem1McDiarmid DistanceWeak.
Open Scope R_scope.

(* ---- Clearing the coins: at q~ = 1 the law does not see them ------------------------------- *)
Definition clear_draw (d : nat * list bool) : nat * list bool := (fst d, map (fun _ => false) (snd d)).
Definition clear_table (t : Erasure.Table) : Erasure.Table := map (map (map (fun _ => false))) t.
Definition clear (w : Blocks * Erasure.Table) : Blocks * Erasure.Table :=
  (map (map clear_draw) (fst w), clear_table (snd w)).

(* g does not change the law d. *)
Definition invariant {A} (d : Dist A) (g : A -> A) : Prop :=
  forall f, E d (fun a => f (g a)) = E d f.

Lemma invariant_id {A} (d : Dist A) : invariant d (fun a => a).
Proof. intro f. reflexivity. Qed.

Lemma invariant_bernoulli (p : R) (Hp : 0 <= p <= 1) :
  p = 0 -> invariant (bernoulli p Hp) (fun _ => false).
Proof. intros -> f. unfold E. simpl. ring. Qed.

Lemma invariant_iid {A} (d : Dist A) (g : A -> A) (l : nat) :
  invariant d g -> invariant (iid d l) (map g).
Proof.
  intro Hd. induction l as [| l IH]; intro f.
  - unfold E. simpl. ring.
  - rewrite !E_iid_S. simpl map.
    transitivity (E d (fun a => E (iid d l) (fun s => f (g a :: s)))).
    + apply E_ext_support. intros w a _. exact (IH (fun s => f (g a :: s))).
    + exact (Hd (fun a => E (iid d l) (fun s => f (a :: s)))).
Qed.

Lemma invariant_prod {A B} (d1 : Dist A) (d2 : Dist B) (g1 : A -> A) (g2 : B -> B) :
  invariant d1 g1 -> invariant d2 g2 -> invariant (prod d1 d2) (fun ab => (g1 (fst ab), g2 (snd ab))).
Proof.
  intros H1 H2 f. rewrite !E_prod. simpl.
  transitivity (E d1 (fun a => E d2 (fun b => f (g1 a, b)))).
  - apply E_ext_support. intros w a _. exact (H2 (fun b => f (g1 a, b))).
  - exact (H1 (fun a => E d2 (fun b => f (a, b)))).
Qed.

Lemma P_invariant {A} (d : Dist A) (g : A -> A) (e : A -> bool) :
  invariant d g -> P d (fun a => e (g a)) = P d e.
Proof. intro H. unfold P. exact (H (fun a => ind (e a))). Qed.

(* Theorem1Run's law at q~ = 1: every coin (Definition 4's and Phase 2's) is false with
   probability 1, so clearing them all leaves every probability unchanged. *)
Lemma run_law_clear (k n : positive) (beta r : nat) (H1 : 0 <= 1 <= 1) (e : Blocks * Erasure.Table -> bool) :
  P (run_law k n beta r 1 H1) (fun w => e (clear w)) = P (run_law k n beta r 1 H1) e.
Proof.
  apply P_invariant. unfold run_law, clear.
  apply (invariant_prod _ _ (map (map clear_draw)) clear_table).
  - apply invariant_iid. unfold block_law. apply invariant_iid. unfold draw_law, clear_draw.
    apply (invariant_prod _ _ (fun a => a) (map (fun _ => false))).
    + apply invariant_id.
    + unfold query_coins, coins. apply invariant_iid. apply invariant_bernoulli. ring.
  - unfold Erasure.erasure_law, clear_table. apply invariant_iid. apply invariant_iid.
    unfold coins. apply invariant_iid. apply invariant_bernoulli. ring.
Qed.

(* The cleared table erases nothing. *)
Lemma nth_all_false (l : list bool) (j : nat) : (forall b, List.In b l -> b = false) -> nth j l false = false.
Proof.
  intro H. destruct (nth_in_or_default j l false) as [I | ->]; [exact (H _ I) | reflexivity].
Qed.

Lemma erased_clear (t : Erasure.Table) (i j b : nat) : Erasure.erased_at (clear_table t) i j b = false.
Proof.
  unfold Erasure.erased_at, clear_table. apply nth_all_false. intros c Hc.
  remember (nth i (map (map (map (fun _ : bool => false))) t) []) as u eqn:Eu.
  assert (Hu : forall v, List.In v u -> forall c, List.In c v -> c = false).
  { intros v Hv c' Hc'. subst u.
    destruct (nth_in_or_default i (map (map (map (fun _ : bool => false))) t) []) as [Ii | Ei].
    - apply in_map_iff in Ii. destruct Ii as [u' [Eu' _]]. rewrite <- Eu' in Hv.
      apply in_map_iff in Hv. destruct Hv as [v' [<- _]]. apply in_map_iff in Hc'.
      destruct Hc' as [? [<- _]]. reflexivity.
    - rewrite Ei in Hv. destruct Hv. }
  destruct (nth_in_or_default j u []) as [Ij | Ej].
  - exact (Hu _ Ij c Hc).
  - rewrite Ej in Hc. destruct Hc.
Qed.
