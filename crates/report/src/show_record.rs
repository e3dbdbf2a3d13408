//! What `fpsym show --json` prints (fpsym-modes' `show` builds it): the
//! tests shown, each input by name and type with its class, and their
//! findings.

use crate::{FindingKind, Frame};
use serde::{Deserialize, Serialize};

/// The object `fpsym show --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shown {
    /// The output directory, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// What ran: `main`, or `--function NAME`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// The tests shown, by id.
    pub tests: Vec<ShownTest>,
    /// Their findings.
    pub findings: Vec<ShownFinding>,
}

/// One test shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShownTest {
    /// Its id.
    pub id: u64,
    /// The test file.
    pub file: String,
    /// `exit`, `error` or `partial`.
    pub end: String,
    /// The end for people.
    pub detail: String,
    /// The numbers of the findings it triggers.
    pub findings: Vec<usize>,
    /// Its inputs.
    pub inputs: Vec<ShownInput>,
}

impl ShownTest {
    /// The input named `name` (the test fails when there is none).
    pub fn input(&self, name: &str) -> &ShownInput {
        self.inputs
            .iter()
            .find(|i| i.name == name)
            .unwrap_or_else(|| panic!("no input {name} in {self:?}"))
    }
}

/// One input shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShownInput {
    /// Its name.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Its size in bytes.
    pub size: usize,
    /// Its bytes in hex.
    pub bytes: String,
    /// A scalar's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// A float's hex float.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// A float's class (normal, subnormal, zero, inf, NaN).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// More about the class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_detail: Option<String>,
    /// Text bytes as a C string literal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string: Option<String>,
    /// An array's or struct's elements.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<ShownElement>,
}

/// One element shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShownElement {
    /// Its name.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Its value.
    pub value: String,
    /// A float's hex float.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// A float's class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// More about the class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_detail: Option<String>,
}

/// One finding shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShownFinding {
    /// Its number (`findings/NNN-KIND.json`).
    pub number: usize,
    /// Its kind.
    pub kind: FindingKind,
    /// Its file.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// Its test.
    pub test: u64,
    /// Its message.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Its call stack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stack: Vec<Frame>,
}
