//! `fpsym path`: an input reaching a line or taking a given path, or a
//! proof that none does (seed 000's question). `run` with the engine's
//! directed seams (`fpsym_engine::directed`): a branch oracle following
//! only the sides that can still reach the target (closest first), a
//! checker ending the path with a finding at the goal, and the run
//! stopped at the first such finding.

use crate::args::PathArgs;
use crate::run::{execute_with, prepare, RunOptions};
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

pub fn run(raw: PathArgs) -> anyhow::Result<ExitCode> {
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
    if raw.run.property.is_some() {
        return Err(Failure::Input(
            "fpsym path answers whether a line or path is reached; --property does not apply".into(),
        )
        .into());
    }
    let opts = RunOptions::from_args(raw.run)?;
    let (mut engine, out, program) = prepare(&opts)?;
    let module = &program.module;
    let mut plugins = Plugins::default();
    let mut ended_after: Arc<std::sync::atomic::AtomicBool> = Default::default();
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
        let lines = code_lines(module, file.as_deref());
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
        let reach = Arc::new(Reachability::new(module, |_, b| {
            block_on_line(b, file.as_deref(), line)
        }));
        plugins.oracle = Some(Box::new(Directed::new(reach)));
        let f = file.clone();
        engine.checkers.push(CheckerFactory::new(move || {
            Box::new(ReachLine { file: f.clone(), line })
        }));
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
        let spec = Arc::new(spec);
        plugins.oracle = Some(Box::new(FollowPath::new(spec.clone(), file.clone())));
        let progress = PathProgress::new(&spec, file.clone());
        ended_after = progress.ended_after.clone();
        plugins.observers.push(Box::new(progress));
        let s = spec.clone();
        engine
            .checkers
            .push(CheckerFactory::new(move || Box::new(PathDone::new(s.clone()))));
        let kind = if spec.prefix { "path prefix" } else { "path" };
        (PATH_FOLLOWED, format!("takes the {kind} {text}"))
    };
    engine.stop_at_finding = Some(Kind::Custom(goal.to_string()));
    // The oracle ranks the states (closest, or furthest along, first).
    engine.search = Search::One(Policy::CoverageNew);
    execute_with(
        &opts,
        &engine,
        &program,
        &out,
        plugins,
        |s, f| {
            Some(answer(
                goal,
                &what,
                ended_after.load(std::sync::atomic::Ordering::Relaxed),
                s,
                f,
            ))
        },
        |_, f| {
            if let Some(found) = f.iter().find(|x| x.kind.to_string() == goal) {
                if let Ok(t) = fpsym_engine::report::read_json::<fpsym_engine::report::Test>(
                    &out.join("tests").join(format!("{:06}.json", found.test)),
                ) {
                    let shown: Vec<String> = t
                        .objects
                        .iter()
                        .map(|o| {
                            let v = o.value.clone().unwrap_or_else(|| {
                                o.elements
                                    .iter()
                                    .map(|e| e.value.clone())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            });
                            format!("{} = {v}", o.name)
                        })
                        .collect();
                    println!("input: {}", shown.join("; "));
                }
            }
        },
    )?;
    // The answer is the verdict printed: feasible, infeasible or unknown.
    Ok(ExitCode::SUCCESS)
}
