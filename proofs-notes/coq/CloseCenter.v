(* Lemma 6 (lemma:close_center; Lemma 5 of Ashtiani et al. 2016) and its tightness.
   Note: proofs-notes/lemma5-close-center.md. *)
From Coq Require Import Reals Lra.
From SSAC Require Import Metric.
Open Scope R_scope.

Section CloseCenter.
Variable M : MetricSpace.
(* X: the data; C: the cluster C_i; mu: its center; r: r(C_i) = max_{x in C_i} d(x, mu). *)
Variables (X C : M -> Prop) (mu mu' : M) (gamma eps r : R).

Hypothesis radius_bounds : forall x, C x -> dist x mu <= r.
Hypothesis radius_attained : exists x0, C x0 /\ dist x0 mu = r.
(* Definition 2, the gamma-margin property, for the cluster C_i. *)
Hypothesis margin : forall x y, C x -> X y -> ~ C y -> gamma * dist x mu < dist y mu.
Hypothesis eps_small : eps <= (gamma - 1) / 2.

(* The lemma with d(mu', mu) <= eps r(C_i): the strictness comes from the margin, so the weak
   inequality suffices (Lemma 7 bounds P(d > eps r), whose complement is d <= eps r). *)
Theorem close_center_le :
  dist mu' mu <= eps * r ->
  forall x y, C x -> X y -> ~ C y -> dist x mu' < dist y mu'.
Proof.
  intros Hclose x y Cx Xy Cy.
  destruct radius_attained as [x0 [Cx0 Hx0]].
  assert (Hr : 0 <= r) by (rewrite <- Hx0; apply dist_nonneg).
  (* d(x, mu') <= d(x, mu) + d(mu, mu') <= r + eps r *)
  assert (Hx : dist x mu' <= r + eps * r).
  { pose proof (dist_triangle M x mu mu') as T. rewrite (dist_sym M mu mu') in T.
    pose proof (radius_bounds x Cx). lra. }
  (* d(y, mu') >= d(y, mu) - d(mu', mu) > gamma r - eps r, via x0 attaining r *)
  assert (Hy : gamma * r - eps * r < dist y mu').
  { pose proof (margin x0 y Cx0 Xy Cy) as G. rewrite Hx0 in G.
    pose proof (dist_triangle M y mu' mu). lra. }
  (* gamma r - eps r >= r + eps r  iff  (gamma - 1 - 2 eps) r >= 0 *)
  assert (Hgap : r + eps * r <= gamma * r - eps * r).
  { assert (0 <= (gamma - 1 - 2 * eps) * r) by (apply Rmult_le_pos; lra). lra. }
  lra.
Qed.

(* Lemma 6 as the paper states it (d(mu', mu) < eps r(C_i)). *)
Theorem close_center :
  dist mu' mu < eps * r ->
  forall x y, C x -> X y -> ~ C y -> dist x mu' < dist y mu'.
Proof. intros H. apply close_center_le. lra. Qed.
End CloseCenter.

(* ---- Tightness: for every gamma > 1 and eps > (gamma-1)/2 the conclusion fails on a
   two-cluster instance of the real line that satisfies every hypothesis of the paper's setting:
   C_1 = {-1, 1} (mean 0, radius 1), C_2 = {y, y+2} (mean y+1, radius 1) with
   y = gamma + e, e = eps - (gamma-1)/2 > 0, and mu' = (gamma-1)/2 + 3e/4.  The clustering is
   center-based (Definition 1: each point strictly closer to its own mean), has the gamma-margin
   property (Definition 2) for both clusters, d(mu', mu_1) < eps r(C_1), and yet the outsider y
   is strictly closer to mu' than the member -1. *)
Section Tightness.
Variables gamma eps : R.
Hypothesis gamma_gt_1 : 1 < gamma.
Hypothesis eps_above : (gamma - 1) / 2 < eps.
(* Every lemma of the section takes both hypotheses, so they are used uniformly below. *)
Local Set Default Proof Using "All".

Let e := eps - (gamma - 1) / 2.
Let y := gamma + e.
Definition tight_C1 (x : R) : Prop := x = -1 \/ x = 1.
Definition tight_C2 (x : R) : Prop := x = y \/ x = y + 2.
Definition tight_X (x : R) : Prop := tight_C1 x \/ tight_C2 x.
Definition tight_mu1 : R := 0.
Definition tight_mu2 : R := y + 1.
Definition tight_mu' : R := (gamma - 1) / 2 + 3 * e / 4.

Local Ltac absolve :=
  unfold Rabs; repeat match goal with |- context [Rcase_abs ?a] => destruct (Rcase_abs a) end;
  lra.

Lemma tight_means : tight_mu1 = (-1 + 1) / 2 /\ tight_mu2 = (y + (y + 2)) / 2.
Proof. unfold tight_mu1, tight_mu2. split; lra. Qed.

Lemma tight_radius1 :
  (forall x, tight_C1 x -> Rabs (x - tight_mu1) <= 1) /\ Rabs (-1 - tight_mu1) = 1.
Proof.
  unfold tight_C1, tight_mu1. split; [intros x [-> | ->] |]; absolve.
Qed.

Lemma tight_radius2 :
  (forall x, tight_C2 x -> Rabs (x - tight_mu2) <= 1) /\ Rabs (y - tight_mu2) = 1.
Proof.
  unfold tight_C2, tight_mu2. split; [intros x [-> | ->] |]; absolve.
Qed.

Lemma tight_e_pos : 0 < e.
Proof. unfold e. lra. Qed.

(* Definition 1: every point is strictly closer to its own cluster's mean. *)
Lemma tight_center_based :
  (forall x, tight_C1 x -> Rabs (x - tight_mu1) < Rabs (x - tight_mu2)) /\
  (forall x, tight_C2 x -> Rabs (x - tight_mu2) < Rabs (x - tight_mu1)).
Proof.
  pose proof tight_e_pos. unfold tight_C1, tight_C2, tight_mu1, tight_mu2, y.
  split; intros x [-> | ->]; absolve.
Qed.

(* Definition 2 for both clusters. *)
Lemma tight_margin :
  (forall x z, tight_C1 x -> tight_X z -> ~ tight_C1 z ->
     gamma * Rabs (x - tight_mu1) < Rabs (z - tight_mu1)) /\
  (forall x z, tight_C2 x -> tight_X z -> ~ tight_C2 z ->
     gamma * Rabs (x - tight_mu2) < Rabs (z - tight_mu2)).
Proof.
  pose proof tight_e_pos.
  unfold tight_X, tight_C1, tight_C2, tight_mu1, tight_mu2, y.
  split; intros x z Hx Hz Hn.
  - destruct Hz as [Hz | [-> | ->]]; [tauto | |]; destruct Hx as [-> | ->]; absolve.
  - destruct Hz as [[-> | ->] | Hz]; [| | tauto]; destruct Hx as [-> | ->]; absolve.
Qed.

Lemma tight_close : Rabs (tight_mu' - tight_mu1) < eps * 1.
Proof. pose proof tight_e_pos. unfold tight_mu', tight_mu1, e. absolve. Qed.

Lemma tight_fails : Rabs (y - tight_mu') < Rabs (-1 - tight_mu').
Proof. pose proof tight_e_pos. unfold tight_mu', y. absolve. Qed.

Lemma tight_witness :
  exists x z, tight_C1 x /\ tight_X z /\ ~ tight_C1 z /\
    Rabs (z - tight_mu') < Rabs (x - tight_mu').
Proof.
  exists (-1), y. pose proof tight_e_pos.
  unfold tight_X, tight_C1, tight_C2, y. repeat split.
  - left. reflexivity.
  - right. left. reflexivity.
  - intros [H1 | H1]; lra.
  - apply tight_fails.
Qed.
End Tightness.

(* Lemma 6 is tight.  For gamma > 1 and eps > (gamma-1)/2, the instance above (on RLine,
   d(x, y) = |x - y|) satisfies every premise of close_center with C := C_1, mu := 0, r := 1
   except eps <= (gamma-1)/2, is a center-based clustering with the gamma-margin property for
   both clusters and the means as centers, and the conclusion fails strictly. *)
Theorem close_center_tight (gamma eps : R) :
  1 < gamma -> (gamma - 1) / 2 < eps ->
  let d := dist (m := RLine) in
  let C1 := tight_C1 in let C2 := tight_C2 gamma eps in let X := tight_X gamma eps in
  let mu1 := tight_mu1 in let mu2 := tight_mu2 gamma eps in let mu' := tight_mu' gamma eps in
  (* the means *)
  mu1 = (-1 + 1) / 2 /\ mu2 = ((gamma + (eps - (gamma - 1) / 2))
                                 + (gamma + (eps - (gamma - 1) / 2) + 2)) / 2 /\
  (* premises of close_center for C_1, r(C_1) = 1 *)
  (forall x, C1 x -> d x mu1 <= 1) /\ (exists x0, C1 x0 /\ d x0 mu1 = 1) /\
  (forall x z, C1 x -> X z -> ~ C1 z -> gamma * d x mu1 < d z mu1) /\
  d mu' mu1 < eps * 1 /\
  (* the rest of the clustering: Definition 1 and Definition 2 for C_2 *)
  (forall x, X x -> (C1 x <-> ~ C2 x)) /\
  (forall x, C1 x -> d x mu1 < d x mu2) /\ (forall x, C2 x -> d x mu2 < d x mu1) /\
  (forall x z, C2 x -> X z -> ~ C2 z -> gamma * d x mu2 < d z mu2) /\
  (* and the conclusion fails *)
  exists x z, C1 x /\ X z /\ ~ C1 z /\ d z mu' < d x mu'.
Proof.
  intros Hg He. simpl.
  destruct (tight_radius1 gamma eps Hg He) as [R1 R1'].
  destruct (tight_center_based gamma eps Hg He) as [CB1 CB2].
  destruct (tight_margin gamma eps Hg He) as [M1 M2].
  assert (Hsep : forall x, tight_X gamma eps x ->
                   (tight_C1 x <-> ~ tight_C2 gamma eps x)).
  { pose proof (tight_e_pos gamma eps Hg He).
    unfold tight_X, tight_C1, tight_C2. intros x Hx. split.
    - intros [-> | ->] [H2 | H2]; lra.
    - intros Hn. destruct Hx as [Hx | Hx]; tauto. }
  destruct (tight_means gamma eps Hg He) as [Me1 Me2].
  refine (conj Me1 (conj Me2 (conj R1 (conj _ (conj M1 (conj _ (conj Hsep
            (conj CB1 (conj CB2 (conj M2 _)))))))))).
  - exists (-1). split; [left; reflexivity | exact R1'].
  - apply (tight_close gamma eps Hg He).
  - apply (tight_witness gamma eps Hg He).
Qed.
