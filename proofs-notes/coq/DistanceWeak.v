(* The distance-weak oracles (Definitions 6 and 7) and the two deterministic steps of the proofs of
   Theorems 2 and 3 (thm:optimal_cover_local, thm:optimal_cover_global), on any metric space:
   - the oracles read as proofs-notes/semantics.md reads them (errata E1: "if" read as "iff"):
     Q(x, y) is not-sure exactly when a condition of the definition names the pair, and the truth
     (yes: same cluster, no: different clusters) on every other pair;
   - the key step: a query with a point x* of G_i(c) (d(x*, mu_i) < c r(C_i)) is never not-sure,
     for the local oracle with c <= min{2 rho - 1, gamma - nu + 1} (proof of Theorem 2, first
     display; the further line d(x*, y) > gamma (nu - 1) d(y, mu_j) is not needed), and for the
     global oracle on same-cluster pairs with c <= 2 rho - 1 (proof of Theorem 3);
   - the closest-point step: the point nearest a good estimate mu' lies in G_p(c) (proof of
     Theorem 2, last display).
   The centers and radii are any points and reals with d(x, mu_{l(x)}) <= r(C_{l(x)}) and
   gamma r(C_i) <= d(y, mu_i) for y outside C_i (what the gamma-margin gives, Theorem2Run.v). *)
From Coq Require Import Reals Lra List.
Import ListNotations.
From SSAC Require Import Metric BinarySearch FiniteProb.
Open Scope R_scope.

Section Oracles.
Variable M : MetricSpace.
Variables (label : nat -> nat) (pt : nat -> M) (center : nat -> M) (rad : nat -> R).

(* The answer of an oracle that is not-sure on the pairs `unsure` names and truthful elsewhere. *)
Definition weak_truth (unsure : nat -> nat -> bool) (x y : nat) : answer :=
  if unsure x y then NotSure else if Nat.eqb (label x) (label y) then Yes else No.

(* Definition 6, (nu, rho) local distance-weak: (a) x in C_i, y in C_j, i <> j and
   d(x, y) < (nu - 1) min{d(x, mu_i), d(y, mu_j)}; (b) x, y in C_i and d(x, y) > 2 rho r(C_i). *)
Definition local_unsure (nu rho : R) (x y : nat) : bool :=
  if Nat.eqb (label x) (label y) then Rltb (2 * rho * rad (label x)) (dist (pt x) (pt y))
  else Rltb (dist (pt x) (pt y))
            ((nu - 1) * Rmin (dist (pt x) (center (label x))) (dist (pt y) (center (label y)))).

