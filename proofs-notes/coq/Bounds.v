(* The closed-form sample sizes of theory/ (proofs-notes/bounds.md, "The bounds"), each shown to
   be exactly the inversion of the tail expression its proof uses: for every admissible parameter
   and every real size s,   tail(s) <= target  iff  closed form <= s,
   so the closed form makes the tail at most its target, and (Inversion.ceiling_is_least) its
   ceiling is the least integer that does.  log is natural (bounds.md, "Conventions"). *)
From Coq Require Import Reals Lra Lia.
From SSAC Require Import Inversion.
Open Scope R_scope.

(* Lemma 7's base 1 - qa + qa e^{-c}: the probability-generating expression of one draw. *)
Definition mixture (qa c : R) : R := 1 - qa + qa * exp (- c).

Lemma mixture_range (qa c : R) : 0 < qa <= 1 -> 0 < c -> 0 < mixture qa c < 1.
Proof.
  intros [Q0 Q1] Hc. unfold mixture. pose proof (exp_neg_lt_1 c Hc). pose proof (exp_pos (- c)).
  split.
  - assert (0 <= 1 - qa) by lra. assert (0 < qa * exp (- c)) by (apply Rmult_lt_0_compat; lra).
    lra.
  - assert (0 < qa * (1 - exp (- c))) by (apply Rmult_lt_0_compat; lra). lra.
Qed.

Lemma q_assign_range (q : R) (k : positive) : 0 < q <= 1 -> 0 < q ^ (Pos.to_nat k - 1) <= 1.
Proof.
  intros [Q0 Q1]. split; [apply pow_lt; lra |].
  rewrite <- (pow1 (Pos.to_nat k - 1)). apply pow_incr. lra.
Qed.

Lemma margin_exponent_pos (gamma : R) : 1 < gamma -> 0 < (gamma - 1) ^ 2 / 8.
Proof. intro G. assert (0 < (gamma - 1) ^ 2) by (apply pow_lt; lra). lra. Qed.

(* Counts (k, m, n) are positive binary numbers, read as reals by IZR (Zpos _): certificates can
   name k = 100 or n = 10^6 without unary numbers. *)
Definition Rpos (p : positive) : R := IZR (Zpos p).

Lemma Rpos_pos (k : positive) : 0 < Rpos k.
Proof. apply IZR_lt. reflexivity. Qed.

(* ln a + ln b + ln(1/delta) = ln(b / (delta / a)): the numerators of the closed forms. *)
Lemma numerator_is_ln (a b delta : R) :
  0 < a -> 0 < b -> 0 < delta -> ln a + ln b + ln (1 / delta) = ln (b / (delta / a)).
Proof.
  intros Ha Hb Hd. rewrite ln_one_over, ln_div, ln_div by (try apply Rdiv_lt_0_compat; lra).
  ring.
Qed.

Section Factor.
(* H is the factor in front of the tail: m + 1 (vector Hoeffding, appendix Theorem 5) or 2
   (Pinelis 1994, the *_pinelis variants of bounds.md; the factor is proved in Pinelis.v). *)

(* Lemma 7, last line of its proof; target delta/(2k):
   (log 2k + log H + log 1/delta) / log(1/(1 - qa + qa e^{-(gamma-1)^2/8})). *)
Definition eta_assign_H (H : R) (k : positive) (delta gamma qa : R) : R :=
  (ln (2 * Rpos k) + ln H + ln (1 / delta)) / ln (1 / mixture qa ((gamma - 1) ^ 2 / 8)).

Theorem eta_assign_H_inverts (H : R) (k : positive) (delta gamma qa s : R) :
  0 < H -> 0 < delta -> 1 < gamma -> 0 < qa <= 1 ->
  (H * Rpower (mixture qa ((gamma - 1) ^ 2 / 8)) s <= delta / (2 * Rpos k)
   <-> eta_assign_H H k delta gamma qa <= s).
Proof.
  intros HH D G Q. pose proof (Rpos_pos k).
  rewrite tail_le_iff.
  - unfold inverse_size, eta_assign_H. rewrite numerator_is_ln by lra. reflexivity.
  - exact HH.
  - apply Rdiv_lt_0_compat; lra.
  - apply mixture_range; [exact Q | apply margin_exponent_pos; exact G].
Qed.

(* Remark after Theorem 1: perfect oracle, target delta/k, tail H e^{-s (gamma-1)^2/8}:
   8 (log k + log H + log 1/delta) / (gamma-1)^2. *)
Definition eta_perfect_H (H : R) (k : positive) (delta gamma : R) : R :=
  8 * (ln (Rpos k) + ln H + ln (1 / delta)) / (gamma - 1) ^ 2.

Theorem eta_perfect_H_inverts (H : R) (k : positive) (delta gamma s : R) :
  0 < H -> 0 < delta -> 1 < gamma ->
  (H * exp (- (s * ((gamma - 1) ^ 2 / 8))) <= delta / Rpos k
   <-> eta_perfect_H H k delta gamma <= s).
Proof.
  intros HH D G. pose proof (Rpos_pos k). pose proof (margin_exponent_pos gamma G) as C.
  set (c := (gamma - 1) ^ 2 / 8) in *.
  assert (X : exp (- (s * c)) = Rpower (exp (- c)) s).
  { unfold Rpower. rewrite ln_exp. f_equal. ring. }
  rewrite X, tail_le_iff.
  - unfold inverse_size, eta_perfect_H. rewrite numerator_is_ln by lra.
    rewrite ln_one_over, ln_exp by apply exp_pos. unfold c.
    replace (8 * ln (H / (delta / Rpos k)) / (gamma - 1) ^ 2)
      with (ln (H / (delta / Rpos k)) / - - ((gamma - 1) ^ 2 / 8)); [reflexivity |].
    field. lra.
  - exact HH.
  - apply Rdiv_lt_0_compat; lra.
  - split; [apply exp_pos | apply exp_neg_lt_1; exact C].
Qed.
End Factor.

(* ---- The bounds of theory/ (bounds.hpp) ---------------------------------------------------- *)

(* eta_perfect: H = m + 1, target delta/k. *)
Definition eta_perfect (k m : positive) (delta gamma : R) : R :=
  eta_perfect_H (Rpos m + 1) k delta gamma.
(* eta_assign: H = m + 1, target delta/(2k). *)
Definition eta_assign (k m : positive) (delta gamma qa : R) : R :=
  eta_assign_H (Rpos m + 1) k delta gamma qa.
(* Theorem 1: eta_assign at qa = q^{k-1}. *)
Definition eta_random (k m : positive) (delta gamma q : R) : R :=
  eta_assign k m delta gamma (q ^ (Pos.to_nat k - 1)).
(* The dimension-free variants: H = 2 (Pinelis.v proves the factor). *)
Definition eta_perfect_pinelis (k : positive) (delta gamma : R) : R := eta_perfect_H 2 k delta gamma.
Definition eta_random_pinelis (k : positive) (delta gamma q : R) : R :=
  eta_assign_H 2 k delta gamma (q ^ (Pos.to_nat k - 1)).

Lemma m_plus_1_pos (m : positive) : 0 < Rpos m + 1.
Proof. pose proof (Rpos_pos m). lra. Qed.

Theorem eta_perfect_inverts (k m : positive) (delta gamma s : R) :
  0 < delta -> 1 < gamma ->
  ((Rpos m + 1) * exp (- (s * ((gamma - 1) ^ 2 / 8))) <= delta / Rpos k
   <-> eta_perfect k m delta gamma <= s).
Proof. intros. apply eta_perfect_H_inverts; auto using m_plus_1_pos. Qed.

Theorem eta_assign_inverts (k m : positive) (delta gamma qa s : R) :
  0 < delta -> 1 < gamma -> 0 < qa <= 1 ->
  ((Rpos m + 1) * Rpower (mixture qa ((gamma - 1) ^ 2 / 8)) s <= delta / (2 * Rpos k)
   <-> eta_assign k m delta gamma qa <= s).
Proof. intros. apply eta_assign_H_inverts; auto using m_plus_1_pos. Qed.

(* Theorem 1's eta: (m+1) (1 - q^{k-1} + q^{k-1} e^{-(gamma-1)^2/8})^s <= delta/(2k). *)
Theorem eta_random_inverts (k m : positive) (delta gamma q s : R) :
  0 < delta -> 1 < gamma -> 0 < q <= 1 ->
  ((Rpos m + 1) * Rpower (mixture (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8)) s <= delta / (2 * Rpos k)
   <-> eta_random k m delta gamma q <= s).
Proof. intros. apply eta_assign_inverts; auto using q_assign_range. Qed.

Theorem eta_perfect_pinelis_inverts (k : positive) (delta gamma s : R) :
  0 < delta -> 1 < gamma ->
  (2 * exp (- (s * ((gamma - 1) ^ 2 / 8))) <= delta / Rpos k
   <-> eta_perfect_pinelis k delta gamma <= s).
Proof. intros. apply eta_perfect_H_inverts; auto; lra. Qed.

Theorem eta_random_pinelis_inverts (k : positive) (delta gamma q s : R) :
  0 < delta -> 1 < gamma -> 0 < q <= 1 ->
  (2 * Rpower (mixture (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8)) s <= delta / (2 * Rpos k)
   <-> eta_random_pinelis k delta gamma q <= s).
Proof. intros. apply eta_assign_H_inverts; auto using q_assign_range; lra. Qed.

(* Proof of Theorem 2 (and 3): margin eps, target delta/k:
   (log k + log(m+1) + log 1/delta) / log(1/(1 - q^{k-1} + q^{k-1} e^{-eps^2/2})). *)
Definition eta_distance_weak (k m : positive) (delta eps q : R) : R :=
  (ln (Rpos k) + ln (Rpos m + 1) + ln (1 / delta)) / ln (1 / mixture (q ^ (Pos.to_nat k - 1)) (eps ^ 2 / 2)).

Theorem eta_distance_weak_inverts (k m : positive) (delta eps q s : R) :
  0 < delta -> 0 < eps -> 0 < q <= 1 ->
  ((Rpos m + 1) * Rpower (mixture (q ^ (Pos.to_nat k - 1)) (eps ^ 2 / 2)) s <= delta / Rpos k
   <-> eta_distance_weak k m delta eps q <= s).
Proof.
  intros D E Q. pose proof (Rpos_pos k). pose proof (m_plus_1_pos m).
  rewrite tail_le_iff.
  - unfold inverse_size, eta_distance_weak. rewrite numerator_is_ln by lra. reflexivity.
  - assumption.
  - apply Rdiv_lt_0_compat; lra.
  - apply mixture_range; [apply q_assign_range; exact Q |].
    assert (0 < eps ^ 2) by (apply pow_lt; lra). lra.
Qed.

(* Theorem 1's beta (the paper's): the search union bound with log n steps,
   log n (1-q)^s <= delta/(2k):  (log 2k + log log n + log 1/delta) / log(1/(1-q)), n >= 2. *)
Definition beta_random (k n : positive) (delta q : R) : R :=
  (ln (2 * Rpos k) + ln (ln (Rpos n)) + ln (1 / delta)) / ln (1 / (1 - q)).

Lemma ln_n_pos (n : positive) : (1 < n)%positive -> 0 < ln (Rpos n).
Proof.
  intro N. rewrite <- ln_1. apply ln_increasing; [lra |].
  apply IZR_lt. exact N.
Qed.

Theorem beta_random_inverts (k n : positive) (delta q s : R) :
  (1 < n)%positive -> 0 < delta -> 0 < q < 1 ->
  (ln (Rpos n) * Rpower (1 - q) s <= delta / (2 * Rpos k) <-> beta_random k n delta q <= s).
Proof.
  intros N D Q. pose proof (Rpos_pos k). pose proof (ln_n_pos n N).
  rewrite tail_le_iff.
  - unfold inverse_size, beta_random. rewrite numerator_is_ln by lra. reflexivity.
  - assumption.
  - apply Rdiv_lt_0_compat; lra.
  - lra.
Qed.

(* At q = 1 no search step can fail: every integer beta >= 1 makes the tail 0. *)
Theorem beta_q1_tail_zero (S : R) (b : nat) : (1 <= b)%nat -> S * (1 - 1) ^ b = 0.
Proof. intro B. destruct b; [lia |]. simpl. ring. Qed.

(* beta_union: the union bound with this implementation's step count S = bit_width n
   (SearchSteps in BinarySearch.v bounds Algorithm 2's steps by it):
   S (1-q)^s <= delta/(2k):  log(2kS/delta) / log(1/(1-q)). *)
Definition bit_width (n : positive) : positive := Pos.size n.

Definition beta_union (k n : positive) (delta q : R) : R :=
  ln (2 * Rpos k * Rpos (bit_width n) / delta) / ln (1 / (1 - q)).


Theorem beta_union_inverts (k n : positive) (delta q s : R) :
  0 < delta -> 0 < q < 1 ->
  (Rpos (bit_width n) * Rpower (1 - q) s <= delta / (2 * Rpos k) <-> beta_union k n delta q <= s).
Proof.
  intros D Q. pose proof (Rpos_pos k). pose proof (Rpos_pos (bit_width n)).
  rewrite tail_le_iff.
  - unfold inverse_size, beta_union.
    replace (Rpos (bit_width n) / (delta / (2 * Rpos k)))
      with (2 * Rpos k * Rpos (bit_width n) / delta) by (field; lra).
    reflexivity.
  - assumption.
  - apply Rdiv_lt_0_compat; lra.
  - lra.
Qed.
