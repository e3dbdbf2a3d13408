//! `fpsym path`: an input reaching a line or taking a given path, or a
//! proof that none does (seed 000's question). `run` with the engine's
//! directed seams (`fpsym_engine::directed`): a branch oracle following
//! only the sides that can still reach the target (closest first), a
//! checker ending the path with a finding at the goal, and the run
//! stopped at the first such finding.

use crate::run::{execute_with, prepare, PropertySpec, RunOptions};
use crate::Failure;
use fpsym_engine::checkers::{CheckerFactory, Kind};
use fpsym_engine::directed::{
    block_on_line, branch_sites, code_lines, Directed, FollowPath, PathDone, PathProgress, PathSpec, ReachLine,
    Reachability, PATH_FOLLOWED, REACHED,
};
use fpsym_engine::plugin::Plugins;
use fpsym_engine::report::Finding;
use fpsym_engine::searcher::{Policy, Search};
use fpsym_engine::{StopReason, Summary, Verdict};
use std::collections::BTreeSet;
use std::process::ExitCode;
use std::sync::Arc;

/// The lines with code nearest to `line`, to say where a target could be.
fn nearest(lines: &BTreeSet<u32>, line: u32) -> String {
    let before = lines.range(..line).next_back();
    let after = lines.range(line..).next();
    let v: Vec<String> = before.into_iter().chain(after).map(|l| l.to_string()).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(" and ")
    }
}

/// `LINE[:COL]:T|F` of a decision.
fn decision_text(d: &fpsym_engine::directed::Decision) -> String {
    let side = if d.taken { "T" } else { "F" };
    match d.column {
        Some(c) => format!("{}:{c}:{side}", d.line),
        None => format!("{}:{side}", d.line),
    }
}

