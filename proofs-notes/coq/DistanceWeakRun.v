(* The run of Algorithm 1 with a deterministic oracle whose cluster-assignment placements are the
   perfect oracle's, and a deterministic Phase 2 that is exact from a point of G_p(c): the common
   half of the corrected Theorems 2 and 3 and of Appendix C's distance-weak claim
   (proofs-notes/distance-weak-corrected.md).  Theorem2Run.v and Theorem3Run.v instantiate it.

   The run.  Phase 1 is Phase1Model's (Algorithm 1, lines 3-8, on the run's draws as
   Theorem1Run.v draws them: one block of r positions per iteration, read modulo |S_i|; counts and
   p by choose_p, S7, S8; Z_p in draw order, mu'_p its mean), except that a draw's placement given
   the clusters known is `place known x`: Definition 4 with the oracle's answers Q(x, a_t) to fixed
   anchor rows a_t (`definite_place`, Theorem 2') or the seeded variant (Theorem3Run.seed_place).
   A draw's coins are not read, so Phase 1's only randomness is the draws.  Phase 2 (lines 10-13)
   orders S_i by d(x, mu'_p) (Algorithm1.order, S6), x_1 is the first row of that order (the row
   of S_i closest to mu'_p, ties to the lower row), and the search (BinarySearch.binary_search)
   decides position j by `decide x_1 x_j`: Algorithm 3 is "in iff Q(x_1, x_j) = yes", Algorithm 4
   decide_unified (Theorem2Run.v).

   The proof.  With every placement the perfect oracle's (`place_perfect`), Phase 1 is
   Theorem1Run.phase1_run on the run's draws with every coin cleared (`clear`), and under the law
   at q~ = 1 clearing the coins changes no probability (`run_law_clear`).  From a good mu'_p
   (d(mu'_p, mu_p) <= eps r(C_p)) and an x* with d(x*, mu_p) < (c - 2 eps) r(C_p), x_1 lies in
   G_p(c) (DistanceWeak.closest_point_step), and if `decide` is exact from such a point, each
   search probe decides as Algorithm 2 does on the truth, so the iteration is Theorem1Run's on the
   cleared randomness.  Hence the run fails only if Theorem1Run's run (at beta = 1, on the cleared
   randomness) has a bad Phase 1 after good iterations, whose probability Theorem1Run.run_lemma7
   bounds with McDiarmid's tail (Theorem1McDiarmid.uniform_lemma7_mcd_tail), at the margin
   gamma' = 1 + 2 eps. *)
From Coq Require Import Reals Lra Lia ZArith List Sorted Permutation Classical_Prop.
Import ListNotations.
From SSAC Require Import FiniteProb Phase1 Phase1Model Phase1Tail MeanTail Metric Bounds
  BinarySearch Theorem1Run.
From SSAC Require Algorithm1 Erasure Theorem1 BoundsMcDiarmid Theorem1McDiarmid DistanceWeak.
Open Scope R_scope.

(* ---- Clearing the coins: at q~ = 1 the law does not see them ------------------------------- *)
Definition clear_draw (d : nat * list bool) : nat * list bool := (fst d, map (fun _ => false) (snd d)).
Definition clear_table (t : Erasure.Table) : Erasure.Table := map (map (map (fun _ => false))) t.
Definition clear (w : Blocks * Erasure.Table) : Blocks * Erasure.Table :=
  (map (map clear_draw) (fst w), clear_table (snd w)).

(* g does not change the law d. *)
Definition invariant {A} (d : Dist A) (g : A -> A) : Prop :=
  forall f, E d (fun a => f (g a)) = E d f.

Lemma invariant_id {A} (d : Dist A) : invariant d (fun a => a).
Proof. intro f. reflexivity. Qed.

Lemma invariant_bernoulli (p : R) (Hp : 0 <= p <= 1) :
  p = 0 -> invariant (bernoulli p Hp) (fun _ => false).
Proof. intros -> f. unfold E. simpl. ring. Qed.

Lemma invariant_iid {A} (d : Dist A) (g : A -> A) (l : nat) :
  invariant d g -> invariant (iid d l) (map g).
Proof.
  intro Hd. induction l as [| l IH]; intro f.
  - unfold E. simpl. ring.
  - rewrite !E_iid_S. simpl map.
    transitivity (E d (fun a => E (iid d l) (fun s => f (g a :: s)))).
    + apply E_ext_support. intros w a _. exact (IH (fun s => f (g a :: s))).
    + exact (Hd (fun a => E (iid d l) (fun s => f (a :: s)))).
Qed.

Lemma invariant_prod {A B} (d1 : Dist A) (d2 : Dist B) (g1 : A -> A) (g2 : B -> B) :
  invariant d1 g1 -> invariant d2 g2 -> invariant (prod d1 d2) (fun ab => (g1 (fst ab), g2 (snd ab))).
Proof.
  intros H1 H2 f. rewrite !E_prod. simpl.
  transitivity (E d1 (fun a => E d2 (fun b => f (g1 a, b)))).
  - apply E_ext_support. intros w a _. exact (H2 (fun b => f (g1 a, b))).
  - exact (H1 (fun a => E d2 (fun b => f (a, b)))).
Qed.

Lemma P_invariant {A} (d : Dist A) (g : A -> A) (e : A -> bool) :
  invariant d g -> P d (fun a => e (g a)) = P d e.
Proof. intro H. unfold P. exact (H (fun a => ind (e a))). Qed.

(* Theorem1Run's law at q~ = 1: every coin (Definition 4's and Phase 2's) is false with
   probability 1, so clearing them all leaves every probability unchanged. *)
Lemma run_law_clear (k n : positive) (beta r : nat) (H1 : 0 <= 1 <= 1) (e : Blocks * Erasure.Table -> bool) :
  P (run_law k n beta r 1 H1) (fun w => e (clear w)) = P (run_law k n beta r 1 H1) e.
Proof.
  apply P_invariant. unfold run_law, clear.
  apply (invariant_prod _ _ (map (map clear_draw)) clear_table).
  - apply invariant_iid. unfold block_law. apply invariant_iid. unfold draw_law, clear_draw.
    apply (invariant_prod _ _ (fun a => a) (map (fun _ => false))).
    + apply invariant_id.
    + unfold query_coins, coins. apply invariant_iid. apply invariant_bernoulli. ring.
  - unfold Erasure.erasure_law, clear_table. apply invariant_iid. apply invariant_iid.
    unfold coins. apply invariant_iid. apply invariant_bernoulli. ring.
Qed.

(* The cleared table erases nothing. *)
Lemma nth_all_false (l : list bool) (j : nat) : (forall b, List.In b l -> b = false) -> nth j l false = false.
Proof.
  intro H. destruct (nth_in_or_default j l false) as [I | ->]; [exact (H _ I) | reflexivity].
Qed.

Lemma erased_clear (t : Erasure.Table) (i j b : nat) : Erasure.erased_at (clear_table t) i j b = false.
Proof.
  unfold Erasure.erased_at, clear_table. apply nth_all_false. intros c Hc.
  remember (nth i (map (map (map (fun _ : bool => false))) t) []) as u eqn:Eu.
  assert (Hu : forall v, List.In v u -> forall c, List.In c v -> c = false).
  { intros v Hv c' Hc'. subst u.
    destruct (nth_in_or_default i (map (map (map (fun _ : bool => false))) t) []) as [Ii | Ei].
    - apply in_map_iff in Ii. destruct Ii as [u' [Eu' _]]. rewrite <- Eu' in Hv.
      apply in_map_iff in Hv. destruct Hv as [v' [<- _]]. apply in_map_iff in Hc'.
      destruct Hc' as [? [<- _]]. reflexivity.
    - rewrite Ei in Hv. destruct Hv. }
  destruct (nth_in_or_default j u []) as [Ij | Ej].
  - exact (Hu _ Ij c Hc).
  - rewrite Ej in Hc. destruct Hc.
Qed.

(* ---- Definition 4 with an oracle's answers ------------------------------------------------- *)
(* Opening a cluster needs fewer than k known. *)
Lemma assign_opens_lt (k : nat) (elim : bool) (known : list nat) (lx : nat) (cs : list bool) :
  assign k elim known lx cs = Opens -> (length known < k)%nat.
Proof.
  unfold assign. destruct (find _ _) as [[t a] |]; [intro H; discriminate H |].
  destruct (Nat.eqb _ _ && Nat.ltb _ _)%bool eqn:E.
  - intros _. apply Bool.andb_true_iff in E. destruct E as [_ E]. apply Nat.ltb_lt in E. exact E.
  - destruct (_ && _ && _ && _)%bool; [| intro H; discriminate H].
    match goal with |- context [match ?u with [] => _ | _ :: _ => _ end] => destruct u as [| [? ?] ?] end;
      intro H; discriminate H.
Qed.

(* Definition 4 reads the coins only through combine known cs. *)
Lemma assign_combine (k : nat) (elim : bool) (known : list nat) (lx : nat) (cs cs' : list bool) :
  combine known cs = combine known cs' -> assign k elim known lx cs = assign k elim known lx cs'.
Proof. intro E. unfold assign. rewrite E. reflexivity. Qed.

Lemma combine_false_map (known : list nat) (f : nat -> bool) :
  (forall t, List.In t known -> f t = false) ->
  combine known (map f known) = map (fun t => (t, false)) known.
Proof.
  induction known as [| t known IH]; intro H; [reflexivity |]. simpl.
  rewrite (H t (or_introl eq_refl)), IH; [reflexivity | intros; apply H; right; assumption].
Qed.

Lemma combine_false_long {A} (known : list nat) (cs : list A) :
  (length known <= length cs)%nat ->
  combine known (map (fun _ => false) cs) = map (fun t => (t, false)) known.
Proof.
  revert cs. induction known as [| t known IH]; intros cs L; [reflexivity |].
  destruct cs as [| c cs]; simpl in L; [lia |]. simpl. rewrite IH by lia. reflexivity.
Qed.

Lemma nth_map_nil {A B} (f : A -> B) (l : list (list A)) (i : nat) :
  nth i (map (map f) l) [] = map f (nth i l []).
Proof. revert i. induction l as [| a l IH]; intro i; destruct i; simpl; auto. Qed.

Lemma positions_clear (len : nat) (b : list (nat * list bool)) :
  positions len (map clear_draw b) = map clear_draw (positions len b).
Proof. unfold positions. rewrite !map_map. reflexivity. Qed.

(* Opening needs every known anchor to say no: with every coin clear, x's own cluster is not
   known. *)
Lemma opens_not_in (k : nat) (elim : bool) (known : list nat) (lx : nat) :
  assign k elim known lx (map (fun _ => false) known) = Opens -> ~ List.In lx known.
Proof.
  intros A I. unfold assign in A. rewrite (combine_false_long known known) in A by lia.
  cbv zeta in A.
  assert (Hin : List.In (lx, Yes) (map (fun tc => (fst tc, weak_answer (Nat.eqb (fst tc) lx) (snd tc)))
                                      (map (fun t => (t, false)) known))).
  { rewrite map_map. apply in_map_iff. exists lx. simpl. rewrite Nat.eqb_refl. auto. }
  destruct (find_exists (fun ta => is_yes (snd ta)) _ _ Hin eq_refl) as [[t a] Hz].
  rewrite Hz in A. discriminate.
Qed.

(* Definition 4 with an oracle's answers Q(x, a_t), a_t the anchor row of cluster t: the coin of
   the query Q(x, a_t) is true when the oracle says not-sure.  For an oracle that never lies (a
   definite answer is the truth about x and a_t, and a_t is in C_t), Phase1.weak_answer
   (t =? l(x)) of this coin is the oracle's answer (`dw_coin_answer`), so Phase1.assign with these
   coins is Definition 4 with the oracle (S2, S3: the first yes places x). *)
Definition dw_coins (oracle : nat -> nat -> answer) (anchor : nat -> nat) (known : list nat) (x : nat)
  : list bool :=
  map (fun t => is_unsure (oracle x (anchor t))) known.

Lemma dw_coin_answer (label : nat -> nat) (oracle : nat -> nat -> answer) (anchor : nat -> nat) (x t : nat) :
  label (anchor t) = t ->
  (oracle x (anchor t) = NotSure \/ oracle x (anchor t) = DistanceWeak.truth_pair label x (anchor t)) ->
  weak_answer (Nat.eqb t (label x)) (is_unsure (oracle x (anchor t))) = oracle x (anchor t).
Proof.
  intros La [E | E]; rewrite E; [reflexivity |]. unfold DistanceWeak.truth_pair. rewrite La.
  rewrite Nat.eqb_sym. destruct (Nat.eqb (label x) t); reflexivity.
Qed.

Definition definite_place (k : nat) (elim : bool) (label : nat -> nat) (oracle : nat -> nat -> answer)
    (anchor : nat -> nat) (known : list nat) (x : nat) : placement :=
  assign k elim known (label x) (dw_coins oracle anchor known x).

(* If every query with an anchor is definite, Definition 4 places as with every coin clear. *)
Lemma definite_place_perfect (k : nat) (elim : bool) (label : nat -> nat) (oracle : nat -> nat -> answer)
    (anchor : nat -> nat) (known : list nat) (x : nat) :
  (forall t, List.In t known -> oracle x (anchor t) <> NotSure) ->
  definite_place k elim label oracle anchor known x = assign k elim known (label x) (map (fun _ => false) known).
Proof.
  intro D. unfold definite_place. apply assign_combine. unfold dw_coins.
  rewrite combine_false_map, combine_false_long; [reflexivity | lia |].
  intros t Ht. destruct (oracle x (anchor t)) eqn:E; try reflexivity. exfalso. exact (D t Ht E).
Qed.

Section Run.
(* k clusters, n rows in R^m, S2's elimination, r draws per iteration (Theorem1Run.v). *)
Variables (k n : positive) (m : nat) (elim : bool) (r : nat).
Local Notation K := (Pos.to_nat k).
Local Notation n_rows := (Pos.to_nat n).
Local Notation M := (Euclid m).
Local Notation Omega := (Blocks * Erasure.Table)%type.
Variables (label : nat -> nat) (pt : nat -> (nat -> R)).
Hypothesis label_range : forall x, (x < n_rows)%nat -> (label x < K)%nat.

(* Lines 5-7's placement of a draw (its row) given the clusters known, in discovery order
   (Definition 4 with the oracle's answers: `definite_place`, Theorem2Run.v; the seeded variant:
   Theorem3Run.v), and Phase 2's decision for the position holding x_j given x_1. *)
Variable place : list nat -> nat -> placement.
Variable decide : nat -> nat -> decision.

(* Lines 5-7 on the draws' rows (Phase1Model.assign_labels with the oracle's answers). *)
Fixpoint dw_assign (known : list nat) (xs : list nat) : list (option nat) * list nat :=
  match xs with
  | [] => ([], known)
  | x :: xs' =>
      match place known x with
      | Placed t => let rest := dw_assign known xs' in (Some t :: fst rest, snd rest)
      | Opens => let rest := dw_assign (known ++ [label x]) xs' in (Some (label x) :: fst rest, snd rest)
      | Unplaced => let rest := dw_assign known xs' in (None :: fst rest, snd rest)
      end
  end.

(* Lines 4-8 (Phase1Model.phase1_pick with the oracle's answers): the position in S_i of Z_p's
   first draw and mu'_p; the draws' coins are not read. *)
Definition dw_pick (S known : list nat) (ds : list draw) : option (nat * (nat -> R)) :=
  let asg := dw_assign known (map (draw_row S) ds) in
  match choose_p (snd asg) (fst asg) with
  | None => None
  | Some p =>
      match select (map (in_cluster p) (fst asg)) (map fst ds) with
      | j :: pos => Some (j, vmean (map pt (map (fun j => nth j S O) (j :: pos))))
      | [] => None
      end
  end.

Definition dw_known (S known : list nat) (ds : list draw) : list nat :=
  snd (dw_assign known (map (draw_row S) ds)).

(* Every draw is placed as Definition 4 places it with the perfect oracle (every coin clear). *)
Hypothesis place_perfect : forall known x, known_ok K known -> (x < n_rows)%nat ->
  place known x = assign K elim known (label x) (map (fun _ => false) known).

Lemma dw_assign_clear (S : list nat) (ds : list draw) : forall known,
  incl S (seq 0 n_rows) -> known_ok K known ->
  (forall d, List.In d ds -> length (snd d) = K) ->
  dw_assign known (map (draw_row S) ds) = assign_labels K elim known (skeleton label S (map clear_draw ds)).
Proof.
  induction ds as [| d ds IH]; intros known Inc Ok Ld; [reflexivity |].
  assert (Hx : (draw_row S d < n_rows)%nat).
  { unfold draw_row. destruct (nth_in_or_default (fst d) S O) as [I | ->].
    - apply Inc, in_seq in I. lia.
    - lia. }
  assert (Lk : (length known <= K)%nat) by (apply known_ok_length, Ok).
  assert (Lc : combine known (map (fun _ => false) known) = combine known (map (fun _ => false) (snd d))).
  { rewrite !combine_false_long; [reflexivity | | lia]. rewrite (Ld d (or_introl eq_refl)). exact Lk. }
  simpl. unfold clear_draw at 1. simpl.
  assert (Ed : draw_row S (fst d, map (fun _ => false) (snd d)) = draw_row S d) by reflexivity.
  rewrite Ed, (place_perfect known _ Ok Hx).
  rewrite (assign_combine K elim known (label (draw_row S d)) _ _ Lc).
  assert (Ld' : forall d', List.In d' ds -> length (snd d') = K) by (intros; apply Ld; right; assumption).
  destruct (assign K elim known (label (draw_row S d)) (map (fun _ => false) (snd d))) eqn:A.
  - rewrite (IH known Inc Ok Ld'). reflexivity.
  - rewrite (IH (known ++ [label (draw_row S d)]) Inc).
    + reflexivity.
    + destruct Ok as [Nd Rk]. split.
      * apply (Permutation_NoDup (Permutation_cons_append known (label (draw_row S d)))).
        constructor; [| exact Nd]. intro I.
        rewrite <- (assign_combine K elim known _ _ _ Lc) in A.
        exact (opens_not_in K elim known _ A I).
      * intros t Ht. apply in_app_or in Ht. destruct Ht as [Ht | [<- | []]]; [exact (Rk t Ht) |].
        apply label_range, Hx.
    + exact Ld'.
  - rewrite (IH known Inc Ok Ld'). reflexivity.
Qed.

Lemma dw_pick_clear (S known : list nat) (ds : list draw) :
  incl S (seq 0 n_rows) -> known_ok K known -> (forall d, List.In d ds -> length (snd d) = K) ->
  dw_pick S known ds = phase1_pick K elim label S pt known (map clear_draw ds) /\
  dw_known S known ds = phase1_known K elim label S known (map clear_draw ds).
Proof.
  intros Inc Ok Ld.
  assert (E : dw_assign known (map (draw_row S) ds) =
              assign_labels K elim known (skeleton label S (map clear_draw ds))).
  { apply dw_assign_clear; [exact Inc | exact Ok | exact Ld]. }
  split.
  - unfold dw_pick, phase1_pick, phase1_zp_positions. rewrite E.
    assert (Ef : map fst (map clear_draw ds) = map fst ds) by (rewrite map_map; reflexivity).
    rewrite Ef. destruct (choose_p _ _); [| reflexivity].
    destruct (select _ _); reflexivity.
  - unfold dw_known, phase1_known. rewrite E. reflexivity.
Qed.

(* ---- Phase 2 and the run --------------------------------------------------------------------- *)
(* Phase 1 of iteration i from (S_i, the clusters known): block i's draws, as Theorem1Run.pick_at. *)
Definition dw_phase1 (w : Omega) (i : nat) (st : list nat * list nat) : option (nat * (nat -> R)) :=
  dw_pick (fst st) (snd st) (positions (length (fst st)) (nth i (fst w) [])).

(* Lines 10-12: the search over S_i in increasing d(x, mu'_p), x_1 its first row. *)
Definition dw_search (mu' : nat -> R) (S : list nat) : list Z * outcome :=
  let o := Algorithm1.order M pt mu' S in
  binary_search (Z.of_nat (length o)) (fun pos => decide (nth 0 o O) (nth (Z.to_nat pos) o O)).

(* One iteration (lines 3-13), as Algorithm1.iteration with this Phase 1 and this search. *)
Definition dw_iteration (w : Omega) (i : nat) (st : list nat * list nat)
  : list nat * option (nat * list nat) :=
  let S := fst st in
  match Algorithm1.pick M label Omega (fun _ _ => dw_phase1 w i st) w i S with
  | None => (S, None)
  | Some (p, mu') =>
      match snd (dw_search mu' S) with
      | Boundary j =>
          let rr := Algorithm1.radius_at M pt mu' (Algorithm1.order M pt mu' S) j in
          (filter (fun x => negb (Algorithm1.below M pt mu' rr x)) S,
           Some (p, filter (Algorithm1.below M pt mu' rr) S))
      | _ => (S, None)
      end
  end.

(* S_i and the clusters known at the start of iteration i (line 1: S_1 = X, none known). *)
Fixpoint dw_state (w : Omega) (i : nat) : list nat * list nat :=
  match i with
  | O => (seq 0 n_rows, [])
  | Datatypes.S i' =>
      let st := dw_state w i' in
      (fst (dw_iteration w i' st),
       dw_known (fst st) (snd st) (positions (length (fst st)) (nth i' (fst w) [])))
  end.

(* The labels after i iterations (Algorithm1.labels for this run). *)
Fixpoint dw_labels (w : Omega) (i : nat) (x : nat) : option nat :=
  match i with
  | O => None
  | Datatypes.S i' =>
      match snd (dw_iteration w i' (dw_state w i')) with
      | Some (p, C) => if in_dec Nat.eq_dec x C then Some p else dw_labels w i' x
      | None => dw_labels w i' x
      end
  end.

(* The output after the k iterations is the oracle's clustering. *)
Definition dw_recovered (w : Omega) : bool :=
  forallb (fun x => match dw_labels w K x with Some t => Nat.eqb t (label x) | None => false end)
    (seq 0 n_rows).

(* ---- The run is Theorem1Run's on the cleared randomness while Phase 1 is good ------------- *)
(* gamma' <= gamma the margin the proof uses (gamma' = 1 + 2 eps), eps = (gamma' - 1)/2;
   c the constant of G_p(c); x*_t a row of C_t with d(x*_t, mu_t) < (c - 2 eps) r(C_t). *)
Variable gamma' : R.
Hypothesis gamma'_gt_1 : 1 < gamma'.
Hypothesis margin' : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma' * dist (m := M) (pt x) (center_of n label pt (label x)) <
  dist (m := M) (pt y) (center_of n label pt (label x)).
Hypothesis k_elim : (2 <= K)%nat \/ elim = true.
Variable c : R.
Hypothesis c_le_1 : c <= 1.
Variable xstar : nat -> nat.
Hypothesis xstar_row : forall t, (t < K)%nat -> (xstar t < n_rows)%nat /\ label (xstar t) = t.
Hypothesis xstar_close : forall t, (t < K)%nat ->
  dist (m := M) (pt (xstar t)) (center_of n label pt t) <
  (c - 2 * Algorithm1.eps gamma') * radius_of n m label pt t.
(* Phase 2's decision is exact from a point of G_p(c): in for C_p, out elsewhere. *)
Hypothesis decide_exact : forall x1 y, (x1 < n_rows)%nat -> (y < n_rows)%nat ->
  dist (m := M) (pt x1) (center_of n label pt (label x1)) < c * radius_of n m label pt (label x1) ->
  decide x1 y = if Nat.eqb (label y) (label x1) then In else Out.

Definition one_range : 0 <= 1 <= 1 := conj Rle_0_1 (Rle_refl 1).
Local Notation erased := (fun (w : Omega) (i j b : nat) => Erasure.erased_at (snd w) i j b).
Local Notation st_at w i := (state k n m 1 elim label pt w i).
Local Notation ok_at i w := (iter_ok k n m gamma' 1 elim label pt i w).
Local Notation bad_at i w := (Algorithm1.phase1_bad_b M n_rows label pt (center_of n label pt) gamma' Omega
                                (phase1_run k n m 1 elim label pt) erased 1 i w).

(* The row of S_i closest to mu' comes first in the order. *)
Lemma order_first (mu' : nat -> R) (S : list nat) :
  S <> [] -> List.In (nth 0 (Algorithm1.order M pt mu' S) O) S /\
  forall y, List.In y S -> dist (m := M) (pt (nth 0 (Algorithm1.order M pt mu' S) O)) mu' <=
                           dist (m := M) (pt y) mu'.
Proof.
  intro NE. pose proof (Algorithm1.order_perm M pt mu' S) as Pm.
  pose proof (Algorithm1.order_sorted M pt mu' S) as So.
  destruct (Algorithm1.order M pt mu' S) as [| h o] eqn:Eo.
  { apply Permutation_sym, Permutation_nil in Pm. contradiction. }
  change (nth 0 (h :: o) O) with h. split; [apply (Permutation_in _ (Permutation_sym Pm)); left; reflexivity |].
  intros y Hy. apply (Permutation_in _ Pm) in Hy. destruct Hy as [<- | Hy]; [lra |].
  apply StronglySorted_inv in So. destruct So as [_ F]. rewrite Forall_forall in F.
  apply (Algorithm1.before_spec M pt mu' h y) in F; [| exact Hy]. destruct F as [F | [F _]]; lra.
Qed.

(* A row within c r(C_p) of mu_p (c <= 1) is in C_p: the margin puts the others beyond
   gamma' r(C_p). *)
Lemma close_is_in (x p : nat) :
  (x < n_rows)%nat -> (exists z, List.In z (Algorithm1.rows n_rows) /\ label z = p) ->
  dist (m := M) (pt x) (center_of n label pt p) < c * radius_of n m label pt p -> label x = p.
Proof.
  intros Hx Hp D. destruct (Nat.eq_dec (label x) p) as [E | N]; [exact E | exfalso].
  destruct (Algorithm1.radius_attained M n_rows label pt (center_of n label pt) p Hp)
    as [z [Hz [Lz Dz]]].
  apply in_seq in Hz. pose proof (margin' z x ltac:(lia) Hx ltac:(congruence)) as Mg.
  rewrite Lz in Mg.
  assert (Er : radius_of n m label pt p = dist (m := M) (pt z) (center_of n label pt p)) by (symmetry; exact Dz).
  rewrite Er in D.
  pose proof (dist_nonneg M (pt z) (center_of n label pt p)).
  assert (c * dist (m := M) (pt z) (center_of n label pt p) <= dist (m := M) (pt z) (center_of n label pt p))
    by (rewrite <- (Rmult_1_l (dist _ _)) at 2; apply Rmult_le_compat_r; lra).
  assert (dist (m := M) (pt z) (center_of n label pt p) <= gamma' * dist (m := M) (pt z) (center_of n label pt p))
    by (rewrite <- (Rmult_1_l (dist _ _)) at 1; apply Rmult_le_compat_r; lra).
  lra.
Qed.

(* Algorithm 2 at beta = 1 with nothing erased decides by the truth. *)
Lemma probe_cleared (w : Omega) (i p : nat) (o : list nat) (pos : Z) :
  Algorithm1.probe label Omega erased 1 (clear w) i p o pos = if Nat.eqb (label (nth (Z.to_nat pos) o O)) p then In else Out.
Proof.
  unfold Algorithm1.probe, decide_random, Algorithm1.answers. simpl.
  unfold clear. simpl. rewrite erased_clear. unfold Algorithm1.truth.
  destruct (Nat.eqb _ _); reflexivity.
Qed.

Lemma draws_clear (a : Blocks) : draws_ok k a -> draws_ok k (map (map clear_draw) a).
Proof.
  intros D b Hb d Hd. apply in_map_iff in Hb. destruct Hb as [b' [<- Hb']].
  apply in_map_iff in Hd. destruct Hd as [d' [<- Hd']]. unfold clear_draw. simpl.
  rewrite map_length. exact (D b' Hb' d' Hd').
Qed.

(* Iteration i's Phase 1 is Theorem1Run's on the cleared draws. *)
Lemma phase1_sim (w : Omega) (i : nat) (st : list nat * list nat) :
  draws_ok k (fst w) -> incl (fst st) (seq 0 n_rows) -> known_ok K (snd st) ->
  dw_phase1 w i st = pick_at k elim label pt (clear w) i st /\
  dw_known (fst st) (snd st) (positions (length (fst st)) (nth i (fst w) [])) =
  phase1_known K elim label (fst st) (snd st) (positions (length (fst st)) (nth i (fst (clear w)) [])).
Proof.
  intros D Inc Ok.
  assert (Ld : forall d, List.In d (positions (length (fst st)) (nth i (fst w) [])) -> length (snd d) = K).
  { intros d Hd. unfold positions in Hd. apply in_map_iff in Hd. destruct Hd as [d' [<- Hd']]. simpl.
    destruct (nth_in_or_default i (fst w) []) as [Ib | Eb]; [exact (D _ Ib d' Hd') |].
    rewrite Eb in Hd'. destruct Hd'. }
  assert (Ec : positions (length (fst st)) (nth i (fst (clear w)) []) =
               map clear_draw (positions (length (fst st)) (nth i (fst w) []))).
  { unfold clear. simpl fst. rewrite nth_map_nil. apply positions_clear. }
  destruct (dw_pick_clear (fst st) (snd st) _ Inc Ok Ld) as [E1 E2].
  unfold dw_phase1, pick_at. rewrite Ec. split; assumption.
Qed.

(* A good iteration of Theorem1Run's run on the cleared randomness is this run's iteration. *)
Lemma iteration_sim (w : Omega) (i : nat) :
  draws_ok k (fst w) ->
  forallb (fun i' => ok_at i' (clear w)) (seq 0 i) = true -> bad_at i (clear w) = false ->
  dw_iteration w i (st_at (clear w) i) =
  Algorithm1.iteration M label pt Omega (fun _ _ => pick_at k elim label pt (clear w) i (st_at (clear w) i))
    erased 1 (clear w) i (fst (st_at (clear w) i)).
Proof.
  intros D Hok Hbad.
  set (st := st_at (clear w) i) in *.
  pose proof (whole_before k n m gamma' 1 elim 1 one_range k_elim label pt gamma'_gt_1 margin'
                (clear w) i Hok) as Wh. fold st in Wh.
  destruct (state_ok k n m 1 elim 1 one_range k_elim label pt label_range (clear w)
              (draws_clear _ D) i) as [Ok Inc]. fold st in Ok, Inc.
  destruct (phase1_sim w i st D Inc Ok) as [Ep _].
  unfold dw_iteration, Algorithm1.iteration, Algorithm1.pick. rewrite Ep.
  destruct (pick_at k elim label pt (clear w) i st) as [[pos mu'] |] eqn:Pk; [| reflexivity].
  destruct (nth_error (fst st) pos) as [z |] eqn:Hz; [| reflexivity].
  set (S := fst st) in *. set (p := label z).
  assert (Hzs : List.In z S) by (exact (nth_error_In _ _ Hz)).
  assert (Hzn : (z < n_rows)%nat) by (apply Inc, in_seq in Hzs; lia).
  assert (Hp : (p < K)%nat) by (apply label_range, Hzn).
  (* Phase 1 is good: d(mu', mu_p) <= eps r(C_p) *)
  assert (Good : dist (m := M) mu' (center_of n label pt p) <= Algorithm1.eps gamma' * radius_of n m label pt p).
  { unfold Algorithm1.phase1_bad_b in Hbad. rewrite remaining_state in Hbad.
    unfold Algorithm1.bad_center_b, Algorithm1.pick, phase1_run in Hbad. fold st S in Hbad.
    rewrite Pk, Hz in Hbad. unfold Rltb in Hbad.
    destruct (Rlt_dec _ _) as [_ | N]; [discriminate |]. apply Rnot_lt_le in N. exact N. }
  (* x_1, the first row of the order, lies in G_p(c) and in C_p *)
  assert (NE : S <> []) by (intro E0; rewrite E0 in Hzs; destruct Hzs).
  destruct (order_first mu' S NE) as [H1s Hmin].
  set (x1 := nth 0 (Algorithm1.order M pt mu' S) O) in *.
  destruct (xstar_row p Hp) as [Hxs Lxs].
  assert (Xs : List.In (xstar p) S).
  { destruct Wh as [_ [_ W3]]. apply (W3 z); [exact Hzs | apply in_seq; lia | exact Lxs]. }
  assert (Hx1n : (x1 < n_rows)%nat) by (apply Inc, in_seq in H1s; lia).
  assert (D1 : dist (m := M) (pt x1) (center_of n label pt p) < c * radius_of n m label pt p).
  { apply (DistanceWeak.closest_point_step M mu' (center_of n label pt p) (pt x1) (pt (xstar p))
             c (Algorithm1.eps gamma')); [exact (Hmin _ Xs) | exact Good |].
    rewrite <- Lxs at 2. rewrite Lxs. apply xstar_close, Hp. }
  assert (L1 : label x1 = p).
  { apply (close_is_in x1 p Hx1n); [exists z; split; [apply in_seq; lia | reflexivity] | exact D1]. }
  assert (Es : dw_search mu' S =
               Algorithm1.search_run M label pt Omega erased 1 (clear w) i p mu' S).
  { unfold dw_search, Algorithm1.search_run, binary_search. apply Algorithm1.search_ext.
    intros j Hj. apply BinarySearch.search_probes_in_range in Hj.
    rewrite probe_cleared.
    set (o := Algorithm1.order M pt mu' S) in *.
    assert (Hy : List.In (nth (Z.to_nat j) o O) S).
    { apply (Permutation_in _ (Permutation_sym (Algorithm1.order_perm M pt mu' S))).
      apply nth_In. fold o. lia. }
    assert (Hyn : (nth (Z.to_nat j) o O < n_rows)%nat) by (apply Inc, in_seq in Hy; lia).
    change (nth 0 o O) with x1. rewrite (decide_exact x1 _ Hx1n Hyn) by (rewrite L1; exact D1).
    rewrite L1. reflexivity. }
  rewrite Es. reflexivity.
Qed.

(* While Theorem1Run's run on the cleared randomness goes well, this run is that run. *)
Lemma run_sim (w : Omega) : draws_ok k (fst w) -> forall i,
  forallb (fun i' => ok_at i' (clear w)) (seq 0 i) = true ->
  dw_state w i = st_at (clear w) i /\
  forall x, dw_labels w i x =
            Algorithm1.labels M n_rows label pt Omega (phase1_run k n m 1 elim label pt) erased 1 (clear w) i x.
Proof.
  intros D i. induction i as [| i IH]; intro Hok; [split; reflexivity |].
  rewrite seq_S, forallb_app in Hok. apply Bool.andb_true_iff in Hok. destruct Hok as [Hok Hi].
  simpl in Hi. rewrite Bool.andb_true_r in Hi. unfold iter_ok in Hi.
  apply Bool.andb_true_iff in Hi. destruct Hi as [Hb _]. apply Bool.negb_true_iff in Hb.
  destruct (IH Hok) as [Es El].
  destruct (state_ok k n m 1 elim 1 one_range k_elim label pt label_range (clear w)
              (draws_clear _ D) i) as [Ok Inc].
  pose proof (iteration_sim w i D Hok Hb) as It.
  destruct (phase1_sim w i (st_at (clear w) i) D Inc Ok) as [_ Ek].
  split.
  - change (dw_state w (Datatypes.S i)) with
      (fst (dw_iteration w i (dw_state w i)),
       dw_known (fst (dw_state w i)) (snd (dw_state w i))
         (positions (length (fst (dw_state w i))) (nth i (fst w) []))).
    rewrite Es, It, Ek. reflexivity.
  - intro x.
    change (dw_labels w (Datatypes.S i) x) with
      (match snd (dw_iteration w i (dw_state w i)) with
       | Some (p, C) => if in_dec Nat.eq_dec x C then Some p else dw_labels w i x
       | None => dw_labels w i x
       end).
    rewrite Es, It, El. simpl Algorithm1.labels. rewrite remaining_state. reflexivity.
Qed.
(* The cleared table never fails a probe (beta = 1). *)
Lemma no_step_fails (w : Omega) (i j : nat) :
  Algorithm1.step_fails_b M n_rows label pt Omega (phase1_run k n m 1 elim label pt) erased 1 i j (clear w)
  = false.
Proof.
  destruct (Algorithm1.step_fails_b _ _ _ _ _ _ _ _ _ _ _) eqn:F; [exfalso | reflexivity].
  unfold Algorithm1.step_fails_b in F. apply (Algorithm1.failed_probe_b_iff M n_rows) in F.
  pose proof (Algorithm1.step_fails_erased M n_rows label pt Omega _ erased 1 i j (clear w) F 0 ltac:(lia)) as E.
  simpl in E. unfold clear in E. simpl in E. rewrite erased_clear in E. discriminate.
Qed.

(* The run fails only if Theorem1Run's run on the cleared randomness has a bad Phase 1 after good
   iterations. *)
Lemma dw_fail_bad (w : Omega) : draws_ok k (fst w) -> dw_recovered w = false ->
  existsb (fun i => forallb (fun i' => ok_at i' (clear w)) (seq 0 i) && bad_at i (clear w))%bool
    (seq 0 K) = true.
Proof.
  intros D NR.
  destruct (classic (forall i, (i < K)%nat -> ok_at i (clear w) = true)) as [All | Some].
  - exfalso.
    assert (Hall : forallb (fun i' => ok_at i' (clear w)) (seq 0 K) = true)
      by (apply forallb_forall; intros i Hi; apply in_seq in Hi; apply All; lia).
    destruct (run_sim w D K Hall) as [_ El].
    assert (Rec : Algorithm1.recovered_b M n_rows K label pt Omega (phase1_run k n m 1 elim label pt)
                    erased 1 (clear w) = true).
    { destruct (Algorithm1.recovered_b _ _ _ _ _ _ _ _ _ _) eqn:Rb; [reflexivity | exfalso].
      destruct (Theorem1.bad_run_has_bad_event k n gamma' 1 gamma'_gt_1 M label pt (center_of n label pt)
                  label_range margin' Blocks (phase1_run k n m 1 elim label pt) (clear w))
        as [i [Hi [Ev | [j [Hj Sf]]]]].
      - simpl. rewrite Rb. reflexivity.
      - pose proof (All i Hi) as Oi. apply Bool.andb_true_iff in Ev. destruct Ev as [_ Bd].
        simpl in Bd. unfold iter_ok in Oi. rewrite Bd in Oi. discriminate.
      - simpl in Sf. rewrite no_step_fails in Sf. discriminate. }
    unfold dw_recovered in NR. apply Bool.not_true_iff_false in NR. apply NR.
    apply forallb_forall. intros x Hx. rewrite El.
    unfold Algorithm1.recovered_b, Algorithm1.rows in Rec. rewrite forallb_forall in Rec.
    exact (Rec x Hx).
  - destruct (Theorem1.first_bad (fun i => ok_at i (clear w) = true) K) as [i [Hi [Bad Before]]].
    { apply NNPP. intro No. apply Some. intros i Hi. apply NNPP. intro Ni. apply No. exists i. auto. }
    apply existsb_exists. exists i. split; [apply in_seq; lia |].
    apply Bool.andb_true_iff. split.
    + apply forallb_forall. intros i' Hi'. apply in_seq in Hi'. apply Before. lia.
    + destruct (bad_at i (clear w)) eqn:B; [reflexivity | exfalso]. apply Bad.
      unfold iter_ok. rewrite B. simpl. apply forallb_forall. intros j _.
      rewrite no_step_fails. reflexivity.
Qed.

Lemma run_law_draws_ok (wt : R) (w : Omega) :
  List.In (wt, w) (outcomes (run_law k n 1 r 1 one_range)) -> draws_ok k (fst w).
Proof.
  destruct w as [a t]. intro Hw. unfold run_law in Hw. apply in_prod in Hw. destruct Hw as [[w1 Ha] _].
  intros b Hb. destruct (in_iid_elem _ _ _ _ Ha b Hb) as [wb Hwb]. exact (block_support k n r 1 one_range wb b Hwb).
Qed.

(* The run outputs the oracle's clustering with probability at least 1 - delta once
   r >= k eta draws per iteration with eta >= eta_McD(k, delta, gamma', 1) (the McDiarmid eta of
   Theorem 1 with every draw assignment-known). *)
Theorem dw_run_correct (delta eta : R) :
  0 < delta < 1 -> BoundsMcDiarmid.eta_mcdiarmid k delta gamma' 1 <= eta -> INR K * eta <= INR r ->
  P (run_law k n 1 r 1 one_range) (fun w => negb (dw_recovered w)) <= delta.
Proof.
  intros Dr Eta Rr.
  eapply Rle_trans.
  { apply (P_monotone_support _ _ (fun w => existsb (fun i => forallb (fun i' => ok_at i' (clear w))
                                                      (seq 0 i) && bad_at i (clear w))%bool (seq 0 K))).
    intros wt w Hw NR. apply dw_fail_bad; [exact (run_law_draws_ok wt w Hw) | apply Bool.negb_true_iff, NR]. }
  eapply Rle_trans.
  { right. apply (run_law_clear k n 1 r one_range
                   (fun w => existsb (fun i => forallb (fun i' => ok_at i' w) (seq 0 i) && bad_at i w)%bool
                               (seq 0 K))). }
  eapply Rle_trans; [apply Theorem1.finite_union |].
  set (w0 := BoundsMcDiarmid.mcd_root k delta).
  assert (W0 : 0 <= w0) by apply sqrt_pos.
  assert (C0 : 0 < BoundsMcDiarmid.mcd_exponent k delta gamma')
    by (apply BoundsMcDiarmid.mcd_exponent_pos; assumption).
  assert (Cl : forall t (Hc : cluster_rows n label t <> []) l,
             P (iid (uniform (cluster_rows n label t) Hc) l) (bad_z n m gamma' label pt t)
             <= exp (w0 / 2) * exp (- (INR l * BoundsMcDiarmid.mcd_exponent k delta gamma'))).
  { apply (cluster_tail_from n m gamma' label pt
             (fun l => exp (w0 / 2) * exp (- (INR l * BoundsMcDiarmid.mcd_exponent k delta gamma')))).
    - simpl INR. rewrite Rmult_0_l, Ropp_0, exp_0, Rmult_1_r. rewrite <- exp_0.
      apply Hoeffding.exp_mono. lra.
    - exact gamma'_gt_1.
    - intros t HC l _. apply Theorem1McDiarmid.uniform_lemma7_mcd_tail; [apply cluster_radius | exact gamma'_gt_1]. }
  eapply Rle_trans; [apply (Theorem1.rsum_le K _ (fun _ => delta / (2 * Rpos k))) |].
  - intros i Hi. eapply Rle_trans.
    { apply (run_lemma7 k n m gamma' 1 elim r 1 one_range k_elim label pt label_range gamma'_gt_1 margin'
               (exp (w0 / 2)) (BoundsMcDiarmid.mcd_exponent k delta gamma')); [| | exact Cl | exact Hi].
      - rewrite <- exp_0. apply Hoeffding.exp_mono. lra.
      - lra. }
    apply (proj2 (BoundsMcDiarmid.eta_mcdiarmid_inverts k delta gamma' 1 eta Dr gamma'_gt_1 ltac:(lra))) in Eta.
    eapply Rle_trans; [| exact Eta]. unfold BoundsMcDiarmid.mcd_tail. fold w0.
    apply Rmult_le_compat_l; [left; apply exp_pos |].
    apply draws_bound; [lra | lra | lra | lia | exact Rr].
  - rewrite Theorem1.rsum_const.
    assert (Kr : INR K = Rpos k) by (unfold Rpos; rewrite INR_IZR_INZ, positive_nat_Z; reflexivity).
    rewrite Kr. pose proof (Rpos_pos k). field_simplify; [| lra]. lra.
Qed.
End Run.
