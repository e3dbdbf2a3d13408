//! Flags -> options: each mode's raw flags (args.rs) validated into the
//! typed options of `fpsym_modes` (no filesystem access but the PATH
//! lookup of cvc5), and the solver flags every mode shares.

use crate::args::{
    BatchArgs, Cli, Command as Cmd, CriticalArgs, DataModel, ErrorArgs, ExceptionKind, ExceptionsArgs, LibmArg,
    MetricArg, PathArgs, PortfolioArg, RunArgs, SamplingArg, SolveArgs, SolverArgs, Strategy,
};
use fpsym_engine::checkers::accuracy::{Sampling, Sites};
use fpsym_engine::checkers::fp::FpKinds;
use fpsym_engine::harness::InputRange;
use fpsym_engine::searcher::{Policy, Search};
use fpsym_engine::{Config, Entry, Property};
use fpsym_frontend::CompileOptions;
use fpsym_modes::fuzz::FuzzTime;
use fpsym_modes::run::{PropertySpec, Replay, RunOptions};
use fpsym_modes::validate::{runnable, seconds};
use fpsym_modes::{Failure, Session};
use fpsym_solver::cp::CpConfig;
use fpsym_solver::process::ProcessConfig;
use fpsym_solver::{Backend, PortfolioMode, SolverConfig};
use std::path::PathBuf;
use std::time::Duration;

const BACKENDS: &str = "portfolio, z3, cp, ls, process:COMMAND";

fn parse_backend(flag: &str, s: &str) -> Result<Backend, Failure> {
    Backend::parse(s).ok_or_else(|| {
        Failure::Input(if s.starts_with("process:") {
            format!("{flag}: `{s}`: expected a command after `process:`, e.g. \"process:z3 -in\"")
        } else {
            format!("{flag}: unknown backend `{s}` (available: {BACKENDS})")
        })
    })
}

/// cvc5's command line in the portfolio.
const CVC5: [&str; 3] = ["cvc5", "--lang", "smt2"];

/// Validates the solver flags (no filesystem access).
pub fn solver_config(a: &SolverArgs) -> Result<SolverConfig, Failure> {
    let mut backend = parse_backend("--solver", &a.solver)?;
    let mut cross_check = a
        .cross_check
        .as_deref()
        .map(|s| parse_backend("--cross-check", s))
        .transpose()?;
    let cp_flags = a.no_ulp_max
        || a.no_linear
        || a.consistency.is_some()
        || a.var_choice.is_some()
        || a.split.is_some()
        || a.eps_direct.is_some()
        || a.eps_indirect.is_some();
    let uses_cp = |b: &Backend| matches!(b, Backend::Cp(_) | Backend::Portfolio);
    if cp_flags && !uses_cp(&backend) && !cross_check.as_ref().is_some_and(uses_cp) {
        return Err(Failure::Input(
            "--no-ulp-max, --no-linear, --consistency, --var, --split and --eps-* apply where cp runs (--solver cp or portfolio)"
                .into(),
        ));
    }
    let cp = cp_config(a)?;
    for b in std::iter::once(&mut backend).chain(cross_check.as_mut()) {
        if let Backend::Cp(c) = b {
            *c = cp.clone();
        }
    }
    let mut config = SolverConfig::default();
    config.backend = backend;
    config.cp = cp;
    config.cross_check = cross_check;
    config.portfolio = match a.portfolio {
        PortfolioArg::Parallel => PortfolioMode::Parallel,
        PortfolioArg::Sequential => PortfolioMode::Sequential {
            share: 0.2,
            cap: Duration::from_secs(2),
        },
        PortfolioArg::Staged => match fpsym_solver::STAGED {
            PortfolioMode::Staged { share, cap, .. } => PortfolioMode::Staged {
                share,
                cap,
                learn: !a.no_learning,
            },
            other => other,
        },
    };
    // cvc5 joins the portfolio when installed (a PATH lookup, the one
    // look outside the flags: the portfolio should use what the machine has).
    if !a.no_cvc5 && runnable(CVC5[0]) {
        config.portfolio_processes.push(ProcessConfig {
            program: CVC5[0].into(),
            args: CVC5[1..].iter().map(|s| s.to_string()).collect(),
        });
    }
    config.dump_queries = a.dump_queries.clone();
    config.cache = !a.no_cache;
    config.independence = !a.no_independence;
    Ok(config)
}

