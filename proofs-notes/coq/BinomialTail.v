(* The binomial-sum eta (proofs-notes/bounds.md, "Tighter variants", 1; theory/src/certify.cpp,
   eta_random_binomial): the proof of Lemma 7 (lemma:distance_ran) before its closed form.  Of s
   draws, L ~ Bin(s, qa) are assignment-known (qa = q^{k-1}); given L = l >= 1 the estimate fails
   with probability at most H e^{-l c} (vector Hoeffding, c = (gamma-1)^2/8), a probability, so at
   most min(1, H e^{-l c}); l = 0 counts as failure, min(1, H) = 1 for H >= 1.  The sum
     sum_{l=0}^{s} C(s,l) qa^l (1-qa)^{s-l} min(1, H e^{-l c})
   lies between two closed forms (the binomial theorem):
     H M_c^s - H^a M_{a c}^s  <=  sum  <=  H M_c^s,     M_c = 1 - qa + qa e^{-c}, any a >= 1,
   the upper one being the paper's (Lemma 7, last line).  The certificates of `ssac bounds --coq`
   use both to prove, for a printed binomial eta s, sum(s) <= delta/(2k) < sum(s-1). *)
From Coq Require Import Reals Lra Lia ZArith.
From SSAC Require Import Bounds.
Open Scope R_scope.

Definition binomial_tail (H qa c : R) (s : nat) : R :=
  sum_f_R0 (fun l => C s l * qa ^ l * (1 - qa) ^ (s - l) * Rmin 1 (H * exp (- (INR l * c)))) s.

(* Theorem 1's (H = m + 1) and the Pinelis variant's (H = 2) sum at size s. *)
Definition eta_binomial_tail (H : R) (k : positive) (gamma q : R) (s : N) : R :=
  binomial_tail H (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8) (N.to_nat s).

Lemma C_nonneg (n i : nat) : 0 <= C n i.
Proof.
  unfold C. apply Rle_mult_inv_pos; [apply pos_INR |].
  apply Rmult_lt_0_compat; apply INR_fact_lt_0.
Qed.

Lemma exp_pow_INR (x : R) (l : nat) : exp x ^ l = exp (INR l * x).
Proof.
  induction l as [| l IH]; simpl pow.
  - simpl. rewrite Rmult_0_l, exp_0. reflexivity.
  - rewrite IH, <- exp_plus, S_INR. f_equal. ring.
Qed.

(* The binomial theorem as a generating function: E[e^{-c L}] = M_c^s. *)
Lemma binomial_mgf (qa c : R) (s : nat) :
  sum_f_R0 (fun l => C s l * qa ^ l * (1 - qa) ^ (s - l) * exp (- (INR l * c))) s
  = mixture qa c ^ s.
Proof.
  unfold mixture. replace (1 - qa + qa * exp (- c)) with (qa * exp (- c) + (1 - qa)) by ring.
  rewrite binomial. apply sum_eq. intros l _.
  rewrite Rpow_mult_distr, exp_pow_INR. replace (INR l * - c) with (- (INR l * c)) by ring.
  ring.
Qed.

Lemma weight_nonneg (qa : R) (s l : nat) : 0 <= qa <= 1 -> 0 <= C s l * qa ^ l * (1 - qa) ^ (s - l).
Proof.
  intros [Q0 Q1]. apply Rmult_le_pos; [apply Rmult_le_pos |].
  - apply C_nonneg.
  - apply pow_le. exact Q0.
  - apply pow_le. lra.
Qed.

(* Upper closed form: min(1, x) <= x term by term. *)
Theorem binomial_tail_le (H qa c : R) (s : nat) :
  0 <= qa <= 1 -> binomial_tail H qa c s <= H * mixture qa c ^ s.
Proof.
  intro Q. rewrite <- binomial_mgf, scal_sum. unfold binomial_tail. apply sum_Rle. intros l _.
  pose proof (weight_nonneg qa s l Q).
  replace (C s l * qa ^ l * (1 - qa) ^ (s - l) * exp (- (INR l * c)) * H)
    with (C s l * qa ^ l * (1 - qa) ^ (s - l) * (H * exp (- (INR l * c)))) by ring.
  apply Rmult_le_compat_l; [assumption | apply Rmin_r].
Qed.

(* min(1, x) >= x - x^a for x > 0, a >= 1. *)
Lemma min_one_ge (x a : R) : 0 < x -> 1 <= a -> x - Rpower x a <= Rmin 1 x.
Proof.
  intros X A. pose proof (exp_pos (a * ln x)) as P. unfold Rpower.
  destruct (Rle_dec x 1) as [L | L].
  - rewrite Rmin_right by exact L. lra.
  - rewrite Rmin_left by lra.
    assert (x <= Rpower x a).
    { rewrite <- (Rpower_1 x) at 1 by exact X. apply Rle_Rpower; lra. }
    unfold Rpower in H. lra.
Qed.

