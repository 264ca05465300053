//! A tape's events: what an event holds ([`Event`], a string's place in the text,
//! [`Text`]), and how a list of them is kept as bytes. Each event is a tag byte followed
//! by what it holds, in as few bytes as that needs. A non-negative integer takes one, two,
//! four or eight bytes after its tag (the fewest that hold it), a string or key six (its
//! place in the text and its length), a container's opening five (where it ends), its end,
//! `null`, a boolean, an empty string and an empty container's opening one.
//!
//! A fixed-size event spends the room of its largest kind (a `u64`, or a string's place
//! and length) on every event: eleven bytes where the text of a small number spends two
//! or three, so a call of many small numbers made a tape five times its text. Offsets into
//! the list are byte offsets; an event's size follows from its tag alone, so a reader steps
//! from one event to the next without decoding what it skips.

use serde_json::Number;

/// One event of a tape ([`super::tape::Tape`]), as read from its bytes (where an event
/// takes one to ten). A string is where its content is ([`Text`]), not a `String` of its
/// own; a number is `serde_json`'s three kinds of [`Number`], spelled out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Event {
    Null,
    Bool(bool),
    /// A non-negative integer (as [`Number::as_u64`] gives it).
    Unsigned(u64),
    /// A negative integer.
    Signed(i64),
    /// Any other number (finite: a `Number` never holds another).
    Float(f64),
    Str(Text),
    /// An object member's key; the member's value follows.
    Key(Text),
    /// An array opens; `end` is the byte offset of its [`Event::End`].
    Array {
        end: u32,
    },
    /// An object opens; `end` is the byte offset of its [`Event::End`].
    Object {
        end: u32,
    },
    /// The innermost open array or object closes.
    End,
}

/// Where a string's content is: bytes `start..start + len` of the parsed text or of the
/// tape's own strings, read as [`Place`] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Text {
    start: u32,
    len: u32,
    place: Place,
}

impl Text {
    pub(super) fn new(start: u32, len: u32, place: Place) -> Text {
        Text { start, len, place }
    }

    /// Where the content starts, as stored.
    pub(super) fn start_u32(self) -> u32 {
        self.start
    }

    /// The content's length, as stored.
    pub(super) fn len_u32(self) -> u32 {
        self.len
    }

    /// How it is read.
    pub(crate) fn place(self) -> Place {
        self.place
    }

    /// Where the content starts.
    #[inline]
    pub(super) fn start(self) -> usize {
        self.start as usize
    }

    /// The content's length in bytes (in the text, with its escapes, for [`Place::Escaped`]).
    #[inline]
    pub(super) fn len(self) -> usize {
        self.len as usize
    }
}

/// How a [`Text`] is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// The parsed text holds the content as it is: most keys and strings.
    Verbatim,
    /// The parsed text holds the content written with JSON's escapes and nothing else to
    /// repair, up to the closing quote `quote` (`read_escaped` decodes it again on reading):
    /// a long string with a few escapes costs the tape nothing but its event.
    Escaped { quote: u8 },
    /// The tape's own strings hold it: what the text does not spell as it is (joined
    /// literals, repaired escapes, a value decoded from a string).
    Kept,
}

impl Event {
    /// The event of a number.
    pub(super) fn number(number: &Number) -> Event {
        if let Some(unsigned) = number.as_u64() {
            Event::Unsigned(unsigned)
        } else if let Some(signed) = number.as_i64() {
            Event::Signed(signed)
        } else {
            // Without `arbitrary_precision` (never turned on here), every other number is a
            // finite float.
            number.as_f64().map_or(Event::Null, Event::Float)
        }
    }

    /// The number of a number event.
    pub(crate) fn as_number(&self) -> Option<Number> {
        match *self {
            Event::Unsigned(unsigned) => Some(unsigned.into()),
            Event::Signed(signed) => Some(signed.into()),
            Event::Float(float) => Number::from_f64(float),
            _ => None,
        }
    }
}

