(* Support for the certificates `ssac bounds --coq FILE` writes (theory/src/coq_certificate.cpp):
   each certificate lemma states  c - 1 < B k m ... < = c  for one printed ceiling c of one
   closed form B of Bounds.v or BoundsMcDiarmid.v, and is proved by unfolding B to ln, exp, powers and rationals and
   calling the interval tactic (CoqInterval) at the precision the writer chose.  With
   Bounds.*_inverts and Inversion.ceiling_is_least this makes c the least integer size for which
   the tail expression meets its target. *)
From Coq Require Import Reals.
From Interval Require Import Tactic.
From SSAC Require Import Inversion Bounds BoundsMcDiarmid BinomialTail.
Open Scope R_scope.

Ltac unfold_bounds :=
  unfold eta_random, eta_perfect, eta_random_pinelis, eta_perfect_pinelis, eta_assign,
    eta_assign_H, eta_perfect_H, beta_random, beta_union, bit_width, eta_mcdiarmid, mcd_exponent,
    mcd_root, mixture, Rpos;
  simpl (Pos.to_nat _ - 1)%nat; simpl Pos.size.

(* The certificate tactic: both inequalities by interval arithmetic at p bits, or at the
   fallback precision p' when p does not separate them. *)
Ltac certify p p' :=
  unfold_bounds; split; first [interval with (i_prec p) | interval with (i_prec p')].

(* The binomial-sum certificates: a lemma  tail(s) <= delta/(2k) < tail(s-1)  about
   BinomialTail.eta_binomial_tail.  The upper half by the paper's closed form H M^s
   (eta_binomial_tail_upper); the lower half by tail(0) = 1 at s = 1, else by the closed form minus
   the capped terms' bound H^a M_{ac}^{s-1} (eta_binomial_tail_lower) with the writer's a >= 1,
   taken as at most e^-L (lt_minus_exp). *)
Ltac unfold_binomial := unfold mixture, Rpos; simpl (Pos.to_nat _ - 1)%nat; simpl Z.of_N.

Ltac binomial_upper p p' :=
  eapply Rle_trans; [apply eta_binomial_tail_upper; Lra.lra |];
  unfold_binomial; first [interval with (i_prec p) | interval with (i_prec p')].

Ltac certify_binomial p p' a L :=
  split;
  [ binomial_upper p p'
  | eapply Rlt_le_trans;
    [| apply (eta_binomial_tail_lower a); [unfold Rpos; Lra.lra | Lra.lra | Lra.lra]];
    apply (lt_minus_exp _ _ _ L); unfold_binomial;
    first [interval with (i_prec p) | interval with (i_prec p')] ].

(* s = 1: tail(0) = 1 > delta/(2k). *)
Ltac certify_binomial_1 p p' :=
  split;
  [ binomial_upper p p'
  | rewrite eta_binomial_tail_0 by (unfold Rpos; Lra.lra); unfold Rpos; interval ].

(* The integer reading of a certificate: if c - 1 < v <= c for an integer c >= 0, then c is the
   ceiling, the least integer not below v. *)
Lemma bracket_is_ceiling (v : R) (c : nat) :
  INR c - 1 < v <= INR c -> forall c' : nat, v <= INR c' -> (c <= c')%nat.
Proof.
  intros [Lo Hi] c' H. destruct (le_lt_dec c c') as [L | L]; [exact L |].
  exfalso. assert (INR (S c') <= INR c) by (apply le_INR; exact L).
  rewrite S_INR in H0. Lra.lra.
Qed.
