(* Phase 2's erasures on the concrete space (FiniteProb.v), and the erasure tail of Theorem 1.

   Definition 5 read as fresh, independent abstentions (proofs-notes/oracle-independence.md,
   clause 2): every query, a self-pair (x_j, x_j) included (semantics.md S4: it is asked like any
   other pair), is answered not-sure with probability 1 - qt, independently of every other query
   and of the points asked, for one rate qt >= q (Definition 5's "at most 1 - q").  Phase 2 of
   iteration i asks, at search step j, beta queries (Algorithm 2, lines 3-7; lib's Run::vote asks
   the b-th of them b-th): the erasure law is a table of K x steps x beta independent coins,
   coin (i, j, b) true when the b-th answer of the j-th probe of iteration i is not-sure.  A run
   never asks more than K x steps x beta Phase-2 queries (BinarySearch.binary_search_steps), and
   asking a query that the run does not reach leaves the law of the rest unchanged, so indexing the
   coins by (i, j, b) instead of by the order in which the oracle answers gives the same law of the
   run (each query reads one fresh coin either way).

   Proved: a probe fails only if its beta coins all say not-sure (Algorithm1.step_fails_erased),
   and those beta coins all say not-sure with probability (1 - qt)^beta <= (1 - q)^beta, whatever
   the rest of the run's randomness (Phase 1's law d1 is arbitrary here) and however it depends on
   the coins. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb.
Open Scope R_scope.

Definition Table : Type := list (list (list bool)).

(* Coin (i, j, b) of the table: nth b (nth j (nth i t)). *)
Definition erased_at (t : Table) (i j b : nat) : bool := nth b (nth j (nth i t []) []) false.

Section Erasure.
(* K iterations, steps probes per search, beta answers per probe; the abstention rate is 1 - qt. *)
Variables (K steps beta : nat) (q qt : R).
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis qt_ge_q : q <= qt.

Lemma coin_range : 0 <= 1 - qt <= 1.
Proof. lra. Qed.

(* K x steps x beta independent Bernoulli(1 - qt) coins (true: the answer is not-sure). *)
Definition erasure_law : Dist Table := iid (iid (coins (1 - qt) coin_range beta) steps) K.

(* The beta coins of step j of iteration i are all true with probability (1 - qt)^beta. *)
Lemma erasure_block (i j : nat) :
  (i < K)%nat -> (j < steps)%nat ->
  P erasure_law (fun t => forallb (fun b => b) (nth j (nth i t []) [])) = (1 - qt) ^ beta.
Proof.
  intros Hi Hj. unfold erasure_law.
  rewrite (P_iid_nth _ K i [] (fun u => forallb (fun b => b) (nth j u []))) by exact Hi.
  rewrite (P_iid_nth _ steps j [] (fun c => forallb (fun b => b) c)) by exact Hj.
  apply P_coins_all.
Qed.

(* On the table's outcomes, block (i, j) has exactly beta coins. *)
Lemma block_length (w : R) (t : Table) (i j : nat) :
  In (w, t) (outcomes erasure_law) -> (i < K)%nat -> (j < steps)%nat ->
  length (nth j (nth i t []) []) = beta.
Proof.
  intros Ht Hi Hj. unfold erasure_law in Ht.
  assert (Li : In (nth i t []) t) by (apply nth_In; rewrite (iid_length _ _ _ _ Ht); exact Hi).
  destruct (in_iid_elem _ _ _ _ Ht _ Li) as [wi Hwi].
  assert (Lj : In (nth j (nth i t []) []) (nth i t []))
    by (apply nth_In; rewrite (iid_length _ _ _ _ Hwi); exact Hj).
  destruct (in_iid_elem _ _ _ _ Hwi _ Lj) as [wj Hwj].
  exact (iid_length _ _ _ _ Hwj).
Qed.

Lemma forallb_nth (l : list bool) :
  (forall b, (b < length l)%nat -> nth b l false = true) -> forallb (fun b => b) l = true.
Proof.
  induction l as [| c l IH]; simpl; intro H; [reflexivity |].
  rewrite (H 0%nat ltac:(lia)). simpl. apply IH. intros b Hb. exact (H (S b) ltac:(lia)).
Qed.

(* The erasure tail: any event F of the run (A: the rest of its randomness, with any law d1)
   that forces all beta coins of step j of iteration i to be true has probability at most
   (1 - q)^beta.  Theorem1.v applies it to "the j-th probe of iteration i fails"
   (Algorithm1.step_fails_erased). *)
Theorem erasure_tail {A : Type} (d1 : Dist A) (F : A * Table -> bool) (i j : nat) :
  (i < K)%nat -> (j < steps)%nat ->
  (forall w, F w = true -> forall b, (b < beta)%nat -> erased_at (snd w) i j b = true) ->
  P (prod d1 erasure_law) F <= (1 - q) ^ beta.
Proof.
  intros Hi Hj HF.
  apply Rle_trans with
    (P (prod d1 erasure_law) (fun w => forallb (fun b => b) (nth j (nth i (snd w) []) []))).
  - apply P_monotone_support. intros w [a t] Hin Fw.
    destruct (in_prod _ _ _ _ _ Hin) as [_ [wt Ht]].
    change (snd (a, t)) with t. apply forallb_nth.
    rewrite (block_length wt t i j Ht Hi Hj). intros b Hb.
    exact (HF (a, t) Fw b Hb).
  - rewrite (P_prod_snd d1 erasure_law (fun t => forallb (fun b => b) (nth j (nth i t []) []))).
    rewrite erasure_block by assumption.
    apply pow_incr. lra.
Qed.
End Erasure.