(* Definition 7, rho global distance-weak: (a) x in C_i, y in C_j, i <> j and
   d(x, mu_i) > rho r(C_i) or d(y, mu_j) > rho r(C_j); (b) as Definition 6's (b). *)
Definition global_unsure (rho : R) (x y : nat) : bool :=
  if Nat.eqb (label x) (label y) then Rltb (2 * rho * rad (label x)) (dist (pt x) (pt y))
  else orb (Rltb (rho * rad (label x)) (dist (pt x) (center (label x))))
           (Rltb (rho * rad (label y)) (dist (pt y) (center (label y)))).

Definition local_oracle (nu rho : R) : nat -> nat -> answer := weak_truth (local_unsure nu rho).
Definition global_oracle (rho : R) : nat -> nat -> answer := weak_truth (global_unsure rho).

(* The truth about the pair (x, y). *)
Definition truth_pair (x y : nat) : answer := if Nat.eqb (label x) (label y) then Yes else No.

Lemma weak_truth_definite (u : nat -> nat -> bool) x y :
  u x y = false -> weak_truth u x y = truth_pair x y.
Proof. unfold weak_truth, truth_pair. intros ->. reflexivity. Qed.

(* A distance-weak oracle never lies: a yes is the same cluster. *)
Lemma weak_truth_yes (u : nat -> nat -> bool) x y :
  weak_truth u x y = Yes -> label x = label y.
Proof.
  unfold weak_truth. destruct (u x y); [discriminate |].
  destruct (Nat.eqb_spec (label x) (label y)); [auto | discriminate].
Qed.

(* The hypotheses of the key steps, for the rows of the instance. *)
Variable row : nat -> Prop.
Hypothesis in_radius : forall y, row y -> dist (pt y) (center (label y)) <= rad (label y).
Variable gamma : R.
Hypothesis far : forall x y, row x -> row y -> label y <> label x ->
  gamma * rad (label x) <= dist (pt y) (center (label x)).

Lemma rad_nonneg y : row y -> 0 <= rad (label y).
Proof. intro Hy. pose proof (dist_nonneg M (pt y) (center (label y))). pose proof (in_radius y Hy). lra. Qed.

(* Key step, same cluster (both oracles, condition (b)): x* in G_i(c), c <= 2 rho - 1, y in C_i:
   d(x*, y) <= d(x*, mu_i) + d(y, mu_i) < c r + r <= 2 rho r. *)
Lemma key_same (rho c : R) (xs y : nat) :
  row xs -> row y -> label y = label xs -> c <= 2 * rho - 1 ->
  dist (pt xs) (center (label xs)) < c * rad (label xs) ->
  dist (pt xs) (pt y) <= 2 * rho * rad (label xs).
Proof.
  intros Hx Hy Ly Hc Hd.
  pose proof (dist_triangle M (pt xs) (center (label xs)) (pt y)) as T.
  rewrite (dist_sym M (center (label xs)) (pt y)) in T.
  pose proof (in_radius y Hy) as Ry. rewrite Ly in Ry.
  pose proof (rad_nonneg xs Hx) as R0.
  assert (c * rad (label xs) <= (2 * rho - 1) * rad (label xs)) by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

(* Key step, different clusters (local oracle, condition (a)): x* in G_i(c), c <= gamma - nu + 1,
   nu >= 1, y in C_j, j <> i: d(x*, y) >= d(y, mu_i) - d(x*, mu_i) > gamma r - c r >= (nu - 1) r
   >= (nu - 1) d(x*, mu_i) >= (nu - 1) min{...}. *)
Lemma key_cross_local (nu c : R) (xs y : nat) :
  row xs -> row y -> label y <> label xs -> 1 <= nu -> c <= gamma - nu + 1 ->
  dist (pt xs) (center (label xs)) < c * rad (label xs) ->
  (nu - 1) * Rmin (dist (pt xs) (center (label xs))) (dist (pt y) (center (label y)))
  <= dist (pt xs) (pt y).
Proof.
  intros Hx Hy Ly Hnu Hc Hd.
  pose proof (far xs y Hx Hy Ly) as F.
  pose proof (dist_triangle M (pt y) (pt xs) (center (label xs))) as T.
  rewrite (dist_sym M (pt y) (pt xs)) in T.
  pose proof (rad_nonneg xs Hx) as R0.
  assert (c * rad (label xs) <= (gamma - nu + 1) * rad (label xs)) by (apply Rmult_le_compat_r; lra).
  assert (Rmin (dist (pt xs) (center (label xs))) (dist (pt y) (center (label y)))
          <= rad (label xs)).
  { eapply Rle_trans; [apply Rmin_l | apply in_radius, Hx]. }
  assert ((nu - 1) * Rmin (dist (pt xs) (center (label xs))) (dist (pt y) (center (label y)))
          <= (nu - 1) * rad (label xs)) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

(* The key step for the local oracle (proof of Theorem 2): every query with x* in
   G_i(min{2 rho - 1, gamma - nu + 1}), in either order, is answered with the truth. *)
Theorem local_key_step (nu rho c : R) (xs y : nat) :
  row xs -> row y -> 1 <= nu -> c <= 2 * rho - 1 -> c <= gamma - nu + 1 ->
  dist (pt xs) (center (label xs)) < c * rad (label xs) ->
  local_oracle nu rho xs y = truth_pair xs y /\ local_oracle nu rho y xs = truth_pair y xs.
Proof.
  intros Hx Hy Hnu Hc1 Hc2 Hd. unfold local_oracle.
  split; apply weak_truth_definite; unfold local_unsure;
    destruct (Nat.eqb_spec (label xs) (label y)) as [E | N].
  - pose proof (key_same rho c xs y Hx Hy (eq_sym E) Hc1 Hd).
    unfold Rltb. destruct (Rlt_dec _ _); [lra | reflexivity].
  - pose proof (key_cross_local nu c xs y Hx Hy (not_eq_sym N) Hnu Hc2 Hd).
    unfold Rltb. destruct (Rlt_dec _ _); [lra | reflexivity].
  - rewrite (proj2 (Nat.eqb_eq _ _) (eq_sym E)).
    pose proof (key_same rho c xs y Hx Hy (eq_sym E) Hc1 Hd).
    rewrite <- E, dist_sym. unfold Rltb. destruct (Rlt_dec _ _); [lra | reflexivity].
  - rewrite (proj2 (Nat.eqb_neq _ _) (not_eq_sym N)).
    pose proof (key_cross_local nu c xs y Hx Hy (not_eq_sym N) Hnu Hc2 Hd).
    rewrite Rmin_comm, dist_sym. unfold Rltb. destruct (Rlt_dec _ _); [lra | reflexivity].
Qed.

(* The key step for the global oracle (proof of Theorem 3): a query of x* in G_i(2 rho - 1) with
   a point of C_i is a yes; with a point of another cluster it is no or not-sure, never yes. *)
Theorem global_key_step (rho c : R) (xs y : nat) :
  row xs -> row y -> c <= 2 * rho - 1 ->
  dist (pt xs) (center (label xs)) < c * rad (label xs) ->
  (label y = label xs -> global_oracle rho xs y = Yes /\ global_oracle rho y xs = Yes) /\
  (label y <> label xs -> global_oracle rho xs y <> Yes /\ global_oracle rho y xs <> Yes).
Proof.
  intros Hx Hy Hc Hd. split.
  - intro Ly. pose proof (key_same rho c xs y Hx Hy Ly Hc Hd) as K.
    unfold global_oracle, weak_truth, global_unsure.
    rewrite Ly, Nat.eqb_refl. rewrite (dist_sym M (pt y) (pt xs)).
    unfold Rltb. destruct (Rlt_dec _ _); [lra |]. split; reflexivity.
  - intro Ly. unfold global_oracle. split; intro Y; apply weak_truth_yes in Y; auto.
Qed.

(* The closest-point step (proof of Theorem 2): if x' is at least as close to mu' as x*,
   d(mu', mu_p) <= eps r and d(x*, mu_p) < (c - 2 eps) r, then d(x', mu_p) < c r. *)
Theorem closest_point_step (mu' mu : M) (x' xs : M) (c eps r : R) :
  dist x' mu' <= dist xs mu' -> dist mu' mu <= eps * r -> dist xs mu < (c - 2 * eps) * r ->
  dist x' mu < c * r.
Proof.
  intros Hmin Hmu Hxs.
  pose proof (dist_triangle M x' mu' mu). pose proof (dist_triangle M xs mu mu').
  rewrite (dist_sym M mu mu') in *. lra.
Qed.
End Oracles.
