(* Algorithm 1 (alg:weak_SSAC_ran) with Algorithm 2 (alg:rBinary) as its Phase 2, as a function of
   the run's randomness, and the deterministic half of Theorem 1's proof: a run in which no
   iteration's Phase 1 is bad and no search step fails outputs the oracle's clustering
   (`recovery_unless_bad`).  Theorem1.v bounds the probability of the bad events.

   The model follows lib/src/algorithm/ssac.cpp and proofs-notes/semantics.md:
   - the data are the rows 0..n-1 (their points pt x in a metric space, Metric.v; two rows may
     share a point), the oracle's clustering is a label per row in 0..k-1 (the clusters are named
     by the oracle's labels: with an oracle that never lies the run's own cluster numbers, S3, are
     a renaming of them), each cluster t has a center mu_t (a point: Lemma 6 needs no more; Lemma 7,
     a hypothesis of Theorem1.v, is about the mean) and radius r(C_t) = max d(x, mu_t);
   - Phase 1 (lines 3-8) is modelled by its outcome, supplied by the randomness: nothing (every
     cluster-assignment query not-sure, S8) or a position in S_i of a point of Z_p and the
     estimate mu'_p.  p is that point's label: a random-weak oracle never lies, so a point placed
     in p by Definition 4's query is in the oracle's cluster p (S2's elimination is sound because
     the oracle's clustering has the k clusters).  How mu'_p is distributed is Lemma 7's business;
   - Phase 2 (lines 10-13): S_i ordered by d(x, mu'_p), ties by row (S6); BinarySearch.v's search
     with Algorithm 2's vote (`decide_random`) over beta answers Q(y, x_j), y in B subset of Z_p;
     each answer is not-sure when the randomness erases it and otherwise the truth (Definition 5:
     the oracle abstains but never lies), which is the truth about x_j being in C_p;
     r'_i = d(x_{j*}, mu'_p) (+infinity when j* = |S_i|), C'_p = {x in S_i : d(x, mu'_p) < r'_i}
     (strict, S6), S_{i+1} = S_i \ C'_p; a failed search assigns nothing (S8);
   - the randomness w : Omega gives, per iteration i, Phase 1's outcome, and per iteration i,
     search step j and answer b < beta, whether that answer is erased: the b-th answer of the
     j-th probe, the order in which lib's Run::binary_search and Run::vote ask them (one fresh
     oracle query each; under S4 a pair (x_j, x_j) is asked too).  The position probed at step j
     is the one of depth j (BinarySearch.binary_search_probe_depth), so a probe reads its coins
     through its depth.  Nothing is assumed of the randomness here: Theorem1.v puts the
     concrete law on it (FiniteProb.v).  The model agrees with the C++ on a run only as long as
     the C++'s choices are the model's: up to the first bad event (afterwards the labelled-row
     anchor rules take anchors from wrong Phase-2 labels, which the model does not follow) and
     apart from near-ties (the C++ orders by doubles, the model by reals). *)
From Coq Require Import Reals Lra Lia ZArith List Sorted Permutation Relations_1.
Import ListNotations.
From SSAC Require Import Metric CloseCenter BinarySearch.
From SSAC Require FiniteProb.
Open Scope nat_scope.

