(* Theorem 1 (thm:optimal_cover_ran) as a union bound over an abstract probability, with every
   probabilistic ingredient a named hypothesis (proofs-notes/theorem1-random-weak.md,
   "machine-checked").  Proved here: with eta >= eta_random and beta >= beta_union the k
   iterations' Phase-1 and Phase-2 failure bounds sum to at most delta, so the probability of not
   recovering the clustering is at most delta.  Not proved here: the hypotheses, each cited. *)
From Coq Require Import Reals Lra Lia ZArith.
From SSAC Require Import Inversion Bounds Combinatorics.
From SSAC Require BinarySearch.
Open Scope R_scope.

(* The step count of BinarySearch.v is the S of beta_union (theory::search_steps). *)
Lemma search_steps_agree (n : positive) :
  BinarySearch.bit_width (Zpos n) = Pos.to_nat (bit_width n).
Proof.
  unfold BinarySearch.bit_width, bit_width. simpl.
  destruct n as [p | p |]; simpl; [| | reflexivity];
    rewrite <- Z2Nat.inj_pos; f_equal; lia.
Qed.

Section Theorem1.
(* An abstract probability on outcomes Omega: events are predicates; P is monotone, subadditive
   and gives the empty event 0. *)
Variable Omega : Type.
Variable P : (Omega -> Prop) -> R.
Hypothesis P_monotone : forall A B : Omega -> Prop, (forall w, A w -> B w) -> P A <= P B.
Hypothesis P_subadditive :
  forall A B : Omega -> Prop, P (fun w => A w \/ B w) <= P A + P B.
Hypothesis P_empty : P (fun _ => False) = 0.

(* Parameters (Theorem 1): k clusters, dimension m, n points, delta, gamma, q; eta and beta. *)
Variables (k m n : positive) (delta gamma q eta : R) (beta : nat).
Hypothesis delta_pos : 0 < delta.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis q_range : 0 < q < 1.
Hypothesis eta_enough : eta_random k m delta gamma q <= eta.
Hypothesis beta_enough : beta_union k n delta q <= INR beta.

Let steps : nat := Pos.to_nat (bit_width n).
Let x : R := mixture (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8).

