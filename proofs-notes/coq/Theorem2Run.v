(* Theorem 2 (thm:optimal_cover_local) corrected, and Appendix C's distance-weak claim for the
   local oracle corrected (proofs-notes/distance-weak-corrected.md, Theorem 2' and Appendix C'):
   Algorithm 1 with Algorithm 3 (resp. Algorithm 4) and a (nu, rho) local distance-weak oracle
   (Definition 6 read with "iff", DistanceWeak.local_oracle) outputs the oracle's clustering with
   probability at least 1 - delta when, in addition to the paper's hypotheses, the anchor of each
   cluster C_t in Definition 4's queries is a fixed row a_t of G_t(min{2 rho - 1, gamma - nu + 1}),
   and eta >= eta_McD(k, delta, 1 + 2 eps) (McDiarmid's eta of Theorem 1 at q = 1, with Lemma 7's
   eps in place of (gamma - 1)/2).  The run is DistanceWeakRun.v's on Theorem1Run.v's draws,
   R^m with the Euclidean distance, mu_t the mean of C_t, r(C_t) the largest distance to it. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Metric BinarySearch Theorem1Run DistanceWeak DistanceWeakRun.
From SSAC Require Algorithm1 BoundsMcDiarmid Phase1.
Open Scope R_scope.

(* Algorithm 3, lines 3-4: x_j is in iff Q(x_1, x_j) = yes (no and not-sure are out). *)
Definition algorithm3 (Q : nat -> nat -> answer) (x1 xj : nat) : decision :=
  match Q x1 xj with Yes => In | _ => Out end.

(* Algorithm 4, lines 4-15: Q(x_1, x_j) first, on not-sure the vote of the beta - 1 further
   answers `more x1 xj` (BinarySearch.decide_unified). *)
Definition algorithm4 (Q : nat -> nat -> answer) (more : nat -> nat -> list answer) (x1 xj : nat) : decision :=
  decide_unified (Q x1 xj) (more x1 xj).

Section Theorem2.
Variables (k n : positive) (m : nat) (elim : bool) (r : nat).
Local Notation K := (Pos.to_nat k).
Local Notation n_rows := (Pos.to_nat n).
Local Notation M := (Euclid m).
Variables (delta gamma nu rho eps eta : R).
Hypothesis delta_range : 0 < delta < 1.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis nu_ge_1 : 1 <= nu.
Hypothesis rho_range : 0 < rho <= 1.
Hypothesis eps_range : 0 < eps <= (gamma - 1) / 2.
Hypothesis eta_enough : BoundsMcDiarmid.eta_mcdiarmid k delta (1 + 2 * eps) 1 <= eta.
Hypothesis r_enough : INR K * eta <= INR r.
Hypothesis k_elim : (2 <= K)%nat \/ elim = true.
(* The instance: labels below k, Definition 2 with the means. *)
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < n_rows)%nat -> (label x < K)%nat.
Hypothesis margin : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma * dist (m := M) (pt x) (center_of n label pt (label x)) < dist (m := M) (pt y) (center_of n label pt (label x)).
Local Notation mu := (center_of n label pt).
Local Notation rad := (radius_of n m label pt).
(* c = min{2 rho - 1, gamma - nu + 1}; the paper's x* (d(x*, mu_t) < (c - 2 eps) r(C_t)) and the
   anchors (d(a_t, mu_t) < c r(C_t), the added hypothesis). *)
Let c : R := Rmin (2 * rho - 1) (gamma - nu + 1).
Variables (xstar anchor : nat -> nat).
Hypothesis xstar_ok : forall t, (t < K)%nat ->
  (xstar t < n_rows)%nat /\ label (xstar t) = t /\ dist (m := M) (pt (xstar t)) (mu t) < (c - 2 * eps) * rad t.
Hypothesis anchor_ok : forall t, (t < K)%nat ->
  (anchor t < n_rows)%nat /\ label (anchor t) = t /\ dist (m := M) (pt (anchor t)) (mu t) < c * rad t.

Local Notation Q := (local_oracle M label pt mu rad nu rho).

Lemma in_rad : forall y, (y < n_rows)%nat -> dist (m := M) (pt y) (mu (label y)) <= rad (label y).
Proof.
  intros y Hy. apply (Algorithm1.radius_bounds M n_rows label pt mu (label y) y); [apply in_seq; lia | reflexivity].
Qed.