fn cp_config(a: &SolverArgs) -> Result<CpConfig, Failure> {
    let bad = |e: fpsym_solver::cp::ParseError| Failure::Input(e.to_string());
    let mut c = CpConfig::default().with_ulp_max(!a.no_ulp_max);
    if a.no_linear {
        c = c.with_linear(None);
    }
    if let Some(s) = &a.consistency {
        c = c.with_consistency(s.parse().map_err(bad)?);
    }
    if let Some(s) = &a.var_choice {
        c = c.with_var_choice(s.parse().map_err(bad)?);
    }
    if let Some(s) = &a.split {
        c = c.with_split(s.parse().map_err(bad)?);
    }
    let pct = |flag: &str, v: Option<f64>, default: f64| match v {
        None => Ok(default),
        Some(p) if (0.0..100.0).contains(&p) => Ok(p / 100.0),
        Some(p) => Err(Failure::Input(format!(
            "{flag}: expected a percentage in [0, 100), got {p}"
        ))),
    };
    let (d, i) = (c.eps_direct, c.eps_indirect);
    c = c.with_eps(
        pct("--eps-direct", a.eps_direct, d)?,
        pct("--eps-indirect", a.eps_indirect, i)?,
    );
    Ok(c)
}

/// `run`'s flags, which every analysing mode takes.
pub fn run(a: RunArgs, session: &Session) -> Result<RunOptions, Failure> {
    let mut engine = Config::default();
    if let Some(f) = &a.function {
        engine.entry = Entry::Function {
            name: f.clone(),
            ranges: {
                let ranges: Vec<InputRange> = a.ranges.iter().map(|r| parse_range(r)).collect::<Result<_, _>>()?;
                for (i, r) in ranges.iter().enumerate() {
                    if ranges[..i].iter().any(|o| o.name == r.name) {
                        return Err(Failure::Input(format!(
                            "--range {}: given twice (one range per input)",
                            r.name
                        )));
                    }
                }
                ranges
            },
            array_len: a.array_len,
        };
    } else if !a.ranges.is_empty() || a.array_len.is_some() {
        return Err(Failure::Input("--range and --array-len apply with --function".into()));
    }
    engine.policy.search = parse_search(&a.search)?;
    engine.limits.max_time = seconds("--max-time", a.max_time)?;
    if let Some(m) = a.max_memory {
        if m == 0 {
            return Err(Failure::Input(
                "--max-memory: expected a positive number of MiB, got 0".into(),
            ));
        }
        engine.limits.max_memory = m.saturating_mul(1 << 20);
    }
    if let Some(n) = a.max_states {
        engine.limits.max_states = n;
    }
    engine.limits.max_instructions = a.max_instructions;
    engine.policy.fast_path = !a.no_fast_path;
    engine.limits.loop_bound = a.loop_bound;
    if let Some(t) = seconds("--solver-timeout", a.solver_timeout)? {
        engine.limits.solver_timeout = Some(t);
    }
    engine.policy.print = a.print;
    engine.policy.libm = match a.libm {
        LibmArg::Symbolic => fpsym_engine::LibmModel::Symbolic,
        LibmArg::Concretize => fpsym_engine::LibmModel::Concretize,
    };
    engine.input.sym_io = sym_io(&a)?;
    engine.input.finite_inputs = a.finite_inputs;
    for e in &a.env {
        let (name, value) = e
            .split_once('=')
            .filter(|(n, _)| !n.is_empty())
            .ok_or_else(|| Failure::Input(format!("--env {e}: expected NAME=VALUE")))?;
        engine.input.env.push((name.to_string(), value.to_string()));
    }
    let mut compile = CompileOptions::default();
    compile.include_dirs = a.include.clone();
    compile.defines = a.define.clone();
    compile.cflags = match a.data_model {
        DataModel::Lp64 => Vec::new(),
        DataModel::Ilp32 => fpsym_frontend::ILP32_FLAGS.iter().map(|f| f.to_string()).collect(),
    };
    compile.cflags.extend(a.cflags.iter().cloned());
    compile.runtime = !a.no_runtime;
    for f in &a.files {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        if matches!(ext, "cpp" | "cc" | "cxx" | "c++" | "C" | "hpp" | "ii") {
            return Err(Failure::Input(format!(
                "{}: C++ is not supported: fpsym analyses C (.c, .i) and LLVM bitcode (.bc, .ll)",
                f.display()
            )));
        }
        if !matches!(ext, "c" | "i" | "bc" | "ll") {
            return Err(Failure::Input(format!(
                "{}: expected a C source (.c), preprocessed C (.i) or LLVM bitcode (.bc, .ll)",
                f.display()
            )));
        }
    }
    let property = match a.property.as_deref() {
        None => PropertySpec::Named(Property::AllFindings),
        Some(p) if p.ends_with(".prp") => PropertySpec::File(PathBuf::from(p)),
        Some(p) => match Property::from_name(p) {
            Some(p) => PropertySpec::Named(p),
            None => {
                return Err(Failure::Input(format!(
                    "--property {p}: expected `unreach-call`, `coverage-error`, `coverage-branches` \
                     or an SV-COMP/Test-Comp .prp file stating one"
                )))
            }
        },
    };
    let fuzz = fuzz_time(a.fuzz_time, engine.limits.max_time)?;
    Ok(RunOptions {
        session: session.clone(),
        fuzz,
        files: a.files,
        compile,
        engine,
        solver: solver_config(&a.solver)?,
        output: a.output,
        force: a.force,
        property,
        replay: if a.replay {
            Replay::Always
        } else if a.no_replay {
            Replay::Never
        } else {
            Replay::Claims
        },
        claim: Default::default(),
        coverage: a.coverage,
        prebuilt: a.prebuilt,
        after_run: None,
        mode: fpsym_engine::report::Mode::Run,
        witness: a.witness,
        prove: fpsym_modes::prove::How::parse(&a.prove),
    })
}