Section Algorithm1.
(* The instance (Theorem 1's setting): rows 0..n-1 with points pt x, k clusters, labels, centers. *)
Variable M : MetricSpace.
Variables (n k : nat).
Variable label : nat -> nat.
Variable pt : nat -> M.
Variable center : nat -> M.
Variable gamma : R.
(* The run's randomness: Phase 1's outcome per iteration; the erasures of Phase 2's answers per
   iteration, search step and answer. *)
Variable Omega : Type.
Variable phase1 : Omega -> nat -> option (nat * M).
Variable erased : Omega -> nat -> nat -> nat -> bool.
Variable beta : nat.

Definition rows : list nat := seq 0 n.

(* Lemma 6's closeness, eps = (gamma - 1)/2 (the eps of Lemma 7 and of eta_random). *)
Definition eps : R := ((gamma - 1) / 2)%R.

(* r(C_t) = max_{x in C_t} d(x, mu_t) (Lemma 7's statement). *)
Definition radius (t : nat) : R :=
  fold_right Rmax 0%R
    (map (fun x => dist (pt x) (center t)) (filter (fun x => label x =? t) rows)).

(* ---- Phase 1 (lines 3-8), by its outcome ----------------------------------------------- *)
Definition pick (w : Omega) (i : nat) (S : list nat) : option (nat * M) :=
  match phase1 w i with
  | Some (pos, mu') =>
      match nth_error S pos with Some z => Some (label z, mu') | None => None end
  | None => None
  end.

(* ---- Line 10: S_i in increasing order of d(x, mu'), ties by the smaller row (S6) ----------- *)
Definition before (mu' : M) (x y : nat) : bool :=
  if Rlt_dec (dist (pt x) mu') (dist (pt y) mu') then true
  else if Rlt_dec (dist (pt y) mu') (dist (pt x) mu') then false
  else Nat.leb x y.

Fixpoint insert (mu' : M) (x : nat) (l : list nat) : list nat :=
  match l with
  | [] => [x]
  | y :: l' => if before mu' x y then x :: y :: l' else y :: insert mu' x l'
  end.

Fixpoint order (mu' : M) (l : list nat) : list nat :=
  match l with [] => [] | x :: l' => insert mu' x (order mu' l') end.

(* ---- Lines 11-12: Algorithm 2 -------------------------------------------------------------- *)
(* The truthful answer to Q(y, x) for y in C_p. *)
Definition truth (p x : nat) : answer := if label x =? p then Yes else No.

(* The beta answers of the probe at search step `step` (row x) in iteration i. *)
Definition answers (w : Omega) (i p step x : nat) : list answer :=
  map (fun b => if erased w i step b then NotSure else truth p x) (seq 0 beta).

(* The probe of position pos of the order o: it is asked at step depth |o| pos. *)
Definition probe (w : Omega) (i p : nat) (o : list nat) (pos : Z) : decision :=
  decide_random
    (answers w i p (depth (Z.of_nat (length o)) pos) (nth (Z.to_nat pos) o 0)).

Definition search_run (w : Omega) (i p : nat) (mu' : M) (S : list nat) : list Z * outcome :=
  binary_search (Z.of_nat (length (order mu' S))) (probe w i p (order mu' S)).

(* r'_i = d(x_{j*}, mu'_p), None for +infinity (j* = |S_i|, S6). *)
Definition radius_at (mu' : M) (o : list nat) (j : Z) : option R :=
  match nth_error o (Z.to_nat j) with Some x => Some (dist (pt x) mu') | None => None end.

Definition below (mu' : M) (r : option R) (x : nat) : bool :=
  match r with
  | None => true
  | Some r => if Rlt_dec (dist (pt x) mu') r then true else false
  end.

(* ---- One iteration (lines 3-13): S_{i+1} and, when a cluster is output, (p, C'_p) --------- *)
(* C'_p is line 13's {x in S_i : d(x, mu'_p) < r'_i}; Run::assign_cluster takes it from the first
   j* positions of the order, the same set: the positions from j* on have d >= r'_i. *)
Definition iteration (w : Omega) (i : nat) (S : list nat) : list nat * option (nat * list nat) :=
  match pick w i S with
  | None => (S, None)
  | Some (p, mu') =>
      match snd (search_run w i p mu' S) with
      | Boundary j =>
          let r := radius_at mu' (order mu' S) j in
          (filter (fun x => negb (below mu' r x)) S, Some (p, filter (below mu' r) S))
      | _ => (S, None)  (* Algorithm 2's fail (S8); NoFuel never happens, binary_search_steps *)
      end
  end.

(* S_i (line 1: S_1 = X; iterations counted from 0) and the labels after i iterations. *)
Fixpoint remaining (w : Omega) (i : nat) : list nat :=
  match i with 0 => rows | S i' => fst (iteration w i' (remaining w i')) end.

Fixpoint labels (w : Omega) (i : nat) (x : nat) : option nat :=
  match i with
  | 0 => None
  | S i' =>
      match snd (iteration w i' (remaining w i')) with
      | Some (p, C) => if in_dec Nat.eq_dec x C then Some p else labels w i' x
      | None => labels w i' x
      end
  end.

(* The output after the k iterations (line 2) is the oracle's clustering. *)
Definition recovered (w : Omega) : Prop := forall x, x < n -> labels w k x = Some (label x).

(* ---- The bad events, defined from the run ------------------------------------------------- *)
(* Phase 1 of iteration i is bad: S_i is not empty and Phase 1 gives no p, or
   d(mu'_p, mu_p) > eps r(C_p) (the event whose probability Lemma 7 bounds). *)
Definition bad_center (w : Omega) (i : nat) (S : list nat) : Prop :=
  match pick w i S with
  | None => S <> []
  | Some (p, mu') => (eps * radius p < dist mu' (center p))%R
  end.

(* The j-th probe of iteration i's search has all beta answers not-sure (Algorithm 2's fail). *)
Definition failed_probe (w : Omega) (i j : nat) (S : list nat) : Prop :=
  match pick w i S with
  | None => False
  | Some (p, mu') =>
      exists pos, nth_error (fst (search_run w i p mu' S)) j = Some pos /\
                  probe w i p (order mu' S) pos = Fail
  end.

Definition phase1_bad (i : nat) (w : Omega) : Prop := bad_center w i (remaining w i).
Definition step_fails (i j : nat) (w : Omega) : Prop := failed_probe w i j (remaining w i).

(* ======================================================================================== *)
(* The proof.                                                                                *)

(* -- r(C_t) bounds every distance in C_t and is attained when C_t is not empty -- *)
Lemma fold_Rmax_ge (l : list R) (a : R) : List.In a l -> (a <= fold_right Rmax 0%R l)%R.
Proof.
  induction l as [| b l IH]; simpl; [tauto |]. intros [-> | H]; [apply Rmax_l |].
  eapply Rle_trans; [apply IH, H | apply Rmax_r].
Qed.

Lemma fold_Rmax_attained (l : list R) :
  l <> [] -> Forall (fun a => 0 <= a)%R l -> List.In (fold_right Rmax 0%R l) l.
Proof.
  induction l as [| a l IH]; [congruence |]. intros _ F. inversion F as [| ? ? Ha Fl]; subst.
  destruct l as [| b l'].
  - simpl. left. symmetry. apply Rmax_left. exact Ha.
  - change (fold_right Rmax 0%R (a :: b :: l')) with (Rmax a (fold_right Rmax 0%R (b :: l'))).
    destruct (Rle_dec a (fold_right Rmax 0%R (b :: l'))) as [H | H].
    + rewrite Rmax_right by exact H. right. apply IH; [discriminate | exact Fl].
    + rewrite Rmax_left by (apply Rnot_le_lt in H; lra). left. reflexivity.
Qed.

Lemma radius_bounds (t x : nat) :
  List.In x rows -> label x = t -> (dist (pt x) (center t) <= radius t)%R.
Proof.
  intros Hx Lx. apply fold_Rmax_ge, (in_map (fun y => dist (pt y) (center t))).
  apply filter_In. split; [exact Hx |].
  apply Nat.eqb_eq, Lx.
Qed.

Lemma radius_attained (t : nat) :
  (exists z, List.In z rows /\ label z = t) ->
  exists x, List.In x rows /\ label x = t /\ dist (pt x) (center t) = radius t.
Proof.
  intros [z [Hz Lz]].
  assert (Hin : List.In (radius t) (map (fun x => dist (pt x) (center t))
                                   (filter (fun x => label x =? t) rows))).
  { apply fold_Rmax_attained.
    - intro E. apply map_eq_nil in E.
      assert (List.In z (filter (fun x => label x =? t) rows))
        by (apply filter_In; split; [exact Hz | apply Nat.eqb_eq, Lz]).
      rewrite E in H. destruct H.
    - apply Forall_forall. intros a Ha. apply in_map_iff in Ha. destruct Ha as [x [<- _]].
      apply dist_nonneg. }
  apply in_map_iff in Hin. destruct Hin as [x [Ex Hx]]. apply filter_In in Hx.
  exists x. split; [tauto |]. split; [apply Nat.eqb_eq; tauto | exact Ex].
Qed.

(* The instance's hypotheses: Definition 2 (the gamma-margin property) for every cluster, gamma > 1,
   and the k clusters of Theorem 1 (every label is below k). *)
Hypothesis gamma_gt_1 : (1 < gamma)%R.
Hypothesis margin : forall x y, List.In x rows -> List.In y rows -> label y <> label x ->
  (gamma * dist (pt x) (center (label x)) < dist (pt y) (center (label x)))%R.
Hypothesis label_range : forall x, List.In x rows -> label x < k.

(* -- Lemma 6 on the rows: a good center puts every row of C_p strictly closer than any other -- *)
Lemma separation (p : nat) (mu' : M) :
  (exists z, List.In z rows /\ label z = p) ->
  (dist mu' (center p) <= eps * radius p)%R ->
  forall x y, List.In x rows -> List.In y rows -> label x = p -> label y <> p ->
  (dist (pt x) mu' < dist (pt y) mu')%R.
Proof.
  intros Hp Hclose x y Hx Hy Lx Ly.
  set (C := fun z : M => exists x, List.In x rows /\ label x = p /\ pt x = z).
  set (X := fun z : M => exists y, List.In y rows /\ pt y = z).
  assert (notC : ~ C (pt y)).
  { intros [x' [Hx' [Lx' E]]].
    pose proof (margin x' y Hx' Hy ltac:(congruence)) as G. rewrite E in G.
    pose proof (dist_nonneg M (pt y) (center (label x'))). nra. }
  apply (close_center_le M X C (center p) mu' gamma eps (radius p)).
  - intros z [x' [Hx' [Lx' <-]]]. apply radius_bounds; assumption.
  - destruct (radius_attained p Hp) as [x0 [H0 [L0 D0]]]. exists (pt x0).
    split; [exists x0; auto | exact D0].
  - intros z v [x' [Hx' [Lx' <-]]] [y' [Hy' <-]] Hn. rewrite <- Lx'.
    apply margin; [assumption | assumption |].
    intro E. apply Hn. exists y'. split; [| split]; auto. congruence.
  - unfold eps. lra.
  - exact Hclose.
  - exists x. auto.
  - exists y. auto.
  - exact notC.
Qed.

(* -- The order of line 10 is a sorted permutation of S_i -- *)
Lemma before_spec (mu' : M) (x y : nat) :
  before mu' x y = true <->
  (dist (pt x) mu' < dist (pt y) mu' \/ (dist (pt x) mu' = dist (pt y) mu' /\ (x <= y)%nat))%R.
Proof.
  unfold before.
  destruct (Rlt_dec (dist (pt x) mu') (dist (pt y) mu')) as [H1 | H1];
    [split; auto |].
  destruct (Rlt_dec (dist (pt y) mu') (dist (pt x) mu')) as [H2 | H2].
  - split; [discriminate | intros [H | [H _]]; lra].
  - rewrite Nat.leb_le.
    split; [intro H; right; split; [lra | exact H] | intros [H | [_ H]]; [lra | exact H]].
Qed.

Lemma before_total (mu' : M) (x y : nat) : before mu' x y = false -> before mu' y x = true.
Proof.
  intro H. apply before_spec. destruct (before_spec mu' x y) as [_ B].
  destruct (Rtotal_order (dist (pt x) mu') (dist (pt y) mu')) as [L | [E | G]]; auto.
  - rewrite B in H by auto. discriminate.
  - destruct (Nat.le_gt_cases x y); [rewrite B in H by auto; discriminate |].
    right. split; [lra | lia].
Qed.

Lemma before_trans (mu' : M) : Transitive (fun x y => before mu' x y = true).
Proof.
  intros x y z Hxy Hyz. apply before_spec in Hxy, Hyz. apply before_spec.
  destruct Hxy as [H1 | [H1 H1']], Hyz as [H2 | [H2 H2']]; try (left; lra).
  right. split; [lra | lia].
Qed.

Lemma insert_perm (mu' : M) (x : nat) (l : list nat) : Permutation (x :: l) (insert mu' x l).
Proof.
  induction l as [| y l IH]; simpl; [auto |].
  destruct (before mu' x y); [auto |].
  eapply perm_trans; [apply perm_swap | apply perm_skip, IH].
Qed.

Lemma order_perm (mu' : M) (l : list nat) : Permutation l (order mu' l).
Proof.
  induction l as [| x l IH]; simpl; [auto |].
  eapply perm_trans; [apply perm_skip, IH | apply insert_perm].
Qed.

Lemma insert_sorted (mu' : M) (x : nat) (l : list nat) :
  Sorted (fun a b => before mu' a b = true) l ->
  Sorted (fun a b => before mu' a b = true) (insert mu' x l).
Proof.
  induction l as [| y l IH]; simpl; intro H; [auto |].
  destruct (before mu' x y) eqn:E; [auto |].
  apply Sorted_inv in H. destruct H as [Hl Hy]. constructor; [apply IH, Hl |].
  destruct l as [| z l']; simpl; [constructor; apply before_total, E |].
  destruct (before mu' x z); constructor; [apply before_total, E |].
  apply HdRel_inv in Hy. exact Hy.
Qed.

Lemma order_sorted (mu' : M) (l : list nat) :
  StronglySorted (fun a b => before mu' a b = true) (order mu' l).
Proof.
  apply Sorted_StronglySorted; [apply before_trans |].
  induction l as [| x l IH]; simpl; [auto |]. apply insert_sorted, IH.
Qed.

(* -- Sorted order + strict separation: C_p's rows of S_i are a prefix of the order -- *)
Lemma all_false_filter (f : nat -> bool) (l : list nat) :
  (forall x, List.In x l -> f x = false) -> filter f l = [] /\ filter (fun x => negb (f x)) l = l.
Proof.
  induction l as [| a l IH]; simpl; intro H; [auto |].
  rewrite (H a (or_introl eq_refl)). simpl.
  destruct IH as [-> ->]; [intros; apply H; auto | auto].
Qed.

Lemma prefix_split (mu' : M) (p : nat) (o : list nat) :
  StronglySorted (fun a b => before mu' a b = true) o ->
  (forall x y, List.In x o -> List.In y o -> label x = p -> label y <> p ->
     (dist (pt x) mu' < dist (pt y) mu')%R) ->
  o = filter (fun x => label x =? p) o ++ filter (fun x => negb (label x =? p)) o.
Proof.
  induction o as [| a o IH]; simpl; intros H Sep; [reflexivity |].
  apply StronglySorted_inv in H. destruct H as [Ho Ha].
  assert (Sep' : forall x y, List.In x o -> List.In y o -> label x = p -> label y <> p ->
                   (dist (pt x) mu' < dist (pt y) mu')%R) by (intros; apply Sep; auto).
  destruct (Nat.eqb_spec (label a) p) as [La | La]; simpl.
  - f_equal. apply IH; assumption.
  - (* a is not in C_p, so nothing after it is *)
    destruct (all_false_filter (fun x => label x =? p) o) as [-> ->]; [| reflexivity].
    intros x Hx. destruct (Nat.eqb_spec (label x) p) as [Lx | Lx]; [| reflexivity].
    exfalso. pose proof (Sep x a (or_intror Hx) (or_introl eq_refl) Lx La) as D.
    rewrite Forall_forall in Ha. pose proof (Ha x Hx) as B. apply before_spec in B. lra.
Qed.

(* -- Algorithm 2's vote on truthful answers: the truth, or fail when all are not-sure -- *)
Lemma vote_truthful (a : answer) (l : list answer) :
  a <> NotSure -> (forall x, List.In x l -> x = a \/ x = NotSure) ->
  vote l = Fail \/ vote l = match a with Yes => In | _ => Out end.
Proof.
  intro Ha. induction l as [| x l IH]; simpl; intro H; [auto |].
  destruct (H x (or_introl eq_refl)) as [-> | ->].
  - destruct a; [auto | | congruence].
    destruct IH as [-> | ->]; [intros; apply H; auto | auto | auto].
  - apply IH. intros; apply H; auto.
Qed.

Lemma probe_truthful (w : Omega) (i p : nat) (o : list nat) (pos : Z) :
  probe w i p o pos = Fail \/
  probe w i p o pos = (if label (nth (Z.to_nat pos) o 0) =? p then In else Out).
Proof.
  unfold probe, decide_random, answers.
  destruct (vote_truthful (truth p (nth (Z.to_nat pos) o 0))
              (map (fun b => if erased w i (depth (Z.of_nat (length o)) pos) b then NotSure
                             else truth p (nth (Z.to_nat pos) o 0)) (seq 0 beta)))
    as [-> | ->]; [unfold truth; destruct (_ =? _); discriminate | | auto |].
  - intros x Hx. apply in_map_iff in Hx. destruct Hx as [b [<- _]].
    destruct (erased _ _ _ _); auto.
  - unfold truth. destruct (_ =? _); auto.
Qed.

(* -- The search only looks at the positions it probes -- *)
Lemma search_ext (fuel : nat) (pr pr' : Z -> decision) (lo hi : Z) :
  (forall j, List.In j (fst (search fuel pr lo hi)) -> pr j = pr' j) ->
  search fuel pr lo hi = search fuel pr' lo hi.
Proof.
  revert lo hi. induction fuel as [| f IH]; intros lo hi H; simpl in *; [reflexivity |].
  destruct (lo <=? hi)%Z; [| reflexivity].
  set (j := (lo + (hi - lo) / 2)%Z) in *.
  assert (E : pr j = pr' j).
  { apply H.
    destruct (pr j); [destruct (search f pr (j + 1) hi) | destruct (search f pr lo (j - 1)) |];
      simpl; auto. }
  rewrite <- E. destruct (pr j) eqn:Pj.
  - rewrite (IH (j + 1)%Z hi); [reflexivity |].
    intros j' Hj'. apply H. destruct (search f pr (j + 1) hi). simpl in *. auto.
  - rewrite (IH lo (j - 1)%Z); [reflexivity |].
    intros j' Hj'. apply H. destruct (search f pr lo (j - 1)). simpl in *. auto.
  - reflexivity.
Qed.

Lemma bit_width_mono (a b : Z) : (0 <= a <= b)%Z -> (bit_width a <= bit_width b)%nat.
Proof.
  intros H. unfold bit_width.
  destruct (Z.leb_spec a 0); destruct (Z.leb_spec b 0); try lia.
  apply Z2Nat.inj_le; [pose proof (Z.log2_nonneg a); lia | pose proof (Z.log2_nonneg b); lia |].
  pose proof (Z.log2_le_mono a b ltac:(lia)). lia.
Qed.

Lemma StronglySorted_app_r (R : nat -> nat -> Prop) (l1 l2 : list nat) :
  StronglySorted R (l1 ++ l2) -> StronglySorted R l2.
Proof.
  induction l1 as [| a l1 IH]; simpl; intro H; [exact H |].
  apply StronglySorted_inv in H. apply IH. tauto.
Qed.

(* ---- One good iteration removes exactly the rows of C_p still in S_i --------------------- *)
Lemma iteration_good (w : Omega) (i : nat) (S : list nat) :
  NoDup S -> incl S rows -> S <> [] -> ~ bad_center w i S ->
  (forall j, (j < bit_width (Z.of_nat n))%nat -> ~ failed_probe w i j S) ->
  exists p, List.In p (map label S) /\
    iteration w i S = (filter (fun x => negb (label x =? p)) S,
                       Some (p, filter (fun x => label x =? p) S)).
Proof.
  intros Hnd Hincl Hne Hgood Hsteps.
  unfold bad_center, failed_probe, iteration in *.
  destruct (pick w i S) as [[p mu'] |] eqn:Pick; [| tauto].
  (* p is the label of a row z of S_i *)
  unfold pick in Pick. destruct (phase1 w i) as [[pos mu0] |]; [| discriminate].
  destruct (nth_error S pos) as [z |] eqn:Hz; [| discriminate]. injection Pick as Lz Hmu.
  subst mu0. apply nth_error_In in Hz.
  exists p. split; [rewrite <- Lz; apply in_map, Hz |].
  (* Lemma 6: C_p's rows come first in the order *)
  assert (Hclose : (dist mu' (center p) <= eps * radius p)%R) by lra.
  set (o := order mu' S).
  assert (Po : Permutation S o) by apply order_perm.
  assert (InS : forall x, List.In x o <-> List.In x S)
    by (intro x; split; apply Permutation_in; auto using Permutation_sym).
  assert (Sep : forall x y, List.In x o -> List.In y o -> label x = p -> label y <> p ->
                  (dist (pt x) mu' < dist (pt y) mu')%R).
  { intros x y Hx Hy Lx Ly. apply (separation p mu'); auto.
    - exists z. auto.
    - apply Hincl, InS, Hx.
    - apply Hincl, InS, Hy. }
  set (Cp := filter (fun x => label x =? p) o).
  set (Rest := filter (fun x => negb (label x =? p)) o).
  assert (Split : o = Cp ++ Rest) by (apply (prefix_split mu'); [apply order_sorted | exact Sep]).
  (* the truthful decisions are prefix-monotone with boundary |C_p ∩ S_i| *)
  set (b := length Cp).
  set (pr' := fun pos : Z => if label (nth (Z.to_nat pos) o 0) =? p then In else Out).
  assert (Mono : prefix_monotone (Z.of_nat (length o)) (Z.of_nat b) pr').
  { split.
    - rewrite Split, app_length. unfold b. lia.
    - intros j Hj. unfold pr'. rewrite Split.
      destruct (Z.ltb_spec j (Z.of_nat b)).
      + rewrite app_nth1 by (unfold b; lia).
        assert (List.In (nth (Z.to_nat j) Cp 0) Cp) by (apply nth_In; unfold b in *; lia).
        apply filter_In in H0. destruct H0 as [_ ->]. reflexivity.
      + rewrite app_nth2 by (unfold b in *; lia).
        assert (List.In (nth (Z.to_nat j - length Cp) Rest 0) Rest).
        { apply nth_In. rewrite Split, app_length in Hj. unfold b in *. lia. }
        apply filter_In in H0. destruct H0 as [_ E]. apply Bool.negb_true_iff in E.
        rewrite E. reflexivity. }
  (* no probe fails, so the search sees exactly the truthful decisions *)
  assert (Hlen : (length o <= n)%nat).
  { rewrite <- (Permutation_length Po), <- (seq_length n 0).
    apply NoDup_incl_length; assumption. }
  assert (Same : search_run w i p mu' S = binary_search (Z.of_nat (length o)) pr').
  { unfold search_run, binary_search. fold o. apply search_ext.
    intros q Hq. destruct (probe_truthful w i p o q) as [F | T]; [| exact T].
    exfalso. apply In_nth_error in Hq. destruct Hq as [j Hj].
    apply (Hsteps j).
    - assert (Hl : (j < length (fst (binary_search (Z.of_nat (length o)) (probe w i p o))))%nat)
        by (apply nth_error_Some; unfold binary_search; congruence).
      pose proof (proj1 (binary_search_steps (Z.of_nat (length o)) (probe w i p o) ltac:(lia))).
      pose proof (bit_width_mono (Z.of_nat (length o)) (Z.of_nat n) ltac:(lia)). lia.
    - exists q. split; [exact Hj | exact F]. }
  rewrite Same, (binary_search_correct _ _ _ Mono).
  (* r'_i is the distance of the first row outside C_p, so C'_p = C_p ∩ S_i *)
  assert (Below : forall x, List.In x S ->
                   below mu' (radius_at mu' o (Z.of_nat b)) x = (label x =? p)).
  { intros x Hx. apply InS in Hx.
    unfold radius_at. rewrite Nat2Z.id, Split, nth_error_app2 by (unfold b; lia).
    replace (b - length Cp)%nat with 0%nat by (unfold b; lia).
    assert (SR : StronglySorted (fun a b => before mu' a b = true) Rest).
    { pose proof (order_sorted mu' S) as SS. fold o in SS. rewrite Split in SS.
      eapply StronglySorted_app_r; exact SS. }
    destruct Rest as [| h Rest'] eqn:ER; simpl.
    - rewrite Split in Hx. rewrite app_nil_r in Hx. apply filter_In in Hx.
      destruct Hx as [_ ->]. reflexivity.
    - assert (Hh : List.In h Rest) by (rewrite ER; left; reflexivity).
      unfold Rest in Hh. apply filter_In in Hh. destruct Hh as [Hho Lh].
      apply Bool.negb_true_iff, Nat.eqb_neq in Lh.
      destruct (Nat.eqb_spec (label x) p) as [Lx | Lx].
      + destruct (Rlt_dec (dist (pt x) mu') (dist (pt h) mu')) as [_ | N]; [reflexivity |].
        exfalso. apply N, Sep; assumption.
      + destruct (Rlt_dec (dist (pt x) mu') (dist (pt h) mu')) as [L | _]; [| reflexivity].
        exfalso.
        assert (Hr : List.In x (h :: Rest')).
        { rewrite <- ER. apply filter_In.
          split; [exact Hx | apply Bool.negb_true_iff, Nat.eqb_neq, Lx]. }
        destruct Hr as [<- | Hr]; [lra |].
        apply StronglySorted_inv in SR. destruct SR as [_ F]. rewrite Forall_forall in F.
        pose proof (F x Hr) as B. apply before_spec in B. lra. }
  f_equal; [| do 2 f_equal];
    apply filter_ext_in; intros x Hx; rewrite Below by exact Hx; reflexivity.
Qed.

(* ---- Induction over the k iterations ------------------------------------------------------ *)
(* The clusters still present in S: their number drops by one in every good iteration. *)
Definition present (S : list nat) : nat :=
  length (filter (fun t => existsb (fun x => label x =? t) S) (seq 0 k)).

Lemma filter_length_le (f g : nat -> bool) (l : list nat) :
  (forall t, List.In t l -> g t = true -> f t = true) ->
  length (filter g l) <= length (filter f l).
Proof.
  induction l as [| a l IH]; simpl; intro H; [lia |].
  assert (IH' : length (filter g l) <= length (filter f l)) by (apply IH; auto).
  destruct (g a) eqn:G; [rewrite (H a (or_introl eq_refl) G) |]; destruct (f a); simpl; lia.
Qed.

Lemma filter_length_lt (f g : nat -> bool) (l : list nat) (t : nat) :
  (forall t, List.In t l -> g t = true -> f t = true) ->
  List.In t l -> f t = true -> g t = false ->
  length (filter g l) < length (filter f l).
Proof.
  induction l as [| a l IH]; simpl; intros H Ht Ft Gt; [tauto |].
  destruct Ht as [<- | Ht].
  - rewrite Ft, Gt. simpl. pose proof (filter_length_le f g l ltac:(auto)). lia.
  - assert (IH' : length (filter g l) < length (filter f l)) by (apply IH; auto).
    destruct (g a) eqn:G; [rewrite (H a (or_introl eq_refl) G) |]; destruct (f a); simpl; lia.
Qed.

Lemma present_drops (S : list nat) (p : nat) :
  List.In p (map label S) -> p < k ->
  present (filter (fun x => negb (label x =? p)) S) < present S.
Proof.
  intros Hp Hk. unfold present. apply (filter_length_lt _ _ _ p).
  - intros t _ E. apply existsb_exists in E. destruct E as [x [Hx Ex]].
    apply existsb_exists. exists x. split; [apply filter_In in Hx; tauto | exact Ex].
  - apply in_seq. lia.
  - apply existsb_exists. apply in_map_iff in Hp. destruct Hp as [x [Lx Hx]].
    exists x. split; [exact Hx | apply Nat.eqb_eq, Lx].
  - destruct (existsb _ _) eqn:E; [| reflexivity].
    apply existsb_exists in E. destruct E as [x [Hx Ex]]. apply filter_In in Hx.
    destruct Hx as [_ Hx]. rewrite Ex in Hx. discriminate.
Qed.

Lemma iteration_empty (w : Omega) (i : nat) : iteration w i [] = ([], None).
Proof.
  unfold iteration, pick. destruct (phase1 w i) as [[pos mu'] |]; [destruct pos |]; reflexivity.
Qed.

(* The invariant after i good iterations: S_i lists distinct rows, at most k - i clusters are
   present in it, and every row already removed carries its oracle label. *)
Lemma run_invariant (w : Omega) :
  (forall i, i < k -> ~ phase1_bad i w /\
     (forall j, j < bit_width (Z.of_nat n) -> ~ step_fails i j w)) ->
  forall i, i <= k ->
    NoDup (remaining w i) /\ incl (remaining w i) rows /\ present (remaining w i) <= k - i /\
    forall x, List.In x rows -> ~ List.In x (remaining w i) -> labels w i x = Some (label x).
Proof.
  intros Good. induction i as [| i IH]; intro Hi.
  - simpl. split; [apply seq_NoDup |]. split; [apply incl_refl |]. split.
    + unfold present. rewrite Nat.sub_0_r.
      assert (FL : forall (f : nat -> bool) (l : list nat), length (filter f l) <= length l).
      { intros f l. induction l as [| a l IHl]; simpl; [lia | destruct (f a); simpl; lia]. }
      pose proof (FL (fun t => existsb (fun x => label x =? t) rows) (seq 0 k)) as L.
      rewrite seq_length in L. exact L.
    + tauto.
  - destruct (IH ltac:(lia)) as [Nd [Inc [Pr Lab]]]. destruct (Good i ltac:(lia)) as [G1 G2].
    simpl. set (S := remaining w i) in *.
    destruct (list_eq_dec Nat.eq_dec S []) as [E | Ne].
    + rewrite E, iteration_empty. simpl. split; [constructor |]. split; [intros x [] |].
      split;
        [unfold present; rewrite (proj1 (all_false_filter _ _ (fun _ _ => eq_refl))); simpl; lia |].
      intros x Hx _. apply Lab; [exact Hx | rewrite E; tauto].
    + destruct (iteration_good w i S Nd Inc Ne G1 G2) as [p [Hp E]]. rewrite E. simpl.
      assert (Hk : p < k).
      { apply in_map_iff in Hp. destruct Hp as [z [<- Hz]]. apply label_range, Inc, Hz. }
      split; [apply NoDup_filter, Nd |].
      split; [intros x Hx; apply filter_In in Hx; apply Inc; tauto |].
      split; [pose proof (present_drops S p Hp Hk); lia |].
      intros x Hx Hn. destruct (in_dec Nat.eq_dec x (filter (fun x => label x =? p) S)) as [C | C].
      * apply filter_In in C. destruct C as [_ C]. apply Nat.eqb_eq in C. rewrite C. reflexivity.
      * apply Lab; [exact Hx |]. intro HS. destruct (Nat.eqb_spec (label x) p) as [L | L].
        -- apply C, filter_In. split; [exact HS | apply Nat.eqb_eq, L].
        -- apply Hn, filter_In. split; [exact HS | apply Bool.negb_true_iff, Nat.eqb_neq, L].
Qed.

(* The deterministic half of Theorem 1: if in none of the k iterations Phase 1 is bad and no
   probe of the search has all its beta answers not-sure, the output is the oracle's clustering
   (each iteration outputs C'_p = C_p; after k of them no row is left). *)
Theorem recovery_unless_bad (w : Omega) :
  (forall i, i < k -> ~ phase1_bad i w /\
     (forall j, j < bit_width (Z.of_nat n) -> ~ step_fails i j w)) ->
  recovered w.
Proof.
  intros Good x Hx.
  destruct (run_invariant w Good k ltac:(lia)) as [_ [Inc [Pr Lab]]].
  apply (Lab x ltac:(apply in_seq; lia)). intro Hr.
  assert (present (remaining w k) >= 1); [| lia].
  unfold present. destruct (filter _ (seq 0 k)) eqn:E; simpl; [| lia].
  assert (List.In (label x) (filter (fun t => existsb (fun y => label y =? t) (remaining w k))
                                     (seq 0 k))).
  { apply filter_In. split.
    - apply in_seq. pose proof (label_range x ltac:(apply in_seq; lia)). lia.
    - apply existsb_exists. exists x. split; [exact Hr | apply Nat.eqb_refl]. }
  rewrite E in H. destruct H.
Qed.
(* ---- Phase 2's failure is its coins' failure ---------------------------------------------- *)
(* The j-th probe of iteration i fails only if every one of the beta coins of step j says
   not-sure: a truthful answer is yes or no (Definition 5: the oracle abstains, never lies), so a
   vote that fails (BinarySearch.vote_fail_iff) had every answer erased, and the position probed
   at step j reads the coins of step j (BinarySearch.binary_search_probe_depth).  This is the
   containment behind Theorem 1's erasure tail (Theorem1.v). *)
Theorem step_fails_erased (i j : nat) (w : Omega) :
  step_fails i j w -> forall b, b < beta -> erased w i j b = true.
Proof.
  unfold step_fails, failed_probe. destruct (pick w i (remaining w i)) as [[p mu'] |]; [| tauto].
  intros [pos [Hj F]] b Hb.
  unfold search_run in Hj. apply binary_search_probe_depth in Hj.
  unfold probe, decide_random in F. apply vote_fail_iff in F. rewrite Hj in F.
  unfold answers in F. rewrite Forall_forall in F.
  pose proof (F _ (in_map (fun b => if erased w i j b then NotSure
                                    else truth p (nth (Z.to_nat pos) (order mu' (remaining w i)) 0))
                          (seq 0 beta) b ltac:(apply in_seq; lia))) as Fb.
  simpl in Fb. destruct (erased w i j b); [reflexivity |].
  unfold truth in Fb. destruct (_ =? _); discriminate.
Qed.

(* ---- The events as booleans (FiniteProb.v's events) --------------------------------------- *)
Definition bad_center_b (w : Omega) (i : nat) (S : list nat) : bool :=
  match pick w i S with
  | None => match S with [] => false | _ => true end
  | Some (p, mu') => FiniteProb.Rltb (eps * radius p) (dist mu' (center p))
  end.

Lemma bad_center_b_iff w i S : bad_center_b w i S = true <-> bad_center w i S.
Proof.
  unfold bad_center_b, bad_center. destruct (pick w i S) as [[p mu'] |].
  - apply FiniteProb.Rltb_true.
  - destruct S as [| a S]; split; intro H.
    + discriminate.
    + exfalso. apply H. reflexivity.
    + discriminate.
    + reflexivity.
Qed.

Definition is_fail (d : decision) : bool := match d with Fail => true | _ => false end.

Definition failed_probe_b (w : Omega) (i j : nat) (S : list nat) : bool :=
  match pick w i S with
  | None => false
  | Some (p, mu') =>
      match nth_error (fst (search_run w i p mu' S)) j with
      | Some pos => is_fail (probe w i p (order mu' S) pos)
      | None => false
      end
  end.

Lemma failed_probe_b_iff w i j S : failed_probe_b w i j S = true <-> failed_probe w i j S.
Proof.
  unfold failed_probe_b, failed_probe. destruct (pick w i S) as [[p mu'] |];
    [| split; [discriminate | tauto]].
  destruct (nth_error (fst (search_run w i p mu' S)) j) as [pos |] eqn:E.
  - split.
    + intro F. exists pos. split; [reflexivity |].
      destruct (probe w i p (order mu' S) pos); [discriminate | discriminate | reflexivity].
    + intros [pos' [E' F]]. injection E' as <-. rewrite F. reflexivity.
  - split; [discriminate | intros [pos' [E' _]]; congruence].
Qed.

Definition phase1_bad_b (i : nat) (w : Omega) : bool := bad_center_b w i (remaining w i).
Definition step_fails_b (i j : nat) (w : Omega) : bool := failed_probe_b w i j (remaining w i).

Definition recovered_b (w : Omega) : bool :=
  forallb (fun x => match labels w k x with Some t => t =? label x | None => false end) rows.

Lemma recovered_b_iff w : recovered_b w = true <-> recovered w.
Proof.
  unfold recovered_b, recovered, rows. rewrite forallb_forall. split.
  - intros H x Hx. specialize (H x (proj2 (in_seq n 0 x) ltac:(lia))).
    destruct (labels w k x); [apply Nat.eqb_eq in H; congruence | discriminate].
  - intros H x Hx. apply in_seq in Hx. rewrite (H x ltac:(lia)). apply Nat.eqb_refl.
Qed.
End Algorithm1.
