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
From SSAC Require Algorithm1 Erasure Theorem1 Hoeffding.
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
