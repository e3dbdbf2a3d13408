//! Raw command-line flags (clap). Validation into options happens in each
//! mode's module (`SolveOptions::from_args`), without touching the filesystem.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// fpsym: find the inputs that break floating-point C code.
#[derive(Parser, Debug)]
#[command(name = "fpsym", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Decide an SMT-LIB 2 script over floating point (QF_FP, QF_BV, QF_BVFP).
    ///
    /// Prints sat, unsat or unknown for each check-sat, the model for
    /// get-model (or after every sat with --model), and values for
    /// get-value. Every model is checked against fpsym's exact IEEE
    /// semantics before it is printed.
    ///
    /// Example: fpsym solve --model examples/smtlib/demo.smt2
    Solve(SolveArgs),
    /// Explore a C program's paths with symbolic inputs: a test per path, a finding per bug.
    ///
    /// Compiles the program with clang-14 and executes it with exact
    /// IEEE-754 semantics (every format and rounding mode, NaN, signed
    /// zeros, subnormals). Inputs are the parameters of --function, or what
    /// main reads through klee_make_symbolic, __VERIFIER_nondet_* or the
    /// --sym-* options. Findings: failed assertions, reach_error(), abort,
    /// integer division by zero, out-of-bounds accesses, use after free,
    /// invalid frees; each comes with a test that triggers it. A run that
    /// proves there is no bug ("verified") is checked by native replay
    /// before it exits.
    ///
    /// Example: fpsym run docs/examples/midpoint.c --function midpoint -o out
    Run(RunArgs),
    /// Run a finished run's tests natively and confirm every finding.
    ///
    /// Rebuilds the program of DIR with clang-14 and AddressSanitizer, runs
    /// every test and checks that each finding happens natively at its
    /// file:line and that every other test ends as recorded. Writes
    /// DIR/replay.json. Exit 3 if a finding is not confirmed or a test
    /// behaves otherwise.
    ///
    /// Example: fpsym replay out --coverage
    Replay(ReplayArgs),
    /// Find inputs that raise floating-point exceptions (overflow, underflow, divide-by-zero, invalid).
    ///
    /// Every floating-point operation, conversion and libm call is checked
    /// in the path's rounding mode, bit-precisely; a float converted to an
    /// integer type that cannot hold it is reported too (inexact on
    /// request). The path goes on after each exception, so later ones are
    /// found as well. Takes every option of `run`.
    ///
    /// Example: fpsym exceptions docs/examples/stats.c --function norm2 --replay
    Exceptions(ExceptionsArgs),
    /// Find the input that makes a function's floating-point result least accurate.
    ///
    /// Each input is measured by running the function's path again in high
    /// precision (MPFR); a random phase is followed by symbolic rounds that
    /// steer toward precision loss and cancellation, and a local refinement
    /// of the worst input. Writes DIR/error.json and the worst input as a
    /// test. Takes the options of `run`.
    ///
    /// Example: fpsym error docs/examples/quadratic.c --function larger_root --range 'a=[1,10]' --range 'b=[1e3,1e8]' --range 'c=[1,10]' --max-time 20
    Error(ErrorArgs),
    /// Find an input that reaches a line or takes a path, or prove that none does.
    ///
    /// --reach asks for a line, --path for a sequence of branch decisions,
    /// --all-paths lists every path with its verdict. The search is
    /// directed: branch sides from which the target cannot be reached are
    /// not explored, the closest states run first. "infeasible" is a proof
    /// under IEEE semantics; with --loop-bound a search that hits the bound
    /// answers "unknown" instead. Takes the options of `run` except
    /// --search and --property.
    ///
    /// Example: fpsym path docs/examples/classify.c --function sign_of --reach 11
    Path(PathArgs),
    /// Check that a function's result stays in the range its real-number computation stays in.
    ///
    /// For each side of the expected range (below, above, NaN): an input
    /// whose float result lands there, or a proof that none exists over
    /// every path (with --unroll, only up to the bound, and said so). Also
    /// reports the result's float range by interval propagation. Checks the
    /// return value, the floats behind a pointer parameter, or a global.
    /// Takes the options of `run`.
    ///
    /// Example: fpsym critical docs/examples/derivative.c --function derivative_of_square --range 'x=[13,13]' --range 'h=[1e-6,1e-3]' --expect 'ret=[25.99999,26.00001]'
    Critical(CriticalArgs),
    /// Analyse many functions of a library, in parallel and sharded across machines.
    ///
    /// Each function gets its own process with its own time and memory
    /// limits (a crash or a hang is recorded, the batch goes on); the
    /// library is compiled once. Writes one line per function to
    /// DIR/results.jsonl, a run directory per function, and reports over
    /// all. Options of the mode (e.g. --replay, --kinds, --range) are given
    /// among batch's own or after `--`.
    ///
    /// Example: fpsym batch docs/examples/stats.c --all-functions --mode exceptions --jobs 2 --max-time-per-function 10 -o batch-out --replay
    Batch(BatchArgs),
    /// Merge the output directories of a batch's shards into one.
    ///
    /// Copies the shards' run directories, writes one results.jsonl and the
    /// reports over all of them, and lists the functions no shard has.
    /// Shards that overlap or were run with other options are refused.
    ///
    /// Example: fpsym merge shard-0 shard-1 -o merged
    Merge(MergeArgs),
    /// Show a run's tests and findings for people.
    ///
    /// Each input by name and type, its value in decimal (shortest
    /// round-trip) and as a hex float, and its class (normal, subnormal,
    /// zero, inf, NaN); arrays and structs element by element; with a
    /// directory, also the findings with their tests.
    ///
    /// Example: fpsym show out --test 3
    Show(ShowArgs),
    /// Export a run's findings as standalone C reproducers, or its tests as a libFuzzer corpus or a Test-Comp suite.
    ///
    /// --c writes a reproducer NNN-KIND.c per finding: the inputs as C
    /// literals and, in its first comment, the command that builds and runs
    /// it with the program. --libfuzzer writes every test as a corpus file.
    /// --testcomp writes the tests in Test-Comp's test-suite format.
    ///
    /// Example: fpsym export out --c
    Export(ExportArgs),
}

