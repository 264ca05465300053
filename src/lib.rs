//! Examples and integration tests of tool-input.
