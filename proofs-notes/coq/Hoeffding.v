(* Hoeffding's lemma (Hoeffding 1963, eq. (4.16)): a real variable X with a <= X <= b and
   E X = 0 has E e^{tX} <= e^{t^2 (b-a)^2 / 8} for every real t.  Stated for a finite law given as a
   list of (weight, value) pairs, so that it needs no probability space; McDiarmid.v applies it
   to the conditional means of a bounded-differences function (proofs-notes/mcdiarmid.md).
   Route: e^{tx} lies under its chord on [a, b] (from e^y >= 1 + y), so E e^{tX} <= ((b e^{ta} -
   a e^{tb}) / (b - a)) = e^{L(h)} with h = t (b - a), p = -a / (b - a) and
   L(h) = -p h + ln(1 - p + p e^h); L(0) = L'(0) = 0 and L'' <= 1/4 give L(h) <= h^2 / 8 (two
   mean-value steps).  Coquelicot's auto_derive computes L' and L''. *)
From Coq Require Import Reals Lra List.
(* Coquelicot redeclares coercions the standard library has (harmless ambiguous paths). *)
Local Set Warnings "-ambiguous-paths".
From Coquelicot Require Import Coquelicot.
Open Scope R_scope.

Lemma exp_ge_1_plus (x : R) : 1 + x <= exp x.
Proof.
  destruct (Req_dec x 0) as [-> | N]; [rewrite exp_0; lra |].
  left. apply exp_ineq1. exact N.
Qed.

Lemma exp_mono (x y : R) : x <= y -> exp x <= exp y.
Proof. intros [L | ->]; [left; apply exp_increasing, L | right; reflexivity]. Qed.

(* L(h) = -p h + ln(1 - p + p e^h), its first and second derivatives. *)
Definition Lh (p h : R) := - p * h + ln (1 - p + p * exp h).
Definition dLh (p h : R) := - p + p * exp h / (1 - p + p * exp h).
Definition ddLh (p h : R) := p * exp h * (1 - p) / (1 - p + p * exp h) ^ 2.

Lemma denom_pos (p h : R) : 0 <= p <= 1 -> 0 < 1 - p + p * exp h.
Proof.
  intros Hp. pose proof (exp_pos h).
  destruct (Req_dec p 0) as [-> | N]; [lra |].
  assert (0 < p * exp h) by (apply Rmult_lt_0_compat; lra). lra.
Qed.

Lemma Lh_derive (p h : R) : 0 <= p <= 1 -> is_derive (Lh p) h (dLh p h).
Proof.
  intros Hp. pose proof (denom_pos p h Hp). unfold Lh, dLh.
  auto_derive; [lra |]. field. lra.
Qed.

Lemma dLh_derive (p h : R) : 0 <= p <= 1 -> is_derive (dLh p) h (ddLh p h).
Proof.
  intros Hp. pose proof (denom_pos p h Hp). unfold dLh, ddLh.
  auto_derive; [lra |]. field. lra.
Qed.

Lemma ddLh_le (p h : R) : 0 <= p <= 1 -> ddLh p h <= / 4.
Proof.
  intros Hp. pose proof (denom_pos p h Hp). pose proof (exp_pos h). unfold ddLh.
  set (u := p * exp h). set (v := 1 - p).
  assert (0 <= u) by (unfold u; apply Rmult_le_pos; lra).
  replace (p * exp h * (1 - p)) with (u * v) by (unfold u, v; ring).
  apply Rmult_le_reg_r with ((1 - p + p * exp h) ^ 2); [apply pow_lt; lra |].
  fold u v. replace (1 - p + u) with (u + v) by (unfold v; ring).
  assert (0 < u + v) by (unfold v, u in *; lra).
  field_simplify; [| lra]. 
  assert (0 <= (u - v) ^ 2) by (apply pow2_ge_0). nra.
Qed.

(* L(h) <= h^2 / 8: g = h^2/8 - L has g(0) = g'(0) = 0 and g'' >= 0, so g' has the sign of h
   and g >= 0. *)