/// The modes `fpsym batch` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BatchMode {
    /// `fpsym run`.
    Run,
    /// `fpsym exceptions`.
    Exceptions,
    /// `fpsym error`.
    Error,
    /// `fpsym path`.
    Path,
    /// `fpsym critical`.
    Critical,
}

impl BatchMode {
    /// The subcommand's name.
    pub fn name(self) -> &'static str {
        match self {
            BatchMode::Run => "run",
            BatchMode::Exceptions => "exceptions",
            BatchMode::Error => "error",
            BatchMode::Path => "path",
            BatchMode::Critical => "critical",
        }
    }
}

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["all_functions", "functions", "manifest"]))]
pub struct BatchArgs {
    /// The library: C sources (.c, .i; their functions are the ones
    /// analysed) and LLVM bitcode (.bc, .ll; linked, not analysed),
    /// compiled and linked once.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Every external function with a body in the C files (not `main`,
    /// not variadic).
    #[arg(long)]
    pub all_functions: bool,
    /// These functions (comma-separated, repeatable).
    #[arg(long, value_delimiter = ',', value_name = "F,G,...")]
    pub functions: Vec<String>,
    /// One job per line: `{"function": "f"}`, optionally with `"file"`
    /// (the C file defining it, as given on the command line), `"args"`
    /// (more options of the mode for this function, e.g.
    /// ["--range", "x=[0,1]"]), `"max_time"` (seconds) and `"array_len"`
    /// (its --array-len).
    #[arg(long, value_name = "JOBS.jsonl")]
    pub manifest: Option<std::path::PathBuf>,
    /// The analysis each function gets.
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: BatchMode,
    /// Functions analysed at once (one process each).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Analyse only shard I of N (0 <= I < N): the functions whose stable
    /// hash of file and function is I modulo N, so N machines given
    /// 0/N ... N-1/N cover every function exactly once.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Each function's time limit (its --max-time: it stops there and
    /// keeps what it found; status timed-out).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub max_time_per_function: f64,
    /// Each function's memory limit in MiB (its --max-memory; a process
    /// holding 25 % more is killed; status out-of-memory).
    #[arg(long, value_name = "MIB")]
    pub max_memory_per_function: Option<u64>,
    /// Seconds a function's process gets after its time limit (for the
    /// mode's own steps, replay and reports) before it is killed (status
    /// timed-out).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub grace: f64,
    /// Continue an interrupted batch in -o DIR: functions already in
    /// DIR/results.jsonl are skipped (the options must be the same). On a
    /// new or empty directory, start the batch.
    #[arg(long)]
    pub resume: bool,
    /// Empty -o DIR first if it holds an earlier batch.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Output directory: results.jsonl, batch.json, build/ (the library,
    /// built once), functions/FILE/FUNCTION/ (each function's run),
    /// logs/, and the reports.
    #[arg(short = 'o', long = "out", value_name = "DIR", required = true)]
    pub output: std::path::PathBuf,
    /// Run each function's process under this command (split at spaces),
    /// e.g. `nice -n 10` or `prlimit --cpu=600`.
    #[arg(long, value_name = "CMD")]
    pub wrapper: Option<String>,
    /// The mode's options, given after `--` or among batch's own.
    /// `--array-len N` is every function's, `--array-len NAME=N` (repeatable)
    /// the function NAME's.
    #[arg(last = true, value_name = "MODE_OPTIONS")]
    pub mode_args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Output directories of `fpsym batch` (e.g. one per shard).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<std::path::PathBuf>,
    /// Where the merged results and reports go (a new or empty directory).
    #[arg(short = 'o', long = "out", value_name = "OUT", required = true)]
    pub output: std::path::PathBuf,
    /// Empty OUT first if it holds an earlier merge or batch.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// An output directory of fpsym, or one test file (tests/NNNNNN.json).
    pub path: std::path::PathBuf,
    /// Only this test of the directory.
    #[arg(long, value_name = "N")]
    pub test: Option<u64>,
    /// Print the same as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("what").required(true).multiple(true).args(["c", "libfuzzer", "testcomp"]))]
pub struct ExportArgs {
    /// The output directory of a fpsym run.
    pub dir: std::path::PathBuf,
    /// Write a standalone reproducer NNN-KIND.c per finding (the inputs as
    /// C literals; its first comment says how to build and run it).
    #[arg(long)]
    pub c: bool,
    /// Where --c writes (default DIR/export).
    #[arg(short = 'o', long = "out", value_name = "EXPORT_DIR", requires = "c")]
    pub out: Option<std::path::PathBuf>,
    /// Write every test as a libFuzzer corpus file CORPUS_DIR/NNNNNN: the
    /// inputs as the replay driver reads them (per input, a 4-byte
    /// little-endian length then its bytes, in the order the program reads
    /// them).
    #[arg(long, value_name = "CORPUS_DIR")]
    pub libfuzzer: Option<std::path::PathBuf>,
    /// Write the tests as a Test-Comp test suite in SUITE_DIR (test-format
    /// 1.1): metadata.xml and one NNNNNN.xml per test, the values of its
    /// __VERIFIER_nondet_* calls in call order (floats as exact hex
    /// literals). The specification is the run's --property
    /// (coverage-error, coverage-branches; default coverage-branches).
    #[arg(long, value_name = "SUITE_DIR")]
    pub testcomp: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct CriticalArgs {
    /// The range a value must stay in at the function's return, the
    /// bounds exact decimals (not rounded through a C double; `-inf`/`inf`
    /// or empty for none): `ret=[LO,HI]` (the result), `PARAM=[LO,HI]`
    /// (every float of the object a pointer parameter points to),
    /// `PARAM[i]=[LO,HI]` (one element of it), `GLOBAL=[LO,HI]` or
    /// `GLOBAL[i]=[LO,HI]` (a global variable's floats). Repeatable.
    #[arg(long, value_name = "WHAT=[LO,HI]", required = true)]
    pub expect: Vec<String>,
    /// Seconds of interval propagation per value and path for the float
    /// range (the enclosure stops wider, still sound, when they run out).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub enclose_timeout: f64,
    /// Explore at most this many repetitions of each loop (the same as
    /// --loop-bound); a run cut by it proves nothing.
    #[arg(long, value_name = "K")]
    pub unroll: Option<u32>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Args, Debug)]
pub struct PathArgs {
    /// The line to reach: LINE, or FILE:LINE when several files are given.
    #[arg(
        long,
        value_name = "[FILE:]LINE",
        conflicts_with_all = ["path", "all_paths"],
        required_unless_present_any = ["path", "all_paths"]
    )]
    pub reach: Option<String>,
    /// The path, as the decisions at two-way branches in execution order:
    /// LINE:T (the condition holds) or LINE:F, LINE:COL:T when a line has
    /// several conditions, LINE:T*N for N times in a row; a final `...`
    /// allows any continuation (a prefix). Branches on other lines are
    /// free. Example: '48:T,50:F*3,48:F'. An order no execution takes
    /// (for `if (a && b)` the branch of a, at the `&&`, runs before that
    /// of b, at the condition's start) is an input error.
    #[arg(long, value_name = "SPEC", conflicts_with = "all_paths")]
    pub path: Option<String>,
    /// List every path (up to --loop-bound repetitions of each loop), each
    /// with its verdict and the time the cp solver takes to decide it
    /// alone, with and without its ULP-Max filtering. An infeasible path is
    /// listed once, ending at the decision that makes it infeasible.
    /// Written to OUT/paths.json. With --max-time, the run gets half of it
    /// and the re-decisions the rest.
    #[arg(long)]
    pub all_paths: bool,
    /// The file whose lines --path names (default: the only C file given).
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Args, Debug)]
pub struct ErrorArgs {
    /// The result measured: `ret` (the return value), `PARAM` (every
    /// float of the object a pointer parameter points to, or of a global),
    /// `PARAM[i]` (one element). Default: the return value if the
    /// function returns a float, else every float it leaves behind its
    /// pointer parameters. The error of several is their maximum.
    #[arg(long, value_name = "ret|PARAM|PARAM[i]|GLOBAL")]
    pub output: Option<String>,
    /// Bits of precision of the reference (MPFR).
    #[arg(long, default_value_t = 128, value_name = "BITS")]
    pub precision: u32,
    /// Precision-loss branch: operand exponents this many or more apart.
    #[arg(long, default_value_t = 32)]
    pub sigma: u32,
    /// Cancellation branch: the result's exponent this many or more below
    /// the larger operand's.
    #[arg(long, default_value_t = 40)]
    pub theta: u32,
    /// Where the inaccuracy branches go: `all` additions and subtractions,
    /// those in `loops`, or those on the lines `LINE,LINE,...`.
    #[arg(long, default_value = "loops", value_name = "all|loops|LINE,...")]
    pub sites: String,
    /// Which loop iterations get them: uniform (start, start+step, ...)
    /// or log (start, start*step, ...).
    #[arg(long, value_enum, default_value_t = SamplingArg::Uniform)]
    pub sampling: SamplingArg,
    /// First sampled iteration (from 0).
    #[arg(long, default_value_t = 0)]
    pub start: u32,
    /// Distance (uniform) or factor (log) between sampled iterations.
    #[arg(long, default_value_t = 1)]
    pub step: u32,
    /// Seconds of random search before the symbolic rounds. Default: a
    /// fifth of --max-time (not used by a reproducible run, --seed).
    #[arg(long, value_name = "SECS")]
    pub tau0: Option<f64>,
    /// Seconds of each symbolic round (and of each refinement); a round
    /// that needs more halves its symbolic inputs. Default: a twentieth of
    /// --max-time, at least 2 (not used by a reproducible run, --seed).
    #[arg(long, value_name = "SECS")]
    pub tau1: Option<f64>,
    /// The search: fpsym (a random phase, then symbolic rounds alternating
    /// with a local refinement of the worst input), fpgen (the random phase
    /// and symbolic rounds, without refinement), or random (random inputs
    /// only, for the whole time: a baseline).
    #[arg(long, value_enum, default_value_t = Strategy::Fpsym)]
    pub strategy: Strategy,
    /// Seed of the random choices. Given (or with --rounds), the run is
    /// reproducible: its phases are cut by counts, not by time
    /// (--random-inputs, then --rounds rounds of a fixed size), and its
    /// queries go to z3 with a resource limit instead of a time limit
    /// (unless --solver names another backend), so the same command gives
    /// the same error.json. --max-time stays a cap; error.json says when
    /// it cut a run. Default: seed 1, phases cut by time.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The symbolic rounds of a reproducible run, each a local refinement
    /// of at most 500 measured inputs and a symbolic run of at most
    /// 2,000,000 instructions and 10 solver queries. Default with --seed:
    /// 4.
    #[arg(long, value_name = "N")]
    pub rounds: Option<u32>,
    /// What the search maximises: relative (`|r - r0| / max(FLT_MIN,
    /// |r0|)`, a NaN result the largest), fpgen (FPGen's rule: the same in
    /// `__float128` against the program built with `__float128` for `float`
    /// and `double`, branching on its own values; a NaN error counts 0),
    /// bits (Herbie's: log2 of the floats between computed and exact), or
    /// absolute (`|r - r0|`). error.json gives every metric for the worst
    /// input.
    #[arg(long, value_enum, default_value_t = MetricArg::Relative)]
    pub metric: MetricArg,
    /// Inputs the random phase runs natively (the program built with a
    /// harness), then native runs bisecting random inputs to where a
    /// result's computed sign changes (its zeros, where the relative error
    /// is unbounded) and walking along them, and as many evolving the
    /// worst inputs (stacked moves: values copied, negated, made tiny,
    /// near-equal): eight per random input each for a function of 8 scalar
    /// inputs and results, proportionally fewer for a larger one (at least
    /// 0.8, at most 32); the worst go on to the symbolic rounds. Within the phase's time (--tau0), or, in a
    /// reproducible run (--seed), until the count. `--strategy random`
    /// runs random inputs natively until --max-time (with --seed: N of
    /// them). 0: the random phase measures inputs on the symbolic
    /// executor instead, as it does when the native build fails.
    #[arg(long, default_value_t = 250_000, value_name = "N")]
    pub random_inputs: u64,
    /// Measure this input instead of searching: `NAME=V` for a scalar,
    /// `NAME=V,V,...` for an array's first elements (the rest are 0), in
    /// decimal as error.json writes them. Repeatable; unnamed inputs are 0.
    #[arg(long, value_name = "NAME=V,...")]
    pub input: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `--data-model`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    /// x86-64: 8-byte `long` and pointers.
    #[value(name = "LP64")]
    Lp64,
    /// i386 with SSE2 float arithmetic: 4-byte `long` and pointers.
    #[value(name = "ILP32")]
    Ilp32,
}

