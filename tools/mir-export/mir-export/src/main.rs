mod adts;
mod json;
mod layout;
mod mirparse;
mod types;
fn main() {}