(* Lower closed form: the capped terms lose at most H^a M_{a c}^s. *)
Theorem binomial_tail_ge (H qa c a : R) (s : nat) :
  0 < H -> 0 <= qa <= 1 -> 1 <= a ->
  H * mixture qa c ^ s - Rpower H a * mixture qa (a * c) ^ s <= binomial_tail H qa c s.
Proof.
  intros HH Q A. rewrite <- !binomial_mgf, !scal_sum, <- minus_sum.
  unfold binomial_tail. apply sum_Rle. intros l _.
  pose proof (weight_nonneg qa s l Q) as W.
  set (w := C s l * qa ^ l * (1 - qa) ^ (s - l)) in *.
  assert (E : Rpower (H * exp (- (INR l * c))) a = Rpower H a * exp (- (INR l * (a * c)))).
  { unfold Rpower. rewrite ln_mult, ln_exp, <- exp_plus by (auto using exp_pos). f_equal. ring. }
  pose proof (min_one_ge (H * exp (- (INR l * c))) a
                (Rmult_lt_0_compat _ _ HH (exp_pos _)) A) as M.
  rewrite E in M.
  replace (w * exp (- (INR l * c)) * H - w * exp (- (INR l * (a * c))) * Rpower H a)
    with (w * (H * exp (- (INR l * c)) - Rpower H a * exp (- (INR l * (a * c))))) by ring.
  apply Rmult_le_compat_l; assumption.
Qed.

(* No sample: the l = 0 term alone, counted as failure. *)
Lemma binomial_tail_0 (H qa c : R) : 1 <= H -> binomial_tail H qa c 0 = 1.
Proof.
  intro HH. unfold binomial_tail. simpl. rewrite Rmult_0_l, Ropp_0, exp_0, Rmult_1_r.
  rewrite Rmin_left by lra. unfold C. simpl. field.
Qed.

(* ---- The forms the certificates evaluate -------------------------------------------------------
   Sizes are binary (N: a size of 10^19 is never unary), powers M^s are exp (s ln M), and H^a M^s
   is one exp (its two factors may be 10^(10^18) and 10^(-10^18)). *)

Lemma mixture_pos (qa c : R) : 0 <= qa <= 1 -> 0 < mixture qa c.
Proof.
  intros [Q0 Q1]. unfold mixture. pose proof (exp_pos (- c)).
  destruct (Req_dec qa 1) as [E | E].
  - subst. lra.
  - assert (0 <= qa * exp (- c)) by (apply Rmult_le_pos; lra). lra.
Qed.

Lemma pow_N_exp (x : R) (s : N) : 0 < x -> x ^ N.to_nat s = exp (IZR (Z.of_N s) * ln x).
Proof. intro X. rewrite <- N_nat_Z, <- INR_IZR_INZ, <- ln_pow, exp_ln; auto using pow_lt. Qed.

Theorem eta_binomial_tail_upper (H : R) (k : positive) (gamma q : R) (s : N) :
  0 < q <= 1 ->
  eta_binomial_tail H k gamma q s
  <= H * exp (IZR (Z.of_N s) * ln (mixture (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8))).
Proof.
  intro Q. pose proof (q_assign_range q k Q) as QA. unfold eta_binomial_tail.
  rewrite <- pow_N_exp by (apply mixture_pos; lra). apply binomial_tail_le. lra.
Qed.

Theorem eta_binomial_tail_lower (a H : R) (k : positive) (gamma q : R) (s : N) :
  0 < H -> 0 < q <= 1 -> 1 <= a ->
  H * exp (IZR (Z.of_N s) * ln (mixture (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8)))
  - exp (a * ln H
         + IZR (Z.of_N s) * ln (mixture (q ^ (Pos.to_nat k - 1)) (a * ((gamma - 1) ^ 2 / 8))))
  <= eta_binomial_tail H k gamma q s.
Proof.
  intros HH Q A. pose proof (q_assign_range q k Q) as QA. unfold eta_binomial_tail.
  rewrite exp_plus, <- !pow_N_exp by (apply mixture_pos; lra).
  apply (binomial_tail_ge H _ _ a); lra.
Qed.

Theorem eta_binomial_tail_0 (H : R) (k : positive) (gamma q : R) :
  1 <= H -> eta_binomial_tail H k gamma q 0 = 1.
Proof. intro HH. apply binomial_tail_0. exact HH. Qed.

(* The certificates bound the capped terms' exp (f) by exp (- L) for a moderate L >= 0 the writer
   picks: interval proves f <= - L without evaluating exp at f (which may be - 10^14). *)
Lemma lt_minus_exp (t A f L : R) : f <= - L -> t < A - exp (- L) -> t < A - exp f.
Proof.
  intros F T. assert (exp f <= exp (- L)).
  { destruct (Req_dec f (- L)) as [E | E]; [rewrite E; lra | left; apply exp_increasing; lra]. }
  lra.
Qed.
