(* Proposition 9 (prop:bound_given).  Note: proofs-notes/proposition-pairs.md. *)
From Coq Require Import Reals Lra.
From SSAC Require Import Metric.
Open Scope R_scope.

Section Proposition9.
Variable M : MetricSpace.
(* The data X and a clustering given by a label: C_i = {x in X | label x = i}; mu i is the
   center of C_i and r i its radius r(C_i) = max_{x in C_i} d(x, mu_i) (only the bound is used). *)
Variables (X : M -> Prop) (label : M -> nat) (mu : nat -> M) (r : nat -> R) (gamma : R).
Definition cluster (i : nat) (x : M) : Prop := X x /\ label x = i.

Hypothesis radius_bounds : forall i x, cluster i x -> dist x (mu i) <= r i.
(* Definition 2, the gamma-margin property. *)
Hypothesis margin :
  forall i x y, cluster i x -> X y -> ~ cluster i y -> gamma * dist x (mu i) < dist y (mu i).

(* (a): d(x, y) > (gamma - 1) max{d(x, mu_i), d(y, mu_j)} for x in C_i, y in C_j, i <> j. *)
Theorem proposition9_a :
  forall i j x y, i <> j -> cluster i x -> cluster j y ->
  (gamma - 1) * Rmax (dist x (mu i)) (dist y (mu j)) < dist x y.
Proof.
  intros i j x y Hij Cx Cy.
  assert (Ny : ~ cluster i y) by (intros [_ L]; destruct Cy as [_ L']; congruence).
  assert (Nx : ~ cluster j x) by (intros [_ L]; destruct Cx as [_ L']; congruence).
  pose proof (margin i x y Cx (proj1 Cy) Ny) as Mi.
  pose proof (margin j y x Cy (proj1 Cx) Nx) as Mj.
  (* d(x, y) >= d(y, mu_i) - d(x, mu_i) and symmetrically *)
  pose proof (dist_triangle M y x (mu i)) as Ti.
  pose proof (dist_triangle M x y (mu j)) as Tj.
  rewrite (dist_sym M y x) in Ti.
  apply Rmax_case_strong; intros _; lra.
Qed.

(* (b): d(x, y) <= 2 r(C_i) for x, y in C_i. *)
Theorem proposition9_b :
  forall i x y, cluster i x -> cluster i y -> dist x y <= 2 * r i.
Proof.
  intros i x y Cx Cy.
  pose proof (dist_triangle M x (mu i) y) as T. rewrite (dist_sym M (mu i) y) in T.
  pose proof (radius_bounds i x Cx). pose proof (radius_bounds i y Cy). lra.
Qed.
End Proposition9.
