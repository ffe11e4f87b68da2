(* McDiarmid's bounded-differences inequality (McDiarmid 1989, Lemma 1.2) for l independent draws
   from a finite law (FiniteProb.iid): if changing the i-th draw (within the law's support)
   changes f by at most c_i, then P(f - E f >= u) <= exp(-2 u^2 / sum c_i^2).
   The Doob martingale E[f | first i draws] is the recursion of `iid` itself: the first draw a
   splits f - E f into (g a - E g) + (f(a :: s) - g a) with g a = E[f | a]; the second part is the
   same problem on the remaining draws (induction) and the first is a mean-zero variable in an
   interval of width c_1 (g's range), bounded by Hoeffding's lemma (Hoeffding.v).  This gives
   E e^{t (f - E f)} <= e^{t^2 sum c_i^2 / 8}, and Markov's inequality at t = 4u / sum c_i^2 the
   tail (proofs-notes/mcdiarmid.md). *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Hoeffding.
Open Scope R_scope.

Definition sumsq (cs : list R) : R := fold_right (fun c s => c ^ 2 + s) 0 cs.

Lemma sumsq_nonneg (cs : list R) : 0 <= sumsq cs.
Proof.
  induction cs as [| c cs IH]; simpl; [lra |]. pose proof (pow2_ge_0 c). lra.
Qed.

(* A finite law's image under h, as Hoeffding.v's list of weighted values. *)
Lemma wexp_image {A} (l : list (R * A)) (h : A -> R) (phi : R -> R) :
  wexp (map (fun wa => (fst wa, h (snd wa))) l) phi = wsum l (fun a => phi (h a)).
Proof. induction l as [| wa l IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma list_argmin {B} (h : B -> R) (l : list B) :
  l <> [] -> exists x, In x l /\ forall y, In y l -> h x <= h y.
Proof.
  induction l as [| b l IH]; intro N; [contradiction |].
  destruct l as [| b' l'].
  - exists b. split; [left; reflexivity |]. intros y [<- | []]. lra.
  - destruct IH as [x [Hx Hm]]; [discriminate |].
    destruct (Rle_lt_dec (h b) (h x)) as [Le | Lt].
    + exists b. split; [left; reflexivity |]. intros y [<- | Hy]; [lra |].
      apply Rle_trans with (h x); [exact Le | apply Hm, Hy].
    + exists x. split; [right; exact Hx |]. intros y [<- | Hy]; [lra | apply Hm, Hy].
Qed.

Lemma outcomes_nonempty {A} (d : Dist A) : outcomes d <> [].
Proof. intro N. pose proof (outcomes_total d) as T. rewrite N in T. simpl in T. lra. Qed.

Section McDiarmid.
Context {A : Type} (d : Dist A) (supp : A -> Prop).
(* Every outcome the law lists is in supp (e.g. the finite set C a uniform law draws from). *)
Hypothesis d_supp : forall w a, In (w, a) (outcomes d) -> supp a.

(* Bounded differences, one coordinate after the other: changing the first draw within supp
   changes f by at most c_1 whatever the others are, and for each first draw in supp the function
   of the remaining draws has bounded differences c_2, ..., c_l.  (Equivalent to the usual
   statement for sequences whose draws are in supp: `bounded_diff_of_replace` below.) *)
Fixpoint bounded_diff (cs : list R) (f : list A -> R) : Prop :=
  match cs with
  | [] => True
  | c :: cs' =>
      (forall a a' s, supp a -> supp a' -> f (a :: s) - f (a' :: s) <= c) /\
      (forall a, supp a -> bounded_diff cs' (fun s => f (a :: s)))
  end.

(* The usual hypothesis (changing the draw at position i, the earlier draws in supp, changes f by at
   most c_i) gives bounded_diff. *)
Lemma bounded_diff_of_replace (cs : list R) (f : list A -> R) :
  (forall pre a a' post, (length pre < length cs)%nat -> Forall supp pre -> supp a -> supp a' ->
     f (pre ++ a :: post) - f (pre ++ a' :: post) <= nth (length pre) cs 0) ->
  bounded_diff cs f.
Proof.
  revert f. induction cs as [| c cs IH]; intros f H; simpl; [exact I |]. split.
  - intros a a' s Sa Sa'. exact (H [] a a' s ltac:(simpl; lia) (Forall_nil _) Sa Sa').
  - intros a Sa. apply IH. intros pre b b' post L F Sb Sb'.
    exact (H (a :: pre) b b' post ltac:(simpl; lia) (Forall_cons _ Sa F) Sb Sb').
Qed.

(* The moment generating function of f - E f. *)
Theorem mcdiarmid_mgf (cs : list R) (f : list A -> R) (t : R) :
  bounded_diff cs f ->
  E (iid d (length cs)) (fun s => exp (t * (f s - E (iid d (length cs)) f)))
    <= exp (t ^ 2 * sumsq cs / 8).
Proof.
  revert f. induction cs as [| c cs IH]; intros f BD.
  - simpl. rewrite !E_ret. replace (t * (f [] - f [])) with 0 by ring.
    apply exp_mono. right. field.
  - destruct BD as [B1 B2]. simpl length. set (n := length cs) in *.
    set (g := fun a => E (iid d n) (fun s => f (a :: s))).
    rewrite (E_iid_S d n f). fold g. set (mu := E d g).
    rewrite E_iid_S.
    (* the remaining draws, given the first: the induction hypothesis *)
    apply Rle_trans with (E d (fun a => exp (t * (g a - mu)) * exp (t ^ 2 * sumsq cs / 8))).
    { apply E_le_support. intros w a Hin. pose proof (d_supp w a Hin) as Sa.
      rewrite (E_ext_support (iid d n) _
                 (fun s => exp (t * (g a - mu)) * exp (t * (f (a :: s) - g a)))).
      2: { intros. rewrite <- exp_plus. f_equal. ring. }
      rewrite E_scale. apply Rmult_le_compat_l; [left; apply exp_pos |].
      exact (IH (fun s => f (a :: s)) (B2 a Sa)). }
    rewrite E_scale_r.
    replace (t ^ 2 * sumsq (c :: cs) / 8) with (t ^ 2 * c ^ 2 / 8 + t ^ 2 * sumsq cs / 8)
      by (simpl; field).
    rewrite exp_plus. apply Rmult_le_compat_r; [left; apply exp_pos |].
    (* the first draw: Hoeffding's lemma for g - mu on [g a0 - mu, g a0 - mu + c] *)
    destruct (list_argmin (fun wa => g (snd wa)) (outcomes d) (outcomes_nonempty d))
      as [[w0 a0] [Hin0 Min]].
    pose proof (d_supp w0 a0 Hin0) as Sa0. simpl in Min.
    unfold E at 1. rewrite <- (wexp_image (outcomes d) (fun a => g a - mu) (fun x => exp (t * x))).
    replace (c ^ 2) with ((g a0 - mu + c - (g a0 - mu)) ^ 2) by ring.
    apply hoeffding_lemma.
    + apply Forall_forall. intros [w x] Hin. apply in_map_iff in Hin.
      destruct Hin as [[w' a] [Eq Hin]]. simpl in Eq. injection Eq as <- <-. simpl.
      split; [exact (proj1 (Forall_forall _ _) (outcomes_nonneg d) (w', a) Hin) |].
      pose proof (Min (w', a) Hin) as M. simpl in M. split; [lra |].
      enough (g a <= g a0 + c) by lra.
      unfold g. rewrite <- (E_const (iid d n) c), <- E_plus. apply E_le. intro s.
      pose proof (B1 a a0 s (d_supp w' a Hin) Sa0). lra.
    + rewrite (wexp_image (outcomes d) (fun a => g a - mu)). apply outcomes_total.
    + rewrite (wexp_image (outcomes d) (fun a => g a - mu)). fold (E d (fun a => g a - mu)).
      rewrite (E_ext_support d _ (fun a => g a + (-1) * mu)) by (intros; ring).
      rewrite E_plus, E_const. fold mu. ring.
Qed.

(* McDiarmid's inequality: P(f - E f >= u) <= exp(-2 u^2 / sum c_i^2). *)
Theorem mcdiarmid (cs : list R) (f : list A -> R) (u : R) :
  bounded_diff cs f -> 0 < u -> 0 < sumsq cs ->
  P (iid d (length cs)) (fun s => Rleb u (f s - E (iid d (length cs)) f))
    <= exp (- (2 * u ^ 2 / sumsq cs)).
Proof.
  intros BD U S. set (n := length cs). set (mu := E (iid d n) f). set (t := 4 * u / sumsq cs).
  assert (T : 0 <= t) by (unfold t; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat, S]).
  (* Markov: the indicator of u <= X is below e^{t (X - u)} *)
  apply Rle_trans with (E (iid d n) (fun s => exp (- (t * u)) * exp (t * (f s - mu)))).
  { apply E_le. intro s. rewrite <- exp_plus. unfold ind.
    destruct (Rleb u (f s - mu)) eqn:L.
    - apply Rleb_true in L. rewrite <- exp_0. apply exp_mono. nra.
    - left. apply exp_pos. }
  rewrite E_scale. apply Rle_trans with (exp (- (t * u)) * exp (t ^ 2 * sumsq cs / 8)).
  { apply Rmult_le_compat_l; [left; apply exp_pos | apply mcdiarmid_mgf, BD]. }
  rewrite <- exp_plus. apply exp_mono. right. unfold t. field. lra.
Qed.

End McDiarmid.
