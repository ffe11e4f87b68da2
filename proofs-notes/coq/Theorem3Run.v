(* Theorem 3 (thm:optimal_cover_global) corrected, and Appendix C's distance-weak claim for the
   global oracle corrected (proofs-notes/distance-weak-corrected.md, Theorem 3' and Appendix C'):
   Algorithm 1 with Algorithm 3 (resp. Algorithm 4) and a rho global distance-weak oracle
   (Definition 7 read with "iff", DistanceWeak.global_oracle) outputs the oracle's clustering
   with probability at least 1 - delta when, in addition to the paper's hypotheses, Phase 1 has a
   labelled seed a_t in G_t(2 rho - 1) for every cluster (`seed_place`: a draw is placed at the
   first yes of the known clusters' seeds, in discovery order, and otherwise opens the cluster
   whose seed says yes), and eta >= eta_McD(k, delta, 1 + 2 eps).  Why the seeds, not only good
   anchors: under Definition 7 a cross pair with a point beyond rho r of its center is not-sure
   whatever the anchor, so with clusters opened by draws (S3) such a draw of a not-yet-known
   cluster could not open it, and Z_p would again depend on where the points lie. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Metric BinarySearch Theorem1Run DistanceWeak DistanceWeakRun Theorem2Run.
From SSAC Require Algorithm1 BoundsMcDiarmid Phase1.
Open Scope R_scope.

(* Definition 4 with k seeds: the first yes among the known clusters' seeds (discovery order)
   places x; without one, a yes from the seed of a cluster not yet known opens it (named by x's
   label: a yes is never wrong); otherwise x is not placed. *)
Definition seed_place (k : nat) (Q : nat -> nat -> answer) (seed : nat -> nat) (known : list nat)
    (x : nat) : Phase1.placement :=
  match find (fun t => Phase1.is_yes (Q x (seed t))) known with
  | Some t => Phase1.Placed t
  | None =>
      match find (fun t => Phase1.is_yes (Q x (seed t))) (seq 0 k) with
      | Some _ => Phase1.Opens
      | None => Phase1.Unplaced
      end
  end.

Lemma find_yes_clear (lx : nat) (l : list nat) :
  find (fun ta => Phase1.is_yes (snd ta))
    (map (fun t => (t, Phase1.weak_answer (Nat.eqb t lx) false)) l)
  = if in_dec Nat.eq_dec lx l then Some (lx, Yes) else None.
Proof.
  unfold Phase1.weak_answer. induction l as [| t l IH]; [reflexivity |]. simpl.
  destruct (Nat.eqb_spec t lx) as [-> | N]; simpl.
  - destruct (Nat.eq_dec lx lx) as [_ | N]; [reflexivity | congruence].
  - rewrite IH. destruct (Nat.eq_dec t lx) as [E | N']; [congruence |].
    destruct (in_dec Nat.eq_dec lx l); reflexivity.
Qed.

Lemma nos_clear (lx : nat) (l : list nat) : ~ List.In lx l ->
  length (filter (fun ta => Phase1.is_no (snd ta)) (map (fun t => (t, Phase1.weak_answer (Nat.eqb t lx) false)) l))
  = length l.
Proof.
  unfold Phase1.weak_answer. induction l as [| t l IH]; intro N; [reflexivity |]. simpl.
  destruct (Nat.eqb_spec t lx) as [-> | _]; [exfalso; apply N; left; reflexivity |]. simpl.
  rewrite IH; [reflexivity | intro I; apply N; right; exact I].
Qed.

(* Definition 4 with every coin clear places x in its cluster when it is known and opens it
   otherwise. *)
Lemma assign_clear (k : nat) (elim : bool) (known : list nat) (lx : nat) :
  Phase1.known_ok k known -> (lx < k)%nat ->
  Phase1.assign k elim known lx (map (fun _ => false) known) =
  if in_dec Nat.eq_dec lx known then Phase1.Placed lx else Phase1.Opens.
Proof.
  intros [Nd Rk] Hl. unfold Phase1.assign. rewrite (combine_false_long known known) by lia.
  cbv zeta. rewrite map_map. cbn [fst snd]. rewrite find_yes_clear.
  destruct (in_dec Nat.eq_dec lx known) as [I | N]; [reflexivity |].
  rewrite nos_clear by exact N. rewrite Nat.eqb_refl. simpl.
  assert (L : (length (lx :: known) <= k)%nat).
  { rewrite <- (seq_length k 0). apply NoDup_incl_length; [constructor; assumption |].
    intros t [<- | Ht]; apply in_seq; [lia | pose proof (Rk t Ht); lia]. }
  simpl in L. replace (Nat.ltb (length known) k) with true by (symmetry; apply Nat.ltb_lt; lia).
  reflexivity.
Qed.

(* A vote without a yes is never in (Algorithm 4's further answers about a point of another
   cluster). *)
Lemma vote_no_yes (l : list answer) : (forall a, List.In a l -> a <> Yes) -> vote l <> In.
Proof.
  induction l as [| a l IH]; intro H; simpl; [discriminate |].
  destruct a; [exfalso; exact (H Yes (or_introl eq_refl) eq_refl) | |].
  - destruct (vote l) eqn:V; [exfalso; apply IH; [intros; apply H; right; assumption | reflexivity] | discriminate | discriminate].
  - apply IH. intros; apply H; right; assumption.
Qed.

Section Theorem3.
Variables (k n : positive) (m : nat) (elim : bool) (r : nat).
Local Notation K := (Pos.to_nat k).
Local Notation n_rows := (Pos.to_nat n).
Local Notation M := (Euclid m).
Variables (delta gamma rho eps eta : R).
Hypothesis delta_range : 0 < delta < 1.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis rho_range : 0 < rho <= 1.
Hypothesis eps_range : 0 < eps <= (gamma - 1) / 2.
Hypothesis eta_enough : BoundsMcDiarmid.eta_mcdiarmid k delta (1 + 2 * eps) 1 <= eta.
Hypothesis r_enough : INR K * eta <= INR r.
Hypothesis k_elim : (2 <= K)%nat \/ elim = true.
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < n_rows)%nat -> (label x < K)%nat.
Hypothesis margin : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma * dist (m := M) (pt x) (center_of n label pt (label x)) < dist (m := M) (pt y) (center_of n label pt (label x)).
Local Notation mu := (center_of n label pt).
Local Notation rad := (radius_of n m label pt).
(* The paper's x* (d(x*, mu_t) < (2 rho - 1 - 2 eps) r(C_t)) and the seeds (in G_t(2 rho - 1)). *)
Let c : R := 2 * rho - 1.
Variables (xstar seed : nat -> nat).
Hypothesis xstar_ok : forall t, (t < K)%nat ->
  (xstar t < n_rows)%nat /\ label (xstar t) = t /\ dist (m := M) (pt (xstar t)) (mu t) < (c - 2 * eps) * rad t.
Hypothesis seed_ok : forall t, (t < K)%nat ->
  (seed t < n_rows)%nat /\ label (seed t) = t /\ dist (m := M) (pt (seed t)) (mu t) < c * rad t.

Local Notation Q := (global_oracle M label pt mu rad rho).

Lemma in_rad3 : forall y, (y < n_rows)%nat -> dist (m := M) (pt y) (mu (label y)) <= rad (label y).
Proof.
  intros y Hy. apply (Algorithm1.radius_bounds M n_rows label pt mu (label y) y); [apply in_seq; lia | reflexivity].
Qed.

Lemma key3 (xs y : nat) : (xs < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt xs) (mu (label xs)) < c * rad (label xs) ->
  (label y = label xs -> Q xs y = Yes /\ Q y xs = Yes) /\ (label y <> label xs -> Q xs y <> Yes /\ Q y xs <> Yes).
Proof.
  intros Hx Hy D. exact (global_key_step M label pt mu rad (fun x => (x < n_rows)%nat) in_rad3 rho c xs y Hx Hy
                          (Rle_refl _) D).
Qed.

(* Every draw meets its own seed with a definite yes, and no other seed says yes. *)
Lemma seed_yes (x t : nat) : (x < n_rows)%nat -> (t < K)%nat -> Phase1.is_yes (Q x (seed t)) = true <-> t = label x.
Proof.
  intros Hx Ht. destruct (seed_ok t Ht) as [Hs [Ls Ds]].
  assert (Ds' : dist (m := M) (pt (seed t)) (mu (label (seed t))) < c * rad (label (seed t))) by (rewrite Ls; exact Ds).
  destruct (key3 (seed t) x Hs Hx Ds') as [Same Diff]. split.
  - intro Y. destruct (Nat.eq_dec (label x) (label (seed t))) as [E | N]; [congruence |].
    destruct (Diff N) as [_ NY]. destruct (Q x (seed t)); [exfalso; apply NY; reflexivity | discriminate | discriminate].
  - intros ->. rewrite (proj2 (Same (eq_sym Ls))). reflexivity.
Qed.

Lemma place_perfect3 : forall known x, Phase1.known_ok K known -> (x < n_rows)%nat ->
  seed_place K Q seed known x = Phase1.assign K elim known (label x) (map (fun _ => false) known).
Proof.
  intros known x Ok Hx. rewrite (assign_clear K elim known (label x) Ok (label_range x Hx)).
  destruct Ok as [Nd Rk]. unfold seed_place.
  assert (F : forall l, (forall t, List.In t l -> (t < K)%nat) ->
            find (fun t => Phase1.is_yes (Q x (seed t))) l = if in_dec Nat.eq_dec (label x) l then Some (label x) else None).
  { intros l Hl. induction l as [| t l IH]; [reflexivity |]. simpl.
    destruct (Phase1.is_yes (Q x (seed t))) eqn:Y.
    - apply (seed_yes x t Hx (Hl t (or_introl eq_refl))) in Y. subst t.
      destruct (Nat.eq_dec (label x) (label x)) as [_ | N]; [reflexivity | congruence].
    - rewrite IH by (intros; apply Hl; right; assumption).
      destruct (Nat.eq_dec t (label x)) as [E | N'].
      + exfalso. subst t. rewrite (proj2 (seed_yes x (label x) Hx (label_range x Hx)) eq_refl) in Y. discriminate.
      + destruct (in_dec Nat.eq_dec (label x) l); reflexivity. }
  rewrite (F known Rk). destruct (in_dec Nat.eq_dec (label x) known) as [_ | _]; [reflexivity |].
  rewrite (F (seq 0 K)) by (intros t Ht; apply in_seq in Ht; lia).
  destruct (in_dec Nat.eq_dec (label x) (seq 0 K)) as [_ | N]; [reflexivity |].
  exfalso. apply N, in_seq. pose proof (label_range x Hx). lia.
Qed.

Lemma c_le_1 : c <= 1.
Proof. unfold c. lra. Qed.

Lemma xstar_row : forall t, (t < K)%nat -> (xstar t < n_rows)%nat /\ label (xstar t) = t.
Proof. intros t Ht. destruct (xstar_ok t Ht) as [A [B _]]. auto. Qed.

Lemma xstar_close : forall t, (t < K)%nat ->
  dist (m := M) (pt (xstar t)) (mu t) < (c - 2 * Algorithm1.eps (1 + 2 * eps)) * rad t.
Proof.
  intros t Ht. destruct (xstar_ok t Ht) as [_ [_ D]].
  replace (Algorithm1.eps (1 + 2 * eps)) with eps by (unfold Algorithm1.eps; field). exact D.
Qed.

Lemma margin3 : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  (1 + 2 * eps) * dist (m := M) (pt x) (mu (label x)) < dist (m := M) (pt y) (mu (label x)).
Proof.
  intros x y Hx Hy L. pose proof (margin x y Hx Hy L).
  pose proof (dist_nonneg M (pt x) (mu (label x))).
  assert ((1 + 2 * eps) * dist (m := M) (pt x) (mu (label x)) <= gamma * dist (m := M) (pt x) (mu (label x)))
    by (apply Rmult_le_compat_r; lra).
  lra.
Qed.

Lemma gamma3_gt_1 : 1 < 1 + 2 * eps.
Proof. lra. Qed.

(* From x_1 in G_p(2 rho - 1), Algorithm 3 decides by the truth: yes with C_p, no or not-sure
   (read as out) elsewhere. *)
Lemma algorithm3_exact3 : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm3 Q x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros x1 y H1 Hy D. destruct (key3 x1 y H1 Hy D) as [Same Diff]. unfold algorithm3.
  destruct (Nat.eqb_spec (label y) (label x1)) as [E | N].
  - rewrite (proj1 (Same E)). reflexivity.
  - destruct (Q x1 y) eqn:A; [exfalso; exact (proj1 (Diff N) eq_refl) | reflexivity | reflexivity].
Qed.

(* Algorithm 4's further answers are Q(y, x_j) with y in Z_p, a subset of C_p: a yes among them
   only for x_j in C_p (a definite answer is never wrong). *)
Lemma algorithm4_exact3 (more : nat -> nat -> list answer) :
  (forall x1 xj a, List.In a (more x1 xj) -> a = Yes -> label xj = label x1) ->
  forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm4 Q more x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros Hm x1 y H1 Hy D. destruct (key3 x1 y H1 Hy D) as [Same Diff]. unfold algorithm4, decide_unified.
  destruct (Nat.eqb_spec (label y) (label x1)) as [E | N].
  - rewrite (proj1 (Same E)). reflexivity.
  - destruct (Q x1 y) eqn:A; [exfalso; exact (proj1 (Diff N) eq_refl) | reflexivity |].
    assert (V : vote (more x1 y) <> In).
    { apply vote_no_yes. intros a Ha Ya. exact (N (Hm x1 y a Ha Ya)). }
    destruct (vote (more x1 y)); [exfalso; exact (V eq_refl) | reflexivity | reflexivity].
Qed.

(* Theorem 3' (Theorem 3 with a seed per cluster in G_t(2 rho - 1) and eta_McD at q = 1):
   Algorithms 1 + 3 with a rho global distance-weak oracle output the oracle's clustering with
   probability at least 1 - delta. *)
Theorem theorem3_global_corrected :
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (seed_place K Q seed) (algorithm3 Q) w)) <= delta.
Proof.
  exact (dw_run_correct k n m elim r label pt label_range (seed_place K Q seed) (algorithm3 Q) place_perfect3
           (1 + 2 * eps) gamma3_gt_1 margin3 k_elim c c_le_1 xstar xstar_row xstar_close algorithm3_exact3
           delta eta delta_range eta_enough r_enough).
Qed.

(* Appendix C' for the global oracle: the same with Algorithm 4, its further answers any answers
   of an oracle that never lies about points of C_p (any beta). *)
Theorem appendix_c_global_corrected (more : nat -> nat -> list answer) :
  (forall x1 xj a, List.In a (more x1 xj) -> a = Yes -> label xj = label x1) ->
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (seed_place K Q seed) (algorithm4 Q more) w)) <= delta.
Proof.
  intro Hm.
  exact (dw_run_correct k n m elim r label pt label_range (seed_place K Q seed) (algorithm4 Q more) place_perfect3
           (1 + 2 * eps) gamma3_gt_1 margin3 k_elim c c_le_1 xstar xstar_row xstar_close
           (algorithm4_exact3 more Hm) delta eta delta_range eta_enough r_enough).
Qed.
(* The paper's literal "if": any oracle Q' that answers as Definition 7's on every pair with a
   point of G_t(2 rho - 1) keeps both statements (no other pair is ever asked: the seeds and x_1
   are such points); see Theorem2Run.v. *)
Variable Q' : nat -> nat -> answer.
Hypothesis agree : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x) (mu (label x)) < c * rad (label x) -> Q' x y = Q x y /\ Q' y x = Q y x.

