(* eta_mcdiarmid: Theorem 1's Phase 1 sample size with the vector Hoeffding step of Lemma 7
   (appendix Theorem 5, tail (m+1) e^{-l eps^2/2} for l assignment-known draws) replaced by
   McDiarmid's bounded-differences inequality on f = ||Ybar - mu|| (derivation:
   proofs-notes/bounds.md, "eta_mcdiarmid").

   Exact signatures (other files import these; log is natural, L = ln(2k/delta) > 0):
     Definition mcd_root (k : positive) (delta : R) : R := sqrt (2 * ln (2 * Rpos k / delta)).
     Definition mcd_exponent (k : positive) (delta gamma : R) : R :=
       (gamma - 1) ^ 2 / 8 * (mcd_root k delta / (1 + mcd_root k delta)).
     Definition mcd_tail (k : positive) (delta gamma q s : R) : R :=
       exp (mcd_root k delta / 2) * Rpower (mixture (q ^ (Pos.to_nat k - 1)) (mcd_exponent k delta gamma)) s.
     Definition eta_mcdiarmid (k : positive) (delta gamma q : R) : R :=
       (ln (2 * Rpos k) + mcd_root k delta / 2 + ln (1 / delta))
       / ln (1 / mixture (q ^ (Pos.to_nat k - 1)) (mcd_exponent k delta gamma)).
     Theorem eta_mcdiarmid_inverts (k : positive) (delta gamma q s : R) :
       0 < delta < 1 -> 1 < gamma -> 0 < q <= 1 ->
       (mcd_tail k delta gamma q s <= delta / (2 * Rpos k) <-> eta_mcdiarmid k delta gamma q <= s).
     Theorem mcdiarmid_linearized (eps l w : R) : 0 <= eps -> 0 <= l -> 0 <= w ->
       exp (- (Rmax 0 (eps * sqrt l - 1)) ^ 2 / 2)
       <= exp (w / 2) * exp (- (l * (eps ^ 2 / 2 * (w / (1 + w))))).
     Theorem eta_mcdiarmid_q1 (k : positive) (delta gamma : R) : 0 < delta < 1 -> 1 < gamma ->
       eta_mcdiarmid k delta gamma 1 = ((1 + mcd_root k delta) / ((gamma - 1) / 2)) ^ 2.
   (mixture and Rpos are Bounds.v's.)  The dimension m does not occur.

   How they fit: given l assignment-known draws, McDiarmid (c_i = 2 r/l) and E f <= r/sqrt l give
   P(||Ybar - mu|| >= eps r) <= exp(-(eps sqrt l - 1)^2/2) when eps sqrt l >= 1, and l = 0 or
   eps sqrt l < 1 is charged 1; mcdiarmid_linearized bounds both by H e^{-l c} with
   H = e^{w/2}, c = eps^2/2 * w/(1+w) for any w >= 0; Lemma 7's binomial sum then gives
   H (1 - qa + qa e^{-c})^s exactly as for vector Hoeffding.  theory/ takes w = sqrt(2L), the w
   for which at qa = 1 the size is ((1 + sqrt(2L))/eps)^2, the solution of
   exp(-(eps sqrt l - 1)^2/2) = delta/(2k). *)
From Coq Require Import Reals Lra.
From SSAC Require Import Inversion Bounds.
Open Scope R_scope.

Definition mcd_root (k : positive) (delta : R) : R := sqrt (2 * ln (2 * Rpos k / delta)).

Definition mcd_exponent (k : positive) (delta gamma : R) : R :=
  (gamma - 1) ^ 2 / 8 * (mcd_root k delta / (1 + mcd_root k delta)).

Definition mcd_tail (k : positive) (delta gamma q s : R) : R :=
  exp (mcd_root k delta / 2) * Rpower (mixture (q ^ (Pos.to_nat k - 1)) (mcd_exponent k delta gamma)) s.

Definition eta_mcdiarmid (k : positive) (delta gamma q : R) : R :=
  (ln (2 * Rpos k) + mcd_root k delta / 2 + ln (1 / delta))
  / ln (1 / mixture (q ^ (Pos.to_nat k - 1)) (mcd_exponent k delta gamma)).

Lemma mcd_root_pos (k : positive) (delta : R) : 0 < delta < 1 -> 0 < mcd_root k delta.
Proof.
  intros [D0 D1]. pose proof (Rpos_pos k) as K. unfold mcd_root. apply sqrt_lt_R0.
  assert (1 <= Rpos k) by (apply IZR_le; apply Pos2Z.pos_le_pos; apply Pos.le_1_l).
  assert (1 < 2 * Rpos k / delta).
  { apply (Rmult_lt_reg_r delta); [lra |]. unfold Rdiv.
    rewrite Rmult_assoc, Rinv_l by lra. lra. }
  assert (0 < ln (2 * Rpos k / delta)) by (rewrite <- ln_1; apply ln_increasing; lra). lra.
Qed.

Lemma mcd_exponent_pos (k : positive) (delta gamma : R) :
  0 < delta < 1 -> 1 < gamma -> 0 < mcd_exponent k delta gamma.
Proof.
  intros D G. pose proof (mcd_root_pos k delta D). pose proof (margin_exponent_pos gamma G).
  unfold mcd_exponent. apply Rmult_lt_0_compat; [lra |]. apply Rdiv_lt_0_compat; lra.
Qed.

(* The closed form is the exact inversion of its tail: H (1 - qa + qa e^{-c})^s <= delta/(2k)
   with H = e^{sqrt(2L)/2}, c = (gamma-1)^2/8 * sqrt(2L)/(1 + sqrt(2L)), qa = q^{k-1}. *)
