use super::*;

fn read<T: PartialValue>(fragments: &[&str]) -> PartialReader<T> {
    let mut reader = PartialReader::<T>::new();
    for fragment in fragments {
        reader.feed(fragment);
    }
    reader
}

#[test]
fn a_number_only_once_complete() {
    let reader = read::<Vec<u32>>(&["[1", "2"]);
    // `12` may go on: nothing of it is shown (and a list shows once something in it has).
    assert_eq!(reader.partial(), &FieldState::Absent);
    let reader = read::<Vec<u32>>(&["[1", "2,"]);
    assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Complete(12)]));
}

#[test]
fn a_string_as_far_as_it_arrived() {
    let reader = read::<Vec<String>>(&[r#"["Hel"#, "lo"]);
    assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Arriving("Hello".into())]));
    let reader = read::<Vec<String>>(&[r#"["Hel"#, r#"lo", "w"#]);
    let FieldState::Arriving(items) = reader.partial() else { panic!() };
    assert_eq!(items[0], FieldState::Complete("Hello".into()));
    assert_eq!(items[1], FieldState::Arriving("w".into()));
}

#[test]
fn nested_lists_and_nulls() {
    let reader = read::<Vec<Vec<Option<u8>>>>(&["[[1, null], [", "2"]);
    let FieldState::Arriving(outer) = reader.partial() else { panic!() };
    assert_eq!(
        outer[0],
        FieldState::Complete(vec![FieldState::Complete(Some(1)), FieldState::Complete(None)])
    );
    // The second list has nothing complete yet.
    assert_eq!(outer.len(), 1);
    let reader = read::<Vec<Vec<Option<u8>>>>(&["[[1, null], [", "2, 3"]);
    let FieldState::Arriving(outer) = reader.partial() else { panic!() };
    assert_eq!(outer[1], FieldState::Arriving(vec![FieldState::Complete(Some(2))]));
}

#[test]
fn catching_up_reads_only_what_is_new() {
    let mut reader = PartialReader::<Vec<String>>::new();
    reader.catch_up(r#"["a"#);
    reader.catch_up(r#"["a"#);
    reader.catch_up(r#"["ab"#);
    assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Arriving("ab".into())]));
    assert_eq!(reader.bytes(), 4);
}

#[test]
fn a_value_serde_refuses_stays_absent() {
    let reader = read::<Vec<u8>>(&["[300, 1]"]);
    // The list itself is not complete as `Vec<u8>`; the item that is stays.
    let FieldState::Arriving(items) = reader.partial() else { panic!("{:?}", reader.partial()) };
    assert_eq!(items, &[FieldState::Absent, FieldState::Complete(1)]);
}

#[test]
fn a_number_or_boolean_in_another_representation_shows_as_the_check_reads_it() {
    // Each shown only once its string closed, then as the value the call will pass with.
    let reader = read::<Vec<u32>>(&[r#"["1"#, "2"]);
    assert_eq!(reader.partial(), &FieldState::Arriving(vec![FieldState::Absent]));
    let reader = read::<Vec<u32>>(&[r#"["1"#, r#"2", 3.0, "4.5", "x","#]);
    let FieldState::Arriving(items) = reader.partial() else { panic!("{:?}", reader.partial()) };
    assert_eq!(
        items,
        &[FieldState::Complete(12), FieldState::Complete(3), FieldState::Absent, FieldState::Absent]
    );
    // `yes` is a boolean only under the lenient policy: the partial shows what the default
    // policy takes.
    let reader = read::<Vec<Vec<bool>>>(&[r#"[["true", "FALSE"], ["true", "yes"], "#]);
    let FieldState::Arriving(lists) = reader.partial() else { panic!("{:?}", reader.partial()) };
    assert_eq!(lists[0], FieldState::Complete(vec![FieldState::Complete(true), FieldState::Complete(false)]));
    assert_eq!(lists[1], FieldState::Arriving(vec![FieldState::Complete(true), FieldState::Absent]));
    // A list sent as a JSON string, once the string is complete.
    let reader = read::<Vec<Vec<u8>>>(&[r#"["[1, \"2\"]", "[1,"#]);
    let FieldState::Arriving(lists) = reader.partial() else { panic!("{:?}", reader.partial()) };
    assert_eq!(
        lists,
        &[FieldState::Complete(vec![FieldState::Complete(1), FieldState::Complete(2)]), FieldState::Absent]
    );
}
