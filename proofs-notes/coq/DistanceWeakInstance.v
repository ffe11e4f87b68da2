(* The corrected Theorems 2 and 3 have satisfiable hypotheses: an instance that meets all of them,
   checked by Coq, and both theorems applied to it.  Six rows on the line (R^1), C_0 = {-1, 0, 1}
   (rows 0-2) and C_1 = {9, 10, 11} (rows 3-5): means 0 and 10, radii 1; gamma = 3 (the margin
   holds up to 9), nu = 1, rho = 9/10 (so condition (b) fires: the two end points of a cluster are
   2 > 2 rho r = 1.8 apart and not-sure; for Definition 7 every end point lies beyond rho r, so
   every cross pair with one is not-sure), eps = 1/4, c = 2 rho - 1 = 4/5; x* and the anchors
   (seeds) are the rows at the means (1 and 4), at distance 0 < (c - 2 eps) r = 3/10;
   delta = 1/2. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import FiniteProb Metric MeanTail Theorem1Run DistanceWeak DistanceWeakRun Theorem2Run.
From SSAC Require Algorithm1 BoundsMcDiarmid.
Open Scope R_scope.

Definition ex_label (x : nat) : nat := if Nat.ltb x 3 then 0%nat else 1%nat.
Definition ex_val (x : nat) : R :=
  match x with O => -1 | 1%nat => 0 | 2%nat => 1 | 3%nat => 9 | 4%nat => 10 | _ => 11 end.
Definition ex_pt (x : nat) : nat -> R := fun _ => ex_val x.
Definition ex_star (t : nat) : nat := if Nat.eqb t 0 then 1%nat else 4%nat.

Lemma dist_line (u v : nat -> R) : dist (m := Euclid 1) u v = Rabs (u O - v O).
Proof.
  simpl. unfold vnorm, nsq, dot. simpl. rewrite Rplus_0_l.
  change ((u O - v O) * (u O - v O)) with (Rsqr (u O - v O)). apply sqrt_Rsqr_abs.
Qed.

Lemma vnorm1 (v : nat -> R) : vnorm 1 v = Rabs (v O).
Proof.
  unfold vnorm, nsq, dot. simpl. rewrite Rplus_0_l.
  change (v O * v O) with (Rsqr (v O)). apply sqrt_Rsqr_abs.
Qed.

Lemma ex_rows (t : nat) : cluster_rows 6 ex_label t = if Nat.eqb t 0 then [0; 1; 2]%nat else
  if Nat.eqb t 1 then [3; 4; 5]%nat else [].
Proof.
  unfold cluster_rows. simpl.
  destruct t as [| [| t]]; reflexivity.
Qed.

Lemma ex_center (t : nat) : (t < 2)%nat -> forall j, center_of 6 ex_label ex_pt t j = if Nat.eqb t 0 then 0 else 10.
Proof.
  intros Ht j. unfold center_of. rewrite ex_rows.
  destruct t as [| [| t]]; [| | lia]; unfold vmean; simpl; field.
Qed.

Lemma Rabs_val (a : R) : Rabs a = if Rle_dec 0 a then a else - a.
Proof. unfold Rabs. destruct (Rcase_abs a), (Rle_dec 0 a); lra. Qed.

Lemma ex_dist_center (x t : nat) : (t < 2)%nat ->
  dist (m := Euclid 1) (ex_pt x) (center_of 6 ex_label ex_pt t) = Rabs (ex_val x - if Nat.eqb t 0 then 0 else 10).
Proof. intro Ht. rewrite dist_line, ex_center by exact Ht. reflexivity. Qed.

Lemma ex_radius (t : nat) : (t < 2)%nat -> radius_of 6 1 ex_label ex_pt t = 1.
Proof.
  intro Ht. unfold radius_of, Algorithm1.radius, Algorithm1.rows.
  change (Pos.to_nat 6) with 6%nat.
  destruct t as [| [| t]]; [| | lia]; simpl;
    rewrite !vnorm1, !ex_center by lia; simpl; rewrite !Rabs_val;
    repeat (destruct (Rle_dec _ _); try lra);
    unfold Rmax; repeat (destruct (Rle_dec _ _); try lra).
Qed.

Lemma ex_label_range : forall x, (x < Pos.to_nat 6)%nat -> (ex_label x < Pos.to_nat 2)%nat.
Proof. intros x _. unfold ex_label. destruct (Nat.ltb x 3); simpl; lia. Qed.

Lemma ex_margin : forall x y, (x < Pos.to_nat 6)%nat -> (y < Pos.to_nat 6)%nat -> ex_label y <> ex_label x ->
  3 * dist (m := Euclid 1) (ex_pt x) (center_of 6 ex_label ex_pt (ex_label x)) <
  dist (m := Euclid 1) (ex_pt y) (center_of 6 ex_label ex_pt (ex_label x)).
Proof.
  intros x y Hx Hy L. change (Pos.to_nat 6) with 6%nat in Hx, Hy.
  rewrite !ex_dist_center by (unfold ex_label; destruct (Nat.ltb x 3); lia).
  destruct x as [| [| [| [| [| [| x]]]]]]; try lia;
    destruct y as [| [| [| [| [| [| y]]]]]]; try lia;
    unfold ex_label in L; simpl in L; try congruence;
    unfold ex_label, ex_val; simpl; rewrite !Rabs_val;
    repeat (destruct (Rle_dec _ _); try lra).
Qed.

Lemma ex_close (x t : nat) (c0 : R) : (t < 2)%nat -> ex_star t = x -> 0 < c0 ->
  dist (m := Euclid 1) (ex_pt x) (center_of 6 ex_label ex_pt t) < c0 * radius_of 6 1 ex_label ex_pt t.
Proof.
  intros Ht <- C. rewrite ex_dist_center, ex_radius by exact Ht.
  destruct t as [| [| t]]; [| | lia]; simpl; rewrite Rabs_val; destruct (Rle_dec _ _); lra.
Qed.

(* Theorem 2' on this instance: whatever r >= 2 eta_McD(2, 1/2, 3/2, 1), the run with the local
   oracle (nu = 1, rho = 1) and anchors at the means outputs the clustering with probability at
   least 1/2.  Coq checks every hypothesis of `theorem2_local_corrected` here. *)
Theorem ex_theorem2 (r : nat) :
  INR 2 * BoundsMcDiarmid.eta_mcdiarmid 2 (1 / 2) (1 + 2 * (1 / 4)) 1 <= INR r ->
  P (run_law 2 6 1 r 1 one_range)
    (fun w => negb (dw_recovered 2 6 1 ex_label ex_pt
                     (definite_place 2 false ex_label
                        (local_oracle (Euclid 1) ex_label ex_pt (center_of 6 ex_label ex_pt)
                           (radius_of 6 1 ex_label ex_pt) 1 (9 / 10)) ex_star)
                     (algorithm3 (local_oracle (Euclid 1) ex_label ex_pt (center_of 6 ex_label ex_pt)
                                    (radius_of 6 1 ex_label ex_pt) 1 (9 / 10))) w)) <= 1 / 2.
Proof.
  intro Hr.
  assert (Ec : Rmin (2 * (9 / 10) - 1) (3 - 1 + 1) = 4 / 5) by (unfold Rmin; destruct (Rle_dec _ _); lra).
  apply (theorem2_local_corrected 2 6 1 false r (1 / 2) 3 1 (9 / 10) (1 / 4)
           (BoundsMcDiarmid.eta_mcdiarmid 2 (1 / 2) (1 + 2 * (1 / 4)) 1)) with (xstar := ex_star).
  - lra.
  - lra.
  - lra.
  - lra.
  - right. reflexivity.
  - exact Hr.
  - left. simpl. lia.
  - exact ex_label_range.
  - exact ex_margin.
  - intros t Ht. change (Pos.to_nat 2) with 2%nat in Ht. split; [| split].
    + unfold ex_star. destruct (Nat.eqb t 0); simpl; lia.
    + unfold ex_star, ex_label. destruct t as [| [| t]]; [reflexivity | reflexivity | lia].
    + rewrite Ec. apply ex_close; [exact Ht | reflexivity | lra].
  - intros t Ht. change (Pos.to_nat 2) with 2%nat in Ht. split; [| split].
    + unfold ex_star. destruct (Nat.eqb t 0); simpl; lia.
    + unfold ex_star, ex_label. destruct t as [| [| t]]; [reflexivity | reflexivity | lia].
    + rewrite Ec. apply ex_close; [exact Ht | reflexivity | lra].
Qed.

From SSAC Require Theorem3Run.

(* Theorem 3' on the same instance with the global oracle (rho = 9/10) and the seeds at the means. *)
Theorem ex_theorem3 (r : nat) :
  INR 2 * BoundsMcDiarmid.eta_mcdiarmid 2 (1 / 2) (1 + 2 * (1 / 4)) 1 <= INR r ->
  P (run_law 2 6 1 r 1 one_range)
    (fun w => negb (dw_recovered 2 6 1 ex_label ex_pt
                     (Theorem3Run.seed_place 2
                        (global_oracle (Euclid 1) ex_label ex_pt (center_of 6 ex_label ex_pt)
                           (radius_of 6 1 ex_label ex_pt) (9 / 10)) ex_star)
                     (algorithm3 (global_oracle (Euclid 1) ex_label ex_pt (center_of 6 ex_label ex_pt)
                                    (radius_of 6 1 ex_label ex_pt) (9 / 10))) w)) <= 1 / 2.
Proof.
  intro Hr.
  apply (Theorem3Run.theorem3_global_corrected 2 6 1 false r (1 / 2) 3 (9 / 10) (1 / 4)
           (BoundsMcDiarmid.eta_mcdiarmid 2 (1 / 2) (1 + 2 * (1 / 4)) 1)) with (xstar := ex_star).
  all: try exact Hr.
  all: try (right; reflexivity).
  all: try lra.
  all: try (left; simpl; lia).
  - exact ex_label_range.
  - exact ex_margin.
  - intros t Ht. change (Pos.to_nat 2) with 2%nat in Ht. split; [| split].
    + unfold ex_star. destruct (Nat.eqb t 0); simpl; lia.
    + unfold ex_star, ex_label. destruct t as [| [| t]]; [reflexivity | reflexivity | lia].
    + apply ex_close; [exact Ht | reflexivity | lra].
  - intros t Ht. change (Pos.to_nat 2) with 2%nat in Ht. split; [| split].
    + unfold ex_star. destruct (Nat.eqb t 0); simpl; lia.
    + unfold ex_star, ex_label. destruct t as [| [| t]]; [reflexivity | reflexivity | lia].
    + apply ex_close; [exact Ht | reflexivity | lra].
Qed.
