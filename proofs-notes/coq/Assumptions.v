(* The trusted base of every main theorem: check-assumptions.sh compiles this file and compares
   its output with assumptions.expected.  Expected: the axioms Coq's standard library uses to
   build the real numbers and their classical analysis (ClassicalDedekindReals.sig_forall_dec,
   ClassicalDedekindReals.sig_not_dec, FunctionalExtensionality.functional_extensionality_dep,
   Classical_Prop.classic) and nothing else. *)
From Coq Require Import Reals.
Open Scope R_scope.
From SSAC Require Import FiniteProb Erasure Phase1 Metric CloseCenter Proposition9 Inversion Bounds BoundsMcDiarmid BinomialTail Certificate BinarySearch
  Algorithm1 Combinatorics Theorem1.
From SSAC Require Import Hoeffding McDiarmid MeanTail Theorem1McDiarmid Phase1Model Phase1Tail Theorem1Run.
From SSAC Require RunModel.
From SSAC Require Pinelis Theorem1Pinelis.

Goal True. idtac "*** P monotone: FiniteProb.P_monotone". exact I. Abort.
Print Assumptions FiniteProb.P_monotone.
Goal True. idtac "*** P subadditive: FiniteProb.P_subadditive". exact I. Abort.
Print Assumptions FiniteProb.P_subadditive.
Goal True. idtac "*** P empty: FiniteProb.P_empty". exact I. Abort.
Print Assumptions FiniteProb.P_empty.
Goal True. idtac "*** All of l iid draws: FiniteProb.P_iid_all". exact I. Abort.
Print Assumptions FiniteProb.P_iid_all.
Goal True. idtac "*** One of l iid draws: FiniteProb.P_iid_nth". exact I. Abort.
Print Assumptions FiniteProb.P_iid_nth.
Goal True. idtac "*** Lemma 6: CloseCenter.close_center". exact I. Abort.
Print Assumptions close_center.
Goal True. idtac "*** Lemma 6: CloseCenter.close_center_le". exact I. Abort.
Print Assumptions close_center_le.
Goal True. idtac "*** Lemma 6 tight: CloseCenter.close_center_tight". exact I. Abort.
Print Assumptions close_center_tight.
Goal True. idtac "*** Proposition 9 (a): Proposition9.proposition9_a". exact I. Abort.
Print Assumptions proposition9_a.
Goal True. idtac "*** Proposition 9 (b): Proposition9.proposition9_b". exact I. Abort.
Print Assumptions proposition9_b.
Goal True. idtac "*** Inversion.ceiling_is_least". exact I. Abort.
Print Assumptions ceiling_is_least.
Goal True. idtac "*** Bounds.eta_perfect_inverts". exact I. Abort.
Print Assumptions eta_perfect_inverts.
Goal True. idtac "*** Bounds.eta_assign_inverts". exact I. Abort.
Print Assumptions eta_assign_inverts.
Goal True. idtac "*** Bounds.eta_random_inverts". exact I. Abort.
Print Assumptions eta_random_inverts.
Goal True. idtac "*** Bounds.eta_perfect_pinelis_inverts". exact I. Abort.
Print Assumptions eta_perfect_pinelis_inverts.
Goal True. idtac "*** Bounds.eta_random_pinelis_inverts". exact I. Abort.
Print Assumptions eta_random_pinelis_inverts.
Goal True. idtac "*** Bounds.eta_distance_weak_inverts". exact I. Abort.
Print Assumptions eta_distance_weak_inverts.
Goal True. idtac "*** Bounds.beta_random_inverts". exact I. Abort.
Print Assumptions beta_random_inverts.
Goal True. idtac "*** Bounds.beta_union_inverts". exact I. Abort.
Print Assumptions beta_union_inverts.
Goal True. idtac "*** BoundsMcDiarmid.eta_mcdiarmid_inverts". exact I. Abort.
Print Assumptions eta_mcdiarmid_inverts.
Goal True. idtac "*** BoundsMcDiarmid.mcdiarmid_linearized". exact I. Abort.
Print Assumptions mcdiarmid_linearized.
Goal True. idtac "*** BoundsMcDiarmid.eta_mcdiarmid_q1". exact I. Abort.
Print Assumptions eta_mcdiarmid_q1.
Goal True. idtac "*** BinomialTail.binomial_tail_le". exact I. Abort.
Print Assumptions binomial_tail_le.
Goal True. idtac "*** BinomialTail.binomial_tail_ge". exact I. Abort.
Print Assumptions binomial_tail_ge.
Goal True. idtac "*** BinomialTail.eta_binomial_tail_upper". exact I. Abort.
Print Assumptions eta_binomial_tail_upper.
Goal True. idtac "*** BinomialTail.eta_binomial_tail_lower". exact I. Abort.
Print Assumptions eta_binomial_tail_lower.
Goal True. idtac "*** BinomialTail.eta_binomial_tail_0". exact I. Abort.
Print Assumptions eta_binomial_tail_0.
Goal True. idtac "*** Binary search steps: BinarySearch.binary_search_steps". exact I. Abort.
Print Assumptions binary_search_steps.
Goal True. idtac "*** Binary search boundary: BinarySearch.binary_search_correct". exact I. Abort.
Print Assumptions binary_search_correct.
Goal True. idtac "*** Binary search failure event: BinarySearch.binary_search_failed_iff". exact I. Abort.
Print Assumptions binary_search_failed_iff.
Goal True. idtac "*** Algorithm 2 step failure: BinarySearch.vote_fail_iff". exact I. Abort.
Print Assumptions vote_fail_iff.
Goal True. idtac "*** Algorithm 4 never fails: BinarySearch.unified_search_never_fails". exact I. Abort.
Print Assumptions unified_search_never_fails.
Goal True. idtac "*** Probe at step j has depth j: BinarySearch.binary_search_probe_depth". exact I. Abort.
Print Assumptions binary_search_probe_depth.
Goal True. idtac "*** A failed probe's coins all say not-sure: Algorithm1.step_fails_erased". exact I. Abort.
Print Assumptions step_fails_erased.
Goal True. idtac "*** Erasure tail: Erasure.erasure_tail". exact I. Abort.
Print Assumptions erasure_tail.
Goal True. idtac "*** Sequential MGF step: Phase1.sequential_mgf". exact I. Abort.
Print Assumptions sequential_mgf.
Goal True. idtac "*** Definition 4 places a draw w.p. >= q^(k-1): Phase1.assign_known_prob". exact I. Abort.
Print Assumptions assign_known_prob.
Goal True. idtac "*** Phase 1's count, E[e^(-tA)]: Phase1.phase1_count_mgf". exact I. Abort.
Print Assumptions phase1_count_mgf.
Goal True. idtac "*** r >= k eta draws to x^eta: Phase1.draws_to_eta". exact I. Abort.
Print Assumptions draws_to_eta.
Goal True. idtac "*** Phase 1's count at the theorem's eta: Phase1.phase1_count_eta". exact I. Abort.
Print Assumptions phase1_count_eta.
Goal True. idtac "*** Argmax with S7's ties and the pigeonhole: Phase1.choose_cluster_pigeonhole". exact I. Abort.
Print Assumptions choose_cluster_pigeonhole.
Goal True. idtac "*** Algorithm 1, one good iteration: Algorithm1.iteration_good". exact I. Abort.
Print Assumptions iteration_good.
Goal True. idtac "*** Algorithm 1, a run without bad events: Algorithm1.recovery_unless_bad". exact I. Abort.
Print Assumptions recovery_unless_bad.
Goal True. idtac "*** Certificates read as ceilings: Certificate.bracket_is_ceiling". exact I. Abort.
Print Assumptions bracket_is_ceiling.
Goal True. idtac "*** Pigeonhole |Z_p| >= A/k: Combinatorics.pigeonhole_argmax". exact I. Abort.
Print Assumptions pigeonhole_argmax.
Goal True. idtac "*** r = ceil(k eta): Combinatorics.sample_size_ceiling". exact I. Abort.
Print Assumptions sample_size_ceiling.
Goal True. idtac "*** Jensen step: Combinatorics.mixture_exp_pow_le". exact I. Abort.
Print Assumptions mixture_exp_pow_le.
Goal True. idtac "*** Union budget: Combinatorics.union_budget". exact I. Abort.
Print Assumptions union_budget.
Goal True. idtac "*** Corollary 8 query count: Combinatorics.corollary8_queries". exact I. Abort.
Print Assumptions corollary8_queries.
Goal True. idtac "*** Hoeffding's lemma: Hoeffding.hoeffding_lemma". exact I. Abort.
Print Assumptions hoeffding_lemma.
Goal True. idtac "*** McDiarmid's inequality: McDiarmid.mcdiarmid". exact I. Abort.
Print Assumptions mcdiarmid.
Goal True. idtac "*** E ||Ybar - mu|| <= rho / sqrt l: MeanTail.mean_dist_expectation". exact I. Abort.
Print Assumptions mean_dist_expectation.
Goal True. idtac "*** Tail of ||Ybar - mu||, uniform draws: MeanTail.uniform_mean_tail". exact I. Abort.
Print Assumptions uniform_mean_tail.
Goal True. idtac "*** Lemma 7's per-l step with McDiarmid: Theorem1McDiarmid.uniform_lemma7_mcd_tail". exact I. Abort.
Print Assumptions uniform_lemma7_mcd_tail.
Goal True. idtac "*** Lemma 7 with McDiarmid at eta_mcdiarmid: Theorem1McDiarmid.lemma7_mcdiarmid". exact I. Abort.
Print Assumptions lemma7_mcdiarmid.
Goal True. idtac "*** Theorem 1 with eta_mcdiarmid, given Lemma 7's tail: Theorem1McDiarmid.theorem1_mcdiarmid_given_lemma7". exact I. Abort.
Print Assumptions theorem1_mcdiarmid_given_lemma7.
Goal True. idtac "*** McDiarmid's inequality, statement". exact I. Abort.
Check @mcdiarmid.
Goal True. idtac "*** Tail of ||Ybar - mu||, statement". exact I. Abort.
Check uniform_mean_tail.
Goal True. idtac "*** Lemma 7's per-l step with McDiarmid, statement". exact I. Abort.
Check uniform_lemma7_mcd_tail.
Goal True. idtac "*** Lemma 7 with McDiarmid at eta_mcdiarmid, statement". exact I. Abort.
Check lemma7_mcdiarmid.
Goal True. idtac "*** Theorem 1 with eta_mcdiarmid, its premises". exact I. Abort.
Check theorem1_mcdiarmid_given_lemma7.
Goal True. idtac "*** Search steps = beta_union's S: Theorem1.search_steps_agree". exact I. Abort.
Print Assumptions search_steps_agree.
Goal True. idtac "*** Theorem 1, given Lemma 7's tail: Theorem1.theorem1_random_weak_given_lemma7". exact I. Abort.
Print Assumptions Theorem1.theorem1_random_weak_given_lemma7.
Goal True. idtac "*** Lemma 7's exchangeability within clusters: Phase1Tail.resample_iid". exact I. Abort.
Print Assumptions resample_iid.
Goal True. idtac "*** Lemma 7's tail for Phase 1 on S_i: Phase1Tail.phase1_tail". exact I. Abort.
Print Assumptions phase1_tail.
Goal True. idtac "*** Lemma 7's tail for the run: Theorem1Run.run_lemma7". exact I. Abort.
Print Assumptions run_lemma7.
Goal True. idtac "*** Theorem 1: Theorem1Run.theorem1_random_weak". exact I. Abort.
Print Assumptions Theorem1Run.theorem1_random_weak.
Goal True. idtac "*** Theorem 1's premises (none about probability: vector_hoeffding is proved)". exact I. Abort.
Check Theorem1Run.theorem1_random_weak.
Goal True. idtac "*** The vector Hoeffding statement". exact I. Abort.
Print vector_hoeffding.
Goal True. idtac "*** Theorem 1 with eta_mcdiarmid: Theorem1Run.theorem1_random_weak_mcdiarmid". exact I. Abort.
Print Assumptions theorem1_random_weak_mcdiarmid.
Goal True. idtac "*** Theorem 1 with eta_mcdiarmid, its premises (none about probability)". exact I. Abort.
Check theorem1_random_weak_mcdiarmid.
Goal True. idtac "*** The extracted run's placement is Definition 4's: RunModel.assign_rows_is_phase1_assign". exact I. Abort.
Print Assumptions RunModel.assign_rows_is_phase1_assign.
Goal True. idtac "*** Pinelis's inequality in R^m, independent finite laws: Pinelis.pinelis". exact I. Abort.
Print Assumptions Pinelis.pinelis.
Goal True. idtac "*** Pinelis's inequality, statement". exact I. Abort.
Check Pinelis.pinelis.
Goal True. idtac "*** Draws with replacement, factor 2: Pinelis.vector_pinelis". exact I. Abort.
Print Assumptions Pinelis.vector_pinelis.
Goal True. idtac "*** Vector Hoeffding, proved: Theorem1Run.vector_hoeffding_holds". exact I. Abort.
Print Assumptions Theorem1Run.vector_hoeffding_holds.
Goal True. idtac "*** Theorem 1 at eta_random_pinelis: Theorem1Pinelis.theorem1_random_weak_pinelis". exact I. Abort.
Print Assumptions Theorem1Pinelis.theorem1_random_weak_pinelis.
Goal True. idtac "*** Theorem 1 at eta_random_pinelis, its premises (none about probability)". exact I. Abort.
Check Theorem1Pinelis.theorem1_random_weak_pinelis.
From SSAC Require RunTheorem.
Goal True. idtac "*** The extracted theorem's run ends in the theorem's labels: RunTheorem.run_events_final". exact I. Abort.
Print Assumptions RunTheorem.run_events_final.
Goal True. idtac "*** The extracted function is the theorem's run iteration by iteration: RunTheorem.run_events_iterations". exact I. Abort.
Print Assumptions RunTheorem.run_events_iterations.
Goal True. idtac "*** On a recovering run, the reported labels are the oracle's: RunTheorem.final_labels_recovered". exact I. Abort.
Print Assumptions RunTheorem.final_labels_recovered.
Goal True. idtac "*** Corollary 8's count from the run's definition: RunTheorem.run_queries_bound". exact I. Abort.
Print Assumptions RunTheorem.run_queries_bound.
Goal True. idtac "*** Corollary 8's count on the theorem's law, r = k eta: RunTheorem.run_queries_corollary8". exact I. Abort.
Print Assumptions RunTheorem.run_queries_corollary8.
Goal True. idtac "*** Corollary 8's count on the theorem's law, statement". exact I. Abort.
Check RunTheorem.run_queries_corollary8.
(* The distance-weak theorems corrected (proofs-notes/distance-weak-corrected.md). *)
From SSAC Require DistanceWeak DistanceWeakRun Theorem2Run Theorem3Run.
Goal True. idtac "*** Key step, local oracle: DistanceWeak.local_key_step". exact I. Abort.
Print Assumptions DistanceWeak.local_key_step.
Goal True. idtac "*** Key step, global oracle: DistanceWeak.global_key_step". exact I. Abort.
Print Assumptions DistanceWeak.global_key_step.
Goal True. idtac "*** Closest-point step: DistanceWeak.closest_point_step". exact I. Abort.
Print Assumptions DistanceWeak.closest_point_step.
Goal True. idtac "*** Clearing the coins at q~ = 1: DistanceWeakRun.run_law_clear". exact I. Abort.
Print Assumptions DistanceWeakRun.run_law_clear.
Goal True. idtac "*** The run with definite placements: DistanceWeakRun.dw_run_correct". exact I. Abort.
Print Assumptions DistanceWeakRun.dw_run_correct.
Goal True. idtac "*** Theorem 2 corrected: Theorem2Run.theorem2_local_corrected". exact I. Abort.
Print Assumptions Theorem2Run.theorem2_local_corrected.
Goal True. idtac "*** Theorem 2 corrected, its premises". exact I. Abort.
Check Theorem2Run.theorem2_local_corrected.
Goal True. idtac "*** Appendix C corrected, local oracle: Theorem2Run.appendix_c_local_corrected". exact I. Abort.
Print Assumptions Theorem2Run.appendix_c_local_corrected.
Goal True. idtac "*** Theorem 3 corrected: Theorem3Run.theorem3_global_corrected". exact I. Abort.
Print Assumptions Theorem3Run.theorem3_global_corrected.
Goal True. idtac "*** Theorem 3 corrected, its premises". exact I. Abort.
Check Theorem3Run.theorem3_global_corrected.
Goal True. idtac "*** Appendix C corrected, global oracle: Theorem3Run.appendix_c_global_corrected". exact I. Abort.
Print Assumptions Theorem3Run.appendix_c_global_corrected.
Goal True. idtac "*** Theorem 2 corrected, any oracle answering as Definition 6 on pairs with a point of G: Theorem2Run.theorem2_local_corrected_if". exact I. Abort.
Print Assumptions Theorem2Run.theorem2_local_corrected_if.
Goal True. idtac "*** Appendix C corrected, local, the same: Theorem2Run.appendix_c_local_corrected_if". exact I. Abort.
Print Assumptions Theorem2Run.appendix_c_local_corrected_if.
Goal True. idtac "*** Theorem 3 corrected, any oracle answering as Definition 7 on pairs with a point of G: Theorem3Run.theorem3_global_corrected_if". exact I. Abort.
Print Assumptions Theorem3Run.theorem3_global_corrected_if.
Goal True. idtac "*** Appendix C corrected, global, the same: Theorem3Run.appendix_c_global_corrected_if". exact I. Abort.
Print Assumptions Theorem3Run.appendix_c_global_corrected_if.
From SSAC Require DistanceWeakInstance.
Goal True. idtac "*** Theorem 2 corrected on an instance meeting every hypothesis: DistanceWeakInstance.ex_theorem2". exact I. Abort.
Print Assumptions DistanceWeakInstance.ex_theorem2.
Goal True. idtac "*** Theorem 3 corrected on an instance meeting every hypothesis: DistanceWeakInstance.ex_theorem3". exact I. Abort.
Print Assumptions DistanceWeakInstance.ex_theorem3.