Theorem eta_mcdiarmid_inverts (k : positive) (delta gamma q s : R) :
  0 < delta < 1 -> 1 < gamma -> 0 < q <= 1 ->
  (mcd_tail k delta gamma q s <= delta / (2 * Rpos k) <-> eta_mcdiarmid k delta gamma q <= s).
Proof.
  intros D G Q. pose proof (Rpos_pos k). unfold mcd_tail.
  rewrite tail_le_iff.
  - unfold inverse_size, eta_mcdiarmid.
    assert (N : ln (exp (mcd_root k delta / 2) / (delta / (2 * Rpos k)))
                = ln (2 * Rpos k) + mcd_root k delta / 2 + ln (1 / delta)).
    { rewrite ln_div by (try apply exp_pos; apply Rdiv_lt_0_compat; lra).
      rewrite ln_exp, ln_div, ln_one_over by lra. ring. }
    rewrite N. reflexivity.
  - apply exp_pos.
  - apply Rdiv_lt_0_compat; lra.
  - apply mixture_range; [apply q_assign_range; exact Q | apply mcd_exponent_pos; assumption].
Qed.

(* The step that lets McDiarmid's tail into Lemma 7's binomial sum, which needs a tail of the form
   H e^{-l c}: for x = eps sqrt l >= 0 and any w >= 0,
     -(max(0, x - 1))^2 / 2  <=  w/2 - x^2 w / (2 (1 + w)),
   because the difference is (x - 1 - w)^2 / (2 (1 + w)) when x >= 1 and
   w (1 + w - x^2) / (2 (1 + w)) >= 0 when x < 1.  So min(1, e^{-(eps sqrt l - 1)^2/2}) (the tail,
   charged 1 when eps sqrt l < 1 or l = 0) is at most e^{w/2} e^{-l eps^2/2 * w/(1+w)}. *)
Theorem mcdiarmid_linearized (eps l w : R) : 0 <= eps -> 0 <= l -> 0 <= w ->
  exp (- (Rmax 0 (eps * sqrt l - 1)) ^ 2 / 2)
  <= exp (w / 2) * exp (- (l * (eps ^ 2 / 2 * (w / (1 + w))))).
Proof.
  intros E L W. rewrite <- exp_plus.
  enough (Le : - Rmax 0 (eps * sqrt l - 1) ^ 2 / 2
               <= w / 2 + - (l * (eps ^ 2 / 2 * (w / (1 + w))))).
  { destruct Le as [Lt | Eq]; [left; apply exp_increasing; exact Lt | right; rewrite Eq; reflexivity]. }
  pose proof (sqrt_pos l) as S0. pose proof (sqrt_sqrt l L) as S2.
  set (x := eps * sqrt l).
  assert (X0 : 0 <= x) by (apply Rmult_le_pos; assumption).
  assert (X2 : x * x = eps ^ 2 * l).
  { unfold x. replace (eps ^ 2 * l) with (eps * eps * (sqrt l * sqrt l)) by (rewrite S2; ring).
    ring. }
  assert (RHS : w / 2 + - (l * (eps ^ 2 / 2 * (w / (1 + w))))
                = (w * (1 + w) - x * x * w) / (2 * (1 + w))) by (rewrite X2; field; lra).
  rewrite RHS. apply (Rmult_le_reg_r (2 * (1 + w))); [lra |].
  unfold Rdiv at 2. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra.
  unfold Rmax. destruct (Rle_dec 0 (x - 1)) as [Ge | Lt].
  - assert (0 <= (x - 1 - w) ^ 2) by apply pow2_ge_0. nra.
  - assert (x * x < 1) by nra. nra.
Qed.

(* At q = 1 (every draw assignment-known, l = s) the closed form is ((1 + sqrt(2L))/eps)^2 with
   eps = (gamma-1)/2: the exact solution of exp(-(eps sqrt l - 1)^2/2) = delta/(2k), so the
   linearization loses nothing where it is tangent. *)
Theorem eta_mcdiarmid_q1 (k : positive) (delta gamma : R) :
  0 < delta < 1 -> 1 < gamma ->
  eta_mcdiarmid k delta gamma 1 = ((1 + mcd_root k delta) / ((gamma - 1) / 2)) ^ 2.
Proof.
  intros D G. pose proof (Rpos_pos k) as K. pose proof (mcd_root_pos k delta D) as R0.
  pose proof (mcd_exponent_pos k delta gamma D G) as C0.
  assert (R2 : mcd_root k delta * mcd_root k delta = 2 * (ln (2 * Rpos k) + ln (1 / delta))).
  { unfold mcd_root. rewrite sqrt_sqrt.
    - rewrite ln_div, ln_one_over by lra. ring.
    - pose proof (mcd_root_pos k delta D) as P. unfold mcd_root in P.
      destruct (Rle_dec 0 (2 * ln (2 * Rpos k / delta))) as [Le | Nle]; [exact Le |].
      rewrite sqrt_neg_0 in P; lra. }
  unfold eta_mcdiarmid, mixture. rewrite pow1.
  replace (1 - 1 + 1 * exp (- mcd_exponent k delta gamma)) with (exp (- mcd_exponent k delta gamma))
    by ring.
  rewrite (ln_one_over (exp _)) by apply exp_pos. rewrite ln_exp.
  unfold mcd_exponent. set (r := mcd_root k delta) in *.
  replace (ln (2 * Rpos k) + r / 2 + ln (1 / delta)) with (r * r / 2 + r / 2) by lra.
  field. split; lra.
Qed.
