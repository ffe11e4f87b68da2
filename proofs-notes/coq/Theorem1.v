(* Theorem 1 (thm:optimal_cover_ran): the combination of Algorithm 1 and Algorithm 2 outputs the
   oracle's clustering with probability at least 1 - delta (proofs-notes/theorem1-random-weak.md,
   "machine-checked").  The run is Algorithm1.v's model, a function of the randomness w; its bad
   events (a bad Phase 1, a probe whose beta answers are all not-sure) are defined from the run,
   and Algorithm1.recovery_unless_bad proves that a run without them recovers the clustering.
   The randomness is concrete (FiniteProb.v): w = (a, t), a the rest of the run's randomness with
   any finite law d1, t Phase 2's erasure coins (Erasure.v: one Bernoulli(1 - q~) coin per query,
   q~ >= q, fresh and independent, self-pairs included), independent of a.  P's properties are
   FiniteProb's theorems and the erasure tail is Erasure.erasure_tail with
   Algorithm1.step_fails_erased.  Proved here: with eta >= eta_random and beta >= beta_union the k
   iterations' Phase-1 and Phase-2 failure bounds sum to at most delta.  The premises are the
   statement's own hypotheses on the instance and the parameters, and Lemma 7's tail
   (`lemma7_tail`), which is about Phase 1: it is a hypothesis here, for any Phase 1 (the function
   phase1 of the randomness); Theorem1Run.v proves it for Phase1Model.v's Phase 1 and states
   `theorem1_random_weak` with vector Hoeffding as its one probabilistic hypothesis. *)
From Coq Require Import Reals Lra Lia ZArith List Classical_Prop Classical_Pred_Type.
From SSAC Require Import Inversion Bounds Combinatorics Metric.
From SSAC Require FiniteProb Erasure BinarySearch Algorithm1.
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

(* The union bound over finitely many events, on the concrete space. *)
Lemma finite_union {A : Type} (d : FiniteProb.Dist A) (N : nat) (E : nat -> A -> bool) :
  FiniteProb.P d (fun w => existsb (fun i => E i w) (seq 0 N)) <=
  rsum N (fun i => FiniteProb.P d (E i)).
Proof.
  induction N as [| N IH]; simpl rsum.
  - rewrite <- (FiniteProb.P_empty d). apply FiniteProb.P_monotone. simpl. auto.
  - eapply Rle_trans; [| apply Rplus_le_compat_r, IH].
    eapply Rle_trans; [| apply FiniteProb.P_subadditive].
    apply FiniteProb.P_monotone. intros w H.
    rewrite seq_S, existsb_app in H. simpl in H. rewrite Bool.orb_false_r in H. exact H.
Qed.

Section Theorem1.
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

(* The run's randomness on the concrete space: w = (a, t); a ~ d1 (Phase 1's draws, queries and
   anchor draws: any finite law), t ~ Erasure.erasure_law (Phase 2's erasure coins, one per query,
   not-sure with probability 1 - q~ for a q~ >= q), independent of a. *)
Variable A1 : Type.
Variable d1 : FiniteProb.Dist A1.
Variable qt : R.
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis qt_ge_q : q <= qt.
Let Omega : Type := (A1 * Erasure.Table)%type.
Let law : FiniteProb.Dist Omega :=
  FiniteProb.prod d1 (Erasure.erasure_law K steps beta qt qt_range).
Let P := FiniteProb.P law.

(* Phase 1's outcome per iteration (any function of the randomness: it may read S_i through the
   coins of earlier iterations); the b-th answer of the j-th probe of iteration i is erased when
   coin (i, j, b) is true. *)
Variable phase1 : Omega -> nat -> option (nat * M).
Let erased (w : Omega) (i j b : nat) : bool := Erasure.erased_at (snd w) i j b.

(* The events of the run, by iteration i < k and search step j < steps = bit_width n, as booleans
   (Algorithm1.v proves each equivalent to its proposition). *)
Let phase1_bad (i : nat) : Omega -> bool :=
  Algorithm1.phase1_bad_b M n_rows label pt center gamma Omega phase1 erased beta i.