/// `fpsym error --metric`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricArg {
    /// `|r - r0| / max(FLT_MIN, |r0|)`.
    Relative,
    /// FPGen's rule against a `__float128` build.
    Fpgen,
    /// Herbie's bits of error.
    Bits,
    /// `|r - r0|`.
    Absolute,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplingArg {
    /// start, start + step, start + 2 step, ...
    Uniform,
    /// start, start * step, start * step^2, ...
    Log,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// A random phase, then symbolic rounds with a local refinement of the
    /// worst input between them (bisection to where a result crosses zero, inputs
    /// set to each other's values, ulp steps).
    Fpsym,
    /// The random phase, then symbolic rounds, without refinement.
    Fpgen,
    /// Random inputs only (the baseline).
    Random,
}

#[derive(Args, Debug)]
pub struct ExceptionsArgs {
    /// The exceptions to report, comma-separated. Default: overflow,
    /// underflow, divide-by-zero, invalid, float-cast-overflow.
    #[arg(long, value_delimiter = ',', value_name = "KIND,...")]
    pub kinds: Vec<ExceptionKind>,
    /// Analyse every external function of your files (not main, not
    /// variadic), each with its parameters as inputs, into
    /// OUT/functions/FUNCTION.
    #[arg(long, conflicts_with = "function")]
    pub all_functions: bool,
    /// With --all-functions: stop each function after this many seconds
    /// (default: --max-time, else 60).
    #[arg(long, value_name = "SECS", requires = "all_functions")]
    pub max_time_per_function: Option<f64>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionKind {
    /// A result too large for its format.
    Overflow,
    /// A tiny and inexact result (tininess after rounding, as x86 SSE).
    Underflow,
    /// A finite non-zero value divided by zero, or a pole (log(0), ...).
    DivideByZero,
    /// No meaningful result: 0/0, inf-inf, 0*inf, sqrt(-1), log(-1), a
    /// signalling NaN operand.
    Invalid,
    /// A float converted to an integer type that cannot hold it.
    FloatCastOverflow,
    /// A rounded result (almost every operation: off by default).
    Inexact,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The output directory of `fpsym run`.
    pub dir: std::path::PathBuf,
    /// Measure line and branch coverage of your source files over all tests
    /// (clang source-based coverage, llvm-profdata-14, llvm-cov-14).
    #[arg(long)]
    pub coverage: bool,
    /// Also write llvm-cov's HTML coverage report into DIR.
    #[arg(long, value_name = "DIR")]
    pub coverage_html: Option<std::path::PathBuf>,
    /// Replay only this test: what it did natively (exit status or
    /// signal, what was observed, its stderr) and whether that is what the
    /// run recorded. Writes DIR/replay/test-NNNNNN.json; DIR/replay.json
    /// (the whole run's) is left as it was.
    #[arg(long, value_name = "N")]
    pub test: Option<u64>,
    /// Check an SV-COMP violation witness (format 2.0) natively instead:
    /// run the program with the values its function_return waypoints give
    /// the __VERIFIER_nondet_* calls, in order; exit 0 when it calls
    /// reach_error at the witness's target line, 1 when it does not.
    #[arg(long, value_name = "WITNESS.yml", conflicts_with_all = ["test", "coverage", "coverage_html"])]
    pub witness: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// C sources (.c), preprocessed C (.i) and LLVM 14 bitcode (.bc, .ll)
    /// to link and run.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Run this function instead of main: its scalar parameters become
    /// inputs, pointer parameters point to symbolic objects.
    #[arg(long, value_name = "NAME")]
    pub function: Option<String>,
    /// Restrict a parameter of --function: `x=[a,b]` (inclusive), the
    /// bounds exact decimals or -inf/inf: a float takes the floats inside
    /// the real interval, an integer the integers. Repeatable.
    #[arg(long = "range", value_name = "PARAM=[LO,HI]")]
    pub ranges: Vec<String>,
    /// Elements behind each pointer parameter of --function (default 1).
    #[arg(long, value_name = "N")]
    pub array_len: Option<u64>,
    /// Add an include directory for clang.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<std::path::PathBuf>,
    /// Define a macro for clang (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "MACRO")]
    pub define: Vec<String>,
    /// Pass a flag to clang. Repeatable.
    #[arg(long = "cflag", value_name = "FLAG", allow_hyphen_values = true)]
    pub cflags: Vec<String>,
    /// The data model (SV-COMP's option): `LP64` compiles for x86-64;
    /// `ILP32` for i386 (4-byte `long` and pointers, i386 struct layouts and
    /// `va_list`), with SSE2 float arithmetic as on x86-64 (`-m32 -msse2
    /// -mfpmath=sse`: clang's i386 default, x87, is not modelled). Every
    /// build (analysis, replay, fuzzing) uses it.
    #[arg(long, value_enum, default_value = "LP64", ignore_case = true, value_name = "MODEL")]
    pub data_model: DataModel,
    /// Output directory (default: a fresh fpsym-out-N in the current
    /// directory). A directory that is not empty (e.g. an earlier run's) is
    /// refused unless --force is given.
    #[arg(short = 'o', long = "out", id = "out_dir", value_name = "DIR")]
    pub output: Option<std::path::PathBuf>,
    /// Empty the -o directory first if it holds an earlier run's results
    /// (only what a run writes is removed; a directory with other files is
    /// refused). Results of two runs are never mixed.
    #[arg(long)]
    pub force: bool,
    /// What counts as a finding: `unreach-call` (SV-COMP: only calls to
    /// reach_error()/__VERIFIER_error(); abort, exit and failed assertions
    /// end a path normally), or the path of an SV-COMP .prp file stating
    /// it. Prints the SV-COMP verdict. Default: every bug is a finding.
    #[arg(long, value_name = "PROPERTY|FILE.prp")]
    pub property: Option<String>,
    /// Where the SV-COMP witness of an unreach-call verdict goes (format
    /// 2.0, YAML; default OUT/witness.yml). For false(unreach-call), a
    /// violation witness: the values of the __VERIFIER_nondet_* calls in
    /// call order, then the reach_error call (`fpsym replay OUT --witness
    /// FILE` checks one natively). For true, a correctness witness with no
    /// invariants (every path was explored).
    #[arg(long, value_name = "FILE")]
    pub witness: Option<std::path::PathBuf>,
    /// How to prove `--property unreach-call` when the paths cannot all be
    /// explored (a loop without a bound), before the symbolic run: `auto`
    /// (the default) tries an abstract interpretation with IEEE intervals,
    /// sound in every rounding mode, within a quarter of --max-time (at most
    /// 20 s), and when it proves nothing, k-induction over a loop of `main`
    /// (k = 1 to 8, through the solver chain; what is left of the quarter,
    /// at least half of it) assuming the invariants it found; `abstract` and
    /// `kinduction` try one of them alone (k-induction then assumes
    /// nothing); `none` tries no proof. A plain run (no --property) tries
    /// the abstract interpretation only with `abstract`. `fpsym
    /// exceptions` tries the abstract interpretation (not with `kinduction`
    /// or `none`) for the overflow, divide-by-zero and cast-overflow kinds,
    /// from `main` or `--function` with its `--range`s, within an eighth of
    /// --max-time; the verdict is `verified` when the run cannot finish and
    /// every kind asked is proved. A proof's verdict names the loop
    /// invariants or the k that prove it; a correctness witness states the
    /// invariants.
    #[arg(long, value_name = "HOW", default_value = "auto", value_parser = ["auto", "abstract", "kinduction", "none"])]
    pub prove: String,
    /// Search: dfs, bfs, random-path, coverage-new, seeded (states following
    /// a seed of the fuzzing phase first, then dfs), or two joined by `+`
    /// to interleave them (e.g. random-path+coverage-new).
    #[arg(long, default_value = "dfs", value_name = "SEARCH")]
    pub search: String,
    /// Stop after this many seconds (graceful: everything found is kept).
    #[arg(long, value_name = "SECS")]
    pub max_time: Option<f64>,
    /// Native fuzzing phase before the symbolic search (`run` only by
    /// default): the program built with libFuzzer and FP-aware mutations
    /// runs this many seconds, its crashes become findings (confirmed by
    /// the seeded symbolic run and replay) and its inputs seed the search.
    /// Default: a tenth of --max-time when it is 10 s or more, else off
    /// (also without --max-time). 0: off.
    #[arg(long, value_name = "SECS")]
    pub fuzz_time: Option<f64>,
    /// Stop when the process (solver included) holds more than this many MiB
    /// of resident memory.
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Stop when more than this many states are alive.
    #[arg(long, value_name = "N")]
    pub max_states: Option<usize>,
    /// Stop after this many instructions in total.
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Execute every instruction through the symbolic executor, also
    /// where all operands are concrete (by default those run on machine
    /// values; the results are the same, only slower).
    #[arg(long)]
    pub no_fast_path: bool,
    /// Repetitions of each loop on one path before the path stops (jumps
    /// back to its header, all entries of the loop together): a `for` or
    /// `while` loop entered once runs its body at most N times, N + 1 when
    /// the last run leaves by a `break`.
    #[arg(long, value_name = "N")]
    pub loop_bound: Option<u32>,
    /// Time limit per solver query, in seconds (default 10).
    #[arg(long, value_name = "SECS")]
    pub solver_timeout: Option<f64>,
    /// Print what the program prints (format strings only).
    #[arg(long)]
    pub print: bool,
    /// Set an environment variable the program's `getenv` sees (it sees no
    /// other; replay runs it with the same). Repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Do not link fpsym's C runtime (string.h, stdlib.h, ctype.h, stdio.h
    /// input).
    #[arg(long)]
    pub no_runtime: bool,
    /// How glibc's transcendental functions (sin, exp, pow, ... on float,
    /// double and long double) are treated: `symbolic` (the result is a symbolic
    /// value the cp solver encloses soundly; models are checked against
    /// glibc) or `concretize` (one sample of the arguments, computed
    /// natively; the run is then never verified).
    #[arg(long, value_enum, default_value = "symbolic", value_name = "HOW")]
    pub libm: LibmArg,
    /// main gets one more argument: a symbolic string of up to N
    /// characters (KLEE's --sym-arg). Repeatable: each adds one argument,
    /// in command-line order with --sym-args. Tests name it argv[1],
    /// argv[2], ...; replay passes it to the process.
    #[arg(long = "sym-arg", value_name = "N", help_heading = "Symbolic inputs")]
    pub sym_arg: Vec<u32>,
    /// main gets between MIN and MAX more arguments, each a symbolic string
    /// of up to N characters (KLEE's --sym-args): one path per count.
    /// Repeatable.
    #[arg(
        long = "sym-args",
        num_args = 3,
        value_names = ["MIN", "MAX", "N"],
        help_heading = "Symbolic inputs"
    )]
    pub sym_args: Vec<u32>,
    /// Standard input holds N symbolic bytes, then end of file (KLEE's
    /// --sym-stdin), read by getchar, getc, fgetc, fgets, fread, scanf and
    /// fscanf. Tests name it `stdin`; replay writes it to the process's
    /// standard input. Without it standard input is empty.
    #[arg(long = "sym-stdin", value_name = "N", help_heading = "Symbolic inputs")]
    pub sym_stdin: Option<u64>,
    /// Float inputs are finite: no NaN and no infinity for any float
    /// parameter (and float element of an array or struct parameter),
    /// klee_make_symbolic object of a float type, or
    /// __VERIFIER_nondet_float/double. Findings then never have a NaN or
    /// infinite input.
    #[arg(long, help_heading = "Symbolic inputs")]
    pub finite_inputs: bool,
    /// The order of --sym-arg and --sym-args on the command line (true:
    /// a --sym-args group), filled by [`parse`].
    #[arg(skip)]
    pub sym_order: Vec<bool>,
    /// When done, replay every test natively and confirm the findings
    /// (as `fpsym replay DIR`). A run ending with a claim (verified,
    /// infeasible, every critical side proved, no exception of a kind)
    /// replays by default; --replay also replays the others.
    #[arg(long)]
    pub replay: bool,
    /// Do not replay the tests natively, not even to check a claim
    /// (verified, infeasible): the claim then rests on the model alone.
    #[arg(long, conflicts_with = "replay")]
    pub no_replay: bool,
    /// When replaying: also measure coverage (as `fpsym replay --coverage`).
    #[arg(long)]
    pub coverage: bool,
    /// Print the final summary as one JSON object on stdout (verdict,
    /// exit code, counters, findings, the mode's own record); everything
    /// else fpsym prints goes to stderr.
    #[arg(long)]
    pub json: bool,
    /// Load the program `fpsym batch` built once into this directory
    /// (its `build`) instead of compiling FILE... again; the output
    /// directory's `build` links to it.
    #[arg(long, hide = true, value_name = "BUILD_DIR")]
    pub prebuilt: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub solver: SolverArgs,
}

