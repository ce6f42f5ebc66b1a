//! Parser for rustc's MIR text (`--emit=mir` with `-Zmir-include-spans=yes`).
//!
//! `lexer` splits a line into tokens, `parser` reads expressions from them,
//! `items` reads the file's items line by line; `ast` is the result.

pub mod ast;
pub mod items;
pub mod lexer;
pub mod parser;

#[cfg(test)]
mod tests;

pub use items::parse_mir_file;
