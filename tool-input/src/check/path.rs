//! Where a value sits, for both the walk and the one pass: a JSON Pointer kept as a linked
//! list on the call stack (each reader's frame points at its parent's) and rendered only when
//! an error, a coercion or a filled default is recorded, which most calls never do.

/// A location in the arguments: the root, or a key or index under a parent location.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// The location as a JSON Pointer (`""` at the root).
    pub fn pointer(&self) -> String {
        // Sized first (leaf to root), then written root first into one string: no string
        // per segment, no list of segments; a key is escaped only when it holds `~` or `/`.
        let mut bytes = 0;
        let mut current = self;
        while let Path::Key(parent, _) | Path::Index(parent, _) = current {
            bytes += match current {
                Path::Key(_, key) => key.len() + 1,
                // `/` and at most 20 digits.
                _ => 21,
            };
            current = parent;
        }
        let mut pointer = String::with_capacity(bytes);
        self.write_into(&mut pointer);
        pointer
    }

    /// Append the location's segments to `pointer`, root first (as deep as the value, which
    /// the walk's depth limit bounds).
    fn write_into(&self, pointer: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write_into(pointer);
                pointer.push('/');
                pointer.push_str(&crate::pointer::escape_token(key));
            }
            Path::Index(parent, index) => {
                parent.write_into(pointer);
                pointer.push('/');
                push_decimal(pointer, *index);
            }
        }
    }

    pub fn is_root(&self) -> bool {
        matches!(self, Path::Root)
    }

    /// Number of segments: how deep the value is.
    pub fn len(&self) -> usize {
        let mut n = 0;
        let mut current = self;
        while let Path::Key(parent, _) | Path::Index(parent, _) = current {
            n += 1;
            current = parent;
        }
        n
    }

    /// The top-level property the value is under (itself, when it is one); `None` at the
    /// root and under a top-level index. Per-field options are set on top-level properties
    /// and cover what is below them.
    pub fn top_key(&self) -> Option<&str> {
        let mut current = self;
        let mut top = None;
        while let Path::Key(parent, _) | Path::Index(parent, _) = current {
            top = Some(current);
            current = parent;
        }
        match top {
            Some(Path::Key(_, key)) => Some(key),
            _ => None,
        }
    }
}

/// `n` in decimal digits, without going through `fmt`.
pub(crate) fn push_decimal(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[start..].iter().map(|&d| char::from(d)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_keys_and_find_the_top_key() {
        let root = Path::Root;
        assert_eq!(root.pointer(), "");
        assert_eq!(root.top_key(), None);
        assert_eq!(root.len(), 0);
        let top = Path::Key(&root, "a/b");
        let index = Path::Index(&top, 12);
        let leaf = Path::Key(&index, "~x");
        assert_eq!(leaf.pointer(), "/a~1b/12/~0x");
        assert_eq!(leaf.top_key(), Some("a/b"));
        assert_eq!(leaf.len(), 3);
        let listed = Path::Index(&root, 0);
        assert_eq!(Path::Key(&listed, "k").top_key(), None);
        assert_eq!(Path::Index(&root, usize::MAX).pointer(), format!("/{}", usize::MAX));
    }

    /// Deep paths, keys escaped and indices beside them, render segment by segment.
    #[test]
    fn deep_pointers_render_segment_by_segment() {
        fn nested(depth: usize, at: &Path<'_>, want: &mut String, check: &mut dyn FnMut(&Path<'_>, &str)) {
            check(at, want);
            if depth == 0 {
                return;
            }
            let len = want.len();
            if depth.is_multiple_of(2) {
                want.push_str(&format!("/{depth}"));
                nested(depth - 1, &Path::Index(at, depth), want, check);
            } else {
                want.push_str("/k~1~0");
                nested(depth - 1, &Path::Key(at, "k/~"), want, check);
            }
            want.truncate(len);
        }
        let mut checked = 0;
        nested(40, &Path::Root, &mut String::new(), &mut |at, want| {
            assert_eq!(at.pointer(), want);
            checked += 1;
        });
        assert_eq!(checked, 41);
    }
}
