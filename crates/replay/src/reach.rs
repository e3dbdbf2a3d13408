//! Native confirmation of the directed modes' goals from the coverage
//! profile of the test's own run (`llvm-profdata-14 merge`, `llvm-cov-14
//! export -format=lcov`): a line reached is executed natively; a path
//! taken has, at each of its lines, as many true and false decisions
//! natively as the path names (at least as many for a prefix).

use crate::classify::{basename, NativeRun};
use crate::confirm::Confirmation;
use crate::native::tool_output;
use fpsym_report::{Finding, FindingKind, Observed, PathRecord, Raised};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// What one native run executed, by (file basename, line): line counts,
/// and the (true, false) counts of the line's conditions.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Executed {
    lines: BTreeMap<(String, u32), u64>,
    branches: BTreeMap<(String, u32), (u64, u64)>,
}

/// Reads llvm-cov's lcov export.
fn parse_lcov(text: &str) -> Executed {
    let mut e = Executed::default();
    let mut file = String::new();
    for l in text.lines() {
        if let Some(f) = l.strip_prefix("SF:") {
            file = basename(f);
        } else if let Some(d) = l.strip_prefix("DA:") {
            let mut it = d.split(',');
            if let (Some(Ok(line)), Some(Ok(n))) = (it.next().map(str::parse), it.next().map(str::parse::<u64>)) {
                *e.lines.entry((file.clone(), line)).or_default() += n;
            }
        } else if let Some(d) = l.strip_prefix("BRDA:") {
            // line, block, branch (0: true, 1: false), count ("-": never
            // evaluated).
            let f: Vec<&str> = d.split(',').collect();
            if let [line, _, branch, count] = f.as_slice() {
                let (Ok(line), Ok(branch)) = (line.parse::<u32>(), branch.parse::<u32>()) else {
                    continue;
                };
                let n = count.parse::<u64>().unwrap_or(0);
                let slot = e.branches.entry((file.clone(), line)).or_default();
                match branch {
                    0 => slot.0 += n,
                    _ => slot.1 += n,
                }
            }
        }
    }
    e
}

/// What the run executed, from its profile (None without one, or when a
/// tool fails: the goal is then not confirmed).
fn executed(run: &NativeRun) -> Option<Executed> {
    let (exe, profile) = run.profile.as_ref()?;
    let data = profile.with_extension("profdata");
    let out = tool_output(
        Command::new("llvm-profdata-14")
            .args(["merge", "-sparse", "-o"])
            .arg(&data)
            .arg(profile),
        "llvm-profdata-14",
        "llvm-14",
    )
    .ok()?;
    if !out.status.success() {
        return None;
    }
    let out = tool_output(
        Command::new("llvm-cov-14")
            .args(["export", "-format=lcov"])
            .arg(format!("-instr-profile={}", data.display()))
            .arg(exe),
        "llvm-cov-14",
        "llvm-14",
    )
    .ok()?;
    out.status
        .success()
        .then(|| parse_lcov(&String::from_utf8_lossy(&out.stdout)))
}

fn found_at(finding: &Finding, o: &Observed) -> bool {
    o.raised.iter().any(|r| {
        r.kind == finding.kind
            && r.line == Some(finding.line)
            && r.file.as_deref() == Some(basename(&finding.file).as_str())
    })
}

/// A line reached (`fpsym path --reach`): the native run executes it.
pub struct Reached {
    places: BTreeSet<(String, u32)>,
}

impl Reached {
    /// The confirmation of reaching these places (file, line).
    pub fn new(places: impl IntoIterator<Item = (String, u32)>) -> Reached {
        Reached {
            places: places.into_iter().map(|(f, l)| (basename(&f), l)).collect(),
        }
    }
}

impl Confirmation for Reached {
    fn kind(&self) -> FindingKind {
        FindingKind::Goal(fpsym_report::Goal::Reached)
    }
    fn needs_profile(&self) -> bool {
        true
    }
    fn raised(&self, run: &NativeRun, _symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        let Some(e) = executed(run) else { return Vec::new() };
        self.places
            .iter()
            .filter(|p| e.lines.get(*p).is_some_and(|n| *n > 0))
            .map(|(f, l)| Raised {
                kind: self.kind(),
                file: Some(f.clone()),
                line: Some(*l),
            })
            .collect()
    }
    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        found_at(finding, o)
    }
}

