(* The combinatorial and arithmetic steps of Theorem 1's proof and of Corollary 8
   (proofs-notes/theorem1-random-weak.md, corollary1-complexity.md). *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
Open Scope R_scope.

(* ---- The repaired pigeonhole step: |Z_p| >= A/k ------------------------------------------
   Of the A assignment-known draws, split by cluster into counts c_1..c_k, the argmax p has
   c_p >= A/k: in integers, k * max >= sum. *)
Lemma sum_le_length_max (l : list nat) : (list_sum l <= length l * list_max l)%nat.
Proof.
  induction l as [| c l IH]; simpl; [lia |].
  pose proof (Nat.le_max_l c (list_max l)). pose proof (Nat.le_max_r c (list_max l)).
  assert (length l * list_max l <= length l * Nat.max c (list_max l))%nat
    by (apply Nat.mul_le_mono_l; lia).
  lia.
Qed.

Theorem pigeonhole_argmax (counts : list nat) (k A : nat) :
  length counts = k -> list_sum counts = A -> (A <= k * list_max counts)%nat.
Proof. intros <- <-. apply sum_le_length_max. Qed.

(* ---- r = ceil(k eta) ---------------------------------------------------------------------
   Algorithm 1, line 1: r is the least integer with r >= k eta (computed from the exact product,
   Params::sample_size); then r draws give an average of at least eta per cluster. *)
Theorem sample_size_ceiling (k : nat) (eta : R) (r : Z) :
  IZR r - 1 < INR k * eta <= IZR r ->
  INR k * eta <= IZR r /\ (forall r' : Z, INR k * eta <= IZR r' -> (r <= r')%Z).
Proof.
  intros [Lo Hi]. split; [exact Hi |]. intros r' H.
  destruct (Z_le_gt_dec r r') as [L | L]; [exact L |].
  exfalso. assert (IZR r' <= IZR r - 1).
  { rewrite <- minus_IZR. apply IZR_le. lia. }
  lra.
Qed.

(* ---- Jensen's step: (1 - a + a w)^k <= 1 - a + a w^k --------------------------------------
   With w = e^{-eps^2/(2k)} this turns the bound over |Z_p| >= A/k, A ~ Bin(r, a), r = k eta,
   into the theorem's (1 - a + a e^{-eps^2/2})^eta: the repair keeps eta. *)
Theorem mixture_pow_le (a w : R) (k : nat) :
  0 <= a <= 1 -> 0 <= w <= 1 -> (1 - a + a * w) ^ k <= 1 - a + a * w ^ k.
Proof.
  intros [A0 A1] [W0 W1]. induction k as [| k IH]; [simpl; lra |].
  assert (Pk0 : 0 <= w ^ k) by (apply pow_le; lra).
  assert (Pk1 : w ^ k <= 1) by (rewrite <- (pow1 k); apply pow_incr; lra).
  assert (M0 : 0 <= 1 - a + a * w) by nra.
  simpl. (* (1-a+aw)^(k+1) <= (1-a+aw^k)(1-a+aw) and the gap is a(1-a)(1-w)(1-w^k) >= 0 *)
  apply Rle_trans with ((1 - a + a * w) * (1 - a + a * w ^ k)).
  - apply Rmult_le_compat_l; assumption.
  - assert (0 <= a * (1 - a) * ((1 - w) * (1 - w ^ k))).
    { apply Rmult_le_pos; [nra |]. apply Rmult_le_pos; lra. }
    nra.
Qed.

Corollary mixture_exp_pow_le (a c : R) (k : nat) :
  0 <= a <= 1 -> 0 <= c -> (1 <= k)%nat ->
  (1 - a + a * exp (- (c / INR k))) ^ k <= 1 - a + a * exp (- c).
Proof.
  intros Ha Hc Hk.
  assert (Kp : 0 < INR k) by (apply lt_0_INR; lia).
  assert (E : exp (- (c / INR k)) ^ k = exp (- c)).
  { rewrite <- Rpower_pow by apply exp_pos. unfold Rpower. rewrite ln_exp. f_equal. field. lra. }
  rewrite <- E. apply mixture_pow_le; [exact Ha |].
  split; [left; apply exp_pos |]. rewrite <- exp_0.
  assert (0 <= c / INR k) by (unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  destruct (Req_dec (c / INR k) 0) as [Z | Z].
  - rewrite Z, Ropp_0. lra.
  - left. apply exp_increasing. lra.
Qed.

(* ---- The union bound over k iterations and two phases sums to delta --------------------- *)
Theorem union_budget (k : nat) (delta : R) (phase1 phase2 : list R) :
  (1 <= k)%nat -> length phase1 = k -> length phase2 = k ->
  Forall (fun p => p <= delta / (2 * INR k)) phase1 ->
  Forall (fun p => p <= delta / (2 * INR k)) phase2 ->
  fold_right Rplus 0 phase1 + fold_right Rplus 0 phase2 <= delta.
Proof.
  intros Hk L1 L2 F1 F2.
  assert (Kp : 0 < INR k) by (apply lt_0_INR; lia).
  assert (S : forall l : list R, Forall (fun p => p <= delta / (2 * INR k)) l ->
              fold_right Rplus 0 l <= INR (length l) * (delta / (2 * INR k))).
  { induction l as [| x l IH]; intro F; cbn [fold_right length]; [simpl; lra |].
    inversion F; subst. specialize (IH H2). rewrite S_INR. lra. }
  pose proof (S _ F1) as S1. pose proof (S _ F2) as S2. rewrite L1 in S1. rewrite L2 in S2.
  replace delta with (INR k * (delta / (2 * INR k)) + INR k * (delta / (2 * INR k)))
    by (field; lra).
  lra.
Qed.

(* ---- Corollary 8's query count, k^3 eta: exact integers -----------------------------------
   Per iteration at most r = k eta cluster-assignment queries of at most k same-cluster queries
   each, and at most S search steps of beta queries each (theory::corollary1_counts). *)
Theorem corollary8_queries (k eta beta S : nat) (phase1 phase2 : nat -> nat) :
  (forall i, (phase1 i <= k * (k * eta))%nat) -> (forall i, (phase2 i <= beta * S)%nat) ->
  (fold_right plus 0 (map (fun i => phase1 i + phase2 i) (seq 0 k))
   <= k * (k * (k * eta) + beta * S))%nat.
Proof.
  intros H1 H2.
  assert (G : forall l, (fold_right plus 0 (map (fun i => phase1 i + phase2 i) l)
                          <= length l * (k * (k * eta) + beta * S))%nat).
  { induction l as [| i l IH]; simpl; [lia |]. specialize (H1 i). specialize (H2 i). lia. }
  specialize (G (seq 0 k)). rewrite seq_length in G. exact G.
Qed.