Lemma key3' (xs y : nat) : (xs < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt xs) (mu (label xs)) < c * rad (label xs) ->
  (label y = label xs -> Q' xs y = Yes /\ Q' y xs = Yes) /\ (label y <> label xs -> Q' xs y <> Yes /\ Q' y xs <> Yes).
Proof.
  intros Hx Hy D. destruct (agree xs y Hx Hy D) as [E1 E2]. rewrite E1, E2. exact (key3 xs y Hx Hy D).
Qed.

Lemma seed_yes' (x t : nat) : (x < n_rows)%nat -> (t < K)%nat -> Phase1.is_yes (Q' x (seed t)) = true <-> t = label x.
Proof.
  intros Hx Ht. destruct (seed_ok t Ht) as [Hs [Ls Ds]].
  assert (Ds' : dist (m := M) (pt (seed t)) (mu (label (seed t))) < c * rad (label (seed t))) by (rewrite Ls; exact Ds).
  destruct (key3' (seed t) x Hs Hx Ds') as [Same Diff]. split.
  - intro Y. destruct (Nat.eq_dec (label x) (label (seed t))) as [E | N]; [congruence |].
    destruct (Diff N) as [_ NY]. destruct (Q' x (seed t)); [exfalso; apply NY; reflexivity | discriminate | discriminate].
  - intros ->. rewrite (proj2 (Same (eq_sym Ls))). reflexivity.
Qed.

Lemma place_perfect3' : forall known x, Phase1.known_ok K known -> (x < n_rows)%nat ->
  seed_place K Q' seed known x = Phase1.assign K elim known (label x) (map (fun _ => false) known).
Proof.
  intros known x Ok Hx. rewrite (assign_clear K elim known (label x) Ok (label_range x Hx)).
  destruct Ok as [Nd Rk]. unfold seed_place.
  assert (F : forall l, (forall t, List.In t l -> (t < K)%nat) ->
            find (fun t => Phase1.is_yes (Q' x (seed t))) l = if in_dec Nat.eq_dec (label x) l then Some (label x) else None).
  { intros l Hl. induction l as [| t l IH]; [reflexivity |]. simpl.
    destruct (Phase1.is_yes (Q' x (seed t))) eqn:Y.
    - apply (seed_yes' x t Hx (Hl t (or_introl eq_refl))) in Y. subst t.
      destruct (Nat.eq_dec (label x) (label x)) as [_ | N]; [reflexivity | congruence].
    - rewrite IH by (intros; apply Hl; right; assumption).
      destruct (Nat.eq_dec t (label x)) as [E | N'].
      + exfalso. subst t. rewrite (proj2 (seed_yes' x (label x) Hx (label_range x Hx)) eq_refl) in Y. discriminate.
      + destruct (in_dec Nat.eq_dec (label x) l); reflexivity. }
  rewrite (F known Rk). destruct (in_dec Nat.eq_dec (label x) known) as [_ | _]; [reflexivity |].
  rewrite (F (seq 0 K)) by (intros t Ht; apply in_seq in Ht; lia).
  destruct (in_dec Nat.eq_dec (label x) (seq 0 K)) as [_ | N]; [reflexivity |].
  exfalso. apply N, in_seq. pose proof (label_range x Hx). lia.
Qed.

Lemma algorithm3_exact3' : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm3 Q' x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros x1 y H1 Hy D. destruct (key3' x1 y H1 Hy D) as [Same Diff]. unfold algorithm3.
  destruct (Nat.eqb_spec (label y) (label x1)) as [E | N].
  - rewrite (proj1 (Same E)). reflexivity.
  - destruct (Q' x1 y) eqn:A; [exfalso; exact (proj1 (Diff N) eq_refl) | reflexivity | reflexivity].
Qed.

Lemma algorithm4_exact3' (more : nat -> nat -> list answer) :
  (forall x1 xj a, List.In a (more x1 xj) -> a = Yes -> label xj = label x1) ->
  forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (mu (label x1)) < c * rad (label x1) ->
  algorithm4 Q' more x1 y = if Nat.eqb (label y) (label x1) then In else Out.
Proof.
  intros Hm x1 y H1 Hy D. destruct (key3' x1 y H1 Hy D) as [Same Diff]. unfold algorithm4, decide_unified.
  destruct (Nat.eqb_spec (label y) (label x1)) as [E | N].
  - rewrite (proj1 (Same E)). reflexivity.
  - destruct (Q' x1 y) eqn:A; [exfalso; exact (proj1 (Diff N) eq_refl) | reflexivity |].
    assert (V : vote (more x1 y) <> In).
    { apply vote_no_yes. intros a Ha Ya. exact (N (Hm x1 y a Ha Ya)). }
    destruct (vote (more x1 y)); [exfalso; exact (V eq_refl) | reflexivity | reflexivity].
Qed.

Theorem theorem3_global_corrected_if :
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (seed_place K Q' seed) (algorithm3 Q') w)) <= delta.
Proof.
  exact (dw_run_correct k n m elim r label pt label_range (seed_place K Q' seed) (algorithm3 Q') place_perfect3'
           (1 + 2 * eps) gamma3_gt_1 margin3 k_elim c c_le_1 xstar xstar_row xstar_close algorithm3_exact3'
           delta eta delta_range eta_enough r_enough).
Qed.

Theorem appendix_c_global_corrected_if (more : nat -> nat -> list answer) :
  (forall x1 xj a, List.In a (more x1 xj) -> a = Yes -> label xj = label x1) ->
  P (run_law k n 1 r 1 one_range)
    (fun w => negb (dw_recovered k n m label pt (seed_place K Q' seed) (algorithm4 Q' more) w)) <= delta.
Proof.
  intro Hm.
  exact (dw_run_correct k n m elim r label pt label_range (seed_place K Q' seed) (algorithm4 Q' more) place_perfect3'
           (1 + 2 * eps) gamma3_gt_1 margin3 k_elim c c_le_1 xstar xstar_row xstar_close
           (algorithm4_exact3' more Hm) delta eta delta_range eta_enough r_enough).
Qed.
End Theorem3.
