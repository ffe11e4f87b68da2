(* Phase 1's count of assignment-known draws (Algorithm 1, lines 4-7) on the concrete space
   (FiniteProb.v): the part of Lemma 7's (lemma:distance_ran) proof that bounds the number A of
   draws Definition 4 places, with the dependence the code has (proofs-notes/semantics.md S2-S4).

   A is not Bin(r, q^{k-1}) in general: with clusters 1 and 2 known, a draw of cluster 1 is placed
   on one yes (probability q~), a draw of an undiscovered cluster 3 needs two no's (q~^2), and a
   draw that opens a cluster changes the law of the next.  What holds, and what the proof uses:
   - `assign_known_prob`: whatever the clusters known so far and whatever x's cluster, Definition
     4's query places x (a yes, an opening after no's, or S2's elimination) with probability
     >= q~^{k-1}, the coins being fresh (one per query, self-pairs asked: S4);
   - `sequential_mgf`: for any sequential process whose every step succeeds with conditional
     probability >= a given the past, E[e^{-tA}] <= (1 - a + a e^{-t})^r;
   - `phase1_count_mgf`: the two composed for r draws with replacement from S_i (S1), each
     assigned by Definition 4 with fresh coins: E[e^{-tA}] <= (1 - q~^{k-1} + q~^{k-1} e^{-t})^r.
   With k = 1 the bound q~^0 = 1 needs S2's elimination (the one known anchor's not-sure then
   still places x); without it a draw is placed only on a yes, probability q~ < 1.

   Not modelled here: the draws' identities within their clusters and the estimate mu'_p (the
   vector-Hoeffding half of Lemma 7; Phase1Model.v and Phase1Tail.v do both).  Under self-pairs=off (S4's former rule) a draw that is
   itself an anchor is placed without a query; `assign_known_prob` still holds (probability 1 for
   that draw), but the placed draws are then not exchangeable within their cluster given the
   clusters and coins (the anchor is placed more often than its cluster-mates), which is the step
   of Lemma 7 that fails for that rule; the count bound proved here does not see identities. *)
From Coq Require Import Reals Lra Lia List Permutation.
Import ListNotations.
From SSAC Require Import FiniteProb.
From SSAC Require BinarySearch Bounds Combinatorics.
Open Scope R_scope.

(* ---- The sequential MGF step -------------------------------------------------------------- *)
Section Sequential.
Variable State : Type.
(* One step from a state: the next state and whether this step succeeded. *)
Variable step : State -> Dist (State * bool).

