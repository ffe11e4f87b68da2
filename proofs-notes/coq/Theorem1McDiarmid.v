(* Theorem 1 (thm:optimal_cover_ran) with eta_mcdiarmid (BoundsMcDiarmid.v) in place of the
   paper's eta: Lemma 7's vector Hoeffding step (appendix Theorem 5, tail (m+1) e^{-l eps^2/2})
   replaced by McDiarmid's inequality, which is proved (McDiarmid.v, MeanTail.v); derivation and
   what is and is not machine-checked: proofs-notes/mcdiarmid.md.
   Three parts:
   - `uniform_lemma7_mcdiarmid`: the per-draw-count tail that replaces the vector Hoeffding
     inequality in Lemma 7, for the concrete uniform law (FiniteProb.uniform_seq): l draws with
     replacement from a finite C in R^m with mean mu and radius rho give
     P(||Ybar - mu|| > eps rho) <= H e^{-l c}, H = e^{w/2}, c = eps^2/2 * w/(1+w), any w >= 0; at
     eps = (gamma-1)/2 and w = mcd_root k delta it is e^{mcd_root/2} e^{-l mcd_exponent}, the H and
     c of mcd_tail.  No hypothesis about probability.
   - `lemma7_mcdiarmid`: Lemma 7 (lemma:distance_ran) in the model of the paper's proof (s i.i.d.
     pairs of a uniform draw from C_p and an assignment coin of probability qa >= q^{k-1}): with
     s >= eta >= eta_mcdiarmid, no known draw or a mean farther than eps r(C_p) from mu_p has
     probability <= delta/(2k).  No hypothesis about probability.
   - `theorem1_mcdiarmid_given_lemma7`: Theorem 1 on Theorem1.v's concrete space (the erasure
     tail proved there) with eta >= eta_mcdiarmid, from Lemma 7's tail for the run in mcd_tail's
     form, which remains its one probabilistic hypothesis: Phase 1 is Theorem1.v's function
     phase1 of the randomness; Theorem1Run.v proves that hypothesis for Phase1Model.v's Phase 1
     (conditioning on earlier iterations, pigeonhole, exchangeability within Z_p) and states
     `theorem1_random_weak_mcdiarmid` with no probabilistic hypothesis. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Hoeffding McDiarmid MeanTail Inversion Bounds BoundsMcDiarmid.
From SSAC Require Metric Erasure Algorithm1 Theorem1.
Open Scope R_scope.

