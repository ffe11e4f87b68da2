(* Metric spaces over the reals: the setting of Lemma 6 (lemma:close_center) and
   Proposition 9 (prop:bound_given).  The paper works in R^m with the Euclidean distance; the
   two statements use only symmetry, the triangle inequality and nonnegativity, so they are
   proved for any (pseudo)metric.  Separation (d x y = 0 -> x = y) is not needed and not
   assumed. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

Record MetricSpace := {
  carrier :> Type;
  dist : carrier -> carrier -> R;
  dist_self : forall x, dist x x = 0;
  dist_sym : forall x y, dist x y = dist y x;
  dist_triangle : forall x y z, dist x z <= dist x y + dist y z
}.

Arguments dist {m} _ _.

Section Facts.
Variable M : MetricSpace.

Lemma dist_nonneg (x y : M) : 0 <= dist x y.
Proof.
  pose proof (dist_triangle M x y x) as T.
  rewrite dist_self, (dist_sym M y x) in T. lra.
Qed.

(* The reverse triangle inequality in the form the proofs use. *)
Lemma dist_reverse (x y z : M) : dist x z - dist y z <= dist x y.
Proof. pose proof (dist_triangle M x y z). lra. Qed.
End Facts.

(* The real line with d(x, y) = |x - y|: the space of the tightness instance. *)
Definition RLine : MetricSpace.
Proof.
  refine {| carrier := R; dist := fun x y => Rabs (x - y) |}.
  - intro x. rewrite Rminus_diag_eq by reflexivity. apply Rabs_R0.
  - intros x y. apply Rabs_minus_sym.
  - intros x y z. replace (x - z) with ((x - y) + (y - z)) by ring. apply Rabs_triang.
Defined.