/// The symbolic arguments and standard input of `--sym-arg`, `--sym-args`
/// (in command-line order) and `--sym-stdin`: for `main` only.
fn sym_io(a: &RunArgs) -> Result<fpsym_engine::posix::SymIo, Failure> {
    use fpsym_engine::posix::{SymArgs, SymIo};
    let mut single = a.sym_arg.iter().map(|&len| SymArgs { min: 1, max: 1, len });
    let mut groups = a.sym_args.chunks(3).map(|c| SymArgs {
        min: c[0],
        max: c[1],
        len: c[2],
    });
    // Command-line order when parsing recorded it, else singles first.
    let order = if a.sym_order.len() == a.sym_arg.len() + a.sym_args.len() / 3 {
        a.sym_order.clone()
    } else {
        std::iter::repeat_n(false, a.sym_arg.len())
            .chain(std::iter::repeat_n(true, a.sym_args.len() / 3))
            .collect()
    };
    let args = order
        .iter()
        .filter_map(|g| if *g { groups.next() } else { single.next() })
        .collect();
    let io = SymIo {
        args,
        stdin: a.sym_stdin,
    };
    if !io.is_empty() {
        if let Some(f) = &a.function {
            let flag = if !a.sym_arg.is_empty() {
                "--sym-arg"
            } else if !a.sym_args.is_empty() {
                "--sym-args"
            } else {
                "--sym-stdin"
            };
            return Err(Failure::Input(format!(
                "{flag} applies to main (its argv and stdin), not to --function {f}"
            )));
        }
    }
    io.validate().map_err(Failure::Input)?;
    Ok(io)
}

/// Parses `x=[a,b]`, its bounds exact decimals (or infinities).
fn parse_range(s: &str) -> Result<InputRange, Failure> {
    InputRange::parse(s).map_err(Failure::Input)
}

/// Parses `--search`: a policy, or policies joined by `+` to take turns.
fn parse_search(s: &str) -> Result<Search, Failure> {
    let policies = s
        .split('+')
        .map(|p| p.parse::<Policy>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Failure::Input(format!("--search {s}: {e}, or A+B to interleave")))?;
    Ok(match policies.as_slice() {
        [one] => Search::One(*one),
        _ => Search::Interleaved(policies),
    })
}

/// `--fuzz-time` against `--max-time`.
fn fuzz_time(fuzz: Option<f64>, max_time: Option<Duration>) -> Result<FuzzTime, Failure> {
    match fuzz {
        Some(0.0) => Ok(FuzzTime::Off),
        Some(t) => {
            let d = seconds("--fuzz-time", Some(t))?.unwrap_or_default();
            if let Some(m) = max_time {
                if d >= m {
                    return Err(Failure::Input(format!(
                        "--fuzz-time {t} is not less than --max-time {}: the fuzzing phase is a share of the run's time",
                        m.as_secs_f64()
                    )));
                }
            }
            Ok(FuzzTime::Explicit(d))
        }
        // A share under a second would mostly go to the harness's
        // build (1-2 s): the default phase needs --max-time >= 10.
        None => Ok(match max_time {
            Some(m) if m >= fpsym_modes::fuzz::DEFAULT_FROM => FuzzTime::Default(m / 10),
            _ => FuzzTime::Off,
        }),
    }
}

