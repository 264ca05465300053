use tool_input::ToolInput;

#[derive(Clone, Copy, ToolInput)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