/// The kind of event, the tag's low four bits.
const KIND: u8 = 0x0F;
const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const END: u8 = 3;
const ARRAY: u8 = 4;
const OBJECT: u8 = 5;
/// A non-negative integer below 256, in one byte.
const SMALL: u8 = 6;
const UNSIGNED: u8 = 7;
const SIGNED: u8 = 8;
const FLOAT: u8 = 9;
const STR: u8 = 10;
const KEY: u8 = 11;
/// A non-negative integer below 2¹⁶, in two bytes.
const UNSIGNED_16: u8 = 12;
/// A non-negative integer below 2³², in four bytes.
const UNSIGNED_32: u8 = 13;
/// An array or object that holds nothing, in its tag alone: its end is the next byte, so
/// `[]` takes two bytes, not six.
const EMPTY_ARRAY: u8 = 14;
const EMPTY_OBJECT: u8 = 15;

/// A string's or key's length is one byte (below 256), not four.
const SHORT: u8 = 0x10;
/// Where a string's content is read ([`Place`]), the tag's two bits above [`SHORT`]; a
/// [`Place::Escaped`] text is followed by its quote byte.
const ESCAPED: u8 = 0x20;
const KEPT: u8 = 0x40;
/// Both place bits of a string or key: it is empty, and nothing follows the tag (it reads
/// as an empty [`Place::Verbatim`] text, wherever it was).
const EMPTY_TEXT: u8 = ESCAPED | KEPT;

/// A container's opening event: its tag and where it ends.
const OPENING: usize = 5;

/// An opening taken out while the parse goes on ([`EventList::skip_opening`]), which
/// [`EventList::settle`] removes before the list is read: no reader meets it. Its kind bits
/// are an array's, so [`size`] steps over it as over an opening.
const SKIPPED: u8 = 0x80 | ARRAY;

/// The bytes the event whose tag is `tag` takes, the tag included.
#[inline(always)]
fn size(tag: u8) -> usize {
    match tag & KIND {
        ARRAY | OBJECT => OPENING,
        SMALL => 2,
        UNSIGNED_16 => 3,
        UNSIGNED_32 => 5,
        UNSIGNED | SIGNED | FLOAT => 9,
        STR | KEY if tag & EMPTY_TEXT == EMPTY_TEXT => 1,
        STR | KEY => 1 + 4 + if tag & SHORT != 0 { 1 } else { 4 } + usize::from(tag & ESCAPED != 0),
        _ => 1,
    }
}

/// Four bytes at the front of `rest` as a little-endian `u32`.
#[inline(always)]
fn u32_of(rest: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(*rest.first_chunk::<4>()?))
}

/// The event at byte `at` and the offset of the one after it; `None` past the end (or
/// inside an event, which no offset the tape hands out is).
#[inline(always)]
fn decode(bytes: &[u8], at: usize) -> Option<(Event, usize)> {
    let (&tag, rest) = bytes.get(at..)?.split_first()?;
    let event = match tag & KIND {
        NULL => Event::Null,
        FALSE => Event::Bool(false),
        TRUE => Event::Bool(true),
        END => Event::End,
        ARRAY => Event::Array { end: u32_of(rest)? },
        OBJECT => Event::Object { end: u32_of(rest)? },
        EMPTY_ARRAY => Event::Array { end: u32::try_from(at + 1).ok()? },
        EMPTY_OBJECT => Event::Object { end: u32::try_from(at + 1).ok()? },
        SMALL => Event::Unsigned(u64::from(*rest.first()?)),
        UNSIGNED_16 => Event::Unsigned(u64::from(u16::from_le_bytes(*rest.first_chunk::<2>()?))),
        UNSIGNED_32 => Event::Unsigned(u64::from(u32_of(rest)?)),
        UNSIGNED => Event::Unsigned(u64::from_le_bytes(*rest.first_chunk::<8>()?)),
        SIGNED => Event::Signed(i64::from_le_bytes(*rest.first_chunk::<8>()?)),
        FLOAT => Event::Float(f64::from_le_bytes(*rest.first_chunk::<8>()?)),
        kind @ (STR | KEY) if tag & EMPTY_TEXT == EMPTY_TEXT => {
            let text = Text::new(0, 0, Place::Verbatim);
            if kind == STR {
                Event::Str(text)
            } else {
                Event::Key(text)
            }
        }
        kind @ (STR | KEY) => {
            let start = u32_of(rest)?;
            let (len, after) =
                if tag & SHORT != 0 { (u32::from(*rest.get(4)?), 5) } else { (u32_of(rest.get(4..)?)?, 8) };
            let place = if tag & (ESCAPED | KEPT) == 0 {
                Place::Verbatim
            } else if tag & ESCAPED != 0 {
                Place::Escaped { quote: *rest.get(after)? }
            } else {
                Place::Kept
            };
            let text = Text::new(start, len, place);
            if kind == STR {
                Event::Str(text)
            } else {
                Event::Key(text)
            }
        }
        _ => return None,
    };
    Some((event, at + size(tag)))
}