Lemma Lh_le (p h : R) : 0 <= p <= 1 -> Lh p h <= h ^ 2 / 8.
Proof.
  intros Hp.
  set (g := fun x => x ^ 2 / 8 - Lh p x). set (dg := fun x => x / 4 - dLh p x).
  assert (Dg : forall x, derivable_pt_lim g x (dg x)).
  { intros x. apply is_derive_Reals. unfold g, dg.
    apply (is_derive_minus (fun x => x ^ 2 / 8) (Lh p)).
    - auto_derive; [exact I | field].
    - apply Lh_derive, Hp. }
  assert (Ddg : forall x, derivable_pt_lim dg x (/ 4 - ddLh p x)).
  { intros x. apply is_derive_Reals. unfold dg.
    apply (is_derive_minus (fun x => x / 4) (dLh p)).
    - auto_derive; [exact I | field].
    - apply dLh_derive, Hp. }
  assert (G0 : g 0 = 0).
  { unfold g, Lh. rewrite exp_0. replace (1 - p + p * 1) with 1 by ring. rewrite ln_1. field. }
  assert (DG0 : dg 0 = 0).
  { unfold dg, dLh. rewrite exp_0. replace (1 - p + p * 1) with 1 by ring. field. }
  (* dg x has the sign of x *)
  assert (Sg : forall x, 0 <= dg x * x).
  { intros x. destruct (Rtotal_order x 0) as [N | [Z | Pz]].
    - destruct (MVT_cor2 dg (fun y => / 4 - ddLh p y) x 0 N) as [c [E _]];
        [intros; apply Ddg |].
      pose proof (ddLh_le p c Hp). rewrite DG0 in E.
      assert (dg x = (/ 4 - ddLh p c) * x) by lra. rewrite H0. nra.
    - subst. lra.
    - destruct (MVT_cor2 dg (fun y => / 4 - ddLh p y) 0 x Pz) as [c [E _]];
        [intros; apply Ddg |].
      pose proof (ddLh_le p c Hp). rewrite DG0 in E.
      assert (dg x = (/ 4 - ddLh p c) * x) by lra. rewrite H0. nra. }
  enough (0 <= g h) by (unfold g in *; lra).
  destruct (Rtotal_order h 0) as [N | [Z | Pz]].
  - destruct (MVT_cor2 g dg h 0 N) as [c [E [C1 C2]]]; [intros; apply Dg |].
    pose proof (Sg c). rewrite G0 in E.
    assert (dg c <= 0) by (destruct (Rle_lt_dec (dg c) 0); [lra | nra]).
    nra.
  - subst. lra.
  - destruct (MVT_cor2 g dg 0 h Pz) as [c [E [C1 C2]]]; [intros; apply Dg |].
    pose proof (Sg c). rewrite G0 in E.
    assert (0 <= dg c) by (destruct (Rle_lt_dec 0 (dg c)); [lra | nra]).
    nra.
Qed.

(* The chord above e^{tx} on [a, b], from the tangent lines at tx through ta and tb. *)
Lemma exp_chord (t a b x : R) : a < b -> a <= x <= b ->
  exp (t * x) <= ((b - x) * exp (t * a) + (x - a) * exp (t * b)) / (b - a).
Proof.
  intros Hab Hx.
  assert (Ea : exp (t * x) * (1 + (t * a - t * x)) <= exp (t * a)).
  { replace (t * a) with (t * x + (t * a - t * x)) at 2 by ring. rewrite exp_plus.
    apply Rmult_le_compat_l; [left; apply exp_pos | apply exp_ge_1_plus]. }
  assert (Eb : exp (t * x) * (1 + (t * b - t * x)) <= exp (t * b)).
  { replace (t * b) with (t * x + (t * b - t * x)) at 2 by ring. rewrite exp_plus.
    apply Rmult_le_compat_l; [left; apply exp_pos | apply exp_ge_1_plus]. }
  apply Rmult_le_reg_r with (b - a); [lra |]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l; [| lra].
  rewrite Rmult_1_r.
  apply Rle_trans with ((b - x) * (exp (t * x) * (1 + (t * a - t * x)))
                        + (x - a) * (exp (t * x) * (1 + (t * b - t * x)))).
  - right. ring.
  - apply Rplus_le_compat; apply Rmult_le_compat_l; lra.
Qed.

(* The chord's mean under a mean-zero law, against Hoeffding's e^{t^2 (b-a)^2 / 8}. *)
Lemma chord_le (t a b : R) : a <= 0 <= b -> a < b ->
  (b * exp (t * a) - a * exp (t * b)) / (b - a) <= exp (t ^ 2 * (b - a) ^ 2 / 8).
