//! `subscriptions/listen` (spec §10): a long-lived request whose notifications tell the client
//! that a list changed or a resource was updated.
//!
//! The request's first message is `notifications/subscriptions/acknowledged` with the subset of
//! the requested filter the server honours; every later notification carries the same
//! `io.modelcontextprotocol/subscriptionId` (the listen request's id), and only the kinds the
//! client asked for are sent. The stream ends when the client cancels (closes the HTTP stream,
//! or sends `notifications/cancelled` on stdio), or when the server calls
//! [`Server::close_subscriptions`](crate::Server::close_subscriptions), which answers the listen
//! request with a `complete` result.
//!
//! Changes are announced by the application through [`Server`](crate::Server):
//! `notify_tools_list_changed`, `notify_prompts_list_changed`, `notify_resources_list_changed`
//! and `notify_resource_updated(uri)`, for example when a feature flag that an
//! [`Access`](crate::Access) rule reads flips, or when the data behind a resource changes. A
//! handler announces through its [`Context`](crate::Context), which has the same methods, each
//! handing its change to the server's [`Hub`]. This module is below the context: [`listen`]
//! takes the few fields of the listen request it reads ([`ListenRequest`]), not the context.

use crate::notify::Notifier;
use crate::tasks::extension::{EXTENSION, declared_in, missing_extension};
use crate::wire::{
    ClientCapabilities, ErrorObject, Notification, RequestId, ServerCapabilities, json_type,
    meta_keys,
};
use serde_json::{Map, Value, json};
use tokio::sync::broadcast;

/// One change the server announces to its subscriptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    Tools,
    Prompts,
    Resources,
    ResourceUpdated(String),
    /// A task's status changed: its `DetailedTask`, for the subscriptions of its owner that
    /// listed its id in `taskIds` (the tasks extension).
    Task {
        task_id: String,
        owner: Option<String>,
        detailed: Value,
    },
    /// The server is closing every subscription.
    Close,
}

/// The server's broadcaster of changes.
#[derive(Debug)]
pub(crate) struct Hub {
    sender: broadcast::Sender<Change>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            sender: broadcast::channel(256).0,
        }
    }
}

impl Hub {
    /// A receiver of every change announced from now on.
    pub(crate) fn watch(&self) -> broadcast::Receiver<Change> {
        self.sender.subscribe()
    }

    pub(crate) fn announce(&self, change: Change) {
        // No receiver means no subscription is open: nothing to tell.
        let _ = self.sender.send(change);
    }
}

/// What a listen request asked for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Filter {
    tools: bool,
    prompts: bool,
    resources: bool,
    resource_uris: Option<Vec<String>>,
    /// `taskIds` (the tasks extension).
    task_ids: Option<Vec<String>>,
    /// The principal of the listen request: only its own tasks are announced to it.
    principal: Option<String>,
}