/// Appends `event`'s bytes, each kind as one array of its own size (a copy of a constant
/// size compiles to a few stores).
#[inline(always)]
fn encode(bytes: &mut Vec<u8>, event: Event) {
    match event {
        Event::Null => bytes.push(NULL),
        Event::Bool(false) => bytes.push(FALSE),
        Event::Bool(true) => bytes.push(TRUE),
        Event::End => bytes.push(END),
        Event::Array { end } => opening(bytes, ARRAY, end),
        Event::Object { end } => opening(bytes, OBJECT, end),
        Event::Unsigned(value) => unsigned(bytes, value),
        Event::Signed(value) => eight(bytes, SIGNED, value.to_le_bytes()),
        Event::Float(value) => eight(bytes, FLOAT, value.to_le_bytes()),
        Event::Str(text) => string(bytes, STR, text),
        Event::Key(text) => string(bytes, KEY, text),
    }
}

/// A non-negative integer in the fewest of one, two, four or eight bytes that hold it.
#[inline]
fn unsigned(bytes: &mut Vec<u8>, value: u64) {
    if let Ok(small) = u8::try_from(value) {
        bytes.extend_from_slice(&[SMALL, small]);
    } else if let Ok(value) = u16::try_from(value) {
        let [a, b] = value.to_le_bytes();
        bytes.extend_from_slice(&[UNSIGNED_16, a, b]);
    } else if let Ok(value) = u32::try_from(value) {
        let [a, b, c, d] = value.to_le_bytes();
        bytes.extend_from_slice(&[UNSIGNED_32, a, b, c, d]);
    } else {
        eight(bytes, UNSIGNED, value.to_le_bytes());
    }
}

#[inline]
fn opening(bytes: &mut Vec<u8>, tag: u8, end: u32) {
    let [a, b, c, d] = end.to_le_bytes();
    bytes.extend_from_slice(&[tag, a, b, c, d]);
}

#[inline]
fn eight(bytes: &mut Vec<u8>, tag: u8, value: [u8; 8]) {
    let [a, b, c, d, e, f, g, h] = value;
    bytes.extend_from_slice(&[tag, a, b, c, d, e, f, g, h]);
}

#[inline(always)]
fn string(bytes: &mut Vec<u8>, kind: u8, text: Text) {
    let (start, len) = (text.start_u32(), text.len_u32());
    if len == 0 && !matches!(text.place(), Place::Escaped { .. }) {
        bytes.push(kind | EMPTY_TEXT);
        return;
    }
    let (place, quote) = match text.place() {
        Place::Verbatim => (0, None),
        Place::Escaped { quote } => (ESCAPED, Some(quote)),
        Place::Kept => (KEPT, None),
    };
    let [s0, s1, s2, s3] = start.to_le_bytes();
    match u8::try_from(len) {
        Ok(short) => bytes.extend_from_slice(&[kind | SHORT | place, s0, s1, s2, s3, short]),
        Err(_) => {
            let [l0, l1, l2, l3] = len.to_le_bytes();
            bytes.extend_from_slice(&[kind | place, s0, s1, s2, s3, l0, l1, l2, l3]);
        }
    }
    if let Some(quote) = quote {
        bytes.push(quote);
    }
}