Let step_fails (i j : nat) : Omega -> bool :=
  Algorithm1.step_fails_b M n_rows label pt Omega phase1 erased beta i j.
Let not_recovered (w : Omega) : bool :=
  negb (Algorithm1.recovered_b M n_rows K label pt Omega phase1 erased beta w).
(* Iteration i went well: its center is good and no probe of its search failed. *)
Let iteration_ok (i : nat) (w : Omega) : bool :=
  andb (negb (phase1_bad i w)) (forallb (fun j => negb (step_fails i j w)) (seq 0 steps)).

(* Lemma 7 (lemma:distance_ran) with the repaired pigeonhole step, in iteration i of a run whose
   earlier iterations went well (S_i is then a union of whole clusters: the conditioning of the
   paper's proof).  The event includes Phase 1 giving no p (all cluster-assignment queries
   not-sure), the |Z_p| = 0 term of the bound.  Its proof uses the vector Hoeffding inequality
   (appendix Theorem 5 with the constant of Mackey et al. 2014, Cor. 4.2;
   proofs-notes/vector-hoeffding.md), that abstentions are independent of each other and of the
   points drawn (Definition 5 read as fresh draws, oracle-independence.md), and, given the draws'
   clusters and all coins, that the identities within a cluster are i.i.d. uniform on it (which
   fails under self-pairs=off); Combinatorics.pigeonhole_argmax and
   Combinatorics.mixture_exp_pow_le are its deterministic steps.  It is the only probabilistic
   hypothesis left, and it holds only in Euclidean R^m with mu_t the mean (vector Hoeffding). *)
Hypothesis lemma7_tail :
  forall i, (i < K)%nat ->
  P (fun w => andb (forallb (fun i' => iteration_ok i' w) (seq 0 i)) (phase1_bad i w))
    <= (Rpos m + 1) * Rpower x eta.

(* The erasure tail of a search step (Algorithm 2), proved: the j-th probe's beta answers are all
   not-sure with probability at most (1 - q)^beta (Erasure.erasure_tail, with the containment
   Algorithm1.step_fails_erased). *)
Lemma erasure_tail (i j : nat) :
  (i < K)%nat -> (j < steps)%nat -> P (step_fails i j) <= (1 - q) ^ beta.
Proof.
  intros Hi Hj. unfold P, law.
  apply (Erasure.erasure_tail K steps beta q qt qt_range qt_ge_q d1 (step_fails i j) i j Hi Hj).
  intros w F b Hb. unfold step_fails, Algorithm1.step_fails_b in F.
  apply (Algorithm1.failed_probe_b_iff M n_rows) in F.
  exact (Algorithm1.step_fails_erased M n_rows label pt Omega phase1 erased beta i j w F b Hb).
Qed.

(* The deterministic part (Algorithm1.recovery_unless_bad): a run that is not recovered has a
   first iteration that went wrong, by a bad Phase 1 or by a failed probe. *)
Lemma iteration_ok_iff (i : nat) (w : Omega) :
  iteration_ok i w = true <->
  ~ Algorithm1.phase1_bad M n_rows label pt center gamma Omega phase1 erased beta i w /\
  forall j, (j < steps)%nat ->
    ~ Algorithm1.step_fails M n_rows label pt Omega phase1 erased beta i j w.
Proof.
  unfold iteration_ok, phase1_bad, step_fails, Algorithm1.phase1_bad_b, Algorithm1.step_fails_b,
    Algorithm1.phase1_bad, Algorithm1.step_fails.
  rewrite Bool.andb_true_iff, Bool.negb_true_iff, forallb_forall.
  split; intros [H1 H2]; split.
  - rewrite <- Algorithm1.bad_center_b_iff, H1. discriminate.
  - intros j Hj F. apply (Algorithm1.failed_probe_b_iff M n_rows) in F.
    specialize (H2 j ltac:(apply in_seq; lia)). rewrite F in H2. discriminate.
  - apply Bool.not_true_is_false. rewrite Algorithm1.bad_center_b_iff. exact H1.
  - intros j Hj. apply in_seq in Hj. apply Bool.negb_true_iff, Bool.not_true_is_false.
    rewrite (Algorithm1.failed_probe_b_iff M n_rows). apply H2. lia.
