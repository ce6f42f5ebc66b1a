//! oxide-runner: the fuzz runner and the conformance suite's drivers (the
//! batch exporter among them) as one program (docs/fuzzing.md,
//! docs/conformance.md). Its verdicts come from the stable error codes
//! that oxidec and mir-export print (`error[OXnnnn]: ...`, man/oxidec.1
//! and man/mir-export.1, DIAGNOSTICS) and from exit statuses, never from
//! the text of a message.
//!
//! verdict: BUG or GAP of a failure; rustsrc: the text edits of a crate
//! and of rustc's MIR; export: mir-export of a group crate with its
//! bisection; batch: a group compiled and run at once; fuzz: the fuzz run;
//! report: its verdicts and summary; suite: the conformance suite's shared
//! steps (C tools, CPU reference, one-kernel worker, GPU modules);
//! conformance: the suite without a GPU; gpu: the suite on a GPU; conf:
//! settings and shared helpers.

pub mod batch;
pub mod conf;
pub mod conformance;
pub mod export;
pub mod fuzz;
pub mod gpu;
pub mod report;
pub mod rustsrc;
pub mod suite;
pub mod verdict;
