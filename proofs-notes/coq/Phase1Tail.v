(* Lemma 7's (lemma:distance_ran) tail for Phase1Model.v's Phase 1, from a tail of the uniform
   law on one cluster: if l draws with replacement from any cluster C_t of S_i give a bad estimate
   with probability <= H e^{-l c} (H >= 1, c >= 0), then Phase 1 on S_i (r draws, k coins each)
   gives no p or a bad estimate of mu_p with probability <= H (1 - a + a e^{-c/k})^r,
   a = q~^{k-1} (`phase1_tail`).  Both Theorem 1 variants instantiate it: vector Hoeffding
   (H = m + 1, c = eps^2/2) and McDiarmid (Theorem1McDiarmid.uniform_lemma7_mcdiarmid).

   The proof, in three steps:
   (i)  exchangeability within clusters (`resample_same`, `resample_select`): drawing a row
        uniformly from S_i is drawing it, then replacing it by a uniform row of its own cluster;
        the placement of every draw, p and |Z_p| are functions of the draws' clusters and coins
        (`zp_rows` reads the rows only through their labels, S4), so given those, Z_p's rows
        are l i.i.d. uniform draws from C_p and the tail applies at l = |Z_p|;
   (ii) the pigeonhole step (Phase1.choose_cluster_pigeonhole): k |Z_p| >= A, A the number of
        placed draws, so H e^{-c |Z_p|} <= H e^{-(c/k) A};
   (iii) the sequential MGF (`placed_mgf`, as Phase1.sequential_mgf): each draw is placed with
        probability >= q~^{k-1} whatever the past (Phase1.assign_known_prob), so
        E[e^{-(c/k) A}] <= (1 - a + a e^{-c/k})^r. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Phase1 Phase1Model.
From SSAC Require Combinatorics Hoeffding.
Open Scope R_scope.

(* ---- Laws with the same expectations ------------------------------------------------------ *)
Definition same_law {A} (d d' : Dist A) : Prop := forall f, E d f = E d' f.

Lemma iid_same_law {A} (d d' : Dist A) (r : nat) : same_law d d' -> same_law (iid d r) (iid d' r).
Proof.
  intro H. induction r as [| r IH]; intro f; [reflexivity |].
  rewrite !E_iid_S, H. apply E_ext_support. intros. apply IH.
Qed.

(* The law of the images of l draws is l draws of the image law. *)
Lemma E_iid_map {A B} (d : Dist A) (g : A -> B) (r : nat) (f : list B -> R) :
  E (iid d r) (fun s => f (map g s)) = E (iid (dmap g d) r) f.
Proof.
  revert f. induction r as [| r IH]; intro f.
  - simpl. rewrite !E_ret. reflexivity.
  - rewrite !E_iid_S, E_dmap. apply E_ext_support. intros w a _.
    apply (IH (fun s => f (g a :: s))).
Qed.

(* The first j of n >= j draws are j draws. *)
Lemma E_iid_firstn {A} (d : Dist A) (j n : nat) (f : list A -> R) :
  (j <= n)%nat -> E (iid d n) (fun s => f (firstn j s)) = E (iid d j) f.
Proof.
  revert n f. induction j as [| j IH]; intros n f Hj.
  - simpl firstn. rewrite E_const. simpl. rewrite E_ret. reflexivity.
  - destruct n as [| n]; [lia |]. rewrite !E_iid_S. apply E_ext_support. intros w a _.
    apply (IH n (fun s => f (a :: s))). lia.
Qed.

(* ---- The uniform law on a list, or a point mass on the empty list ------------------------- *)
Definition uniform_or {A} (l : list A) (a0 : A) : Dist A :=
  match l with [] => ret a0 | b :: l' => uniform (b :: l') (fun E => @nil_cons _ b l' (eq_sym E)) end.

Definition sumR {A} (l : list A) (f : A -> R) : R := fold_right Rplus 0 (map f l).

Lemma E_uniform_or {A} (l : list A) (a0 : A) f :
  l <> [] -> E (uniform_or l a0) f = sumR l f / INR (length l).
Proof. destruct l as [| b l]; [congruence |]. intros _. apply E_uniform. Qed.

Lemma E_uniform_irrel {A} (l : list A) (H : l <> []) (a0 : A) : same_law (uniform l H) (uniform_or l a0).
Proof. intro f. rewrite E_uniform, E_uniform_or by exact H. reflexivity. Qed.

Lemma sumR_plus {A} (l : list A) f g : sumR l (fun a => f a + g a) = sumR l f + sumR l g.
Proof. induction l as [| a l IH]; unfold sumR in *; simpl; [ring | rewrite IH; ring]. Qed.

Lemma sumR_ext {A} (l : list A) f g : (forall a, In a l -> f a = g a) -> sumR l f = sumR l g.
Proof.
  induction l as [| a l IH]; unfold sumR in *; simpl; intro H; [reflexivity |].
  rewrite H, IH by auto. reflexivity.
Qed.

Lemma sumR_const {A} (l : list A) c : sumR l (fun _ => c) = INR (length l) * c.
Proof.
  induction l as [| a l IH]; unfold sumR in *; simpl; [ring |]. rewrite IH.
  destruct (length l); simpl; ring.
Qed.

Lemma sumR_cons {A} (a : A) l f : sumR (a :: l) f = f a + sumR l f.
Proof. reflexivity. Qed.

Lemma sumR_app {A} (l1 l2 : list A) f : sumR (l1 ++ l2) f = sumR l1 f + sumR l2 f.
Proof. induction l1 as [| a l IH]; unfold sumR in *; simpl; [ring | rewrite IH; ring]. Qed.

Lemma sumR_indicator (K t : nat) (c : R) :
  (t < K)%nat -> sumR (seq 0 K) (fun s => if Nat.eqb t s then c else 0) = c.
Proof.
  intro Ht. replace K with (t + S (K - t - 1))%nat by lia.
  rewrite seq_app, sumR_app. simpl seq.
  assert (Z1 : forall l, (forall s, In s l -> s <> t) ->
            sumR l (fun s => if Nat.eqb t s then c else 0) = 0).
  { induction l as [| s l IH]; unfold sumR in *; simpl; intro H; [reflexivity |].
    destruct (Nat.eqb_spec t s) as [E | _]; [exfalso; apply (H s); auto |].
    rewrite IH by auto. ring. }
  rewrite Z1 by (intros s Hs; apply in_seq in Hs; lia).
  rewrite sumR_cons, Nat.eqb_refl.
  rewrite Z1 by (intros s Hs; apply in_seq in Hs; lia). ring.
Qed.

(* ---- (i) Exchangeability within clusters -------------------------------------------------- *)
(* C_t as a sublist of S_i. *)
Definition cluster_of (label : nat -> nat) (S : list nat) (t : nat) : list nat :=
  filter (fun x => Nat.eqb (label x) t) S.

Lemma sum_partition (label : nat -> nat) (K : nat) (S : list nat) (f : nat -> R) :
  (forall x, In x S -> (label x < K)%nat) ->
  sumR S f = sumR (seq 0 K) (fun t => sumR (cluster_of label S t) f).
Proof.
  induction S as [| x S IH]; intro H.
  - unfold cluster_of. simpl. rewrite sumR_const. unfold sumR. simpl. ring.
  - rewrite sumR_cons, IH by (intros y Hy; apply H; right; exact Hy). unfold cluster_of.
    rewrite (sumR_ext (seq 0 K) (fun t => sumR (filter (fun y => Nat.eqb (label y) t) (x :: S)) f)
                      (fun t => (if Nat.eqb (label x) t then f x else 0) +
                                     sumR (filter (fun x => Nat.eqb (label x) t) S) f)).
    + rewrite sumR_plus, sumR_indicator by (apply H; left; reflexivity). reflexivity.
    + intros t _. simpl filter. destruct (Nat.eqb (label x) t); [rewrite sumR_cons |]; ring.
Qed.

Section Exchange.
(* S_i with its rows' labels, all below K. *)
Variables (label : nat -> nat) (K : nat) (S : list nat) (HS : S <> []).
Hypothesis label_K : forall x, In x S -> (label x < K)%nat.
Let cl := cluster_of label S.

(* A draw replaced by a uniform row of its own cluster. *)
Definition resample_row (x : nat) : Dist nat := uniform_or (cl (label x)) x.

Lemma in_cluster_of (x : nat) : In x S -> In x (cl (label x)).
Proof. intro Hx. apply filter_In. split; [exact Hx | apply Nat.eqb_refl]. Qed.

(* Drawing x uniformly from S_i, then a uniform row of x's cluster, is drawing uniformly. *)
Lemma resample_same (h : nat -> R) :
  E (uniform S HS) (fun x => E (resample_row x) h) = E (uniform S HS) h.
Proof.
  rewrite !E_uniform. f_equal. change (sumR S (fun x => E (resample_row x) h) = sumR S h).
  set (g := fun t => sumR (cl t) h / INR (length (cl t))).
  rewrite (sumR_ext _ _ (fun x => g (label x))).
  2: { intros x Hx. unfold resample_row, g. apply E_uniform_or.
       intro E0. pose proof (in_cluster_of x Hx) as I. rewrite E0 in I. destruct I. }
  rewrite (sum_partition label K S _ label_K), (sum_partition label K S h label_K).
  apply sumR_ext. intros t _. fold (cl t).
  rewrite (sumR_ext _ _ (fun _ => g t)).
  2: { intros x Hx. unfold cl, cluster_of in Hx. apply filter_In in Hx.
       destruct Hx as [_ E0]. apply Nat.eqb_eq in E0. rewrite E0. reflexivity. }
  rewrite sumR_const. unfold g. destruct (cl t) as [| y l] eqn:C.
  - unfold sumR. simpl. ring.
  - field. apply not_0_INR. discriminate.
Qed.

(* Every draw of a list replaced by a uniform row of its own cluster, the coins kept. *)
Fixpoint resample (rs : list (nat * list bool)) : Dist (list (nat * list bool)) :=
  match rs with
  | [] => ret []
  | xc :: rs' =>
      bind (resample_row (fst xc)) (fun y =>
        bind (resample rs') (fun ys => ret ((y, snd xc) :: ys)))
  end.

Lemma E_resample_cons xc rs F :
  E (resample (xc :: rs)) F =
  E (resample_row (fst xc)) (fun y => E (resample rs) (fun ys => F ((y, snd xc) :: ys))).
Proof.
  simpl resample. rewrite E_bind. apply E_ext_support. intros. rewrite E_bind.
  apply E_ext_support. intros. apply E_ret.
Qed.

(* The draws' law: a uniform row of S_i and coins of any law cd. *)
Variable cd : Dist (list bool).
Let D := prod (uniform S HS) cd.

(* Exchangeability: r draws are r draws with every row resampled within its cluster. *)
Theorem resample_iid (r : nat) (F : list (nat * list bool) -> R) :
  E (iid D r) F = E (iid D r) (fun rs => E (resample rs) F).
Proof.
  revert F. induction r as [| r IH]; intro F.
  - simpl iid. rewrite !E_ret. simpl resample. rewrite E_ret. reflexivity.
  - rewrite !E_iid_S.
    transitivity (E D (fun a => E (iid D r) (fun s => E (resample s) (fun ys => F (a :: ys))))).
    { apply E_ext_support. intros. apply IH. }
    set (G := fun y cs => E (iid D r) (fun s => E (resample s) (fun ys => F ((y, cs) :: ys)))).
    transitivity (E D (fun a => E (resample_row (fst a)) (fun y => G y (snd a)))).
    2: { apply E_ext_support. intros w a _. unfold G. rewrite E_swap. apply E_ext_support.
         intros. rewrite E_resample_cons. reflexivity. }
    transitivity (E (uniform S HS) (fun x => E (resample_row x) (fun y => E cd (fun cs => G y cs)))).
    + rewrite resample_same. unfold D at 1. rewrite E_prod. apply E_ext_support. intros.
      reflexivity.
    + unfold D at 1. rewrite E_prod. apply E_ext_support. intros w x _. simpl fst. simpl snd.
      rewrite E_swap. reflexivity.
Qed.

Lemma in_uniform_or {A} (l : list A) (a0 : A) w y :
  In (w, y) (outcomes (uniform_or l a0)) -> In y l \/ y = a0.
Proof.
  destruct l as [| b l]; intro Hin.
  - right. exact (in_ret _ _ _ Hin).
  - left. exact (in_uniform _ _ _ _ Hin).
Qed.

(* Resampling keeps every draw's label and coins. *)
Lemma resample_labels rs w ys :
  In (w, ys) (outcomes (resample rs)) ->
  map (fun yc => (label (fst yc), snd yc)) ys = map (fun xc => (label (fst xc), snd xc)) rs.
Proof.
  revert w ys. induction rs as [| [x cs] rs IH]; intros w ys Hin; simpl resample in Hin.
  - apply in_ret in Hin. subst ys. reflexivity.
  - apply in_bind in Hin. destruct Hin as [wy [y [Hy [wb Hin]]]].
    apply in_bind in Hin. destruct Hin as [wt [t [Ht [wu Hin]]]].
    apply in_ret in Hin. subst ys. simpl. rewrite (IH wt t Ht). f_equal. f_equal.
    unfold resample_row in Hy. apply in_uniform_or in Hy. destruct Hy as [Hy | ->]; [| reflexivity].
    unfold cl, cluster_of in Hy. apply filter_In in Hy. apply Nat.eqb_eq. tauto.
Qed.

Lemma select_cons {A} (b : bool) (m : list bool) (x : A) (l : list A) :
  select (b :: m) (x :: l) = if b then x :: select m l else select m l.
Proof. unfold select. simpl. destruct b; reflexivity. Qed.

Definition count_true (m : list bool) : nat := length (filter (fun b => b) m).

(* Given the labels and coins, the rows at positions of cluster p are i.i.d. uniform on C_p. *)
Theorem resample_select (p : nat) (Hc : cl p <> []) :
  forall rs (m : list bool) (h : list nat -> R), length m = length rs ->
  (forall b xc, In (b, xc) (combine m rs) -> b = true -> label (fst xc) = p) ->
  E (resample rs) (fun ys => h (select m (map fst ys))) =
  E (iid (uniform (cl p) Hc) (count_true m)) h.
Proof.
  induction rs as [| xc rs IH]; intros m h L Hm.
  - destruct m; [| discriminate]. simpl. rewrite !E_ret. reflexivity.
  - destruct m as [| b m]; [discriminate |]. simpl in L. injection L as L.
    rewrite E_resample_cons.
    assert (IH' : forall h', E (resample rs) (fun ys => h' (select m (map fst ys))) =
                             E (iid (uniform (cl p) Hc) (count_true m)) h').
    { intro h'. apply (IH m h' L). intros b' xc' Hin. apply (Hm b'). right. exact Hin. }
    destruct b.
    + change (count_true (true :: m)) with (Datatypes.S (count_true m)).
      rewrite E_iid_S. unfold resample_row.
      rewrite (Hm true xc (or_introl eq_refl) eq_refl).
      rewrite <- (E_uniform_irrel (cl p) Hc (fst xc)). apply E_ext_support. intros w y _.
      rewrite <- (IH' (fun s => h (y :: s))). apply E_ext_support. intros.
      simpl map. rewrite select_cons. reflexivity.
    + change (count_true (false :: m)) with (count_true m).
      rewrite (E_ext_support _ _ (fun _ => E (iid (uniform (cl p) Hc) (count_true m)) h)).
      * apply E_const.
      * intros. rewrite <- IH'. apply E_ext_support. intros. simpl map. rewrite select_cons.
        reflexivity.
Qed.
End Exchange.

(* ---- Definition 4 places a draw only in its own cluster ------------------------------------ *)
Lemma known_ok_length (k : nat) (known : list nat) : known_ok k known -> (length known <= k)%nat.
Proof.
  intros [Nd Rk]. rewrite <- (seq_length k 0). apply NoDup_incl_length; [exact Nd |].
  intros t Ht. apply in_seq. pose proof (Rk t Ht). lia.
Qed.

Lemma in_combine_nth {A B} (l1 : list A) (l2 : list B) (pos : nat) (d1 : A) (d2 : B) :
  (pos < length l1)%nat -> (pos < length l2)%nat -> In (nth pos l1 d1, nth pos l2 d2) (combine l1 l2).
Proof.
  revert l2 pos. induction l1 as [| a l1 IH]; intros l2 pos H1 H2; [simpl in H1; lia |].
  destruct l2 as [| b l2]; [simpl in H2; lia |]. destruct pos as [| pos]; simpl; [left; reflexivity |].
  right. apply IH; simpl in *; lia.
Qed.

(* Only the first |known| coins are read. *)
Lemma assign_firstn (k : nat) (elim : bool) (known : list nat) (lx : nat) (cs : list bool) :
  assign k elim known lx cs = assign k elim known lx (firstn (length known) cs).
Proof. unfold assign. rewrite <- combine_firstn_l. reflexivity. Qed.

(* An oracle that never lies: a yes comes from x's own cluster's anchor; S2's elimination with all
   k clusters known and k-1 no's leaves x's own cluster (x's cluster is among the k). *)
Lemma assign_placed_label (k : nat) (elim : bool) (known : list nat) (lx t : nat) (cs : list bool) :
  known_ok k known -> (lx < k)%nat -> (length known <= length cs)%nat ->
  assign k elim known lx cs = Placed t -> t = lx /\ In t known.
Proof.
  intros [Nd Rk] Hlx Lc A. unfold assign in A.
  set (ans := map (fun tc => (fst tc, weak_answer (Nat.eqb (fst tc) lx) (snd tc)))
                  (combine known cs)) in A.
  assert (Ans : forall t a, In (t, a) ans ->
            In t known /\ exists c, a = weak_answer (Nat.eqb t lx) c).
  { intros t' a Hin. unfold ans in Hin. apply in_map_iff in Hin.
    destruct Hin as [[t0 c] [E0 Hin]]. injection E0 as <- <-.
    split; [exact (in_combine_l _ _ _ _ Hin) | exists c; reflexivity]. }
  destruct (find (fun ta => is_yes (snd ta)) ans) as [[t' a] |] eqn:F.
  - injection A as <-. apply find_some in F. destruct F as [Hin Y].
    destruct (Ans t' a Hin) as [Ht [c ->]]. split; [| exact Ht].
    unfold weak_answer in Y. simpl in Y.
    destruct c; [discriminate |]. destruct (Nat.eqb_spec t' lx); [exact e | discriminate].
  - assert (NoYes : forall t a, In (t, a) ans -> is_yes a = false).
    { intros t' a Hin. destruct (is_yes a) eqn:Y; [| reflexivity].
      destruct (find_exists (fun ta => is_yes (snd ta)) ans (t', a) Hin Y) as [z Hz].
      congruence. }
    destruct (_ && _)%bool; [discriminate |].
    destruct (elim && Nat.eqb (length known) k && _ && _)%bool eqn:C; [| discriminate].
    apply Bool.andb_true_iff in C. destruct C as [C Nos].
    apply Bool.andb_true_iff in C. destruct C as [C U1].
    apply Bool.andb_true_iff in C. destruct C as [_ Lk]. apply Nat.eqb_eq in Lk, U1.
    (* x's cluster is known: k distinct clusters below k are all of them *)
    assert (In_lx : In lx known).
    { apply (@NoDup_length_incl nat known (seq 0 k)); [exact Nd | rewrite seq_length; lia | |].
      - intros t' Ht'. apply in_seq. pose proof (Rk t' Ht'). lia.
      - apply in_seq. lia. }
    destruct (In_nth known lx 0%nat In_lx) as [pos [Hpos Npos]].
    set (c := nth pos cs true).
    assert (Hlx_in : In (lx, weak_answer true c) ans).
    { unfold ans. apply in_map_iff. exists (lx, c). split.
      - simpl. rewrite Nat.eqb_refl. reflexivity.
      - rewrite <- Npos at 1. unfold c. apply in_combine_nth; lia. }
    assert (Cc : c = true).
    { pose proof (NoYes _ _ Hlx_in) as Y. destruct c; [reflexivity | discriminate]. }
    rewrite Cc in Hlx_in. simpl in Hlx_in.
    assert (Hu : In (lx, BinarySearch.NotSure)
                    (filter (fun ta => is_unsure (snd ta)) ans)) by (apply filter_In; auto).
    destruct (filter (fun ta => is_unsure (snd ta)) ans) as [| [t0 a0] [| z l]] eqn:U;
      [destruct Hu | | discriminate].
    injection A as <-. destruct Hu as [E0 | []]. injection E0 as -> _. split; [reflexivity |].
    exact In_lx.
Qed.

Section Placements.
Variables (k : nat) (elim : bool).

Definition next_known (known : list nat) (lx : nat) (cs : list bool) : list nat :=
  match assign k elim known lx cs with Opens => known ++ [lx] | _ => known end.
Definition placement_of (known : list nat) (lx : nat) (cs : list bool) : option nat :=
  match assign k elim known lx cs with Placed t => Some t | Opens => Some lx | Unplaced => None end.

Lemma assign_labels_cons known lx cs sk :
  assign_labels k elim known ((lx, cs) :: sk) =
  (placement_of known lx cs :: fst (assign_labels k elim (next_known known lx cs) sk),
   snd (assign_labels k elim (next_known known lx cs) sk)).
Proof.
  simpl. unfold placement_of, next_known. destruct (assign k elim known lx cs); reflexivity.
Qed.

Lemma next_known_ok known lx cs :
  known_ok k known -> (lx < k)%nat -> (length known <= length cs)%nat ->
  known_ok k (next_known known lx cs) /\ incl known (next_known known lx cs).
Proof.
  intros [Nd Rk] Hlx Lc. unfold next_known.
  destruct (assign k elim known lx cs) eqn:A;
    try (split; [split; assumption | apply incl_refl]).
  rewrite assign_firstn in A.
  assert (L : length (firstn (length known) cs) = length known) by (apply firstn_length_le; exact Lc).
  pose proof (assign_opens_new k elim known lx _ L A) as New.
  split; [split |].
  - apply (Permutation.Permutation_NoDup (Permutation.Permutation_cons_append known lx)).
    constructor; assumption.
  - intros t Ht. apply in_app_or in Ht. destruct Ht as [Ht | [<- | []]]; [auto | exact Hlx].
  - intros t Ht. apply in_or_app. left. exact Ht.
Qed.

Lemma placement_label known lx cs t :
  known_ok k known -> (lx < k)%nat -> (length known <= length cs)%nat ->
  placement_of known lx cs = Some t -> t = lx /\ In t (next_known known lx cs).
Proof.
  intros Ok Hlx Lc. unfold placement_of, next_known.
  destruct (assign k elim known lx cs) eqn:A; intro E0; try discriminate; injection E0 as <-.
  - exact (assign_placed_label k elim known lx t0 cs Ok Hlx Lc A).
  - split; [reflexivity | apply in_or_app; right; left; reflexivity].
Qed.

(* The skeleton's labels are below k and every draw has k coins. *)
Definition sk_ok (sk : list (nat * list bool)) : Prop :=
  forall sx, In sx sk -> (fst sx < k)%nat /\ length (snd sx) = k.

Theorem assign_labels_ok (sk : list (nat * list bool)) : forall known,
  known_ok k known -> sk_ok sk ->
  let asg := assign_labels k elim known sk in
  known_ok k (snd asg) /\ incl known (snd asg) /\ length (fst asg) = length sk /\
  (forall o sx, In (o, sx) (combine (fst asg) sk) -> forall t, o = Some t ->
     t = fst sx /\ In t (snd asg)).
Proof.
  induction sk as [| [lx cs] sk IH]; intros known Ok Sk asg.
  - simpl in asg. subst asg. simpl. split; [exact Ok |]. split; [apply incl_refl |].
    split; [reflexivity | tauto].
  - subst asg. rewrite assign_labels_cons. simpl fst. simpl snd.
    destruct (Sk (lx, cs) (or_introl eq_refl)) as [Hlx Lc]. simpl in Hlx, Lc.
    assert (Lk : (length known <= length cs)%nat) by (rewrite Lc; apply known_ok_length, Ok).
    destruct (next_known_ok known lx cs Ok Hlx Lk) as [Ok' Inc'].
    destruct (IH (next_known known lx cs) Ok' (fun sx H => Sk sx (or_intror H)))
      as [Ok2 [Inc2 [L2 C2]]].
    split; [exact Ok2 |]. split; [intros t Ht; apply Inc2, Inc', Ht |].
    split; [simpl; rewrite L2; reflexivity |].
    intros o sx Hin t Ho. simpl in Hin. destruct Hin as [E0 | Hin]; [| exact (C2 o sx Hin t Ho)].
    injection E0 as <- <-. destruct (placement_label known lx cs t Ok Hlx Lk Ho) as [Ht In_t].
    split; [exact Ht | apply Inc2, In_t].
Qed.
End Placements.

(* ---- (ii) The pigeonhole step on the model ------------------------------------------------ *)
Definition is_some (o : option nat) : bool := match o with Some _ => true | None => false end.

Section Pigeonhole.
Variables (k : nat) (elim : bool).

(* A: the number of placed draws. *)
Definition placed_count (known : list nat) (sk : list (nat * list bool)) : nat :=
  length (filter is_some (fst (assign_labels k elim known sk))).

(* |Z_p| (0 when there is no p). *)
Definition zp_size (known : list nat) (sk : list (nat * list bool)) : nat :=
  let asg := assign_labels k elim known sk in
  match choose_p (snd asg) (fst asg) with
  | None => O
  | Some p => count_true (map (in_cluster p) (fst asg))
  end.

Lemma count_true_map {A} (f : A -> bool) (l : list A) :
  count_true (map f l) = length (filter f l).
Proof.
  induction l as [| a l IH]; [reflexivity |]. unfold count_true in *. simpl.
  destruct (f a); simpl; rewrite IH; reflexivity.
Qed.

Lemma list_sum_map_plus {A} (f g : A -> nat) (l : list A) :
  list_sum (map (fun a => f a + g a)%nat l) = (list_sum (map f l) + list_sum (map g l))%nat.
Proof. induction l as [| a l IH]; simpl; [reflexivity | rewrite IH; lia]. Qed.

Lemma list_sum_indicator (t : nat) (K : list nat) :
  In t K -> (1 <= list_sum (map (fun t' => if Nat.eqb t t' then 1 else 0)%nat K))%nat.
Proof.
  induction K as [| a K IH]; simpl; [tauto |]. intros [-> | H].
  - rewrite Nat.eqb_refl. lia.
  - pose proof (IH H). lia.
Qed.

(* Every placed draw is counted in its cluster's count. *)
Lemma counts_cover (K : list nat) (A : list (option nat)) :
  (forall t, In (Some t) A -> In t K) ->
  (length (filter is_some A) <= list_sum (cluster_counts K A))%nat.
Proof.
  unfold cluster_counts. induction A as [| o A IH]; intro H; simpl; [lia |].
  rewrite (map_ext (fun t => length (filter (in_cluster t) (o :: A)))
                   (fun t => (if match o with Some t0 => Nat.eqb t0 t | None => false end
                              then 1 else 0) + length (filter (in_cluster t) A))%nat).
  2: { intro t. simpl. destruct o as [t0 |]; simpl; [| reflexivity].
       destruct (Nat.eqb t0 t); reflexivity. }
  rewrite list_sum_map_plus. pose proof (IH (fun t Ht => H t (or_intror Ht))).
  destruct o as [t0 |]; simpl; [| lia].
  pose proof (list_sum_indicator t0 K (H t0 (or_introl eq_refl))). lia.
Qed.

(* k |Z_p| >= A (Combinatorics.pigeonhole_argmax through Phase1.choose_cluster_pigeonhole). *)
Theorem zp_pigeonhole (known : list nat) (sk : list (nat * list bool)) :
  known_ok k known -> sk_ok k sk -> (placed_count known sk <= k * zp_size known sk)%nat.
Proof.
  intros Ok Sk. destruct (assign_labels_ok k elim sk known Ok Sk) as [Ok2 [_ [L C2]]].
  unfold placed_count, zp_size.
  set (asg := assign_labels k elim known sk) in *.
  assert (Cover : forall t, In (Some t) (fst asg) -> In t (snd asg)).
  { intros t Ht. destruct (In_nth _ _ None Ht) as [j [Hj Nj]].
    assert (Hin : In (nth j (fst asg) None, nth j sk (O, [])) (combine (fst asg) sk))
      by (apply in_combine_nth; lia).
    rewrite Nj in Hin. exact (proj2 (C2 _ _ Hin t eq_refl)). }
  pose proof (counts_cover (snd asg) (fst asg) Cover) as Cv.
  set (counts := cluster_counts (snd asg) (fst asg)) in *.
  assert (Lc : (length counts <= k)%nat)
    by (unfold counts, cluster_counts; rewrite map_length; apply known_ok_length, Ok2).
  destruct (choose_cluster_pigeonhole counts k Lc) as [Z Pos].
  destruct (Nat.eq_dec (length (filter is_some (fst asg))) 0) as [E0 | N0]; [lia |].
  destruct (Pos ltac:(lia)) as [p' [Ch [Hp' [_ [_ Le]]]]].
  unfold choose_p. fold counts. rewrite Ch. rewrite count_true_map.
  unfold counts, cluster_counts in Le, Hp'. rewrite map_length in Hp'.
  rewrite (nth_indep _ 0%nat ((fun t => length (filter (in_cluster t) (fst asg))) 0%nat)) in Le
    by (rewrite map_length; exact Hp').
  rewrite (map_nth (fun t => length (filter (in_cluster t) (fst asg)))) in Le.
  unfold counts, cluster_counts in Cv. lia.
Qed.
End Pigeonhole.

(* ---- (iii) The sequential MGF of A on the model ------------------------------------------- *)
(* The draws' skeleton: each draw's label and coins. *)
Definition row_skeleton (label : nat -> nat) (rs : list (nat * list bool)) : list (nat * list bool) :=
  map (fun xc => (label (fst xc), snd xc)) rs.

Lemma row_skeleton_cons label x cs rs :
  row_skeleton label ((x, cs) :: rs) = (label x, cs) :: row_skeleton label rs.
Proof. reflexivity. Qed.

Section Draws.
Variables (k : nat) (elim : bool) (qt : R) (qt_range : 0 <= qt <= 1).
Hypothesis k_elim : (2 <= k)%nat \/ elim = true.
Variables (label : nat -> nat) (S : list nat) (HS : S <> []).
Hypothesis label_k : forall x, In x S -> (label x < k)%nat.
(* One draw: a uniform row of S_i (S1) and k coins, one per possible query (S4). *)
Let D := prod (uniform S HS) (query_coins qt qt_range k).

Lemma placed_count_cons known lx cs sk :
  placed_count k elim known ((lx, cs) :: sk) =
  ((if placed (assign k elim known lx cs) then 1 else 0) +
   placed_count k elim (next_known k elim known lx cs) sk)%nat.
Proof.
  unfold placed_count. rewrite assign_labels_cons. unfold placement_of, placed.
  destruct (assign k elim known lx cs); reflexivity.
Qed.

Lemma support_D w xc : In (w, xc) (outcomes D) -> In (fst xc) S /\ length (snd xc) = k.
Proof.
  destruct xc as [x cs]. intro H. apply in_prod in H. destruct H as [[w1 H1] [w2 H2]].
  split; [exact (in_uniform _ _ _ _ H1) | exact (iid_length _ _ _ _ H2)].
Qed.

(* Each draw is placed with probability >= q~^{k-1}, whatever the clusters known before it
   (Phase1.assign_known_prob on the first |known| of its coins). *)
Lemma placed_prob known :
  known_ok k known ->
  qt ^ (k - 1) <= P D (fun xc => placed (assign k elim known (label (fst xc)) (snd xc))).
Proof.
  intro Ok. unfold P, D. rewrite E_prod. rewrite <- (E_const (uniform S HS) (qt ^ (k - 1))) at 1.
  apply E_le_support. intros w x Hx. apply in_uniform in Hx. simpl fst. simpl snd.
  rewrite (E_ext_support _ _
             (fun cs => ind (placed (assign k elim known (label x) (firstn (length known) cs)))))
    by (intros; rewrite <- assign_firstn; reflexivity).
  unfold query_coins, coins.
  rewrite (E_iid_firstn _ (length known) k
             (fun cs => ind (placed (assign k elim known (label x) cs))))
    by (apply known_ok_length; exact Ok).
  destruct Ok as [Nd Rk].
  exact (assign_known_prob k elim qt qt_range known (label x) Nd Rk (label_k x Hx) k_elim).
Qed.

(* E[e^{-tA}] <= (1 - a + a e^{-t})^r, a = q~^{k-1}: Phase1.sequential_mgf's argument on the
   model's draws. *)
Theorem placed_mgf (t : R) : 0 <= t -> forall r known, known_ok k known ->
  E (iid D r) (fun rs => exp (- t * INR (placed_count k elim known (row_skeleton label rs))))
    <= (1 - qt ^ (k - 1) + qt ^ (k - 1) * exp (- t)) ^ r.
Proof.
  intros Ht. set (a := qt ^ (k - 1)).
  assert (Ha : 0 <= a <= 1)
    by (split; [apply pow_le; lra | unfold a; rewrite <- (pow1 (k - 1)); apply pow_incr; lra]).
  assert (Et : 0 < exp (- t) <= 1).
  { split; [apply exp_pos |]. rewrite <- exp_0. destruct (Req_dec t 0) as [-> | N].
    - rewrite Ropp_0. lra.
    - left. apply exp_increasing. lra. }
  assert (B0 : 0 <= 1 - a + a * exp (- t)) by nra.
  induction r as [| r IH]; intros known Ok.
  - simpl iid. rewrite E_ret. unfold placed_count. simpl. rewrite Rmult_0_r, exp_0. lra.
  - rewrite E_iid_S.
    apply Rle_trans with
      (E D (fun xc => exp (- t * INR (if placed (assign k elim known (label (fst xc)) (snd xc))
                                      then 1 else 0)%nat) * (1 - a + a * exp (- t)) ^ r)).
    + apply E_le_support. intros w [x cs] Hin. destruct (support_D w (x, cs) Hin) as [Hx Lc].
      simpl fst in *. simpl snd in *.
      rewrite (E_ext_support _ _
                 (fun rs => exp (- t * INR (if placed (assign k elim known (label x) cs)
                                            then 1 else 0)%nat) *
                            exp (- t * INR (placed_count k elim (next_known k elim known (label x) cs)
                                                         (row_skeleton label rs))))).
      * rewrite E_scale. apply Rmult_le_compat_l; [left; apply exp_pos |]. apply IH.
        apply (next_known_ok k elim known (label x) cs Ok (label_k x Hx)).
        rewrite Lc. apply known_ok_length, Ok.
      * intros w' rs _. rewrite row_skeleton_cons, placed_count_cons, plus_INR, <- exp_plus.
        f_equal. ring.
    + rewrite E_scale_r.
      change ((1 - a + a * exp (- t)) ^ Datatypes.S r)
        with ((1 - a + a * exp (- t)) * (1 - a + a * exp (- t)) ^ r).
      apply Rmult_le_compat_r; [apply pow_le; exact B0 |].
      rewrite (E_ext_support _ _
                 (fun xc => 1 - (1 - exp (- t)) *
                            ind (placed (assign k elim known (label (fst xc)) (snd xc)))))
        by (intros; apply exp_ind).
      unfold Rminus at 1. rewrite E_plus, E_const.
      rewrite (E_ext_support _ _
                 (fun xc => - (1 - exp (- t)) *
                            ind (placed (assign k elim known (label (fst xc)) (snd xc)))))
        by (intros; ring).
      rewrite E_scale. pose proof (placed_prob known Ok) as Pp. unfold P in Pp. fold a in Pp. nra.
Qed.
End Draws.

(* ---- Lemma 7's tail for Phase 1 on S_i ------------------------------------------------------ *)
(* Phase 1 with the draws given as rows (Phase1Model.phase1_zp with the positions read). *)
Definition zp_rows (k : nat) (elim : bool) (label : nat -> nat) (known : list nat)
    (rs : list (nat * list bool)) : option (nat * list nat) :=
  let asg := assign_labels k elim known (row_skeleton label rs) in
  match choose_p (snd asg) (fst asg) with
  | None => None
  | Some p => Some (p, select (map (in_cluster p) (fst asg)) (map fst rs))
  end.

Lemma in_combine_map_l {A B C} (f : A -> C) (l1 : list A) (l2 : list B) c b :
  In (c, b) (combine (map f l1) l2) -> exists a, c = f a /\ In (a, b) (combine l1 l2).
Proof.
  revert l2. induction l1 as [| a l1 IH]; intros [| b' l2] H; simpl in H; try tauto.
  destruct H as [E0 | H].
  - injection E0 as <- <-. exists a. split; [reflexivity | left; reflexivity].
  - destruct (IH l2 H) as [a' [E1 H1]]. exists a'. split; [exact E1 | right; exact H1].
Qed.

Lemma in_combine_map_r {A B C} (g : B -> C) (l1 : list A) (l2 : list B) a b :
  In (a, b) (combine l1 l2) -> In (a, g b) (combine l1 (map g l2)).
Proof.
  revert l2. induction l1 as [| a' l1 IH]; intros [| b' l2] H; simpl in H |- *; try tauto.
  destruct H as [E0 | H]; [injection E0 as <- <-; left; reflexivity | right; apply IH, H].
Qed.

Section Tail.
Variables (k : nat) (elim : bool) (qt : R) (qt_range : 0 <= qt <= 1).
Hypothesis k_elim : (2 <= k)%nat \/ elim = true.
(* S_i with its rows' labels, all below k. *)
Variables (label : nat -> nat) (S : list nat) (HS : S <> []).
Hypothesis label_k : forall x, In x S -> (label x < k)%nat.
Let D := prod (uniform S HS) (query_coins qt qt_range k).
(* The estimate from Z_p is bad: any event of p and Z_p's rows. *)
Variable bad_z : nat -> list nat -> bool.
(* The tail of l uniform draws from a cluster C_t of S_i, H e^{-l c}. *)
Variables (H c : R).
Hypothesis H_ge_1 : 1 <= H.
Hypothesis c_nonneg : 0 <= c.
Hypothesis cluster_tail : forall t (Hc : cluster_of label S t <> []) l,
  P (iid (uniform (cluster_of label S t) Hc) l) (bad_z t) <= H * exp (- (INR l * c)).

(* Phase 1 is bad: no p (S8), or a bad estimate of p from Z_p. *)
Definition rows_bad (known : list nat) (rs : list (nat * list bool)) : bool :=
  match zp_rows k elim label known rs with None => true | Some (p, Z) => bad_z p Z end.

Lemma trivial_tail (e : R) : e <= 1 -> e <= H * exp (- (INR 0 * c)).
Proof. intro He. simpl INR. rewrite Rmult_0_l, Ropp_0, exp_0. lra. Qed.

(* Given the draws' labels and coins (step (i)): the bad event has probability at most the
   cluster tail at l = |Z_p|.  This is the step that needs self-pairs asked (S4): `zp_rows` reads
   a row only through its label (row_skeleton), because Phase1.assign answers every known
   cluster's query with a coin, x's own anchor included.  Under self-pairs=off (Run::assign's
   `anchor[i] == x` shortcut) a draw that is its cluster's anchor would be placed without a coin:
   the placement would read the row itself, resample_labels would no longer give the same
   placements for the resampled rows, and Z_p would over-represent the anchors (its rows are then
   not i.i.d. uniform on C_p given the labels and coins). *)
Lemma rows_bad_given (known : list nat) (rs : list (nat * list bool)) :
  known_ok k known -> (forall xc, In xc rs -> In (fst xc) S /\ length (snd xc) = k) ->
  E (resample label S rs) (fun ys => ind (rows_bad known ys))
    <= H * exp (- (INR (zp_size k elim known (row_skeleton label rs)) * c)).
Proof.
  intros Ok Hrs.
  assert (Sk : sk_ok k (row_skeleton label rs)).
  { intros sx Hsx. unfold row_skeleton in Hsx. apply in_map_iff in Hsx.
    destruct Hsx as [xc [<- Hxc]]. destruct (Hrs xc Hxc) as [Hx Lx]. split; [apply label_k, Hx | exact Lx]. }
  destruct (assign_labels_ok k elim (row_skeleton label rs) known Ok Sk) as [_ [_ [L C2]]].
  set (asg := assign_labels k elim known (row_skeleton label rs)) in *.
  rewrite (E_ext_support _ _ (fun ys => ind (match choose_p (snd asg) (fst asg) with
                                             | None => true
                                             | Some p => bad_z p (select (map (in_cluster p) (fst asg))
                                                                         (map fst ys))
                                             end))).
  2: { intros w ys Hin.
       assert (E1 : row_skeleton label ys = row_skeleton label rs)
         by exact (resample_labels label S rs w ys Hin).
       unfold rows_bad, zp_rows. rewrite E1. fold asg.
       destruct (choose_p (snd asg) (fst asg)); reflexivity. }
  unfold zp_size. fold asg. destruct (choose_p (snd asg) (fst asg)) as [p |].
  2: { rewrite E_const. apply trivial_tail. unfold ind. lra. }
  set (m := map (in_cluster p) (fst asg)).
  assert (Hm : forall b xc, In (b, xc) (combine m rs) -> b = true -> label (fst xc) = p).
  { intros b xc Hin Hb. unfold m in Hin. apply in_combine_map_l in Hin.
    destruct Hin as [o [Eb Hin]]. subst b.
    apply (in_combine_map_r (fun xc => (label (fst xc), snd xc))) in Hin.
    destruct o as [t |]; [| discriminate]. simpl in Hb. apply Nat.eqb_eq in Hb. subst t.
    destruct (C2 _ _ Hin p eq_refl) as [E0 _]. symmetry. exact E0. }
  assert (Lm : length m = length rs)
    by (unfold m; rewrite map_length, L; unfold row_skeleton; apply map_length).
  destruct (count_true m) as [| l] eqn:Cm.
  { apply trivial_tail. apply P_le_1. }
  (* a draw is placed in p, so C_p is not empty *)
  assert (Hc : cluster_of label S p <> []).
  { assert (Ht : In true m).
    { unfold count_true in Cm. destruct (filter (fun b => b) m) as [| b f] eqn:F; [discriminate |].
      assert (In b (filter (fun b => b) m)) by (rewrite F; left; reflexivity).
      apply filter_In in H0. destruct H0 as [Hb Eb]. subst b. exact Hb. }
    destruct (In_nth m true false Ht) as [j [Hj Nj]].
    assert (Hin : In (nth j m false, nth j rs (O, [])) (combine m rs))
      by (apply in_combine_nth; lia).
    rewrite Nj in Hin. pose proof (Hm _ _ Hin eq_refl) as Lp.
    assert (Hr : In (nth j rs (O, [])) rs) by (apply nth_In; lia).
    destruct (Hrs _ Hr) as [HxS _]. intro E0.
    assert (In (fst (nth j rs (O, []))) (cluster_of label S p))
      by (apply filter_In; split; [exact HxS | apply Nat.eqb_eq, Lp]).
    rewrite E0 in H0. destruct H0. }
  rewrite <- Cm.
  rewrite (resample_select label S p Hc rs m (fun Z => ind (bad_z p Z)) Lm Hm).
  apply cluster_tail.
Qed.
(* Lemma 7's tail for Phase 1 on S_i (the draws as rows): with r draws and a = q~^{k-1},
   P(no p, or a bad estimate) <= H (1 - a + a e^{-c/k})^r, from any known clusters. *)
Theorem phase1_tail_rows (known : list nat) (r : nat) :
  known_ok k known ->
  P (iid D r) (rows_bad known) <=
  H * (1 - qt ^ (k - 1) + qt ^ (k - 1) * exp (- (c / INR k))) ^ r.
Proof.
  intro Ok.
  assert (K1 : (1 <= k)%nat).
  { destruct S as [| x S']; [congruence |]. pose proof (label_k x (or_introl eq_refl)). lia. }
  unfold P. rewrite (resample_iid label k S HS label_k (query_coins qt qt_range k) r).
  apply Rle_trans with
    (E (iid D r) (fun rs => H * exp (- (c / INR k) *
                                   INR (placed_count k elim known (row_skeleton label rs))))).
  - apply E_le_support. intros w rs Hin.
    assert (Hrs : forall xc, In xc rs -> In (fst xc) S /\ length (snd xc) = k).
    { intros xc Hxc. destruct (in_iid_elem _ _ _ _ Hin xc Hxc) as [wa Ha].
      exact (support_D k qt qt_range S HS wa xc Ha). }
    eapply Rle_trans; [apply (rows_bad_given known rs Ok Hrs) |].
    apply Rmult_le_compat_l; [lra |]. apply Hoeffding.exp_mono.
    assert (Sk : sk_ok k (row_skeleton label rs)).
    { intros sx Hsx. unfold row_skeleton in Hsx. apply in_map_iff in Hsx.
      destruct Hsx as [xc [<- Hxc]]. destruct (Hrs xc Hxc) as [Hx Lx].
      split; [apply label_k, Hx | exact Lx]. }
    pose proof (zp_pigeonhole k elim known (row_skeleton label rs) Ok Sk) as Pg.
    apply le_INR in Pg. rewrite mult_INR in Pg.
    assert (Kp : 0 < INR k) by (apply lt_0_INR; lia).
    set (A := INR (placed_count k elim known (row_skeleton label rs))) in *.
    set (l := INR (zp_size k elim known (row_skeleton label rs))) in *.
    assert (c / INR k * A <= c / INR k * (INR k * l))
      by (apply Rmult_le_compat_l; [apply div_k_nonneg; assumption | exact Pg]).
    replace (c / INR k * (INR k * l)) with (l * c) in H0 by (field; lra). lra.
  - rewrite E_scale. apply Rmult_le_compat_l; [lra |].
    apply (placed_mgf k elim qt qt_range k_elim label S HS label_k); [| exact Ok].
    apply div_k_nonneg; assumption.
Qed.
End Tail.

(* ---- The draws as positions in S_i (Phase1Model's input) ---------------------------------- *)
Lemma select_map {A B} (g : A -> B) (m : list bool) (l : list A) :
  map g (select m l) = select m (map g l).
Proof.
  revert l. induction m as [| b m IH]; intros [| a l]; try reflexivity.
  rewrite select_cons. simpl map. rewrite select_cons. destruct b; simpl; rewrite IH; reflexivity.
Qed.

(* Phase1Model.phase1_zp reads a position's row and nothing else of it. *)
Lemma phase1_zp_rows (k : nat) (elim : bool) (label : nat -> nat) (S known : list nat)
    (ds : list draw) :
  phase1_zp k elim label S known ds =
  zp_rows k elim label known (map (fun d => (draw_row S d, snd d)) ds).
Proof.
  unfold phase1_zp, phase1_zp_positions, zp_rows, skeleton, row_skeleton. rewrite map_map.
  simpl. destruct (choose_p _ _) as [p |]; [| reflexivity].
  rewrite select_map, !map_map. reflexivity.
Qed.

Lemma sumR_map {A B} (g : A -> B) (l : list A) f : sumR (map g l) f = sumR l (fun a => f (g a)).
Proof. unfold sumR. rewrite map_map. reflexivity. Qed.

Lemma map_nth_seq_self {A} (l : list A) (d : A) : map (fun j => nth j l d) (seq 0 (length l)) = l.
Proof.
  induction l as [| a l IH]; [reflexivity |]. simpl. f_equal.
  rewrite <- seq_shift, map_map. exact IH.
Qed.

(* A uniform position of S_i, read as its row, is a uniform row of S_i. *)
Lemma uniform_positions (S : list nat) (HS : S <> []) (f : nat -> R) :
  E (uniform_or (seq 0 (length S)) O) (fun j => f (nth j S O)) = E (uniform S HS) f.
Proof.
  rewrite E_uniform_or, E_uniform.
  2: { destruct S; [congruence | discriminate]. }
  rewrite seq_length. f_equal. change (sumR (seq 0 (length S)) (fun j => f (nth j S O)) = sumR S f).
  rewrite <- (sumR_map (fun j => nth j S O)), map_nth_seq_self. reflexivity.
Qed.

(* A uniform u < N read modulo s, s dividing N, is uniform below s: the run draws every position
   as such a u (N = n!, independent of S_i) and reads it modulo |S_i|. *)
Lemma seq_offset (a s : nat) : seq a s = map (fun j => (a + j)%nat) (seq 0 s).
Proof.
  revert a. induction s as [| s IH]; intro a; [reflexivity |]. simpl. f_equal; [lia |].
  rewrite IH, <- seq_shift, map_map. apply map_ext. intro. lia.
Qed.

Lemma sumR_mod (s q : nat) (f : nat -> R) : s <> O ->
  sumR (seq 0 (q * s)) (fun u => f (u mod s)%nat) = INR q * sumR (seq 0 s) f.
Proof.
  intro Hs. induction q as [| q IH]; [unfold sumR; simpl; rewrite Rmult_0_l; reflexivity |].
  replace (Datatypes.S q * s)%nat with (q * s + s)%nat by lia.
  rewrite seq_app, sumR_app, IH. simpl plus. rewrite (seq_offset (q * s) s), sumR_map.
  rewrite (sumR_ext (seq 0 s) (fun j => f ((q * s + j) mod s)%nat) f).
  - rewrite S_INR. ring.
  - intros j Hj. apply in_seq in Hj. f_equal. rewrite Nat.add_comm, Nat.mod_add by exact Hs.
    apply Nat.mod_small. lia.
Qed.

Lemma uniform_mod (s N : nat) (f : nat -> R) : s <> O -> Nat.divide s N -> N <> O ->
  E (uniform_or (seq 0 N) O) (fun u => f (u mod s)%nat) = E (uniform_or (seq 0 s) O) f.
Proof.
  intros Hs [q ->] HN. rewrite !E_uniform_or.
  2, 3: intro E0; apply (f_equal (@length nat)) in E0; rewrite seq_length in E0; simpl in E0; lia.
  rewrite !seq_length, sumR_mod by exact Hs. rewrite mult_INR. field.
  split; apply not_0_INR; lia.
Qed.

Section TailMod.
Variables (k : nat) (elim : bool) (qt : R) (qt_range : 0 <= qt <= 1).
Hypothesis k_elim : (2 <= k)%nat \/ elim = true.
Variables (label : nat -> nat) (S : list nat) (HS : S <> []).
Hypothesis label_k : forall x, In x S -> (label x < k)%nat.
Variable bad_z : nat -> list nat -> bool.
Variables (H c : R).
Hypothesis H_ge_1 : 1 <= H.
Hypothesis c_nonneg : 0 <= c.
Hypothesis cluster_tail : forall t (Hc : cluster_of label S t <> []) l,
  P (iid (uniform (cluster_of label S t) Hc) l) (bad_z t) <= H * exp (- (INR l * c)).
(* N a common multiple of the possible |S_i|. *)
Variable N : nat.
Hypothesis N_divides : Nat.divide (length S) N.
Hypothesis N_pos : N <> O.

(* The draws of one iteration: u uniform below N and k coins, r times; the position u mod |S_i|. *)
Definition draw_law : Dist (nat * list bool) := prod (uniform_or (seq 0 N) O) (query_coins qt qt_range k).

Definition positions (n : nat) (b : list (nat * list bool)) : list draw :=
  map (fun d => ((fst d mod n)%nat, snd d)) b.

(* Lemma 7's tail for Phase1Model's Phase 1 on S_i with the run's draws. *)
Theorem phase1_tail (known : list nat) (r : nat) :
  known_ok k known ->
  P (iid draw_law r)
    (fun b => match phase1_zp k elim label S known (positions (length S) b) with
              | None => true
              | Some (p, Z) => bad_z p Z
              end)
  <= H * (1 - qt ^ (k - 1) + qt ^ (k - 1) * exp (- (c / INR k))) ^ r.
Proof.
  intro Ok.
  assert (Ls : length S <> O) by (destruct S; [congruence | discriminate]).
  pose proof N_pos as HN.
  eapply Rle_trans; [| apply (phase1_tail_rows k elim qt qt_range k_elim label S HS label_k
                               bad_z H c H_ge_1 c_nonneg cluster_tail known r Ok)].
  right. unfold P, rows_bad.
  set (g := fun d : nat * list bool => (nth (fst d mod length S) S O, snd d)).
  set (F := fun rs => ind match zp_rows k elim label known rs with
                          | Some (p, Z) => bad_z p Z
                          | None => true end).
  transitivity (E (iid draw_law r) (fun b => F (map g b))).
  { apply E_ext_support. intros. unfold F, positions. rewrite phase1_zp_rows, map_map.
    reflexivity. }
  rewrite E_iid_map. apply iid_same_law. intro f. unfold g, draw_law. rewrite E_dmap, !E_prod.
  simpl fst. simpl snd.
  rewrite (E_swap (uniform_or (seq 0 N) O)). rewrite (E_swap (uniform S HS)).
  apply E_ext_support. intros w cs _.
  rewrite (uniform_mod (length S) N (fun j => f (nth j S O, cs)) Ls N_divides HN).
  apply (uniform_positions S HS (fun x => f (x, cs))).
Qed.
End TailMod.
