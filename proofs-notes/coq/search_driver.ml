(* Reads the instances search_driver.cpp prints ("A2 YNU..." or "A4 YNU...": the algorithm and
   the answer at each position of the sorted S_i, beta = 1) and prints, as the C++ driver does,
   the positions the extracted search probes and its outcome. *)
open Search_extracted

let rec z_of_pos n = if n = 1 then XH else if n land 1 = 1 then XI (z_of_pos (n lsr 1)) else XO (z_of_pos (n lsr 1))
let z_of_int n = if n = 0 then Z0 else if n > 0 then Zpos (z_of_pos n) else Zneg (z_of_pos (- n))
let rec int_of_pos = function XH -> 1 | XO p -> 2 * int_of_pos p | XI p -> 2 * int_of_pos p + 1
let int_of_z = function Z0 -> 0 | Zpos p -> int_of_pos p | Zneg p -> - int_of_pos p

let answer_of = function 'Y' -> Yes | 'N' -> No | _ -> NotSure

let () =
  try
    while true do
      let line = input_line stdin in
      let alg = String.sub line 0 2 and answers = String.sub line 3 (String.length line - 3) in
      let n = String.length answers in
      let probe j =
        let a = answer_of answers.[int_of_z j] in
        if alg = "A2" then decide_random [a] else decide_unified a [] in
      let trace, outcome = binary_search (z_of_int n) probe in
      let probes = List.map (fun j -> string_of_int (int_of_z j)) in
      let result = match outcome with
        | Boundary j -> string_of_int (int_of_z j) | Failed -> "fail" | NoFuel -> "nofuel" in
      Printf.printf "%s :%s = %s\n" line
        (String.concat "" (List.map (fun s -> " " ^ s) (probes trace))) result
    done
  with End_of_file -> ()
