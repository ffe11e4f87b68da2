(* Runs the model extracted by ExtractDistanceWeak.v on the runs coq_dw_driver prints
   (dw_driver.cpp: "#run", "#margin", "#point" lines, then the trace) and compares its events with
   the trace's (docs/trace-format.md).

   The model: RunModel.run, the run by rows (every search and anchor rule of lib), whose every
   query is answered by the extracted DistanceWeak.local_oracle (Definition 6, (nu, rho)) or
   DistanceWeak.global_oracle (Definition 7, rho), with nu and rho from the trace's header and
   mu_i, r(C_i) of the oracle's clustering (the mean of C_i's rows in increasing order, as lib's
   mean_of_rows, and the largest distance of a row of C_i to it).  RunModel.run reads an answer
   as Definition 5's of the truth and an erasure coin (Phase1.weak_answer), and DistanceWeak's
   answer is weak_truth: not-sure when a condition holds, the truth otherwise; so the coin of each
   query is "the model's oracle says not-sure on this pair".  The pair is the one the trace
   records at that query's place (the c-th Phase-1 query of iteration i, the answers of step s);
   every query event is compared, pair and answer, so on a run that agrees the model asked the
   same pairs and its oracle gave lib's answer to each.  Compared: S_i's size, the draws, the
   anchor draws, every query (pair, purpose, answer), the placements, p, Z_p, x_1, mu'_p, every
   search step (position, row, B's rows, decision), the outcome with j*, r'_i and C'_p, the final
   labels (Run_common, from run_checker.ml).

   The reals are floats (ExtractDistanceWeak.v).  A run counts only if its float comparisons are
   the exact ones: Run_common.exact_rows for line 10's order, r'_i and C'_p, and for every queried
   pair each comparison of Definitions 6 and 7 (d(x, y) with 2 rho r(C_i); d(x, y) with
   (nu - 1) min{d(x, mu_i), d(y, mu_j)}; d(x, mu_i) with rho r(C_i)) has, in the floats the model
   computes, the outcome (<, =, >) it has in integers (with integer coordinates, |C_i|^2 d(x,
   mu_i)^2 is an integer; nu - 1 and rho are multiples of 1/4).  The pairs where a comparison is an
   equality are counted per condition: there <= and < differ.

   Also DistanceWeakRun.definite_place, the placement Theorem2Run.v's Phase 1 makes (Definition 4
   with the oracle's answers to one anchor row per cluster), on every draw of the runs under the
   opener rule with self-pairs asked (the opener of a cluster is its fixed anchor row, in the
   cluster), against lib's placement of the draw; every such run must agree.

   And DistanceWeakRun.v's run itself (dw_state, dw_iteration, dw_labels, with definite_place and
   Theorem2Run.algorithm3: the run Theorem 2' is about) on the runs under the opener rule,
   Algorithm 3 and self-pairs asked, its anchors the rows that opened the clusters in lib's run
   (`dw_run_difference`); every such run must agree.

   Control, on the same runs: the model with another anchor rule than lib's (opener <-> lowest
   labelled row, random labelled row <-> random known row); it must disagree on some run.  The
   mutants with <= for < in Definitions 6 and 7 are this checker compiled against a changed
   extraction (dw-differential-test.sh).
   Usage: dw_checker MIN < corpus.  Exit 0 when the model agrees with lib on every run it is
   compared on, at least MIN of them, and the control disagrees on some run; 1 otherwise.
   Summary lines on stdout, the first five disagreements on stderr. *)
open Run_extracted
open Run_common

(* The oracle's mu_i and r(C_i) (lib's cluster_stats), indexed by the label 1..k. *)
let stats (rn : run) (k : int) : float array array * float array =
  let m = Array.length rn.points.(0) in
  let centers = Array.make (k + 1) (Array.make m 0.0) and radii = Array.make (k + 1) 0.0 in
  for t = 1 to k do
    let rows = List.filter (fun x -> rn.labels.(x) = t) (List.init (Array.length rn.labels) Fun.id) in
    if rows <> [] then begin
      centers.(t) <- mean_array rn rows;
      radii.(t) <- List.fold_left (fun r x -> Float.max r (euclid rn.points.(x) centers.(t))) 0.0 rows
    end
  done;
  (centers, radii)