/// `fpsym solve`'s flags.
pub fn solve(a: SolveArgs, session: &Session) -> Result<fpsym_modes::solve::SolveOptions, Failure> {
    Ok(fpsym_modes::solve::SolveOptions {
        solver: solver_config(&a.solver)?,
        timeout: seconds("--timeout", a.timeout)?,
        max_time: seconds("--max-time", a.max_time)?,
        file: a.file,
        model: a.model,
        stats_json: a.stats.is_some(),
        session: session.clone(),
    })
}

/// The kinds asked for (the default set when none is named).
fn kinds(asked: &[ExceptionKind]) -> FpKinds {
    if asked.is_empty() {
        return FpKinds::default();
    }
    let mut k = FpKinds::none();
    for a in asked {
        match a {
            ExceptionKind::Overflow => k.overflow = true,
            ExceptionKind::Underflow => k.underflow = true,
            ExceptionKind::DivideByZero => k.divide_by_zero = true,
            ExceptionKind::Invalid => k.invalid = true,
            ExceptionKind::FloatCastOverflow => k.float_cast_overflow = true,
            ExceptionKind::Inexact => k.inexact = true,
        }
    }
    k
}

/// `fpsym exceptions`'s flags.
pub fn exceptions(a: ExceptionsArgs, session: &Session) -> Result<fpsym_modes::exceptions::Options, Failure> {
    Ok(fpsym_modes::exceptions::Options {
        kinds: kinds(&a.kinds),
        all_functions: a.all_functions,
        max_time_per_function: seconds("--max-time-per-function", a.max_time_per_function)?,
        run: run(a.run, session)?,
    })
}

/// `fpsym error`'s flags.
pub fn error(a: ErrorArgs, session: &Session) -> Result<fpsym_modes::error::Options, Failure> {
    let sites = match a.sites.as_str() {
        "all" => Sites::All,
        "loops" => Sites::Loops,
        lines => Sites::Lines(
            lines
                .split(',')
                .map(|l| l.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| Failure::Input(format!("--sites {lines}: expected all, loops or LINE,LINE,...")))?,
        ),
    };
    let sampling = match a.sampling {
        SamplingArg::Uniform => Sampling::Uniform {
            start: a.start,
            step: a.step.max(1),
        },
        SamplingArg::Log => {
            if a.step < 2 || a.start < 1 {
                return Err(Failure::Input(
                    "--sampling log needs --start 1 or more and --step 2 or more".into(),
                ));
            }
            Sampling::Log {
                start: a.start,
                step: a.step,
            }
        }
    };
    use fpsym_modes::error::Strategy as S;
    use fpsym_precision::Metric as M;
    Ok(fpsym_modes::error::Options {
        output: a.output,
        precision: a.precision,
        sigma: a.sigma,
        theta: a.theta,
        sites,
        sampling,
        tau0: at_least_zero("--tau0", a.tau0)?,
        tau1: at_least_zero("--tau1", a.tau1)?,
        strategy: match a.strategy {
            Strategy::Fpsym => S::Fpsym,
            Strategy::Fpgen => S::Fpgen,
            Strategy::Random => S::Random,
        },
        seed: a.seed,
        rounds: a.rounds,
        metric: match a.metric {
            MetricArg::Relative => M::Relative,
            MetricArg::Fpgen => M::Fpgen,
            MetricArg::Bits => M::Bits,
            MetricArg::Absolute => M::Absolute,
        },
        random_inputs: a.random_inputs,
        input: a.input,
        run: run(a.run, session)?,
    })
}

/// A number of seconds that may be zero.
fn at_least_zero(flag: &str, v: Option<f64>) -> Result<Option<Duration>, Failure> {
    match v {
        Some(t) if !(t.is_finite() && (0.0..1e9).contains(&t)) => Err(Failure::Input(format!(
            "{flag}: expected a number of seconds >= 0, got {t}"
        ))),
        v => Ok(v.map(Duration::from_secs_f64)),
    }
}

