(* Theorem 1 (thm:optimal_cover_ran): the combination of Algorithm 1 and Algorithm 2 outputs the
   oracle's clustering with probability at least 1 - delta (proofs-notes/theorem1-random-weak.md,
   "machine-checked").  The run is Algorithm1.v's model, a function of the randomness w; its bad
   events (a bad Phase 1, a probe whose beta answers are all not-sure) are defined from the run,
   and Algorithm1.recovery_unless_bad proves that a run without them recovers the clustering.
   Proved here: with eta >= eta_random and beta >= beta_union the k iterations' Phase-1 and
   Phase-2 failure bounds sum to at most delta.  The premises are the probability's axioms, the
   statement's own hypotheses on the instance and the parameters, and the two probabilistic
   tails (Lemma 7's and the erasure tail), each cited; nothing else. *)
From Coq Require Import Reals Lra Lia ZArith List Classical_Prop Classical_Pred_Type.
From SSAC Require Import Inversion Bounds Combinatorics Metric.
From SSAC Require BinarySearch Algorithm1.
Open Scope R_scope.

(* The step count of BinarySearch.v is the S of beta_union (theory::search_steps). *)
Lemma search_steps_agree (n : positive) :
  BinarySearch.bit_width (Zpos n) = Pos.to_nat (bit_width n).
Proof.
  unfold BinarySearch.bit_width, bit_width. simpl.
  destruct n as [p | p |]; simpl; [| | reflexivity];
    rewrite <- Z2Nat.inj_pos; f_equal; lia.
Qed.

(* The first iteration that goes wrong: every run that has a bad iteration has a first one. *)
Lemma first_bad (ok : nat -> Prop) (K : nat) :
  (exists i, (i < K)%nat /\ ~ ok i) ->
  exists i, (i < K)%nat /\ ~ ok i /\ forall i', (i' < i)%nat -> ok i'.