/// A path taken (`fpsym path --path`): at each line of the path, the
/// native run decides its condition true and false as many times as the
/// path says (at least as many for a prefix). Lines named with a column
/// (several conditions) are not counted.
pub struct PathFollowed {
    file: Option<String>,
    counts: BTreeMap<u32, (u64, u64)>,
    prefix: bool,
    /// Where the path's finding is (file, line).
    places: BTreeSet<(String, u32)>,
}

impl PathFollowed {
    /// The confirmation of `path`, whose findings are at `places`.
    pub fn new(path: &PathRecord, places: impl IntoIterator<Item = (String, u32)>) -> PathFollowed {
        let with_column: BTreeSet<u32> = path
            .decisions
            .iter()
            .filter(|d| d.column.is_some())
            .map(|d| d.line)
            .collect();
        let mut counts: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for d in path.decisions.iter().filter(|d| !with_column.contains(&d.line)) {
            let c = counts.entry(d.line).or_default();
            if d.taken {
                c.0 += 1;
            } else {
                c.1 += 1;
            }
        }
        PathFollowed {
            file: path.file.as_deref().map(basename),
            counts,
            prefix: path.prefix,
            places: places.into_iter().map(|(f, l)| (basename(&f), l)).collect(),
        }
    }

    /// Whether the run's decisions at the path's lines are the path's.
    fn takes(&self, e: &Executed) -> bool {
        self.counts.iter().all(|(line, want)| {
            let got = e
                .branches
                .iter()
                .filter(|((f, l), _)| l == line && self.file.as_ref().is_none_or(|x| x == f))
                .fold((0, 0), |a, (_, c)| (a.0 + c.0, a.1 + c.1));
            if self.prefix {
                got.0 >= want.0 && got.1 >= want.1
            } else {
                got == *want
            }
        })
    }
}

impl Confirmation for PathFollowed {
    fn kind(&self) -> FindingKind {
        FindingKind::Goal(fpsym_report::Goal::PathFollowed)
    }
    fn needs_profile(&self) -> bool {
        true
    }
    fn raised(&self, run: &NativeRun, _symbolize: &dyn Fn(&str) -> Option<(String, u32)>) -> Vec<Raised> {
        match executed(run) {
            Some(e) if self.takes(&e) => self
                .places
                .iter()
                .map(|(f, l)| Raised {
                    kind: self.kind(),
                    file: Some(f.clone()),
                    line: Some(*l),
                })
                .collect(),
            _ => Vec::new(),
        }
    }
    fn confirms(&self, finding: &Finding, o: &Observed) -> bool {
        found_at(finding, o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpsym_report::PathDecision;

    const LCOV: &str = "SF:/tmp/m.c\nDA:2,1\nSF:/x/dichotomic.c\nDA:48,19\nDA:50,18\nDA:53,2\n\
                        BRDA:48,0,0,18\nBRDA:48,0,1,1\nBRDA:50,0,0,16\nBRDA:50,0,1,2\nBRDA:60,0,0,-\nend_of_record\n";

    #[test]
    fn lcov_lines_and_conditions_are_read() {
        let e = parse_lcov(LCOV);
        assert_eq!(e.lines.get(&("dichotomic.c".into(), 48)), Some(&19));
        assert_eq!(e.lines.get(&("m.c".into(), 2)), Some(&1));
        assert_eq!(e.branches.get(&("dichotomic.c".into(), 50)), Some(&(16, 2)));
        assert_eq!(e.branches.get(&("dichotomic.c".into(), 60)), Some(&(0, 0)));
    }

    #[test]
    fn paths_are_taken_by_their_decision_counts() {
        let e = parse_lcov(LCOV);
        let d = |line, taken| PathDecision {
            line,
            column: None,
            taken,
        };
        let mut path = PathRecord {
            spec: String::new(),
            file: Some("dichotomic.c".into()),
            decisions: vec![d(48, true), d(50, false), d(48, true), d(50, true)],
            prefix: true,
        };
        assert!(PathFollowed::new(&path, []).takes(&e));
        path.prefix = false;
        assert!(!PathFollowed::new(&path, []).takes(&e));
        path.decisions = [
            vec![d(48, true); 18],
            vec![d(48, false)],
            vec![d(50, true); 16],
            vec![d(50, false); 2],
        ]
        .concat();
        assert!(PathFollowed::new(&path, []).takes(&e));
        path.decisions.push(d(50, false));
        assert!(!PathFollowed::new(&path, []).takes(&e));
    }
}