(* The number of successes in r steps from state s. *)
Fixpoint count (r : nat) (s : State) : Dist nat :=
  match r with
  | O => ret O
  | Datatypes.S r' =>
      bind (step s) (fun sx => dmap (fun c => ((if snd sx then 1 else 0) + c)%nat) (count r' (fst sx)))
  end.

Lemma exp_ind (t : R) (b : bool) : exp (- t * INR (if b then 1 else 0)%nat) =
  1 - (1 - exp (- t)) * ind b.
Proof.
  destruct b; unfold ind; simpl.
  - rewrite Rmult_1_r. ring.
  - rewrite Rmult_0_r, exp_0. ring.
Qed.

(* If every step succeeds with probability >= a whatever the state (the past), then
   E[e^{-tA}] <= (1 - a + a e^{-t})^r: A is stochastically larger than Bin(r, a) in the sense the
   Chernoff bound of Lemma 7 needs. *)
Theorem sequential_mgf (a t : R) :
  0 <= a <= 1 -> 0 <= t -> (forall s, a <= P (step s) snd) ->
  forall r s, E (count r s) (fun A => exp (- t * INR A)) <= (1 - a + a * exp (- t)) ^ r.
Proof.
  intros Ha Ht Hstep. assert (Et : 0 < exp (- t) <= 1).
  { split; [apply exp_pos |]. rewrite <- exp_0. destruct (Req_dec t 0) as [-> | N].
    - rewrite Ropp_0. lra.
    - left. apply exp_increasing. lra. }
  assert (B0 : 0 <= 1 - a + a * exp (- t)) by nra.
  induction r as [| r IH]; intro s; simpl count.
  - rewrite E_ret. simpl. rewrite Rmult_0_r, exp_0. lra.
  - rewrite E_bind.
    apply Rle_trans with
      (E (step s) (fun sx => exp (- t * INR (if snd sx then 1 else 0)%nat) *
                             (1 - a + a * exp (- t)) ^ r)).
    + apply E_le. intros [s' x]. rewrite E_dmap. simpl fst. simpl snd.
      rewrite (E_ext_support _ _ (fun c => exp (- t * INR (if x then 1 else 0)%nat) *
                                           exp (- t * INR c))).
      * rewrite E_scale. apply Rmult_le_compat_l; [left; apply exp_pos | apply IH].
      * intros. rewrite plus_INR, <- exp_plus. f_equal. ring.
    + rewrite E_scale_r.
      change ((1 - a + a * exp (- t)) ^ Datatypes.S r)
        with ((1 - a + a * exp (- t)) * (1 - a + a * exp (- t)) ^ r).
      apply Rmult_le_compat_r.
      * apply pow_le. exact B0.
      * rewrite (E_ext_support _ _ (fun sx => 1 - (1 - exp (- t)) * ind (snd sx)))
          by (intros; apply exp_ind).
        unfold Rminus at 1. rewrite E_plus, E_const.
        rewrite (E_ext_support _ _ (fun sx => - (1 - exp (- t)) * ind (snd sx)))
          by (intros; ring).
        rewrite E_scale. specialize (Hstep s). unfold P in Hstep. nra.
Qed.
(* The same with an invariant of the states that the steps preserve (on their outcomes), for
   processes whose success bound holds only on reachable states. *)
Theorem sequential_mgf_inv (Inv : State -> Prop) (a t : R) :
  0 <= a <= 1 -> 0 <= t -> (forall s, Inv s -> a <= P (step s) snd) ->
  (forall s w sx, Inv s -> List.In (w, sx) (outcomes (step s)) -> Inv (fst sx)) ->
  forall r s, Inv s -> E (count r s) (fun A => exp (- t * INR A)) <= (1 - a + a * exp (- t)) ^ r.
Proof.
  intros Ha Ht Hstep Hinv. assert (Et : 0 < exp (- t) <= 1).
  { split; [apply exp_pos |]. rewrite <- exp_0. destruct (Req_dec t 0) as [-> | N].
    - rewrite Ropp_0. lra.
    - left. apply exp_increasing. lra. }
  assert (B0 : 0 <= 1 - a + a * exp (- t)) by nra.
  induction r as [| r IH]; intros s Is; simpl count.
  - rewrite E_ret. simpl. rewrite Rmult_0_r, exp_0. lra.
  - rewrite E_bind.
    apply Rle_trans with
      (E (step s) (fun sx => exp (- t * INR (if snd sx then 1 else 0)%nat) *
                             (1 - a + a * exp (- t)) ^ r)).
    + apply E_le_support. intros w [s' x] Hin. rewrite E_dmap. simpl fst. simpl snd.
      rewrite (E_ext_support _ _ (fun c => exp (- t * INR (if x then 1 else 0)%nat) *
                                           exp (- t * INR c))).
      * rewrite E_scale. apply Rmult_le_compat_l; [left; apply exp_pos |].
        apply IH. exact (Hinv s w (s', x) Is Hin).
      * intros. rewrite plus_INR, <- exp_plus. f_equal. ring.
    + rewrite E_scale_r.
      change ((1 - a + a * exp (- t)) ^ Datatypes.S r)
        with ((1 - a + a * exp (- t)) * (1 - a + a * exp (- t)) ^ r).
      apply Rmult_le_compat_r.
      * apply pow_le. exact B0.
      * rewrite (E_ext_support _ _ (fun sx => 1 - (1 - exp (- t)) * ind (snd sx)))
          by (intros; apply exp_ind).
        unfold Rminus at 1. rewrite E_plus, E_const.
        rewrite (E_ext_support _ _ (fun sx => - (1 - exp (- t)) * ind (snd sx)))
          by (intros; ring).
        rewrite E_scale. specialize (Hstep s Is). unfold P in Hstep. nra.
Qed.
End Sequential.

(* ---- Definition 4's cluster-assignment query (lib's Run::assign) -------------------------- *)
(* The weak oracle of Definition 5 on a pair whose truth is `same`, with erasure coin c: not-sure
   when the coin says so, otherwise the truth (it abstains, never lies). *)
Definition weak_answer (same : bool) (c : bool) : BinarySearch.answer :=
  if c then BinarySearch.NotSure else if same then BinarySearch.Yes else BinarySearch.No.

Inductive placement := Placed (t : nat) | Opens | Unplaced.

Definition is_yes (a : BinarySearch.answer) : bool :=
  match a with BinarySearch.Yes => true | _ => false end.
Definition is_no (a : BinarySearch.answer) : bool :=
  match a with BinarySearch.No => true | _ => false end.
Definition is_unsure (a : BinarySearch.answer) : bool :=
  match a with BinarySearch.NotSure => true | _ => false end.

(* Run::assign for a draw of cluster lx (the oracle's label), `known` the clusters known so far in
   discovery order (one anchor each, in that cluster: the anchor rules pick a row of the cluster,
   and with an oracle that never lies only the cluster matters), one fresh coin per query in that
   order (S4: asked also when the anchor is x itself); k clusters in all, `elim` S2's elimination
   (Params::eliminates).  The first yes places x; no from every known anchor while fewer than k
   are known opens a cluster (S3); with all k known, k-1 no's and one not-sure place x in the
   not-sure one's cluster (S2); otherwise x is not placed. *)
Definition assign (k : nat) (elim : bool) (known : list nat) (lx : nat) (cs : list bool)
  : placement :=
  let ans := map (fun tc => (fst tc, weak_answer (Nat.eqb (fst tc) lx) (snd tc))) (combine known cs) in
  match find (fun ta => is_yes (snd ta)) ans with
  | Some (t, _) => Placed t
  | None =>
      let nos := length (filter (fun ta => is_no (snd ta)) ans) in
      let unsure := filter (fun ta => is_unsure (snd ta)) ans in
      if Nat.eqb nos (length known) && Nat.ltb (length known) k then Opens
      else if elim && Nat.eqb (length known) k && Nat.eqb (length unsure) 1 &&
              Nat.eqb nos (k - 1) then
        match unsure with (t, _) :: _ => Placed t | [] => Unplaced end
      else Unplaced
  end%bool.

Definition placed (p : placement) : bool := match p with Unplaced => false | _ => true end.

(* ---- Its probability ------------------------------------------------------------------------ *)
Lemma combine_nil_r {A B} (l : list A) : combine l (@nil B) = [].
Proof. destruct l; reflexivity. Qed.

(* ---- Its probability ------------------------------------------------------------------------ *)
Lemma find_exists {A} (f : A -> bool) (l : list A) (y : A) :
  List.In y l -> f y = true -> exists z, find f l = Some z.
Proof.
  induction l as [| a l IH]; simpl; [tauto |]. intros [-> | H] Fy.
  - rewrite Fy. eauto.
  - destruct (f a); [eauto | exact (IH H Fy)].
Qed.

Lemma find_none_all {A} (f : A -> bool) (l : list A) :
  (forall y, List.In y l -> f y = false) -> find f l = None.
Proof.
  induction l as [| a l IH]; simpl; intro H; [reflexivity |].
  rewrite (H a (or_introl eq_refl)). apply IH. auto.
Qed.

Lemma filter_all {A} (f : A -> bool) (l : list A) :
  (forall y, List.In y l -> f y = true) -> filter f l = l.
Proof.
  induction l as [| a l IH]; simpl; intro H; [reflexivity |].
  rewrite (H a (or_introl eq_refl)). f_equal. apply IH. auto.
Qed.

Lemma pow_le_exp (x : R) (m n : nat) : 0 <= x <= 1 -> (m <= n)%nat -> x ^ n <= x ^ m.
Proof.
  intros Hx Hmn. replace n with (m + (n - m))%nat by lia. rewrite pow_add.
  rewrite <- (Rmult_1_r (x ^ m)) at 2. apply Rmult_le_compat_l; [apply pow_le; lra |].
  rewrite <- (pow1 (n - m)). apply pow_incr. lra.
Qed.

Section AssignProb.
Variables (k : nat) (elim : bool) (qt : R).
Hypothesis qt_range : 0 <= qt <= 1.
Lemma unsure_range : 0 <= 1 - qt <= 1.
Proof. lra. Qed.
(* One fresh coin per query of Definition 4 (true: not-sure, probability 1 - qt). *)
Definition query_coins (l : nat) : Dist (list bool) := coins (1 - qt) unsure_range l.

Lemma P_coin_clear : P (bernoulli (1 - qt) unsure_range) negb = qt.
Proof.
  rewrite (P_ext _ negb (fun b => negb (b))) by reflexivity.
  rewrite (P_complement (bernoulli (1 - qt) unsure_range) (fun b => b)), P_bernoulli. ring.
Qed.

(* Whatever the clusters known (distinct, below k) and whatever x's cluster lx < k, Definition 4
   places x with probability >= qt^{k-1}; for k = 1 this needs S2's elimination. *)
Theorem assign_known_prob (known : list nat) (lx : nat) :
  NoDup known -> (forall t, List.In t known -> (t < k)%nat) -> (lx < k)%nat ->
  (2 <= k)%nat \/ elim = true ->
  qt ^ (k - 1) <=
  P (query_coins (length known)) (fun cs => placed (assign k elim known lx cs)).
Proof.
  intros Nd Rk Hlx Hk.
  destruct (in_dec Nat.eq_dec lx known) as [In_lx | Out_lx].
  - (* x's cluster is known: its anchor's coin clear gives a yes *)
    destruct (In_nth known lx 0%nat In_lx) as [pos [Hpos Npos]].
    destruct (Nat.eq_dec k 1) as [K1 | K2].
    + (* k = 1: known = [lx]; a yes or, on not-sure, S2's elimination *)
      subst k. destruct Hk as [Hk | El]; [lia |]. subst elim.
      assert (Kn : known = [lx]).
      { destruct known as [| t [| t' l]]; [destruct In_lx | |].
        - f_equal. pose proof (Rk t (or_introl eq_refl)). lia.
        - exfalso. inversion Nd as [| ? ? Nt _]. apply Nt. left.
          pose proof (Rk t (or_introl eq_refl)). pose proof (Rk t' (or_intror (or_introl eq_refl))).
          lia. }
      subst known. simpl Nat.sub. rewrite pow_O, <- (P_full (query_coins 1)).
      apply P_monotone_support. intros w cs Hcs _.
      pose proof (iid_length _ _ _ _ Hcs) as L.
      destruct cs as [| c [| c' cs]]; simpl in L; try discriminate.
      unfold assign. simpl. rewrite Nat.eqb_refl.
      assert (lx = 0%nat) by lia. subst lx. destruct c; reflexivity.
    + (* k >= 2: P(the anchor's coin is clear) = qt >= qt^{k-1} *)
      apply Rle_trans with qt.
      { apply Rle_trans with (qt ^ 1); [apply pow_le_exp; [exact qt_range | lia] |].
        rewrite pow_1. lra. }
      rewrite <- P_coin_clear. unfold query_coins, coins.
      rewrite <- (P_iid_nth _ (length known) pos true negb Hpos).
      apply P_monotone_support. intros w cs Hcs Clear.
      pose proof (iid_length _ _ _ _ Hcs) as L.
      unfold assign.
      set (ans := map (fun tc => (fst tc, weak_answer (Nat.eqb (fst tc) lx) (snd tc)))
                      (combine known cs)).
      assert (Hy : List.In (lx, BinarySearch.Yes) ans).
      { unfold ans. apply in_map_iff. exists (lx, nth pos cs true). split.
        - simpl. rewrite Nat.eqb_refl. unfold weak_answer.
          apply Bool.negb_true_iff in Clear. rewrite Clear. reflexivity.
        - rewrite <- Npos at 1. rewrite <- combine_nth by congruence. apply nth_In.
          rewrite combine_length, L, Nat.min_id. exact Hpos. }
      destruct (find_exists (fun ta => is_yes (snd ta)) ans _ Hy eq_refl) as [[t a] ->].
      reflexivity.
  - (* x's cluster is not known: fewer than k are, and all coins clear open a cluster *)
    assert (Lk : (length known < k)%nat).
    { assert (NoDup (lx :: known)) by (constructor; assumption).
      assert (incl (lx :: known) (seq 0 k)).
      { intros t [<- | Ht]; apply in_seq; [lia |]. pose proof (Rk t Ht). lia. }
      pose proof (NoDup_incl_length H H0). rewrite seq_length in H1. simpl in H1. lia. }
    apply Rle_trans with (qt ^ length known).
    { apply pow_le_exp; [exact qt_range | lia]. }
    rewrite <- P_coin_clear. unfold query_coins, coins. rewrite <- P_iid_all.
    apply P_monotone_support. intros w cs Hcs Clear.
    pose proof (iid_length _ _ _ _ Hcs) as L.
    rewrite forallb_forall in Clear.
    unfold assign.
    set (ans := map (fun tc => (fst tc, weak_answer (Nat.eqb (fst tc) lx) (snd tc)))
                    (combine known cs)).
    assert (AllNo : forall y, List.In y ans -> snd y = BinarySearch.No).
    { intros y Hy. unfold ans in Hy. apply in_map_iff in Hy. destruct Hy as [[t c] [<- Htc]].
      simpl. pose proof (in_combine_l _ _ _ _ Htc) as Ht. pose proof (in_combine_r _ _ _ _ Htc) as Hc.
      pose proof (Clear c Hc) as Nc. apply Bool.negb_true_iff in Nc. subst c.
      destruct (Nat.eqb_spec t lx) as [-> | _]; [contradiction | reflexivity]. }
    rewrite find_none_all by (intros y Hy; rewrite (AllNo y Hy); reflexivity).
    rewrite filter_all by (intros y Hy; rewrite (AllNo y Hy); reflexivity).
    unfold ans. rewrite map_length, combine_length, L, Nat.min_id, Nat.eqb_refl.
    apply Nat.ltb_lt in Lk. rewrite Lk. reflexivity.
Qed.
End AssignProb.

(* ---- Phase 1's count: r draws with replacement, each assigned with fresh coins ------------- *)
Lemma filter_length_le_full {A} (f : A -> bool) (l : list A) : (length (filter f l) <= length l)%nat.
Proof. induction l as [| a l IH]; simpl; [lia |]. destruct (f a); simpl; lia. Qed.

Lemma filter_length_full {A} (f : A -> bool) (l : list A) :
  length (filter f l) = length l -> forall y, List.In y l -> f y = true.
Proof.
  induction l as [| a l IH]; simpl; [tauto |]. intros L y [<- | Hy].
  - destruct (f a) eqn:F; [reflexivity |].
    pose proof (filter_length_le_full f l). simpl in L. lia.
  - destruct (f a); simpl in L.
    + apply IH; [lia | exact Hy].
    + pose proof (filter_length_le_full f l). lia.
Qed.

(* A draw opens a cluster only if its cluster is not known (its anchor would say yes or
   not-sure). *)
Lemma assign_opens_new (k : nat) (elim : bool) (known : list nat) (lx : nat) (cs : list bool) :
  length cs = length known -> assign k elim known lx cs = Opens -> ~ List.In lx known.
Proof.
  intros L A In_lx. unfold assign in A.
  set (ans := map (fun tc => (fst tc, weak_answer (Nat.eqb (fst tc) lx) (snd tc)))
                  (combine known cs)) in A.
  destruct (In_nth known lx 0%nat In_lx) as [pos [Hpos Npos]].
  assert (Hy : List.In (lx, weak_answer true (nth pos cs true)) ans).
  { unfold ans. apply in_map_iff. exists (lx, nth pos cs true). split.
    - simpl. rewrite Nat.eqb_refl. reflexivity.
    - rewrite <- Npos at 1. rewrite <- combine_nth by congruence. apply nth_In.
      rewrite combine_length, L, Nat.min_id. exact Hpos. }
  destruct (find (fun ta => is_yes (snd ta)) ans) as [[t a] |]; [discriminate |].
  destruct (Nat.eqb (length (filter (fun ta => is_no (snd ta)) ans)) (length known)) eqn:N.
  - apply Nat.eqb_eq in N.
    assert (La : length ans = length known)
      by (unfold ans; rewrite map_length, combine_length, L, Nat.min_id; reflexivity).
    rewrite <- La in N. pose proof (filter_length_full _ _ N _ Hy) as F.
    destruct (nth pos cs true); discriminate F.
  - simpl in A. revert A.
    repeat match goal with
    | |- context [if ?c then _ else _] => destruct c
    | |- context [match ?l with [] => _ | _ :: _ => _ end] => destruct l as [| [? ?] ?]
    end; discriminate.
Qed.

Section Phase1Count.
Variables (k : nat) (elim : bool) (qt : R).
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis k_elim : (2 <= k)%nat \/ elim = true.
(* S_i as a list of rows (nonempty), the oracle's label of each row, below k. *)
Variables (S : list nat) (HS : S <> []) (label : nat -> nat).
Hypothesis label_k : forall x, List.In x S -> (label x < k)%nat.

(* One draw of Algorithm 1, lines 4-7: x uniform on S_i (S1), Definition 4 with one fresh coin
   per known cluster; the state is the list of known clusters (an opening adds x's). *)
Definition phase1_step (known : list nat) : Dist (list nat * bool) :=
  bind (uniform S HS) (fun x =>
    dmap (fun cs => let a := assign k elim known (label x) cs in
                    (match a with Opens => known ++ [label x] | _ => known end, placed a))
         (query_coins qt qt_range (length known))).

Definition known_ok (known : list nat) : Prop :=
  NoDup known /\ forall t, List.In t known -> (t < k)%nat.

Lemma in_uniform {A} (l : list A) (H : l <> []) w a :
  List.In (w, a) (outcomes (uniform l H)) -> List.In a l.
Proof. simpl. intro Hin. apply in_map_iff in Hin. destruct Hin as [b [E Hb]]. congruence. Qed.

Lemma phase1_step_prob (known : list nat) :
  known_ok known -> qt ^ (k - 1) <= P (phase1_step known) snd.
Proof.
  intros [Nd Rk]. unfold phase1_step, P. rewrite E_bind.
  rewrite <- (E_const (uniform S HS) (qt ^ (k - 1))) at 1.
  apply E_le_support. intros w x Hx. apply in_uniform in Hx.
  rewrite E_dmap. simpl snd.
  exact (assign_known_prob k elim qt qt_range known (label x) Nd Rk (label_k x Hx) k_elim).
Qed.

Lemma phase1_step_ok (known : list nat) w sx :
  known_ok known -> List.In (w, sx) (outcomes (phase1_step known)) -> known_ok (fst sx).
Proof.
  intros [Nd Rk] Hin. unfold phase1_step in Hin. apply in_bind in Hin.
  destruct Hin as [wx [x [Hx [wb Hin]]]]. apply in_uniform in Hx.
  unfold dmap in Hin. apply in_bind in Hin. destruct Hin as [wc [cs [Hcs [wd Hin]]]].
  apply in_ret in Hin. subst sx. simpl fst.
  destruct (assign k elim known (label x) cs) eqn:A; try (split; assumption).
  pose proof (assign_opens_new k elim known (label x) cs (iid_length _ _ _ _ Hcs) A) as New.
  split.
  - apply (Permutation.Permutation_NoDup (Permutation.Permutation_cons_append known (label x))).
    constructor; assumption.
  - intros t Ht. apply in_app_or in Ht. destruct Ht as [Ht | [<- | []]]; [auto | apply label_k, Hx].
Qed.

(* Phase 1's number A of assignment-known draws among r: E[e^{-tA}] <= (1 - a + a e^{-t})^r with
   a = qt^{k-1}, from any state of the known clusters reachable by the run. *)
Theorem phase1_count_mgf (t : R) (r : nat) (known : list nat) :
  0 <= t -> known_ok known ->
  E (count (list nat) phase1_step r known) (fun A => exp (- t * INR A)) <=
  (1 - qt ^ (k - 1) + qt ^ (k - 1) * exp (- t)) ^ r.
Proof.
  intros Ht Ok. apply (sequential_mgf_inv _ phase1_step known_ok); auto.
  - split; [apply pow_le; lra | rewrite <- (pow1 (k - 1)); apply pow_incr; lra].
  - exact phase1_step_prob.
  - intros s w sx Is Hin. exact (phase1_step_ok s w sx Is Hin).
Qed.
End Phase1Count.

(* ---- From r = ceil(k eta) draws to the theorem's x^eta (Lemma 7's arithmetic) -------------- *)
(* With t = c/k (c = eps^2/2 = (gamma-1)^2/8, the exponent vector Hoeffding gives per point of
   Z_p, and |Z_p| >= A/k by Combinatorics.pigeonhole_argmax), r >= k eta draws give
   (1 - a + a e^{-c/k})^r <= (1 - a + a e^{-c})^eta: Jensen's step
   (Combinatorics.mixture_exp_pow_le) keeps eta. *)
Lemma Rpower_antitone_exp (B s s' : R) : 0 < B <= 1 -> s <= s' -> Rpower B s' <= Rpower B s.
Proof.
  intros [B0 B1] Hs. unfold Rpower.
  assert (L : ln B <= 0).
  { destruct (Req_dec B 1) as [-> | N]; [rewrite ln_1; lra |].
    left. rewrite <- ln_1. apply ln_increasing; lra. }
  assert (s' * ln B <= s * ln B) by nra.
  destruct (Req_dec (s' * ln B) (s * ln B)) as [-> | N]; [lra |].
  left. apply exp_increasing. lra.
Qed.

Lemma div_k_nonneg (c : R) (k : nat) : 0 <= c -> (1 <= k)%nat -> 0 <= c / INR k.
Proof.
  intros Hc Hk. unfold Rdiv. apply Rmult_le_pos; [exact Hc |].
  left. apply Rinv_0_lt_compat, lt_0_INR. lia.
Qed.

Lemma mixture_pos (a c : R) : 0 <= a <= 1 -> 0 < Bounds.mixture a c.
Proof.
  intro Ha. unfold Bounds.mixture. pose proof (exp_pos (- c)).
  destruct (Req_dec a 1) as [-> | N]; [lra |]. nra.
Qed.

Theorem draws_to_eta (a c eta : R) (k r : nat) :
  0 <= a <= 1 -> 0 <= c -> (1 <= k)%nat -> 0 <= eta -> INR k * eta <= INR r ->
  (1 - a + a * exp (- (c / INR k))) ^ r <= Rpower (Bounds.mixture a c) eta.
Proof.
  intros Ha Hc Hk Heta Hr.
  set (B := 1 - a + a * exp (- (c / INR k))).
  assert (Bpos : 0 < B) by (apply (mixture_pos a (c / INR k) Ha)).
  assert (B1 : B <= 1).
  { unfold B. assert (exp (- (c / INR k)) <= 1).
    { rewrite <- exp_0. assert (0 <= c / INR k) by (apply div_k_nonneg; assumption).
      destruct (Req_dec (c / INR k) 0) as [E | N]; [rewrite E, Ropp_0; lra |].
      left. apply exp_increasing. lra. }
    nra. }
  rewrite <- Rpower_pow by exact Bpos.
  apply Rle_trans with (Rpower B (INR k * eta)); [apply Rpower_antitone_exp; [lra | exact Hr] |].
  rewrite <- Rpower_mult, Rpower_pow by exact Bpos.
  apply Rle_Rpower_l; [exact Heta |]. split; [apply pow_lt; exact Bpos |].
  apply Combinatorics.mixture_exp_pow_le; assumption.
Qed.

(* Phase 1's count on the concrete space, at the theorem's eta: with r >= k eta draws (r =
   ceil(k eta), Combinatorics.sample_size_ceiling) and abstention rate 1 - qt <= 1 - q,
   E[e^{-(c/k) A}] <= (1 - q^{k-1} + q^{k-1} e^{-c})^eta, the x^eta of eta_random
   (Bounds.eta_random_inverts).  What Lemma 7 still needs on top of this is the conditional
   vector-Hoeffding bound P(bad center | A, the clusters, the coins) <= (m+1) e^{-c |Z_p|} and
   |Z_p| >= A/k. *)
Theorem phase1_count_eta (k : nat) (elim : bool) (q qt : R) (Hqt : 0 <= qt <= 1)
  (S : list nat) (HS : S <> []) (label : nat -> nat) (c eta : R) (r : nat) (known : list nat) :
  0 <= q <= qt -> (2 <= k)%nat \/ elim = true -> (forall x, List.In x S -> (label x < k)%nat) ->
  0 <= c -> 0 <= eta -> INR k * eta <= INR r -> known_ok k known ->
  E (count (list nat) (phase1_step k elim qt Hqt S HS label) r known)
    (fun A => exp (- (c / INR k) * INR A)) <=
  Rpower (Bounds.mixture (q ^ (k - 1)) c) eta.
Proof.
  intros Hq Hk Hl Hc Heta Hr Ok.
  assert (K1 : (1 <= k)%nat).
  { destruct S as [| x S']; [congruence |]. pose proof (Hl x (or_introl eq_refl)). lia. }
  assert (Ha : 0 <= qt ^ (k - 1) <= 1)
    by (split; [apply pow_le; lra | rewrite <- (pow1 (k - 1)); apply pow_incr; lra]).
  eapply Rle_trans.
  { apply phase1_count_mgf; [exact Hk | exact Hl | | exact Ok].
    apply div_k_nonneg; assumption. }
  eapply Rle_trans; [apply (draws_to_eta (qt ^ (k - 1)) c eta k r); assumption |].
  apply Rle_Rpower_l; [exact Heta |]. split.
  - apply mixture_pos. exact Ha.
  - unfold Bounds.mixture. assert (exp (- c) <= 1).
    { rewrite <- exp_0. destruct (Req_dec c 0) as [-> | N]; [rewrite Ropp_0; lra |].
      left. apply exp_increasing. lra. }
    assert (q ^ (k - 1) <= qt ^ (k - 1)) by (apply pow_incr; lra). nra.
Qed.

(* ---- Line 8: p, the argmax with S7's ties (lib's Run::choose_cluster) --------------------- *)
Open Scope nat_scope.
(* counts = |Z_t| for the known clusters in discovery order; p is the 1-based position of the
   first largest positive count (a later count must be strictly larger to replace it: ties go to
   the earliest-discovered cluster, S7); 0 when every count is 0 (no p, S8).  `best` is
   counts[p-1] (0 while p = 0), as the C++ reads it. *)
Fixpoint choose_aux (counts : list nat) (t p best : nat) : nat :=
  match counts with
  | [] => p
  | c :: cs =>
      if Nat.ltb 0 c && (Nat.eqb p 0 || Nat.ltb best c) then choose_aux cs (S t) (S t) c
      else choose_aux cs (S t) p best
  end%bool.

Definition choose_cluster (counts : list nat) : nat := choose_aux counts 0 0 0.

Lemma le_list_max (l : list nat) (x : nat) : List.In x l -> (x <= list_max l)%nat.
Proof.
  intro H. assert (F : Forall (fun y => y <= list_max l)%nat l) by (apply list_max_le; lia).
  rewrite Forall_forall in F. exact (F x H).
Qed.

Lemma le_list_sum (l : list nat) (x : nat) : List.In x l -> x <= list_sum l.
Proof.
  induction l as [| c l IH]; simpl; [tauto |]. intros [<- | H]; [lia | pose proof (IH H); lia].
Qed.

Lemma choose_aux_spec (counts : list nat) :
  forall t p best, (p = 0 /\ best = 0 \/ 1 <= p <= t /\ 0 < best)%nat ->
  (choose_aux counts t p best = p /\ forall c, List.In c counts -> (c <= best)%nat) \/
  (exists j, (j < length counts)%nat /\ choose_aux counts t p best = (t + j + 1)%nat /\
     (best < nth j counts 0)%nat /\ nth j counts 0 = list_max counts /\
     forall i, (i < j)%nat -> (nth i counts 0 < nth j counts 0)%nat).
Proof.
  induction counts as [| c cs IH]; intros t p best Inv; simpl; [left; split; [reflexivity | tauto] |].
  destruct (Nat.ltb_spec 0 c) as [Cpos | Czero];
    [destruct (Nat.eqb_spec p 0) as [P0 | Pn]; [| destruct (Nat.ltb_spec best c) as [Lt | Ge]] |];
    simpl.
  - (* c > 0 and no p yet: p becomes t + 1 *)
    right. destruct (IH (S t) (S t) c ltac:(lia)) as [[R All] | [j [Hj [R [Gt [Mx Ear]]]]]].
    + exists 0%nat. simpl. split; [lia |]. split; [rewrite R; lia |]. split; [lia |].
      split; [| intros; lia]. assert (list_max cs <= c)%nat by (apply list_max_le, Forall_forall; exact All).
      lia.
    + exists (S j). simpl. split; [lia |]. split; [rewrite R; lia |]. split; [lia |].
      split; [rewrite Mx; lia |]. intros [| i] Hi; [lia | apply Ear; lia].
  - (* c larger than counts[p-1]: p becomes t + 1 *)
    right. destruct (IH (S t) (S t) c ltac:(lia)) as [[R All] | [j [Hj [R [Gt [Mx Ear]]]]]].
    + exists 0%nat. simpl. split; [lia |]. split; [rewrite R; lia |]. split; [lia |].
      split; [| intros; lia]. assert (list_max cs <= c)%nat by (apply list_max_le, Forall_forall; exact All).
      lia.
    + exists (S j). simpl. split; [lia |]. split; [rewrite R; lia |]. split; [lia |].
      split; [rewrite Mx; lia |]. intros [| i] Hi; [lia | apply Ear; lia].
  - (* c <= counts[p-1]: p stays *)
    destruct (IH (S t) p best ltac:(lia)) as [[R All] | [j [Hj [R [Gt [Mx Ear]]]]]].
    + left. split; [exact R |]. intros x [<- | Hx]; [lia | exact (All x Hx)].
    + right. exists (S j). simpl. split; [lia |]. split; [rewrite R; lia |]. split; [exact Gt |].
      split; [rewrite Mx; lia |]. intros [| i] Hi; [lia | apply Ear; lia].
  - (* c = 0: p stays *)
    destruct (IH (S t) p best ltac:(lia)) as [[R All] | [j [Hj [R [Gt [Mx Ear]]]]]].
    + left. split; [exact R |]. intros x [<- | Hx]; [lia | exact (All x Hx)].
    + right. exists (S j). simpl. split; [lia |]. split; [rewrite R; lia |]. split; [exact Gt |].
      split; [rewrite Mx; lia |]. intros [| i] Hi; [lia | apply Ear; lia].
Qed.

(* The repaired pigeonhole step on the C++'s argmax: when some draw is placed (A = sum of the
   counts > 0), p >= 1 is the earliest cluster with the largest count, and with at most k known
   clusters k |Z_p| >= A (Combinatorics.pigeonhole_argmax); when none is, p = 0 (no p, S8). *)
Theorem choose_cluster_pigeonhole (counts : list nat) (k : nat) :
  (length counts <= k)%nat ->
  (list_sum counts = 0%nat -> choose_cluster counts = 0%nat) /\
  ((0 < list_sum counts)%nat ->
   exists p, choose_cluster counts = S p /\ (p < length counts)%nat /\
     nth p counts 0 = list_max counts /\ (forall i, (i < p)%nat -> (nth i counts 0 < nth p counts 0)%nat) /\
     (list_sum counts <= k * nth p counts 0)%nat).
Proof.
  intro Hk. unfold choose_cluster.
  destruct (choose_aux_spec counts 0 0 0 ltac:(lia)) as [[R All] | [j [Hj [R [Gt [Mx Ear]]]]]].
  - split; [intros _; exact R |]. intro S0. exfalso.
    assert (list_sum counts = 0%nat); [| lia].
    clear -All. induction counts as [| c cs IH]; simpl; [reflexivity |].
    rewrite IH by (intros; apply All; right; assumption). pose proof (All c (or_introl eq_refl)). lia.
  - split.
    + intro S0. exfalso. assert (List.In (nth j counts 0) counts) by (apply nth_In; exact Hj).
      pose proof (le_list_sum counts _ H). lia.
    + intros _. exists j. rewrite R. split; [lia |]. split; [exact Hj |]. split; [exact Mx |].
      split; [exact Ear |]. rewrite Mx.
      apply Nat.le_trans with (length counts * list_max counts)%nat.
      * apply (Combinatorics.pigeonhole_argmax counts (length counts)); reflexivity.
      * apply Nat.mul_le_mono_r. exact Hk.
Qed.