Proof.
  intros [i [Hi Hn]]. induction i as [i IH] using lt_wf_ind.
  destruct (classic (forall i', (i' < i)%nat -> ok i')) as [A | B]; [exists i; auto |].
  apply not_all_ex_not in B. destruct B as [i' B]. apply imply_to_and in B.
  destruct B as [Lt Nok]. apply (IH i' Lt); [lia | exact Nok].
Qed.

Section Theorem1.
(* An abstract probability on outcomes Omega (the run's randomness): events are predicates; P is
   monotone, subadditive and gives the empty event 0. *)
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

Let K : nat := Pos.to_nat k.
Let n_rows : nat := Pos.to_nat n.
Let steps : nat := Pos.to_nat (bit_width n).
Let x : R := mixture (q ^ (Pos.to_nat k - 1)) ((gamma - 1) ^ 2 / 8).

(* The instance (Algorithm1.v): rows 0..n-1 with points pt x in a metric space, the oracle's
   clustering into the k clusters (labels below k) with centers mu_t; Definition 2, the
   gamma-margin property. *)
Variable M : MetricSpace.
Variables (label : nat -> nat) (pt center : nat -> M).
Hypothesis label_range : forall x, (x < n_rows)%nat -> (label x < K)%nat.
Hypothesis margin : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma * dist (pt x) (center (label x)) < dist (pt y) (center (label x)).

(* The run's randomness: Phase 1's outcome per iteration, the erasures of Phase 2's answers. *)
Variable phase1 : Omega -> nat -> option (nat * M).
Variable erased : Omega -> nat -> nat -> nat -> bool.

(* The events of the run, by iteration i < k and search step j < steps = bit_width n. *)
Let phase1_bad (i : nat) : Omega -> Prop :=
  Algorithm1.phase1_bad M n_rows label pt center gamma Omega phase1 erased beta i.
Let step_fails (i j : nat) : Omega -> Prop :=
  Algorithm1.step_fails M n_rows label pt Omega phase1 erased beta i j.
Let not_recovered (w : Omega) : Prop :=
  ~ Algorithm1.recovered M n_rows K label pt Omega phase1 erased beta w.
(* Iteration i went well: its center is good and no probe of its search failed. *)
Let iteration_ok (i : nat) (w : Omega) : Prop :=
  ~ phase1_bad i w /\ forall j, (j < steps)%nat -> ~ step_fails i j w.

(* Lemma 7 (lemma:distance_ran) with the repaired pigeonhole step, in iteration i of a run whose
   earlier iterations went well (S_i is then a union of whole clusters: the conditioning of the
   paper's proof).  The event includes Phase 1 giving no p (all cluster-assignment queries
   not-sure), the |Z_p| = 0 term of the bound.  Its proof uses the vector Hoeffding inequality
   (appendix Theorem 5 with the constant of Mackey et al. 2014, Cor. 4.2;
   proofs-notes/vector-hoeffding.md), that abstentions are independent of each other and of the
   points drawn (Definition 5 read as fresh draws, oracle-independence.md), and that a draw's
   assignment is independent of its identity; Combinatorics.pigeonhole_argmax and
   Combinatorics.mixture_exp_pow_le are its deterministic steps. *)
Hypothesis lemma7_tail :
  forall i, (i < K)%nat ->
  P (fun w => (forall i', (i' < i)%nat -> iteration_ok i' w) /\ phase1_bad i w)
    <= (Rpos m + 1) * Rpower x eta.
(* The erasure tail of a search step (Algorithm 2): the j-th probe's beta answers are all
   not-sure with probability at most (1 - q)^beta, abstentions independent (Definition 5 read as
   fresh, independent abstentions; BinarySearch.vote_fail_iff identifies the event). *)
Hypothesis erasure_tail :
  forall i j, (i < K)%nat -> (j < steps)%nat -> P (step_fails i j) <= (1 - q) ^ beta.

(* The deterministic part (Algorithm1.recovery_unless_bad): a run that is not recovered has a
   first iteration that went wrong, by a bad Phase 1 or by a failed probe. *)
Lemma bad_run_has_bad_event (w : Omega) :
  not_recovered w ->
  exists i, (i < K)%nat /\
    (((forall i', (i' < i)%nat -> iteration_ok i' w) /\ phase1_bad i w) \/
     exists j, (j < steps)%nat /\ step_fails i j w).
Proof.
  intro NR.
  assert (Steps : BinarySearch.bit_width (Z.of_nat n_rows) = steps).
  { unfold n_rows, steps. rewrite positive_nat_Z. apply search_steps_agree. }
  destruct (first_bad (fun i => iteration_ok i w) K) as [i [Hi [Bad Before]]].
  { apply NNPP. intro No. apply NR.
    apply (Algorithm1.recovery_unless_bad M n_rows K label pt center gamma).
    - exact gamma_gt_1.
    - intros x0 y0 Hx Hy. apply in_seq in Hx, Hy. apply margin; lia.
    - intros x0 Hx. apply in_seq in Hx. apply label_range. lia.
    - intros i Hi. apply NNPP. intro Ni. apply No. exists i. split; [exact Hi |].
      intros [G1 G2]. apply Ni. split; [exact G1 |]. rewrite Steps. exact G2. }
  exists i. split; [exact Hi |].
  destruct (classic (phase1_bad i w)) as [B | B]; [left; auto |].
  right. apply NNPP. intro No. apply Bad. split; [exact B |].
  intros j Hj F. apply No. exists j. auto.
Qed.

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

(* Theorem 1: P(the output is not the oracle's clustering) <= delta. *)
Theorem theorem1_random_weak : P not_recovered <= delta.
Proof.
  set (first_bad_center := fun i w =>
         (forall i', (i' < i)%nat -> iteration_ok i' w) /\ phase1_bad i w).
  set (iter_bad := fun i w =>
         first_bad_center i w \/ exists j, (j < steps)%nat /\ step_fails i j w).
  assert (Kpos : INR K = Rpos k).
  { unfold K, Rpos. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. }
  assert (Hk : 0 < Rpos k) by apply Rpos_pos.
  eapply Rle_trans.
  { apply P_monotone with (B := fun w => exists i, (i < K)%nat /\ iter_bad i w).
    exact bad_run_has_bad_event. }
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
