(* The mean of l independent uniform draws from a finite C in R^m concentrates around C's mean mu,
   with no dimension factor: E ||Ybar - mu|| <= rho / sqrt l (second moment and Jensen), and
   P(||Ybar - mu|| >= rho / sqrt l + u) <= exp(-l u^2 / (2 rho^2)) (McDiarmid.v: changing one draw
   moves ||Ybar - mu|| by at most 2 rho / l).  rho bounds ||c - mu|| over C (C's radius about its
   mean).  This replaces the vector Hoeffding inequality (m + 1) e^{-l eps^2 / 2} the paper's
   Lemma 7 uses (proofs-notes/mcdiarmid.md). *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Hoeffding McDiarmid.
Open Scope R_scope.

(* ---- R^m with the Euclidean norm: vectors are nat -> R, coordinates 0 .. m-1 ---------------- *)
Fixpoint sum_to (m : nat) (h : nat -> R) : R :=
  match m with O => 0 | S m' => sum_to m' h + h m' end.

Lemma sum_to_ext m h1 h2 : (forall j, (j < m)%nat -> h1 j = h2 j) -> sum_to m h1 = sum_to m h2.
Proof.
  induction m as [| m IH]; intro H; simpl; [reflexivity |].
  rewrite IH by (intros; apply H; lia). rewrite H by lia. reflexivity.
Qed.

Lemma sum_to_plus m h1 h2 : sum_to m (fun j => h1 j + h2 j) = sum_to m h1 + sum_to m h2.
Proof. induction m as [| m IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma sum_to_scale m h c : sum_to m (fun j => c * h j) = c * sum_to m h.
Proof. induction m as [| m IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma sum_to_nonneg m h : (forall j, 0 <= h j) -> 0 <= sum_to m h.
Proof. induction m as [| m IH]; intro H; simpl; [lra | pose proof (H m); pose proof (IH H); lra]. Qed.

Definition dot (m : nat) (u v : nat -> R) : R := sum_to m (fun j => u j * v j).
Definition nsq (m : nat) (v : nat -> R) : R := dot m v v.
Definition vnorm (m : nat) (v : nat -> R) : R := sqrt (nsq m v).

Lemma nsq_nonneg m v : 0 <= nsq m v.
Proof. apply sum_to_nonneg. intro j. apply Rle_0_sqr. Qed.

Lemma vnorm_nonneg m v : 0 <= vnorm m v.
Proof. apply sqrt_pos. Qed.

Lemma vnorm_sq m v : vnorm m v * vnorm m v = nsq m v.
Proof. apply sqrt_sqrt, nsq_nonneg. Qed.

Lemma nsq_comb m (u v : nat -> R) (al be : R) :
  nsq m (fun j => al * u j + be * v j) = al ^ 2 * nsq m u + 2 * al * be * dot m u v + be ^ 2 * nsq m v.
Proof.
  unfold nsq, dot. rewrite <- !sum_to_scale, <- !sum_to_plus. apply sum_to_ext. intros. ring.
Qed.

(* Cauchy-Schwarz, one-sided: <u, v> <= ||u|| ||v||. *)
Lemma dot_le_zero_norm m u v : nsq m u = 0 -> dot m u v <= 0.
Proof.
  intro Z. destruct (Rle_lt_dec (dot m u v) 0) as [Le | Gt]; [exact Le | exfalso].
  set (la := (nsq m v + 1) / (2 * dot m u v)).
  pose proof (nsq_nonneg m (fun j => (- la) * u j + 1 * v j)) as N.
  rewrite nsq_comb, Z in N.
  assert (E : (- la) ^ 2 * 0 + 2 * - la * 1 * dot m u v + 1 ^ 2 * nsq m v = -1)
    by (unfold la; field; lra).
  lra.
Qed.

Lemma dot_comm m u v : dot m u v = dot m v u.
Proof. apply sum_to_ext. intros. ring. Qed.

Lemma cauchy_schwarz m u v : dot m u v <= vnorm m u * vnorm m v.
Proof.
  destruct (Req_dec (nsq m u) 0) as [Zu | Nu].
  { apply Rle_trans with 0; [apply dot_le_zero_norm, Zu |].
    apply Rmult_le_pos; apply vnorm_nonneg. }
  destruct (Req_dec (nsq m v) 0) as [Zv | Nv].
  { rewrite dot_comm. apply Rle_trans with 0; [apply dot_le_zero_norm, Zv |].
    apply Rmult_le_pos; apply vnorm_nonneg. }
  set (a := vnorm m u). set (b := vnorm m v).
  assert (Pa : 0 < a).
  { unfold a, vnorm. apply sqrt_lt_R0. pose proof (nsq_nonneg m u). lra. }
  assert (Pb : 0 < b).
  { unfold b, vnorm. apply sqrt_lt_R0. pose proof (nsq_nonneg m v). lra. }
  pose proof (nsq_nonneg m (fun j => b * u j + (- a) * v j)) as N.
  rewrite nsq_comb in N. rewrite <- (vnorm_sq m u), <- (vnorm_sq m v) in N. fold a b in N.
  (* 0 <= 2 a^2 b^2 - 2 a b <u, v> *)
  assert (0 <= a * b * (a * b - dot m u v)) by nra.
  assert (0 < a * b) by nra. nra.
Qed.

Lemma vnorm_triangle m u v : vnorm m (fun j => u j + v j) <= vnorm m u + vnorm m v.
Proof.
  pose proof (vnorm_nonneg m u). pose proof (vnorm_nonneg m v).
  assert (S : sqrt ((vnorm m u + vnorm m v) * (vnorm m u + vnorm m v)) = vnorm m u + vnorm m v).
  { apply sqrt_square. lra. }
  unfold vnorm at 1. rewrite <- S. apply sqrt_le_1_alt.
  assert (E : nsq m (fun j => u j + v j) = nsq m (fun j => 1 * u j + 1 * v j)).
  { apply sum_to_ext. intros. ring. }
  rewrite E, nsq_comb. pose proof (cauchy_schwarz m u v).
  rewrite <- (vnorm_sq m u), <- (vnorm_sq m v). nra.
Qed.

Lemma vnorm_ext m u v : (forall j, (j < m)%nat -> u j = v j) -> vnorm m u = vnorm m v.
Proof.
  intro H. unfold vnorm, nsq, dot. f_equal. apply sum_to_ext. intros. rewrite H by lia. reflexivity.
Qed.

Lemma vnorm_scale m v c : vnorm m (fun j => c * v j) = Rabs c * vnorm m v.
Proof.
  unfold vnorm. rewrite <- sqrt_Rsqr_abs, <- sqrt_mult by (apply Rle_0_sqr || apply nsq_nonneg).
  f_equal. unfold nsq, dot, Rsqr. rewrite <- sum_to_scale. apply sum_to_ext. intros. ring.
Qed.

(* ||u|| - ||v|| <= ||u - v|| *)
Lemma vnorm_sub_le m u v : vnorm m u - vnorm m v <= vnorm m (fun j => u j - v j).
Proof.
  pose proof (vnorm_triangle m (fun j => u j - v j) v) as T.
  cbv beta in T. rewrite (vnorm_ext m (fun j => u j - v j + v j) u) in T by (intros; ring). lra.
Qed.

(* ---- Expectations of coordinates and second moments ---------------------------------------- *)
Lemma E_sum_to {A} (d : Dist A) m (h : A -> nat -> R) :
  E d (fun a => sum_to m (h a)) = sum_to m (fun j => E d (fun a => h a j)).
Proof.
  induction m as [| m IH]; simpl; [apply E_const |]. rewrite E_plus, IH. reflexivity.
Qed.

(* Jensen for the square: (E f)^2 <= E f^2. *)
Lemma E_sq_le {A} (d : Dist A) (f : A -> R) : E d f ^ 2 <= E d (fun a => f a ^ 2).
Proof.
  assert (N : 0 <= E d (fun a => (f a - E d f) ^ 2)) by (apply E_nonneg; intro; apply pow2_ge_0).
  rewrite (E_ext_support d _ (fun a => f a ^ 2 + (-2 * E d f) * f a + E d f ^ 2)) in N
    by (intros; ring).
  rewrite !E_plus, E_scale, E_const in N. lra.
Qed.

Lemma bounded_diff_ext {A} (supp : A -> Prop) cs (f g : list A -> R) :
  (forall s, f s = g s) -> bounded_diff supp cs f -> bounded_diff supp cs g.
Proof.
  revert f g. induction cs as [| c cs IH]; intros f g H; simpl; [auto |].
  intros [B1 B2]. split.
  - intros. rewrite <- !H. auto.
  - intros a Sa. apply (IH (fun s => f (a :: s))); [intro; apply H | auto].
Qed.

Section MeanTail.
(* d: the law of one draw, a vector of R^m; mu its mean; every outcome within rho of mu. *)
Context (m : nat) (d : Dist (nat -> R)) (mu : nat -> R) (rho : R).
Hypothesis d_mean : forall j, (j < m)%nat -> E d (fun y => y j) = mu j.
Hypothesis d_radius : forall w y, In (w, y) (outcomes d) -> vnorm m (fun j => y j - mu j) <= rho.

Definition within (y : nat -> R) : Prop := vnorm m (fun j => y j - mu j) <= rho.

(* The sum of the draws' deviations from mu, and the mean of the draws. *)
Definition dev (s : list (nat -> R)) (j : nat) : R :=
  fold_right (fun y acc => (y j - mu j) + acc) 0 s.
Definition vmean (s : list (nat -> R)) (j : nat) : R :=
  fold_right (fun y acc => y j + acc) 0 s / INR (length s).

Lemma vmean_dev (s : list (nat -> R)) j :
  s <> [] -> vmean s j - mu j = dev s j / INR (length s).
Proof.
  intro N. unfold vmean.
  assert (Ls : INR (length s) <> 0) by (apply not_0_INR; destruct s; [contradiction | discriminate]).
  assert (D : dev s j = fold_right (fun y acc => y j + acc) 0 s - INR (length s) * mu j).
  { clear N Ls. induction s as [| y s IH]; simpl; [ring |].
    rewrite IH. destruct (length s); simpl; ring. }
  rewrite D. field. exact Ls.
Qed.

Definition sigma2 : R := E d (fun y => nsq m (fun j => y j - mu j)).

(* The second moment of z + (sum of n deviations): ||z||^2 + n sigma2 (the cross terms vanish). *)
Lemma second_moment (n : nat) (z : nat -> R) :
  E (iid d n) (fun s => nsq m (fun j => z j + dev s j)) = nsq m z + INR n * sigma2.
Proof.
  revert z. induction n as [| n IH]; intro z.
  - simpl. rewrite E_ret. simpl. rewrite Rmult_0_l, Rplus_0_r.
    apply sum_to_ext. intros. ring.
  - rewrite E_iid_S.
    rewrite (E_ext_support d _ (fun a => nsq m (fun j => 1 * z j + 1 * (a j - mu j))
                                         + INR n * sigma2)).
    2: { intros w a _. transitivity (nsq m (fun j => z j + (a j - mu j)) + INR n * sigma2).
         - rewrite <- (IH (fun j => z j + (a j - mu j))).
           apply E_ext_support. intros. apply sum_to_ext. intros. simpl. ring.
         - f_equal. apply sum_to_ext. intros. ring. }
    rewrite E_plus, E_const.
    rewrite (E_ext_support d _ (fun a => 1 ^ 2 * nsq m z + 2 * 1 * 1 * dot m z (fun j => a j - mu j)
                                         + 1 ^ 2 * nsq m (fun j => a j - mu j)))
      by (intros; apply nsq_comb).
    rewrite !E_plus, E_const, !E_scale. fold sigma2.
    assert (Z : E d (fun a => dot m z (fun j => a j - mu j)) = 0).
    { unfold dot. rewrite E_sum_to. rewrite (sum_to_ext m _ (fun _ => 0)).
      - clear. induction m as [| m' IH]; simpl; [reflexivity | rewrite IH; ring].
      - intros j Hj. rewrite (E_ext_support d _ (fun a => z j * a j + (- z j * mu j)))
          by (intros; ring).
        rewrite E_plus, E_scale, E_const, d_mean by exact Hj. ring. }
    rewrite Z, S_INR. ring.
Qed.

Lemma sigma2_le : 0 <= rho -> sigma2 <= rho ^ 2.
Proof.
  intro R0. unfold sigma2. rewrite <- (E_const d (rho ^ 2)). apply E_le_support.
  intros w y Hin. rewrite <- vnorm_sq. pose proof (d_radius w y Hin).
  pose proof (vnorm_nonneg m (fun j => y j - mu j)). simpl. nra.
Qed.

(* ||dev s / n||: the distance of the mean of n draws to mu, with the divisor fixed. *)
Definition dist_mean (n : nat) (s : list (nat -> R)) : R :=
  vnorm m (fun j => dev s j / INR n).

Lemma nsq_zero : nsq m (fun _ => 0) = 0.
Proof. unfold nsq, dot. clear. induction m as [| m' IH]; simpl; [reflexivity | rewrite IH; ring]. Qed.

(* E ||Ybar - mu|| <= rho / sqrt n. *)
Theorem mean_dist_expectation (n : nat) :
  (1 <= n)%nat -> 0 <= rho -> E (iid d n) (dist_mean n) <= rho / sqrt (INR n).
Proof.
  intros Hn R0. assert (Pn : 0 < INR n) by (apply lt_0_INR; lia).
  assert (E2 : E (iid d n) (fun s => dist_mean n s ^ 2) = sigma2 / INR n).
  { rewrite (E_ext_support _ _ (fun s => / INR n ^ 2 * nsq m (fun j => 0 + dev s j))).
    - rewrite E_scale, second_moment, nsq_zero. field. lra.
    - intros w s _. unfold dist_mean. replace (vnorm m (fun j => dev s j / INR n) ^ 2)
        with (vnorm m (fun j => dev s j / INR n) * vnorm m (fun j => dev s j / INR n)) by ring.
      rewrite vnorm_sq. unfold nsq, dot. rewrite <- sum_to_scale. apply sum_to_ext.
      intros. field. lra. }
  pose proof (E_sq_le (iid d n) (dist_mean n)) as J. rewrite E2 in J.
  pose proof (sigma2_le R0) as S2.
  assert (N : 0 <= E (iid d n) (dist_mean n)) by (apply E_nonneg; intro; apply vnorm_nonneg).
  assert (Q : 0 < sqrt (INR n)) by (apply sqrt_lt_R0, Pn).
  assert (Sq : sqrt (INR n) * sqrt (INR n) = INR n) by (apply sqrt_sqrt; lra).
  assert (B : (E (iid d n) (dist_mean n) * sqrt (INR n)) ^ 2 <= rho ^ 2).
  { replace ((E (iid d n) (dist_mean n) * sqrt (INR n)) ^ 2)
      with (E (iid d n) (dist_mean n) ^ 2 * (sqrt (INR n) * sqrt (INR n))) by ring.
    rewrite Sq. apply Rle_trans with (sigma2 / INR n * INR n);
      [apply Rmult_le_compat_r; lra |].
    assert (X : sigma2 / INR n * INR n = sigma2) by (field; lra). lra. }
  apply Rmult_le_reg_r with (sqrt (INR n)); [exact Q |].
  replace (rho / sqrt (INR n) * sqrt (INR n)) with rho by (field; lra).
  assert (0 <= E (iid d n) (dist_mean n) * sqrt (INR n)) by (apply Rmult_le_pos; lra).
  destruct (Rle_lt_dec (E (iid d n) (dist_mean n) * sqrt (INR n)) rho) as [L | G]; [exact L |].
  exfalso. nra.
Qed.

(* Changing one draw (within rho of mu) moves ||z + dev s / L|| by at most 2 rho / L. *)
Lemma shifted_bounded_diff (L : R) (k : nat) (z : nat -> R) : 0 < L ->
  bounded_diff within (repeat (2 * rho / L) k) (fun s => vnorm m (fun j => z j + dev s j / L)).
Proof.
  intro PL. revert z. induction k as [| k IH]; intro z; simpl; [exact I |]. split.
  - intros a a' s Sa Sa'. unfold within in Sa, Sa'.
    eapply Rle_trans; [apply vnorm_sub_le |].
    rewrite (vnorm_ext m _ (fun j => / L * (1 * (a j - mu j) + (-1) * (a' j - mu j))))
      by (intros; field; lra).
    rewrite vnorm_scale, Rabs_right by (left; apply Rinv_0_lt_compat, PL).
    eapply Rle_trans.
    { apply Rmult_le_compat_l; [left; apply Rinv_0_lt_compat, PL |].
      apply (vnorm_triangle m (fun j => 1 * (a j - mu j)) (fun j => -1 * (a' j - mu j))). }
    assert (A1 : Rabs (-1) = 1) by (rewrite Rabs_left; lra).
    rewrite !vnorm_scale, Rabs_R1, A1.
    replace (2 * rho / L) with (/ L * (rho + rho)) by (field; lra).
    apply Rmult_le_compat_l; [left; apply Rinv_0_lt_compat, PL | lra].
  - intros a Sa. apply (bounded_diff_ext within _
      (fun s => vnorm m (fun j => (z j + (a j - mu j) / L) + dev s j / L))).
    + intro s. apply vnorm_ext. intros. simpl. field. lra.
    + apply IH.
Qed.

Lemma sumsq_repeat (c : R) (k : nat) : sumsq (repeat c k) = INR k * c ^ 2.
Proof. induction k as [| k IH]; simpl repeat; simpl sumsq; [simpl; ring |]. rewrite IH, S_INR. ring. Qed.

(* The tail: P(||Ybar - mu|| >= rho / sqrt n + u) <= exp(-n u^2 / (2 rho^2)), Ybar the mean of n
   independent draws from d (dist_mean: with the divisor n; mean_tail below: the mean itself). *)
Theorem mean_dist_tail (n : nat) (u : R) :
  (1 <= n)%nat -> 0 < rho -> 0 < u ->
  P (iid d n) (fun s => Rleb (rho / sqrt (INR n) + u) (dist_mean n s))
    <= exp (- (INR n * u ^ 2 / (2 * rho ^ 2))).
Proof.
  intros Hn R0 U. assert (Pn : 0 < INR n) by (apply lt_0_INR; lia).
  set (cs := repeat (2 * rho / INR n) n).
  assert (Lc : length cs = n) by apply repeat_length.
  assert (BD : bounded_diff within cs (dist_mean n)).
  { apply (bounded_diff_ext within _ (fun s => vnorm m (fun j => 0 + dev s j / INR n))).
    - intro s. apply vnorm_ext. intros. ring.
    - apply shifted_bounded_diff, Pn. }
  assert (S : sumsq cs = 4 * rho ^ 2 / INR n) by (unfold cs; rewrite sumsq_repeat; field; lra).
  assert (S0 : 0 < sumsq cs).
  { rewrite S. apply Rmult_lt_0_compat; [| apply Rinv_0_lt_compat, Pn].
    apply Rmult_lt_0_compat; [lra | apply pow_lt, R0]. }
  pose proof (mcdiarmid d within d_radius cs (dist_mean n) u BD U S0) as M.
  rewrite Lc in M. pose proof (mean_dist_expectation n Hn (Rlt_le _ _ R0)) as EX.
  eapply Rle_trans; [| eapply Rle_trans; [exact M |]].
  - apply P_monotone. intros s H. apply Rleb_true in H. apply Rleb_true. lra.
  - apply exp_mono. rewrite S. right. field. lra.
Qed.

(* The same for the mean of the draws, vmean. *)
Theorem mean_tail (n : nat) (u : R) :
  (1 <= n)%nat -> 0 < rho -> 0 < u ->
  P (iid d n) (fun s => Rleb (rho / sqrt (INR n) + u) (vnorm m (fun j => vmean s j - mu j)))
    <= exp (- (INR n * u ^ 2 / (2 * rho ^ 2))).
Proof.
  intros Hn R0 U. eapply Rle_trans; [| exact (mean_dist_tail n u Hn R0 U)].
  right. unfold P. apply E_ext_support.
  intros w s Hin. pose proof (iid_length d n w s Hin) as Ls.
  unfold dist_mean. rewrite (vnorm_ext m (fun j => vmean s j - mu j) (fun j => dev s j / INR n));
    [reflexivity |].
  intros j _. rewrite vmean_dev, Ls; [reflexivity |]. destruct s; [simpl in Ls; lia | discriminate].
Qed.

End MeanTail.

(* Draws with replacement from a finite C in R^m (FiniteProb.uniform_seq, semantics.md S1), mu
   the mean of C, rho the radius of C about mu. *)
Theorem uniform_mean_tail (C : list (nat -> R)) (H : C <> []) (m n : nat) (rho u : R) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) ->
  (1 <= n)%nat -> 0 < rho -> 0 < u ->
  P (uniform_seq C H n)
    (fun s => Rleb (rho / sqrt (INR n) + u) (vnorm m (fun j => vmean s j - vmean C j)))
    <= exp (- (INR n * u ^ 2 / (2 * rho ^ 2))).
Proof.
  intros Rad Hn R0 U. apply (mean_tail m (uniform C H) (vmean C) rho); try assumption.
  - intros j _. rewrite E_uniform. unfold vmean. f_equal. clear.
    induction C as [| c C IH]; simpl; [reflexivity | rewrite IH; reflexivity].
  - intros w y Hin. simpl in Hin. apply in_map_iff in Hin. destruct Hin as [c [Eq Hc]].
    injection Eq as _ <-. apply Rad, Hc.
Qed.
