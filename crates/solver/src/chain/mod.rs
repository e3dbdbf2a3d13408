//! The decorators of the solver chain; [`crate::build`] assembles them.

mod cache;
mod independence;
mod log;
mod portfolio;

pub use cache::{Cached, CexReuse};
pub use independence::Independent;
pub use log::{dump_query, CrossChecked, Dumping};
pub use portfolio::{Detached, Portfolio, PortfolioMode, Slice, Workers, OVERSTAY};
