//! oxide-runner: the verdicts of the fuzz runner (tests/fuzz/run.sh) and
//! the conformance suite, taken from the stable error codes that oxidec
//! and mir-export print (`error[OXnnnn]: ...`, man/oxidec.1 and
//! man/mir-export.1, DIAGNOSTICS) and from exit statuses, never from the
//! text of a message.

pub mod verdict;