(* ---- Every draw lies in the law's support; so does the mean, within rho of mu ------------- *)
Lemma iid_support {A} (d : Dist A) (S : A -> Prop) :
  (forall w a, In (w, a) (outcomes d) -> S a) ->
  forall n w s, In (w, s) (outcomes (iid d n)) -> Forall S s.
Proof.
  intros Hd n. induction n as [| n IH]; intros w s Hin; simpl iid in Hin.
  - apply in_ret in Hin. subst s. constructor.
  - apply in_bind in Hin. destruct Hin as [wa [a [Ha [wb Hin]]]].
    apply in_bind in Hin. destruct Hin as [wt [t [Ht [wu Hin]]]].
    apply in_ret in Hin. subst s. constructor; [exact (Hd wa a Ha) | exact (IH wt t Ht)].
Qed.

Lemma dev_norm_le (m : nat) (mu : nat -> R) (rho : R) (s : list (nat -> R)) :
  Forall (fun y => vnorm m (fun j => y j - mu j) <= rho) s ->
  vnorm m (dev mu s) <= INR (length s) * rho.
Proof.
  induction s as [| y s IH]; intro F.
  - simpl length. assert (Z : vnorm m (dev mu []) = 0).
    { unfold vnorm. rewrite <- sqrt_0. f_equal. exact (nsq_zero m). }
    rewrite Z. simpl INR. lra.
  - inversion F as [| ? ? Fy Fs]; subst. simpl length. rewrite S_INR.
    rewrite Rmult_plus_distr_r, Rmult_1_l.
    eapply Rle_trans; [| apply Rplus_le_compat; [apply IH, Fs | exact Fy]].
    replace (vnorm m (dev mu (y :: s))) with (vnorm m (fun j => dev mu s j + (y j - mu j)))
      by (apply vnorm_ext; intros; simpl; ring).
    apply vnorm_triangle.
Qed.

Lemma uniform_outcome_in {A} (C : list A) (H : C <> []) w y : In (w, y) (outcomes (uniform C H)) -> In y C.
Proof. simpl. intro Hin. apply in_map_iff in Hin. destruct Hin as [c [Eq Hc]]. injection Eq as _ <-. exact Hc. Qed.

(* ---- Lemma 7's step for l draws: P(||Ybar - mu|| > eps rho) ------------------------------- *)
(* With eps sqrt l >= 1 McDiarmid's tail at u = eps rho - rho / sqrt l; otherwise 1. *)
Theorem uniform_mean_tail_strict (C : list (nat -> R)) (H : C <> []) (m l : nat) (rho eps : R) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) ->
  0 <= eps -> (1 <= l)%nat ->
  P (uniform_seq C H l) (fun s => Rltb (eps * rho) (vnorm m (fun j => vmean s j - vmean C j)))
    <= exp (- (Rmax 0 (eps * sqrt (INR l) - 1)) ^ 2 / 2).
Proof.
  intros Rad E0 Hl. assert (Pl : 0 < INR l) by (apply lt_0_INR; lia).
  assert (R0 : 0 <= rho).
  { destruct C as [| c C']; [contradiction |].
    apply Rle_trans with (vnorm m (fun j => c j - vmean (c :: C') j));
      [apply vnorm_nonneg | apply Rad; left; reflexivity]. }
  (* on the support the mean is within rho of mu *)
  assert (Within : forall w s, In (w, s) (outcomes (uniform_seq C H l)) ->
                     vnorm m (fun j => vmean s j - vmean C j) <= rho).
  { intros w s Hin. pose proof (iid_length _ l w s Hin) as Ls.
    pose proof (iid_support (uniform C H) (fun y => vnorm m (fun j => y j - vmean C j) <= rho)
                  (fun w' y Hy => Rad y (uniform_outcome_in C H w' y Hy)) l w s Hin) as F.
    rewrite (vnorm_ext m _ (fun j => / INR l * dev (vmean C) s j)).
    2: { intros j _. rewrite vmean_dev, Ls; [field; lra |].
         destruct s; [simpl in Ls; lia | discriminate]. }
    rewrite vnorm_scale, Rabs_right by (left; apply Rinv_0_lt_compat, Pl).
    pose proof (dev_norm_le m (vmean C) rho s F) as D. rewrite Ls in D.
    apply Rmult_le_reg_l with (INR l); [exact Pl |].
    rewrite <- Rmult_assoc, Rinv_r, Rmult_1_l by lra. exact D. }
  destruct (Req_dec rho 0) as [Z | NZ].
  - (* rho = 0: every point is mu, the event is empty on the support *)
    apply Rle_trans with 0; [| left; apply exp_pos].
    right. unfold P. rewrite <- (E_const (uniform_seq C H l) 0). apply E_ext_support.
    intros w s Hin. pose proof (Within w s Hin) as Ws. unfold ind.
    destruct (Rltb (eps * rho) (vnorm m (fun j => vmean s j - vmean C j))) eqn:Lt;
      [apply Rltb_true in Lt; nra | reflexivity].
  - assert (Q : 0 < sqrt (INR l)) by (apply sqrt_lt_R0, Pl).
    assert (Q2 : sqrt (INR l) * sqrt (INR l) = INR l) by (apply sqrt_sqrt; lra).
    destruct (Rle_lt_dec (eps * sqrt (INR l)) 1) as [Small | Big].
    + rewrite Rmax_left by lra. assert (E : - 0 ^ 2 / 2 = 0) by field. rewrite E, exp_0.
      apply P_le_1.
    + rewrite Rmax_right by lra.
      set (u := rho * (eps - / sqrt (INR l))).
      assert (Uq : rho / sqrt (INR l) + u = eps * rho) by (unfold u; field; lra).
      assert (U : 0 < u).
      { unfold u. apply Rmult_lt_0_compat; [lra |].
        apply Rmult_lt_reg_r with (sqrt (INR l)); [exact Q |].
        rewrite Rmult_0_l, Rmult_minus_distr_r, Rinv_l by lra. lra. }
      eapply Rle_trans.
      { apply P_monotone with
          (e2 := fun s => Rleb (rho / sqrt (INR l) + u) (vnorm m (fun j => vmean s j - vmean C j))).
        intros s Hs. apply Rltb_true in Hs. apply Rleb_true. lra. }
      eapply Rle_trans; [apply (uniform_mean_tail C H m l rho u Rad Hl ltac:(lra) U) |].
      apply exp_mono. right. unfold u. set (sq := sqrt (INR l)) in *. rewrite <- Q2. field. lra.
Qed.

(* The form Lemma 7's binomial mixture needs, H e^{-l c} for every l (l = 0 included), through
   BoundsMcDiarmid.mcdiarmid_linearized: H = e^{w/2}, c = eps^2/2 * w / (1 + w), any w >= 0. *)
Theorem uniform_lemma7_mcdiarmid (C : list (nat -> R)) (H : C <> []) (m l : nat) (rho eps w : R) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) ->
  0 <= eps -> 0 <= w ->
  P (uniform_seq C H l) (fun s => Rltb (eps * rho) (vnorm m (fun j => vmean s j - vmean C j)))
    <= exp (w / 2) * exp (- (INR l * (eps ^ 2 / 2 * (w / (1 + w))))).
Proof.
  intros Rad E0 W0. destruct l as [| l'].
  - simpl INR. assert (E : - (0 * (eps ^ 2 / 2 * (w / (1 + w)))) = 0) by ring.
    rewrite E, exp_0, Rmult_1_r. apply Rle_trans with 1; [apply P_le_1 |].
    rewrite <- exp_0. apply exp_mono. lra.
  - eapply Rle_trans; [apply uniform_mean_tail_strict; [exact Rad | exact E0 | lia] |].
    apply mcdiarmid_linearized; [exact E0 | apply pos_INR | exact W0].
Qed.

(* At Theorem 1's eps = (gamma - 1)/2 and w = mcd_root k delta: the H and c of mcd_tail. *)
Corollary uniform_lemma7_mcd_tail (C : list (nat -> R)) (H : C <> []) (m l : nat) (rho : R)
    (k : positive) (delta gamma : R) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) -> 1 < gamma ->
  P (uniform_seq C H l)
    (fun s => Rltb ((gamma - 1) / 2 * rho) (vnorm m (fun j => vmean s j - vmean C j)))
    <= exp (mcd_root k delta / 2) * exp (- (INR l * mcd_exponent k delta gamma)).
Proof.
  intros Rad G. pose proof (sqrt_pos (2 * ln (2 * Rpos k / delta))) as W0. fold (mcd_root k delta) in W0.
  replace (mcd_exponent k delta gamma)
    with (((gamma - 1) / 2) ^ 2 / 2 * (mcd_root k delta / (1 + mcd_root k delta)))
    by (unfold mcd_exponent; field; lra).
  apply uniform_lemma7_mcdiarmid; [exact Rad | lra | exact W0].
Qed.

(* ---- Lemma 7 as the paper proves it, with McDiarmid: s draws with assignment coins ----------
   The proof of Lemma 7 (lemma:distance_ran) draws s i.i.d. pairs (X_i, xi_i): X_i uniform on C_p,
   xi_i ~ Bernoulli(q_assign) independent of X_i (the draw's assignment is known), and bounds
   P(the mean of the known X_i is more than eps r(C_p) from mu_p) by the binomial mixture
   sum_l C(s,l) qa^l (1-qa)^(s-l) (tail at l).  Here no known draw (l = 0) counts as a failure
   (Theorem1.v: Phase 1 then gives no p), and the tail at l is H e^{-l c}, so the mixture is
   H (1 - qa + qa e^{-c})^s, proved by induction on s without binomial coefficients. *)

(* The draws whose assignment is known, in draw order. *)
Definition known {A} (t : list (A * bool)) : list A := map fst (filter snd t).
Arguments known {A} t : simpl never.

Section Mixture.
Context {A : Type} (d : Dist A) (qa : R) (Hqa : 0 <= qa <= 1).

Lemma E_known_S (s : nat) (G : list A -> R) :
  E (iid (prod d (bernoulli qa Hqa)) (S s)) (fun t => G (known t)) =
  qa * E d (fun x => E (iid (prod d (bernoulli qa Hqa)) s) (fun t => G (x :: known t))) +
  (1 - qa) * E (iid (prod d (bernoulli qa Hqa)) s) (fun t => G (known t)).
Proof.
  rewrite E_iid_S, E_prod.
  rewrite (E_ext_support d _ (fun x => qa * E (iid (prod d (bernoulli qa Hqa)) s)
                                             (fun t => G (x :: known t))
                                      + (1 - qa) * E (iid (prod d (bernoulli qa Hqa)) s)
                                                     (fun t => G (known t)))).
  - rewrite E_plus, E_scale, E_const. reflexivity.
  - intros w a _. unfold E at 1. cbn [outcomes bernoulli wsum fst snd].
    change (fun t => G (known ((a, true) :: t))) with (fun t => G (a :: known t)).
    change (fun t => G (known ((a, false) :: t))) with (fun t => G (known t)).
    ring.
Qed.

(* If l draws from d make G at most H e^{-(l + j) c} on average, for every l, then G of the known
   draws among s is at most H e^{-j c} (1 - qa + qa e^{-c})^s on average. *)
Lemma known_mixture_bound (H c : R) (s : nat) :
  forall (j : nat) (G : list A -> R),
  (forall l, E (iid d l) G <= H * exp (- (INR (l + j) * c))) ->
  E (iid (prod d (bernoulli qa Hqa)) s) (fun t => G (known t))
    <= H * exp (- (INR j * c)) * (1 - qa + qa * exp (- c)) ^ s.
Proof.
  induction s as [| s IH]; intros j G HG.
  - simpl iid. rewrite E_ret. specialize (HG O). simpl iid in HG. rewrite E_ret in HG.
    simpl plus in HG. simpl pow. rewrite Rmult_1_r. exact HG.
  - rewrite E_known_S, E_swap.
    set (G' := fun u => E d (fun x => G (x :: u))).
    assert (HG' : forall l, E (iid d l) G' <= H * exp (- (INR (l + S j) * c))).
    { intro l. unfold G'. rewrite <- E_swap, <- E_iid_S.
      replace (l + S j)%nat with (S l + j)%nat by lia. apply HG. }
    pose proof (IH (S j) G' HG') as I1. pose proof (IH j G HG) as I2.
    unfold G' in I1.
    assert (Ej : exp (- (INR (S j) * c)) = exp (- (INR j * c)) * exp (- c)).
    { rewrite <- exp_plus. f_equal. rewrite S_INR. ring. }
    rewrite Ej in I1.
    apply Rle_trans with (qa * (H * (exp (- (INR j * c)) * exp (- c)) * (1 - qa + qa * exp (- c)) ^ s)
                          + (1 - qa) * (H * exp (- (INR j * c)) * (1 - qa + qa * exp (- c)) ^ s)).
    + apply Rplus_le_compat; apply Rmult_le_compat_l; lra.
    + right. simpl pow. ring.
Qed.
End Mixture.

(* The failure event of Phase 1 for the known draws u: none, or their mean farther than thr from
   mu (Theorem1.v's phase1_bad: no p, or d(mu'_p, mu_p) > eps r(C_p)). *)
Definition mean_bad (m : nat) (mu : nat -> R) (thr : R) (u : list (nat -> R)) : bool :=
  match u with [] => true | _ => Rltb thr (vnorm m (fun j => vmean u j - mu j)) end.

Theorem lemma7_mcdiarmid_draws (C : list (nat -> R)) (HC : C <> []) (m : nat) (rho : R)
    (k : positive) (delta gamma qa : R) (Hqa : 0 <= qa <= 1) (s : nat) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) -> 1 < gamma ->
  P (iid (prod (uniform C HC) (bernoulli qa Hqa)) s)
    (fun t => mean_bad m (vmean C) ((gamma - 1) / 2 * rho) (known t))
  <= exp (mcd_root k delta / 2) * (1 - qa + qa * exp (- mcd_exponent k delta gamma)) ^ s.
Proof.
  intros Rad G. unfold P.
  replace (exp (mcd_root k delta / 2))
    with (exp (mcd_root k delta / 2) * exp (- (INR 0 * mcd_exponent k delta gamma)))
    by (simpl INR; rewrite Rmult_0_l, Ropp_0, exp_0; ring).
  apply (known_mixture_bound (uniform C HC) qa Hqa _ _ s O
           (fun u => ind (mean_bad m (vmean C) ((gamma - 1) / 2 * rho) u))).
  intro l. rewrite Nat.add_0_r. destruct l as [| l'].
  - simpl iid. rewrite E_ret. simpl INR. rewrite Rmult_0_l, Ropp_0, exp_0, Rmult_1_r.
    unfold ind. simpl. rewrite <- exp_0. apply exp_mono.
    pose proof (sqrt_pos (2 * ln (2 * Rpos k / delta))). unfold mcd_root. lra.
  - eapply Rle_trans; [| apply (uniform_lemma7_mcd_tail C HC m (S l') rho k delta gamma Rad G)].
    right. unfold P, uniform_seq. apply E_ext_support. intros w u Hin.
    pose proof (iid_length _ _ w u Hin) as Lu. destruct u as [| y u']; [discriminate |].
    reflexivity.
Qed.

(* Lemma 7 with eta_mcdiarmid: s >= eta >= eta_mcdiarmid draws and an assignment probability
   qa >= q^{k-1} make Phase 1 fail with probability at most delta/(2k). *)
Theorem lemma7_mcdiarmid (C : list (nat -> R)) (HC : C <> []) (m : nat) (rho : R)
    (k : positive) (delta gamma q qa : R) (Hqa : 0 <= qa <= 1) (s : nat) (eta : R) :
  (forall c, In c C -> vnorm m (fun j => c j - vmean C j) <= rho) ->
  0 < delta < 1 -> 1 < gamma -> 0 < q <= 1 -> q ^ (Pos.to_nat k - 1) <= qa ->
  eta_mcdiarmid k delta gamma q <= eta -> eta <= INR s ->
  P (iid (prod (uniform C HC) (bernoulli qa Hqa)) s)
    (fun t => mean_bad m (vmean C) ((gamma - 1) / 2 * rho) (known t))
  <= delta / (2 * Rpos k).
Proof.
  intros Rad D G Q Qa Eta S.
  set (c := mcd_exponent k delta gamma). set (a := q ^ (Pos.to_nat k - 1)).
  assert (C0 : 0 < c) by (apply mcd_exponent_pos; assumption).
  assert (A : 0 < a <= 1) by (apply q_assign_range, Q).
  assert (X : 0 < mixture a c < 1) by (apply mixture_range; assumption).
  assert (Ec : exp (- c) < 1) by (rewrite <- exp_0; apply exp_increasing; lra).
  eapply Rle_trans; [apply (lemma7_mcdiarmid_draws C HC m rho k delta gamma qa Hqa s Rad G) |].
  fold c. eapply Rle_trans; [| apply (eta_mcdiarmid_inverts k delta gamma q eta D G Q); exact Eta].
  unfold mcd_tail. fold c a. apply Rmult_le_compat_l; [left; apply exp_pos |].
  (* (1 - qa + qa e^{-c})^s <= mixture(q^{k-1}, c)^s <= mixture(q^{k-1}, c)^eta *)
  apply Rle_trans with (mixture a c ^ s).
  - pose proof (exp_pos (- c)). fold a in Qa. apply pow_incr. split.
    + assert (0 <= qa * exp (- c)) by (apply Rmult_le_pos; lra). lra.
    + unfold mixture. assert (0 <= (qa - a) * (1 - exp (- c))) by (apply Rmult_le_pos; lra).
      lra.
  - rewrite <- Rpower_pow by lra. unfold Rpower. apply exp_mono.
    assert (ln (mixture a c) < 0) by (rewrite <- ln_1; apply ln_increasing; lra).
    nra.
Qed.

(* ---- Theorem 1 at eta >= eta_mcdiarmid, on Theorem1.v's concrete space ---------------------- *)
Section Theorem1McDiarmid.
(* Theorem1.v's setting with eta_mcdiarmid in place of eta_random: no dimension m (eta_mcdiarmid
   does not depend on it); delta < 1 so that L = ln(2k/delta) > 0
   (BoundsMcDiarmid.eta_mcdiarmid_inverts). *)
Variables (k n : positive) (delta gamma q eta : R) (beta : nat).
Hypothesis delta_range : 0 < delta < 1.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis q_range : 0 < q < 1.
Hypothesis eta_enough : eta_mcdiarmid k delta gamma q <= eta.
Hypothesis beta_enough : beta_union k n delta q <= INR beta.

Let K : nat := Pos.to_nat k.
Let n_rows : nat := Pos.to_nat n.
Let steps : nat := Pos.to_nat (bit_width n).

Variable M : Metric.MetricSpace.
Variables (label : nat -> nat) (pt center : nat -> Metric.carrier M).
Hypothesis label_range : forall x, (x < n_rows)%nat -> (label x < K)%nat.
Hypothesis margin : forall x y, (x < n_rows)%nat -> (y < n_rows)%nat -> label y <> label x ->
  gamma * Metric.dist (pt x) (center (label x)) < Metric.dist (pt y) (center (label x)).

(* The randomness (Theorem1.v): w = (a, t), a ~ d1 the rest of the run's randomness, t Phase 2's
   erasure coins (Erasure.v), not-sure with probability 1 - q~, q~ >= q. *)
Variable A1 : Type.
Variable d1 : Dist A1.
Variable qt : R.
Hypothesis qt_range : 0 <= qt <= 1.
Hypothesis qt_ge_q : q <= qt.
Let Omega : Type := (A1 * Erasure.Table)%type.
Let law : Dist Omega := prod d1 (Erasure.erasure_law K steps beta qt qt_range).

Variable phase1 : Omega -> nat -> option (nat * Metric.carrier M).
Let erased (w : Omega) (i j b : nat) : bool := Erasure.erased_at (snd w) i j b.

Let phase1_bad (i : nat) : Omega -> bool :=
  Algorithm1.phase1_bad_b M n_rows label pt center gamma Omega phase1 erased beta i.
Let step_fails (i j : nat) : Omega -> bool :=
  Algorithm1.step_fails_b M n_rows label pt Omega phase1 erased beta i j.
Let iteration_ok (i : nat) (w : Omega) : bool :=
  andb (negb (phase1_bad i w)) (forallb (fun j => negb (step_fails i j w)) (seq 0 steps)).

(* Lemma 7 with McDiarmid for the run: iteration i's Phase 1 (after good iterations) fails with
   probability at most mcd_tail = e^{mcd_root/2} (1 - q^{k-1} + q^{k-1} e^{-mcd_exponent})^eta.
   Proved above in the model of the paper's proof (lemma7_mcdiarmid: s draws from C_p, each
   assignment-known with probability >= q^{k-1} independently of its identity); for the run it
   needs, as Theorem1.lemma7_tail does, the conditioning on the earlier iterations, the
   pigeonhole step and the exchangeability of Z_p's points given the draws' clusters and coins,
   with uniform_lemma7_mcd_tail's H e^{-l c} in place of (m+1) e^{-l eps^2/2}. *)
Hypothesis lemma7_tail_mcdiarmid :
  forall i, (i < K)%nat ->
  P law (fun w => andb (forallb (fun i' => iteration_ok i' w) (seq 0 i)) (phase1_bad i w))
    <= mcd_tail k delta gamma q eta.

(* Theorem 1 at eta >= eta_mcdiarmid, beta >= beta_union: P(not recovered) <= delta. *)
Theorem theorem1_mcdiarmid_given_lemma7 :
  P law (fun w => negb (Algorithm1.recovered_b M n_rows K label pt Omega phase1 erased beta w))
    <= delta.
Proof.
  set (first_bad_center := fun i w =>
         andb (forallb (fun i' => iteration_ok i' w) (seq 0 i)) (phase1_bad i w)).
  set (iter_bad := fun i w =>
         orb (first_bad_center i w) (existsb (fun j => step_fails i j w) (seq 0 steps))).
  assert (Kpos : INR K = Rpos k).
  { unfold K, Rpos. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. }
  assert (Hk : 0 < Rpos k) by apply Rpos_pos.
  assert (T1 : mcd_tail k delta gamma q eta <= delta / (2 * Rpos k)).
  { apply eta_mcdiarmid_inverts; [exact delta_range | exact gamma_gt_1 | lra | exact eta_enough]. }
  assert (T2 : INR steps * (1 - q) ^ beta <= delta / (2 * Rpos k))
    by (apply (Theorem1.phase2_target k n delta q beta); [lra | exact q_range | exact beta_enough]).
  eapply Rle_trans.
  { apply P_monotone with (e2 := fun w => existsb (fun i => iter_bad i w) (seq 0 K)).
    intros w NR.
    destruct (Theorem1.bad_run_has_bad_event k n gamma beta gamma_gt_1 M label pt center
                label_range margin A1 phase1 w NR) as [i [Hi B]].
    apply existsb_exists. exists i. split; [apply in_seq; lia |].
    unfold iter_bad. apply Bool.orb_true_iff. destruct B as [B | [j [Hj B]]]; [left; exact B |].
    right. apply existsb_exists. exists j. split; [apply in_seq; lia | exact B]. }
  eapply Rle_trans; [apply Theorem1.finite_union |].
  eapply Rle_trans.
  { apply (Theorem1.rsum_le K _ (fun _ => delta / (2 * Rpos k) + delta / (2 * Rpos k))).
    intros i Hi. unfold iter_bad.
    eapply Rle_trans; [apply P_subadditive |]. apply Rplus_le_compat.
    - eapply Rle_trans; [apply lemma7_tail_mcdiarmid; exact Hi | exact T1].
    - eapply Rle_trans; [apply Theorem1.finite_union |].
      eapply Rle_trans; [apply (Theorem1.rsum_le steps _ (fun _ => (1 - q) ^ beta)) |].
      + intros j Hj. apply (Theorem1.erasure_tail k n q beta M label pt A1 d1 qt qt_range qt_ge_q
                              phase1 i j Hi Hj).
      + rewrite Theorem1.rsum_const. exact T2. }
  rewrite Theorem1.rsum_const, Kpos. right. field. lra.
Qed.
End Theorem1McDiarmid.
