(* Support for the certificates `ssac bounds --coq FILE` writes (theory/src/coq_certificate.cpp):
   each certificate lemma states  c - 1 < B k m ... < = c  for one printed ceiling c of one
   closed form B of Bounds.v, and is proved by unfolding B to ln, exp, powers and rationals and
   calling the interval tactic (CoqInterval) at the precision the writer chose.  With
   Bounds.*_inverts and Inversion.ceiling_is_least this makes c the least integer size for which
   the tail expression meets its target. *)
From Coq Require Import Reals.
From Interval Require Import Tactic.
From SSAC Require Import Inversion Bounds.
Open Scope R_scope.

Ltac unfold_bounds :=
  unfold eta_random, eta_perfect, eta_random_pinelis, eta_perfect_pinelis, eta_assign,
    eta_assign_H, eta_perfect_H, beta_random, beta_union, bit_width, mixture, Rpos;
  simpl (Pos.to_nat _ - 1)%nat; simpl Pos.size.

(* The certificate tactic: both inequalities by interval arithmetic at p bits, or at the
   fallback precision p' when p does not separate them. *)
Ltac certify p p' :=
  unfold_bounds; split; first [interval with (i_prec p) | interval with (i_prec p')].

(* The integer reading of a certificate: if c - 1 < v <= c for an integer c >= 0, then c is the
   ceiling, the least integer not below v. *)
Lemma bracket_is_ceiling (v : R) (c : nat) :
  INR c - 1 < v <= INR c -> forall c' : nat, v <= INR c' -> (c <= c')%nat.
Proof.
  intros [Lo Hi] c' H. destruct (le_lt_dec c c') as [L | L]; [exact L |].
  exfalso. assert (INR (S c') <= INR c) by (apply le_INR; exact L).
  rewrite S_INR in H0. Lra.lra.
Qed.
