(* Phase 2's "standard binary search" (Algorithms 2 and 4, line 1) with the conventions of
   proofs-notes/semantics.md S6, written as lib/src/algorithm/ssac.cpp's Run::binary_search
   writes it: positions 0..n-1, lo = 0, hi = n - 1 (signed), while lo <= hi probe
   j = lo + (hi - lo) / 2; "in" sets lo = j + 1, "out" sets hi = j - 1, "fail" (Algorithm 2: all
   beta answers not-sure) stops the search; at the end j* = lo.  Proved: the search takes at most
   bit_width n steps whatever the answers; on a prefix-monotone answer sequence it returns the
   boundary; it fails exactly when a probed position fails; and a probe's decision fails exactly
   when all of its beta answers are not-sure (Algorithm 2), never for Algorithm 4.
   Extracted to OCaml by Extract.v and run against lib's search (search-differential-test.sh). *)
From Coq Require Import ZArith Lia List.
Import ListNotations.
Open Scope Z_scope.

Inductive answer := Yes | No | NotSure.
Inductive decision := In | Out | Fail.
Inductive outcome := Boundary (j : Z) | Failed | NoFuel.

(* Run::vote: "in" on any yes, "out" on a no without a yes, "fail" when all are not-sure. *)
Fixpoint vote (answers : list answer) : decision :=
  match answers with
  | [] => Fail
  | Yes :: _ => In
  | No :: rest => match vote rest with In => In | _ => Out end
  | NotSure :: rest => vote rest
  end.

(* Algorithm 2, lines 3-7: the beta answers of Q(y, x_j), y in B. *)
Definition decide_random (answers : list answer) : decision := vote answers.

(* Algorithm 4, lines 4-15: Q(x_1, x_j) first; on not-sure, beta - 1 more answers, and a vote
   that fails counts as out (the unified search never fails). *)
Definition decide_unified (x1_answer : answer) (more : list answer) : decision :=
  match x1_answer with
  | Yes => In
  | No => Out
  | NotSure => match vote more with Fail => Out | d => d end
  end.

(* The search loop with `fuel` steps at most; it returns the positions probed and the outcome. *)
Fixpoint search (fuel : nat) (probe : Z -> decision) (lo hi : Z) : list Z * outcome :=
  if lo <=? hi then
    match fuel with
    | O => ([], NoFuel)
    | S f =>
        let j := lo + (hi - lo) / 2 in
        match probe j with
        | In => let '(t, o) := search f probe (j + 1) hi in (j :: t, o)
        | Out => let '(t, o) := search f probe lo (j - 1) in (j :: t, o)
        | Fail => ([j], Failed)
        end
    end
  else ([], Boundary lo).

(* bit_width n = floor(log2 n) + 1 for n >= 1 (theory::search_steps). *)
Definition bit_width (n : Z) : nat := if n <=? 0 then O else Z.to_nat (Z.log2 n + 1).

Definition binary_search (n : Z) (probe : Z -> decision) : list Z * outcome :=
  search (bit_width n) probe 0 (n - 1).

(* ---- Step bound ------------------------------------------------------------------------- *)

Lemma search_steps_le_fuel fuel probe lo hi :
  (length (fst (search fuel probe lo hi)) <= fuel)%nat.
Proof.
  revert lo hi. induction fuel as [| f IH]; intros lo hi; simpl.
  - destruct (lo <=? hi); simpl; lia.
  - destruct (lo <=? hi); simpl; [| lia].
    destruct (probe (lo + (hi - lo) / 2)).
    + specialize (IH (lo + (hi - lo) / 2 + 1) hi).
      destruct (search f probe _ hi). simpl in *. lia.
    + specialize (IH lo (lo + (hi - lo) / 2 - 1)).
      destruct (search f probe lo _). simpl in *. lia.
    + simpl. lia.
Qed.

(* The halving step: both halves of an interval of size < 2^(f+1) have size < 2^f. *)
Lemma halves (lo hi : Z) (f : nat) :
  lo <= hi -> hi - lo + 1 < 2 ^ Z.of_nat (S f) ->
  hi - (lo + (hi - lo) / 2 + 1) + 1 < 2 ^ Z.of_nat f /\
  (lo + (hi - lo) / 2 - 1) - lo + 1 < 2 ^ Z.of_nat f /\
  lo <= lo + (hi - lo) / 2 <= hi.
Proof.
  intros Hle Hs. rewrite Nat2Z.inj_succ, Z.pow_succ_r in Hs by lia.
  pose proof (Z.div_mod (hi - lo) 2 ltac:(lia)) as D.
  pose proof (Z.mod_pos_bound (hi - lo) 2 ltac:(lia)) as M.
  lia.
Qed.

Lemma pow2_pos (f : nat) : 0 < 2 ^ Z.of_nat f.
Proof. apply Z.pow_pos_nonneg; lia. Qed.

(* With fuel covering the interval, the search never runs out of steps, whatever the answers. *)
Lemma search_enough_fuel fuel probe lo hi :
  hi - lo + 1 < 2 ^ Z.of_nat fuel -> snd (search fuel probe lo hi) <> NoFuel.
Proof.
  revert lo hi. induction fuel as [| f IH]; intros lo hi Hs; simpl.
  - destruct (Z.leb_spec lo hi); simpl; [lia | discriminate].
  - destruct (Z.leb_spec lo hi) as [Hle | Hgt]; simpl; [| discriminate].
    destruct (halves lo hi f Hle Hs) as [H1 [H2 _]].
    destruct (probe (lo + (hi - lo) / 2)).
    + specialize (IH _ hi H1). destruct (search f probe _ hi). simpl in *. exact IH.
    + specialize (IH lo _ H2). destruct (search f probe lo _). simpl in *. exact IH.
    + simpl. discriminate.
Qed.

Lemma bit_width_covers (n : Z) : 0 <= n -> n < 2 ^ Z.of_nat (bit_width n).
Proof.
  intro Hn. unfold bit_width. destruct (Z.leb_spec n 0).
  - simpl. lia.
  - rewrite Z2Nat.id by (pose proof (Z.log2_nonneg n); lia).
    destruct (Z.log2_spec n) as [_ H1]; [lia |].
    replace (Z.log2 n + 1) with (Z.succ (Z.log2 n)) by lia. exact H1.
Qed.

(* S6 / theory::search_steps: a search over n positions probes at most bit_width n of them and
   always ends (in a boundary or a failure). *)
Theorem binary_search_steps (n : Z) (probe : Z -> decision) :
  0 <= n ->
  (length (fst (binary_search n probe)) <= bit_width n)%nat /\
  snd (binary_search n probe) <> NoFuel.
Proof.
  intro Hn. split; [apply search_steps_le_fuel |].
  apply search_enough_fuel. pose proof (bit_width_covers n Hn). lia.
Qed.

(* ---- Correctness on prefix-monotone answers ---------------------------------------------- *)

(* The decisions are prefix-monotone with boundary b: position j is "in" iff j < b. *)
Definition prefix_monotone (n b : Z) (probe : Z -> decision) : Prop :=
  0 <= b <= n /\ forall j, 0 <= j < n -> probe j = (if j <? b then In else Out).

Lemma search_finds_boundary n b probe fuel lo hi :
  prefix_monotone n b probe -> 0 <= lo -> hi < n -> lo <= b <= hi + 1 ->
  hi - lo + 1 < 2 ^ Z.of_nat fuel -> snd (search fuel probe lo hi) = Boundary b.
Proof.
  intros [Hb Hp]. revert lo hi. induction fuel as [| f IH]; intros lo hi Hlo Hhi Hin Hs; simpl.
  - destruct (Z.leb_spec lo hi); simpl; [simpl in Hs; lia |]. f_equal. lia.
  - destruct (Z.leb_spec lo hi) as [Hle | Hgt]; simpl; [| f_equal; lia].
    destruct (halves lo hi f Hle Hs) as [H1 [H2 Hj]].
    rewrite Hp by lia.
    destruct (Z.ltb_spec (lo + (hi - lo) / 2) b).
    + specialize (IH (lo + (hi - lo) / 2 + 1) hi ltac:(lia) Hhi ltac:(lia) H1).
      destruct (search f probe _ hi). simpl in *. exact IH.
    + specialize (IH lo (lo + (hi - lo) / 2 - 1) Hlo ltac:(lia) ltac:(lia) H2).
      destruct (search f probe lo _). simpl in *. exact IH.
Qed.

(* Algorithms 2 and 4, line 1 with S6: on prefix-monotone decisions the search returns the
   boundary j* = b, the smallest position judged not in C_p (b = n when all are in). *)
Theorem binary_search_correct (n b : Z) (probe : Z -> decision) :
  prefix_monotone n b probe -> snd (binary_search n probe) = Boundary b.
Proof.
  intros Hm. pose proof Hm as [[Hb0 Hbn] _].
  apply (search_finds_boundary n b); try lia; try exact Hm.
  pose proof (bit_width_covers n ltac:(lia)). lia.
Qed.

(* ---- The failure event ------------------------------------------------------------------- *)

(* The search fails iff one of the positions it probes fails (and then that is its last probe);
   with Algorithm 2 a probe fails iff all its beta answers are not-sure (vote_fail_iff), so
   Theorem 1's union bound over at most bit_width n probes bounds exactly this event. *)
Theorem search_failed_iff fuel probe lo hi :
  snd (search fuel probe lo hi) = Failed <->
  exists j, List.In j (fst (search fuel probe lo hi)) /\ probe j = Fail.
Proof.
  revert lo hi. induction fuel as [| f IH]; intros lo hi; simpl.
  - destruct (lo <=? hi); simpl; split; try discriminate; intros [j [[] _]].
  - destruct (lo <=? hi); simpl; [| split; [discriminate | intros [j [[] _]]]].
    destruct (probe (lo + (hi - lo) / 2)) eqn:P.
    + specialize (IH (lo + (hi - lo) / 2 + 1) hi).
      destruct (search f probe _ hi). simpl in *. rewrite IH. split.
      * intros [j [Hj Hf]]. exists j. auto.
      * intros [j [[<- | Hj] Hf]]; [congruence | eauto].
    + specialize (IH lo (lo + (hi - lo) / 2 - 1)).
      destruct (search f probe lo _). simpl in *. rewrite IH. split.
      * intros [j [Hj Hf]]. exists j. auto.
      * intros [j [[<- | Hj] Hf]]; [congruence | eauto].
    + simpl. split; [intros _; exists (lo + (hi - lo) / 2); auto | reflexivity].
Qed.

Corollary binary_search_failed_iff n probe :
  snd (binary_search n probe) = Failed <->
  exists j, List.In j (fst (binary_search n probe)) /\ probe j = Fail.
Proof. apply search_failed_iff. Qed.

(* Algorithm 2: a step fails exactly when all of its beta answers are not-sure. *)
Theorem vote_fail_iff (answers : list answer) :
  vote answers = Fail <-> Forall (fun a => a = NotSure) answers.
Proof.
  induction answers as [| a rest IH]; simpl.
  - split; auto.
  - destruct a.
    + split; [discriminate | intro H; inversion H; discriminate].
    + destruct (vote rest); split; try discriminate; intro H; inversion H; discriminate.
    + rewrite IH. split; [intro H; constructor; auto | intro H; inversion H; auto].
Qed.

(* Algorithm 4 never fails a step, hence its search never fails. *)
Theorem decide_unified_never_fails x1 more : decide_unified x1 more <> Fail.
Proof. destruct x1; simpl; try discriminate. destruct (vote more); discriminate. Qed.

Corollary unified_search_never_fails n (x1 : Z -> answer) (more : Z -> list answer) :
  snd (binary_search n (fun j => decide_unified (x1 j) (more j))) <> Failed.
Proof.
  rewrite binary_search_failed_iff. intros [j [_ Hj]].
  exact (decide_unified_never_fails _ _ Hj).
Qed.

(* ---- The step at which a position is probed ---------------------------------------------
   Whatever the decisions, the search over [lo, hi] probes position pos, if at all, at one step:
   the depth of pos in the implicit search tree (the path of probes that leads to pos).  So the
   b-th answer of the j-th probe (how lib's Run::binary_search asks, step by step) and the b-th
   answer at position pos with depth pos = j are the same query: Algorithm1.v indexes Phase 2's
   erasures by (iteration, step, answer) through this depth. *)
Fixpoint depth_in (fuel : nat) (lo hi pos : Z) : nat :=
  match fuel with
  | O => O
  | S f =>
      let j := lo + (hi - lo) / 2 in
      if pos <? j then S (depth_in f lo (j - 1) pos)
      else if j <? pos then S (depth_in f (j + 1) hi pos)
      else O
  end.

Definition depth (n pos : Z) : nat := depth_in (bit_width n) 0 (n - 1) pos.

Lemma search_probes_in_range fuel probe lo hi pos :
  List.In pos (fst (search fuel probe lo hi)) -> lo <= pos <= hi.
Proof.
  revert lo hi. induction fuel as [| f IH]; intros lo hi; simpl.
  - destruct (lo <=? hi); simpl; tauto.
  - destruct (Z.leb_spec lo hi) as [Hle | Hgt]; simpl; [| tauto].
    pose proof (Z.div_pos (hi - lo) 2 ltac:(lia) ltac:(lia)).
    pose proof (Z.div_le_upper_bound (hi - lo) 2 (hi - lo) ltac:(lia) ltac:(lia)).
    destruct (probe (lo + (hi - lo) / 2)).
    + specialize (IH (lo + (hi - lo) / 2 + 1) hi).
      destruct (search f probe _ hi). simpl in *. intros [<- | H1]; [lia |]. apply IH in H1. lia.
    + specialize (IH lo (lo + (hi - lo) / 2 - 1)).
      destruct (search f probe lo _). simpl in *. intros [<- | H1]; [lia |]. apply IH in H1. lia.
    + simpl. intros [<- | []]. lia.
Qed.

Lemma search_probe_depth fuel probe lo hi (j : nat) pos :
  nth_error (fst (search fuel probe lo hi)) j = Some pos -> depth_in fuel lo hi pos = j.
Proof.
  revert lo hi j. induction fuel as [| f IH]; intros lo hi j; simpl.
  - destruct (lo <=? hi); simpl; destruct j; discriminate.
  - destruct (lo <=? hi); simpl; [| destruct j; discriminate].
    set (m := lo + (hi - lo) / 2).
    destruct (probe m).
    + pose proof (search_probes_in_range f probe (m + 1) hi) as R.
      specialize (IH (m + 1) hi). destruct (search f probe (m + 1) hi) as [t o]. simpl in *.
      destruct j as [| j]; simpl.
      * intro E. injection E as <-. rewrite Z.ltb_irrefl. reflexivity.
      * intro E. pose proof (R pos (nth_error_In _ _ E)).
        replace (pos <? m) with false by (symmetry; apply Z.ltb_ge; lia).
        replace (m <? pos) with true by (symmetry; apply Z.ltb_lt; lia).
        rewrite (IH j E). reflexivity.
    + pose proof (search_probes_in_range f probe lo (m - 1)) as R.
      specialize (IH lo (m - 1)). destruct (search f probe lo (m - 1)) as [t o]. simpl in *.
      destruct j as [| j]; simpl.
      * intro E. injection E as <-. rewrite Z.ltb_irrefl. reflexivity.
      * intro E. pose proof (R pos (nth_error_In _ _ E)).
        replace (pos <? m) with true by (symmetry; apply Z.ltb_lt; lia).
        rewrite (IH j E). reflexivity.
    + destruct j as [| j]; simpl; [| destruct j; discriminate].
      intro E. injection E as <-. rewrite Z.ltb_irrefl. reflexivity.
Qed.

(* The j-th position the search probes has depth j, whatever the decisions. *)
Theorem binary_search_probe_depth n probe (j : nat) pos :
  nth_error (fst (binary_search n probe)) j = Some pos -> depth n pos = j.
Proof. apply search_probe_depth. Qed.