type oracle = { local : bool; nu : float; rho : float }

let header_oracle (header : json) : oracle =
  let o = field header "oracle" in
  let num k d = match field o k with Num f -> f | _ -> d in
  { local = to_str (field o "kind") = "local"; nu = num "nu" 1.0; rho = num "rho" 1.0 }

(* The model's answer to Q(x, y): DistanceWeak.v's Definition 6 or 7, extracted. *)
let model_oracle (rn : run) (o : oracle) (centers, radii) : int -> int -> answer =
  let label x = rn.labels.(x) and pt x = Obj.repr rn.points.(x) in
  let center t = Obj.repr centers.(t) and rad t = radii.(t) in
  if o.local then local_oracle metric label pt center rad o.nu o.rho
  else global_oracle metric label pt center rad o.rho

(* ---- The exact check of the oracle's comparisons on a pair ----------------------------- *)
let sq_key (rn : run) (t : int) (x : int) : int * int =
  (* |C_t|^2 d(x, mu_t)^2 and |C_t| *)
  let rows = List.filter (fun y -> rn.labels.(y) = t) (List.init (Array.length rn.labels) Fun.id) in
  let c = List.length rows in
  (key rn rows x, c)

let kmax (rn : run) (t : int) : int =
  List.fold_left (fun a y -> if rn.labels.(y) = t then max a (fst (sq_key rn t y)) else a) 0
    (List.init (Array.length rn.labels) Fun.id)

let sq_dist (rn : run) x y =
  let acc = ref 0 in
  Array.iteri (fun c v -> let d = int_of_float v - int_of_float rn.points.(y).(c) in acc := !acc + d * d)
    rn.points.(x);
  !acc

(* multiples of 1/4: 4 v *)
let quarters (v : float) : int =
  let q = 4.0 *. v in
  if Float.of_int (int_of_float q) <> q then failwith "nu - 1 or rho is not a multiple of 1/4";
  int_of_float q

(* The boundary pairs per condition: 6(a), 6(b), 7(a), 7(b). *)
let boundary = Array.make 4 0

(* Whether every comparison of the definition on (x, y) has its integer outcome in the floats. *)
let exact_pair (rn : run) (o : oracle) (centers, radii) x y : bool =
  let i = rn.labels.(x) and j = rn.labels.(y) in
  let dxy = euclid rn.points.(x) rn.points.(y) and d2 = sq_dist rn x y in
  let a = quarters o.rho in
  let note c outcome = if outcome = 0 then boundary.(c) <- boundary.(c) + 1 in
  if i = j then begin
    (* d(x, y) vs 2 rho r(C_i): 16 |C_i|^2 D vs 4 a^2 Kmax_i *)
    let _, c = sq_key rn i x in
    let exact = compare (16 * c * c * d2) (4 * a * a * kmax rn i) in
    note (if o.local then 1 else 3) exact;
    compare dxy (2.0 *. o.rho *. radii.(i)) = exact
  end else if o.local then begin
    (* d(x, y) vs (nu - 1) min{d(x, mu_i), d(y, mu_j)}, nu - 1 = e/4: the min is N/Dn with
       d^2 = K/c^2; 16 D Dn vs e^2 N *)
    let e = quarters (o.nu -. 1.0) in
    let kx, cx = sq_key rn i x and ky, cy = sq_key rn j y in
    let n, dn = if kx * cy * cy <= ky * cx * cx then (kx, cx * cx) else (ky, cy * cy) in
    let exact = compare (16 * d2 * dn) (e * e * n) in
    note 0 exact;
    let dx = euclid rn.points.(x) centers.(i) and dy = euclid rn.points.(y) centers.(j) in
    compare dxy ((o.nu -. 1.0) *. Float.min dx dy) = exact
  end else begin
    (* d(x, mu_i) vs rho r(C_i): 16 K_i(x) vs a^2 Kmax_i, and the same for y *)
    let side z t =
      let kz, _ = sq_key rn t z in
      let exact = compare (16 * kz) (a * a * kmax rn t) in
      note 2 exact;
      compare (euclid rn.points.(z) centers.(t)) (o.rho *. radii.(t)) = exact in
    let sx = side x i in
    let sy = side y j in
    sx && sy
  end

(* The trace's choices with each query's coin "the model's oracle says not-sure on the pair the
   trace records there" (run_checker.ml's `choices`, the coin from the model instead of lib). *)
let dw_choices (rn : run) (dw : int -> int -> answer) : choices =
  let coin x y = (dw x y = NotSure, false) in
  let samples = Hashtbl.create 8 and q1 = Hashtbl.create 64 and anchors = Hashtbl.create 16
  and steps = Hashtbl.create 16 and nq1 = Hashtbl.create 8 and na = Hashtbl.create 8
  and first_q2 = ref None in
  let next tbl i = let c = try Hashtbl.find tbl i with Not_found -> 0 in Hashtbl.replace tbl i (c + 1); c in
  List.iter (fun e ->
      let i = to_int (field e "iteration") in
      match to_str (field e "event") with
      | "sample" -> Hashtbl.replace samples i (Array.of_list (to_ints (field e "rows")))
      | "anchor" -> Hashtbl.replace anchors (i, next na i) (to_int (field e "row"))
      | "query" when to_int (field e "phase") = 1 ->
          Hashtbl.replace q1 (i, next nq1 i) (coin (to_int (field e "x")) (to_int (field e "y")))
      | "query" ->
          if to_str (field e "purpose") = "search_x1" && !first_q2 = None then
            first_q2 := Some (to_int (field e "x"))
      | "step" ->
          let row = to_int (field e "row") in
          let ys = Array.of_list (to_ints (field e "sample")) in
          let a0 = to_str (field e "x1_answer") in
          let c0 = match !first_q2 with Some x when a0 <> "null" -> coin x row | _ -> (false, false) in
          first_q2 := None;
          Hashtbl.replace steps (i, to_int (field e "step") - 1) (c0, Array.map (fun y -> coin y row) ys, ys)
      | _ -> ())
    rn.events;
  let find tbl key d = try Hashtbl.find tbl key with Not_found -> d in
  { draw1 = (fun i s sl -> match Hashtbl.find_opt samples i with
        | Some a when s < Array.length a -> index_of a.(s) sl | _ -> 0);
    coin1 = (fun i c -> find q1 (i, c) (false, false));
    adraw = (fun i c rows -> match Hashtbl.find_opt anchors (i, c) with
        | Some row -> index_of row rows | None -> 0);
    coin2 = (fun i s b -> match Hashtbl.find_opt steps (i, s) with
        | Some (c0, _, _) when b = 0 -> c0
        | Some (_, cs, _) when b - 1 < Array.length cs -> cs.(b - 1)
        | _ -> (false, false));
    bdraw = (fun i s b zp -> match Hashtbl.find_opt steps (i, s) with
        | Some (_, _, ys) when b < Array.length ys -> index_of ys.(b) zp | _ -> 0) }

(* DistanceWeakRun.definite_place (Definition 4 with the oracle's answers Q(x, a_t), a_t the
   anchor row of cluster t, clusters named by their oracle label; Theorem2Run.v's Phase 1) for
   each draw of a run under the opener rule (a_t = the row that opened t, always in C_t), against
   lib's placement of the draw (its number: the cluster's discovery order, S3).  Returns the draws
   compared and whether each agrees. *)
let placements_agree (rn : run) (k : int) (elim : bool) (dw : int -> int -> answer) : int * bool =
  let label x = rn.labels.(x) in
  let known = ref [] (* (label, lib's number, opener row), discovery order *) in
  let sample = ref [||] and draws = ref 0 and ok = ref true in
  List.iter (fun e ->
      match to_str (field e "event") with
      | "sample" -> sample := Array.of_list (to_ints (field e "rows"))
      | "assignment" ->
          List.iteri (fun s number ->
              let x = !sample.(s) in
              let labels = List.map (fun (t, _, _) -> t) !known in
              let anchor t = match List.find_opt (fun (t', _, _) -> t' = t) !known with
                | Some (_, _, a) -> a | None -> -1 in
              incr draws;
              let fresh = number > 0 && not (List.exists (fun (_, u, _) -> u = number) !known) in
              (match definite_place k elim label dw anchor labels x with
               | Placed t ->
                   if not (List.exists (fun (t', u, _) -> t' = t && u = number) !known) then ok := false
               | Opens ->
                   if fresh then known := !known @ [(label x, number, x)] else ok := false
               | Unplaced -> if number <> 0 then ok := false))
            (to_ints (field e "clusters"))
      | _ -> ())
    rn.events;
  (!draws, !ok)

(* DistanceWeakRun.v's run (dw_state, dw_iteration, dw_labels: Theorem2Run.v's run with
   Phase1Model's Phase 1 by definite_place and Algorithm 3's search, Theorem2Run.algorithm3), on a
   run of lib under the opener rule, Algorithm 3 and self-pairs asked, with the anchor a_t of
   cluster t the row that opened t in lib's run (fixed once opened and never consulted before) and
   the oracle the model's.  Its randomness w = (blocks, table): draw s of iteration i is u = the
   drawn row's position in lib's S_i (increasing, as dw_state keeps it), no coins (definite_place
   reads none); the table is not read (Phase 2 asks the oracle).  Compared, per iteration with
   S_i non-empty: |S_i|, p (lib's number of the model's label) and mu'_p, C'_p (or none); the final
   labels.  Returns None when a float comparison is not the exact one, else the first
   difference. *)
let dw_run_difference (rn : run) (k : int) (elim : bool) (dw : int -> int -> answer)
  : (int * string * string) option option =
  let n = Array.length rn.labels and m = Array.length rn.points.(0) in
  let label x = rn.labels.(x) and pt x = fun c -> rn.points.(x).(c) in
  (* lib's clusters: label -> (number, opener row) *)
  let openers = Hashtbl.create 4 and number_of = Hashtbl.create 4 in
  let remaining = ref (List.init n Fun.id) and blocks = Array.make k [] in
  let sample = ref [||] and zps = Hashtbl.create 4 and lib = ref [] in
  let add l = lib := l :: !lib in
  List.iter (fun e ->
      let i = to_int (field e "iteration") in
      match to_str (field e "event") with
      | "iteration" when to_int (field e "remaining") > 0 ->
          add (Printf.sprintf "iteration %d remaining %d" i (to_int (field e "remaining")))
      | "sample" ->
          sample := Array.of_list (to_ints (field e "rows"));
          if i <= k then blocks.(i - 1) <- List.map (fun x -> (index_of x !remaining, [])) (Array.to_list !sample)
      | "assignment" ->
          let ts = to_ints (field e "clusters") in
          List.iteri (fun s t ->
              let x = !sample.(s) in
              if t > 0 && not (Hashtbl.mem number_of (label x)) && not (Hashtbl.mem openers t) then begin
                Hashtbl.replace openers t x; Hashtbl.replace number_of (label x) t
              end) ts;
          Hashtbl.replace zps i (List.combine (Array.to_list !sample) ts)
      | "cluster" ->
          let p = to_int (field e "p") in
          Hashtbl.replace zps i (List.filter_map (fun (x, t) -> if t = p then Some (x, t) else None)
                                   (Hashtbl.find zps i));
          add (Printf.sprintf "cluster %d p %d mu' %s" i p
                 (reals (match field e "center" with Arr l -> List.map (function Num f -> f | _ -> nan) l | _ -> [])))
      | "outcome" ->
          let c = to_ints (field e "assigned") in
          (match to_str (field e "outcome") with
           | "recovered" | "empty_cluster" -> add (Printf.sprintf "outcome %d C'_p %s" i (ints c))
           | "empty_remainder" -> ()
           | _ -> add (Printf.sprintf "outcome %d none" i));
          remaining := List.filter (fun x -> not (List.mem x c)) !remaining
      | "final" -> add (Printf.sprintf "final %s" (ints (to_ints (field e "labels"))))
      | _ -> ())
    (List.tl rn.events);
  (* a cluster lib never opened (the model's run has left lib's): its lowest row *)
  let anchor t = match Hashtbl.find_opt number_of t with
    | Some u -> Hashtbl.find openers u
    | None -> (match List.find_opt (fun x -> label x = t) (List.init n Fun.id) with Some x -> x | None -> 0) in
  let place = definite_place k elim label dw anchor and decide = algorithm3 dw in
  let w = (Array.to_list blocks, []) in
  let number t = try Hashtbl.find number_of t with Not_found -> -1 in
  let model = ref [] and exact = ref true in
  let add l = model := l :: !model in
  let rec go i =
    if i < k then begin
      let st = dw_state n m label pt place decide w i in
      let s = fst st in
      if s <> [] then begin
        add (Printf.sprintf "iteration %d remaining %d" (i + 1) (List.length s));
        (match dw_phase1 label pt place w i st with
         | None -> ()
         | Some (pos, mu) ->
             let mu_l = List.init m mu in
             add (Printf.sprintf "cluster %d p %d mu' %s" (i + 1) (number (label (List.nth s pos))) (reals mu_l));
             (* the exact check needs the model's mu'_p to be the mean of lib's Z_p, to the bit;
                when it is not, the model has left lib's run (a difference) *)
             let zp = match Hashtbl.find_opt zps (i + 1) with Some l -> List.map fst l | None -> [] in
             if zp = [] || Array.to_list (mean_array rn zp) <> mu_l then
               add (Printf.sprintf "cluster %d: mu'_p is not the mean of lib's Z_p to the bit" (i + 1))
             else begin
               let d x = Run_extracted.euclid m (Obj.repr (pt x)) (Obj.repr mu) in
               if not (fst (exact_on rn zp s d)) then exact := false
             end);
        (match snd (dw_iteration m label pt place decide w i st) with
         | Some (_, c) -> add (Printf.sprintf "outcome %d C'_p %s" (i + 1) (ints c))
         | None -> add (Printf.sprintf "outcome %d none" (i + 1)));
        go (i + 1)
      end
    end in
  go 0;
  add (Printf.sprintf "final %s" (ints (List.init n (fun x ->
      match dw_labels n m label pt place decide w k x with Some t -> number t | None -> 0))));
  if not !exact then None
  else Some (first_difference (List.rev !model) (List.rev !lib))

let other_anchor = function
  | AnchorOpener -> AnchorLowest | AnchorLowest -> AnchorOpener
  | AnchorRandomLabelled -> AnchorRandomKnown | AnchorRandomKnown -> AnchorRandomLabelled

(* ---- The corpus ------------------------------------------------------------------------- *)
let names = [| "the run by rows with Definition 6/7's answers"; "control: another anchor rule" |]
let agree = Array.make 2 0 and disagree = Array.make 2 0 and excluded = Array.make 2 0
let shown = ref 0 and runs_read = ref 0 and margin_runs = ref 0 and local_runs = ref 0
let excl_pair = ref 0 and excl_order = ref 0
let place_runs = ref 0 and place_agree = ref 0 and place_draws = ref 0
let dwrun_runs = ref 0 and dwrun_agree = ref 0 and dwrun_excluded = ref 0
let answers_compared = ref 0 and answers_equal = ref 0 and per_search = Hashtbl.create 4

let check (rn : run) (margin : bool) =
  incr runs_read;
  if margin then incr margin_runs;
  let header = List.hd rn.events in
  let ru = header_rules header and o = header_oracle header in
  if o.local then incr local_runs;
  let n = to_int (field header "n") and k = to_int (field header "k") in
  let r = to_int (field header "r") and beta = to_int (field header "beta") in
  let st = stats rn k in
  let dw = model_oracle rn o st in
  let w = dw_choices rn dw in
  (* every answer lib's oracle gave, against the model's, and the exactness of their comparisons *)
  let exact = ref true in
  List.iter (fun e ->
      if to_str (field e "event") = "query" then begin
        let x = to_int (field e "x") and y = to_int (field e "y") in
        incr answers_compared;
        if answer_name (dw x y) = to_str (field e "answer") then incr answers_equal;
        if not (exact_pair rn o st x y) then exact := false
      end)
    (List.tl rn.events);
  if ru.anchor = AnchorOpener && ru.self_pairs && !exact then begin
    let draws, ok = try placements_agree rn k ru.elim dw with _ -> (0, false) in
    incr place_runs;
    place_draws := !place_draws + draws;
    if ok then incr place_agree
    else if !shown < 5 then begin
      incr shown;
      Printf.eprintf "DistanceWeakRun.definite_place, run %s (ssac cluster %s): a draw placed otherwise than lib places it\n"
        rn.id rn.args
    end
  end;
  if ru.anchor = AnchorOpener && ru.self_pairs && ru.search = SearchDistance && !exact then begin
    match (try dw_run_difference rn k ru.elim dw
           with ex -> Some (Some (0, "(the trace)", "the model failed: " ^ Printexc.to_string ex))) with
    | None -> incr dwrun_excluded
    | Some None -> incr dwrun_runs; incr dwrun_agree
    | Some (Some (i, lib, model)) ->
        incr dwrun_runs;
        if !shown < 5 then begin
          incr shown;
          Printf.eprintf "DistanceWeakRun's run, run %s (ssac cluster %s): first difference at line %d:\n  lib:   %s\n  model: %s\n"
            rn.id rn.args i lib model
        end
  end;
  let label x = rn.labels.(x) and pt x = Obj.repr rn.points.(x) in
  List.iteri (fun c anchor ->
      let evs = try run metric n k r beta label pt (mean rn) ru.search anchor ru.self_pairs ru.elim w
        with _ -> [] (* a model that fails is a disagreement: no events *) in
      let order_ok = fst (exact_rows rn evs) in
      if c = 0 && not !exact then incr excl_pair;
      if c = 0 && not order_ok then incr excl_order;
      if not (!exact && order_ok) then excluded.(c) <- excluded.(c) + 1
      else
        match first_difference (model_lines (mean_array rn) euclid (fun x -> rn.points.(x)) evs)
                (trace_lines false (List.tl rn.events)) with
        | None ->
            agree.(c) <- agree.(c) + 1;
            if c = 0 then begin
              let s = to_str (field header "search") ^ (if o.local then " local" else " global") in
              Hashtbl.replace per_search s (1 + try Hashtbl.find per_search s with Not_found -> 0)
            end
        | Some (i, lib, model) ->
            disagree.(c) <- disagree.(c) + 1;
            if c = 0 && !shown < 5 then begin
              incr shown;
              Printf.eprintf "%s, run %s (ssac cluster %s): first difference at event %d:\n  lib:   %s\n  model: %s\n"
                names.(c) rn.id rn.args i lib model
            end)
    [ru.anchor; other_anchor ru.anchor]

let () =
  let minimum = if Array.length Sys.argv > 1 then int_of_string Sys.argv.(1) else max_int in
  let cur = ref None in
  let flush () = match !cur with
    | Some (id, args, margin, pts, evs) ->
        let pts = List.rev pts in
        check { id; args; labels = Array.of_list (List.map fst pts);
                points = Array.of_list (List.map snd pts); events = List.rev evs } margin
    | None -> () in
  let prefix p line = String.length line > String.length p && String.sub line 0 (String.length p) = p in
  let rest p line = String.sub line (String.length p) (String.length line - String.length p) in
  (try
     while true do
       let line = input_line stdin in
       if prefix "#run " line then begin
         flush ();
         let r = rest "#run " line in
         let sp = String.index r ' ' in
         cur := Some (String.sub r 0 sp, String.sub r (sp + 1) (String.length r - sp - 1), false, [], [])
       end else if prefix "#margin " line then begin
         match !cur with
         | Some (id, args, _, pts, evs) -> cur := Some (id, args, rest "#margin " line = "1", pts, evs)
         | None -> failwith "a #margin line outside a run"
       end else if prefix "#point " line then begin
         match !cur, String.split_on_char ' ' line with
         | Some (id, args, mg, pts, evs), _ :: l :: xs ->
             let xs = Array.of_list (List.map float_of_string xs) in
             Array.iter (fun v -> if Float.of_int (int_of_float v) <> v then
                            failwith ("run " ^ id ^ ": a coordinate is not an integer")) xs;
             cur := Some (id, args, mg, (int_of_string l, xs) :: pts, evs)
         | _ -> failwith "a #point line outside a run"
       end else match !cur with
         | Some (id, args, mg, pts, evs) -> cur := Some (id, args, mg, pts, parse_json line :: evs)
         | None -> failwith "a trace line outside a run"
     done
   with End_of_file -> flush ());
  let ok = ref true in
  Array.iteri (fun c nm ->
      let total = agree.(c) + disagree.(c) in
      Printf.printf "%s: %d runs compared, %d agree with lib, %d disagree; %d excluded (a float comparison is not the exact one)\n"
        nm total agree.(c) disagree.(c) excluded.(c);
      if c = 0 && (disagree.(c) > 0 || total < minimum) then ok := false;
      if c = 1 && disagree.(c) = 0 then begin
        Printf.eprintf "%s agrees with lib on every run: the comparison cannot see the anchor rule\n" nm;
        ok := false
      end)
    names;
  Printf.printf "%d runs read (%d local, Definition 6; %d global, Definition 7), %d with the gamma-margin at gamma = 2\n"
    !runs_read !local_runs (!runs_read - !local_runs) !margin_runs;
  Printf.printf "%d oracle answers of lib compared with the model's Definition 6/7 answer, %d equal\n"
    !answers_compared !answers_equal;
  Printf.printf "queried pairs on a boundary (a comparison of the definition an equality): 6(a) %d, 6(b) %d, 7(a) %d (per side), 7(b) %d\n"
    boundary.(0) boundary.(1) boundary.(2) boundary.(3);
  Printf.printf "agreeing runs by search and oracle: %s\n"
    (String.concat ", " (List.sort compare (Hashtbl.fold (fun s c acc -> Printf.sprintf "%s %d" s c :: acc) per_search [])));
  Printf.printf "excluded runs: %d with a comparison of Definition 6/7 on a queried pair, %d with one of line 10, r'_i or C'_p, whose float outcome is not the exact one\n"
    !excl_pair !excl_order;
  Printf.printf "DistanceWeakRun.definite_place (Definition 4 with the oracle's answers to the openers) on the runs under the opener rule with self-pairs asked: %d runs (%d draws), %d agree with lib's placements\n"
    !place_runs !place_draws !place_agree;
  Printf.printf "DistanceWeakRun's run (dw_state, dw_iteration, dw_labels with definite_place and Theorem2Run.algorithm3) on the runs under the opener rule, Algorithm 3, self-pairs asked: %d runs compared, %d agree with lib; %d excluded (a float comparison is not the exact one)\n"
    !dwrun_runs !dwrun_agree !dwrun_excluded;
  if !answers_equal <> !answers_compared || !place_agree <> !place_runs || !place_runs = 0
     || !dwrun_agree <> !dwrun_runs || !dwrun_runs = 0 then ok := false;
  exit (if !ok then 0 else 1)
