//! The probes of `check`, one file each (or one file a row of the table, when a few probes
//! share one exchange with the server), run from the rows of the table (`crate::table`) over
//! the checker (`crate::checker`). Each file holds its row's run function (`run`) and the ids
//! it reports; a file without a row holds helpers several probes share.

pub(crate) mod authorization;
pub(crate) mod cache_hints;
pub(crate) mod completion;
pub(crate) mod content;
pub(crate) mod discovery;
pub(crate) mod embedded_resources;
pub(crate) mod http_probes;
pub(crate) mod initialize_last;
pub(crate) mod input_schemas;
pub(crate) mod lists;
pub(crate) mod malformed_calls;
pub(crate) mod methods;
pub(crate) mod multi_round_discipline;
pub(crate) mod multi_round_driven;
pub(crate) mod name_case;
pub(crate) mod notifications;
pub(crate) mod prompts;
pub(crate) mod properties;
pub(crate) mod raw_http;
pub(crate) mod resources;
pub(crate) mod results_and_errors;
pub(crate) mod schema_cases;
pub(crate) mod stdio_framing;
pub(crate) mod subscriptions;
pub(crate) mod tasks;
pub(crate) mod tool_definitions;
pub(crate) mod transport;
