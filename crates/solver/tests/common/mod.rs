//! Helpers shared by the integration tests of this crate (each test file
//! that needs them declares `mod common;`).

pub mod gen;
