//! RFC 3339's `date-time`, `full-date` and `full-time` (`T` and `Z` in either case, leap
//! seconds only at 23:59:60 UTC), and the durations of its Appendix A (ISO 8601).

/// `n` ASCII digits at the start of `text`, as a number, and the rest.
fn digits(text: &[u8], n: usize) -> Option<(u32, &[u8])> {
    let (head, rest) = (text.get(..n)?, &text[n..]);
    let mut value = 0u32;
    for &byte in head {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u32::from(byte - b'0');
    }
    Some((value, rest))
}

fn expect(text: &[u8], byte: u8) -> Option<&[u8]> {
    text.strip_prefix(&[byte])
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn date(text: &[u8]) -> Option<&[u8]> {
    let (year, rest) = digits(text, 4)?;
    let (month, rest) = digits(expect(rest, b'-')?, 2)?;
    let (day, rest) = digits(expect(rest, b'-')?, 2)?;
    ((1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)).then_some(rest)
}

/// `HH:MM:SS[.frac]` then `Z` or `±HH:MM`; a leap second only where the time is 23:59 UTC.
fn time(text: &[u8]) -> Option<&[u8]> {
    let (hour, rest) = digits(text, 2)?;
    let (minute, rest) = digits(expect(rest, b':')?, 2)?;
    let (second, mut rest) = digits(expect(rest, b':')?, 2)?;
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    if let Some(fraction) = expect(rest, b'.') {
        let count = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
        if count == 0 {
            return None;
        }
        rest = &fraction[count..];
    }
    let (utc_minutes, rest) = match rest.first()? {
        b'Z' | b'z' => (i64::from(hour * 60 + minute), &rest[1..]),
        sign @ (b'+' | b'-') => {
            let (offset_hour, after) = digits(&rest[1..], 2)?;
            let (offset_minute, after) = digits(expect(after, b':')?, 2)?;
            if offset_hour > 23 || offset_minute > 59 {
                return None;
            }
            let offset = i64::from(offset_hour * 60 + offset_minute);
            let local = i64::from(hour * 60 + minute);
            ((if *sign == b'+' { local - offset } else { local + offset }).rem_euclid(24 * 60), after)
        }
        _ => return None,
    };
    (second < 60 || utc_minutes == 23 * 60 + 59).then_some(rest)
}

pub(super) fn is_date(text: &str) -> bool {
    date(text.as_bytes()).is_some_and(<[u8]>::is_empty)
}

pub(super) fn is_time(text: &str) -> bool {
    time(text.as_bytes()).is_some_and(<[u8]>::is_empty)
}

pub(super) fn is_date_time(text: &str) -> bool {
    let Some(rest) = date(text.as_bytes()) else { return false };
    match rest.first() {
        Some(b'T' | b't') => time(&rest[1..]).is_some_and(<[u8]>::is_empty),
        _ => false,
    }
}

/// A date and a time with a space between them, written with `T` (and a trailing `z` as
/// `Z`): the caller checks the result is a date-time.
pub(super) fn date_time_respelled(text: &str) -> Option<String> {
    let (day, time) = (text.get(..10)?, text.get(10..)?.strip_prefix(' ')?);
    let mut written = format!("{day}T{time}");
    if written.ends_with('z') {
        written.pop();
        written.push('Z');
    }
    Some(written)
}

/// `P` then `nW`, or consecutive date units of `Y M D`, then optionally `T` and consecutive
/// time units of `H M S`, at least one unit on each side that is written; ASCII digits only.
pub(super) fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    if let Some(weeks) = rest.strip_suffix('W') {
        return !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    let (date_part, time_part) = match rest.split_once('T') {
        Some((date_part, time_part)) => (date_part, Some(time_part)),
        None => (rest, None),
    };
    let units = |part: &str, order: &[u8]| -> Option<usize> {
        let (mut count, mut next) = (0, 0);
        let mut bytes = part.as_bytes();
        while !bytes.is_empty() {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let unit = *bytes.get(digits)?;
            // The first unit may be any; each next one the unit right after it (`P1Y2D` skips
            // the months: not a duration).
            let at = order.iter().position(|&u| u == unit)?;
            if digits == 0 || at < next || (count > 0 && at != next) {
                return None;
            }
            next = at + 1;
            count += 1;
            bytes = &bytes[digits + 1..];
        }
        Some(count)
    };
    let Some(date_units) = units(date_part, b"YMD") else { return false };
    match time_part {
        Some(time_part) => units(time_part, b"HMS").is_some_and(|n| n > 0),
        None => date_units > 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_follow_rfc_3339() {
        assert!(is_date_time("1963-06-19T08:30:06.283185Z"));
        assert!(is_date_time("1963-06-19t08:30:06z"));
        assert!(is_date_time("1998-12-31T23:59:60Z"));
        assert!(is_date_time("1998-12-31T15:59:60.123-08:00"));
        assert!(!is_date_time("1998-12-31T22:59:60Z"));
        assert!(!is_date_time("1963-06-19 08:30:06Z"));
        assert!(!is_date_time("2026-13-45T99:00:00Z"));
        assert!(is_date("2020-02-29") && !is_date("2021-02-29") && !is_date("1900-02-29"));
        assert!(!is_date("2020-1-01") && !is_date("2020-01-01x"));
        assert!(is_time("08:30:06+01:00") && !is_time("08:30:06") && !is_time("08:30:06+24:00"));
    }

    #[test]
    fn durations_take_their_units_in_order() {
        for good in ["P4DT12H30M5S", "P1Y", "PT1M", "P2W", "P1Y2M3D", "PT36H"] {
            assert!(is_duration(good), "{good}");
        }
        for bad in
            ["P", "PT", "P1D2H", "P2S", "P1Y2W", "PT1D", "P1M2Y", "1D", "P1.5D", "P1DT", "P1Y2D", "PT1H2S"]
        {
            assert!(!is_duration(bad), "{bad}");
        }
    }
}
