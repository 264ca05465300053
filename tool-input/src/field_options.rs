//! Options of one top-level property, set by a `#[tool_input(...)]` field attribute: read by
//! the validator (per-field policy, sensitive values) and by the tool's own rules.

use crate::policy::Policy;

/// Options a `#[tool_input(...)]` field attribute sets on one property of the tool's
/// top-level object. They apply to the property's whole value, at every depth below it.
///
/// ```
/// use tool_input::{FieldOptions, Policy};
/// let password = FieldOptions::new("password").with_policy(Policy::Strict).with_sensitive(true);
/// assert_eq!(password.policy, Some(Policy::Strict));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct FieldOptions {
    /// The property's name as the model sends it (after serde renames).
    pub name: &'static str,
    /// The coercion policy for this property, overriding the tool's.
    pub policy: Option<Policy>,
    /// The value never appears in error messages, reports or logs.
    pub sensitive: bool,
}

impl FieldOptions {
    /// No options for the property `name`: the tool's policy, not sensitive.
    ///
    /// ```
    /// use tool_input::FieldOptions;
    ///
    /// let options = FieldOptions::new("city");
    /// assert_eq!((options.name, options.policy, options.sensitive), ("city", None, false));
    /// ```
    pub const fn new(name: &'static str) -> Self {
        FieldOptions { name, policy: None, sensitive: false }
    }

    /// The coercion policy for this property, overriding the tool's.
    ///
    /// ```
    /// use tool_input::{FieldOptions, Policy};
    ///
    /// let options = FieldOptions::new("count").with_policy(Policy::Lenient);
    /// assert_eq!(options.policy, Some(Policy::Lenient));
    /// ```
    pub const fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = Some(policy);
        self
    }

    /// Whether the value may never appear in error messages, reports or logs.
    ///
    /// ```
    /// use tool_input::FieldOptions;
    ///
    /// assert!(FieldOptions::new("api_key").with_sensitive(true).sensitive);
    /// ```
    pub const fn with_sensitive(mut self, sensitive: bool) -> Self {
        self.sensitive = sensitive;
        self
    }
}
