(* Runs the runs extracted by ExtractRun.v on the random choices of each trace that
   coq_run_driver prints (run_driver.cpp: "#run", "#point" lines, an optional "#theorem" line,
   then the trace), and compares their events with the trace's (docs/trace-format.md).

   Two models are run:
   - the theorem's run, RunTheorem.run_events: Theorem1Run.v's run (Phase 1 by
     Theorem1Run.phase1_run, Algorithm1.v's iterations and Algorithm 2's search) on the outcome
     w = (blocks, erasure table) of Theorem1Run.run_law that the trace's choices make: draw s of
     iteration i is u = the sampled row's position in lib's S_i (below |S_i| <= n <= n!, so
     u mod |S_i| = u) with its Definition-4 coins (one per cluster known before it, in discovery
     order, padded to k), and coin (i, step, b) of the table is "the b-th answer of that step is
     not-sure".  Compared: every iteration's |S_i|, the draws, each draw's placement (lib's
     numbers), p with Z_p's rows, x_1 and mu'_p, every search step (position, row, its beta
     answers, decision), the outcome with j*, r'_i and C'_p, and the final labels.  Run on the
     runs within the theorem's run's scope: Algorithm 2's search, self-pairs asked (S4), and every
     anchor asked in the oracle cluster of its cluster's opener (the theorem's Phase 1 names a
     cluster by its label; under the labelled-row rules an anchor labelled by a bad Phase 2 is a
     row of another cluster);
   - the run by rows, RunModel.run, on every run, every event compared (Phase 1's queries and
     anchor draws, B's rows and every Phase-2 query included).
   The reals are floats (ExtractRun.v).  A run counts only if its float comparisons are the
   exact ones (../extracted-run.md): with integer coordinates, |Z_p|^2 d(x, mu'_p)^2 is an
   integer, and on every S_i a model orders, every comparison of two distances the model's
   metric computes must have the outcome of the integers'.  Such a run is the model's run over
   the reals; a run that is not is counted as excluded.

   Runs in the theorem's configuration (a "#theorem DELTA GAMMA ETA_CEIL BETA_CEIL" line: the
   driver checked the instance's gamma-margin and computed the certified ceilings) are counted
   when the trace's header confirms Algorithm 2, self-pairs asked, elimination on, q < 1,
   eta >= ETA_CEIL and beta >= BETA_CEIL.
   Negative controls, on the same choices: the run by rows with S4's self-pairs not asked, and
   with S2's elimination switched; the theorem's run with elimination switched.  Each must
   disagree with lib on some run.
   Usage: run_checker MIN [CONTROL_RUNS [THEOREM_MIN]] < corpus.  The controls run on the first
   CONTROL_RUNS runs (all by default).  Exit 0 when both models agree with lib on every run they
   are compared on, each on at least MIN runs, at least THEOREM_MIN runs in the theorem's
   configuration are compared (with the theorem's run) and agree, and each control disagrees on
   some run; 1 otherwise.  A summary line per model on stdout; the first five disagreements (the
   model, the run, its `ssac cluster` options, the first differing event of lib and of the model)
   on stderr. *)
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

(* The trace's events as the same lines (the header is not an event of the run).  For the
   theorem's run (`theorem`): no anchor draws and no queries (that run's Phase 1 does not see the
   anchors; its Phase-2 answers are compared on the step lines), and a step reports its answers in
   place of B's rows. *)
let trace_lines (theorem : bool) (events : json list) : string list =
  let sample = Hashtbl.create 8 and assignment = Hashtbl.create 8 in
  List.filter_map (fun e ->
      let i = to_int (field e "iteration") in
      match to_str (field e "event") with
      | "iteration" -> Some (Printf.sprintf "iteration %d remaining %d" i (to_int (field e "remaining")))
      | "sample" -> Hashtbl.replace sample i (to_ints (field e "rows"));
          Some (Printf.sprintf "sample %d %s" i (ints (to_ints (field e "rows"))))
      | "anchor" when theorem -> None
      | "query" when theorem -> None
      | "step" when theorem ->
          Some (Printf.sprintf "step %d.%d j %d row %d answers [%s] %s" i (to_int (field e "step"))
                  (to_int (field e "j")) (to_int (field e "row"))
                  (String.concat "," (to_strs (field e "sample_answers"))) (to_str (field e "decision")))
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
let choices (rn : run) (original : bool) : choices =
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

(* The header's rules. *)
type rules = { search : search_rule; anchor : anchor_rule; self_pairs : bool; elim : bool }

let header_rules (header : json) : rules =
  let search = match to_str (field header "search") with
    | "random" -> SearchRandom | "distance" -> SearchDistance | "unified" -> SearchUnified
    | _ -> SearchPlain in
  let rules = " " ^ to_str (field header "rules") ^ " " in
  let has s = let ls = String.length s and lr = String.length rules in
    let rec go i = i + ls <= lr && (String.sub rules i ls = s || go (i + 1)) in go 0 in
  let anchor = if has "anchor=lowest-labelled-row" then AnchorLowest
    else if has "anchor=random-labelled-row" then AnchorRandomLabelled
    else if has "anchor=random-known-row" then AnchorRandomKnown else AnchorOpener in
  let k = to_int (field header "k") in
  let elim = to_str (field header "assignment") = "paper" &&
             (match field header "oracle_clusters" with Num f -> int_of_float f = k | _ -> true) in
  { search; anchor; self_pairs = not (has "self-pairs=off"); elim }

(* The run by rows on the trace's choices, one rule switched for a control. *)
let rows_events (rn : run) (w : choices) (control : string) : event list =
  let header = List.hd rn.events in
  let ru = header_rules header in
  let self_pairs = if control = "self-pairs" then not ru.self_pairs else ru.self_pairs in
  let elim = if control = "elimination" then not ru.elim else ru.elim in
  let n = to_int (field header "n") and k = to_int (field header "k") in
  let label x = rn.labels.(x) and pt x = Obj.repr rn.points.(x) and r = to_int (field header "r")
  and beta = to_int (field header "beta") in
  run metric n k r beta label pt (mean rn) ru.search ru.anchor self_pairs elim w

(* ---- The theorem's run ------------------------------------------------------------------ *)
(* The bits of n: BinarySearch.bit_width, the steps of a search on at most n rows. *)
let bit_width n = let rec go b v = if v = 0 then b else go (b + 1) (v lsr 1) in go 0 n

(* The outcome w = (blocks, table) of Theorem1Run.run_law that the trace's choices make (see the
   header): lib's S_i from the trace (S_1 all rows, S_{i+1} = S_i minus outcome i's C'_p, in
   increasing order as Theorem1Run.state keeps it), a draw's u its row's position there. *)
let omega_of (rn : run) (per_draw : (int * int, bool list) Hashtbl.t) : blocks * table =
  let header = List.hd rn.events in
  let n = to_int (field header "n") and k = to_int (field header "k")
  and beta = to_int (field header "beta") in
  let remaining = ref (List.init n (fun x -> x)) in
  let blocks = Array.make k [] and table = Array.init k (fun _ -> Array.init (bit_width n) (fun _ -> Array.make beta false)) in
  List.iter (fun e ->
      let i = to_int (field e "iteration") - 1 in
      match to_str (field e "event") with
      | "sample" when i < k ->
          blocks.(i) <- List.mapi (fun s x ->
              let cs = try Hashtbl.find per_draw (i + 1, s) with Not_found -> [] in
              (index_of x !remaining, cs @ List.init (max 0 (k - List.length cs)) (fun _ -> false)))
              (to_ints (field e "rows"))
      | "step" when i < k ->
          let step = to_int (field e "step") - 1 in
          if step < bit_width n then
            List.iteri (fun b a -> if b < beta then table.(i).(step).(b) <- a = "not-sure")
              (to_strs (field e "sample_answers"))
      | "outcome" ->
          let c = to_ints (field e "assigned") in
          remaining := List.filter (fun x -> not (List.mem x c)) !remaining
      | _ -> ())
    rn.events;
  (Array.to_list blocks,
   Array.to_list (Array.map (fun t -> Array.to_list (Array.map Array.to_list t)) table))

let answer_names l = "[" ^ String.concat "," (List.map answer_name l) ^ "]"

let theorem_line = function
  | TIteration (i, rem) -> Printf.sprintf "iteration %d remaining %d" i rem
  | TSample (i, rows) -> Printf.sprintf "sample %d %s" i (ints rows)
  | TAssignment (i, ts) -> Printf.sprintf "assignment %d %s" i (ints ts)
  | TCluster (i, p, zp, x1, _, mu) -> Printf.sprintf "cluster %d p %d Z_p %s x1 %d mu' %s" i p (ints zp) x1 (reals mu)
  | TStep (i, s, j, row, ans, d) ->
      Printf.sprintf "step %d.%d j %d row %d answers %s %s" i s j row (answer_names ans) (decision_name d)
  | TOutcome (i, res, js, rad, asg) ->
      Printf.sprintf "outcome %d %s j* %s r' %s C'_p %s" i (result_name res)
        (match js with Some j -> string_of_int j | None -> "null")
        (match js, rad with Some _, Some r -> real r | Some _, None -> "inf" | None, _ -> "null")
        (ints asg)
  | TFinal labels -> Printf.sprintf "final %s" (ints labels)

let theorem_events (rn : run) (w : blocks * table) (control : string) : tevent list =
  let header = List.hd rn.events in
  let ru = header_rules header in
  let elim = if control = "elimination" then not ru.elim else ru.elim in
  let n = to_int (field header "n") and k = to_int (field header "k")
  and m = to_int (field header "m") and beta = to_int (field header "beta") in
  let label x = rn.labels.(x) and pt x = fun c -> rn.points.(x).(c) in
  run_events k n m beta elim label pt w

(* ---- The exact check (see the header) ----------------------------------------------------- *)
(* z^2 d(x, mean of zp)^2, an integer for integer coordinates. *)
let key (rn : run) zp x =
  let z = List.length zp and m = Array.length rn.points.(0) in
  let acc = ref 0 in
  for c = 0 to m - 1 do
    let s = List.fold_left (fun s y -> s + int_of_float rn.points.(y).(c)) 0 zp in
    let d = z * int_of_float rn.points.(x).(c) - s in
    acc := !acc + d * d
  done; !acc

(* Every comparison of two rows' distances d (the model's) on the order o has the integers'
   outcome; also whether two rows tie exactly. *)
let exact_on (rn : run) zp (o : int list) (d : int -> float) : bool * bool =
  let rows = Array.of_list o in
  let ks = Array.map (key rn zp) rows and ds = Array.map d rows in
  let ok = ref true and tied = ref false in
  Array.iteri (fun a ka ->
      Array.iteri (fun b kb ->
          if compare ka kb <> compare ds.(a) ds.(b) then ok := false;
          if a < b && ka = kb then tied := true) ks) ks;
  (!ok, !tied)

let exact_rows (rn : run) (evs : event list) : bool * bool =
  List.fold_left (fun (ok, tied) e -> match e with
      | ECluster (_, _, zp, _, o) ->
          let mu = mean_array rn zp in
          let ok', tied' = exact_on rn zp o (fun x -> euclid rn.points.(x) mu) in
          (ok && ok', tied || tied')
      | _ -> (ok, tied))
    (true, false) evs

(* The theorem's run computes distances with Theorem1Run.Euclid (extracted) to its own mu'_p. *)
let exact_theorem (rn : run) (evs : tevent list) : bool =
  let m = Array.length rn.points.(0) in
  List.for_all (function
      | TCluster (_, _, zp, _, o, mu) ->
          let mu = Array.of_list mu in
          let d x = Run_extracted.euclid m (Obj.repr (fun c -> rn.points.(x).(c)))
              (Obj.repr (fun c -> mu.(c))) in
          fst (exact_on rn zp o d)
      | _ -> true)
    evs

(* ---- The corpus --------------------------------------------------------------------- *)
let first_difference mine theirs =
  let rec go i a b = match a, b with
    | [], [] -> None
    | x :: a', y :: b' -> if x = y then go (i + 1) a' b' else Some (i, y, x)
    | [], y :: _ -> Some (i, y, "(nothing)")
    | x :: _, [] -> Some (i, "(nothing)", x) in
  go 1 mine theirs

(* The models: the theorem's run, the run by rows, and the controls, each a model with one rule
   switched. *)
let models = [(true, ""); (false, ""); (false, "self-pairs"); (false, "elimination");
              (true, "elimination")]
let name (thm, control) =
  (if thm then "the theorem's run" else "the run by rows") ^
  (if control = "" then "" else ", control " ^ control)
let nm = List.length models
let agree = Array.make nm 0 and disagree = Array.make nm 0 and excluded = Array.make nm 0
and outside = Array.make nm 0
let shown = ref 0 and tied_runs = ref 0 and runs_read = ref 0
(* Runs in the theorem's configuration: compared with the theorem's run, agreeing; the largest
   r, and the runs with r >= 100 on n <= 10. *)
let thm_config = ref 0 and thm_config_agree = ref 0 and thm_max_r = ref 0 and thm_big_r = ref 0
and thm_bad_tag = ref 0

(* The "#theorem DELTA GAMMA ETA_CEIL BETA_CEIL" tag, confirmed by the header. *)
let in_theorem_config (header : json) (tag : string option) : bool =
  match tag with
  | None -> false
  | Some t ->
      match String.split_on_char ' ' t with
      | [_delta; _gamma; eta_ceil; beta_ceil] ->
          let ru = header_rules header in
          let q = match field (field header "oracle") "q" with Num f -> f | _ -> 1.0 in
          let eta = match field header "eta" with Num f -> f | _ -> 0.0 in
          let ok = ru.search = SearchRandom && ru.self_pairs && ru.elim && q < 1.0
                   && eta >= float_of_string eta_ceil
                   && to_int (field header "beta") >= int_of_string beta_ceil in
          if not ok then incr thm_bad_tag;
          ok
      | _ -> incr thm_bad_tag; false

let check control_runs rn tag =
  incr runs_read;
  let header = List.hd rn.events in
  let ru = header_rules header in
  let per_draw, anchors_in_clusters = per_draw_table rn in
  let w = choices rn (ru.search = SearchPlain) in
  let omega = omega_of rn per_draw in
  let in_scope = ru.search = SearchRandom && ru.self_pairs && anchors_in_clusters in
  let config = in_theorem_config header tag in
  List.iteri (fun c (thm, control) ->
      if control <> "" && !runs_read > control_runs then () else
      if thm && not in_scope then outside.(c) <- outside.(c) + 1 else
      let ok, mine, theirs =
        if thm then
          let evs = theorem_events rn omega control in
          (exact_theorem rn evs, List.map theorem_line evs, trace_lines true (List.tl rn.events))
        else
          let evs = rows_events rn w control in
          let ok, tied = exact_rows rn evs in
          if c = 1 && tied then incr tied_runs;
          (ok, model_lines (mean_array rn) euclid (fun x -> rn.points.(x)) evs,
           trace_lines false (List.tl rn.events)) in
      if not ok then excluded.(c) <- excluded.(c) + 1
      else
        match first_difference mine theirs with
        | None ->
            agree.(c) <- agree.(c) + 1;
            if thm && control = "" && config then begin
              incr thm_config_agree;
              let r = to_int (field header "r") in
              thm_max_r := max !thm_max_r r;
              if r >= 100 && to_int (field header "n") <= 10 then incr thm_big_r
            end
        | Some (i, lib, model) ->
            disagree.(c) <- disagree.(c) + 1;
            if control = "" && !shown < 5 then begin
              incr shown;
              Printf.eprintf "%s, run %s (ssac cluster %s): first difference at event %d:\n  lib:   %s\n  model: %s\n"
                (name (thm, control)) rn.id rn.args i lib model
            end)
    models;
  if config then incr thm_config

let () =
  let arg i d = if Array.length Sys.argv > i then int_of_string Sys.argv.(i) else d in
  let minimum = arg 1 max_int and control_runs = arg 2 max_int and theorem_min = arg 3 0 in
  let cur = ref None in
  let flush () = match !cur with
    | Some (id, args, tag, pts, evs) ->
        let pts = List.rev pts in
        check control_runs { id; args; labels = Array.of_list (List.map fst pts);
                points = Array.of_list (List.map snd pts); events = List.rev evs } tag
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
         cur := Some (String.sub r 0 sp, String.sub r (sp + 1) (String.length r - sp - 1), None, [], [])
       end else if prefix "#theorem " line then begin
         match !cur with
         | Some (id, args, _, pts, evs) -> cur := Some (id, args, Some (rest "#theorem " line), pts, evs)
         | None -> failwith "a #theorem line outside a run"
       end else if prefix "#point " line then begin
         match !cur, String.split_on_char ' ' line with
         | Some (id, args, tag, pts, evs), _ :: l :: xs ->
             let xs = Array.of_list (List.map float_of_string xs) in
             Array.iter (fun v -> if Float.of_int (int_of_float v) <> v then
                            failwith ("run " ^ id ^ ": a coordinate is not an integer")) xs;
             cur := Some (id, args, tag, (int_of_string l, xs) :: pts, evs)
         | _ -> failwith "a #point line outside a run"
       end else match !cur with
         | Some (id, args, tag, pts, evs) -> cur := Some (id, args, tag, pts, parse_json line :: evs)
         | None -> failwith "a trace line outside a run"
     done
   with End_of_file -> flush ());
  let ok = ref true in
  List.iteri (fun c (thm, control) ->
      let total = agree.(c) + disagree.(c) in
      Printf.printf "%s: %d runs compared, %d agree with lib, %d disagree; %d excluded (a float comparison is not the exact one)%s\n"
        (name (thm, control)) total agree.(c) disagree.(c) excluded.(c)
        (if thm then Printf.sprintf ", %d outside its scope" outside.(c) else "");
      if control = "" && (disagree.(c) > 0 || total < minimum) then ok := false;
      if control <> "" && disagree.(c) = 0 then begin
        Printf.eprintf "%s agrees with lib on every run: the comparison cannot see that rule\n"
          (name (thm, control));
        ok := false
      end)
    models;
  Printf.printf "%d runs in the theorem's configuration (Algorithm 2, self-pairs asked, elimination on, q < 1, eta >= the certified ceiling, beta >= ceil(beta_union), the instance's gamma-margin), %d of them compared with the theorem's run and agreeing; largest r %d; %d with r >= 100 on n <= 10\n"
    !thm_config !thm_config_agree !thm_max_r !thm_big_r;
  if !thm_bad_tag > 0 then begin
    Printf.eprintf "%d runs tagged #theorem are not in the theorem's configuration by their header\n" !thm_bad_tag;
    ok := false
  end;
  if !thm_config_agree < theorem_min then ok := false;
  Printf.printf "%d runs order rows at exactly equal distances to mu'_p (by row, S6, in both)\n" !tied_runs;
  exit (if !ok then 0 else 1)