/// Reads an array of strings at `notifications.KEY`.
fn strings(
    notifications: &Map<String, Value>,
    key: &str,
) -> Result<Option<Vec<String>>, ErrorObject> {
    let invalid = |what: String| ErrorObject::invalid_params(format!("Invalid params: {what}"));
    match notifications.get(key) {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, u)| {
                u.as_str().map(str::to_owned).ok_or_else(|| {
                    invalid(format!(
                        "notifications.{key}/{i} must be a string, got {}",
                        json_type(u)
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(other) => Err(invalid(format!(
            "notifications.{key} must be an array, got {}",
            json_type(other)
        ))),
    }
}

impl Filter {
    fn parse(params: &Map<String, Value>) -> Result<Filter, ErrorObject> {
        let invalid = |what: String| ErrorObject::invalid_params(format!("Invalid params: {what}"));
        let notifications = match params.get("notifications") {
            None => return Ok(Filter::default()),
            Some(Value::Object(n)) => n,
            Some(other) => {
                return Err(invalid(format!(
                    "notifications must be an object, got {}",
                    json_type(other)
                )));
            }
        };
        let flag = |key: &str| match notifications.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(invalid(format!(
                "notifications.{key} must be a boolean, got {}",
                json_type(other)
            ))),
        };
        let resource_uris = strings(notifications, "resourceSubscriptions")?;
        let task_ids = strings(notifications, "taskIds")?;
        Ok(Filter {
            tools: flag("toolsListChanged")?,
            prompts: flag("promptsListChanged")?,
            resources: flag("resourcesListChanged")?,
            resource_uris,
            task_ids,
            principal: None,
        })
    }

    /// The part of the filter this server honours: only kinds it has.
    fn honoured(self, caps: &ServerCapabilities) -> Filter {
        Filter {
            tools: self.tools && caps.tools.is_some(),
            prompts: self.prompts && caps.prompts.is_some(),
            resources: self.resources && caps.resources.is_some(),
            resource_uris: self.resource_uris.filter(|_| caps.resources.is_some()),
            task_ids: self.task_ids.filter(|_| {
                caps.extensions
                    .as_ref()
                    .is_some_and(|e| e.contains_key(EXTENSION))
            }),
            principal: self.principal,
        }
    }

    fn to_json(&self) -> Value {
        let mut out = Map::new();
        if self.tools {
            out.insert("toolsListChanged".into(), Value::Bool(true));
        }
        if self.prompts {
            out.insert("promptsListChanged".into(), Value::Bool(true));
        }
        if self.resources {
            out.insert("resourcesListChanged".into(), Value::Bool(true));
        }
        if let Some(uris) = &self.resource_uris {
            out.insert("resourceSubscriptions".into(), json!(uris));
        }
        if let Some(ids) = &self.task_ids {
            out.insert("taskIds".into(), json!(ids));
        }
        Value::Object(out)
    }

    /// The notification `change` becomes on this subscription, if the client asked for it.
    fn notification(&self, change: &Change) -> Option<(&'static str, Map<String, Value>)> {
        match change {
            Change::Tools if self.tools => Some(("notifications/tools/list_changed", Map::new())),
            Change::Prompts if self.prompts => {
                Some(("notifications/prompts/list_changed", Map::new()))
            }
            Change::Resources if self.resources => {
                Some(("notifications/resources/list_changed", Map::new()))
            }
            Change::ResourceUpdated(uri)
                if self
                    .resource_uris
                    .as_ref()
                    .is_some_and(|uris| uris.contains(uri)) =>
            {
                let mut params = Map::new();
                params.insert("uri".into(), Value::from(uri.as_str()));
                Some(("notifications/resources/updated", params))
            }
            Change::Task {
                task_id,
                owner,
                detailed: Value::Object(detailed),
            } if *owner == self.principal
                && self
                    .task_ids
                    .as_ref()
                    .is_some_and(|ids| ids.contains(task_id)) =>
            {
                Some(("notifications/tasks", detailed.clone()))
            }
            _ => None,
        }
    }
}

/// What [`listen`] reads of the listen request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ListenRequest<'a> {
    /// The request's id, which every notification of the subscription carries.
    pub(crate) id: &'a RequestId,
    /// The authenticated principal: only its own tasks are announced to it.
    pub(crate) principal: Option<&'a str>,
    /// The capabilities the request declared.
    pub(crate) client_capabilities: &'a ClientCapabilities,
    /// Where the request's notifications go.
    pub(crate) notifier: &'a Notifier,
}

/// Serves one `subscriptions/listen` request until it is cancelled or the server closes it.
pub(crate) async fn listen(
    hub: &Hub,
    capabilities: &ServerCapabilities,
    request: ListenRequest<'_>,
    params: &Map<String, Value>,
) -> Result<Value, ErrorObject> {
    let mut filter = Filter::parse(params)?;
    // The tasks extension: task notifications only for a client that declares it (-32021).
    if filter.task_ids.is_some() && !declared_in(request.client_capabilities) {
        return Err(missing_extension(
            "subscriptions/listen with notifications.taskIds",
        ));
    }
    filter.principal = request.principal.map(str::to_owned);
    let filter = filter.honoured(capabilities);
    let Some(sink) = request.notifier.sink() else {
        return Err(ErrorObject::internal(
            "Internal error: subscriptions/listen needs a transport that streams notifications (stdio or HTTP)",
        ));
    };
    let id = request.id.to_value();
    let tagged = |mut params: Map<String, Value>| {
        params.insert(
            "_meta".into(),
            json!({ meta_keys::SUBSCRIPTION_ID: id.clone() }),
        );
        Value::Object(params)
    };
    // Subscribe before acknowledging, so no change after the acknowledgement is missed.
    let mut changes = hub.sender.subscribe();
    let mut ack = Map::new();
    ack.insert("notifications".into(), filter.to_json());
    if sink
        .send(Notification::new(
            "notifications/subscriptions/acknowledged",
            tagged(ack),
        ))
        .is_err()
    {
        return Ok(closed(&id));
    }
    loop {
        let change = tokio::select! {
            change = changes.recv() => change,
            () = sink.closed() => return Ok(closed(&id)),
        };
        let changes_now = match change {
            Ok(Change::Close) | Err(broadcast::error::RecvError::Closed) => {
                return Ok(closed(&id));
            }
            Ok(change) => vec![change],
            // Missed changes: announce every list the client follows, which is always safe.
            Err(broadcast::error::RecvError::Lagged(_)) => {
                vec![Change::Tools, Change::Prompts, Change::Resources]
            }
        };
        for change in changes_now {
            if let Some((method, params)) = filter.notification(&change)
                && sink
                    .send(Notification::new(method, tagged(params)))
                    .is_err()
            {
                return Ok(closed(&id));
            }
        }
    }
}

/// The `complete` result that ends a subscription gracefully.
fn closed(id: &Value) -> Value {
    json!({ "_meta": { meta_keys::SUBSCRIPTION_ID: id } })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse_and_reject_wrong_types() {
        let params = json!({"notifications": {"toolsListChanged": true, "resourceSubscriptions": ["a://1"]}});
        let f = Filter::parse(params.as_object().unwrap()).unwrap();
        assert!(f.tools && !f.prompts);
        assert_eq!(f.resource_uris, Some(vec!["a://1".to_owned()]));
        for bad in [
            json!({"notifications": 1}),
            json!({"notifications": {"toolsListChanged": "yes"}}),
            json!({"notifications": {"resourceSubscriptions": [1]}}),
        ] {
            let e = Filter::parse(bad.as_object().unwrap()).unwrap_err();
            assert_eq!(e.code, -32602, "{bad}");
        }
    }

    #[test]
    fn only_requested_kinds_become_notifications() {
        let f = Filter {
            prompts: true,
            resource_uris: Some(vec!["a://1".into()]),
            ..Filter::default()
        };
        assert!(f.notification(&Change::Tools).is_none());
        assert_eq!(
            f.notification(&Change::Prompts).unwrap().0,
            "notifications/prompts/list_changed"
        );
        assert!(
            f.notification(&Change::ResourceUpdated("a://2".into()))
                .is_none()
        );
        assert_eq!(
            f.notification(&Change::ResourceUpdated("a://1".into()))
                .unwrap()
                .1["uri"],
            "a://1"
        );
    }
}
