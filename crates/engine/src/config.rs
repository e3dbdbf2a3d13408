//! The options of a run ([`Config`]): what to run ([`Entry`]), its
//! limits, inputs, policies (search, libm model, checkers), and the
//! extensions a mode adds.

use crate::*;

/// What to run.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Entry {
    /// `main` (with argc = 1, argv = {"prog", NULL} when it takes them,
    /// plus the symbolic arguments of [`InputOptions::sym_io`]).
    #[default]
    Main,
    /// A function whose parameters become inputs.
    Function {
        /// Its name.
        name: String,
        /// Ranges of parameters (`--range`), their bounds exact.
        ranges: Vec<harness::InputRange>,
        /// Elements in the object a pointer parameter points to (default:
        /// one pointee).
        array_len: Option<u64>,
    },
}

/// How calls to glibc's transcendental functions are treated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LibmModel {
    /// `y = sin(x)` is the term `(fpsym.sin rm x)`: the path goes on
    /// symbolically, the solver (cp) reasons with sound enclosures of the
    /// function, and every model is checked against glibc itself.
    #[default]
    Symbolic,
    /// The arguments are made concrete (one sample, an event: the run is
    /// never verified) and glibc computes: the behaviour before symbolic
    /// functions existed, kept for comparison.
    Concretize,
}

/// Options of a run, grouped: what to run, its limits, its inputs, its
/// policies, the extensions a mode adds and its goals.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Config {
    /// Entry point. Default: main.
    pub entry: Entry,
    /// Limits. Default: see [`RunLimits`].
    pub limits: RunLimits,
    /// Inputs. Default: see [`InputOptions`].
    pub input: InputOptions,
    /// Policies. Default: see [`Policies`].
    pub policy: Policies,
    /// Extensions. Default: see [`Extensions`].
    pub extensions: Extensions,
    /// Goals. Default: see [`Goals`].
    pub goals: Goals,
}

/// The limits of a run: time, memory, states, instructions, queries, loop repetitions, call depth, allocation size, per-query solver time.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RunLimits {
    /// Stop after this long. Default: none.
    pub max_time: Option<Duration>,
    /// Stop when the process's resident set (everything: states, term
    /// tables, caches, in-process solvers) exceeds this many bytes. Read
    /// from `/proc/self/status` between execution steps, at most every
    /// [`MEMORY_CHECK_INTERVAL`]; where it cannot be read, no limit
    /// applies. Default: 4 GiB.
    pub max_memory: u64,
    /// At most this many live states. Default: 100 000.
    pub max_states: usize,
    /// Stop after this many instructions in total. Default: none.
    pub max_instructions: Option<u64>,
    /// Stop after this many solver queries in total (a budget by count,
    /// the same on every machine). Default: none.
    pub max_queries: Option<u64>,
    /// Repetitions of each loop on one path (jumps back to its header, all
    /// entries of the loop together): a path is cut at the jump back that
    /// would exceed it. So a `for` or `while` loop entered once tests its
    /// condition at most this many times plus one and runs its body that
    /// many times, or one more when the body leaves by a `break`.
    /// Default: none.
    pub loop_bound: Option<u32>,
    /// Per-query solver time limit. Default: 10 s.
    pub solver_timeout: Option<Duration>,
    /// A branch side whose query timed out is kept and retried later with
    /// the timeout doubled each time (see [`run`]). Without `max_time`, it
    /// is dropped once its next timeout would exceed this multiple of
    /// `solver_timeout`; with `max_time`, only the end of the run drops it.
    /// Default: 16.
    pub timeout_retry_cap: u32,
    /// Largest heap allocation served (bigger ones return NULL). Default: 1 GiB.
    pub max_alloc: u64,
    /// Deepest call stack. Default: 1000.
    pub max_call_depth: usize,
    /// Instructions a state runs before the searcher chooses again (a
    /// state with nothing else to run beside it goes on while it runs on
    /// the fast path, up to 2^20 steps). Default: 10 000.
    pub quantum: u64,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            max_time: None,
            max_memory: 4 << 30,
            max_states: 100_000,
            max_instructions: None,
            max_queries: None,
            loop_bound: None,
            solver_timeout: Some(Duration::from_secs(10)),
            timeout_retry_cap: 16,
            max_alloc: 1 << 30,
            max_call_depth: 1000,
            quantum: 10_000,
        }
    }
}