Proof.
  intros Hab Hlt. set (p := - a / (b - a)). set (h := t * (b - a)).
  assert (Hp : 0 <= p <= 1).
  { unfold p. split.
    - unfold Rdiv. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra].
    - apply Rmult_le_reg_r with (b - a); [lra |]. unfold Rdiv.
      rewrite Rmult_assoc, Rinv_l; lra. }
  replace (t ^ 2 * (b - a) ^ 2 / 8) with (h ^ 2 / 8); [| unfold h; field].
  apply Rle_trans with (exp (Lh p h)); [| apply exp_mono, Lh_le, Hp].
  unfold Lh. rewrite exp_plus, exp_ln; [| apply denom_pos, Hp].
  assert (E1 : - p * h = t * a) by (unfold p, h; field; lra).
  assert (E2 : exp (- p * h) * exp h = exp (t * b)).
  { rewrite <- exp_plus. f_equal. unfold p, h. field. lra. }
  replace (exp (- p * h) * (1 - p + p * exp h))
    with ((1 - p) * exp (- p * h) + p * (exp (- p * h) * exp h)) by ring.
  rewrite E2, E1. right. unfold p. field. lra.
Qed.

(* ---- A finite law: a list of (weight, value) pairs -------------------------------------- *)
Definition wexp (l : list (R * R)%type) (f : R -> R) : R :=
  fold_right (fun wx s => fst wx * f (snd wx) + s) 0 l.

Lemma wexp_affine (l : list (R * R)%type) (f : R -> R) (al be : R) :
  wexp l (fun x => al + be * f x) = al * wexp l (fun _ => 1) + be * wexp l f.
Proof. induction l as [| [w x] l IH]; simpl; [ring |]. rewrite IH. ring. Qed.

Lemma wexp_le (l : list (R * R)%type) (f g : R -> R) :
  List.Forall (fun wx => 0 <= fst wx /\ f (snd wx) <= g (snd wx)) l -> wexp l f <= wexp l g.
Proof.
  induction l as [| [w x] l IH]; simpl; [lra |]. intros F. inversion F as [| ? ? [W Le] F']; subst.
  apply Rplus_le_compat; [apply Rmult_le_compat_l; assumption | apply IH, F'].
Qed.

(* Hoeffding's lemma: a law on [a, b] with mean 0 has E e^{tX} <= e^{t^2 (b-a)^2 / 8}. *)
Theorem hoeffding_lemma (l : list (R * R)%type) (a b t : R) :
  List.Forall (fun wx => 0 <= fst wx /\ a <= snd wx <= b) l ->
  wexp l (fun _ => 1) = 1 -> wexp l (fun x => x) = 0 ->
  wexp l (fun x => exp (t * x)) <= exp (t ^ 2 * (b - a) ^ 2 / 8).
Proof.
  intros F W1 M0.
  destruct l as [| [w0 x0] l0] eqn:El; [simpl in W1; lra |]. rewrite <- El in *.
  assert (Hab : a <= b) by (rewrite El in F; inversion F as [| ? ? [_ H] _]; simpl in H; lra).
  assert (Ha : a <= 0).
  { rewrite <- M0. apply Rle_trans with (wexp l (fun x => a + 0 * x)).
    - rewrite wexp_affine, W1. lra.
    - apply wexp_le. eapply List.Forall_impl; [| exact F]. simpl. intros [w x] [? ?]; simpl in *|-*; split; lra. }
  assert (Hb : 0 <= b).
  { rewrite <- M0. apply Rle_trans with (wexp l (fun x => b + 0 * x)).
    - apply wexp_le. eapply List.Forall_impl; [| exact F]. simpl. intros [w x] [? ?]; simpl in *|-*; lra.
    - rewrite wexp_affine, W1. lra. }
  destruct (Req_dec a b) as [Eab | Nab].
  - (* a = b = 0: X = 0 *)
    assert (a = 0 /\ b = 0) as [-> ->] by lra.
    replace (t ^ 2 * (0 - 0) ^ 2 / 8) with 0; [| field]. rewrite exp_0.
    apply Rle_trans with (wexp l (fun x => 1 + 0 * x)).
    + apply wexp_le. eapply List.Forall_impl; [| exact F]. simpl. intros [w x] [? ?]; simpl in *|-*.
      split; [assumption |]. replace x with 0 by lra. rewrite Rmult_0_r, exp_0. lra.
    + rewrite wexp_affine, W1. lra.
  - set (e0 := (b * exp (t * a) - a * exp (t * b)) / (b - a)).
    set (e1 := (exp (t * b) - exp (t * a)) / (b - a)).
    apply Rle_trans with (wexp l (fun x => e0 + e1 * x)).
    + apply wexp_le. eapply List.Forall_impl; [| exact F]. simpl. intros [w x] [? ?]; simpl in *|-*.
      split; [assumption |]. apply Rle_trans with (1 := exp_chord t a b x ltac:(lra) H0).
      right. unfold e0, e1. field. lra.
    + rewrite wexp_affine, W1, M0. replace (e0 * 1 + e1 * 0) with e0 by ring.
      apply chord_le; lra.
Qed.
