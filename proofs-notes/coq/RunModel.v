(* The whole run of Algorithm 1 (Phase 1 and Phase 2, every search and anchor rule of the
   reference under a random-weak oracle) as one executable function of the run's random choices,
   written as lib/src/algorithm/ssac.cpp writes it, for extraction to OCaml (ExtractRun.v) and
   comparison with lib on traces (run-differential-test.sh, proofs-notes/extracted-run.md).

   This is the run by rows, with every query and anchor lib's trace records, for every rule of
   the corpus, those the theorem does not cover included (Algorithms 3 and 4 and the plain
   search, the four anchor rules, self-pairs not asked).  The run Theorem 1 is
   about is RunTheorem.run_events (Theorem1Run.v's own definitions, extracted as well); the two
   share Algorithm1.v's line 10, r'_i and C'_p and BinarySearch.v's search, and
   `assign_rows_is_phase1_assign` links this Phase 1 to Phase1.assign's.  Built from the proved
   pieces, not beside them:
   - Definition 4's answer to one query is Phase1.weak_answer (Definition 5: the truth, or
     not-sure when the query's erasure coin says so); `assign_rows` decides a draw's placement
     from its anchors' answers by position, and `assign_rows_is_phase1_assign` proves that this is
     Phase1.assign's placement on the anchors' oracle clusters and the same coins;
   - line 8's p is Phase1.choose_cluster (S7);
   - line 10's order is Algorithm1.order (ties by row, S6), r'_i is Algorithm1.radius_at and
     C'_p is Algorithm1's strict `below` (S6);
   - the search is BinarySearch.binary_search with Algorithm 2's vote (decide_random), Algorithm
     4's decision (decide_unified), and the one-answer decisions of Algorithm 3 and of the plain
     search; the b-th answer of a probe reads the coin of the probe's step, the position's depth
     (BinarySearch.binary_search_probe_depth), as in Algorithm1.v.

   The randomness `w : Choices` is what a trace records (docs/trace-format.md): the Phase-1
   draws as positions in S_i, the anchor draws of the random anchor rules as positions in the
   rows known to be in the cluster, the draws of B as positions in the multiset Z_p, and per query
   an erasure coin (and, for the original SSAC's plain search, whose oracle replaces a not-sure by
   a fair coin, that coin).  Phase 1's coins and anchor draws are consumed in query order within
   an iteration (one fresh coin per query, S4's self-pairs included); Phase 2's are indexed by
   (iteration, step, answer).  The data: rows 0..n-1 with points pt x in a metric space and the
   oracle's label of each row; `mean zp` is mu'_p, the mean of the multiset Z_p (R^m's mean when
   the space is R^m).  The rules fixed to the paper's: overwrite off (S3), sample-cap off (S1),
   phase2=radius (S6), empty-recovers off (S8), b-order=xj-first (S5). *)
From Coq Require Import Reals List ZArith Arith Bool Lia.
Import ListNotations.
From SSAC Require Import Metric BinarySearch.
From SSAC Require Algorithm1 Phase1.
Open Scope nat_scope.

Inductive search_rule := SearchRandom | SearchDistance | SearchUnified | SearchPlain.
Inductive anchor_rule := AnchorOpener | AnchorLowest | AnchorRandomLabelled | AnchorRandomKnown.
Inductive purpose := PAssignment | PSearchX1 | PSearchZ | PSearchSample.
Inductive result := Recovered | EmptyCluster | Phase1AllNotSure | SearchFailed | EmptyRemainder
                  | OutOfFuel.

(* The events of a run, with the fields the comparison reads (docs/trace-format.md). *)
Inductive event :=
| EIteration (i remaining : nat)
| ESample (i : nat) (rows : list nat)
| EAnchor (i x t : nat) (candidates : list nat) (row : nat)
| EQuery (i phase : nat) (p : purpose) (x y : nat) (a : answer)
| EAssignment (i : nat) (clusters : list nat)
| ECluster (i p : nat) (zp : list nat) (x1 : nat) (order : list nat)
| EStep (i step j row : nat) (sample : list nat) (d : decision)
| EOutcome (i : nat) (o : result) (jstar : option nat) (assigned : list nat)
| EFinal (labels : list nat).

(* The run's random choices (see the header). *)
Record Choices := {
  draw1 : nat -> nat -> list nat -> nat;           (* iteration, draw s, S_i: a position *)
  coin1 : nat -> nat -> bool * bool;               (* iteration, c-th Phase-1 query: erased, flip *)
  adraw : nat -> nat -> list nat -> nat;           (* iteration, c-th anchor draw, candidates *)
  coin2 : nat -> nat -> nat -> bool * bool;        (* iteration, step, answer b (0: x_1's or z's) *)
  bdraw : nat -> nat -> nat -> list nat -> nat     (* iteration, step, b-th draw of B, Z_p *)
}.

Section RunModel.
Variable M : MetricSpace.
Variables (n k r beta : nat).
Variable label : nat -> nat.
Variable pt : nat -> M.
Variable mean : list nat -> M.
Variables (search : search_rule) (anchor : anchor_rule) (self_pairs elim : bool).
Variable w : Choices.

(* The oracle's answer to a pair whose truth is `same`: Definition 5 (Phase1.weak_answer); for
   the original SSAC (the plain search) a not-sure is replaced by the fair coin `flip`. *)
Definition coin_flip : bool := match search with SearchPlain => true | _ => false end.
Definition oracle_answer (same : bool) (c : bool * bool) : answer :=
  if coin_flip && fst c then (if snd c then Yes else No) else Phase1.weak_answer same (fst c).

Definition truth (x y : nat) : bool := Nat.eqb (label x) (label y).

(* Whether the pair goes to the oracle: always, unless self-pairs=off (S4). *)
Definition asks (x y : nat) : bool := self_pairs || negb (Nat.eqb x y).

Record state := mkState {
  remaining : list nat;          (* S_i, increasing rows *)
  labels : list nat;             (* per row, 0 = unassigned *)
  known : list nat;              (* known clusters, discovery order *)
  openers : list (nat * nat);    (* (cluster, its opener) *)
  placed : list nat              (* per row, the cluster a Phase-1 query last placed it in *)
}.

Fixpoint set_nth (l : list nat) (x v : nat) : list nat :=
  match l, x with
  | [], _ => []
  | _ :: t, O => v :: t
  | h :: t, S x' => h :: set_nth t x' v
  end.

Definition opener_of (st : state) (t : nat) : nat :=
  match find (fun tc => Nat.eqb (fst tc) t) (openers st) with Some (_, x) => x | None => n end.

(* Run::known_rows: rows labelled t, t's opener (overwrite off), and under random-known-row the
   rows a Phase-1 query placed in t; increasing. *)
Definition known_rows (st : state) (t : nat) : list nat :=
  filter (fun x => Nat.eqb (nth x (labels st) 0) t || Nat.eqb x (opener_of st t) ||
                   (match anchor with AnchorRandomKnown => true | _ => false end &&
                    Nat.eqb (nth x (placed st) 0) t))%bool
         (seq 0 n).

(* Run::anchor_of for the draw x of iteration i; ca counts the iteration's anchor draws. *)
Definition anchor_of (i x t : nat) (st : state) (ca : nat) : nat * nat * list event :=
  match anchor with
  | AnchorOpener => (opener_of st t, ca, [])
  | _ =>
      match known_rows st t with
      | [] => (opener_of st t, ca, [])
      | (h :: _) as rows =>
          match anchor with
          | AnchorLowest => (h, ca, [])
          | _ => let row := nth (adraw w i ca rows) rows 0 in
                 (row, S ca, [EAnchor i x t rows row])
          end
      end
  end.

Fixpoint anchors_of (i x : nat) (st : state) (ts : list nat) (ca : nat)
  : list nat * nat * list event :=
  match ts with
  | [] => ([], ca, [])
  | t :: ts' =>
      let '(a, ca1, e1) := anchor_of i x t st ca in
      let '(l, ca2, e2) := anchors_of i x st ts' ca1 in (a :: l, ca2, e1 ++ e2)
  end.

(* Definition 4's queries Q(x, anchor), one fresh coin each, in discovery order. *)
Fixpoint ask_anchors (i x : nat) (anchors : list nat) (cq : nat) : list answer * nat * list event :=
  match anchors with
  | [] => ([], cq, [])
  | a :: rest =>
      let ans := oracle_answer (truth x a) (coin1 w i cq) in
      let '(l, cq', e) := ask_anchors i x rest (S cq) in
      (ans :: l, cq', EQuery i 1 PAssignment x a ans :: e)
  end.

(* Phase1.assign's decision on the answers, by position: the first yes; all no while fewer than
   k are known opens (None); with all k known, k-1 no's and one not-sure, that one (S2). *)
Inductive placement := At (pos : nat) | Opens | Unplaced.

Fixpoint first_yes (ans : list answer) : option nat :=
  match ans with
  | [] => None
  | Yes :: _ => Some 0
  | _ :: rest => option_map S (first_yes rest)
  end.

Definition count (f : answer -> bool) (ans : list answer) : nat := length (filter f ans).

Definition decide_assignment (ans : list answer) : placement :=
  match first_yes ans with
  | Some pos => At pos
  | None =>
      let nos := count Phase1.is_no ans in
      if Nat.eqb nos (length ans) && Nat.ltb (length ans) k then Opens
      else if elim && Nat.eqb (length ans) k && Nat.eqb (count Phase1.is_unsure ans) 1 &&
              Nat.eqb nos (k - 1) then
        match first_yes (map (fun a => if Phase1.is_unsure a then Yes else No) ans) with
        | Some pos => At pos
        | None => Unplaced
        end
      else Unplaced
  end%bool.

Fixpoint first_self (x : nat) (anchors : list nat) : option nat :=
  match anchors with
  | [] => None
  | a :: rest => if Nat.eqb a x then Some 0 else option_map S (first_self x rest)
  end.

(* S3: a new cluster takes the smallest number in 1.. not known. *)
Definition smallest_free (ks : list nat) : nat :=
  match find (fun t => negb (existsb (Nat.eqb t) ks)) (seq 1 (S (length ks))) with
  | Some t => t
  | None => S (length ks)
  end.

(* Run::assign for the draw x: its cluster (0: not placed), the state, the counters, events. *)
Definition assign_rows (i x : nat) (st : state) (cq ca : nat)
  : nat * state * nat * nat * list event :=
  let '(anchors, ca', ea) := anchors_of i x st (known st) ca in
  match (if self_pairs then None else first_self x anchors) with
  | Some pos => (nth pos (known st) 0, st, cq, ca', ea)
  | None =>
      let '(ans, cq', eq) := ask_anchors i x anchors cq in
      match decide_assignment ans with
      | At pos => (nth pos (known st) 0, st, cq', ca', ea ++ eq)
      | Opens =>
          let t := smallest_free (known st) in
          (t, mkState (remaining st) (labels st) (known st ++ [t]) ((t, x) :: openers st)
                      (placed st), cq', ca', ea ++ eq)
      | Unplaced => (0, st, cq', ca', ea ++ eq)
      end
  end.

(* Lines 5-7 over the draws, in draw order. *)
Fixpoint assign_all (i : nat) (xs : list nat) (st : state) (cq ca : nat)
  : list nat * state * list event :=
  match xs with
  | [] => ([], st, [])
  | x :: xs' =>
      let '(t, st1, cq1, ca1, e1) := assign_rows i x st cq ca in
      let st2 := if Nat.ltb 0 t then
                   mkState (remaining st1) (labels st1) (known st1) (openers st1)
                           (set_nth (placed st1) x t)
                 else st1 in
      let '(ts, st3, e2) := assign_all i xs' st2 cq1 ca1 in (t :: ts, st3, e1 ++ e2)
  end.

(* ---- Phase 2's probe of position pos of the order o (step = depth of pos) --------------- *)
Fixpoint sample_answers (i step xj : nat) (ys : list nat) (b : nat) (x_first : bool)
  : list answer * list event :=
  match ys with
  | [] => ([], [])
  | y :: ys' =>
      let '(l, e) := sample_answers i step xj ys' (S b) x_first in
      if asks y xj then
        let a := oracle_answer (truth y xj) (coin2 w i step (S b)) in
        (a :: l, EQuery i 2 PSearchSample (if x_first then xj else y)
                        (if x_first then y else xj) a :: e)
      else (Yes :: l, e)  (* self-pairs=off: y = x_j taken as yes, not asked (S4) *)
  end.

Definition draw_b (i step count : nat) (zp : list nat) : list nat :=
  map (fun b => nth (bdraw w i step b zp) zp 0) (seq 0 count).

(* The decision at position pos, the queries asked, and B's rows. *)
Definition probe_full (i : nat) (zp o : list nat) (pos : Z) : decision * list event * list nat :=
  let step := depth (Z.of_nat (length o)) pos in
  let xj := nth (Z.to_nat pos) o 0 in
  let x1 := nth 0 o 0 in
  let one (u : nat) (pu : purpose) :=
    if asks u xj then
      let a := oracle_answer (truth u xj) (coin2 w i step 0) in
      (Some a, [EQuery i 2 pu u xj a])
    else (None, []) in
  match search with
  | SearchRandom =>
      let ys := draw_b i step beta zp in
      let '(ans, e) := sample_answers i step xj ys 0 false in (decide_random ans, e, ys)
  | SearchDistance =>
      match one x1 PSearchX1 with
      | (Some a, e) => (if Phase1.is_yes a then In else Out, e, [])
      | (None, e) => (In, e, [])
      end
  | SearchPlain =>
      match one (nth 0 zp 0) PSearchZ with
      | (Some a, e) => (if Phase1.is_yes a then In else Out, e, [])
      | (None, e) => (In, e, [])
      end
  | SearchUnified =>
      match one x1 PSearchX1 with
      | (Some NotSure, e) =>
          let ys := draw_b i step (beta - 1) zp in
          let '(ans, e') := sample_answers i step xj ys 0 true in
          (decide_unified NotSure ans, e ++ e', ys)
      | (Some a, e) => (decide_unified a [], e, [])
      | (None, e) => (In, e, [])
      end
  end.

Definition probe (i : nat) (zp o : list nat) (pos : Z) : decision :=
  fst (fst (probe_full i zp o pos)).

(* The queries and the step event of each probed position, in search order. *)
Fixpoint step_events (i : nat) (zp o : list nat) (steps : list Z) (s : nat) : list event :=
  match steps with
  | [] => []
  | pos :: rest =>
      let '(d, e, ys) := probe_full i zp o pos in
      e ++ EStep i s (Z.to_nat pos) (nth (Z.to_nat pos) o 0) ys d ::
        step_events i zp o rest (S s)
  end.

Definition count_cluster (ts : list nat) (t : nat) : nat := length (filter (Nat.eqb t) ts).

(* ---- Lines 9-13 for p (the run's number) and Z_p, from the state after Phase 1 ---------- *)
Definition phase2 (i : nat) (st1 : state) (p : nat) (zp : list nat) : state * list event :=
  let S_i := remaining st1 in
  let mu := mean zp in
  let o := Algorithm1.order M pt mu S_i in                               (* line 10 *)
  let res := binary_search (Z.of_nat (length o)) (probe i zp o) in       (* lines 11-12 *)
  let evs := ECluster i p zp (nth 0 o 0) o :: step_events i zp o (fst res) 1 in
  match snd res with
  | Boundary j =>
      let rad := Algorithm1.radius_at M pt mu o j in                    (* r'_i *)
      let C := filter (Algorithm1.below M pt mu rad) S_i in             (* line 13, strict *)
      let st2 := mkState (filter (fun x => negb (Algorithm1.below M pt mu rad x)) S_i)
                         (fold_left (fun l x => set_nth l x p) C (labels st1))
                         (known st1) (openers st1) (placed st1) in
      (st2, evs ++ [EOutcome i (match C with [] => EmptyCluster | _ => Recovered end)
                             (Some (Z.to_nat j)) C])
  | Failed => (st1, evs ++ [EOutcome i SearchFailed None []])
  | NoFuel => (st1, evs ++ [EOutcome i OutOfFuel None []])
  end.

(* ---- One iteration (lines 3-13), Phase 1 by rows as Run::phase1 ------------------------- *)
Definition iteration (i : nat) (st : state) : state * list event :=
  let S_i := remaining st in
  let xs := map (fun s => nth (draw1 w i s S_i) S_i 0) (seq 0 r) in     (* line 4, S1 *)
  let '(ts, st1, e1) := assign_all i xs st 0 0 in                       (* lines 5-7 *)
  let pre := ESample i xs :: e1 ++ [EAssignment i ts] in
  let chosen := Phase1.choose_cluster (map (count_cluster ts) (known st1)) in  (* line 8 *)
  if Nat.eqb chosen 0 then (st1, pre ++ [EOutcome i Phase1AllNotSure None []]) else
  let p := nth (chosen - 1) (known st1) 0 in
  let zp := map fst (filter (fun xt => Nat.eqb (snd xt) p) (combine xs ts)) in
  let '(st2, e2) := phase2 i st1 p zp in (st2, pre ++ e2).

(* Line 2: iterations i = 1..k; an empty S_i ends the loop (S8). *)
Fixpoint iterations (step : nat -> state -> state * list event) (i fuel : nat) (st : state)
  : state * list event :=
  match fuel with
  | O => (st, [])
  | S f =>
      match remaining st with
      | [] => (st, [EIteration i 0; EOutcome i EmptyRemainder None []])
      | _ =>
          let '(st1, e1) := step i st in
          let '(st2, e2) := iterations step (S i) f st1 in
          (st2, EIteration i (length (remaining st)) :: e1 ++ e2)
      end
  end.

Definition initial : state :=
  mkState (seq 0 n) (repeat 0 n) [] [] (repeat 0 n).

Definition run : list event :=
  let '(st, e) := iterations iteration 1 k initial in e ++ [EFinal (labels st)].

(* ---- The placement by rows is Phase1.assign's --------------------------------------------- *)
(* Phase1.assign names clusters by the oracle's labels; the run names them by discovery.  A draw
   placed at the anchor in position pos is placed by Phase1.assign in that anchor's oracle
   cluster, and the two agree on opening and on leaving x unplaced. *)
Definition as_phase1 (ls : list nat) (pl : placement) : Phase1.placement :=
  match pl with
  | At pos => Phase1.Placed (nth pos ls 0)
  | Opens => Phase1.Opens
  | Unplaced => Phase1.Unplaced
  end.

Lemma map_fst_combine_eq {A B} (l : list A) (l' : list B) :
  length l = length l' -> map fst (combine l l') = l.
Proof.
  revert l'. induction l as [| a l IH]; intros [| b l'] E; simpl in *; try discriminate;
    [reflexivity |]. rewrite IH by congruence. reflexivity.
Qed.

Lemma find_yes_first (l : list (nat * answer)) :
  find (fun ta => Phase1.is_yes (snd ta)) l =
  option_map (fun pos => nth pos l (0, Yes)) (first_yes (map snd l)).
Proof.
  induction l as [| [t a] l IH]; simpl; [reflexivity |].
  destruct a; simpl; [reflexivity | |]; rewrite IH; destruct (first_yes (map snd l)); reflexivity.
Qed.

Lemma count_filter (f : answer -> bool) (l : list (nat * answer)) :
  count f (map snd l) = length (filter (fun ta => f (snd ta)) l).
Proof.
  unfold count. induction l as [| [t a] l IH]; simpl; [reflexivity |].
  destruct (f a); simpl; rewrite ?IH; reflexivity.
Qed.

Lemma first_unsure (l : list (nat * answer)) :
  match filter (fun ta => Phase1.is_unsure (snd ta)) l with
  | (t, _) :: _ => Phase1.Placed t
  | [] => Phase1.Unplaced
  end =
  match first_yes (map (fun a => if Phase1.is_unsure a then Yes else No) (map snd l)) with
  | Some pos => Phase1.Placed (fst (nth pos l (0, Yes)))
  | None => Phase1.Unplaced
  end.
Proof.
  induction l as [| [t a] l IH]; simpl; [reflexivity |].
  destruct (Phase1.is_unsure a); simpl; [reflexivity |].
  rewrite IH. destruct (first_yes _); reflexivity.
Qed.

(* Definition 4's decision on answers, by position, is Phase1.assign's on the anchors' clusters:
   a draw placed at the anchor in position pos is placed in that anchor's oracle cluster. *)
Lemma decide_assignment_agrees (ls : list nat) (lx : nat) (cs : list bool) :
  length cs = length ls ->
  as_phase1 ls (decide_assignment
    (map (fun tc => Phase1.weak_answer (Nat.eqb (fst tc) lx) (snd tc)) (combine ls cs))) =
  Phase1.assign k elim ls lx cs.
Proof.
  intro L. unfold Phase1.assign.
  set (ans := map (fun tc => (fst tc, Phase1.weak_answer (Nat.eqb (fst tc) lx) (snd tc)))
                  (combine ls cs)).
  assert (Snd : map (fun tc => Phase1.weak_answer (Nat.eqb (fst tc) lx) (snd tc)) (combine ls cs)
                = map snd ans) by (unfold ans; rewrite map_map; reflexivity).
  assert (Fst : map fst ans = ls).
  { unfold ans. rewrite map_map. simpl. apply map_fst_combine_eq. congruence. }
  assert (Len : length (map snd ans) = length ls)
    by (rewrite map_length, <- Fst, map_length; reflexivity).
  rewrite Snd, find_yes_first. unfold decide_assignment.
  destruct (first_yes (map snd ans)) as [pos |]; simpl.
  - rewrite <- Fst at 1. change 0 with (fst (0, Yes)) at 1. rewrite (map_nth fst ans (0, Yes) pos). destruct (nth pos ans (0, Yes)); reflexivity.
  - rewrite Len, !count_filter.
    destruct (Nat.eqb _ _ && Nat.ltb _ _)%bool; [reflexivity |].
    destruct (elim && _ && _ && _)%bool; [| reflexivity].
    rewrite first_unsure. destruct (first_yes _) as [pos |]; simpl; [| reflexivity].
    rewrite <- Fst at 1. change 0 with (fst (0, Yes)) at 1. rewrite (map_nth fst ans (0, Yes) pos). destruct (nth pos ans (0, Yes)); reflexivity.
Qed.

(* The answers Run::assign's queries get are Definition 5's (no coin flips: a weak oracle). *)
Lemma ask_anchors_answers (i x : nat) (anchors : list nat) (cq : nat) :
  coin_flip = false ->
  fst (fst (ask_anchors i x anchors cq)) =
  map (fun tc => Phase1.weak_answer (Nat.eqb (fst tc) (label x)) (snd tc))
      (combine (map label anchors) (map (fun c => fst (coin1 w i c)) (seq cq (length anchors)))).
Proof.
  intro F. revert cq. induction anchors as [| a rest IH]; intro cq; [reflexivity |].
  simpl. specialize (IH (S cq)).
  destruct (ask_anchors i x rest (S cq)) as [[l cq'] e]. simpl in *. rewrite IH. f_equal.
  unfold oracle_answer, truth. rewrite F. simpl. rewrite Nat.eqb_sym. reflexivity.
Qed.

(* The run's placement of a draw x asked about `anchors` (Run::assign by rows, self-pairs asked)
   is Phase1.assign's (Definition 4 as Phase1.v and Phase1Model.v state it) on the anchors'
   oracle clusters and the same coins.  With the anchors in distinct clusters, `known`'s labels
   (always under the opener rule, and under every rule while Phase 2's labels are right), the
   anchor in position pos names the run's cluster in position pos. *)
Theorem assign_rows_is_phase1_assign (i x : nat) (anchors : list nat) (cq : nat) :
  coin_flip = false ->
  as_phase1 (map label anchors) (decide_assignment (fst (fst (ask_anchors i x anchors cq)))) =
  Phase1.assign k elim (map label anchors) (label x)
    (map (fun c => fst (coin1 w i c)) (seq cq (length anchors))).
Proof.
  intro F. rewrite (ask_anchors_answers i x anchors cq F). apply decide_assignment_agrees.
  rewrite !map_length, seq_length. reflexivity.
Qed.
End RunModel.