/// `fpsym path`'s flags.
pub fn path(a: PathArgs, session: &Session) -> Result<fpsym_modes::path::Options, Failure> {
    Ok(fpsym_modes::path::Options {
        reach: a.reach,
        path: a.path,
        all_paths: a.all_paths,
        file: a.file,
        run: run(a.run, session)?,
    })
}

/// `fpsym critical`'s flags.
pub fn critical(a: CriticalArgs, session: &Session) -> Result<fpsym_modes::critical::Options, Failure> {
    let t = a.enclose_timeout;
    if !(t.is_finite() && t > 0.0 && t < 1e9) {
        return Err(Failure::Input(format!(
            "--enclose-timeout {t}: expected a positive number of seconds"
        )));
    }
    Ok(fpsym_modes::critical::Options {
        expect: a.expect,
        enclose_timeout: Duration::from_secs_f64(t),
        unroll: a.unroll,
        run: run(a.run, session)?,
    })
}

/// `fpsym batch`'s flags (the mode's own are checked by the batch, with
/// [`mode_options`]).
pub fn batch(a: BatchArgs, session: &Session) -> anyhow::Result<fpsym_modes::batch::Options> {
    Ok(fpsym_modes::batch::Options {
        session: session.clone(),
        files: a.files,
        all_functions: a.all_functions,
        functions: a.functions,
        manifest: a.manifest,
        mode: a.mode.name(),
        jobs: a.jobs,
        shard: a.shard,
        max_time_per_function: a.max_time_per_function,
        max_memory_per_function: a.max_memory_per_function,
        grace: a.grace,
        resume: a.resume,
        force: a.force,
        output: a.output,
        wrapper: a.wrapper,
        mode_args: a.mode_args,
        exe: std::env::current_exe()?,
        mode_options,
    })
}

/// What the mode's options may not say: batch sets them per function.
const OWNED: [(&str, &str); 6] = [
    (
        "--function",
        "batch runs each function (--all-functions, --functions, --manifest)",
    ),
    ("-o/--out", "each function's directory is DIR/functions/FILE/FUNCTION"),
    ("--max-time", "use --max-time-per-function"),
    ("--max-memory", "use --max-memory-per-function"),
    ("--json", "read DIR/results.jsonl"),
    ("--all-functions", "use batch's --all-functions"),
];

/// Parses `fpsym MODE FILES... --function F ARGS` as the mode would: the
/// clap error (usage, a bad option) is an input error naming `context`;
/// an option batch owns is refused. Returns the mode's `run` options.
fn mode_options(
    mode: &str,
    files: &[PathBuf],
    function: &str,
    args: &[String],
    context: &str,
) -> anyhow::Result<RunOptions> {
    use clap::Parser;
    if let Some(a) = args.iter().find(|a| *a == "--function" || a.starts_with("--function=")) {
        return Err(Failure::Input(format!(
            "{context}: {a} is not an option of the mode here: {}",
            OWNED[0].1
        ))
        .into());
    }
    let mut argv: Vec<String> = vec!["fpsym".into(), mode.into()];
    argv.extend(files.iter().map(|f| f.display().to_string()));
    argv.extend(["--function".into(), function.into()]);
    argv.extend(args.iter().cloned());
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        let text = e.render().to_string();
        let first = text
            .lines()
            .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ")
            .trim_start_matches("error: ")
            .to_string();
        Failure::Input(format!("{context}: the options of `fpsym {mode}`: {first}"))
    })?;
    let (run, all) = match cli.command {
        Cmd::Run(a) => (a, false),
        Cmd::Exceptions(a) => (a.run, a.all_functions),
        Cmd::Error(a) => (a.run, false),
        Cmd::Path(a) => (a.run, false),
        Cmd::Critical(a) => (a.run, false),
        _ => unreachable!("batch modes are run-based"),
    };
    let owned = [
        run.function.as_deref() != Some(function),
        run.output.is_some(),
        run.max_time.is_some(),
        run.max_memory.is_some(),
        run.json,
        all,
    ];
    if let Some(((flag, why), _)) = OWNED.iter().zip(owned).find(|(_, set)| *set) {
        return Err(Failure::Input(format!("{context}: {flag} is not an option of the mode here: {why}")).into());
    }
    if run.prebuilt.is_some() || run.force {
        return Err(Failure::Input(format!("{context}: --force and --prebuilt are set by batch")).into());
    }
    Ok(self::run(run, &Session::default())?)
}
