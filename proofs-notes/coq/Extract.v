(* Extraction of the searches of BinarySearch.v to OCaml (Coq's own extraction), for
   search-differential-test.sh.  Z stays Coq's binary integers (no mapping to machine integers);
   ExtrOcamlBasic maps only lists, pairs and booleans to OCaml's own. *)
From SSAC Require Import BinarySearch.
From Coq Require Extraction ExtrOcamlBasic.
Extraction Language OCaml.
Extraction "search_extracted.ml" binary_search decide_random decide_unified.
