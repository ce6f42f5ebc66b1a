//! oxide-runner: the fuzz runner and the conformance batch exporter as one
//! program (docs/fuzzing.md, docs/conformance.md). Its verdicts come from
//! the stable error codes that oxidec and mir-export print
//! (`error[OXnnnn]: ...`, man/oxidec.1 and man/mir-export.1, DIAGNOSTICS)
//! and from exit statuses, never from the text of a message.
//!
//! verdict: BUG or GAP of a failure; rustsrc: the text edits of a crate
//! and of rustc's MIR; export: mir-export of a group crate with its
//! bisection; batch: a group compiled and run at once; fuzz: the fuzz run;
//! report: its verdicts and summary; conf: settings and shared helpers.

pub mod batch;
pub mod conf;
pub mod export;
pub mod fuzz;
pub mod report;
pub mod rustsrc;
pub mod verdict;