/// A tape's events, owned: written by the parse, read through [`Events`].
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct EventList {
    bytes: Vec<u8>,
    /// An opening was taken out ([`EventList::skip_opening`]) and not yet removed
    /// ([`EventList::settle`]).
    skipped: bool,
}

impl EventList {
    /// A list written into `bytes` (emptied first), keeping their room.
    pub(crate) fn from_bytes(mut bytes: Vec<u8>) -> EventList {
        bytes.clear();
        EventList { bytes, skipped: false }
    }

    /// Where its bytes are (for tests of which block it writes into).
    #[cfg(test)]
    pub(crate) fn block(&self) -> *const u8 {
        self.bytes.as_ptr()
    }

    /// The bytes, taken.
    pub(crate) fn take_bytes(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bytes)
    }

    /// Empties it, keeping its room.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.skipped = false;
    }

    /// Room for `more` bytes of events.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.bytes.reserve(more);
    }

    /// Appends `event`.
    #[inline]
    pub(crate) fn push(&mut self, event: Event) {
        encode(&mut self.bytes, event);
    }

    /// The byte offset the next event is written at.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The events, to read.
    #[inline]
    pub(crate) fn view(&self) -> Events<'_> {
        Events(&self.bytes)
    }

    /// Closes the container opened at `at`: its end is the next event. One that holds
    /// nothing is written [`EMPTY_ARRAY`] or [`EMPTY_OBJECT`]. (Past 4 GiB of events an end is not where it says,
    /// and a reader does not read the tape.)
    pub(crate) fn close(&mut self, at: usize) {
        if self.bytes.len() == at + OPENING {
            if let Some(&tag @ (ARRAY | OBJECT)) = self.bytes.get(at) {
                let empty = if tag == ARRAY { EMPTY_ARRAY } else { EMPTY_OBJECT };
                self.bytes.truncate(at);
                self.bytes.extend_from_slice(&[empty, END]);
                return;
            }
        }
        let end = u32::try_from(self.bytes.len()).unwrap_or(u32::MAX);
        self.bytes.push(END);
        self.set_end(at, end);
    }

    /// The container opened at `at` ends at the event at byte `end`.
    fn set_end(&mut self, at: usize, end: u32) {
        if matches!(self.bytes.get(at), Some(&(ARRAY | OBJECT))) {
            if let Some(slot) = self.bytes.get_mut(at + 1..at + OPENING) {
                slot.copy_from_slice(&end.to_le_bytes());
            }
        }
    }

    /// The object opened at `at` is an array.
    pub(crate) fn retag_array(&mut self, at: usize) {
        match self.bytes.get_mut(at) {
            Some(tag @ &mut OBJECT) => *tag = ARRAY,
            Some(tag @ &mut EMPTY_OBJECT) => *tag = EMPTY_ARRAY,
            _ => {}
        }
    }

    /// Takes out the array opened at `at` (not closed yet, so without its end). Its bytes
    /// stay until [`settle`](EventList::settle) removes them with every other opening taken
    /// out: removing each at once moved all that followed it, so a `(` nested in `(` around
    /// a large value, each unwrapped as it closes, cost the depth times the value.
    pub(crate) fn skip_opening(&mut self, at: usize) {
        if at + OPENING > self.bytes.len() {
            return;
        }
        if let Some(tag @ &mut (ARRAY | OBJECT)) = self.bytes.get_mut(at) {
            *tag = SKIPPED;
            self.skipped = true;
        }
    }

    /// Removes the openings taken out ([`skip_opening`](EventList::skip_opening)), in one
    /// pass over the events: each container's end is written again where it now is. Every
    /// container must be closed. Nothing to do (and no pass) when none was taken out.
    pub(crate) fn settle(&mut self) {
        if !std::mem::take(&mut self.skipped) {
            return;
        }
        // The openings not yet ended, by where they now are (`None`: an empty container's,
        // whose end is the byte after it, written in its tag).
        let mut open: Vec<Option<usize>> = Vec::new();
        let (mut read, mut written) = (0, 0);
        while let Some(&tag) = self.bytes.get(read) {
            let length = size(tag).min(self.bytes.len() - read);
            if tag == SKIPPED {
                read += length;
                continue;
            }
            self.bytes.copy_within(read..read + length, written);
            match tag {
                ARRAY | OBJECT => open.push(Some(written)),
                EMPTY_ARRAY | EMPTY_OBJECT => open.push(None),
                END => {
                    if let Some(Some(at)) = open.pop() {
                        self.set_end(at, u32::try_from(written).unwrap_or(u32::MAX));
                    }
                }
                _ => {}
            }
            read += length;
            written += length;
        }
        self.bytes.truncate(written);
    }
}

