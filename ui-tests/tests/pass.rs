//! The derive's pass cases: each module is a tool definition that must compile and behave.
//!
//! They are modules of one ordinary test binary rather than trybuild `pass` cases: trybuild
//! builds a pass case with full code generation, one case at a time, and a single pass case
//! makes it do the same for every compile-fail case too (no batched `cargo check`), which cost
//! minutes of the test command for no extra proof. A pass case proves only that the code compiles
//! and its `main` runs, which an ordinary test proves the same way.

// The cases declare fields only for the derive to read (as under trybuild, which allows it).
#![allow(dead_code)]

#[path = "pass/actions.rs"]
mod actions;
#[path = "pass/generic_and_serde.rs"]
mod generic_and_serde;
#[path = "pass/macro_rules_name.rs"]
mod macro_rules_name;
#[path = "pass/plain.rs"]
mod plain;

#[test]
fn an_action_tool_with_structured_output() {
    actions::main();
}

#[test]
fn bounded_generics_serde_attributes_and_other_result_types() {
    generic_and_serde::main();
}

#[test]
fn a_tool_named_through_macro_rules() {
    macro_rules_name::main();
}

#[test]
fn every_field_type_and_constraint() {
    plain::main();
}
