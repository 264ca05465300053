use schemars::JsonSchema;
use serde::Deserialize;
use tool_input::ToolInput;

#[derive(Deserialize, JsonSchema, ToolInput)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct CreateUser {
    #[tool_input(sensitive)]
    initial_password: String,
    #[serde(rename = "EMAIL")]
    #[tool_input(strict)]
    email_address: String,
    #[tool_input(policy = "lenient")]
    is_admin: bool,
}

#[derive(Deserialize, JsonSchema, ToolInput)]
#[serde(rename_all(deserialize = "kebab-case"))]
#[allow(dead_code)]
struct DeleteUser {
    #[tool_input(strict)]
    user_id: u64,
}

fn main() {
    let names: Vec<_> = CreateUser::FIELDS.iter().map(|field| field.name).collect();
    assert_eq!(names, ["initialPassword", "EMAIL", "isAdmin"]);
    assert_eq!(DeleteUser::FIELDS[0].name, "user-id");
}