/// A tape's events, to read: [`Events::get`] the event at a byte offset,
/// [`Events::next_at`] the offset of the one after it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Events<'t>(&'t [u8]);

impl<'t> Events<'t> {
    /// The events `bytes` hold (as an [`EventList`] wrote them).
    pub(crate) fn new(bytes: &'t [u8]) -> Events<'t> {
        Events(bytes)
    }

    /// The bytes the events take: the offset just past the last.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.0.len()
    }

    /// The event at byte `at`.
    #[inline]
    pub(crate) fn get(self, at: usize) -> Option<Event> {
        decode(self.0, at).map(|(event, _)| event)
    }

    /// The event at byte `at` and the offset of the one after it: one reading of its tag
    /// for both.
    #[inline]
    pub(crate) fn read(self, at: usize) -> Option<(Event, usize)> {
        decode(self.0, at)
    }

    /// Whether the event at `at` is a container's end.
    #[inline]
    pub(crate) fn is_end(self, at: usize) -> bool {
        self.0.get(at) == Some(&END)
    }

    /// The offset of the event after the one at `at` (`at` itself past the end).
    #[inline]
    pub(crate) fn next_at(self, at: usize) -> usize {
        match self.0.get(at) {
            Some(&tag) => at + size(tag),
            None => at,
        }
    }

