//! The renderers of fpsym's records: `report.sarif` (SARIF 2.1.0),
//! `junit.xml` and `report.html` of an output directory, made from the
//! typed records `fpsym-report` reads back (run, summary, tests, findings,
//! events, replay, batch results, a mode's own record). The engine depends
//! on the records only; the modes call [`write_reports`] once a command is
//! done with a directory.
#![deny(missing_docs)]

mod charts;
mod html;
mod junit;
mod reports;
mod sarif;

pub use fpsym_report::{HTML, JUNIT, SARIF};
pub use reports::{write_reports, write_reports_relative_to};

// The records, by their names (`crate::Finding`, ...), as the renderers
// were written beside them.
#[allow(unused_imports)]
use fpsym_report::*;