/// The source text of the condition whose operator (or start) is at
/// `column` (from 1) of `line`: the comparison around an operator, or
/// the expression starting there, up to the enclosing parentheses, `&&`,
/// `||`, `?`, `:`, `,` or `;`.
fn condition_text(line: &str, column: u32) -> Option<String> {
    let c: Vec<char> = line.chars().collect();
    let at = (column as usize).checked_sub(1).filter(|&i| i < c.len())?;
    let stop = |i: usize, step: isize| -> bool {
        let two = |a: char, b: char| {
            let j = i as isize + step;
            c[i] == a && j >= 0 && (j as usize) < c.len() && c[j as usize] == b
        };
        matches!(c[i], ';' | ',' | '?' | ':') || two('&', '&') || two('|', '|')
    };
    // Rightwards from `from`, to the end of the operand.
    let right = |from: usize| -> usize {
        let mut depth = 0i32;
        let mut i = from;
        while i < c.len() {
            match c[i] {
                '(' | '[' => depth += 1,
                ')' | ']' if depth == 0 => break,
                ')' | ']' => depth -= 1,
                _ if depth == 0 && stop(i, 1) => break,
                _ => {}
            }
            i += 1;
        }
        i
    };
    let is_op = |i: usize| matches!(c[i], '<' | '>') || (matches!(c[i], '=' | '!') && c.get(i + 1) == Some(&'='));
    let (start, end) = if is_op(at) {
        let mut depth = 0i32;
        let mut i = at;
        while i > 0 {
            match c[i - 1] {
                ')' | ']' => depth += 1,
                '(' | '[' if depth == 0 => break,
                '(' | '[' => depth -= 1,
                '=' if depth == 0 && !matches!(c.get(i.wrapping_sub(2)), Some('=' | '<' | '>' | '!')) => break,
                _ if depth == 0 && stop(i - 1, -1) => break,
                _ => {}
            }
            i -= 1;
        }
        let op = if c.get(at + 1) == Some(&'=') { 2 } else { 1 };
        (i, right(at + op))
    } else {
        (at, right(at))
    };
    let s: String = c[start..end].iter().collect::<String>().trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The input error for a path naming a decision where no execution takes
/// it; for a line with several conditions, which column is which and
/// the order they execute in.
fn misordered_message(m: &fpsym_engine::directed::order::Misordered, line_text: Option<&str>) -> String {
    let d = decision_text(&m.decision);
    let instead = m
        .instead
        .iter()
        .map(|(l, c)| format!("{l}:{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut msg = match (&m.after, instead.is_empty()) {
        (None, true) => format!("--path: {d} cannot be the first decision: no execution reaches that branch"),
        (None, false) => format!(
            "--path: {d} cannot be the first decision: every execution takes another branch of the path's lines before it (at {instead})"
        ),
        (Some(a), true) => format!(
            "--path: {d} cannot come right after {}: no execution goes from that side to that branch",
            decision_text(a)
        ),
        (Some(a), false) => format!(
            "--path: {d} cannot come right after {}: every execution from that side takes another branch of the path's lines first (at {instead})",
            decision_text(a)
        ),
    };
    if m.conditions.len() > 1 {
        let mut by_column = m.conditions.clone();
        by_column.sort_by_key(|c| c.column);
        let named: Vec<String> = by_column
            .iter()
            .map(
                |c| match line_text.and_then(|t| condition_text(t, c.at.unwrap_or(c.column))) {
                    Some(t) => format!("{} ({t})", c.column),
                    None => c.column.to_string(),
                },
            )
            .collect();
        let order: Vec<String> = m.conditions.iter().map(|c| c.column.to_string()).collect();
        msg.push_str(&format!(
            "; line {} has conditions at columns {}; they execute in the order {}",
            m.decision.line,
            named.join(", "),
            order.join(", ")
        ));
    }
    msg
}

/// The answer, from the run: reached (the goal's finding), infeasible
/// (every path the oracle let through explored exactly, none reached),
/// or unknown (why).
fn answer(goal: &str, what: &str, ended_after: bool, s: &Summary, findings: &[Finding]) -> Verdict {
    if let Some(f) = findings.iter().find(|f| f.kind.to_string() == goal) {
        return Verdict::Feasible(format!("test {:06} {what}", f.test));
    }
    if ended_after {
        return Verdict::Feasible(format!(
            "an input {what}, then the program fails or stops otherwise than by returning or exit: see the findings and tests"
        ));
    }
    match &s.directed_incomplete {
        None if s.stop == StopReason::Exhausted => Verdict::Infeasible(format!(
            "no input {what}: every path that could was explored exactly under IEEE semantics"
        )),
        None => Verdict::Unknown(format!("stopped early ({})", s.stop)),
        Some(why) => Verdict::Unknown(why.clone()),
    }
}

/// The lines mem2reg folded away, from the module clang emitted before
/// it (the build's `obj/with-runtime.bc`, or `obj/linked.bc` without the
/// runtime). Empty when neither can be read: those lines are then refused
/// as having no code.
fn folded_lines(out: &std::path::Path, file: Option<&str>) -> fpsym_engine::directed::FoldedLines {
    let obj = out.join("build").join("obj");
    ["with-runtime.bc", "linked.bc"]
        .iter()
        .map(|n| obj.join(n))
        .find(|p| p.is_file())
        .and_then(|p| llvm_ir::Module::from_bc_path(&p).ok())
        .map(|pre| fpsym_engine::directed::FoldedLines::new(&pre, file))
        .unwrap_or_default()
}

/// The options of `fpsym path`: one of `reach`, `path`, `all_paths`.
#[derive(Debug, Default)]
pub struct Options {
    /// The options of `run` it takes (not `--search`, not `--property`).
    pub run: RunOptions,
    /// `[FILE:]LINE`: an input that reaches the line, or a proof none does.
    pub reach: Option<String>,
    /// A sequence of branch decisions: an input that takes it, or a proof
    /// none does.
    pub path: Option<String>,
    /// Every path with its verdict.
    pub all_paths: bool,
    /// The source file the lines are in (needed with several).
    pub file: Option<String>,
}

/// Answers the question the options ask.
pub fn run(raw: Options) -> anyhow::Result<ExitCode> {
    let files: Vec<String> = raw.run.files.iter().map(|f| f.display().to_string()).collect();
    let sources: Vec<&String> = files
        .iter()
        .filter(|f| f.ends_with(".c") || f.ends_with(".i"))
        .collect();
    let only_c = (sources.len() == 1).then(|| sources[0].clone());
    let several = || {
        Failure::Input(format!(
            "several source files ({}): say which one the lines are in (--reach FILE:LINE, --path with --file FILE)",
            sources.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
        ))
    };
    if !matches!(
        raw.run.property,
        PropertySpec::Named(fpsym_engine::Property::AllFindings)
    ) {
        return Err(Failure::Input(
            "fpsym path answers whether a line or path is reached; --property does not apply".into(),
        )
        .into());
    }
    let mut opts = raw.run;
    opts.set_mode(fpsym_engine::report::Mode::Path)?;
    if raw.all_paths {
        let file = raw.file.clone().or(only_c.clone());
        if file.is_none() && sources.len() > 1 {
            return Err(several().into());
        }
        return all_paths(opts, file);
    }
    let (mut engine, out, program) = prepare(&opts)?;
    let module = &program.module;
    let mut plugins = Plugins::default();
    let mut ended_after: Arc<std::sync::atomic::AtomicBool> = Default::default();
    let mut uncalled: Option<String> = None;
    let (goal, what) = if let Some(target) = &raw.reach {
        let (file, line) = match target.rsplit_once(':') {
            Some((f, l)) => (Some(f.to_string()), l),
            None => (raw.file.clone().or(only_c.clone()), target.as_str()),
        };
        if file.is_none() && sources.len() > 1 {
            return Err(several().into());
        }
        let line: u32 = line
            .trim()
            .parse()
            .map_err(|_| Failure::Input(format!("--reach {target}: expected LINE or FILE:LINE")))?;
        let folded = folded_lines(&out, file.as_deref());
        let mut lines = code_lines(module, file.as_deref());
        lines.extend(folded.lines(module));
        let shown = file.clone().unwrap_or_else(|| "the program".into());
        if lines.is_empty() {
            return Err(Failure::Input(format!("--reach {target}: no code of {shown} in the program")).into());
        }
        if !lines.contains(&line) {
            return Err(Failure::Input(format!(
                "--reach {target}: line {line} of {shown} has no code (nearest lines with code: {})",
                nearest(&lines, line)
            ))
            .into());
        }
        let on_target = |f: &llvm_ir::Function, b: &llvm_ir::BasicBlock| {
            block_on_line(b, file.as_deref(), line) || folded.on_line(f, b, line)
        };
        let reach = Arc::new(Reachability::new(module, on_target));
        // A line the entry never calls: the answer says so.
        if let fpsym_engine::Entry::Function { name, .. } = &engine.entry {
            if !reach.function_reaches(name) {
                let mut holders: Vec<&str> = module
                    .functions
                    .iter()
                    .filter(|f| f.basic_blocks.iter().any(|b| on_target(f, b)))
                    .map(|f| f.name.as_str())
                    .collect();
                holders.dedup();
                uncalled = Some(format!(
                    "the code of line {line} is in {}, which `{name}` does not call, directly or through its callees",
                    holders.iter().map(|h| format!("`{h}`")).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        plugins.oracle = Some(Box::new(Directed::new(reach)));
        // An "infeasible" is checked natively: no test reaches the line.
        opts.claim_mut().unreached = file.clone().map(|f| (f, line));
        let checker = ReachLine::new(file.clone(), line, module, &folded);
        engine
            .extensions
            .checkers
            .push(CheckerFactory::new(move || Box::new(checker.clone())));
        (REACHED, format!("reaches line {line} of {shown}"))
    } else {
        let text = raw.path.as_deref().unwrap_or_default();
        let spec = PathSpec::parse(text).map_err(|e| Failure::Input(format!("--path: {e}")))?;
        let file = raw.file.clone().or(only_c.clone());
        if file.is_none() && sources.len() > 1 {
            return Err(several().into());
        }
        let (sites, switches) = branch_sites(module, file.as_deref());
        let shown = file.clone().unwrap_or_else(|| "the program".into());
        for d in &spec.decisions {
            if switches.contains(&d.line) {
                return Err(Failure::Input(format!(
                    "--path: line {} of {shown} has a switch; paths through switches are not supported",
                    d.line
                ))
                .into());
            }
            let Some(cols) = sites.get(&d.line) else {
                let lines: BTreeSet<u32> = sites.keys().copied().collect();
                return Err(Failure::Input(format!(
                    "--path: line {} of {shown} has no two-way branch (lines with one: {})",
                    d.line,
                    lines.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")
                ))
                .into());
            };
            if let Some((c, _)) = cols.iter().find(|(_, n)| **n > 1) {
                return Err(Failure::Input(format!(
                    "--path: line {} has several conditions at column {c} (a macro?): the decisions there cannot be told apart",
                    d.line
                ))
                .into());
            }
            match d.column {
                None if cols.len() > 1 => {
                    return Err(Failure::Input(format!(
                        "--path: line {} has {} conditions (columns {}): write LINE:COL:T or LINE:COL:F",
                        d.line,
                        cols.len(),
                        cols.keys().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
                    ))
                    .into())
                }
                Some(c) if !cols.contains_key(&c) => {
                    return Err(Failure::Input(format!(
                        "--path: line {} has no condition at column {c} (columns {})",
                        d.line,
                        cols.keys().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
                    ))
                    .into())
                }
                _ => {}
            }
        }
        if let Some(m) = fpsym_engine::directed::order::misordered(module, file.as_deref(), &spec) {
            let source = match file.as_deref() {
                Some(f) => sources
                    .iter()
                    .find(|s| s.as_str() == f || s.ends_with(&format!("/{f}")))
                    .map(|s| s.as_str())
                    .or(Some(f)),
                None => sources.first().map(|s| s.as_str()),
            }
            .and_then(|p| std::fs::read_to_string(p).ok());
            let text = source
                .as_deref()
                .and_then(|s| s.lines().nth(m.decision.line as usize - 1));
            return Err(Failure::Input(misordered_message(&m, text)).into());
        }
        let record = fpsym_engine::report::PathRecord {
            spec: text.to_string(),
            file: file.clone(),
            decisions: spec
                .decisions
                .iter()
                .map(|d| fpsym_engine::report::PathDecision {
                    line: d.line,
                    column: d.column,
                    taken: d.taken,
                })
                .collect(),
            prefix: spec.prefix,
        };
        fpsym_engine::report::write_json(&out.join(fpsym_engine::report::PATH_RECORD), &record)?;
        // An "infeasible" is checked natively: no test takes the path
        // (reported at its last decision's line).
        if let (Some(f), Some(last)) = (&file, record.decisions.last()) {
            opts.claim_mut().untaken = Some((record.clone(), (f.clone(), last.line)));
        }
        let spec = Arc::new(spec);
        plugins.oracle = Some(Box::new(FollowPath::new(spec.clone(), file.clone())));
        let progress = PathProgress::new(&spec, file.clone());
        ended_after = progress.ended_after.clone();
        plugins.observers.push(Box::new(progress));
        let s = spec.clone();
        engine
            .extensions
            .checkers
            .push(CheckerFactory::new(move || Box::new(PathDone::new(s.clone()))));
        let kind = if spec.prefix { "path prefix" } else { "path" };
        (PATH_FOLLOWED, format!("takes the {kind} {text}"))
    };
    engine.goals.stop_at_finding = Some(Kind::from_name(goal));
    // The oracle ranks the states (closest, or furthest along, first).
    engine.policy.search = Search::One(Policy::CoverageNew);
    execute_with(
        &opts,
        &engine,
        &program,
        &out,
        plugins,
        |s, f| {
            Some(
                match answer(
                    goal,
                    &what,
                    ended_after.load(std::sync::atomic::Ordering::Relaxed),
                    s,
                    f,
                ) {
                    Verdict::Infeasible(_) if uncalled.is_some() => {
                        Verdict::Infeasible(format!("no input {what}: {}", uncalled.as_deref().unwrap_or_default()))
                    }
                    v => v,
                },
            )
        },
        // Each finding's input is in the summary already.
        |_, _| {},
    )
    // The answer is the verdict printed: feasible (1), infeasible (0) or
    // unknown (4).
}

use fpsym_engine::report::mode_records::{AllPathsRecord as AllPaths, CpSolve as Solve, PathEntry};

/// Decides `q` with cp alone, checking a model against the constraint.
fn solve_alone(
    cfg: fpsym_solver::cp::CpConfig,
    q: &fpsym_solver::Query,
    timeout: std::time::Duration,
    interrupt: &Arc<std::sync::atomic::AtomicBool>,
) -> Solve {
    use fpsym_solver::{Budget, SolveResult, Solver};
    let mut cp = fpsym_solver::cp::CpSolver::new(cfg);
    let budget = Budget {
        deadline: Some(std::time::Instant::now() + timeout),
        cancel: Some(interrupt.clone()),
    };
    let start = std::time::Instant::now();
    let r = cp.check(q, &budget);
    let seconds = start.elapsed().as_secs_f64();
    let result = match r {
        Ok(SolveResult::Sat(m)) => {
            let holds = q
                .assertions
                .iter()
                .all(|a| matches!(fpsym_expr::eval(a, &m), Ok(fpsym_expr::Value::Bool(true))));
            if holds {
                "sat"
            } else {
                "unknown"
            }
        }
        Ok(SolveResult::Unsat) => "unsat",
        _ => "unknown",
    };
    let s = cp.statistics();
    Solve {
        result: result.into(),
        seconds,
        ulp_max_pruned: s.ulp_max_pruned,
        ulp_max_firings: s.ulp_max_firings,
    }
}

/// A path's decisions as text.
fn path_text(
    decisions: &[fpsym_engine::paths::Decision],
    file: Option<&str>,
    sites: &std::collections::BTreeMap<u32, std::collections::BTreeMap<u32, usize>>,
) -> String {
    decisions
        .iter()
        .map(|d| {
            let side = if d.taken { "T" } else { "F" };
            let main = file.is_none_or(|f| d.file == f || d.file.ends_with(&format!("/{f}")));
            let prefix = if main {
                String::new()
            } else {
                format!(
                    "{}:",
                    std::path::Path::new(&d.file)
                        .file_name()
                        .map_or(d.file.clone(), |n| n.to_string_lossy().into())
                )
            };
            match d.case {
                Some(k) => format!("{prefix}{}:case{k}:{side}", d.line),
                None if main && sites.get(&d.line).is_some_and(|c| c.len() > 1) => {
                    format!("{prefix}{}:{}:{side}", d.line, d.column)
                }
                None => format!("{prefix}{}:{side}", d.line),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `--all-paths`: a plain exploration logging every path, then each path
/// decided again by cp alone, with and without ULP-Max, and timed.
fn all_paths(opts: RunOptions, file: Option<String>) -> anyhow::Result<ExitCode> {
    use fpsym_engine::paths::Ending;
    let start = std::time::Instant::now();
    let (mut engine, out, program) = prepare(&opts)?;
    // With a time limit, the run gets half of it and the re-decisions
    // the rest.
    let deadline = engine.limits.max_time.map(|t| start + t);
    engine.limits.max_time = engine.limits.max_time.map(|t| t / 2);
    let (oracle, observer, log) = fpsym_engine::paths::enumerate(&program.module);
    let plugins = Plugins {
        oracle: Some(Box::new(oracle)),
        observers: vec![Box::new(observer)],
    };
    let mut stop = String::new();
    let mut complete = false;
    let code = execute_with(
        &opts,
        &engine,
        &program,
        &out,
        plugins,
        |_, _| None,
        |s, _| {
            stop = s.stop.to_string();
            complete = s.stop == StopReason::Exhausted;
        },
    )?;
    let logged = log.lock().unwrap_or_else(|e| e.into_inner()).finish();
    let (sites, _) = branch_sites(&program.module, file.as_deref());
    let timeout = engine
        .limits
        .solver_timeout
        .unwrap_or(std::time::Duration::from_secs(10));
    let cp = opts.solver_config().cp.clone();
    let mut chain: Option<Box<dyn fpsym_solver::Solver>> = None;
    let interrupt = opts.session.interrupt();
    let mut entries = Vec::new();
    let mut cut = std::collections::BTreeMap::<String, usize>::new();
    let mut skipped = 0;
    let mut gave_up = 0;
    for p in logged {
        let ending = match &p.ending {
            Ending::Cut(why) => {
                *cut.entry(why.clone()).or_insert(0) += 1;
                continue;
            }
            Ending::Exit => "exit".to_string(),
            Ending::Failure(k) => format!("failure: {k}"),
            Ending::NotTaken => "branch side not taken".to_string(),
            Ending::Undecided(why) => {
                gave_up += 1;
                format!("branch side the run gave up on ({why})")
            }
        };
        // Decided by the run (it followed the path to its end, with a test).
        let by_run = matches!(p.ending, Ending::Exit | Ending::Failure(_));
        let q = fpsym_solver::Query::new(p.constraint.clone());
        let text = path_text(&p.decisions, file.as_deref(), &sites);
        let late = deadline.is_some_and(|d| std::time::Instant::now() >= d);
        if interrupt.load(std::sync::atomic::Ordering::Relaxed) || late {
            // Not decided again: what the run knows.
            skipped += 1;
            entries.push(PathEntry {
                index: entries.len() + 1,
                path: text,
                decisions: p.decisions.len(),
                ending,
                verdict: if by_run { "feasible" } else { "unknown" }.into(),
                decided_by: if by_run { "run".into() } else { String::new() },
                constraints: q.assertions.len(),
                variables: q.vars().len(),
                with_ulp_max: None,
                without_ulp_max: None,
            });
            continue;
        }
        // Each query ends by the time limit.
        let left = |t: std::time::Duration| {
            deadline.map_or(t, |d| t.min(d.saturating_duration_since(std::time::Instant::now())))
        };
        let with = solve_alone(cp.clone().with_ulp_max(true), &q, left(timeout), &interrupt);
        let without = solve_alone(cp.clone().with_ulp_max(false), &q, left(timeout), &interrupt);
        let results = [with.result.as_str(), without.result.as_str()];
        if results.contains(&"sat") && results.contains(&"unsat") {
            return Err(Failure::Internal(format!(
                "cp with and without ULP-Max disagree on path {} ({text}): a solver bug",
                entries.len() + 1,
            ))
            .into());
        }
        let (verdict, decided_by) = if by_run {
            if results.contains(&"unsat") {
                return Err(Failure::Internal(format!(
                    "cp finds path {} infeasible, yet the run followed it to its end: a solver bug",
                    entries.len() + 1
                ))
                .into());
            }
            ("feasible", "run".to_string())
        } else if results.contains(&"unsat") {
            ("infeasible", "cp".to_string())
        } else if results.contains(&"sat") {
            // A branch side the run did not go on from (its solver could
            // not decide it): feasible, but the paths behind it were not
            // explored.
            ("unknown", String::new())
        } else {
            // cp alone could not tell: the run's own solver, once more.
            let s = chain
                .get_or_insert_with(|| fpsym_solver::build_with_workers(opts.solver_config(), opts.session.workers()));
            let budget = fpsym_solver::Budget {
                deadline: Some(std::time::Instant::now() + left(timeout)),
                cancel: Some(interrupt.clone()),
            };
            match s.check(&q, &budget) {
                Ok(fpsym_solver::SolveResult::Unsat) => ("infeasible", s.name()),
                _ => ("unknown", String::new()),
            }
        };
        entries.push(PathEntry {
            index: entries.len() + 1,
            path: text,
            decisions: p.decisions.len(),
            ending,
            verdict: verdict.into(),
            decided_by,
            constraints: q.assertions.len(),
            variables: q.vars().len(),
            with_ulp_max: Some(with),
            without_ulp_max: Some(without),
        });
    }
    let count = |v: &str| entries.iter().filter(|e| e.verdict == v).count();
    // Sides the run gave up on: the paths behind them are missing.
    if gave_up > 0 && complete {
        complete = false;
        stop = format!("{gave_up} branch side(s) undecided: the paths behind them were not explored");
    }
    let record = AllPaths {
        loop_bound: engine.limits.loop_bound,
        complete,
        stop,
        not_redecided: skipped,
        feasible: count("feasible"),
        infeasible: count("infeasible"),
        unknown: count("unknown"),
        cut,
        ulp_max_effective: entries
            .iter()
            .filter(|e| e.verdict == "feasible" && e.with_ulp_max.as_ref().is_some_and(|w| w.ulp_max_pruned > 0.0))
            .count(),
        paths: entries,
    };
    fpsym_engine::report::write_json(&out.join(fpsym_engine::report::ALL_PATHS), &record)?;
    say!();
    let n = record.paths.len();
    let pct = |k: usize| if n > 0 { 100.0 * k as f64 / n as f64 } else { 0.0 };
    say!(
        "all paths{}: {n} ({} feasible, {} infeasible = {:.0}%, {} unknown){}",
        engine
            .limits
            .loop_bound
            .map(|k| format!(" up to {k} repetition(s) of each loop"))
            .unwrap_or_default(),
        record.feasible,
        record.infeasible,
        pct(record.infeasible),
        record.unknown,
        if record.cut.is_empty() {
            String::new()
        } else {
            format!(
                "; cut (not listed): {}",
                record
                    .cut
                    .iter()
                    .map(|(why, n)| format!("{n} at {why}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    if !record.complete {
        say!("  incomplete ({}): the paths are those the run saw", record.stop);
    }
    if skipped > 0 {
        say!(
            "  {skipped} path(s) not decided again before the time limit or an interrupt (no times; a side the run did not take is unknown)"
        );
    }
    say!(
        "  ULP-Max removed floats on {} of the {} feasible paths",
        record.ulp_max_effective,
        record.feasible
    );
    say!(
        "  {:>4}  {:<10}  {:>9}  {:>9}  path",
        "#",
        "verdict",
        "ULP-Max s",
        "without s"
    );
    let secs = |s: &Option<Solve>| s.as_ref().map_or("-".to_string(), |s| format!("{:.3}", s.seconds));
    for e in &record.paths {
        say!(
            "  {:>4}  {:<10}  {:>9}  {:>9}  {}{}",
            e.index,
            e.verdict,
            secs(&e.with_ulp_max),
            secs(&e.without_ulp_max),
            e.path,
            if e.ending.starts_with("failure") {
                format!(" ({})", e.ending)
            } else {
                String::new()
            }
        );
    }
    say!("paths: {}", out.join(fpsym_engine::report::ALL_PATHS).display());
    // 1 when a path ends in a finding; else 4 when a path is unknown or
    // the listing is not complete; else 0 (every path up to the bound
    // decided).
    Ok(if crate::raw_code(code) == 1 {
        code
    } else if record.unknown > 0 || !record.complete || record.not_redecided > 0 {
        ExitCode::from(crate::INCOMPLETE)
    } else {
        ExitCode::SUCCESS
    })
}