(* gamma r(C_i) < d(y, mu_i) for y outside C_i: the margin at the row attaining r(C_i). *)
Lemma far : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma * rad (label x) <= dist (m := M) (pt y) (mu (label x)).
Proof.
  intros x y Hx Hy L.
  destruct (Algorithm1.radius_attained M n_rows label pt mu (label x)) as [z [Hz [Lz Dz]]].
  { exists x. split; [apply in_seq; lia | reflexivity]. }
  apply in_seq in Hz. pose proof (margin z y ltac:(lia) Hy ltac:(congruence)) as Mg. rewrite Lz in Mg.
  assert (E : rad (label x) = dist (m := M) (pt z) (mu (label x))) by (symmetry; exact Dz).
  rewrite E. lra.
Qed.

Lemma key (xs y : nat) : (xs < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt xs) (mu (label xs)) < c * rad (label xs) ->
  Q xs y = truth_pair label xs y /\ Q y xs = truth_pair label y xs.
Proof.
  intros Hx Hy D.
  apply (local_key_step M label pt mu rad (fun x => (x < n_rows)%nat) in_rad gamma far nu rho c xs y Hx Hy nu_ge_1);
    [apply Rmin_l | apply Rmin_r | exact D].
Qed.

Lemma gamma'_gt_1 : 1 < 1 + 2 * eps.
Proof. lra. Qed.

Lemma margin' : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  (1 + 2 * eps) * dist (m := M) (pt x) (mu (label x)) < dist (m := M) (pt y) (mu (label x)).
Proof.
  intros x y Hx Hy L. pose proof (margin x y Hx Hy L).
  pose proof (dist_nonneg M (pt x) (mu (label x))).
  assert ((1 + 2 * eps) * dist (m := M) (pt x) (mu (label x)) <= gamma * dist (m := M) (pt x) (mu (label x)))
    by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

Lemma anchors_definite : forall x t, (x < n_rows)%nat -> (t < K)%nat -> Q x (anchor t) <> NotSure.
Proof.
  intros x t Hx Ht. destruct (anchor_ok t Ht) as [Ha [La Da]].
  assert (Da' : dist (m := M) (pt (anchor t)) (mu (label (anchor t))) < c * rad (label (anchor t)))
    by (rewrite La; exact Da).
  destruct (key (anchor t) x Ha Hx Da') as [_ E]. rewrite E.
  unfold truth_pair. destruct (Nat.eqb _ _); discriminate.
Qed.

(* Definition 4 with the oracle and these anchors places every draw as the perfect oracle would. *)
Lemma place_perfect : forall known x, Phase1.known_ok K known -> (x < n_rows)%nat ->
  definite_place K elim label Q anchor known x = Phase1.assign K elim known (label x) (map (fun _ => false) known).
Proof.
  intros known x [_ Rk] Hx. apply definite_place_perfect. intros t Ht. apply anchors_definite; [exact Hx | exact (Rk t Ht)].
Qed.

Lemma c_le_1 : c <= 1.
Proof. unfold c. pose proof (Rmin_l (2 * rho - 1) (gamma - nu + 1)). lra. Qed.

Lemma xstar_row : forall t, (t < K)%nat -> (xstar t < n_rows)%nat /\ label (xstar t) = t.
Proof. intros t Ht. destruct (xstar_ok t Ht) as [A [B _]]. auto. Qed.

Lemma xstar_close : forall t, (t < K)%nat ->
  dist (m := M) (pt (xstar t)) (mu t) < (c - 2 * Algorithm1.eps (1 + 2 * eps)) * rad t.
Proof.
  intros t Ht. destruct (xstar_ok t Ht) as [_ [_ D]].
  replace (Algorithm1.eps (1 + 2 * eps)) with eps by (unfold Algorithm1.eps; field). exact D.
Qed.

(* From a point of G_p(c) Algorithm 3 decides by the truth: the key step. *)
Lemma algorithm3_exact : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm3 Q x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros x1 y H1 Hy D. unfold algorithm3. rewrite (proj1 (key x1 y H1 Hy D)).
  unfold truth_pair. rewrite Nat.eqb_sym. destruct (Nat.eqb _ _); reflexivity.
Qed.

(* So does Algorithm 4, whatever its further answers: Q(x_1, x_j) is never not-sure. *)
Lemma algorithm4_exact (more : nat -> nat -> list answer) : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm4 Q more x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros x1 y H1 Hy D. unfold algorithm4. rewrite (proj1 (key x1 y H1 Hy D)).
  unfold truth_pair. rewrite Nat.eqb_sym. destruct (Nat.eqb _ _); reflexivity.
Qed.

(* Theorem 2' (Theorem 2 with good anchors and eta_McD at q = 1): Algorithms 1 + 3 with a
   (nu, rho) local distance-weak oracle output the oracle's clustering with probability at least
   1 - delta. *)
Theorem theorem2_local_corrected :
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (definite_place K elim label Q anchor) (algorithm3 Q) w)) <= delta.
Proof.
  exact (dw_run_correct k n m elim r label pt label_range (definite_place K elim label Q anchor) (algorithm3 Q) place_perfect
           (1 + 2 * eps) gamma'_gt_1 margin' k_elim c c_le_1 xstar xstar_row xstar_close algorithm3_exact
           delta eta delta_range eta_enough r_enough).
