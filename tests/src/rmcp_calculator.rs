//! A calculator written with rmcp's `#[tool_router]`, as an rmcp user writes one: the rmcp
//! server the tests put under the test surface (`TestContext::rmcp(Calculator)`).

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};

/// The arguments of `add`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AddArgs {
    /// The first addend.
    pub a: i64,
    /// The second addend.
    pub b: i64,
}

/// One tool, `add`, served as `calculator 2.1.0`.
#[derive(Clone)]
pub struct Calculator;

#[tool_router]
impl Calculator {
    /// Adds two integers.
    #[tool]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }
}

#[tool_handler]
impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("calculator", "2.1.0"))
    }
}
