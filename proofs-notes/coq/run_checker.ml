(* Runs the whole-run model extracted from RunModel.v (ExtractRun.v) on the random choices of
   each trace that coq_run_driver prints (run_driver.cpp: "#run", "#point" lines, then the trace),
   and compares the model's events with the trace's (docs/trace-format.md): every iteration's
   S_i size, Phase-1 draws, anchor draws, queries (pair, purpose, answer), Q(x) per draw, p with
   Z_p's rows and x_1, every search step (position, row, B's rows, decision), the outcome with
   j* and C'_p's rows, and the final labels.

   The model is stated over the reals; here R is OCaml's float (ExtractRun.v).  A run counts only
   if its float comparisons are the exact ones (../extracted-run.md): with integer coordinates,
   |Z_p|^2 d(x, mu'_p)^2 is an integer, and on every S_i the model orders, every comparison of two
   distances in floats must have the outcome of the integers'.  Such a run is the run of the model
   over the reals; a run that is not is counted as excluded.

   Two models are run: RunModel.run, Phase 1 by rows as Run::phase1 asks (every event compared),
   and RunModel.run_phase1model, Phase 1 by Phase1Model.phase1_zp (the function the Lemma-7 tail
   is proved for; Phase 1's queries, anchors and Q(x) are not its events, so they are not
   compared), on the runs within Phase1Model's premise: self-pairs asked (S4), a weak oracle (the
   plain search's coin flips are not Definition 5's), and every anchor in its cluster (under the
   labelled-row rules an anchor can carry a wrong Phase-2 label after a bad iteration).
   Negative controls, on the same choices: the run by rows with S4's self-pairs not asked, and
   with S2's elimination switched; Phase1Model's run with elimination switched.  Each must
   disagree with lib on some run.
   Usage: run_checker MIN [CONTROL_RUNS] < corpus.  The controls run on the first CONTROL_RUNS
   runs (all by default).  Exit 0 when both models agree with lib on every run they are compared
   on, each on at least MIN runs, and each control disagrees on some run; 1 otherwise.  A summary line per model on stdout; the first five disagreements (the model, the
   run, its `ssac cluster` options, the first differing event of lib and of the model) on
   stderr. *)
open Run_extracted

