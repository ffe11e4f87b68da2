(* Theorem 1 (thm:optimal_cover_ran) for the run with Phase1Model.v's Phase 1: Lemma 7's tail for
   the run (Theorem1.v's hypothesis lemma7_tail, Theorem1McDiarmid.v's lemma7_tail_mcdiarmid) is
   derived here from a tail of the uniform law on one cluster (Phase1Tail.phase1_tail), so that
   - `theorem1_random_weak` has one probabilistic hypothesis, `vector_hoeffding` (below), and
   - `theorem1_random_weak_mcdiarmid` has none (MeanTail.v's proved tail in its place).
   The run: points in R^m with the Euclidean distance (`Euclid`), mu_t the mean of C_t and
   r(C_t) its radius about it; the randomness w = (a, t), t Phase 2's erasure table (Erasure.v),
   a one block per iteration of r draws, each a u uniform below N = n! (read modulo |S_i|: a
   uniform position of S_i whatever S_i is, Phase1Tail.uniform_mod) and k coins (S4); Phase 1 of
   iteration i is Phase1Model.phase1_pick on S_i and the clusters known after iteration i-1.  The
   iteration-i block is independent of the earlier blocks and of t, and S_i and the known clusters
   are functions of those (`state`), so P(earlier iterations good and Phase 1 of i bad) is at
   most the per-S_i bound of Phase1Tail, S_i being then a union of whole clusters. *)
From Coq Require Import Reals Lra Lia List Permutation Classical_Prop.
Import ListNotations.
From SSAC Require Import FiniteProb Phase1 Phase1Model Phase1Tail MeanTail Metric Bounds.
From SSAC Require Pinelis.
From SSAC Require Algorithm1 Erasure Theorem1 Hoeffding BoundsMcDiarmid Theorem1McDiarmid.
Open Scope R_scope.

(* ---- R^m with the Euclidean distance (vectors nat -> R, coordinates 0 .. m-1) -------------- *)
Definition Euclid (m : nat) : MetricSpace.
Proof.
  refine {| carrier := nat -> R; dist := fun x y => vnorm m (fun j => x j - y j) |}.
  - intro x. rewrite (vnorm_ext m _ (fun _ => 0)) by (intros; ring). unfold vnorm.
    rewrite nsq_zero. apply sqrt_0.
  - intros x y. rewrite (vnorm_ext m (fun j => x j - y j) (fun j => (-1) * (y j - x j)))
      by (intros; ring).
    rewrite vnorm_scale. replace (Rabs (-1)) with 1 by (rewrite Rabs_left; lra). ring.
  - intros x y z.
    rewrite (vnorm_ext m (fun j => x j - z j) (fun j => (x j - y j) + (y j - z j))) by (intros; ring).
    apply vnorm_triangle.
Defined.

(* ---- The one statement not proved: vector Hoeffding ---------------------------------------- *)
(* For a finite nonempty multiset C of points of R^m with mean mu and radius rho (the largest
   distance to mu), l >= 1 draws with replacement (the uniform law on C^l, FiniteProb.uniform_seq)
   have a mean farther than eps rho from mu with probability at most (m+1) e^{-l eps^2/2}.  This is
   the paper's appendix Theorem 5 with the constant of Mackey et al. 2014 (Ann. Probab. 42(3),
   "Matrix concentration inequalities via the method of exchangeable pairs"), Corollary 4.2
   (matrix Hoeffding through the Hermitian dilation of a vector); proofs-notes/vector-hoeffding.md.
   It is the only statement of Theorem 1 that is not proved in Coq (its proof needs matrix
   exponentials); theorem1_random_weak_mcdiarmid avoids it with McDiarmid's inequality, proved. *)
Definition vector_hoeffding : Prop :=
  forall (C : list (nat -> R)) (HC : C <> []) (m l : nat) (rho eps : R),
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) ->
  (1 <= l)%nat -> 0 <= eps ->
  P (uniform_seq C HC l) (fun s => Rltb (eps * rho) (vnorm m (fun j => vmean s j - vmean C j)))
    <= (INR m + 1) * exp (- (INR l * (eps ^ 2 / 2))).

(* Vector Hoeffding is a theorem: Pinelis's inequality (Pinelis.vector_pinelis) gives the factor 2,
   and 2 <= m + 1 for m >= 1; for m = 0 every norm is 0 and the event is empty. *)
