(* The run Theorem 1 is about, as the events of a trace, for extraction (ExtractRun.v) and the
   differential against lib (run-differential-test.sh, proofs-notes/extracted-run.md).

   The theorems of Theorem1Run.v (`theorem1_random_weak`, `theorem1_random_weak_mcdiarmid`) speak
   of `Algorithm1.recovered_b` of the run whose Phase 1 is `Theorem1Run.phase1_run` (Phase1Model's
   Phase 1 on Theorem1Run.state) and whose Phase 2 reads `Erasure.erased_at`, over
   w : Theorem1Run.Blocks * Erasure.Table, the support of `Theorem1Run.run_law`.  `run_events`
   below is not a second model of that run: every value it reports is computed by those
   definitions on that w,
   - S_i and the known clusters by Theorem1Run.state's own step (threaded, `go_state`),
   - Phase 1's draws as Theorem1Run reads them (u mod |S_i|, Phase1Tail.positions), the placements
     and Z_p by Phase1Model.assign_labels and phase1_zp, p and mu'_p by Algorithm1.pick on
     Theorem1Run.pick_at (= phase1_run on the run's state),
   - line 10's order, the search's probed positions, each probe's beta answers and decision,
     j*, r'_i and C'_p by Algorithm1.order, search_run, answers, probe, radius_at and iteration,
   - the output by Algorithm1.labels (`run_events_final`: the final event is `final_labels`, the
     theorem's labels renamed).
   `run_events_iterations` states it whole: run_events w is, iteration by iteration, the events read
   off Theorem1Run.state w j and Algorithm1.iteration on it (`iteration_report`), then the labels.
   The one thing added is the renaming of clusters: the theorem names a cluster by the oracle's
   label, lib by the run's number, which with overwrite off (S3) is the cluster's discovery
   position plus one; `run_number` renames by the known clusters of Theorem1Run.state (in
   discovery order, appended to and never reordered).  The iterations after S_i becomes empty
   are computed (the labels they leave are Algorithm1.labels's, `Algorithm1.iteration_empty`) but
   report nothing, as lib stops there (S8's empty remainder).

   The theorem's configuration is Algorithm 2's search (a probe asks beta answers, each the truth
   about x_j being in C_p unless its coin says not-sure: lib's Q(y, x_j) for y drawn from Z_p,
   which the comparison checks answer by answer), S4's self-pairs asked (Phase1Model's Phase 1
   does not see the anchors) and a random-weak oracle with fresh answers.  Corollary 8's query
   count for this run is proved from its definition at the end (`run_queries_bound`). *)
From Coq Require Import Reals List ZArith Arith Bool Lia Permutation.
Import ListNotations.
From SSAC Require Import Metric BinarySearch Phase1 Phase1Model Phase1Tail.
From SSAC Require FiniteProb Algorithm1 Erasure Theorem1Run RunModel Combinatorics.

(* The events of the theorem's run, in trace order (docs/trace-format.md): the fields the
   comparison reads.  A step reports its beta answers instead of B's rows (the theorem's probe
   asks about x_j's membership of C_p; lib's B is drawn from Z_p, whose rows are in C_p). *)
Inductive tevent :=
| TIteration (i remaining : nat)
| TSample (i : nat) (rows : list nat)
| TAssignment (i : nat) (clusters : list nat)
| TCluster (i p : nat) (zp : list nat) (x1 : nat) (order : list nat) (mu : list R)
| TStep (i step j row : nat) (answers : list answer) (d : decision)
| TOutcome (i : nat) (o : RunModel.result) (jstar : option nat) (radius : option R)
           (assigned : list nat)
| TFinal (labels : list nat).

(* lib's number of the cluster the theorem names by the oracle label p (S3, overwrite off): its
   position among the known clusters, plus one. *)
Fixpoint position (t : nat) (l : list nat) : nat :=
  match l with [] => O | h :: l' => if Nat.eqb h t then O else Datatypes.S (position t l') end.
Definition run_number (known : list nat) (p : nat) : nat := Datatypes.S (position p known).

Section TheoremRun.
(* Theorem1Run's run: k clusters, n rows in R^m, beta answers per probe, S2's elimination, the
   oracle's labels and the points. *)
Variables (k n : positive) (m beta : nat) (elim : bool) (label : nat -> nat) (pt : nat -> (nat -> R)).
Let K : nat := Pos.to_nat k.
Let n_rows : nat := Pos.to_nat n.
Let M : MetricSpace := Theorem1Run.Euclid m.
Definition Omega : Type := (Theorem1Run.Blocks * Erasure.Table)%type.
Let erased : Omega -> nat -> nat -> nat -> bool := fun w i j b => Erasure.erased_at (snd w) i j b.
(* The theorem's Phase 1 (the argument of Algorithm1.recovered_b in Theorem1Run.v). *)
Let ph : Omega -> nat -> option (nat * (nat -> R)) := Theorem1Run.phase1_run k n m beta elim label pt.
Let state := Theorem1Run.state k n m beta elim label pt.

(* Iteration i on the state st = (S_i, the known clusters), as Theorem1Run.state steps it. *)
Definition draws (w : Omega) (i : nat) (st : list nat * list nat) : list draw :=
  positions (length (fst st)) (nth i (fst w) []).
Definition phase (w : Omega) (i : nat) (st : list nat * list nat) : Omega -> nat -> option (nat * (nat -> R)) :=
  fun _ _ => Theorem1Run.pick_at k elim label pt w i st.
Definition iter (w : Omega) (i : nat) (st : list nat * list nat) : list nat * option (nat * list nat) :=
  Algorithm1.iteration M label pt Omega (phase w i st) erased beta w i (fst st).
(* The next state from the iteration's outcome `it` (= iter w i st: computed once in `go`). *)
Definition next_state_of (w : Omega) (i : nat) (st : list nat * list nat)
    (it : list nat * option (nat * list nat)) : list nat * list nat :=
  (fst it, phase1_known K elim label (fst st) (snd st) (draws w i st)).
Definition next_state (w : Omega) (i : nat) (st : list nat * list nat) : list nat * list nat :=
  next_state_of w i st (iter w i st).

Lemma go_state (w : Omega) (i : nat) : state w (Datatypes.S i) = next_state w i (state w i).
Proof. reflexivity. Qed.

(* The steps of the search of iteration i for p, mu'_p: each probed position, its row, its beta
   answers and the decision (Algorithm1.probe, which reads the answers of the probe's depth). *)
Fixpoint step_events (w : Omega) (i p : nat) (o : list nat) (steps : list Z) (s : nat)
  : list tevent :=
  match steps with
  | [] => []
  | pos :: rest =>
      let x := nth (Z.to_nat pos) o O in
      TStep (Datatypes.S i) s (Z.to_nat pos) x
            (Algorithm1.answers label Omega erased beta w i p (depth (Z.of_nat (length o)) pos) x)
            (Algorithm1.probe label Omega erased beta w i p o pos)
        :: step_events w i p o rest (Datatypes.S s)
  end.

(* The events of iteration i (S_i not empty) from its state and its outcome it = iter w i st;
   known' the clusters known after its Phase 1 (the renaming). *)
Definition iteration_events (w : Omega) (i : nat) (st : list nat * list nat)
    (it : list nat * option (nat * list nat)) : list tevent :=
  let S := fst st in
  let ds := draws w i st in
  let known' := phase1_known K elim label S (snd st) ds in
  let placed := fst (assign_labels K elim (snd st) (skeleton label S ds)) in
  let pre := [TSample (Datatypes.S i) (map (draw_row S) ds);
              TAssignment (Datatypes.S i)
                (map (fun o => match o with Some t => run_number known' t | None => O end) placed)] in
  match Algorithm1.pick M label Omega (phase w i st) w i S with
  | None => pre ++ [TOutcome (Datatypes.S i) RunModel.Phase1AllNotSure None None []]
  | Some (p, mu') =>
      let zp := match phase1_zp K elim label S (snd st) ds with Some (_, Z) => Z | None => [] end in
      let o := Algorithm1.order M pt mu' S in
      let res := Algorithm1.search_run M label pt Omega erased beta w i p mu' S in
      pre ++ TCluster (Datatypes.S i) (run_number known' p) zp (nth O o O) o (map mu' (seq 0 m))
          :: step_events w i p o (fst res) 1 ++
          [match snd res, snd it with
           | Boundary j, Some (_, C) =>
               TOutcome (Datatypes.S i) (match C with [] => RunModel.EmptyCluster | _ => RunModel.Recovered end)
                        (Some (Z.to_nat j)) (Algorithm1.radius_at M pt mu' o j) C
           | Failed, _ => TOutcome (Datatypes.S i) RunModel.SearchFailed None None []
           | _, _ => TOutcome (Datatypes.S i) RunModel.OutOfFuel None None []
           end]
  end.

(* Iterations i .. i + fuel - 1 from the state st and the labels lab so far: the events, the
   labels after them (Algorithm1.labels's step) and the known clusters.  `ended`: S was empty at
   an earlier iteration (lib has stopped; the theorem's iterations go on, changing nothing). *)
Fixpoint go (w : Omega) (i fuel : nat) (st : list nat * list nat) (lab : nat -> option nat)
    (ended : bool) : list tevent * (nat -> option nat) * list nat :=
  match fuel with
  | O => ([], lab, snd st)
  | Datatypes.S f =>
      let it := iter w i st in
      let lab' := fun x => match snd it with
                           | Some (p, C) => if in_dec Nat.eq_dec x C then Some p else lab x
                           | None => lab x
                           end in
      let empty := match fst st with [] => true | _ => false end in
      let ev := if ended then [] else
                if empty then [TIteration (Datatypes.S i) O;
                               TOutcome (Datatypes.S i) RunModel.EmptyRemainder None None []]
                else TIteration (Datatypes.S i) (length (fst st)) :: iteration_events w i st it in
      let '(e, l, kn) := go w (Datatypes.S i) f (next_state_of w i st it) lab' (ended || empty) in
      (ev ++ e, l, kn)
  end.

(* The theorem's output (Algorithm1.labels after the k iterations), renamed to lib's numbers by
   the clusters known at the end (0: no label). *)
Definition final_labels (w : Omega) : list nat :=
  map (fun x => match Algorithm1.labels M n_rows label pt Omega ph erased beta w K x with
                | Some p => run_number (snd (state w K)) p
                | None => O
                end) (seq 0 n_rows).

Definition run_events (w : Omega) : list tevent :=
  let '(e, lab, kn) := go w 0 K (state w 0) (fun _ => None) false in
  e ++ [TFinal (map (fun x => match lab x with Some p => run_number kn p | None => O end)
                    (seq 0 n_rows))].

(* The threaded iterations are the theorem's: from the theorem's state at i with its labels,
   fuel iterations leave its labels and known clusters at i + fuel. *)
Lemma go_spec (w : Omega) : forall f i lab ended,
  (forall x, lab x = Algorithm1.labels M n_rows label pt Omega ph erased beta w i x) ->
  (forall x, snd (fst (go w i f (state w i) lab ended)) x =
             Algorithm1.labels M n_rows label pt Omega ph erased beta w (i + f) x) /\
  snd (go w i f (state w i) lab ended) = snd (state w (i + f)).
Proof.
  induction f as [| f IH]; intros i lab ended Hlab.
  - simpl. rewrite Nat.add_0_r. split; [exact Hlab | reflexivity].
  - simpl go. change (next_state_of w i (state w i) (iter w i (state w i)))
      with (next_state w i (state w i)). rewrite <- go_state.
    set (lab' := fun x => match snd (iter w i (state w i)) with
                          | Some (p, C) => if in_dec Nat.eq_dec x C then Some p else lab x
                          | None => lab x
                          end).
    assert (Hlab' : forall x, lab' x =
                              Algorithm1.labels M n_rows label pt Omega ph erased beta w (Datatypes.S i) x).
    { intro x. unfold lab'.
      change (Algorithm1.labels M n_rows label pt Omega ph erased beta w (Datatypes.S i) x) with
        (match snd (Algorithm1.iteration M label pt Omega ph erased beta w i
                      (Algorithm1.remaining M n_rows label pt Omega ph erased beta w i)) with
         | Some (p, C) => if in_dec Nat.eq_dec x C then Some p
                          else Algorithm1.labels M n_rows label pt Omega ph erased beta w i x
         | None => Algorithm1.labels M n_rows label pt Omega ph erased beta w i x
         end).
      replace (Algorithm1.remaining M n_rows label pt Omega ph erased beta w i) with (fst (state w i))
        by (symmetry; apply Theorem1Run.remaining_state).
      rewrite Hlab. reflexivity. }
    destruct (IH (Datatypes.S i) lab' (ended || match fst (state w i) with [] => true | _ => false end)
                Hlab') as [IH1 IH2].
    destruct (go w (Datatypes.S i) f (state w (Datatypes.S i)) lab' _) as [[e l] kn] eqn:G.
    simpl in IH1, IH2 |- *. replace (i + Datatypes.S f)%nat with (Datatypes.S i + f)%nat by lia.
    split; [exact IH1 | exact IH2].
Qed.

(* The run reported is the theorem's: its last event is the theorem's output, renamed. *)
Theorem run_events_final (w : Omega) :
  exists e, run_events w = e ++ [TFinal (final_labels w)].
Proof.
  unfold run_events.
  destruct (go_spec w K 0 (fun _ => None) false (fun x => eq_refl)) as [L Kn].
  destruct (go w 0 K (state w 0) (fun _ => None) false) as [[e lab] kn] eqn:G.
  exists e. do 3 f_equal. unfold final_labels. apply map_ext. intro x.
  simpl in L, Kn. rewrite L, Kn. reflexivity.
Qed.

(* On a run that recovers (the event Theorem 1 bounds), the reported labels are the oracle's,
   renamed. *)
Theorem final_labels_recovered (w : Omega) :
  Algorithm1.recovered_b M n_rows K label pt Omega ph erased beta w = true ->
  final_labels w = map (fun x => run_number (snd (state w K)) (label x)) (seq 0 n_rows).
Proof.
  intro R. apply Algorithm1.recovered_b_iff in R. unfold final_labels. apply map_ext_in.
  intros x Hx. apply in_seq in Hx. rewrite (R x ltac:(lia)). reflexivity.
Qed.
(* What iteration j reports, read off the theorem's state at j (Theorem1Run.state) alone, and
   whether S was empty at an iteration before j (lib has stopped). *)
Definition iteration_report (w : Omega) (j : nat) : list tevent :=
  match fst (state w j) with
  | [] => [TIteration (Datatypes.S j) O; TOutcome (Datatypes.S j) RunModel.EmptyRemainder None None []]
  | _ => TIteration (Datatypes.S j) (length (fst (state w j)))
           :: iteration_events w j (state w j) (iter w j (state w j))
  end.
Definition ended_before (w : Omega) (j : nat) : bool :=
  existsb (fun j' => match fst (state w j') with [] => true | _ => false end) (seq 0 j).

Lemma go_events (w : Omega) : forall f i lab,
  fst (fst (go w i f (state w i) lab (ended_before w i))) =
  concat (map (fun j => if ended_before w j then [] else iteration_report w j) (seq i f)).
Proof.
  induction f as [| f IH]; intros i lab; [reflexivity |].
  simpl go. change (next_state_of w i (state w i) (iter w i (state w i)))
    with (next_state w i (state w i)). rewrite <- go_state.
  assert (E : (ended_before w i || match fst (state w i) with [] => true | _ => false end)%bool =
              ended_before w (Datatypes.S i)).
  { unfold ended_before. rewrite seq_S, existsb_app. simpl. rewrite Bool.orb_false_r. reflexivity. }
  rewrite E.
  match goal with |- context [go w (Datatypes.S i) f (state w (Datatypes.S i)) ?l _] =>
    specialize (IH (Datatypes.S i) l) end.
  destruct (go w (Datatypes.S i) f (state w (Datatypes.S i)) _ (ended_before w (Datatypes.S i)))
    as [[e l] kn] eqn:G.
  simpl in IH |- *. rewrite IH. f_equal.
  unfold iteration_report. destruct (ended_before w i); [reflexivity |].
  destruct (fst (state w i)); reflexivity.
Qed.

(* The extracted function is the theorem's run, iteration by iteration: each iteration's events
   are computed from Theorem1Run.state at that iteration, and the last event is its labels. *)
Theorem run_events_iterations (w : Omega) :
  run_events w =
  concat (map (fun j => if ended_before w j then [] else iteration_report w j) (seq 0 K))
    ++ [TFinal (final_labels w)].
Proof.
  destruct (run_events_final w) as [e E]. rewrite E. f_equal.
  pose proof (go_events w K 0 (fun _ => None)) as G.
  change (ended_before w 0) with false in G.
  unfold run_events in E.
  destruct (go w 0 K (state w 0) (fun _ => None) false) as [[e' lab] kn] eqn:Go.
  simpl fst in G.
  apply app_inj_tail in E. destruct E as [<- _]. exact G.
Qed.

(* ---- Corollary 8's query count, from the run's definition ---------------------------------- *)
(* The same-cluster queries of the run, counted on its definition.  Phase 1 (lines 5-7): a draw's
   cluster-assignment query asks one same-cluster query per known cluster, the pairs
   (known cluster, coin) whose answers Phase1.assign forms (`combine known cs`); the known clusters
   grow as Phase1Model.assign_labels grows them.  Phase 2 (lines 11-12): each probe of
   Algorithm1.search_run asks its beta answers (Algorithm1.answers).  An iteration with S_i empty
   asks nothing (lib stops there). *)
Local Open Scope nat_scope.
Fixpoint assign_queries (known : list nat) (sk : list (nat * list bool)) : nat :=
  match sk with
  | [] => O
  | (lx, cs) :: sk' =>
      length (combine known cs) +
      match assign K elim known lx cs with
      | Opens => assign_queries (known ++ [lx]) sk'
      | _ => assign_queries known sk'
      end
  end.

Definition phase1_queries (w : Omega) (i : nat) (st : list nat * list nat) : nat :=
  match fst st with
  | [] => O
  | _ => assign_queries (snd st) (skeleton label (fst st) (draws w i st))
  end.

Definition phase2_queries (w : Omega) (i : nat) (st : list nat * list nat) : nat :=
  match fst st with
  | [] => O
  | _ =>
      match Algorithm1.pick M label Omega (phase w i st) w i (fst st) with
      | None => O
      | Some (p, mu') =>
          let o := Algorithm1.order M pt mu' (fst st) in
          fold_right plus O
            (map (fun pos => length (Algorithm1.answers label Omega erased beta w i p
                                       (depth (Z.of_nat (length o)) pos) (nth (Z.to_nat pos) o O)))
                 (fst (Algorithm1.search_run M label pt Omega erased beta w i p mu' (fst st))))
      end
  end.

(* The queries of the k iterations of the theorem's run. *)
Definition run_queries (w : Omega) : nat :=
  fold_right plus O
    (map (fun i => phase1_queries w i (state w i) + phase2_queries w i (state w i)) (seq 0 K)).

Lemma assign_queries_le (c : nat) (sk : list (nat * list bool)) : forall known,
  (forall sx, List.In sx sk -> length (snd sx) <= c) -> assign_queries known sk <= length sk * c.
Proof.
  induction sk as [| [lx cs] sk IH]; intros known H; simpl; [lia |].
  assert (Lc : length (combine known cs) <= c).
  { rewrite combine_length. pose proof (H (lx, cs) (or_introl eq_refl)). simpl in *. lia. }
  assert (Hs : forall sx, List.In sx sk -> length (snd sx) <= c) by (intros; apply H; right; assumption).
  destruct (assign K elim known lx cs);
    [pose proof (IH known Hs) | pose proof (IH (known ++ [lx]) Hs) | pose proof (IH known Hs)]; lia.
Qed.

Lemma sum_const_le (b : nat) (l : list Z) (f : Z -> nat) :
  (forall x, f x = b) -> fold_right plus O (map f l) = length l * b.
Proof. intro H. induction l as [| x l IH]; simpl; [lia | rewrite H, IH; lia]. Qed.

(* S_i lists distinct rows of 0..n-1, so |S_i| <= n. *)
Lemma state_rows (w : Omega) (i : nat) :
  NoDup (fst (state w i)) /\ incl (fst (state w i)) (seq 0 n_rows).
Proof.
  induction i as [| i [Nd Inc]].
  - split; [apply seq_NoDup | apply incl_refl].
  - rewrite go_state. unfold next_state, iter. simpl fst.
    unfold Algorithm1.iteration.
    destruct (Algorithm1.pick _ _ _ _ _ _ _) as [[p mu'] |]; [| split; assumption].
    destruct (snd (Algorithm1.search_run _ _ _ _ _ _ _ _ _ _ _)); try (split; assumption).
    split; [apply NoDup_filter, Nd |]. intros x Hx. apply filter_In in Hx. apply Inc. tauto.
Qed.

Lemma phase2_queries_le (w : Omega) (i : nat) :
  phase2_queries w i (state w i) <= beta * BinarySearch.bit_width (Z.of_nat n_rows).
Proof.
  unfold phase2_queries. destruct (fst (state w i)) as [| x S] eqn:ES; [lia |].
  destruct (Algorithm1.pick _ _ _ _ _ _ _) as [[p mu'] |]; [| lia].
  rewrite <- ES. rewrite (sum_const_le beta).
  2: { intro pos. unfold Algorithm1.answers. rewrite map_length, seq_length. reflexivity. }
  unfold Algorithm1.search_run.
  set (o := Algorithm1.order M pt mu' (fst (state w i))).
  assert (Lo : length o <= n_rows).
  { unfold o. rewrite <- (Permutation_length (Algorithm1.order_perm M pt mu' _)).
    destruct (state_rows w i) as [Nd Inc]. rewrite <- (seq_length n_rows 0).
    apply NoDup_incl_length; assumption. }
  pose proof (proj1 (binary_search_steps (Z.of_nat (length o))
                       (Algorithm1.probe label Omega erased beta w i p o) ltac:(lia))) as L.
  pose proof (Algorithm1.bit_width_mono (Z.of_nat (length o)) (Z.of_nat n_rows) ltac:(lia)).
  nia.
Qed.

(* Corollary 8's count (proofs-notes/corollary1-complexity.md, Phase 1 corrected to k^3 eta):
   with r draws per iteration, each with its k coins, the run asks at most k (k r + beta S)
   same-cluster queries, S = bit_width n the search's steps. *)
Theorem run_queries_bound (w : Omega) (r : nat) :
  (forall i, length (nth i (fst w) []) <= r) ->
  (forall i d, List.In d (nth i (fst w) []) -> length (snd d) = K) ->
  run_queries w <= K * (K * r + beta * BinarySearch.bit_width (Z.of_nat n_rows)).
Proof.
  intros Lr Lc. unfold run_queries.
  assert (G : forall l, fold_right plus O
                (map (fun i => phase1_queries w i (state w i) + phase2_queries w i (state w i)) l)
              <= length l * (K * r + beta * BinarySearch.bit_width (Z.of_nat n_rows))).
  { induction l as [| i l IH]; simpl; [lia |].
    assert (P1 : phase1_queries w i (state w i) <= K * r).
    { unfold phase1_queries. destruct (fst (state w i)) as [| x S] eqn:ES; [lia |]. rewrite <- ES.
      eapply Nat.le_trans; [apply (assign_queries_le K) |].
      - intros sx Hsx. unfold skeleton, draws, positions in Hsx. rewrite map_map in Hsx.
        apply in_map_iff in Hsx. destruct Hsx as [d [<- Hd]]. simpl. rewrite (Lc i d Hd). lia.
      - unfold skeleton, draws, positions. rewrite !map_length. pose proof (Lr i). nia. }
    pose proof (phase2_queries_le w i). lia. }
  specialize (G (seq 0 K)). rewrite seq_length in G. exact G.
Qed.

(* The same on the support of the theorem's law (Theorem1Run.run_law: k blocks of r draws, k coins
   each), and at r = k eta in Corollary 8's form k (k (k eta) + beta S)
   (Combinatorics.corollary8_queries). *)
Theorem run_queries_support (r : nat) (qt : R) (qt_range : (0 <= qt <= 1)%R) (pw : R) (w : Omega) :
  List.In (pw, w) (FiniteProb.outcomes (Theorem1Run.run_law k n beta r qt qt_range)) ->
  run_queries w <= K * (K * r + beta * BinarySearch.bit_width (Z.of_nat n_rows)).
Proof.
  intro Hw. destruct w as [a t].
  destruct (FiniteProb.in_prod _ _ _ _ _ Hw) as [[wa Ha] _].
  apply run_queries_bound; simpl fst.
  - intro i. destruct (nth_in_or_default i a []) as [Hi | ->]; [| simpl; lia].
    destruct (FiniteProb.in_iid_elem _ _ _ _ Ha _ Hi) as [wb Hb].
    rewrite (FiniteProb.iid_length _ _ _ _ Hb). lia.
  - intros i d Hd. destruct (nth_in_or_default i a []) as [Hi | E]; [| rewrite E in Hd; destruct Hd].
    destruct (FiniteProb.in_iid_elem _ _ _ _ Ha _ Hi) as [wb Hb].
    exact (Theorem1Run.block_support k n r qt qt_range wb _ Hb d Hd).
Qed.

Theorem run_queries_corollary8 (eta : nat) (qt : R) (qt_range : (0 <= qt <= 1)%R) (pw : R) (w : Omega) :
  List.In (pw, w) (FiniteProb.outcomes (Theorem1Run.run_law k n beta (K * eta) qt qt_range)) ->
  run_queries w <= K * (K * (K * eta) + beta * BinarySearch.bit_width (Z.of_nat n_rows)).
Proof. apply run_queries_support. Qed.
End TheoremRun.
