//! The probes of `check`, one file each (or one file a row of the table, when a few probes
//! share one exchange with the server), run from the rows of the table (`crate::table`) over
//! the checker (`crate::checker`). Each file holds its row's run function (`run`) and the ids
//! it reports; a file without a row holds helpers several probes share.

pub(crate) mod auth_tokens;
pub(crate) mod authorization;
pub(crate) mod before_initialized;
pub(crate) mod cache_hints;
pub(crate) mod case_sampling;
pub(crate) mod completion;
pub(crate) mod connection_reuse;
pub(crate) mod content;
pub(crate) mod discovery;
pub(crate) mod elicitation_content;
pub(crate) mod embedded_resources;
pub(crate) mod extension_fallback;
pub(crate) mod header_case;
pub(crate) mod http_exchange;
pub(crate) mod http_probes;
pub(crate) mod initialize_last;
pub(crate) mod initialize_result;
pub(crate) mod input_responses;
pub(crate) mod input_schemas;
pub(crate) mod invalid_request;
pub(crate) mod legacy_capabilities;
pub(crate) mod legacy_streams;
pub(crate) mod lists;
pub(crate) mod malformed_calls;
pub(crate) mod malformed_message;
pub(crate) mod methods;
pub(crate) mod multi_round_discipline;
pub(crate) mod multi_round_driven;
pub(crate) mod name_case;
pub(crate) mod name_header;
pub(crate) mod no_response_to_notification;
pub(crate) mod notifications;
pub(crate) mod param_headers;
pub(crate) mod prompts;
pub(crate) mod properties;
pub(crate) mod raw_http;
pub(crate) mod request_scoped;
pub(crate) mod resources;
pub(crate) mod result_server_info;
pub(crate) mod results_and_errors;
pub(crate) mod sampling_tool_results;
pub(crate) mod schema_cases;
pub(crate) mod stateless;
pub(crate) mod stdio_framing;
pub(crate) mod stream_related;
pub(crate) mod subscriptions;
pub(crate) mod tasks;
pub(crate) mod tasks_listen;
pub(crate) mod tasks_listen_undeclared;
#[cfg(test)]
mod test_targets;
pub(crate) mod tool_definitions;
pub(crate) mod transport;
pub(crate) mod version_negotiation;
pub(crate) mod wording;