(* ---- A small JSON reader (the trace's lines) ------------------------------------------- *)
type json = Null | Bool of bool | Num of float | Str of string | Arr of json list
          | Obj of (string * json) list

exception Bad_json of string

let parse_json (s : string) : json =
  let n = String.length s and i = ref 0 in
  let peek () = if !i < n then s.[!i] else '\000' in
  let ws () = while !i < n && (s.[!i] = ' ' || s.[!i] = '\t' || s.[!i] = '\r') do incr i done in
  let expect c = ws (); if peek () <> c then raise (Bad_json s); incr i in
  let str () =
    expect '"';
    let b = Buffer.create 16 in
    while peek () <> '"' do
      if !i >= n then raise (Bad_json s);
      (if s.[!i] = '\\' then begin
         incr i;
         match peek () with
         | 'n' -> Buffer.add_char b '\n' | 't' -> Buffer.add_char b '\t'
         | 'u' -> Buffer.add_char b '?'; i := !i + 4
         | c -> Buffer.add_char b c
       end else Buffer.add_char b s.[!i]);
      incr i
    done;
    incr i; Buffer.contents b in
  let rec value () =
    ws ();
    match peek () with
    | '{' ->
        incr i; ws ();
        if peek () = '}' then (incr i; Obj []) else begin
          let rec fields acc =
            let k = str () in expect ':';
            let v = value () in ws ();
            match peek () with
            | ',' -> incr i; ws (); fields ((k, v) :: acc)
            | '}' -> incr i; Obj (List.rev ((k, v) :: acc))
            | _ -> raise (Bad_json s) in
          fields []
        end
    | '[' ->
        incr i; ws ();
        if peek () = ']' then (incr i; Arr []) else begin
          let rec items acc =
            let v = value () in ws ();
            match peek () with
            | ',' -> incr i; items (v :: acc)
            | ']' -> incr i; Arr (List.rev (v :: acc))
            | _ -> raise (Bad_json s) in
          items []
        end
    | '"' -> Str (str ())
    | 't' -> i := !i + 4; Bool true
    | 'f' -> i := !i + 5; Bool false
    | 'n' -> i := !i + 4; Null
    | _ ->
        let st = !i in
        while !i < n && (match s.[!i] with '0'..'9' | '-' | '+' | '.' | 'e' | 'E' -> true
                                           | _ -> false) do incr i done;
        if !i = st then raise (Bad_json s);
        Num (float_of_string (String.sub s st (!i - st))) in
  value ()

let field o k = match o with Obj l -> (try List.assoc k l with Not_found -> Null) | _ -> Null
let to_int = function Num f -> int_of_float f | _ -> -1
let to_str = function Str s -> s | Null -> "null" | _ -> "?"
let to_ints = function Arr l -> List.map to_int l | _ -> []
let to_strs = function Arr l -> List.map to_str l | _ -> []

(* ---- Canonical lines of the compared fields ------------------------------------------- *)
let ints l = "[" ^ String.concat "," (List.map string_of_int l) ^ "]"
(* mu'_p and r'_i, to 9 significant digits (lib and the realization compute them alike; the
   digits only keep the lines short) *)
let real f = if f = infinity then "inf" else Printf.sprintf "%.9g" f
let reals l = "[" ^ String.concat "," (List.map real l) ^ "]"
let answer_name = function Yes -> "yes" | No -> "no" | NotSure -> "not-sure"
let decision_name = function In -> "in" | Out -> "out" | Fail -> "fail"
let purpose_name = function
  | PAssignment -> "assignment" | PSearchX1 -> "search_x1" | PSearchZ -> "search_z"
  | PSearchSample -> "search_sample"
let result_name = function
  | Recovered -> "recovered" | EmptyCluster -> "empty_cluster"
  | Phase1AllNotSure -> "phase1_all_not_sure" | SearchFailed -> "search_failed"
  | EmptyRemainder -> "empty_remainder" | OutOfFuel -> "out_of_fuel (model)"

let model_line = function
  | EIteration (i, rem) -> Printf.sprintf "iteration %d remaining %d" i rem
  | ESample (i, rows) -> Printf.sprintf "sample %d %s" i (ints rows)
  | EAnchor (i, x, t, c, row) -> Printf.sprintf "anchor %d x %d cluster %d %s row %d" i x t (ints c) row
  | EQuery (i, ph, pu, x, y, a) ->
      Printf.sprintf "query %d phase %d %s Q(%d, %d) %s" i ph (purpose_name pu) x y (answer_name a)
  | EAssignment (i, ts) -> Printf.sprintf "assignment %d %s" i (ints ts)
  | ECluster (i, p, zp, x1, _) -> Printf.sprintf "cluster %d p %d Z_p %s x1 %d" i p (ints zp) x1
  | EStep (i, s, j, row, ys, d) ->
      Printf.sprintf "step %d.%d j %d row %d B %s %s" i s j row (ints ys) (decision_name d)
  | EOutcome (i, res, js, asg) ->
      Printf.sprintf "outcome %d %s j* %s C'_p %s" i (result_name res)
        (match js with Some j -> string_of_int j | None -> "null") (ints asg)
  | EFinal labels -> Printf.sprintf "final %s" (ints labels)

(* The trace's events as the same lines (the header is not an event of the run). *)
let trace_lines (events : json list) : string list =
  let sample = Hashtbl.create 8 and assignment = Hashtbl.create 8 in
  List.filter_map (fun e ->
      let i = to_int (field e "iteration") in
      match to_str (field e "event") with
      | "iteration" -> Some (Printf.sprintf "iteration %d remaining %d" i (to_int (field e "remaining")))
      | "sample" -> Hashtbl.replace sample i (to_ints (field e "rows"));
          Some (Printf.sprintf "sample %d %s" i (ints (to_ints (field e "rows"))))
      | "anchor" -> Some (Printf.sprintf "anchor %d x %d cluster %d %s row %d" i (to_int (field e "x"))
                            (to_int (field e "cluster")) (ints (to_ints (field e "candidates")))
                            (to_int (field e "row")))
      | "query" -> Some (Printf.sprintf "query %d phase %d %s Q(%d, %d) %s" i (to_int (field e "phase"))
                           (to_str (field e "purpose")) (to_int (field e "x")) (to_int (field e "y"))
                           (to_str (field e "answer")))
      | "assignment" -> Hashtbl.replace assignment i (to_ints (field e "clusters"));
          Some (Printf.sprintf "assignment %d %s" i (ints (to_ints (field e "clusters"))))
      | "cluster" ->
          let p = to_int (field e "p") in
          let zp = List.filter_map (fun (x, t) -> if t = p then Some x else None)
              (List.combine (Hashtbl.find sample i) (Hashtbl.find assignment i)) in
          if List.length zp <> to_int (field e "zp_size") then
            Some (Printf.sprintf "cluster %d: zp_size %d is not Z_p's %d" i (to_int (field e "zp_size"))
                    (List.length zp))
          else Some (Printf.sprintf "cluster %d p %d Z_p %s x1 %d mu' %s" i p (ints zp) (to_int (field e "x1"))
                       (reals (match field e "center" with Arr l -> List.map (function Num f -> f | _ -> nan) l
                                                          | _ -> [])))
      | "step" -> Some (Printf.sprintf "step %d.%d j %d row %d B %s %s" i (to_int (field e "step"))
                          (to_int (field e "j")) (to_int (field e "row")) (ints (to_ints (field e "sample")))
                          (to_str (field e "decision")))
      | "outcome" -> Some (Printf.sprintf "outcome %d %s j* %s r' %s C'_p %s" i (to_str (field e "outcome"))
                             (match field e "j_star" with Num f -> string_of_int (int_of_float f) | _ -> "null")
                             (match field e "radius" with Num f -> real f | Str s -> s | _ -> "null")
                             (ints (to_ints (field e "assigned"))))
      | "final" -> Some (Printf.sprintf "final %s" (ints (to_ints (field e "labels"))))
      | _ -> None)
    events

(* The model's lines, with mu'_p (the realization's mean of Z_p) on the cluster line and r'_i =
   d(x_{j*}, mu'_p) (inf when j* = |S_i|) on the outcome line. *)
let model_lines (mean : int list -> float array) (dist : float array -> float array -> float)
    (pt : int -> float array) (evs : event list) : string list =
  let cur = ref ([], []) in
  List.map (fun e ->
      let line = model_line e in
      match e with
      | ECluster (_, _, zp, _, o) -> cur := (zp, o); line ^ " mu' " ^ reals (Array.to_list (mean zp))
      | EOutcome (i, res, js, asg) ->
          let zp, o = !cur in
          let r = match js with
            | None -> "null"
            | Some j -> if j >= List.length o then "inf" else real (dist (pt (List.nth o j)) (mean zp)) in
          Printf.sprintf "outcome %d %s j* %s r' %s C'_p %s" i (result_name res)
            (match js with Some j -> string_of_int j | None -> "null") r (ints asg)
      | _ -> line)
    evs

(* ---- One run -------------------------------------------------------------------------- *)
type run = { id : string; args : string; labels : int array; points : float array array;
             events : json list }

let index_of x l =
  let rec go i = function [] -> 0 | y :: r -> if y = x then i else go (i + 1) r in go 0 l

(* Phase 1's queries per draw: under S4 the s-th draw asks one query per cluster known before it
   (lib's numbers, from the trace's assignments: a number not known before is an opening), in
   discovery order.  Gives each draw's erasure coins (Phase1Model's randomness) and whether every
   anchor asked lies in its cluster's oracle cluster (the opener's label), Phase1Model's premise
   (Phase1Model.v, "Anchors"). *)
let per_draw_table (rn : run) : (int * int, bool list) Hashtbl.t * bool =
  let coins = Hashtbl.create 64 and in_cluster = ref true in
  let known = ref [] (* (number, opener row), discovery order *) and pending = Queue.create () in
  let sample = ref [||] in
  List.iter (fun e ->
      let i = to_int (field e "iteration") in
      match to_str (field e "event") with
      | "sample" -> sample := Array.of_list (to_ints (field e "rows"))
      | "query" when to_int (field e "phase") = 1 ->
          Queue.add (to_int (field e "y"), to_str (field e "answer") = "not-sure") pending
      | "assignment" ->
          List.iteri (fun s t ->
              let cs = List.map (fun (_, opener) ->
                  if Queue.is_empty pending then (in_cluster := false; false) else begin
                    let y, c = Queue.pop pending in
                    if rn.labels.(y) <> rn.labels.(opener) then in_cluster := false;
                    c
                  end) !known in
              Hashtbl.replace coins (i, s) cs;
              if t > 0 && not (List.mem_assoc t !known) then known := !known @ [(t, !sample.(s))])
            (to_ints (field e "clusters"));
          if not (Queue.is_empty pending) then in_cluster := false
      | _ -> ())
    rn.events;
  (coins, !in_cluster)

(* The run's random choices, read from its trace. *)
let choices (rn : run) (per_draw : (int * int, bool list) Hashtbl.t) (original : bool) : choices =
  let truth x y = rn.labels.(x) = rn.labels.(y) in
  (* erased, and the original SSAC's coin: the answer is not the truth exactly when a not-sure
     was replaced by the coin, whose side is then the answer *)
  let coin a x y =
    if original then (a <> (if truth x y then "yes" else "no"), a = "yes") else (a = "not-sure", false) in
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
          Hashtbl.replace q1 (i, next nq1 i)
            (coin (to_str (field e "answer")) (to_int (field e "x")) (to_int (field e "y")))
      | "query" ->
          let pu = to_str (field e "purpose") in
          if (pu = "search_x1" || pu = "search_z") && !first_q2 = None then
            first_q2 := Some (to_int (field e "x"))
      | "step" ->
          let row = to_int (field e "row") in
          let ys = Array.of_list (to_ints (field e "sample")) in
          let answers = Array.of_list (to_strs (field e "sample_answers")) in
          let a0 = to_str (field e (if original then "z_answer" else "x1_answer")) in
          let c0 = match !first_q2 with Some x when a0 <> "null" -> coin a0 x row | _ -> (false, false) in
          first_q2 := None;
          Hashtbl.replace steps (i, to_int (field e "step") - 1)
            (c0, Array.mapi (fun b y -> coin answers.(b) y row) ys, ys)
      | _ -> ())
    rn.events;
  let find tbl key d = try Hashtbl.find tbl key with Not_found -> d in
  { coins1 = (fun i s -> try Hashtbl.find per_draw (i, s) with Not_found -> []);
    draw1 = (fun i s sl -> match Hashtbl.find_opt samples i with
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

(* The metric space of the model realized: R^m's Euclidean distance on float arrays. *)
let euclid (a : float array) (b : float array) : float =
  let acc = ref 0.0 in
  Array.iteri (fun c x -> let d = x -. b.(c) in acc := !acc +. d *. d) a;
  sqrt !acc

let metric : metricSpace = fun a b -> euclid (Obj.obj a) (Obj.obj b)

(* mu'_p: the mean of the multiset Z_p, summed in draw order as lib's mean_of_rows. *)
let mean_array (rn : run) (zp : int list) : float array =
  let m = Array.length rn.points.(0) in
  let mu = Array.make m 0.0 in
  List.iter (fun x -> Array.iteri (fun c v -> mu.(c) <- mu.(c) +. v) rn.points.(x)) zp;
  let z = float_of_int (List.length zp) in
  Array.map (fun v -> v /. z) mu

let mean (rn : run) (zp : int list) : carrier = Obj.repr (mean_array rn zp)

(* The exact check (see the header): on every S_i the model orders, with mu'_p the mean of its
   Z_p, each comparison of two distances in floats (the realization's) has the outcome it has in
   the reals: with integer coordinates z^2 d(x, mu'_p)^2 is the integer key below, so d(x) < d(y)
   over the reals iff key x < key y.  The run uses the reals only through such comparisons (line
   10's order, r'_i, C'_p), so where they all agree the float run is the real run, whatever the
   model's code does with them.  Also says whether two rows of some S_i tie exactly. *)
let exact (rn : run) (evs : event list) : bool * bool =
  let key zp x =
    let z = List.length zp and m = Array.length rn.points.(0) in
    let acc = ref 0 in
    for c = 0 to m - 1 do
      let s = List.fold_left (fun s y -> s + int_of_float rn.points.(y).(c)) 0 zp in
      let d = z * int_of_float rn.points.(x).(c) - s in
      acc := !acc + d * d
    done; !acc in
  let ok = ref true and tied = ref false in
  List.iter (function
      | ECluster (_, _, zp, _, o) ->
          let mu = mean_array rn zp in
          let rows = Array.of_list o in
          let ks = Array.map (key zp) rows and ds = Array.map (fun x -> euclid rn.points.(x) mu) rows in
          Array.iteri (fun a ka ->
              Array.iteri (fun b kb ->
                  if compare ka kb <> compare ds.(a) ds.(b) then ok := false;
                  if a < b && ka = kb then tied := true) ks) ks
      | _ -> ())
    evs;
  (!ok, !tied)

let model_events (rn : run) (w : choices) (phase1model : bool) (control : string) : event list =
  let header = List.hd rn.events in
  let search = match to_str (field header "search") with
    | "random" -> SearchRandom | "distance" -> SearchDistance | "unified" -> SearchUnified
    | _ -> SearchPlain in
  let rules = " " ^ to_str (field header "rules") ^ " " in
  let has s = let ls = String.length s and lr = String.length rules in
    let rec go i = i + ls <= lr && (String.sub rules i ls = s || go (i + 1)) in go 0 in
  let anchor = if has "anchor=lowest-labelled-row" then AnchorLowest
    else if has "anchor=random-labelled-row" then AnchorRandomLabelled
    else if has "anchor=random-known-row" then AnchorRandomKnown else AnchorOpener in
  let self_pairs = not (has "self-pairs=off") in
  let k = to_int (field header "k") in
  let elim = to_str (field header "assignment") = "paper" &&
             (match field header "oracle_clusters" with Num f -> int_of_float f = k | _ -> true) in
  let self_pairs = if control = "self-pairs" then not self_pairs else self_pairs in
  let elim = if control = "elimination" then not elim else elim in
  let n = to_int (field header "n") in
  let label x = rn.labels.(x) and pt x = Obj.repr rn.points.(x) and r = to_int (field header "r")
  and beta = to_int (field header "beta") in
  if phase1model then run_phase1model metric n k r beta label pt (mean rn) search self_pairs elim w
  else run metric n k r beta label pt (mean rn) search anchor self_pairs elim w

(* ---- The corpus --------------------------------------------------------------------- *)
let first_difference mine theirs =
  let rec go i a b = match a, b with
    | [], [] -> None
    | x :: a', y :: b' -> if x = y then go (i + 1) a' b' else Some (i, y, x)
    | [], y :: _ -> Some (i, y, "(nothing)")
    | x :: _, [] -> Some (i, "(nothing)", x) in
  go 1 mine theirs

(* The models: the run with Phase 1 by rows (every event compared), the run with Phase 1 by
   Phase1Model.phase1_zp (Phase 1's queries, anchors and Q(x) not compared: that model has none),
   and the controls, each the model with one rule switched. *)
let models = [(false, ""); (true, ""); (false, "self-pairs"); (false, "elimination");
              (true, "elimination")]
let name (p1m, control) =
  (if p1m then "Phase1Model's run" else "the run by rows") ^
  (if control = "" then "" else ", control " ^ control)
let nm = List.length models
let agree = Array.make nm 0 and disagree = Array.make nm 0 and excluded = Array.make nm 0
and outside = Array.make nm 0
let shown = ref 0 and tied_runs = ref 0

let phase1_only line =
  let pre p = String.length line >= String.length p && String.sub line 0 (String.length p) = p in
  pre "anchor " || pre "assignment " ||
  (pre "query " && (match String.split_on_char ' ' line with
       | _ :: _ :: "phase" :: "1" :: _ -> true | _ -> false))

let runs_read = ref 0

let check control_runs rn =
  incr runs_read;
  let theirs = trace_lines (List.tl rn.events) in
  let header = List.hd rn.events in
  let per_draw, anchors_in_clusters = per_draw_table rn in
  let w = choices rn per_draw (to_str (field header "search") = "plain") in
  (* Phase1Model's premise: self-pairs asked, a weak oracle (no coin flips), anchors in their
     clusters *)
  let in_scope = not (String.length (to_str (field header "rules")) > 0 &&
                      List.mem "self-pairs=off" (String.split_on_char ' ' (to_str (field header "rules"))))
                 && to_str (field header "search") <> "plain" && anchors_in_clusters in
  List.iteri (fun c (p1m, control) ->
      if control <> "" && !runs_read > control_runs then () else
      if p1m && not in_scope then outside.(c) <- outside.(c) + 1 else
      let evs = model_events rn w p1m control in
      let ok, tied = exact rn evs in
      if c = 0 && tied then incr tied_runs;
      if not ok then excluded.(c) <- excluded.(c) + 1
      else
        let theirs = if p1m then List.filter (fun l -> not (phase1_only l)) theirs else theirs in
        match first_difference
                (model_lines (mean_array rn) euclid (fun x -> rn.points.(x)) evs) theirs with
        | None -> agree.(c) <- agree.(c) + 1
        | Some (i, lib, model) ->
            disagree.(c) <- disagree.(c) + 1;
            if control = "" && !shown < 5 then begin
              incr shown;
              Printf.eprintf "%s, run %s (ssac cluster %s): first difference at event %d:\n  lib:   %s\n  model: %s\n"
                (name (p1m, control)) rn.id rn.args i lib model
            end)
    models

let () =
  let minimum = if Array.length Sys.argv >= 2 then int_of_string Sys.argv.(1) else max_int in
  let control_runs = if Array.length Sys.argv >= 3 then int_of_string Sys.argv.(2) else max_int in
  let cur = ref None in
  let flush () = match !cur with
    | Some (id, args, pts, evs) ->
        let pts = List.rev pts in
        check control_runs { id; args; labels = Array.of_list (List.map fst pts);
                points = Array.of_list (List.map snd pts); events = List.rev evs }
    | None -> () in
  (try
     while true do
       let line = input_line stdin in
       if String.length line > 5 && String.sub line 0 5 = "#run " then begin
         flush ();
         let rest = String.sub line 5 (String.length line - 5) in
         let sp = String.index rest ' ' in
         cur := Some (String.sub rest 0 sp, String.sub rest (sp + 1) (String.length rest - sp - 1), [], [])
       end else if String.length line > 7 && String.sub line 0 7 = "#point " then begin
         match !cur, String.split_on_char ' ' line with
         | Some (id, args, pts, evs), _ :: l :: xs ->
             let xs = Array.of_list (List.map float_of_string xs) in
             Array.iter (fun v -> if Float.of_int (int_of_float v) <> v then
                            failwith ("run " ^ id ^ ": a coordinate is not an integer")) xs;
             cur := Some (id, args, (int_of_string l, xs) :: pts, evs)
         | _ -> failwith "a #point line outside a run"
       end else match !cur with
         | Some (id, args, pts, evs) -> cur := Some (id, args, pts, parse_json line :: evs)
         | None -> failwith "a trace line outside a run"
     done
   with End_of_file -> flush ());
  let ok = ref true in
  List.iteri (fun c (p1m, control) ->
      let total = agree.(c) + disagree.(c) in
      Printf.printf "%s: %d runs compared, %d agree with lib, %d disagree; %d excluded (a float comparison is not the exact one)%s\n"
        (name (p1m, control)) total agree.(c) disagree.(c) excluded.(c)
        (if p1m then Printf.sprintf ", %d outside its premise" outside.(c) else "");
      if control = "" && (disagree.(c) > 0 || total < minimum) then ok := false;
      if control <> "" && disagree.(c) = 0 then begin
        Printf.eprintf "%s agrees with lib on every run: the comparison cannot see that rule\n"
          (name (p1m, control));
        ok := false
      end)
    models;
  Printf.printf "%d runs order rows at exactly equal distances to mu'_p (by row, S6, in both)\n" !tied_runs;
  exit (if !ok then 0 else 1)
