(* A concrete finite probability space: all of Algorithm 1's randomness is finite (draws with
   replacement from a finite S_i, semantics.md S1; one erasure coin per query, S4; the anchor draws
   of the random anchor rules), so a law is a finite list of weighted outcomes.

   Interface (fixed: later files add to it, nothing here is renamed or changed):
   - `Dist A`: a law on A, a list `outcomes d` of pairs (weight, outcome) with every weight >= 0
     (`outcomes_nonneg`) and total weight 1 (`outcomes_total`).  An outcome may be listed more
     than once (its probability is the sum of its weights); outcomes of weight 0 are allowed.
   - Events are boolean predicates `A -> bool` (decidable events: no classical axiom is needed to
     evaluate them; a real comparison is made boolean with `Rltb`/`Rleb`, which use only the
     standard library's axioms of R).  `ind b` is 1 or 0.
   - `E d f` = sum of w * f a over the outcomes (expectation of f : A -> R);
     `P d e` = E d (fun a => ind (e a)).
   - `ret a` (the point mass), `bind d f` (draw a from d, then from f a: sequential composition
     and conditional laws), `dmap g d` (the law of g under d), `prod d1 d2` (independent pair),
     `iid d l` (l independent draws from d, as a list in draw order).
   - `uniform l H` (H : l <> []): each element of the finite list l with weight 1/|l| (a
     duplicated element counts twice: the uniform law on the rows of S_i is uniform on the list
     S_i); `uniform_seq C l H := iid (uniform C H) l`: l draws with replacement (S1).
   - `bernoulli p Hp` (0 <= p <= 1): true with probability p; `coins p Hp l := iid (bernoulli p Hp) l`,
     l independent coins.
   Proved here: P_monotone, P_subadditive, P_empty (the properties Theorem 1's union bound needs),
   linearity and monotonicity of E, E of ret/bind/prod, P of a product event, the marginal of
   one coordinate of iid draws (`P_iid_nth`) and P(all l draws satisfy e) = P(e)^l (`P_iid_all`),
   and the laws above (`P_bernoulli`, `E_uniform`); the outcomes of ret, bind, prod and iid
   (`in_ret`, `in_bind`, `in_prod`, `iid_length`, `in_iid_elem`) for arguments on the support
   (`E_le_support`, `P_monotone_support`); finite Fubini (`E_swap`). *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
Open Scope R_scope.

(* ---- Weighted sums ------------------------------------------------------------------------- *)
Fixpoint wsum {A : Type} (l : list (R * A)) (f : A -> R) : R :=
  match l with [] => 0 | wa :: l' => fst wa * f (snd wa) + wsum l' f end.

Lemma wsum_app {A} (l1 l2 : list (R * A)) f : wsum (l1 ++ l2) f = wsum l1 f + wsum l2 f.
Proof. induction l1 as [| wa l1 IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma wsum_ext {A} (l : list (R * A)) f g :
  (forall wa, In wa l -> f (snd wa) = g (snd wa)) -> wsum l f = wsum l g.
Proof.
  induction l as [| wa l IH]; simpl; intro H; [reflexivity |].
  rewrite H by auto. rewrite IH by auto. reflexivity.
Qed.

Lemma wsum_le {A} (l : list (R * A)) f g :
  Forall (fun wa => 0 <= fst wa) l ->
  (forall wa, In wa l -> f (snd wa) <= g (snd wa)) -> wsum l f <= wsum l g.
Proof.
  induction l as [| wa l IH]; simpl; intros N H; [lra |].
  inversion N as [| ? ? Nw Nl]; subst.
  pose proof (H wa (or_introl eq_refl)). assert (wsum l f <= wsum l g) by (apply IH; auto).
  apply Rplus_le_compat; [apply Rmult_le_compat_l |]; auto.
Qed.

Lemma wsum_plus {A} (l : list (R * A)) f g :
  wsum l (fun a => f a + g a) = wsum l f + wsum l g.
Proof. induction l as [| wa l IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma wsum_scale {A} (l : list (R * A)) f c : wsum l (fun a => c * f a) = c * wsum l f.
Proof. induction l as [| wa l IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma wsum_const {A} (l : list (R * A)) c : wsum l (fun _ => c) = c * wsum l (fun _ => 1).
Proof. induction l as [| wa l IH]; simpl; [ring | rewrite IH; ring]. Qed.

(* Rescaling every weight by c. *)
Definition wscale {A} (c : R) (l : list (R * A)) : list (R * A) :=
  map (fun vb => (c * fst vb, snd vb)) l.

Lemma wsum_wscale {A} (c : R) (l : list (R * A)) f : wsum (wscale c l) f = c * wsum l f.
Proof. induction l as [| wa l IH]; simpl; [ring | rewrite IH; ring]. Qed.

(* ---- Laws ------------------------------------------------------------------------------------ *)
Record Dist (A : Type) := mkDist {
  outcomes : list (R * A);
  outcomes_nonneg : Forall (fun wa => 0 <= fst wa) outcomes;
  outcomes_total : wsum outcomes (fun _ => 1) = 1 }.
Arguments mkDist {A}.
Arguments outcomes {A}.
Arguments outcomes_nonneg {A}.
Arguments outcomes_total {A}.

(* Expectation, indicator, probability of a boolean event. *)
Definition E {A} (d : Dist A) (f : A -> R) : R := wsum (outcomes d) f.
Definition ind (b : bool) : R := if b then 1 else 0.
Definition P {A} (d : Dist A) (e : A -> bool) : R := E d (fun a => ind (e a)).

(* Boolean real comparisons, for events about real quantities. *)
Definition Rltb (x y : R) : bool := if Rlt_dec x y then true else false.
Definition Rleb (x y : R) : bool := if Rle_dec x y then true else false.

Lemma Rltb_true x y : Rltb x y = true <-> x < y.
Proof. unfold Rltb. destruct (Rlt_dec x y); split; auto; discriminate. Qed.
Lemma Rleb_true x y : Rleb x y = true <-> x <= y.
Proof. unfold Rleb. destruct (Rle_dec x y); split; auto; discriminate. Qed.

Section Expectation.
Context {A : Type} (d : Dist A).

Lemma E_le (f g : A -> R) : (forall a, f a <= g a) -> E d f <= E d g.
Proof. intro H. apply wsum_le; [apply outcomes_nonneg | auto]. Qed.

(* Monotonicity needs the inequality only on the outcomes listed. *)
Lemma E_le_support (f g : A -> R) :
  (forall w a, In (w, a) (outcomes d) -> f a <= g a) -> E d f <= E d g.
Proof.
  intro H. apply wsum_le; [apply outcomes_nonneg |]. intros [w a] Hin. exact (H w a Hin).
Qed.

Lemma E_ext_support (f g : A -> R) :
  (forall w a, In (w, a) (outcomes d) -> f a = g a) -> E d f = E d g.
Proof. intro H. apply wsum_ext. intros [w a] Hin. exact (H w a Hin). Qed.

Lemma E_const (c : R) : E d (fun _ => c) = c.
Proof. unfold E. rewrite wsum_const, outcomes_total. ring. Qed.

Lemma E_plus (f g : A -> R) : E d (fun a => f a + g a) = E d f + E d g.
Proof. apply wsum_plus. Qed.

Lemma E_scale (f : A -> R) (c : R) : E d (fun a => c * f a) = c * E d f.
Proof. apply wsum_scale. Qed.

Lemma E_scale_r (f : A -> R) (c : R) : E d (fun a => f a * c) = E d f * c.
Proof.
  rewrite <- (Rmult_comm c). rewrite <- E_scale. unfold E. apply wsum_ext. intros. ring.
Qed.

Lemma E_nonneg (f : A -> R) : (forall a, 0 <= f a) -> 0 <= E d f.
Proof. intro H. rewrite <- (E_const 0). apply E_le. exact H. Qed.

(* ---- The probability's properties (Theorem 1's union bound uses these three) ---------------- *)
Theorem P_monotone (e1 e2 : A -> bool) :
  (forall a, e1 a = true -> e2 a = true) -> P d e1 <= P d e2.
Proof.
  intro H. apply E_le. intro a. unfold ind.
  destruct (e1 a) eqn:E1; [rewrite (H a E1) |]; destruct (e2 a); lra.
Qed.

Theorem P_subadditive (e1 e2 : A -> bool) :
  P d (fun a => orb (e1 a) (e2 a)) <= P d e1 + P d e2.
Proof.
  unfold P. rewrite <- E_plus. apply E_le. intro a. unfold ind.
  destruct (e1 a), (e2 a); simpl; lra.
Qed.

Theorem P_empty : P d (fun _ => false) = 0.
Proof. unfold P, ind. apply E_const. Qed.

Lemma P_full : P d (fun _ => true) = 1.
Proof. unfold P, ind. apply E_const. Qed.

Lemma P_nonneg (e : A -> bool) : 0 <= P d e.
Proof. apply E_nonneg. intro a. unfold ind. destruct (e a); lra. Qed.

Lemma P_le_1 (e : A -> bool) : P d e <= 1.
Proof. rewrite <- P_full. apply P_monotone. auto. Qed.

Lemma P_ext (e1 e2 : A -> bool) : (forall a, e1 a = e2 a) -> P d e1 = P d e2.
Proof. intro H. unfold P. apply E_ext_support. intros. rewrite H. reflexivity. Qed.

Lemma P_complement (e : A -> bool) : P d (fun a => negb (e a)) = 1 - P d e.
Proof.
  rewrite <- P_full. unfold P. apply Rplus_eq_reg_r with (E d (fun a => ind (e a))).
  rewrite <- E_plus. ring_simplify. apply E_ext_support. intros. unfold ind.
  destruct (e a); simpl; ring.
Qed.
End Expectation.

(* ---- Constructions ------------------------------------------------------------------------- *)
(* The point mass. *)
Definition ret {A} (a : A) : Dist A.
Proof. refine (mkDist [(1, a)] _ _); [repeat constructor; simpl; lra | simpl; ring]. Defined.

Lemma E_ret {A} (a : A) f : E (ret a) f = f a.
Proof. unfold E. simpl. ring. Qed.

(* Sequential composition: a ~ d, then b ~ f a. *)
Definition bind_outcomes {A B} (d : Dist A) (f : A -> Dist B) : list (R * B) :=
  flat_map (fun wa => wscale (fst wa) (outcomes (f (snd wa)))) (outcomes d).

Lemma wsum_flat_map {A B} (l : list (R * A)) (f : A -> Dist B) g :
  wsum (flat_map (fun wa => wscale (fst wa) (outcomes (f (snd wa)))) l) g =
  wsum l (fun a => wsum (outcomes (f a)) g).
Proof.
  induction l as [| wa l IH]; simpl; [reflexivity |].
  rewrite wsum_app, wsum_wscale, IH. reflexivity.
Qed.

Lemma bind_nonneg {A B} (d : Dist A) (f : A -> Dist B) :
  Forall (fun wb => 0 <= fst wb) (bind_outcomes d f).
Proof.
  unfold bind_outcomes. apply Forall_forall. intros wb Hin. apply in_flat_map in Hin.
  destruct Hin as [wa [Ha Hb]]. unfold wscale in Hb. apply in_map_iff in Hb.
  destruct Hb as [vb [<- Hv]]. simpl. apply Rmult_le_pos.
  - exact (proj1 (Forall_forall _ _) (outcomes_nonneg d) wa Ha).
  - exact (proj1 (Forall_forall _ _) (outcomes_nonneg (f (snd wa))) vb Hv).
Qed.

Lemma bind_total {A B} (d : Dist A) (f : A -> Dist B) :
  wsum (bind_outcomes d f) (fun _ => 1) = 1.
Proof.
  unfold bind_outcomes. rewrite wsum_flat_map.
  rewrite (wsum_ext _ _ (fun _ => 1)) by (intros; apply outcomes_total).
  apply outcomes_total.
Qed.

Definition bind {A B} (d : Dist A) (f : A -> Dist B) : Dist B :=
  mkDist (bind_outcomes d f) (bind_nonneg d f) (bind_total d f).

Lemma E_bind {A B} (d : Dist A) (f : A -> Dist B) g :
  E (bind d f) g = E d (fun a => E (f a) g).
Proof. unfold E. simpl. apply wsum_flat_map. Qed.

Lemma P_bind {A B} (d : Dist A) (f : A -> Dist B) e :
  P (bind d f) e = E d (fun a => P (f a) e).
Proof. apply E_bind. Qed.

(* The law of g under d. *)
Definition dmap {A B} (g : A -> B) (d : Dist A) : Dist B := bind d (fun a => ret (g a)).

Lemma E_dmap {A B} (g : A -> B) (d : Dist A) f : E (dmap g d) f = E d (fun a => f (g a)).
Proof. unfold dmap. rewrite E_bind. apply E_ext_support. intros. apply E_ret. Qed.

(* Independent pair. *)
Definition prod {A B} (d1 : Dist A) (d2 : Dist B) : Dist (A * B) :=
  bind d1 (fun a => bind d2 (fun b => ret (a, b))).

Lemma E_prod {A B} (d1 : Dist A) (d2 : Dist B) f :
  E (prod d1 d2) f = E d1 (fun a => E d2 (fun b => f (a, b))).
Proof.
  unfold prod. rewrite E_bind. apply E_ext_support. intros. rewrite E_bind.
  apply E_ext_support. intros. apply E_ret.
Qed.

Lemma E_prod_fst {A B} (d1 : Dist A) (d2 : Dist B) f :
  E (prod d1 d2) (fun ab => f (fst ab)) = E d1 f.
Proof. rewrite E_prod. apply E_ext_support. intros. simpl. apply E_const. Qed.

Lemma E_prod_snd {A B} (d1 : Dist A) (d2 : Dist B) f :
  E (prod d1 d2) (fun ab => f (snd ab)) = E d2 f.
Proof.
  rewrite E_prod. rewrite (E_ext_support d1 _ (fun _ => E d2 f)) by reflexivity.
  apply (E_const d1 (E d2 f)).
Qed.

Lemma P_prod_fst {A B} (d1 : Dist A) (d2 : Dist B) e :
  P (prod d1 d2) (fun ab => e (fst ab)) = P d1 e.
Proof. apply (E_prod_fst d1 d2 (fun a => ind (e a))). Qed.

Lemma P_prod_snd {A B} (d1 : Dist A) (d2 : Dist B) e :
  P (prod d1 d2) (fun ab => e (snd ab)) = P d2 e.
Proof. apply (E_prod_snd d1 d2 (fun b => ind (e b))). Qed.

Lemma P_prod_and {A B} (d1 : Dist A) (d2 : Dist B) e1 e2 :
  P (prod d1 d2) (fun ab => andb (e1 (fst ab)) (e2 (snd ab))) = P d1 e1 * P d2 e2.
Proof.
  unfold P. rewrite E_prod. simpl. rewrite <- E_scale_r. apply E_ext_support. intros.
  unfold ind at 1. destruct (e1 a); simpl.
  - rewrite Rmult_1_l. reflexivity.
  - rewrite Rmult_0_l. apply E_const.
Qed.

(* Finite Fubini: the order of two independent draws does not matter. *)
Lemma E_swap {A B} (d : Dist A) (d' : Dist B) (F : A -> B -> R) :
  E d (fun x => E d' (F x)) = E d' (fun t => E d (fun x => F x t)).
Proof.
  unfold E at 1 4. induction (outcomes d) as [| [w a] l IH]; simpl.
  - symmetry. apply E_const.
  - rewrite IH. rewrite <- E_scale, <- E_plus. reflexivity.
Qed.

(* l independent draws from d, in draw order. *)
Fixpoint iid {A} (d : Dist A) (l : nat) : Dist (list A) :=
  match l with
  | O => ret []
  | S l' => bind d (fun a => bind (iid d l') (fun s => ret (a :: s)))
  end.

Lemma E_iid_S {A} (d : Dist A) l f :
  E (iid d (S l)) f = E d (fun a => E (iid d l) (fun s => f (a :: s))).
Proof.
  simpl. rewrite E_bind. apply E_ext_support. intros. rewrite E_bind.
  apply E_ext_support. intros. apply E_ret.
Qed.

(* The outcomes of ret and bind. *)
Lemma in_ret {A} (a b : A) w : In (w, b) (outcomes (ret a)) -> b = a.
Proof. simpl. intros [E | []]. congruence. Qed.

Lemma in_bind {A B} (d : Dist A) (f : A -> Dist B) w b :
  In (w, b) (outcomes (bind d f)) ->
  exists wa a, In (wa, a) (outcomes d) /\ exists wb, In (wb, b) (outcomes (f a)).
Proof.
  simpl. unfold bind_outcomes. intro Hin. apply in_flat_map in Hin.
  destruct Hin as [[wa a] [Ha Hin]]. unfold wscale in Hin. apply in_map_iff in Hin.
  destruct Hin as [[wb b'] [E Hb]]. simpl in E. injection E as _ <-.
  exists wa, a. split; [exact Ha | exists wb; exact Hb].
Qed.

(* Every outcome of iid d l has length l. *)
Lemma iid_length {A} (d : Dist A) l w s : In (w, s) (outcomes (iid d l)) -> length s = l.
Proof.
  revert w s. induction l as [| l IH]; intros w s Hin; simpl iid in Hin.
  - apply in_ret in Hin. subst s. reflexivity.
  - apply in_bind in Hin. destruct Hin as [wa [a [_ [wb Hin]]]].
    apply in_bind in Hin. destruct Hin as [wt [t [Ht [wu Hin]]]].
    apply in_ret in Hin. subst s. simpl. f_equal. exact (IH wt t Ht).
Qed.

(* Every draw of an outcome of iid d l is an outcome of d. *)
Lemma in_iid_elem {A} (d : Dist A) l w s :
  In (w, s) (outcomes (iid d l)) -> forall a, In a s -> exists wa, In (wa, a) (outcomes d).
Proof.
  revert w s. induction l as [| l IH]; intros w s Hin; simpl iid in Hin.
  - apply in_ret in Hin. subst s. intros a [].
  - apply in_bind in Hin. destruct Hin as [wa [a [Ha [wb Hin]]]].
    apply in_bind in Hin. destruct Hin as [wt [t [Ht [wu Hin]]]].
    apply in_ret in Hin. subst s. intros x [<- | Hx]; [exists wa; exact Ha |].
    exact (IH wt t Ht x Hx).
Qed.

(* Both coordinates of an outcome of a product are outcomes of the factors. *)
Lemma in_prod {A B} (d1 : Dist A) (d2 : Dist B) w a b :
  In (w, (a, b)) (outcomes (prod d1 d2)) ->
  (exists w1, In (w1, a) (outcomes d1)) /\ (exists w2, In (w2, b) (outcomes d2)).
Proof.
  unfold prod. intro Hin. apply in_bind in Hin. destruct Hin as [w1 [a' [Ha [wb Hin]]]].
  apply in_bind in Hin. destruct Hin as [w2 [b' [Hb [wu Hin]]]].
  apply in_ret in Hin. injection Hin as -> ->. split; [exists w1 | exists w2]; assumption.
Qed.

(* Monotonicity of P needs the inclusion only on the outcomes listed. *)
Lemma P_monotone_support {A} (d : Dist A) (e1 e2 : A -> bool) :
  (forall w a, In (w, a) (outcomes d) -> e1 a = true -> e2 a = true) -> P d e1 <= P d e2.
Proof.
  intro H. apply E_le_support. intros w a Hin. unfold ind.
  destruct (e1 a) eqn:E1; [rewrite (H w a Hin E1) |]; destruct (e2 a); lra.
Qed.

(* The marginal of one draw: the i-th of l independent draws has law d. *)
Lemma E_iid_nth {A} (d : Dist A) (l i : nat) (a0 : A) (f : A -> R) :
  (i < l)%nat -> E (iid d l) (fun s => f (nth i s a0)) = E d f.
Proof.
  revert i. induction l as [| l IH]; intros i Hi; [lia |].
  rewrite E_iid_S. destruct i as [| i]; simpl.
  - apply E_ext_support. intros. apply E_const.
  - rewrite (E_ext_support d _ (fun _ => E d f)) by (intros; apply IH; lia). apply E_const.
Qed.

Lemma P_iid_nth {A} (d : Dist A) (l i : nat) (a0 : A) (e : A -> bool) :
  (i < l)%nat -> P (iid d l) (fun s => e (nth i s a0)) = P d e.
Proof. intro Hi. apply (E_iid_nth d l i a0 (fun a => ind (e a)) Hi). Qed.

(* All l independent draws satisfy e with probability P(e)^l. *)
Lemma P_iid_all {A} (d : Dist A) (l : nat) (e : A -> bool) :
  P (iid d l) (forallb e) = P d e ^ l.
Proof.
  induction l as [| l IH].
  - unfold P. simpl. rewrite E_ret. reflexivity.
  - unfold P in *. rewrite E_iid_S. simpl. rewrite <- IH, <- E_scale_r. apply E_ext_support.
    intros. unfold ind at 1. destruct (e a); simpl.
    + rewrite Rmult_1_l. reflexivity.
    + rewrite Rmult_0_l. apply E_const.
Qed.

(* ---- Uniform law on a finite list, draws with replacement (S1) ----------------------------- *)
Lemma uniform_nonneg {A} (l : list A) :
  Forall (fun wa => 0 <= fst wa) (map (fun a => (/ INR (length l), a)) l).
Proof.
  apply Forall_forall. intros wa Hin. apply in_map_iff in Hin. destruct Hin as [a [<- Ha]].
  simpl. left. apply Rinv_0_lt_compat. destruct l as [| b l]; [destruct Ha | simpl length].
  apply lt_0_INR. lia.
Qed.

Lemma wsum_uniform {A} (l : list A) (c : R) f :
  wsum (map (fun a => (c, a)) l) f = c * fold_right Rplus 0 (map f l).
Proof. induction l as [| a l IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma uniform_total {A} (l : list A) :
  l <> [] -> wsum (map (fun a => (/ INR (length l), a)) l) (fun _ => 1) = 1.
Proof.
  intro H. rewrite wsum_uniform.
  assert (S : fold_right Rplus 0 (map (fun _ : A => 1) l) = INR (length l)).
  { clear H. induction l as [| a l IH]; [reflexivity |].
    simpl fold_right. simpl length. rewrite IH, S_INR. ring. }
  rewrite S. apply Rinv_l. apply not_0_INR. destruct l; [contradiction | discriminate].
Qed.

Definition uniform {A} (l : list A) (H : l <> []) : Dist A :=
  mkDist (map (fun a => (/ INR (length l), a)) l) (uniform_nonneg l) (uniform_total l H).

Lemma E_uniform {A} (l : list A) (H : l <> []) f :
  E (uniform l H) f = fold_right Rplus 0 (map f l) / INR (length l).
Proof. unfold E. simpl. rewrite wsum_uniform. unfold Rdiv. ring. Qed.

(* r draws with replacement from the list C (Algorithm 1, line 4; S1). *)
Definition uniform_seq {A} (C : list A) (H : C <> []) (r : nat) : Dist (list A) :=
  iid (uniform C H) r.

(* ---- Bernoulli coins ----------------------------------------------------------------------- *)
Lemma bernoulli_nonneg (p : R) : 0 <= p <= 1 ->
  Forall (fun wa : R * bool => 0 <= fst wa) [(p, true); (1 - p, false)].
Proof. intro Hp. constructor; [simpl; lra |]. constructor; [simpl; lra | constructor]. Qed.

Lemma bernoulli_total (p : R) : wsum [(p, true); (1 - p, false)] (fun _ => 1) = 1.
Proof. simpl. ring. Qed.

Definition bernoulli (p : R) (Hp : 0 <= p <= 1) : Dist bool :=
  mkDist [(p, true); (1 - p, false)] (bernoulli_nonneg p Hp) (bernoulli_total p).

Lemma P_bernoulli (p : R) (Hp : 0 <= p <= 1) : P (bernoulli p Hp) (fun b => b) = p.
Proof. unfold P, E, ind. simpl. ring. Qed.

(* l independent coins, each true with probability p. *)
Definition coins (p : R) (Hp : 0 <= p <= 1) (l : nat) : Dist (list bool) := iid (bernoulli p Hp) l.

Lemma P_coins_all (p : R) (Hp : 0 <= p <= 1) (l : nat) :
  P (coins p Hp l) (forallb (fun b => b)) = p ^ l.
Proof. unfold coins. rewrite P_iid_all, P_bernoulli. reflexivity. Qed.