/// `--libm`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum LibmArg {
    /// Symbolic results, sound enclosures, models checked against glibc.
    Symbolic,
    /// One concrete sample, computed natively.
    Concretize,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The script to read, or `-` for standard input.
    pub file: String,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Time limit per check-sat, in seconds (fractions allowed). No limit by default.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Time limit for the whole script, in seconds: each check-sat gets at
    /// most what is left (and at most --timeout). No limit by default.
    #[arg(long, value_name = "SECS")]
    pub max_time: Option<f64>,
    /// Print the model after each sat answer.
    #[arg(long)]
    pub model: bool,
    /// Print solver statistics on standard error when done.
    #[arg(long, value_name = "FORMAT")]
    pub stats: Option<StatsFormat>,
}

/// How queries are decided; the same options in every mode that solves.
#[derive(Args, Debug)]
#[command(next_help_heading = "Solver")]
pub struct SolverArgs {
    /// Backend that decides the queries: `portfolio` (cp, ls, z3 and cvc5
    /// when installed, together), `z3` (Z3 in process), `cp` (fpsym's
    /// interval-consistency solver over IEEE floats), `ls` (local search
    /// over float ordinals: finds models, answers sat or unknown, never
    /// unsat), or `process:COMMAND` (a solver binary reading SMT-LIB 2 on
    /// standard input, e.g. "process:cvc5 --lang smt2", "process:z3 -in").
    #[arg(long, default_value = "portfolio", value_name = "BACKEND")]
    pub solver: String,
    /// How the portfolio runs its members: `staged` (cp first, then ls, z3
    /// and cvc5 joining it one after another, a twentieth of the time left
    /// apart and at most 250 ms, each running on until one decides: cp
    /// alone decides the easy queries, and the member that would decide a
    /// hard one is never starved by the order nor restarted; ls, which only
    /// finds models, within a tenth of the time), `sequential` (cp with a fifth
    /// of the time left, at most 2 s, ls with a tenth, at most 2 s, then
    /// z3, then cvc5; members cut off by their slice run again when another
    /// gave up early) or `parallel` (all at once, the first definite answer
    /// wins).
    #[arg(long, value_name = "MODE", default_value = "staged")]
    pub portfolio: PortfolioArg,
    /// Leave cvc5 out of the portfolio even when it is installed.
    #[arg(long)]
    pub no_cvc5: bool,
    /// Staged portfolio: do not learn per query shape which member decides
    /// (by default, once a member has decided such a query, members start
    /// in order of wins, and one that decided them only quickly, or none
    /// of them, runs within twice its slowest win, at least 250 ms, again
    /// with all the time left when no one decided; to measure its effect).
    #[arg(long)]
    pub no_learning: bool,
    /// Ask every query also of BACKEND (same syntax as --solver); a sat/unsat
    /// disagreement prints "disagreement", writes the query, and exits 3.
    #[arg(long, value_name = "BACKEND")]
    pub cross_check: Option<String>,
    /// Write every query that reaches a backend to DIR as a standalone .smt2
    /// file with the answer in (set-info :status ...).
    #[arg(long, value_name = "DIR")]
    pub dump_queries: Option<std::path::PathBuf>,
    /// Turn off the query cache and counterexample reuse.
    #[arg(long)]
    pub no_cache: bool,
    /// Turn off splitting queries into independent groups of constraints.
    #[arg(long)]
    pub no_independence: bool,
    /// cp: turn off filtering by maximum ULP (which removes values an
    /// addition or subtraction cannot produce; to measure its effect).
    #[arg(long)]
    pub no_ulp_max: bool,
    /// cp: turn off bound tightening by linear relaxation (the query's
    /// arithmetic as linear rows with bounded rounding errors, each bound
    /// checked exactly), which cp uses when its search has not answered
    /// after 5,000 nodes.
    #[arg(long)]
    pub no_linear: bool,
    /// cp: local consistency before search: `2b` (hull consistency) or `3b`
    /// (2B plus shaving of the inputs' bounds).
    #[arg(long, value_name = "2b|3b")]
    pub consistency: Option<String>,
    /// cp: variable choice: `largest` (by float count), `most-constrained`, `static` (input order).
    #[arg(long = "var", value_name = "CHOICE")]
    pub var_choice: Option<String>,
    /// cp: value choice: `fpse` (midpoint v, then x=v, x<v, x>v), `5way`
    /// (l, r, m, (l,m), (m,r)), `3point` (l, r, m; incomplete: never unsat), `bisect`.
    #[arg(long, value_name = "STRATEGY")]
    pub split: Option<String>,
    /// cp: relative narrowing (in %) below which a direct projection is withdrawn. Default 0.
    #[arg(long, value_name = "PERCENT")]
    pub eps_direct: Option<f64>,
    /// cp: relative narrowing (in %) below which an indirect projection is withdrawn. Default 10.
    #[arg(long, value_name = "PERCENT")]
    pub eps_indirect: Option<f64>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortfolioArg {
    /// Every member at once on its own thread; the first definite answer wins.
    Parallel,
    /// One member after another: cp, ls, z3, then cvc5, each with a share of the time.
    Sequential,
    /// cp first, then ls, z3 and cvc5 joining it a short time apart (a twentieth of
    /// the time, at most 250 ms), each running on until one decides.
    Staged,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsFormat {
    /// One JSON object.
    Json,
}

pub fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().try_get_matches_from(batch_argv(std::env::args_os().collect()))?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
    if let (Some((_, sub)), Some(run)) = (matches.subcommand(), cli.command.run_args_mut()) {
        run.sym_order = sym_order(sub);
    }
    Ok(cli)
}

impl Command {
    /// The options of `run` a mode takes, if it takes them.
    fn run_args_mut(&mut self) -> Option<&mut RunArgs> {
        match self {
            Command::Run(r) => Some(r),
            Command::Exceptions(a) => Some(&mut a.run),
            Command::Error(a) => Some(&mut a.run),
            Command::Path(a) => Some(&mut a.run),
            Command::Critical(a) => Some(&mut a.run),
            _ => None,
        }
    }
}

/// The order of the `--sym-arg` and `--sym-args` occurrences (true: a
/// `--sym-args` group), from the positions of their values.
fn sym_order(m: &clap::ArgMatches) -> Vec<bool> {
    let positions = |id: &str| -> Vec<usize> {
        match m.try_get_raw_occurrences(id) {
            Ok(Some(_)) => m.indices_of(id).map(|i| i.collect()).unwrap_or_default(),
            _ => Vec::new(),
        }
    };
    let mut all: Vec<(usize, bool)> = positions("sym_arg").into_iter().map(|i| (i, false)).collect();
    all.extend(positions("sym_args").chunks(3).map(|c| (c[0], true)));
    all.sort();
    all.into_iter().map(|(_, g)| g).collect()
}

/// `fpsym batch`'s command line with the mode's options moved after `--`
/// (into [`BatchArgs::mode_args`]): a flag batch does not know but the
/// mode (`--mode M`) does is the mode's, with as many values as the mode
/// says it takes. Anything else is left where it is, for clap to accept
/// or refuse. Other commands' lines are returned unchanged.
pub fn batch_argv(argv: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    use clap::CommandFactory;
    let text: Vec<String> = argv.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    if text.get(1).map(String::as_str) != Some("batch") {
        return argv;
    }
    let mode = text.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--mode=")
            .map(str::to_string)
            .or_else(|| (a == "--mode").then(|| text.get(i + 1).cloned()).flatten())
    });
    let cli = Cli::command();
    let (Some(batch), Some(mode)) = (
        cli.find_subcommand("batch"),
        mode.and_then(|m| cli.find_subcommand(&m).cloned()),
    ) else {
        return argv;
    };
    let find = |cmd: &clap::Command, tok: &str| -> Option<clap::Arg> {
        let found = if let Some(long) = tok.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            cmd.get_arguments().find(|a| a.get_long() == Some(name))
        } else {
            let c = tok.chars().nth(1)?;
            cmd.get_arguments().find(|a| a.get_short() == Some(c))
        };
        found.cloned()
    };
    // How many of the next tokens are the flag's values.
    let values = |arg: &clap::Arg, tok: &str| -> usize {
        let attached = if tok.starts_with("--") {
            tok.contains('=')
        } else {
            tok.chars().count() > 2
        };
        if attached || !arg.get_action().takes_values() {
            0
        } else {
            arg.get_num_args().map_or(1, |r| r.min_values().max(1))
        }
    };
    let mut keep: Vec<std::ffi::OsString> = argv[..2].to_vec();
    let mut moved: Vec<std::ffi::OsString> = Vec::new();
    let mut i = 2;
    while i < argv.len() {
        let tok = &text[i];
        if tok == "--" {
            moved.extend(argv[i + 1..].iter().cloned());
            break;
        }
        let is_flag = tok.starts_with('-') && tok.len() > 1;
        let owner = if !is_flag {
            None
        } else if let Some(a) = find(batch, tok) {
            Some((false, values(&a, tok)))
        } else {
            find(&mode, tok).map(|a| (true, values(&a, tok)))
        };
        let n = 1 + owner.map_or(0, |(_, v)| v);
        let end = (i + n).min(argv.len());
        if owner.is_some_and(|(m, _)| m) {
            moved.extend(argv[i..end].iter().cloned());
        } else {
            keep.extend(argv[i..end].iter().cloned());
        }
        i = end;
    }
    if !moved.is_empty() {
        keep.push("--".into());
        keep.extend(moved);
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Vec<String> {
        batch_argv(line.split(' ').map(Into::into).collect())
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn batch_moves_the_modes_options_after_the_separator() {
        assert_eq!(
            split("fpsym batch lib.c --mode exceptions --replay -I inc --kinds overflow --jobs 2 -o out --all-functions x.c"),
            split("fpsym batch lib.c --mode exceptions --jobs 2 -o out --all-functions x.c -- --replay -I inc --kinds overflow")
        );
        assert_eq!(
            split("fpsym batch lib.c --mode=critical --expect ret=[0,1] --sym-args 1 2 3 -o o --functions f,g -- --unroll 3"),
            vec![
                "fpsym", "batch", "lib.c", "--mode=critical", "-o", "o", "--functions", "f,g", "--", "--expect",
                "ret=[0,1]", "--sym-args", "1", "2", "3", "--unroll", "3"
            ]
        );
        // Unknown flags stay for clap to refuse; other commands are untouched.
        assert_eq!(
            split("fpsym batch a.c --mode run --bogus"),
            split("fpsym batch a.c --mode run --bogus")
        );
        assert_eq!(split("fpsym run a.c --replay"), vec!["fpsym", "run", "a.c", "--replay"]);
        let cli = Cli::try_parse_from(split(
            "fpsym batch lib.c --mode exceptions --replay --max-time-per-function 5 -o out --all-functions",
        ))
        .unwrap();
        let Command::Batch(b) = cli.command else { panic!() };
        assert_eq!(b.mode_args, vec!["--replay"]);
        assert_eq!(b.max_time_per_function, 5.0);
    }
}