(* Events of a run, by iteration i < k (and search step j < steps = bit_width n). *)
Variable phase1_bad : nat -> Omega -> Prop.    (* d(mu'_p, mu_p) > eps r(C_p) in iteration i *)
Variable step_fails : nat -> nat -> Omega -> Prop. (* step j of iteration i: all beta not-sure *)
Variable not_recovered : Omega -> Prop.        (* the output is not the oracle's clustering *)

(* Lemma 7 (lemma:distance_ran) with the repaired pigeonhole step: its proof uses the vector
   Hoeffding inequality (appendix Theorem 5 with the constant of Mackey et al. 2014, Cor. 4.2;
   proofs-notes/vector-hoeffding.md), that abstentions are independent of each other and of the
   points drawn (Definition 5 read as fresh draws, oracle-independence.md), and that a draw's
   assignment is independent of its identity; Combinatorics.pigeonhole_argmax and
   Combinatorics.mixture_exp_pow_le are its deterministic steps. *)
Hypothesis lemma7_tail :
  forall i, (i < Pos.to_nat k)%nat -> P (phase1_bad i) <= (Rpos m + 1) * Rpower x eta.
(* The erasure tail of a search step (Algorithm 2): all beta answers are not-sure with
   probability (1 - q)^beta, abstentions independent (BinarySearch.vote_fail_iff identifies the
   event). *)
Hypothesis erasure_tail :
  forall i j, (i < Pos.to_nat k)%nat -> (j < steps)%nat -> P (step_fails i j) <= (1 - q) ^ beta.
(* The deterministic part: a run in which no iteration's Phase 1 is bad and no search step
   fails recovers the clustering.  Its pieces are proved (CloseCenter.close_center_le: a good
   center puts C_p first in the order; BinarySearch.binary_search_correct and
   binary_search_failed_iff: the search then returns the boundary within S steps); their
   composition over the run of Algorithm 1 is not formalised, so it stays a hypothesis. *)
Hypothesis recovery_unless_bad :
  forall w, not_recovered w ->
  exists i, (i < Pos.to_nat k)%nat /\
    (phase1_bad i w \/ exists j, (j < steps)%nat /\ step_fails i j w).

Fixpoint rsum (N : nat) (f : nat -> R) : R :=
  match N with O => 0 | S N' => rsum N' f + f N' end.

Lemma rsum_le (N : nat) (f g : nat -> R) :
  (forall i, (i < N)%nat -> f i <= g i) -> rsum N f <= rsum N g.
Proof.
  induction N as [| N IH]; intro H; simpl; [lra |].
  pose proof (H N ltac:(lia)). assert (rsum N f <= rsum N g) by (apply IH; intros; apply H; lia).
  lra.
Qed.

Lemma rsum_const (N : nat) (c : R) : rsum N (fun _ => c) = INR N * c.
Proof. induction N as [| N IH]; simpl rsum; [simpl; ring |]. rewrite IH, S_INR. ring. Qed.

(* The union bound over finitely many events. *)
Lemma finite_union (N : nat) (E : nat -> Omega -> Prop) :
  P (fun w => exists i, (i < N)%nat /\ E i w) <= rsum N (fun i => P (E i)).
Proof.
  induction N as [| N IH]; simpl.
  - rewrite <- P_empty. apply P_monotone. intros w [i [Hi _]]. lia.
  - eapply Rle_trans; [| apply Rplus_le_compat_r, IH].
    eapply Rle_trans; [| apply P_subadditive].
    apply P_monotone. intros w [i [Hi Ei]].
    destruct (Nat.eq_dec i N) as [-> | Ne]; [right; exact Ei | left; exists i; split; [lia | exact Ei]].
Qed.

(* The two targets: each iteration's Phase 1 and Phase 2 fail with probability <= delta/(2k). *)
Lemma phase1_target : (Rpos m + 1) * Rpower x eta <= delta / (2 * Rpos k).
Proof. apply eta_random_inverts; auto. split; lra. Qed.

Lemma phase2_target : INR steps * (1 - q) ^ beta <= delta / (2 * Rpos k).
Proof.
  assert (E : INR steps = Rpos (bit_width n)).
  { unfold steps, Rpos. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. }
  rewrite E, <- Rpower_pow by lra. apply beta_union_inverts; auto.
Qed.

(* Theorem 1: P(the clustering is not recovered) <= delta. *)
Theorem theorem1_random_weak : P not_recovered <= delta.
Proof.
  set (K := Pos.to_nat k).
  set (iter_bad := fun i w => phase1_bad i w \/ exists j, (j < steps)%nat /\ step_fails i j w).
  assert (Kpos : INR K = Rpos k).
  { unfold K, Rpos. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. }
  assert (Hk : 0 < Rpos k) by apply Rpos_pos.
  eapply Rle_trans.
  { apply P_monotone with (B := fun w => exists i, (i < K)%nat /\ iter_bad i w).
    exact recovery_unless_bad. }
  eapply Rle_trans; [apply finite_union |].
  eapply Rle_trans.
  { apply (rsum_le K _ (fun _ => delta / (2 * Rpos k) + delta / (2 * Rpos k))).
    intros i Hi. unfold iter_bad.
    eapply Rle_trans; [apply P_subadditive |]. apply Rplus_le_compat.
    - eapply Rle_trans; [apply lemma7_tail; exact Hi | apply phase1_target].
    - eapply Rle_trans; [apply finite_union |].
      eapply Rle_trans; [apply (rsum_le steps _ (fun _ => (1 - q) ^ beta)) |].
      + intros j Hj. apply erasure_tail; assumption.
      + rewrite rsum_const. apply phase2_target. }
  rewrite rsum_const, Kpos. right. field. lra.
Qed.
End Theorem1.