Qed.

(* Appendix C' for the local oracle: the same with Algorithm 4 (any beta, any further answers). *)
Theorem appendix_c_local_corrected (more : nat -> nat -> list answer) :
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (definite_place K elim label Q anchor) (algorithm4 Q more) w)) <= delta.
Proof.
  exact (dw_run_correct k n m elim r label pt label_range (definite_place K elim label Q anchor) (algorithm4 Q more) place_perfect
           (1 + 2 * eps) gamma'_gt_1 margin' k_elim c c_le_1 xstar xstar_row xstar_close
           (algorithm4_exact more) delta eta delta_range eta_enough r_enough).
Qed.
(* The paper's literal "if" (Definition 6 as a necessary condition for not-sure only): any oracle
   Q' that answers as Definition 6's on every pair with a point of G_t(c) (so Q' may abstain, or
   answer anything, on pairs with no such point: none is ever asked, since every anchor is in
   G_t(c) and x_1 is) keeps both statements.  An oracle that abstains on a pair with a point of
   G_t(c) is not covered, and the always-abstaining oracle breaks them (distance-weak-corrected.md). *)
Variable Q' : nat -> nat -> answer.
Hypothesis agree : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x) (mu (label x)) < c * rad (label x) -> Q' x y = Q x y /\ Q' y x = Q y x.

Lemma key' (xs y : nat) : (xs < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt xs) (mu (label xs)) < c * rad (label xs) ->
  Q' xs y = truth_pair label xs y /\ Q' y xs = truth_pair label y xs.
Proof.
  intros Hx Hy D. destruct (agree xs y Hx Hy D) as [E1 E2]. rewrite E1, E2. exact (key xs y Hx Hy D).
Qed.

Lemma place_perfect' : forall known x, Phase1.known_ok K known -> (x < n_rows)%nat ->
  definite_place K elim label Q' anchor known x = Phase1.assign K elim known (label x) (map (fun _ => false) known).
Proof.
  intros known x [_ Rk] Hx. apply definite_place_perfect. intros t Ht.
  destruct (anchor_ok t (Rk t Ht)) as [Ha [La Da]].
  assert (Da' : dist (m := M) (pt (anchor t)) (mu (label (anchor t))) < c * rad (label (anchor t)))
    by (rewrite La; exact Da).
  destruct (key' (anchor t) x Ha Hx Da') as [_ E]. rewrite E.
  unfold truth_pair. destruct (Nat.eqb _ _); discriminate.
Qed.

Lemma algorithm3_exact' : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm3 Q' x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros x1 y H1 Hy D. unfold algorithm3. rewrite (proj1 (key' x1 y H1 Hy D)).
  unfold truth_pair. rewrite Nat.eqb_sym. destruct (Nat.eqb _ _); reflexivity.
Qed.

Lemma algorithm4_exact' (more : nat -> nat -> list answer) : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm4 Q' more x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros x1 y H1 Hy D. unfold algorithm4. rewrite (proj1 (key' x1 y H1 Hy D)).
  unfold truth_pair. rewrite Nat.eqb_sym. destruct (Nat.eqb _ _); reflexivity.
Qed.

Theorem theorem2_local_corrected_if :
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (definite_place K elim label Q' anchor) (algorithm3 Q') w)) <= delta.
Proof.
  exact (dw_run_correct k n m elim r label pt label_range (definite_place K elim label Q' anchor) (algorithm3 Q') place_perfect'
           (1 + 2 * eps) gamma'_gt_1 margin' k_elim c c_le_1 xstar xstar_row xstar_close algorithm3_exact'
           delta eta delta_range eta_enough r_enough).
Qed.

Theorem appendix_c_local_corrected_if (more : nat -> nat -> list answer) :
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (definite_place K elim label Q' anchor) (algorithm4 Q' more) w)) <= delta.
Proof.
  exact (dw_run_correct k n m elim r label pt label_range (definite_place K elim label Q' anchor) (algorithm4 Q' more)
           place_perfect' (1 + 2 * eps) gamma'_gt_1 margin' k_elim c c_le_1 xstar xstar_row xstar_close
           (algorithm4_exact' more) delta eta delta_range eta_enough r_enough).
Qed.
End Theorem2.