Theorem vector_hoeffding_holds : vector_hoeffding.
Proof.
  intros C HC m l rho eps Rad Hl Heps. destruct m as [| m'].
  - assert (Ex : exists c0, In c0 C)
      by (destruct C as [| c C']; [contradiction | exists c; left; reflexivity]).
    destruct Ex as [c0 Hc0].
    assert (R0 : 0 <= rho) by (eapply Rle_trans; [apply vnorm_nonneg | apply (Rad c0 Hc0)]).
    apply Rle_trans with 0; [| apply Rmult_le_pos; [simpl; lra | left; apply exp_pos]].
    rewrite <- (P_empty (uniform_seq C HC l)). apply P_monotone. intros s Ev.
    apply Rltb_true in Ev. unfold vnorm, nsq, dot in Ev. simpl sum_to in Ev. rewrite sqrt_0 in Ev.
    pose proof (Rmult_le_pos eps rho Heps R0). lra.
  - eapply Rle_trans; [apply Pinelis.vector_pinelis; assumption |].
    apply Rmult_le_compat_r; [left; apply exp_pos |]. rewrite S_INR. pose proof (pos_INR m'). lra.
Qed.

(* ---- Independence of one block of i.i.d. blocks -------------------------------------------- *)
Definition insert_at {A} (i : nat) (s : list A) (x : A) : list A := firstn i s ++ x :: skipn i s.

(* If, whatever the other K - 1 blocks (on the support), the average over block i of F is at most
   B, then the average of F is at most B. *)
Lemma E_iid_block {A} (d : Dist A) (K : nat) (F : list A -> R) (B : R) (i : nat) :
  (i < K)%nat ->
  (forall s, length s = (K - 1)%nat -> (forall a, In a s -> exists wa, In (wa, a) (outcomes d)) ->
     E d (fun x => F (insert_at i s x)) <= B) ->
  E (iid d K) F <= B.
Proof.
  revert F i. induction K as [| K IH]; intros F i Hi HB; [lia |].
  rewrite E_iid_S. destruct i as [| i].
  - rewrite E_swap. rewrite <- (E_const (iid d K) B). apply E_le_support. intros w s Hs.
    apply (HB s); [rewrite (iid_length _ _ _ _ Hs); lia | exact (in_iid_elem _ _ _ _ Hs)].
  - rewrite <- (E_const d B). apply E_le_support. intros wa a Ha.
    apply (IH (fun s => F (a :: s)) i); [lia |]. intros s Ls Hs.
    apply (HB (a :: s)); [simpl; lia |]. intros y [<- | Hy]; [exists wa; exact Ha | exact (Hs y Hy)].
Qed.

Lemma firstn_In_sub {A} (i : nat) (s : list A) (b : A) : In b (firstn i s) -> In b s.
Proof. intro H. rewrite <- (firstn_skipn i s). apply in_or_app. left. exact H. Qed.

Lemma skipn_In_sub {A} (i : nat) (s : list A) (b : A) : In b (skipn i s) -> In b s.
Proof. intro H. rewrite <- (firstn_skipn i s). apply in_or_app. right. exact H. Qed.

Lemma nth_insert_at {A} (i j : nat) (s : list A) (x d : A) :
  (j < i)%nat -> (i <= length s)%nat -> nth j (insert_at i s x) d = nth j s d.
Proof.
  intros Hj Hi. unfold insert_at. rewrite app_nth1 by (rewrite firstn_length; lia).
  rewrite <- (firstn_skipn i s) at 2. rewrite app_nth1 by (rewrite firstn_length; lia).
  reflexivity.
Qed.

Lemma nth_insert_at_eq {A} (i : nat) (s : list A) (x d : A) :
  (i <= length s)%nat -> nth i (insert_at i s x) d = x.
Proof.
  intro Hi. unfold insert_at. rewrite app_nth2 by (rewrite firstn_length; lia).
  rewrite firstn_length, Nat.min_l, Nat.sub_diag by lia. reflexivity.
Qed.

(* ---- The uniform law does not see the order of its list ------------------------------------ *)
Lemma uniform_perm {A} (l l' : list A) (H : l <> []) (H' : l' <> []) :
  Permutation l l' -> same_law (uniform l H) (uniform l' H').
Proof.
  intros Pm f. rewrite !E_uniform, (Permutation_length Pm). f_equal.
  change (sumR l f = sumR l' f). unfold sumR. clear H H'.
  induction Pm; simpl; [lra | rewrite IHPm; lra | lra | rewrite IHPm1, IHPm2; lra].
Qed.

(* |S| divides n! for 1 <= |S| <= n. *)
Lemma divide_fact (s n : nat) : (1 <= s <= n)%nat -> Nat.divide s (fact n).
Proof.
  induction n as [| n IH]; intro Hs; [lia |]. simpl fact.
  destruct (Nat.eq_dec s (Datatypes.S n)) as [-> | N].
  - exists (fact n). lia.
  - destruct (IH ltac:(lia)) as [q Hq]. exists (q + n * q)%nat. rewrite Hq. lia.
Qed.

(* ---- The run -------------------------------------------------------------------------------- *)
Section Run.
(* k clusters, n rows in R^m, gamma the margin, beta answers per probe, r draws per iteration,
   elim S2's elimination; Definition 4's coins clear with probability q~ (Definition 5). *)
Variables (k n : positive) (m : nat) (gamma : R) (beta : nat) (elim : bool) (r : nat).
Variable qt : R.
Hypothesis qt_range : 0 <= qt <= 1.
Let K : nat := Pos.to_nat k.
Let n_rows : nat := Pos.to_nat n.
Let steps : nat := Pos.to_nat (bit_width n).
Hypothesis k_elim : (2 <= K)%nat \/ elim = true.

(* The instance: the oracle's labels below k, the points; mu_t the mean of C_t. *)
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < n_rows)%nat -> (label x < K)%nat.
Let M : MetricSpace := Euclid m.
Definition cluster_rows (t : nat) : list nat := filter (fun x => Nat.eqb (label x) t) (seq 0 n_rows).
Definition center_of (t : nat) : nat -> R := vmean (map pt (cluster_rows t)).

(* The randomness: one block of r draws per iteration, and Phase 2's erasure table. *)
Definition Blocks : Type := list (list (nat * list bool)).
Let Omega : Type := (Blocks * Erasure.Table)%type.
Definition block_law : Dist (list (nat * list bool)) := iid (draw_law K qt qt_range (fact n_rows)) r.
Let erased (w : Omega) (i j b : nat) : bool := Erasure.erased_at (snd w) i j b.

(* Phase 1 of iteration i from (S_i, the clusters known): Phase1Model on block i's positions. *)
Definition pick_at (w : Omega) (i : nat) (st : list nat * list nat) : option (nat * (nat -> R)) :=
  phase1_pick K elim label (fst st) pt (snd st) (positions (length (fst st)) (nth i (fst w) [])).

(* S_i and the clusters known at the start of iteration i. *)
Fixpoint state (w : Omega) (i : nat) : list nat * list nat :=
  match i with
  | O => (seq 0 n_rows, [])
  | Datatypes.S i' =>
      let st := state w i' in
      (fst (Algorithm1.iteration M label pt Omega (fun _ _ => pick_at w i' st) erased beta w i'
              (fst st)),
       phase1_known K elim label (fst st) (snd st) (positions (length (fst st)) (nth i' (fst w) [])))
  end.

Definition phase1_run (w : Omega) (i : nat) : option (nat * (nat -> R)) := pick_at w i (state w i).

Lemma remaining_state (w : Omega) (i : nat) :
  Algorithm1.remaining M n_rows label pt Omega phase1_run erased beta w i = fst (state w i).
Proof.
  induction i as [| i IH]; [reflexivity |]. simpl. rewrite IH. try reflexivity.
Qed.

(* Iteration i reads the randomness only through Phase 1's outcome and the erasure table. *)
Lemma iteration_table (ph : option (nat * (nat -> R))) (a a' : Blocks) (t : Erasure.Table)
    (i : nat) (S : list nat) :
  Algorithm1.iteration M label pt Omega (fun _ _ => ph) erased beta (a, t) i S =
  Algorithm1.iteration M label pt Omega (fun _ _ => ph) erased beta (a', t) i S.
Proof. reflexivity. Qed.

(* S_i and the clusters known do not depend on blocks i, i+1, ... *)
Lemma state_insert (i : nat) (s : Blocks) (x y : list (nat * list bool)) (t : Erasure.Table) :
  (i <= length s)%nat -> forall j, (j <= i)%nat ->
  state (insert_at i s x, t) j = state (insert_at i s y, t) j.
Proof.
  intros Hi j. induction j as [| j IH]; intro Hj; [reflexivity |].
  simpl state. rewrite (IH ltac:(lia)).
  unfold pick_at. simpl fst at 2 4 6 8.
  rewrite !(nth_insert_at i j s _ []) by lia.
  f_equal; try (f_equal; apply iteration_table).
Qed.
(* ---- Algorithm1.v's bad center is Phase1Model's bad event ---------------------------------- *)
Definition eps_r : R := Algorithm1.eps gamma.
Definition radius_of (t : nat) : R := Algorithm1.radius M n_rows label pt center_of t.

(* The estimate from Z_p is bad (no point: bad, S8). *)
Definition bad_z (p : nat) (Z : list nat) : bool :=
  match Z with
  | [] => true
  | _ => Rltb (eps_r * radius_of p) (dist (m := M) (vmean (map pt Z)) (center_of p))
  end.

Lemma in_select {A} (m' : list bool) (l : list A) (y : A) :
  In y (select m' l) -> In (true, y) (combine m' l).
Proof.
  unfold select. intro H. apply in_map_iff in H. destruct H as [[b y'] [E0 H]]. simpl in E0. subst y'.
  apply filter_In in H. destruct H as [H Hb]. simpl in Hb. subst b. exact H.
Qed.

Lemma in_combine_map_r_inv {A B C} (g : B -> C) (l1 : list A) (l2 : list B) a c :
  In (a, c) (combine l1 (map g l2)) -> exists b, c = g b /\ In (a, b) (combine l1 l2).
Proof.
  revert l2. induction l1 as [| a' l1 IH]; intros [| b' l2] H; simpl in H; try tauto.
  destruct H as [E0 | H].
  - injection E0 as <- <-. exists b'. split; [reflexivity | left; reflexivity].
  - destruct (IH l2 H) as [b [E1 H1]]. exists b. split; [exact E1 | right; exact H1].
Qed.

Lemma label_nth_below (S : list nat) (j : nat) :
  incl S (seq 0 n_rows) -> (label (nth j S O) < K)%nat.
Proof.
  intro Inc. destruct (nth_in_or_default j S O) as [H | ->].
  - apply label_range. apply Inc, in_seq in H. lia.
  - apply label_range. unfold n_rows. lia.
Qed.

(* A bad center for Algorithm1.v (Phase 1 given by phase1_pick) is Phase1Model's bad event. *)
Lemma pick_bad (w : Omega) (i : nat) (S kn : list nat) (ds : list draw) :
  S <> [] -> known_ok K kn -> incl S (seq 0 n_rows) ->
  (forall d, In d ds -> (fst d < length S)%nat /\ length (snd d) = K) ->
  Algorithm1.bad_center_b M n_rows label pt center_of gamma Omega
    (fun _ _ => phase1_pick K elim label S pt kn ds) w i S = true ->
  match phase1_zp K elim label S kn ds with None => true | Some (p, Z) => bad_z p Z end = true.
Proof.
  intros HS Ok Inc Hds B. unfold Algorithm1.bad_center_b, Algorithm1.pick, phase1_pick in B.
  unfold phase1_zp.
  destruct (phase1_zp_positions K elim label S kn ds) as [[p [| j pos]] |] eqn:Z;
    [reflexivity | | reflexivity].
  unfold phase1_zp_positions in Z.
  assert (Sk : sk_ok K (skeleton label S ds)).
  { intros sx Hsx. unfold skeleton in Hsx. apply in_map_iff in Hsx. destruct Hsx as [d [<- Hd]].
    split; [apply label_nth_below, Inc | exact (proj2 (Hds d Hd))]. }
  destruct (assign_labels_ok K elim (skeleton label S ds) kn Ok Sk) as [_ [_ [_ C2]]].
  set (asg := assign_labels K elim kn (skeleton label S ds)) in *.
  destruct (choose_p (snd asg) (fst asg)) as [p' |]; [| discriminate].
  injection Z as -> Z.
  assert (Hj : In j (select (map (in_cluster p) (fst asg)) (map fst ds))) by (rewrite Z; left; reflexivity).
  apply in_select, in_combine_map_l in Hj. destruct Hj as [o [Eo Hj]].
  apply in_combine_map_r_inv in Hj. destruct Hj as [d [Ej Hd]].
  pose proof (in_combine_r _ _ _ _ Hd) as Hd_in.
  apply (in_combine_map_r (fun d => (label (draw_row S d), snd d))) in Hd.
  destruct o as [t |]; [| discriminate]. simpl in Eo. symmetry in Eo. apply Nat.eqb_eq in Eo. subst t.
  destruct (C2 _ _ Hd p eq_refl) as [Lp _]. simpl in Lp. unfold draw_row in Lp. rewrite <- Ej in Lp.
  destruct (Hds d Hd_in) as [Hjs _]. rewrite <- Ej in Hjs.
  rewrite (nth_error_nth' S O Hjs) in B. rewrite <- Lp in B. simpl map. exact B.
Qed.
(* ---- Invariants of the run -------------------------------------------------------------- *)
Lemma iteration_incl (ph : Omega -> nat -> option (nat * (nat -> R))) (w : Omega) (i : nat)
    (S : list nat) :
  incl (fst (Algorithm1.iteration M label pt Omega ph erased beta w i S)) S.
Proof.
  unfold Algorithm1.iteration.
  destruct (Algorithm1.pick M label Omega ph w i S) as [[p mu'] |]; [| apply incl_refl].
  destruct (snd (Algorithm1.search_run M label pt Omega erased beta w i p mu' S));
    try apply incl_refl.
  intros x Hx. apply filter_In in Hx. tauto.
Qed.

(* Every draw of every block has k coins (true on the law's support). *)
Definition draws_ok (a : Blocks) : Prop :=
  forall b, In b a -> forall d, In d b -> length (snd d) = K.

Lemma block_support w b : In (w, b) (outcomes block_law) -> forall d, In d b -> length (snd d) = K.
Proof.
  intros Hb d Hd. destruct (in_iid_elem _ _ _ _ Hb d Hd) as [wd Hwd].
  destruct d as [u cs]. apply in_prod in Hwd. destruct Hwd as [_ [w2 H2]].
  exact (iid_length _ _ _ _ H2).
Qed.

Lemma positions_ok (S : list nat) (b : list (nat * list bool)) :
  S <> [] -> (forall d, In d b -> length (snd d) = K) ->
  forall d, In d (positions (length S) b) -> (fst d < length S)%nat /\ length (snd d) = K.
Proof.
  intros HS Hb d Hd. unfold positions in Hd. apply in_map_iff in Hd. destruct Hd as [d' [<- Hd']].
  simpl. split; [apply Nat.mod_upper_bound; destruct S; [congruence | discriminate] | exact (Hb d' Hd')].
Qed.

Lemma state_ok (w : Omega) : draws_ok (fst w) -> forall i,
  known_ok K (snd (state w i)) /\ incl (fst (state w i)) (seq 0 n_rows).
Proof.
  intros Dw i. induction i as [| i [Ok Inc]].
  - simpl. split; [split; [constructor | intros t []] | apply incl_refl].
  - simpl state. simpl fst. simpl snd. split.
    + unfold phase1_known.
      assert (Sk : sk_ok K (skeleton label (fst (state w i))
                              (positions (length (fst (state w i))) (nth i (fst w) [])))).
      { intros sx Hsx. unfold skeleton in Hsx. apply in_map_iff in Hsx. destruct Hsx as [d [<- Hd]].
        split; [apply label_nth_below, Inc |].
        unfold positions in Hd. apply in_map_iff in Hd. destruct Hd as [d' [<- Hd']]. simpl.
        destruct (nth_in_or_default i (fst w) []) as [Hi | E0]; [exact (Dw _ Hi d' Hd') |].
        rewrite E0 in Hd'. destruct Hd'. }
      exact (proj1 (assign_labels_ok K elim _ _ Ok Sk)).
    + intros x Hx. apply Inc. exact (iteration_incl _ w i _ x Hx).
Qed.

(* S is a union of whole clusters of the rows. *)
Definition whole (S : list nat) : Prop :=
  NoDup S /\ incl S (seq 0 n_rows) /\
  forall x y, In x S -> In y (seq 0 n_rows) -> label y = label x -> In y S.

(* Definition 2 (the gamma-margin property) with mu_t the mean of C_t. *)
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis margin : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma * dist (m := M) (pt x) (center_of (label x)) < dist (m := M) (pt y) (center_of (label x)).

(* Iteration i went well (Theorem1.v's iteration_ok for this run). *)
Definition iter_ok (i : nat) (w : Omega) : bool :=
  andb (negb (Algorithm1.phase1_bad_b M n_rows label pt center_of gamma Omega phase1_run erased beta i w))
       (forallb (fun j => negb (Algorithm1.step_fails_b M n_rows label pt Omega phase1_run erased beta i j w))
                (seq 0 steps)).

(* A good iteration removes whole clusters: S_{i+1} = S_i \ C_p (Algorithm1.iteration_good). *)
Lemma whole_before (w : Omega) : forall i,
  forallb (fun i' => iter_ok i' w) (seq 0 i) = true -> whole (fst (state w i)).
Proof.
  assert (Steps : BinarySearch.bit_width (Z.of_nat n_rows) = steps).
  { unfold n_rows, steps. rewrite positive_nat_Z. apply Theorem1.search_steps_agree. }
  induction i as [| i IH]; intro Hok.
  - simpl. split; [apply seq_NoDup |]. split; [apply incl_refl |]. intros x y _ Hy _. exact Hy.
  - rewrite seq_S, forallb_app in Hok. apply Bool.andb_true_iff in Hok. destruct Hok as [Hok Hi].
    simpl in Hi. rewrite Bool.andb_true_r in Hi.
    destruct (IH Hok) as [Nd [Inc Wh]].
    apply (Theorem1.iteration_ok_iff k n gamma beta M label pt center_of Blocks phase1_run i w) in Hi.
    destruct Hi as [Hb Hs].
    unfold Algorithm1.phase1_bad, Algorithm1.step_fails in Hb, Hs.
    rewrite remaining_state in Hb, Hs.
    change (whole (fst (Algorithm1.iteration M label pt Omega phase1_run erased beta w i
                          (fst (state w i))))).
    set (S := fst (state w i)) in *.
    destruct (list_eq_dec Nat.eq_dec S []) as [E0 | NE].
    { rewrite E0, Algorithm1.iteration_empty. simpl. split; [constructor |].
      split; [intros x [] | intros x y []]. }
    assert (Mg : forall x y, In x (Algorithm1.rows n_rows) -> In y (Algorithm1.rows n_rows) ->
              label y <> label x ->
              gamma * dist (m := M) (pt x) (center_of (label x)) <
              dist (m := M) (pt y) (center_of (label x))).
    { intros x y Hx Hy. unfold Algorithm1.rows in Hx, Hy. apply in_seq in Hx, Hy. apply margin; lia. }
    destruct (Algorithm1.iteration_good M n_rows label pt center_of gamma Omega phase1_run erased beta
                gamma_gt_1 Mg w i S Nd Inc NE Hb) as [p [_ E0]].
    { intros j Hj. apply Hs. lia. }
    rewrite E0. simpl fst. split; [apply NoDup_filter, Nd |]. split.
    + intros x Hx. apply filter_In in Hx. apply Inc. tauto.
    + intros x y Hx Hy Ly. apply filter_In in Hx. destruct Hx as [Hx Lx].
      apply filter_In. split; [exact (Wh x y Hx Hy Ly) | rewrite Ly; exact Lx].
Qed.

(* ---- Lemma 7's tail for the run, from a tail of the uniform law on one cluster --------------- *)
Variables (H c : R).
Hypothesis H_ge_1 : 1 <= H.
Hypothesis c_nonneg : 0 <= c.
Hypothesis cluster_tail : forall t (Hc : cluster_rows t <> []) l,
  P (iid (uniform (cluster_rows t) Hc) l) (bad_z t) <= H * exp (- (INR l * c)).

Definition run_law : Dist Omega :=
  prod (iid block_law K) (Erasure.erasure_law K steps beta qt qt_range).

Lemma cluster_of_whole (S : list nat) (t : nat) (Hc : cluster_of label S t <> []) :
  whole S -> exists Hr : cluster_rows t <> [], Permutation (cluster_of label S t) (cluster_rows t).
Proof.
  intros [Nd [Inc Wh]].
  destruct (cluster_of label S t) as [| x0 l0] eqn:C; [congruence |].
  assert (Hx0 : In x0 (cluster_of label S t)) by (rewrite C; left; reflexivity).
  apply filter_In in Hx0. destruct Hx0 as [Hx0 L0]. apply Nat.eqb_eq in L0.
  assert (Pm : Permutation (cluster_of label S t) (cluster_rows t)).
  { apply NoDup_Permutation; [apply NoDup_filter, Nd | apply NoDup_filter, seq_NoDup |].
    intro y. unfold cluster_of, cluster_rows. rewrite !filter_In. split.
    - intros [Hy Ly]. split; [apply Inc, Hy | exact Ly].
    - intros [Hy Ly]. split; [| exact Ly]. apply Nat.eqb_eq in Ly. apply (Wh x0 y Hx0 Hy). congruence. }
  rewrite C in Pm.
  assert (Hr : cluster_rows t <> []).
  { intro E0. rewrite E0 in Pm. apply Permutation_sym, Permutation_nil in Pm. discriminate. }
  exists Hr. exact Pm.
Qed.

Let a_q : R := qt ^ (K - 1).

Lemma base_nonneg : 0 <= 1 - a_q + a_q * exp (- (c / INR K)).
Proof.
  assert (0 <= a_q <= 1)
    by (split; [apply pow_le; lra | unfold a_q; rewrite <- (pow1 (K - 1)); apply pow_incr; lra]).
  pose proof (exp_pos (- (c / INR K))). nra.
Qed.

Lemma bad_empty (w : Omega) (i : nat) (ph : Omega -> nat -> option (nat * (nat -> R))) :
  Algorithm1.bad_center_b M n_rows label pt center_of gamma Omega ph w i [] = false.
Proof.
  unfold Algorithm1.bad_center_b, Algorithm1.pick.
  destruct (ph w i) as [[pos mu'] |]; [destruct pos |]; reflexivity.
Qed.

(* Lemma 7's tail for the run (Theorem1.v's lemma7_tail with this Phase 1): iteration i's Phase 1
   goes wrong after good iterations with probability <= H (1 - a + a e^{-c/k})^r. *)
Theorem run_lemma7 (i : nat) : (i < K)%nat ->
  P run_law (fun w => andb (forallb (fun i' => iter_ok i' w) (seq 0 i))
                           (Algorithm1.phase1_bad_b M n_rows label pt center_of gamma Omega
                              phase1_run erased beta i w))
    <= H * (1 - a_q + a_q * exp (- (c / INR K))) ^ r.
Proof.
  intro Hi. set (Bound := H * (1 - a_q + a_q * exp (- (c / INR K))) ^ r).
  assert (B0 : 0 <= Bound) by (unfold Bound; apply Rmult_le_pos; [lra | apply pow_le, base_nonneg]).
  unfold P, run_law.
  rewrite (E_prod (iid block_law K) (Erasure.erasure_law K steps beta qt qt_range)), E_swap.
  rewrite <- (E_const (Erasure.erasure_law K steps beta qt qt_range) Bound).
  apply E_le. intro t.
  apply (E_iid_block block_law K _ Bound i Hi). intros s Ls Hs.
  assert (Li : (i <= length s)%nat) by lia.
  set (st := state (insert_at i s [], t) i).
  assert (Est : forall x, state (insert_at i s x, t) i = st)
    by (intro x; apply (state_insert i s x [] t Li i); lia).
  assert (Dok : forall wx x, In (wx, x) (outcomes block_law) -> draws_ok (insert_at i s x)).
  { intros wx x Hx b Hb. unfold insert_at in Hb. apply in_app_or in Hb.
    destruct Hb as [Hb | [<- | Hb]].
    - destruct (Hs b (firstn_In_sub _ _ _ Hb)) as [wb Hwb]. exact (block_support wb b Hwb).
    - exact (block_support wx x Hx).
    - destruct (Hs b (skipn_In_sub _ _ _ Hb)) as [wb Hwb]. exact (block_support wb b Hwb). }
  destruct (classic (whole (fst st) /\ fst st <> [])) as [[Wh NE] | No].
  - (* S_i a union of whole clusters: Phase1Tail.phase1_tail *)
    destruct Wh as [Nd [Inc Wh']].
    assert (Lk : forall x, In x (fst st) -> (label x < K)%nat).
    { intros x Hx. apply label_range. apply Inc, in_seq in Hx. lia. }
    assert (Ok : known_ok K (snd st)).
    { rewrite <- (Est []). apply (state_ok (insert_at i s [], t)).
      intros b Hb. unfold insert_at in Hb. apply in_app_or in Hb. destruct Hb as [Hb | [<- | Hb]].
      - destruct (Hs b (firstn_In_sub _ _ _ Hb)) as [wb Hwb]. exact (block_support wb b Hwb).
      - intros d [].
      - destruct (Hs b (skipn_In_sub _ _ _ Hb)) as [wb Hwb]. exact (block_support wb b Hwb). }
    assert (Ct : forall t' (Hc : cluster_of label (fst st) t' <> []) l,
               P (iid (uniform (cluster_of label (fst st) t') Hc) l) (bad_z t') <= H * exp (- (INR l * c))).
    { intros t' Hc l. destruct (cluster_of_whole (fst st) t' Hc (conj Nd (conj Inc Wh'))) as [Hr Pm].
      unfold P. rewrite (iid_same_law _ _ l (uniform_perm _ _ Hc Hr Pm)). apply cluster_tail. }
    assert (Ls_le : (1 <= length (fst st) <= n_rows)%nat).
    { split; [destruct (fst st); [congruence | simpl; lia] |].
      rewrite <- (seq_length n_rows 0). apply NoDup_incl_length; assumption. }
    eapply Rle_trans;
      [| apply (phase1_tail K elim qt qt_range k_elim label (fst st) NE Lk bad_z H c H_ge_1 c_nonneg Ct
                  (fact n_rows) (divide_fact _ _ Ls_le) (fact_neq_0 n_rows) (snd st) r Ok)].
    apply E_le_support. intros wx x Hx. unfold ind.
    destruct (forallb _ _ && _)%bool eqn:Ev; [| destruct (match _ with None => true | _ => _ end); lra].
    apply Bool.andb_true_iff in Ev. destruct Ev as [_ Bd].
    unfold Algorithm1.phase1_bad_b in Bd. rewrite remaining_state, Est in Bd.
    assert (Eph : phase1_run (insert_at i s x, t) i =
                  phase1_pick K elim label (fst st) pt (snd st) (positions (length (fst st)) x)).
    { unfold phase1_run, pick_at. rewrite Est. simpl fst. rewrite nth_insert_at_eq by exact Li.
      reflexivity. }
    assert (Bd' : Algorithm1.bad_center_b M n_rows label pt center_of gamma Omega
                    (fun _ _ => phase1_pick K elim label (fst st) pt (snd st)
                                  (positions (length (fst st)) x)) (insert_at i s x, t) i (fst st) = true).
    { rewrite <- Bd. unfold Algorithm1.bad_center_b, Algorithm1.pick. rewrite Eph. reflexivity. }
    rewrite (pick_bad _ i (fst st) (snd st) _ NE Ok Inc
               (positions_ok (fst st) x NE (block_support wx x Hx)) Bd').
    lra.
  - (* otherwise the event is empty *)
    rewrite <- (E_const block_law 0) in B0. eapply Rle_trans; [| exact B0].
    apply E_le_support. intros wx x Hx. unfold ind.
    destruct (forallb _ _ && _)%bool eqn:Ev; [| lra]. exfalso.
    apply Bool.andb_true_iff in Ev. destruct Ev as [Ok Bd].
    apply No. pose proof (whole_before (insert_at i s x, t) i Ok) as W. rewrite Est in W.
    split; [exact W |]. intro E0.
    unfold Algorithm1.phase1_bad_b in Bd. rewrite remaining_state, Est, E0, bad_empty in Bd.
    discriminate.
Qed.
End Run.

(* ---- From r >= k eta draws to the theorem's x^eta (as Phase1.phase1_count_eta) ------------- *)
Lemma draws_bound (K r : nat) (q qt c eta : R) :
  0 <= q <= qt -> qt <= 1 -> 0 <= c -> (1 <= K)%nat -> INR K * eta <= INR r ->
  (1 - qt ^ (K - 1) + qt ^ (K - 1) * exp (- (c / INR K))) ^ r <=
  Rpower (mixture (q ^ (K - 1)) c) eta.
Proof.
  intros Hq Hqt Hc K1 Hr.
  assert (Ha : 0 <= qt ^ (K - 1) <= 1)
    by (split; [apply pow_le; lra | rewrite <- (pow1 (K - 1)); apply pow_incr; lra]).
  assert (Ec : exp (- c) <= 1).
  { rewrite <- exp_0. destruct (Req_dec c 0) as [-> | N]; [rewrite Ropp_0; lra |].
    left. apply exp_increasing. lra. }
  assert (Hq' : 0 <= q ^ (K - 1) <= 1)
    by (split; [apply pow_le; lra | rewrite <- (pow1 (K - 1)); apply pow_incr; lra]).
  assert (X : 0 < mixture (q ^ (K - 1)) c <= 1).
  { split; [apply mixture_pos; exact Hq' | unfold mixture; nra]. }
  destruct (Rle_dec 0 eta) as [Heta | Heta].
  - eapply Rle_trans; [apply (draws_to_eta (qt ^ (K - 1)) c eta K r); assumption |].
    apply Rle_Rpower_l; [exact Heta |]. split.
    + apply mixture_pos. exact Ha.
    + unfold mixture. assert (q ^ (K - 1) <= qt ^ (K - 1)) by (apply pow_incr; lra). nra.
  - (* eta < 0: the left side is at most 1, the right side at least 1 *)
    apply Rle_trans with 1.
    + rewrite <- (pow1 r) at 2. apply pow_incr. split.
      * pose proof (exp_pos (- (c / INR K))).
        assert (0 <= qt ^ (K - 1) * exp (- (c / INR K))) by (apply Rmult_le_pos; lra). lra.
      * assert (exp (- (c / INR K)) <= 1).
        { rewrite <- exp_0. assert (0 <= c / INR K) by (apply div_k_nonneg; assumption).
          destruct (Req_dec (c / INR K) 0) as [E0 | N]; [rewrite E0, Ropp_0; lra |].
          left. apply exp_increasing. lra. }
        assert (qt ^ (K - 1) * exp (- (c / INR K)) <= qt ^ (K - 1) * 1)
          by (apply Rmult_le_compat_l; lra). lra.
    + unfold Rpower. rewrite <- exp_0. apply Hoeffding.exp_mono.
      assert (ln (mixture (q ^ (K - 1)) c) <= 0).
      { destruct (Req_dec (mixture (q ^ (K - 1)) c) 1) as [E0 | N]; [rewrite E0, ln_1; lra |].
        left. rewrite <- ln_1. apply ln_increasing; lra. }
      nra.
Qed.

(* The cluster tail of Theorem1Run.run_lemma7 from a tail of the mean of l >= 1 uniform draws from
   the cluster's points. *)
Lemma cluster_tail_from (n : positive) (m : nat) (gamma : R) (label : nat -> nat)
    (pt : nat -> (nat -> R)) (T : nat -> R) :
  1 <= T O -> 1 < gamma ->
  (forall t (HC : map pt (cluster_rows n label t) <> []) l, (1 <= l)%nat ->
     P (uniform_seq (map pt (cluster_rows n label t)) HC l)
       (fun s => Rltb ((gamma - 1) / 2 * radius_of n m label pt t)
                      (vnorm m (fun j => vmean s j - vmean (map pt (cluster_rows n label t)) j)))
     <= T l) ->
  forall t (Hc : cluster_rows n label t <> []) l,
  P (iid (uniform (cluster_rows n label t) Hc) l) (bad_z n m gamma label pt t) <= T l.
Proof.
  intros T0 Hg HT t Hc l. destruct l as [| l].
  { eapply Rle_trans; [apply P_le_1 | exact T0]. }
  assert (HC : map pt (cluster_rows n label t) <> []).
  { intro E0. apply map_eq_nil in E0. contradiction. }
  eapply Rle_trans; [| apply (HT t HC (Datatypes.S l) ltac:(lia))].
  right. unfold P, uniform_seq.
  set (Gs := fun s => ind (Rltb ((gamma - 1) / 2 * radius_of n m label pt t)
                      (vnorm m (fun j => vmean s j - vmean (map pt (cluster_rows n label t)) j)))).
  transitivity (E (iid (uniform (cluster_rows n label t) Hc) (Datatypes.S l)) (fun Z => Gs (map pt Z))).
  - apply E_ext_support. intros w Z HZ. pose proof (iid_length _ _ _ _ HZ) as LZ.
    destruct Z as [| z Z]; [discriminate |]. reflexivity.
  - rewrite E_iid_map. apply iid_same_law. intro f. rewrite E_dmap, !E_uniform, map_map, map_length.
    reflexivity.
Qed.

(* r(C_t), as Algorithm1.v defines it from mu_t, bounds the distance of C_t's points to their mean. *)
Lemma cluster_radius (n : positive) (m : nat) (label : nat -> nat) (pt : nat -> (nat -> R)) (t : nat) :
  forall c, In c (map pt (cluster_rows n label t)) ->
  vnorm m (fun j => c j - vmean (map pt (cluster_rows n label t)) j) <= radius_of n m label pt t.
Proof.
  intros c Hc. apply in_map_iff in Hc. destruct Hc as [x [<- Hx]].
  unfold cluster_rows in Hx. apply filter_In in Hx. destruct Hx as [Hx Lx]. apply Nat.eqb_eq in Lx.
  exact (Algorithm1.radius_bounds (Euclid m) (Pos.to_nat n) label pt (center_of n label pt) t x Hx Lx).
Qed.

(* ---- Theorem 1 with vector Hoeffding its one probabilistic hypothesis ----------------------- *)
Section Theorem1Vector.
(* Theorem 1's parameters (Theorem1.v), r = ceil(k eta) draws per iteration (any r >= k eta),
   elim S2's elimination (needed for k = 1). *)
Variables (k m n : positive) (delta gamma q eta : R) (beta : nat) (elim : bool) (r : nat).
Hypothesis delta_pos : 0 < delta.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis q_range : 0 < q < 1.
Hypothesis eta_enough : eta_random k m delta gamma q <= eta.
Hypothesis beta_enough : beta_union k n delta q <= INR beta.
Hypothesis r_enough : INR (Pos.to_nat k) * eta <= INR r.
Hypothesis k_elim : (2 <= Pos.to_nat k)%nat \/ elim = true.
(* The instance in R^m: labels below k, Definition 2 with mu_t the mean of C_t. *)
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < Pos.to_nat n)%nat -> (label x < Pos.to_nat k)%nat.
Hypothesis margin : forall x y, (x < Pos.to_nat n)%nat -> (y < Pos.to_nat n)%nat -> label y <> label x ->
  gamma * dist (m := Euclid (Pos.to_nat m)) (pt x) (center_of n label pt (label x)) <
  dist (m := Euclid (Pos.to_nat m)) (pt y) (center_of n label pt (label x)).
(* The oracle's rate of clear answers, q~ >= q (Definition 5). *)
Variable qt : R.
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis qt_ge_q : q <= qt.

(* Theorem 1 (thm:optimal_cover_ran): the run outputs the oracle's clustering with probability at
   least 1 - delta. *)
Theorem theorem1_random_weak :
  P (run_law k n beta r qt qt_range)
    (fun w => negb (Algorithm1.recovered_b (Euclid (Pos.to_nat m)) (Pos.to_nat n) (Pos.to_nat k)
                     label pt _ (phase1_run k n (Pos.to_nat m) beta elim label pt)
                     (fun w i j b => Erasure.erased_at (snd w) i j b) beta w)) <= delta.
Proof.
  assert (Mpos : INR (Pos.to_nat m) = Rpos m).
  { unfold Rpos. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. }
  assert (Cl : forall t (Hc : cluster_rows n label t <> []) l,
             P (iid (uniform (cluster_rows n label t) Hc) l) (bad_z n (Pos.to_nat m) gamma label pt t)
             <= (Rpos m + 1) * exp (- (INR l * ((gamma - 1) ^ 2 / 8)))).
  { apply (cluster_tail_from n (Pos.to_nat m) gamma label pt
             (fun l => (Rpos m + 1) * exp (- (INR l * ((gamma - 1) ^ 2 / 8))))).
    - simpl INR. rewrite Rmult_0_l, Ropp_0, exp_0. pose proof (Rpos_pos m). lra.
    - exact gamma_gt_1.
    - intros t HC l Hl. rewrite <- Mpos.
      replace ((gamma - 1) ^ 2 / 8) with (((gamma - 1) / 2) ^ 2 / 2) by field.
      apply vector_hoeffding_holds; [apply cluster_radius | exact Hl | lra]. }
  refine (Theorem1.theorem1_random_weak_given_lemma7 k m n delta gamma q eta beta delta_pos gamma_gt_1 q_range
            eta_enough beta_enough (Euclid (Pos.to_nat m)) label pt (center_of n label pt)
            label_range margin Blocks (iid (block_law k n r qt qt_range) (Pos.to_nat k))
            qt qt_range qt_ge_q (phase1_run k n (Pos.to_nat m) beta elim label pt) _).
  intros i Hi. eapply Rle_trans.
  { apply (run_lemma7 k n (Pos.to_nat m) gamma beta elim r qt qt_range k_elim label pt label_range
             gamma_gt_1 margin (Rpos m + 1) ((gamma - 1) ^ 2 / 8)); [| | exact Cl | exact Hi].
    - pose proof (Rpos_pos m). lra.
    - apply Rmult_le_pos; [apply pow2_ge_0 | lra]. }
  apply Rmult_le_compat_l; [pose proof (Rpos_pos m); lra |].
  apply draws_bound; [lra | lra | apply Rmult_le_pos; [apply pow2_ge_0 | lra] | lia | exact r_enough].
Qed.
End Theorem1Vector.

(* ---- Theorem 1 with eta_mcdiarmid: no probabilistic hypothesis ----------------------------- *)
Section Theorem1McD.
(* Theorem1McDiarmid.v's parameters (no m in eta_mcdiarmid; delta < 1), the run as above. *)
Variables (k n : positive) (m : nat) (delta gamma q eta : R) (beta : nat) (elim : bool) (r : nat).
Hypothesis delta_range : 0 < delta < 1.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis q_range : 0 < q < 1.
Hypothesis eta_enough : BoundsMcDiarmid.eta_mcdiarmid k delta gamma q <= eta.
Hypothesis beta_enough : beta_union k n delta q <= INR beta.
Hypothesis r_enough : INR (Pos.to_nat k) * eta <= INR r.
Hypothesis k_elim : (2 <= Pos.to_nat k)%nat \/ elim = true.
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < Pos.to_nat n)%nat -> (label x < Pos.to_nat k)%nat.
Hypothesis margin : forall x y, (x < Pos.to_nat n)%nat -> (y < Pos.to_nat n)%nat -> label y <> label x ->
  gamma * dist (m := Euclid m) (pt x) (center_of n label pt (label x)) <
  dist (m := Euclid m) (pt y) (center_of n label pt (label x)).
Variable qt : R.
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis qt_ge_q : q <= qt.

(* Theorem 1 at eta >= eta_mcdiarmid: the run outputs the oracle's clustering with probability at
   least 1 - delta.  Every step is proved: the cluster tail is MeanTail.v's McDiarmid tail
   (Theorem1McDiarmid.uniform_lemma7_mcd_tail). *)
Theorem theorem1_random_weak_mcdiarmid :
  P (run_law k n beta r qt qt_range)
    (fun w => negb (Algorithm1.recovered_b (Euclid m) (Pos.to_nat n) (Pos.to_nat k)
                     label pt _ (phase1_run k n m beta elim label pt)
                     (fun w i j b => Erasure.erased_at (snd w) i j b) beta w)) <= delta.
Proof.
  set (w0 := BoundsMcDiarmid.mcd_root k delta).
  assert (W0 : 0 <= w0) by apply sqrt_pos.
  assert (C0 : 0 < BoundsMcDiarmid.mcd_exponent k delta gamma)
    by (apply BoundsMcDiarmid.mcd_exponent_pos; assumption).
  assert (Cl : forall t (Hc : cluster_rows n label t <> []) l,
             P (iid (uniform (cluster_rows n label t) Hc) l) (bad_z n m gamma label pt t)
             <= exp (w0 / 2) * exp (- (INR l * BoundsMcDiarmid.mcd_exponent k delta gamma))).
  { apply (cluster_tail_from n m gamma label pt
             (fun l => exp (w0 / 2) * exp (- (INR l * BoundsMcDiarmid.mcd_exponent k delta gamma)))).
    - simpl INR. rewrite Rmult_0_l, Ropp_0, exp_0, Rmult_1_r. rewrite <- exp_0.
      apply Hoeffding.exp_mono. lra.
    - exact gamma_gt_1.
    - intros t HC l _. apply Theorem1McDiarmid.uniform_lemma7_mcd_tail; [apply cluster_radius | exact gamma_gt_1]. }
  refine (Theorem1McDiarmid.theorem1_mcdiarmid_given_lemma7 k n delta gamma q eta beta delta_range
            gamma_gt_1 q_range eta_enough beta_enough (Euclid m) label pt (center_of n label pt)
            label_range margin Blocks (iid (block_law k n r qt qt_range) (Pos.to_nat k))
            qt qt_range qt_ge_q (phase1_run k n m beta elim label pt) _).
  intros i Hi. eapply Rle_trans.
  { apply (run_lemma7 k n m gamma beta elim r qt qt_range k_elim label pt label_range
             gamma_gt_1 margin (exp (w0 / 2)) (BoundsMcDiarmid.mcd_exponent k delta gamma));
      [| | exact Cl | exact Hi].
    - rewrite <- exp_0. apply Hoeffding.exp_mono. lra.
    - lra. }
  unfold BoundsMcDiarmid.mcd_tail. fold w0.
  apply Rmult_le_compat_l; [left; apply exp_pos |].
  apply draws_bound; [lra | lra | lra | lia | exact r_enough].
Qed.
End Theorem1McD.
