//! The multi-round probe (spec §8): the cases declare no client capabilities, so a server
//! may ask for none of them, and a tampered `requestState` must be refused.

use super::probes::Checker;
use super::{Severity, brief};
use crate::cases::VerifyReport;
use serde_json::{Value, json};

impl Checker<'_> {
    pub(super) async fn multi_round(&mut self, report: &VerifyReport) {
        let mut out = Vec::new();
        for o in &report.outcomes {
            let Some(r) = &o.response else { continue };
            let result = &r["result"];
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                continue;
            }
            if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
                // The checker declares no client capabilities, so the server may ask for none.
                for (key, req) in requests {
                    out.push((
                        Severity::Defect,
                        format!(
                            "{} › {}: input request {key:?} ({}) asks for a capability the client did not declare; the server should answer -32021",
                            o.case.tool,
                            o.case.title,
                            req.get("method").and_then(Value::as_str).unwrap_or("?")
                        ),
                    ));
                }
            }
            if let Some(state) = result.get("requestState").and_then(Value::as_str) {
                let params = json!({"name": o.case.tool, "arguments": o.case.args,
                                    "requestState": format!("{state}tampered")});
                if let Some(r) = self.req("tools/call", params, &mut out).await
                    && r.get("error").is_none()
                {
                    out.push((
                        Severity::Defect,
                        format!(
                            "{} › {}: a tampered requestState was accepted: {}",
                            o.case.tool,
                            o.case.title,
                            brief(&r)
                        ),
                    ));
                }
            }
        }
        self.push_probe("multi-round/discipline", out);
    }
}
