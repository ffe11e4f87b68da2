(* The one inversion every closed-form sample size of the paper performs: for a factor H > 0, a
   target t > 0 and a base 0 < x < 1,
       H * x^s <= t   iff   s >= ln(H/t) / ln(1/x),
   for real s (x^s = Rpower x s = exp (s ln x)) and for integer s (x^n = pow x n); hence the
   ceiling of the closed form is the least integer that meets the target.
   Used by Bounds.v for each bound of proofs-notes/bounds.md. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

Lemma ln_le_iff (a b : R) : 0 < a -> 0 < b -> (a <= b <-> ln a <= ln b).
Proof.
  intros Ha Hb. split; intro H.
  - destruct (Rle_lt_or_eq_dec a b H) as [L | E].
    + left. apply ln_increasing; assumption.
    + right. rewrite E. reflexivity.
  - destruct (Rle_lt_or_eq_dec (ln a) (ln b) H) as [L | E].
    + left. apply ln_lt_inv; assumption.
    + right. apply ln_inv; assumption.
Qed.

Lemma ln_div (a b : R) : 0 < a -> 0 < b -> ln (a / b) = ln a - ln b.
Proof.
  intros Ha Hb. unfold Rdiv. rewrite ln_mult, ln_Rinv; try lra.
  apply Rinv_0_lt_compat. assumption.
Qed.

Lemma ln_one_over (a : R) : 0 < a -> ln (1 / a) = - ln a.
Proof. intro Ha. rewrite ln_div, ln_1 by lra. ring. Qed.

Lemma ln_lt_0 (x : R) : 0 < x < 1 -> ln x < 0.
Proof. intros [H0 H1]. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Lemma exp_neg_lt_1 (c : R) : 0 < c -> exp (- c) < 1.
Proof. intro Hc. rewrite <- exp_0. apply exp_increasing. lra. Qed.

Section Inversion.
Variables H t x : R.
Hypothesis H_pos : 0 < H.
Hypothesis t_pos : 0 < t.
Hypothesis x_range : 0 < x < 1.

(* The closed form ln(H/t) / ln(1/x). *)
Definition inverse_size : R := ln (H / t) / ln (1 / x).

Lemma ln_inv_x_pos : 0 < ln (1 / x).
Proof. rewrite ln_one_over by lra. pose proof (ln_lt_0 x x_range). lra. Qed.

Theorem tail_le_iff (s : R) : H * Rpower x s <= t <-> inverse_size <= s.
Proof.
  pose proof ln_inv_x_pos as Hl.
  assert (Hp : 0 < H * Rpower x s) by (apply Rmult_lt_0_compat; [lra | apply exp_pos]).
  rewrite (ln_le_iff _ _ Hp t_pos).
  unfold Rpower, inverse_size. rewrite ln_mult by (try lra; apply exp_pos). rewrite ln_exp.
  rewrite (ln_div H t) by lra. rewrite (ln_one_over x) in * by lra.
  split; intro L.
  - apply Rmult_le_reg_r with (r := - ln x); [lra |].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
  - apply Rmult_le_compat_r with (r := - ln x) in L; [| lra].
    unfold Rdiv in L. rewrite Rmult_assoc, Rinv_l in L by lra. lra.
Qed.

Theorem tail_pow_le_iff (n : nat) : H * x ^ n <= t <-> inverse_size <= INR n.
Proof. rewrite <- Rpower_pow by lra. apply tail_le_iff. Qed.

(* The ceiling of the closed form is the least integer that meets the target: if
   n - 1 < inverse_size <= n then H x^n <= t and H x^n' > t for every n' < n. *)
Theorem ceiling_is_least (n : nat) :
  INR n - 1 < inverse_size <= INR n ->
  H * x ^ n <= t /\ (forall n', (n' < n)%nat -> t < H * x ^ n').
Proof.
  intros [Lo Hi]. split.
  - apply tail_pow_le_iff. exact Hi.
  - intros n' Lt. apply Rnot_le_lt. rewrite tail_pow_le_iff.
    (* n' < n means INR n' <= INR n - 1 *)
    assert (INR n' <= INR n - 1).
    { assert (INR (S n') <= INR n) by (apply le_INR; exact Lt). rewrite S_INR in H0. lra. }
    lra.
Qed.

(* Any real size at least the closed form meets the target. *)
Corollary tail_le (s : R) : inverse_size <= s -> H * Rpower x s <= t.
Proof. apply tail_le_iff. Qed.
End Inversion.