Qed.

Lemma bad_run_has_bad_event (w : Omega) :
  not_recovered w = true ->
  exists i, (i < K)%nat /\
    ((andb (forallb (fun i' => iteration_ok i' w) (seq 0 i)) (phase1_bad i w) = true) \/
     exists j, (j < steps)%nat /\ step_fails i j w = true).
Proof.
  intro NR. unfold not_recovered in NR. apply Bool.negb_true_iff, Bool.not_true_iff_false in NR.
  rewrite Algorithm1.recovered_b_iff in NR.
  assert (Steps : BinarySearch.bit_width (Z.of_nat n_rows) = steps).
  { unfold n_rows, steps. rewrite positive_nat_Z. apply search_steps_agree. }
  destruct (first_bad (fun i => iteration_ok i w = true) K) as [i [Hi [Bad Before]]].
  { apply NNPP. intro No. apply NR.
    apply (Algorithm1.recovery_unless_bad M n_rows K label pt center gamma).
    - exact gamma_gt_1.
    - intros x0 y0 Hx Hy. apply in_seq in Hx, Hy. apply margin; lia.
    - intros x0 Hx. apply in_seq in Hx. apply label_range. lia.
    - intros i Hi. rewrite Steps. apply iteration_ok_iff. apply NNPP. intro Ni. apply No.
      exists i. auto. }
  exists i. split; [exact Hi |].
  destruct (phase1_bad i w) eqn:B.
  - left. rewrite Bool.andb_true_r. apply forallb_forall. intros i' Hi'. apply in_seq in Hi'.
    apply Before. lia.
  - right. apply NNPP. intro No. apply Bad. apply iteration_ok_iff. split.
    + unfold phase1_bad, Algorithm1.phase1_bad_b in B. unfold Algorithm1.phase1_bad.
      rewrite <- Algorithm1.bad_center_b_iff, B. discriminate.
    + intros j Hj F. apply No. exists j. split; [exact Hj |].
      unfold step_fails, Algorithm1.step_fails_b. apply (Algorithm1.failed_probe_b_iff M n_rows). exact F.
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
Theorem theorem1_random_weak_given_lemma7 : P not_recovered <= delta.
Proof.
  set (first_bad_center := fun i w =>
         andb (forallb (fun i' => iteration_ok i' w) (seq 0 i)) (phase1_bad i w)).
  set (iter_bad := fun i w =>
         orb (first_bad_center i w) (existsb (fun j => step_fails i j w) (seq 0 steps))).
  assert (Kpos : INR K = Rpos k).
  { unfold K, Rpos. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. }
  assert (Hk : 0 < Rpos k) by apply Rpos_pos.
  eapply Rle_trans.
  { apply FiniteProb.P_monotone with
      (e2 := fun w => existsb (fun i => iter_bad i w) (seq 0 K)).
    intros w NR. destruct (bad_run_has_bad_event w NR) as [i [Hi B]].
    apply existsb_exists. exists i. split; [apply in_seq; lia |].
    unfold iter_bad. apply Bool.orb_true_iff. destruct B as [B | [j [Hj B]]]; [left; exact B |].
    right. apply existsb_exists. exists j. split; [apply in_seq; lia | exact B]. }
  eapply Rle_trans; [apply finite_union |].
  eapply Rle_trans.
  { apply (rsum_le K _ (fun _ => delta / (2 * Rpos k) + delta / (2 * Rpos k))).
    intros i Hi. unfold iter_bad.
    eapply Rle_trans; [apply FiniteProb.P_subadditive |]. apply Rplus_le_compat.
    - eapply Rle_trans; [apply lemma7_tail; exact Hi | apply phase1_target].
    - eapply Rle_trans; [apply finite_union |].
      eapply Rle_trans; [apply (rsum_le steps _ (fun _ => (1 - q) ^ beta)) |].
      + intros j Hj. apply erasure_tail; assumption.
      + rewrite rsum_const. apply phase2_target. }
  rewrite rsum_const, Kpos. right. field. lra.
Qed.
End Theorem1.
