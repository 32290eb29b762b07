/**
 * ROUGE-1.5.5's usage texts (`-h`, and `-H` with every option explained), as it prints them, with the program name
 * in place of its `$0`.
 */

/** The option synopsis both texts start with. */
function synopsis(program: string): string {
  return `${program}
         [-a (evaluate all systems)]
         [-c cf]
         [-d (print per evaluation scores)]
         [-e ROUGE_EVAL_HOME]
         [-h (usage)]
         [-H (detailed usage)]
         [-b n-bytes|-l n-words]
         [-m (use Porter stemmer)]
         [-n max-ngram]
         [-s (remove stopwords)]
         [-r number-of-samples (for resampling)]
         [-2 max-gap-length (if < 0 then no gap length limit)]
         [-3 <H|HM|HMR|HM1|HMR1|HMR2> (for scoring based on BE)]
         [-u (include unigram in skip-bigram) default no)]
         [-U (same as -u but also compute regular skip-bigram)]
         [-w weight (weighting factor for WLCS)]
         [-v (verbose)]
         [-x (do not calculate ROUGE-L)]
         [-f A|B (scoring formula)]
         [-p alpha (0 <= alpha <=1)]
         [-t 0|1|2 (count by token instead of sentence)]
         [-z <SEE|SPL|ISI|SIMPLE>]
         <ROUGE-eval-config-file> [<systemID>]
`;
}

/** The `-h` text. */
export function rouge155Usage(program: string): string {
  return synopsis(program);
}

/** The `-H` text. */
export function rouge155FullUsage(program: string): string {
  return (
    synopsis(program) +
    '\n' +
    'ROUGE-eval-config-file: Specify the evaluation setup. Three files come with the ROUGE evaluation package, i.e.\n' +
    '          ROUGE-test.xml, verify.xml, and verify-spl.xml are good examples.\n' +
    'systemID: Specify which system in the ROUGE-eval-config-file to perform the evaluation.\n' +
    "          If '-a' option is used, then all systems are evaluated and users do not need to\n" +
    '          provide this argument.\n' +
    'Default:\n' +
    '  When running ROUGE without supplying any options (except -a), the following defaults are used:\n' +
    '  (1) ROUGE-L is computed;\n' +
    '  (2) 95% confidence interval;\n' +
    '  (3) No stemming;\n' +
    '  (4) Stopwords are inlcuded in the calculations;\n' +
    '  (5) ROUGE looks for its data directory first through the ROUGE_EVAL_HOME environment variable. If\n' +
    '      it is not set, the current directory is used.\n' +
    '  (6) Use model average scoring formula.\n' +
    '  (7) Assign equal importance of ROUGE recall and precision in computing ROUGE f-measure, i.e. alpha=0.5.\n' +
    '  (8) Compute average ROUGE by averaging sentence (unit) ROUGE scores.\n' +
    'Options:\n' +
    '  -2: Compute skip bigram (ROGUE-S) co-occurrence, also specify the maximum gap length between two words (skip-bigram)\n' +
    '  -u: Compute skip bigram as -2 but include unigram, i.e. treat unigram as "start-sentence-symbol unigram"; -2 has to be specified.\n' +
    '  -3: Compute BE score. Currently only SIMPLE BE triple format is supported.\n' +
    '      H    -> head only scoring (does not applied to Minipar-based BEs).\n' +
    '      HM   -> head and modifier pair scoring.\n' +
    '      HMR  -> head, modifier and relation triple scoring.\n' +
    '      HM1  -> H and HM scoring (same as HM for Minipar-based BEs).\n' +
    '      HMR1 -> HM and HMR scoring (same as HMR for Minipar-based BEs).\n' +
    '      HMR2 -> H, HM and HMR scoring (same as HMR for Minipar-based BEs).\n' +
    '  -a: Evaluate all systems specified in the ROUGE-eval-config-file.\n' +
    '  -c: Specify CF% (0 <= CF <= 100) confidence interval to compute. The default is 95% (i.e. CF=95).\n' +
    '  -d: Print per evaluation average score for each system.\n' +
    '  -e: Specify ROUGE_EVAL_HOME directory where the ROUGE data files can be found.\n' +
    '      This will overwrite the ROUGE_EVAL_HOME specified in the environment variable.\n' +
    "  -f: Select scoring formula: 'A' => model average; 'B' => best model\n" +
    '  -h: Print usage information.\n' +
    '  -H: Print detailed usage information.\n' +
    '  -b: Only use the first n bytes in the system/peer summary for the evaluation.\n' +
    '  -l: Only use the first n words in the system/peer summary for the evaluation.\n' +
    '  -m: Stem both model and system summaries using Porter stemmer before computing various statistics.\n' +
    '  -n: Compute ROUGE-N up to max-ngram length will be computed.\n' +
    '  -p: Relative importance of recall and precision ROUGE scores. Alpha -> 1 favors precision, Alpha -> 0 favors recall.\n' +
    '  -s: Remove stopwords in model and system summaries before computing various statistics.\n' +
    '  -t: Compute average ROUGE by averaging over the whole test corpus instead of sentences (units).\n' +
    '      0: use sentence as counting unit, 1: use token as couting unit, 2: same as 1 but output raw counts\n' +
    '      instead of precision, recall, and f-measure scores. 2 is useful when computation of the final,\n' +
    '      precision, recall, and f-measure scores will be conducted later.\n' +
    '  -r: Specify the number of sampling point in bootstrap resampling (default is 1000).\n' +
    '      Smaller number will speed up the evaluation but less reliable confidence interval.\n' +
    "  -w: Compute ROUGE-W that gives consecutive matches of length L in an LCS a weight of 'L^weight' instead of just 'L' as in LCS.\n" +
    '      Typically this is set to 1.2 or other number greater than 1.\n' +
    '  -v: Print debugging information for diagnositic purpose.\n' +
    '  -x: Do not calculate ROUGE-L.\n' +
    '  -z: ROUGE-eval-config-file is a list of peer-model pair per line in the specified format (SEE|SPL|ISI|SIMPLE).\n'
  );
}