/// What the program reads: concrete or symbolic inputs, seeds, symbolic arguments and standard input, the environment.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct InputOptions {
    /// Concrete inputs: an input object named here (as tests name it:
    /// `x`, `p`, `double#1`) gets these bytes as constants instead of
    /// fresh variables; the others stay symbolic. With every input given,
    /// the run follows the one path the test took, without queries (how
    /// modes re-run a test, e.g. with shadow values in high precision).
    /// Default: none.
    pub inputs: Option<BTreeMap<String, Vec<u8>>>,
    /// Concrete inputs by order: the k-th input object a path creates
    /// (from 0) gets the k-th record's bytes as constants, zeros past the
    /// record's end, as the replay driver gives a test's input file (and a
    /// fuzzer's input). So the run follows the one path of a seed whose
    /// objects' names are not known beforehand (a fuzzer's crash).
    /// [`InputOptions::inputs`] takes precedence for an object it names.
    /// Default: none.
    pub ordered_inputs: Option<seeds::Seed>,
    /// Scalars of given inputs that stay variables all the same: (object,
    /// byte offset of the scalar), e.g. the symbolic half of an array
    /// whose other half is concrete. Default: none.
    pub keep_symbolic: std::collections::BTreeSet<(String, u64)>,
    /// Count the distinct inputs reaching each finding of a continuing
    /// check (Ariadne's input-location pairs): a finding already reported
    /// is asked again on each later path that reaches its place (no
    /// test), and each new input counts in [`report::Finding::inputs`].
    /// Default: false (a reported finding asks nothing more).
    pub count_inputs: bool,
    /// Symbolic command-line arguments and standard input of a `main` run
    /// (`--sym-arg`, `--sym-args`, `--sym-stdin`; see [`posix`]); with a
    /// `--function` entry the run does not start ([`EngineError::Entry`]).
    /// Default: none (argc = 1, standard input empty).
    pub sym_io: posix::SymIo,
    /// Float inputs are finite: every floating-point input variable
    /// (function parameters, the floats of their arrays and structs,
    /// `klee_make_symbolic` objects of float types, `__VERIFIER_nondet_float`
    /// and `_double`) is constrained to exclude NaN and the infinities, so
    /// no test or finding has a NaN or infinite float input. Default: false.
    pub finite_inputs: bool,
    /// The environment `getenv` sees (`NAME`, `VALUE`); nothing else is
    /// set. Default: empty.
    pub env: Vec<(String, String)>,
    /// Seeds (KLEE's seeding, see [`seeds`]): concrete inputs, each the
    /// bytes of every input object in the order the program reads them
    /// (as the replay driver and a fuzzing corpus encode them). States
    /// following a seed run first (with [`searcher::Policy::Seeded`]) and
    /// the branch sides a seed takes are answered from its input, without
    /// the solver; the sides it does not take are explored as usual.
    /// Ignored when the mode has its own branch oracle. Default: none.
    pub seeds: Vec<seeds::Seed>,
    /// How many of [`InputOptions::seeds`], from the first, made the program
    /// fail natively (the fuzzer's crashes): a state following one of
    /// them runs before states following only the others, so that a crash
    /// is reached before long non-failing seeds are followed to their end.
    /// Default: 0.
    pub crash_seeds: usize,
}

/// How a run explores and models: search order, libm model, fast path, random seed, printing.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Policies {
    /// Search policy. Default: depth-first.
    pub search: searcher::Search,
    /// How calls to glibc's transcendental functions (`sin`, `exp`, `pow`,
    /// ... on `float` and `double`) are treated. Default: symbolic.
    pub libm: LibmModel,
    /// Runs concrete instructions on machine values ([`fast`]); off, every
    /// instruction goes through the executor (same results, slower).
    /// Default: on.
    pub fast_path: bool,
    /// Seed for random choices. Default: 1.
    pub seed: u64,
    /// Print what the program prints (format strings). Default: false.
    pub print: bool,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            search: searcher::Search::One(searcher::Policy::Dfs),
            libm: LibmModel::Symbolic,
            fast_path: true,
            seed: 1,
            print: false,
        }
    }
}

/// What a mode adds to a run: user hooks, checkers, a k-induction case.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Extensions {
    /// The user's function models ([`hooks::Hook`]), by name: a call to a
    /// hooked function runs its hook, before fpsym's own model and the
    /// program's body (see [`hooks`] for the precedence). Default: none.
    pub hooks: hooks::UserHooks,
    /// The checks run on every instruction, terminator and call result
    /// (each run makes its own from these factories). Default: integer
    /// division ([`checkers::default_checkers`]).
    pub checkers: Vec<checkers::CheckerFactory>,
    /// One case of a k-induction proof ([`induction`]): the base case
    /// (paths from the entry, cut at the head's `k + 1`-th arrival) or the
    /// step case (from an arbitrary state at the head). Paths end without
    /// tests, except those with a finding. Default: none.
    pub induction: Option<induction::Induction>,
}

impl Default for Extensions {
    fn default() -> Self {
        Extensions {
            hooks: hooks::UserHooks::default(),
            checkers: checkers::default_checkers(),
            induction: None,
        }
    }
}

/// What a run looks for: which path endings are findings, and when one answers the question.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Goals {
    /// Which path endings are findings. Default: all findings.
    pub property: Property,
    /// Stop once a finding of this kind was reported
    /// ([`StopReason::Goal`]): for modes one finding answers (a line
    /// reached, a path followed, a value out of range). Default: None.
    pub stop_at_finding: Option<checkers::Kind>,
    /// Kinds a proof before the run showed cannot happen (exceptions'
    /// abstract interpretation): their checks are still asked (a finding
    /// would contradict the proof), but one the solver leaves undecided is
    /// decided by the proof and does not make the run incomplete.
    /// Default: none.
    pub proved_absent: Vec<checkers::Kind>,
}

impl Default for Goals {
    fn default() -> Self {
        Goals {
            property: Property::AllFindings,
            stop_at_finding: None,
            proved_absent: Vec::new(),
        }
    }
}
