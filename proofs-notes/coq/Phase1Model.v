(* Phase 1 of one iteration (Algorithm 1, lines 3-8) as a computable function of its randomness,
   as lib/src/algorithm/ssac.cpp's Run::phase1 computes it (proofs-notes/semantics.md S1-S4, S7,
   S8; proofs-notes/phase1-model.md for the modelling decisions):
   - the r draws (line 4, with replacement, S1) are given as positions in S_i (a list of rows);
   - each draw carries its coins, one per query of Definition 4 in the order Run::assign asks them
     (the known clusters in discovery order; true = the answer is not-sure); a draw's coin list
     may be longer than the number of known clusters (the run gives every draw k coins), the
     extra coins are not read (`assign` combines the known clusters with the coins);
   - Definition 4 is Phase1.assign (S2's elimination when `elim`, S3's opening, S4: self-pairs are
     asked like any pair, so a draw that is itself an anchor reads a coin as well);
   - the clusters are named by the oracle's labels (an oracle that never lies makes the run's own
     cluster numbers a renaming of them, Algorithm1.v); an anchor is then only its cluster: with
     self-pairs asked, the answer to Q(x, anchor) depends on the anchor's row only through its
     cluster, so the anchor rules' choices of rows do not change Phase 1's outcome;
   - line 8: counts[t] = |Z_t| for the known clusters in discovery order after all draws, p by
     Phase1.choose_cluster (ties to the earliest-discovered, S7), none when nothing was placed
     (S8); Z_p is the multiset of the draws placed in p, in draw order; mu'_p their mean.
   Every function here computes on nat and bool only, except `phase1_outcome`/`phase1_pick`,
   which add the mean of Z_p's points (MeanTail.vmean) for the proofs. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
From SSAC Require Import Phase1 MeanTail.

(* One draw of line 4: its position in S_i and its coins. *)
Definition draw : Type := (nat * list bool)%type.

Section Model.
(* k clusters; elim: S2's elimination (Params::eliminates). *)
Variables (k : nat) (elim : bool).

(* Lines 5-7 on the draws' skeleton (each draw's oracle label and coins): the cluster each draw is
   placed in (None: not placed) and the known clusters after the last draw.  An opening places the
   draw in its own cluster, which becomes known (S3). *)
Fixpoint assign_labels (known : list nat) (sk : list (nat * list bool))
  : list (option nat) * list nat :=
  match sk with
  | [] => ([], known)
  | (lx, cs) :: sk' =>
      match assign k elim known lx cs with
      | Placed t => let rest := assign_labels known sk' in (Some t :: fst rest, snd rest)
      | Opens =>
          let rest := assign_labels (known ++ [lx]) sk' in (Some lx :: fst rest, snd rest)
      | Unplaced => let rest := assign_labels known sk' in (None :: fst rest, snd rest)
      end
  end.

(* Whether a draw's placement is cluster p. *)
Definition in_cluster (p : nat) (o : option nat) : bool :=
  match o with Some t => Nat.eqb t p | None => false end.

(* counts[t] for the known clusters, in discovery order (Run::phase1's counts). *)
Definition cluster_counts (known : list nat) (placements : list (option nat)) : list nat :=
  map (fun t => length (filter (in_cluster t) placements)) known.

(* Line 8's p (None: every cluster-assignment query not-sure, no p, S8). *)
Definition choose_p (known : list nat) (placements : list (option nat)) : option nat :=
  match choose_cluster (cluster_counts known placements) with
  | O => None
  | S j => Some (nth j known O)
  end.

(* The elements of l at the positions where mask is true, in order. *)
Definition select {A} (mask : list bool) (l : list A) : list A :=
  map snd (filter fst (combine mask l)).

Section OnS.
(* The oracle's labels of the rows; S_i as a list of rows. *)
Variables (label : nat -> nat) (S : list nat).

Definition draw_row (d : draw) : nat := nth (fst d) S O.

Definition skeleton (ds : list draw) : list (nat * list bool) :=
  map (fun d => (label (draw_row d), snd d)) ds.

(* Lines 4-8 from the clusters known at the start of the iteration: p and the positions in S_i
   of Z_p's draws, in draw order (a row drawn twice and placed twice counts twice). *)
Definition phase1_zp_positions (known : list nat) (ds : list draw) : option (nat * list nat) :=
  let asg := assign_labels known (skeleton ds) in
  match choose_p (snd asg) (fst asg) with
  | None => None
  | Some p => Some (p, select (map (in_cluster p) (fst asg)) (map fst ds))
  end.

(* The same with Z_p as rows: the function the extracted run uses. *)
Definition phase1_zp (known : list nat) (ds : list draw) : option (nat * list nat) :=
  match phase1_zp_positions known ds with
  | None => None
  | Some (p, pos) => Some (p, map (fun j => nth j S O) pos)
  end.

(* The clusters known after the iteration's Phase 1 (the next iteration starts from them). *)
Definition phase1_known (known : list nat) (ds : list draw) : list nat :=
  snd (assign_labels known (skeleton ds)).

Section Points.
(* The rows' points in R^m. *)
Variable pt : nat -> (nat -> R).

(* p, Z_p and mu'_p = the mean of Z_p's points (Run::estimate_center). *)
Definition phase1_outcome (known : list nat) (ds : list draw)
  : option (nat * list nat * (nat -> R)) :=
  match phase1_zp known ds with
  | None => None
  | Some (p, Z) => Some (p, Z, vmean (map pt Z))
  end.

(* Algorithm1.v's view of Phase 1: a position in S_i of a point of Z_p (its first draw) and
   mu'_p. *)
Definition phase1_pick (known : list nat) (ds : list draw) : option (nat * (nat -> R)) :=
  match phase1_zp_positions known ds with
  | Some (p, j :: pos) => Some (j, vmean (map pt (map (fun j => nth j S O) (j :: pos))))
  | _ => None
  end.
End Points.
End OnS.
End Model.

Local Open Scope nat_scope.
(* Four runs by hand (rows 0..3, label = row mod 2, k = 2, nothing known at the start): the first
   draw opens its cluster (no anchor to ask); a yes places; with both clusters known a not-sure
   and a no place by S2's elimination only when `elim`; equal counts go to the earliest-discovered
   cluster (S7). *)
Example phase1_zp_elim :
  phase1_zp 2 true (fun x => Nat.modulo x 2) [0; 1; 2; 3] []
    [(0, [false; false]); (1, [false; false]); (2, [false; false]); (3, [true; false]);
     (2, [true; false])] = Some (0, [0; 2; 2]).
Proof. reflexivity. Qed.
Example phase1_zp_no_elim :
  phase1_zp 2 false (fun x => Nat.modulo x 2) [0; 1; 2; 3] []
    [(0, [false; false]); (1, [false; false]); (2, [false; false]); (3, [true; false]);
     (2, [true; false])] = Some (0, [0; 2]).
Proof. reflexivity. Qed.
Example phase1_zp_tie :
  phase1_zp 2 true (fun x => Nat.modulo x 2) [0; 1; 2; 3] [] [(1, [false; false]); (0, [false; false])]
  = Some (1, [1]).
Proof. reflexivity. Qed.
Example phase1_zp_nothing :
  phase1_zp 2 true (fun x => Nat.modulo x 2) [0; 1; 2; 3] [0; 1] [(3, [true; true])] = None.
Proof. reflexivity. Qed.