    /// Every event, in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = Event> + 't {
        let mut at = 0;
        std::iter::from_fn(move || {
            let (event, next) = self.read(at)?;
            at = next;
            Some(event)
        })
    }

    /// The one event the list holds, when it holds exactly one.
    pub(crate) fn only(self) -> Option<Event> {
        let (event, next) = self.read(0)?;
        (next == self.len()).then_some(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_reads_back_as_written_in_its_size() {
        let text = |start, len, place| Text::new(start, len, place);
        let events = [
            Event::Null,
            Event::Bool(false),
            Event::Bool(true),
            Event::Array { end: 7 },
            Event::Object { end: u32::MAX },
            Event::Unsigned(0),
            Event::Unsigned(255),
            Event::Unsigned(256),
            Event::Unsigned(65_535),
            Event::Unsigned(65_536),
            Event::Unsigned(u64::from(u32::MAX)),
            Event::Unsigned(u64::from(u32::MAX) + 1),
            Event::Unsigned(u64::MAX),
            Event::Signed(i64::MIN),
            Event::Signed(-1),
            Event::Float(-0.0),
            Event::Float(f64::MAX),
            Event::Str(text(0, 3, Place::Verbatim)),
            Event::Str(text(0, 0, Place::Verbatim)),
            Event::Key(text(0, 0, Place::Verbatim)),
            Event::Str(text(u32::MAX, 255, Place::Kept)),
            Event::Str(text(9, 256, Place::Escaped { quote: b'\'' })),
            Event::Key(text(1, u32::MAX, Place::Verbatim)),
            Event::Key(text(70_000, 3, Place::Escaped { quote: b'"' })),
            Event::End,
        ];
        let mut list = EventList::default();
        let mut offsets = Vec::new();
        for event in events {
            offsets.push(list.len());
            list.push(event);
        }
        let view = list.view();
        for (k, (&at, event)) in offsets.iter().zip(events).enumerate() {
            let read = view.get(at).expect("an event");
            // `-0.0 == 0.0`: compare floats by their bits.
            match (read, event) {
                (Event::Float(a), Event::Float(b)) => assert_eq!(a.to_bits(), b.to_bits()),
                _ => assert_eq!(read, event),
            }
            assert_eq!(view.next_at(at), offsets.get(k + 1).copied().unwrap_or(view.len()), "{event:?}");
        }
        assert_eq!(view.iter().count(), events.len());
        assert_eq!(view.get(view.len()), None);
        // An integer takes one byte more than the fewest of one, two, four or eight that
        // hold it; a short verbatim string six.
        let sizes: Vec<usize> = offsets.windows(2).map(|pair| pair[1] - pair[0]).collect();
        assert_eq!(sizes[5..12], [2, 2, 3, 3, 5, 5, 9]);
        // A short verbatim string six, an empty string or key one.
        assert_eq!(sizes[17..20], [6, 1, 1]);
        // An empty string reads as empty wherever it was.
        let mut list = EventList::default();
        list.push(Event::Str(text(40, 0, Place::Kept)));
        assert_eq!(list.view().only(), Some(Event::Str(text(0, 0, Place::Verbatim))));
    }

    #[test]
    fn an_empty_container_takes_two_bytes_and_ends_where_it_says() {
        // [ [], {}, [1] ]
        let mut list = EventList::default();
        let outer = list.len();
        list.push(Event::Array { end: 0 });
        for tag_event in [Event::Array { end: 0 }, Event::Object { end: 0 }] {
            let at = list.len();
            list.push(tag_event);
            list.close(at);
            assert_eq!(list.len(), at + 2);
        }
        let inner = list.len();
        list.push(Event::Array { end: 0 });
        list.push(Event::Unsigned(1));
        list.close(inner);
        list.close(outer);
        let read: Vec<Event> = list.view().iter().collect();
        assert_eq!(
            read,
            [
                Event::Array { end: 17 },
                Event::Array { end: 6 },
                Event::End,
                Event::Object { end: 8 },
                Event::End,
                Event::Array { end: 16 },
                Event::Unsigned(1),
                Event::End,
                Event::End,
            ]
        );
        // An empty object read as a Python set is an empty array.
        let mut list = EventList::default();
        list.push(Event::Object { end: 0 });
        list.close(0);
        list.retag_array(0);
        assert_eq!(list.view().get(0), Some(Event::Array { end: 1 }));
    }

    #[test]
    fn an_opening_taken_out_moves_the_ends_after_it() {
        // [ ( {} , 1 ]: the `(` at 5 holds the object, then is taken out.
        let mut list = EventList::default();
        let array = list.len();
        list.push(Event::Array { end: 0 });
        let paren = list.len();
        list.push(Event::Array { end: 0 });
        let object = list.len();
        list.push(Event::Object { end: 0 });
        let end = u32::try_from(list.len()).unwrap();
        list.push(Event::End);
        list.set_end(object, end);
        list.skip_opening(paren);
        list.push(Event::Unsigned(1));
        let end = u32::try_from(list.len()).unwrap();
        list.push(Event::End);
        list.set_end(array, end);
        list.settle();
        let end = end - 5;
        let view = list.view();
        let read: Vec<Event> = view.iter().collect();
        assert_eq!(
            read,
            [Event::Array { end }, Event::Object { end: 10 }, Event::End, Event::Unsigned(1), Event::End,]
        );
        assert_eq!(view.get(10), Some(Event::End));
    }
}
