(* Pinelis's inequality in Euclidean R^m (Pinelis 1994, Ann. Probab. 22(4), Theorem 3.5, for
   independent sums of finite laws): for independent d_1, ..., d_l in R^m with E d_j = 0 and
   ||d_j|| <= c_j, P(||d_1 + ... + d_l|| >= r) <= 2 exp(-r^2 / (2 sum c_j^2)).  No dimension
   factor; this is the vector Hoeffding inequality of the paper's appendix (Theorem 5) with 2 in
   place of m + 1 (proofs-notes/pinelis.md says how it differs from the 1994 statement).

   Route (no martingale language: the product law of FiniteProb.v is the independence):
   - the step: E cosh(lam ||x + d||) <= cosh(lam ||x||) cosh(lam c) for E d = 0, ||d|| <= c.  With
     a = ||x||, p = <x, d> in [-a c, a c]: ||x + d||^2 <= a^2 + c^2 + 2 p, and s |-> cosh(lam sqrt s)
     is convex (`cosh_chord_sq`, from sinh(v)/v nondecreasing, two mean-value steps), so
     cosh(lam ||x + d||) lies under the chord between p = -a c and p = a c, an affine function of
     p whose constant term is cosh(lam a) cosh(lam c); E p = <x, E d> = 0;
   - iterated over the independent draws: E cosh(lam ||S||) <= prod cosh(lam c_j)
     <= exp(lam^2 sum c_j^2 / 2) (cosh t <= exp(t^2/2) is Hoeffding.v's lemma for a fair sign);
   - Markov: P(||S|| >= r) <= E cosh(lam ||S||) / cosh(lam r) <= 2 e^{-lam r} E cosh(lam ||S||),
     at lam = r / sum c_j^2.
   Then vector Hoeffding (Theorem1Run.vector_hoeffding) follows for every m >= 1, 2 <= m + 1. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb MeanTail.
From SSAC Require Hoeffding.
Open Scope R_scope.

(* ---- cosh and sinh (Rtrigo_def: cosh x = (e^x + e^-x)/2, sinh x = (e^x - e^-x)/2) -------- *)
Lemma cosh_even (x : R) : cosh (- x) = cosh x.
Proof. unfold cosh. rewrite Ropp_involutive. field. Qed.

Lemma cosh_plus (x y : R) : cosh (x + y) = cosh x * cosh y + sinh x * sinh y.
Proof.
  unfold cosh, sinh. rewrite Ropp_plus_distr, !exp_plus. field.
Qed.

(* The chord's constant term: (cosh(x + y) + cosh(x - y)) / 2 = cosh x cosh y. *)
Lemma cosh_mid (x y : R) : (cosh (x + y) + cosh (x - y)) / 2 = cosh x * cosh y.
Proof.
  unfold Rminus. rewrite !cosh_plus, cosh_even.
  assert (S : sinh (- y) = - sinh y) by (unfold sinh; rewrite Ropp_involutive; field).
  rewrite S. field.
Qed.

Lemma cosh_pos (x : R) : 0 < cosh x.
Proof. unfold cosh. pose proof (exp_pos x). pose proof (exp_pos (- x)). lra. Qed.

(* cosh x >= e^x / 2, so 1 / cosh x <= 2 e^{-x}. *)
Lemma inv_cosh_le (x : R) : / cosh x <= 2 * exp (- x).
Proof.
  pose proof (exp_pos x) as Ex. pose proof (exp_pos (- x)) as Enx.
  assert (X : exp x * exp (- x) = 1) by (rewrite <- exp_plus, Rplus_opp_r; apply exp_0).
  apply Rmult_le_reg_l with (cosh x); [apply cosh_pos |].
  rewrite Rinv_r by (apply Rgt_not_eq, cosh_pos). unfold cosh. nra.
Qed.

Lemma sinh_nonneg (x : R) : 0 <= x -> 0 <= sinh x.
Proof.
  intro X. unfold sinh. pose proof (Hoeffding.exp_mono (- x) x ltac:(lra)). lra.
Qed.

(* cosh is nondecreasing on [0, oo): cosh y - cosh x = (e^y - e^x)(1 - e^{-x-y}) / 2. *)
Lemma cosh_mono (x y : R) : 0 <= x <= y -> cosh x <= cosh y.
Proof.
  intros [X XY]. unfold cosh.
  pose proof (Hoeffding.exp_mono x y XY) as M.
  pose proof (Hoeffding.exp_mono 0 x X) as Mx. pose proof (Hoeffding.exp_mono 0 y ltac:(lra)) as My.
  rewrite exp_0 in Mx, My. rewrite !exp_Ropp.
  assert (A : 0 < exp x) by apply exp_pos. assert (B : 0 < exp y) by apply exp_pos.
  assert (D : (exp y + / exp y) / 2 - (exp x + / exp x) / 2
              = (exp y - exp x) * (exp x * exp y - 1) / (2 * (exp x * exp y))) by (field; lra).
  assert (0 <= (exp y - exp x) * (exp x * exp y - 1) / (2 * (exp x * exp y))).
  { apply Rmult_le_pos; [apply Rmult_le_pos; nra | left; apply Rinv_0_lt_compat; nra]. }
  lra.
Qed.

Lemma cosh_abs (x : R) : cosh (Rabs x) = cosh x.
Proof. unfold Rabs. destruct (Rcase_abs x); [apply cosh_even | reflexivity]. Qed.

Lemma cosh_ge_1 (x : R) : 1 <= cosh x.
Proof. rewrite <- cosh_0, <- (cosh_abs x). apply cosh_mono. split; [lra | apply Rabs_pos]. Qed.

(* cosh t <= e^{t^2/2}: Hoeffding's lemma for a fair sign in [-1, 1]. *)
Lemma cosh_le_exp_sq (t : R) : cosh t <= exp (t ^ 2 / 2).
Proof.
  pose proof (Hoeffding.hoeffding_lemma [(/ 2, -1); (/ 2, 1)] (-1) 1 t) as H.
  simpl in H. unfold cosh.
  replace (t ^ 2 / 2) with (t * (t * 1) * ((1 - -1) * ((1 - -1) * 1)) / 8) by field.
  assert (E : (exp t + exp (- t)) / 2 = / 2 * exp (t * -1) + (/ 2 * exp (t * 1) + 0)).
  { replace (t * -1) with (- t) by ring. replace (t * 1) with t by ring. field. }
  rewrite E.
  apply H; [repeat constructor; simpl; lra | field | field].
Qed.

(* ---- Derivatives (the standard library's derivable_pt_lim) ---------------------------------- *)
Lemma d_cosh_scaled (lam x : R) :
  derivable_pt_lim (fun u => cosh (lam * u)) x (lam * sinh (lam * x)).
Proof.
  assert (L : derivable_pt_lim (fun u => lam * u) x lam).
  { pose proof (derivable_pt_lim_scal id lam x 1 (derivable_pt_lim_id x)) as D.
    rewrite Rmult_1_r in D. exact D. }
  rewrite Rmult_comm.
  apply (derivable_pt_lim_comp (fun u => lam * u) cosh x lam (sinh (lam * x)) L).
  apply derivable_pt_lim_cosh.
Qed.

(* sinh v <= v cosh v on [0, oo): (v cosh v - sinh v)' = v sinh v >= 0. *)
Lemma sinh_le_mul_cosh (v : R) : 0 <= v -> sinh v <= v * cosh v.
Proof.
  intro V. destruct (Req_dec v 0) as [-> | N]; [rewrite sinh_0; lra |].
  destruct (MVT_cor2 (fun u => u * cosh u - sinh u) (fun u => u * sinh u) 0 v) as [c [Eq Hc]].
  - lra.
  - intros c _. replace (c * sinh c) with ((1 * cosh c + c * sinh c) - cosh c) by ring.
    apply (derivable_pt_lim_minus (fun u => u * cosh u) sinh).
    + apply (derivable_pt_lim_mult id cosh c 1 (sinh c));
        [apply derivable_pt_lim_id | apply derivable_pt_lim_cosh].
    + apply derivable_pt_lim_sinh.
  - rewrite sinh_0, Rmult_0_l in Eq.
    assert (0 <= c * sinh c * (v - 0)).
    { apply Rmult_le_pos; [apply Rmult_le_pos; [lra | apply sinh_nonneg; lra] | lra]. }
    lra.
Qed.

(* sinh(v)/v is nondecreasing on (0, oo): v2 sinh v1 <= v1 sinh v2 for 0 <= v1 <= v2.
   (v1 sinh v - v sinh v1)' = v1 cosh v - sinh v1 >= v1 cosh v1 - sinh v1 >= 0 for v >= v1. *)
Lemma sinh_ratio_mono (v1 v2 : R) : 0 <= v1 <= v2 -> v2 * sinh v1 <= v1 * sinh v2.
Proof.
  intros [V1 V12]. destruct (Req_dec v1 v2) as [<- | N]; [lra |].
  destruct (MVT_cor2 (fun u => v1 * sinh u - u * sinh v1) (fun u => v1 * cosh u - sinh v1) v1 v2)
    as [c [Eq Hc]].
  - lra.
  - intros c _. replace (v1 * cosh c - sinh v1) with (v1 * cosh c - 1 * sinh v1) by ring.
    apply (derivable_pt_lim_minus (fun u => v1 * sinh u) (fun u => u * sinh v1)).
    + apply (derivable_pt_lim_scal sinh v1 c (cosh c)), derivable_pt_lim_sinh.
    + apply (derivable_pt_lim_scal_right id c 1 (sinh v1)), derivable_pt_lim_id.
  - pose proof (cosh_mono v1 c ltac:(lra)). pose proof (sinh_le_mul_cosh v1 V1).
    assert (0 <= (v1 * cosh c - sinh v1) * (v2 - v1)) by (apply Rmult_le_pos; nra).
    lra.
Qed.

(* s |-> cosh(lam sqrt s) is convex on [0, oo), written in t = sqrt s: for 0 <= t1 < t2 and
   t1 <= t <= t2, cosh(lam t) lies under the chord through t1^2 and t2^2.  Each side's slope
   (G(t) - G(t1)) / (t^2 - t1^2) is lam sinh(lam xi) / (2 xi) at some xi between them (the mean
   value theorem for G(u) - K u^2), and that is nondecreasing in xi (`sinh_ratio_mono`). *)
Lemma chord_slope (lam t1 t : R) : 0 <= t1 < t ->
  exists xi, t1 < xi < t /\
    (cosh (lam * t) - cosh (lam * t1)) * (2 * xi) = lam * sinh (lam * xi) * (t ^ 2 - t1 ^ 2).
Proof.
  intros T. set (K := (cosh (lam * t) - cosh (lam * t1)) / (t ^ 2 - t1 ^ 2)).
  assert (P : 0 < t ^ 2 - t1 ^ 2) by nra.
  destruct (MVT_cor2 (fun u => cosh (lam * u) - K * u ^ 2)
              (fun u => lam * sinh (lam * u) - K * (2 * u)) t1 t) as [xi [Eq Hxi]].
  - lra.
  - intros c _. apply (derivable_pt_lim_minus (fun u => cosh (lam * u)) (fun u => K * u ^ 2)).
    + apply d_cosh_scaled.
    + replace (2 * c) with (INR 2 * c ^ Nat.pred 2) by (simpl; ring).
      apply (derivable_pt_lim_scal (fun u => u ^ 2) K c), derivable_pt_lim_pow.
  - exists xi. split; [exact Hxi |].
    assert (KE : K * (t ^ 2 - t1 ^ 2) = cosh (lam * t) - cosh (lam * t1)) by (unfold K; field; lra).
    assert (Z : (lam * sinh (lam * xi) - K * (2 * xi)) * (t - t1) = 0) by nra.
    apply Rmult_integral in Z. destruct Z as [Z | Z]; [| lra].
    rewrite <- KE. nra.
Qed.

Lemma cosh_chord_sq (lam t1 t t2 : R) : 0 <= lam -> 0 <= t1 -> t1 <= t <= t2 ->
  (t2 ^ 2 - t1 ^ 2) * cosh (lam * t)
    <= (t2 ^ 2 - t ^ 2) * cosh (lam * t1) + (t ^ 2 - t1 ^ 2) * cosh (lam * t2).
Proof.
  intros L T1 [A B].
  destruct (Req_dec t t1) as [-> | N1]; [right; ring |].
  destruct (Req_dec t t2) as [-> | N2]; [right; ring |].
  destruct (chord_slope lam t1 t ltac:(lra)) as [x1 [H1 E1]].
  destruct (chord_slope lam t t2 ltac:(lra)) as [x2 [H2 E2]].
  pose proof (sinh_ratio_mono (lam * x1) (lam * x2) ltac:(split; nra)) as M.
  (* M: lam x2 sinh(lam x1) <= lam x1 sinh(lam x2), so the left slope <= the right slope. *)
  set (G1 := cosh (lam * t1)) in *. set (G := cosh (lam * t)) in *. set (G2 := cosh (lam * t2)) in *.
  set (s1 := sinh (lam * x1)) in *. set (s2 := sinh (lam * x2)) in *.
  assert (P1 : 0 < t ^ 2 - t1 ^ 2) by nra. assert (P2 : 0 < t2 ^ 2 - t ^ 2) by nra.
  (* (G - G1) 2 x1 x2 = lam s1 x2 (t^2 - t1^2) and (G2 - G) 2 x1 x2 = lam s2 x1 (t2^2 - t^2). *)
  assert (Sl : (G - G1) * (t2 ^ 2 - t ^ 2) <= (G2 - G) * (t ^ 2 - t1 ^ 2)).
  { apply Rmult_le_reg_r with (2 * x1 * x2); [nra |].
    replace ((G - G1) * (t2 ^ 2 - t ^ 2) * (2 * x1 * x2))
      with ((G - G1) * (2 * x1) * x2 * (t2 ^ 2 - t ^ 2)) by ring.
    replace ((G2 - G) * (t ^ 2 - t1 ^ 2) * (2 * x1 * x2))
      with ((G2 - G) * (2 * x2) * x1 * (t ^ 2 - t1 ^ 2)) by ring.
    rewrite E1, E2.
    replace (lam * s1 * (t ^ 2 - t1 ^ 2) * x2 * (t2 ^ 2 - t ^ 2))
      with ((lam * x2 * s1) * ((t ^ 2 - t1 ^ 2) * (t2 ^ 2 - t ^ 2))) by ring.
    replace (lam * s2 * (t2 ^ 2 - t ^ 2) * x1 * (t ^ 2 - t1 ^ 2))
      with ((lam * x1 * s2) * ((t ^ 2 - t1 ^ 2) * (t2 ^ 2 - t ^ 2))) by ring.
    apply Rmult_le_compat_r; [nra | lra]. }
  lra.
Qed.

(* ---- The step: E cosh(lam ||x + d||) <= cosh(lam ||x||) cosh(lam c) --------------------------- *)
Lemma dot_opp_r (m : nat) (x y : nat -> R) : dot m x (fun j => -1 * y j) = - dot m x y.
Proof.
  unfold dot. replace (- sum_to m (fun j => x j * y j)) with (-1 * sum_to m (fun j => x j * y j))
    by ring.
  rewrite <- sum_to_scale. apply sum_to_ext. intros. ring.
Qed.

Lemma abs_dot_le (m : nat) (x y : nat -> R) :
  - (vnorm m x * vnorm m y) <= dot m x y <= vnorm m x * vnorm m y.
Proof.
  split; [| apply cauchy_schwarz].
  pose proof (cauchy_schwarz m x (fun j => -1 * y j)) as C.
  rewrite dot_opp_r, vnorm_scale in C. replace (Rabs (-1)) with 1 in C by (rewrite Rabs_left; lra).
  lra.
Qed.

(* When ||x|| c = 0 the step needs no slope: ||x + y|| <= ||x|| + c. *)
Lemma degenerate_step (m : nat) (lam c : R) (x y : nat -> R) :
  0 <= lam -> vnorm m x * c = 0 -> vnorm m y <= c ->
  cosh (lam * vnorm m (fun j => x j + y j)) <= cosh (lam * vnorm m x) * cosh (lam * c).
Proof.
  intros L Z Y. pose proof (vnorm_nonneg m y). pose proof (vnorm_nonneg m x).
  pose proof (vnorm_triangle m x y) as Tr.
  apply Rle_trans with (cosh (lam * (vnorm m x + c))).
  - apply cosh_mono. split; [apply Rmult_le_pos; [lra | apply vnorm_nonneg] |].
    apply Rmult_le_compat_l; lra.
  - rewrite Rmult_plus_distr_l, cosh_plus.
    destruct (Rmult_integral _ _ Z) as [-> | ->]; rewrite Rmult_0_r, sinh_0; lra.
Qed.

(* Pointwise: cosh(lam ||x + y||) lies under an affine function of <x, y> whose constant term is
   cosh(lam ||x||) cosh(lam c), for every y with ||y|| <= c (the slope does not depend on y). *)
Lemma cosh_step_pointwise (m : nat) (lam c : R) (x : nat -> R) : 0 <= lam ->
  exists K, forall y, vnorm m y <= c ->
    cosh (lam * vnorm m (fun j => x j + y j))
      <= cosh (lam * vnorm m x) * cosh (lam * c) + K * dot m x y.
Proof.
  intro L. set (a := vnorm m x). assert (A0 : 0 <= a) by apply vnorm_nonneg.
  destruct (Rlt_dec 0 a) as [Ap | An]; [destruct (Rlt_dec 0 c) as [Cp | Cn] |].
  2: exists 0; intros y Y; rewrite Rmult_0_l, Rplus_0_r;
    apply degenerate_step; [exact L | | exact Y];
    pose proof (vnorm_nonneg m y); replace c with 0 by lra; ring.
  2: exists 0; intros y Y; rewrite Rmult_0_l, Rplus_0_r;
    apply degenerate_step; [exact L | | exact Y];
    change (a * c = 0); replace a with 0 by lra; ring.
  exists ((cosh (lam * (a + c)) - cosh (lam * (a - c))) / (2 * a * c)). intros y Y.
  set (p := dot m x y).
  pose proof (abs_dot_le m x y) as Pd. fold a p in Pd. pose proof (vnorm_nonneg m y) as Y0.
  assert (Pb : - (a * c) <= p <= a * c) by (split; nra).
  set (T := a ^ 2 + c ^ 2 + 2 * p).
  assert (T0 : 0 <= T) by (pose proof (pow2_ge_0 (a - c)); unfold T; nra).
  set (t := sqrt T).
  assert (Tt : t ^ 2 = T) by (unfold t; simpl; rewrite Rmult_1_r; apply sqrt_sqrt, T0).
  assert (t0 : 0 <= t) by apply sqrt_pos.
  (* ||x + y|| <= t: ||x + y||^2 = a^2 + 2 p + ||y||^2 <= T. *)
  assert (Nt : vnorm m (fun j => x j + y j) <= t).
  { unfold vnorm at 1, t. apply sqrt_le_1_alt.
    replace (nsq m (fun j => x j + y j)) with (nsq m (fun j => 1 * x j + 1 * y j))
      by (unfold nsq, dot; apply sum_to_ext; intros; ring).
    rewrite nsq_comb.
    rewrite <- (vnorm_sq m x), <- (vnorm_sq m y). fold a p. unfold T. nra. }
  assert (Step1 : cosh (lam * vnorm m (fun j => x j + y j)) <= cosh (lam * t)).
  { apply cosh_mono. split; [apply Rmult_le_pos; [lra | apply vnorm_nonneg] |].
    apply Rmult_le_compat_l; assumption. }
  set (t1 := Rabs (a - c)).
  assert (T1 : t1 ^ 2 = (a - c) ^ 2) by (unfold t1; rewrite <- Rsqr_pow2, <- Rsqr_abs, Rsqr_pow2; reflexivity).
  assert (t10 : 0 <= t1) by apply Rabs_pos.
  assert (Lo : t1 <= t).
  { apply Rsqr_incr_0_var; [rewrite !Rsqr_pow2, T1, Tt; unfold T; nra | exact t0]. }
  assert (Hi : t <= a + c).
  { apply Rsqr_incr_0_var; [rewrite !Rsqr_pow2, Tt; unfold T; nra | lra]. }
  pose proof (cosh_chord_sq lam t1 t (a + c) L t10 (conj Lo Hi)) as Ch.
  assert (C1 : cosh (lam * t1) = cosh (lam * (a - c))).
  { unfold t1. rewrite <- (Rabs_pos_eq lam L) at 1. rewrite <- Rabs_mult. apply cosh_abs. }
  rewrite Tt, T1, C1 in Ch.
  rewrite <- cosh_mid. replace (lam * a + lam * c) with (lam * (a + c)) by ring.
  replace (lam * a - lam * c) with (lam * (a - c)) by ring.
  set (Ca := cosh (lam * (a + c))) in *. set (Cb := cosh (lam * (a - c))) in *.
  assert (P4 : 0 < 4 * a * c) by nra.
  apply Rle_trans with (cosh (lam * t)); [exact Step1 |].
  apply Rmult_le_reg_l with (4 * a * c); [exact P4 |].
  replace (4 * a * c * ((Ca + Cb) / 2 + (Ca - Cb) / (2 * a * c) * p))
    with (2 * a * c * (Ca + Cb) + 2 * (Ca - Cb) * p) by (field; lra).
  replace (4 * a * c) with ((a + c) ^ 2 - (a - c) ^ 2) by ring.
  unfold T in Ch. nra.
Qed.

(* The step in expectation: for a finite law of y with mean mu and ||y - mu|| <= c,
   E cosh(lam ||x + (y - mu)||) <= cosh(lam ||x||) cosh(lam c) (the slope's term has mean 0). *)
Lemma cosh_step (m : nat) (lam c : R) (d : Dist (nat -> R)) (mu x : nat -> R) :
  0 <= lam ->
  (forall j, (j < m)%nat -> E d (fun y => y j) = mu j) ->
  (forall w y, In (w, y) (outcomes d) -> vnorm m (fun j => y j - mu j) <= c) ->
  E d (fun y => cosh (lam * vnorm m (fun j => x j + (y j - mu j))))
    <= cosh (lam * vnorm m x) * cosh (lam * c).
Proof.
  intros L Mean Bd. destruct (cosh_step_pointwise m lam c x L) as [K HK].
  apply Rle_trans with (E d (fun y => cosh (lam * vnorm m x) * cosh (lam * c)
                                      + K * dot m x (fun j => y j - mu j))).
  - apply E_le_support. intros w y Hin. apply (HK (fun j => y j - mu j)), (Bd w y Hin).
  - rewrite E_plus, E_const, E_scale.
    assert (Z : E d (fun y => dot m x (fun j => y j - mu j)) = 0).
    { unfold dot. rewrite E_sum_to. rewrite (sum_to_ext m _ (fun _ => 0)).
      - clear. induction m as [| m' IH]; simpl; [reflexivity | rewrite IH; ring].
      - intros j Hj. rewrite (E_ext_support d _ (fun y => x j * y j + (- x j * mu j)))
          by (intros; ring).
        rewrite E_plus, E_scale, E_const, Mean by exact Hj. ring. }
    rewrite Z. lra.
Qed.

(* ---- Independent draws: E cosh(lam ||x + S||) <= cosh(lam ||x||) prod cosh(lam c_j) ----------- *)
(* Independent draws from the laws ds, in order (FiniteProb.iid d l is indep (repeat d l)). *)
Fixpoint indep {A} (ds : list (Dist A)) : Dist (list A) :=
  match ds with
  | [] => ret []
  | d :: ds' => bind d (fun a => bind (indep ds') (fun s => ret (a :: s)))
  end.

Lemma indep_repeat {A} (d : Dist A) (l : nat) : indep (repeat d l) = iid d l.
Proof. induction l as [| l IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma E_indep_cons {A} (d : Dist A) ds f :
  E (indep (d :: ds)) f = E d (fun a => E (indep ds) (fun s => f (a :: s))).
Proof.
  simpl. rewrite E_bind. apply E_ext_support. intros. rewrite E_bind.
  apply E_ext_support. intros. apply E_ret.
Qed.

(* The sum of the vectors of a list. *)
Definition vsum (s : list (nat -> R)) (j : nat) : R := fold_right (fun y acc => y j + acc) 0 s.

(* A law of the list with its bound: (d_j, c_j), E d_j = 0 on coordinates below m, ||d_j|| <= c_j. *)
Definition centered (m : nat) (dc : Dist (nat -> R) * R) : Prop :=
  (forall j, (j < m)%nat -> E (fst dc) (fun y => y j) = 0) /\
  (forall w y, In (w, y) (outcomes (fst dc)) -> vnorm m y <= snd dc).

Definition prod_cosh (lam : R) (ds : list (Dist (nat -> R) * R)) : R :=
  fold_right (fun dc acc => cosh (lam * snd dc) * acc) 1 ds.
Definition sum_c2 (ds : list (Dist (nat -> R) * R)) : R :=
  fold_right (fun dc acc => snd dc ^ 2 + acc) 0 ds.

Lemma prod_cosh_pos lam ds : 0 < prod_cosh lam ds.
Proof.
  induction ds as [| dc ds IH]; simpl; [lra |].
  apply Rmult_lt_0_compat; [apply cosh_pos | exact IH].
Qed.

Lemma cosh_indep (m : nat) (lam : R) (ds : list (Dist (nat -> R) * R)) (x : nat -> R) :
  0 <= lam -> Forall (centered m) ds ->
  E (indep (map fst ds)) (fun s => cosh (lam * vnorm m (fun j => x j + vsum s j)))
    <= cosh (lam * vnorm m x) * prod_cosh lam ds.
Proof.
  intros L. revert x. induction ds as [| [d c] ds IH]; intros x F.
  - simpl. rewrite E_ret. simpl. rewrite Rmult_1_r.
    rewrite (vnorm_ext m _ x) by (intros; ring). lra.
  - inversion F as [| ? ? [Mean Bd] Fs]; subst. simpl in Mean, Bd.
    simpl map. rewrite E_indep_cons. simpl prod_cosh.
    apply Rle_trans with
      (E d (fun y => cosh (lam * vnorm m (fun j => x j + (y j - 0)))) * prod_cosh lam ds).
    + rewrite <- E_scale_r. apply E_le_support. intros w y Hin.
      eapply Rle_trans; [| apply (IH (fun j => x j + (y j - 0)) Fs)].
      right. apply E_ext_support. intros. f_equal. f_equal. apply vnorm_ext. intros. simpl. ring.
    + rewrite <- Rmult_assoc. apply Rmult_le_compat_r; [left; apply prod_cosh_pos |].
      apply cosh_step; [exact L | exact Mean |].
      intros w y Hin. rewrite (vnorm_ext m _ y) by (intros; ring). exact (Bd w y Hin).
Qed.

(* prod cosh(lam c_j) <= exp(lam^2 sum c_j^2 / 2). *)
Lemma prod_cosh_le (lam : R) ds : prod_cosh lam ds <= exp (lam ^ 2 * sum_c2 ds / 2).
Proof.
  induction ds as [| dc ds IH].
  - unfold prod_cosh, sum_c2. simpl fold_right. replace (lam ^ 2 * 0 / 2) with 0 by field.
    rewrite exp_0. lra.
  - change (prod_cosh lam (dc :: ds)) with (cosh (lam * snd dc) * prod_cosh lam ds).
    change (sum_c2 (dc :: ds)) with (snd dc ^ 2 + sum_c2 ds).
    replace (lam ^ 2 * (snd dc ^ 2 + sum_c2 ds) / 2)
      with ((lam * snd dc) ^ 2 / 2 + lam ^ 2 * sum_c2 ds / 2) by field.
    rewrite exp_plus. apply Rmult_le_compat; [left; apply cosh_pos | left; apply prod_cosh_pos | |].
    + apply cosh_le_exp_sq.
    + exact IH.
Qed.

(* ---- Markov's inequality for cosh, and the choice of lam ----------------------------------- *)
Lemma cosh_markov {A} (D : Dist A) (Z : A -> R) (lam r M : R) :
  0 <= lam -> 0 <= r -> E D (fun a => cosh (lam * Z a)) <= M ->
  P D (fun a => Rleb r (Z a)) <= 2 * exp (- (lam * r)) * M.
Proof.
  intros L R0 HM. pose proof (cosh_pos (lam * r)) as Cp.
  apply Rle_trans with (E D (fun a => cosh (lam * Z a)) * / cosh (lam * r)).
  - unfold P. rewrite <- E_scale_r. apply E_le. intro a. unfold ind.
    destruct (Rleb r (Z a)) eqn:B.
    + apply Rleb_true in B. apply Rmult_le_reg_r with (cosh (lam * r)); [exact Cp |].
      rewrite Rmult_assoc, Rinv_l, Rmult_1_l, Rmult_1_r by lra.
      apply cosh_mono. split; [apply Rmult_le_pos; lra | apply Rmult_le_compat_l; lra].
    + apply Rmult_le_pos; [left; apply cosh_pos | left; apply Rinv_0_lt_compat, Cp].
  - assert (E0 : 0 <= E D (fun a => cosh (lam * Z a))) by (apply E_nonneg; intro; left; apply cosh_pos).
    apply Rle_trans with (M * (2 * exp (- (lam * r)))); [| right; ring].
    apply Rmult_le_compat; [exact E0 | left; apply Rinv_0_lt_compat, Cp | exact HM |].
    apply inv_cosh_le.
Qed.

Lemma optimal_lam (r V : R) : 0 < V ->
  2 * exp (- (r / V * r)) * exp ((r / V) ^ 2 * V / 2) = 2 * exp (- (r ^ 2 / (2 * V))).
Proof.
  intro HV. rewrite Rmult_assoc, <- exp_plus. f_equal. f_equal. field. lra.
Qed.

(* ---- Pinelis's inequality ------------------------------------------------------------------- *)
(* Independent mean-zero d_1, ..., d_l in R^m with ||d_j|| <= c_j:
   P(||d_1 + ... + d_l|| >= r) <= 2 exp(-r^2 / (2 sum c_j^2)). *)
Theorem pinelis (m : nat) (ds : list (Dist (nat -> R) * R)) (r : R) :
  Forall (centered m) ds -> 0 < sum_c2 ds -> 0 <= r ->
  P (indep (map fst ds)) (fun s => Rleb r (vnorm m (vsum s)))
    <= 2 * exp (- (r ^ 2 / (2 * sum_c2 ds))).
Proof.
  intros F V R0. set (lam := r / sum_c2 ds).
  assert (L : 0 <= lam) by (apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat, V]).
  rewrite <- (optimal_lam r (sum_c2 ds) V). fold lam.
  apply cosh_markov; [exact L | exact R0 |].
  eapply Rle_trans; [| apply prod_cosh_le].
  pose proof (cosh_indep m lam ds (fun _ => 0) L F) as C.
  rewrite (vnorm_ext m (fun _ => 0) (fun _ => 0 * 0)) in C by (intros; ring).
  rewrite vnorm_scale, Rabs_R0, Rmult_0_l, Rmult_0_r, cosh_0, Rmult_1_l in C.
  eapply Rle_trans; [| exact C]. right. apply E_ext_support. intros. f_equal. f_equal.
  apply vnorm_ext. intros. ring.
Qed.

(* ---- Draws with replacement from a finite C in R^m: vector Hoeffding with 2 for m + 1 -------- *)
Lemma E_iid_dmap {A B} (d : Dist A) (g : A -> B) (l : nat) (f : list B -> R) :
  E (iid d l) (fun s => f (map g s)) = E (iid (dmap g d) l) f.
Proof.
  revert f. induction l as [| l IH]; intro f.
  - simpl. rewrite !E_ret. reflexivity.
  - rewrite !E_iid_S, E_dmap. apply E_ext_support. intros w a _.
    apply (IH (fun s => f (g a :: s))).
Qed.

Lemma nsq_zero_coord (m : nat) (v : nat -> R) (j : nat) : nsq m v = 0 -> (j < m)%nat -> v j = 0.
Proof.
  induction m as [| m IH]; intros Z Hj; [lia |].
  unfold nsq, dot in Z. simpl in Z. fold (dot m v v) (nsq m v) in Z.
  pose proof (nsq_nonneg m v). pose proof (Rle_0_sqr (v m)). unfold Rsqr in *.
  assert (Zm : v m * v m = 0) by lra. assert (Zr : nsq m v = 0) by lra.
  destruct (Nat.eq_dec j m) as [-> | N]; [nra | apply IH; [exact Zr | lia]].
Qed.

Lemma vsum_dev (mu : nat -> R) (s : list (nat -> R)) (j : nat) :
  vsum (map (fun y i => y i - mu i) s) j = dev mu s j.
Proof. induction s as [| y s IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma fold_map_sum (C : list (nat -> R)) (j : nat) :
  fold_right Rplus 0 (map (fun y => y j) C) = fold_right (fun y acc => y j + acc) 0 C.
Proof. induction C as [| c C IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma map_repeat_fst {A B} (x : A * B) (l : nat) : map fst (repeat x l) = repeat (fst x) l.
Proof. induction l as [| l IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma sum_c2_repeat (dc : Dist (nat -> R) * R) (l : nat) :
  sum_c2 (repeat dc l) = INR l * snd dc ^ 2.
Proof.
  induction l as [| l IH]; [unfold sum_c2; simpl; ring |].
  cbn [repeat]. change (sum_c2 (dc :: repeat dc l)) with (snd dc ^ 2 + sum_c2 (repeat dc l)).
  rewrite IH, S_INR. ring.
Qed.

(* For a finite nonempty multiset C of R^m with mean mu and radius rho (every point within rho of
   mu) and l >= 1 draws with replacement: P(||mean of the draws - mu|| > eps rho)
   <= 2 e^{-l eps^2/2}, for every m (Theorem1Run.vector_hoeffding's event and form). *)
Theorem vector_pinelis (C : list (nat -> R)) (HC : C <> []) (m l : nat) (rho eps : R) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) ->
  (1 <= l)%nat -> 0 <= eps ->
  P (uniform_seq C HC l) (fun s => Rltb (eps * rho) (vnorm m (fun j => vmean s j - vmean C j)))
    <= 2 * exp (- (INR l * (eps ^ 2 / 2))).
Proof.
  intros Rad Hl Heps. set (mu := vmean C).
  assert (Pl : 0 < INR l) by (apply lt_0_INR; lia).
  (* On the support, the mean's deviation is dev / l. *)
  assert (Mean : forall w s, In (w, s) (outcomes (uniform_seq C HC l)) ->
            vnorm m (fun j => vmean s j - mu j) = / INR l * vnorm m (dev mu s)).
  { intros w s Hin. unfold uniform_seq in Hin. pose proof (iid_length _ _ _ _ Hin) as Ls.
    rewrite <- (Rabs_pos_eq (/ INR l)) by (left; apply Rinv_0_lt_compat, Pl).
    rewrite <- vnorm_scale. apply vnorm_ext. intros j _.
    rewrite vmean_dev by (destruct s; [simpl in Ls; lia | discriminate]). rewrite Ls.
    unfold Rdiv. ring. }
  assert (Unif : forall w y, In (w, y) (outcomes (uniform C HC)) -> In y C).
  { intros w y Hin. simpl in Hin. apply in_map_iff in Hin. destruct Hin as [c [Eq Hc]].
    injection Eq as _ <-. exact Hc. }
  assert (Ex : exists c0, In c0 C)
    by (destruct C as [| c C']; [contradiction | exists c; left; reflexivity]).
  destruct Ex as [c0 Hc0].
  assert (R0 : 0 <= rho) by (eapply Rle_trans; [apply vnorm_nonneg | apply (Rad c0 Hc0)]).
  destruct (Req_dec rho 0) as [Z | NZ].
  - (* rho = 0: every draw is mu on the coordinates below m, the event is empty. *)
    apply Rle_trans with 0; [| left; apply Rmult_lt_0_compat; [lra | apply exp_pos]].
    rewrite <- (P_empty (uniform_seq C HC l)). apply P_monotone_support.
    intros w s Hin Ev. exfalso. apply Rltb_true in Ev. rewrite (Mean w s Hin), Z, Rmult_0_r in Ev.
    assert (D0 : vnorm m (dev mu s) = 0).
    { rewrite (vnorm_ext m _ (fun _ => 0)); [unfold vnorm; rewrite nsq_zero; apply sqrt_0 |].
      intros j Hj. unfold uniform_seq in Hin. pose proof (in_iid_elem _ _ _ _ Hin) as El.
      clear Hin Ev. induction s as [| y s IH]; [reflexivity |]. simpl.
      rewrite IH by (intros a Ha; apply El; right; exact Ha).
      destruct (El y (or_introl eq_refl)) as [wy Hy].
      pose proof (Rad y (Unif _ _ Hy)) as Ry. rewrite Z in Ry.
      assert (N0 : nsq m (fun i => y i - vmean C i) = 0).
      { pose proof (vnorm_nonneg m (fun i => y i - vmean C i)).
        rewrite <- vnorm_sq. assert (vnorm m (fun i => y i - vmean C i) = 0) by lra.
        rewrite H0. ring. }
      pose proof (nsq_zero_coord m _ j N0 Hj) as Yj. cbv beta in Yj. unfold mu. lra. }
    rewrite D0, Rmult_0_r in Ev. lra.
  - assert (Rp : 0 < rho) by lra.
    set (g := fun (y : nat -> R) (i : nat) => y i - mu i).
    set (dc := (dmap g (uniform C HC), rho)).
    assert (Cen : Forall (centered m) (repeat dc l)).
    { apply Forall_forall. intros x Hx. apply repeat_spec in Hx. subst x. split; simpl.
      - intros j _. rewrite E_dmap. unfold g.
        rewrite (E_ext_support (uniform C HC) _ (fun y => y j + - mu j)) by (intros; ring).
        rewrite E_plus, E_const, E_uniform. unfold mu, vmean. rewrite fold_map_sum. ring.
      - intros w y Hin. apply in_bind in Hin. destruct Hin as [wa [a [Ha [wb Hb]]]].
        apply in_ret in Hb. subst y. apply Rad, (Unif _ _ Ha). }
    assert (V : 0 < sum_c2 (repeat dc l)).
    { rewrite sum_c2_repeat. simpl snd. apply Rmult_lt_0_compat; [lra | apply pow_lt; lra]. }
    pose proof (pinelis m (repeat dc l) (INR l * eps * rho) Cen V
                  ltac:(apply Rmult_le_pos; [apply Rmult_le_pos; lra | lra])) as Pn.
    rewrite sum_c2_repeat, map_repeat_fst, indep_repeat in Pn. simpl fst in Pn. simpl snd in Pn.
    replace (- (INR l * (eps ^ 2 / 2)))
      with (- ((INR l * eps * rho) ^ 2 / (2 * (INR l * rho ^ 2)))) by (field; lra).
    eapply Rle_trans; [| exact Pn].
    unfold P, uniform_seq. rewrite <- (E_iid_dmap (uniform C HC) g l).
    apply E_le_support. intros w s Hin. unfold ind.
    destruct (Rltb (eps * rho) (vnorm m (fun j => vmean s j - mu j))) eqn:B;
      [| destruct (Rleb _ _); lra].
    apply Rltb_true in B. rewrite (Mean w s Hin) in B.
    replace (Rleb (INR l * eps * rho) (vnorm m (vsum (map g s)))) with true; [lra |].
    symmetry. apply Rleb_true.
    rewrite (vnorm_ext m (vsum (map g s)) (dev mu s)) by (intros; apply vsum_dev).
    apply Rmult_lt_compat_l with (r := INR l) in B; [| exact Pl].
    replace (INR l * (/ INR l * vnorm m (dev mu s))) with (vnorm m (dev mu s)) in B
      by (field; lra).
    lra.
Qed.
