//! Host names (RFC 1123 and IDNA2008, in `idna`), IP addresses (the standard library's parsers, which take the
//! dotted quad without leading zeros and RFC 4291's text form without zones) and email
//! addresses (RFC 5321's mailbox: a dot-atom or quoted local part, then a host name or an
//! address literal).

use std::net::{Ipv4Addr, Ipv6Addr};

pub(super) fn is_ipv4(text: &str) -> bool {
    text.parse::<Ipv4Addr>().is_ok()
}

pub(super) fn is_ipv6(text: &str) -> bool {
    text.parse::<Ipv6Addr>().is_ok()
}

pub(super) use super::idna::{is_hostname, is_ldh_hostname};

pub(super) fn is_email(text: &str, international: bool) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    local_part(local, international) && domain_part(domain, international)
}

fn local_part(local: &str, international: bool) -> bool {
    if local.is_empty() || local.len() > 64 {
        return false;
    }
    if let Some(quoted) = local.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.next().is_none() => return false,
                '\\' => {}
                '"' => return false,
                c if c.is_ascii_control() => return false,
                c if !c.is_ascii() && !international => return false,
                _ => {}
            }
        }
        return true;
    }
    let atom = |c: char| {
        c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (international && !c.is_ascii())
    };
    local.split('.').all(|part| !part.is_empty() && part.chars().all(atom))
}

fn domain_part(domain: &str, international: bool) -> bool {
    if let Some(literal) = domain.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
        return match literal.strip_prefix("IPv6:") {
            Some(v6) => is_ipv6(v6),
            None => is_ipv4(literal),
        };
    }
    is_hostname(domain, international)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_addresses_and_mailboxes() {
        assert!(is_ipv4("192.168.0.1") && !is_ipv4("999.1.1.1") && !is_ipv4("087.10.0.1"));
        assert!(is_ipv6("::1") && is_ipv6("2001:db8::1") && !is_ipv6("12345::") && !is_ipv6("fe80::1%eth0"));
        assert!(is_hostname("www.example.com", false) && !is_hostname("-a.com", false));
        assert!(!is_hostname(&"a".repeat(64), false) && !is_hostname("a_b.com", false));
        assert!(is_hostname("実例.テスト", true) && !is_hostname("実例.テスト", false));
        assert!(is_email("joe.bloggs@example.com", false) && is_email("\"joe bloggs\"@example.com", false));
        assert!(is_email("joe@[127.0.0.1]", false) && is_email("joe@[IPv6:::1]", false));
        assert!(!is_email("2962", false) && !is_email(".a@example.com", false));
        assert!(!is_email("a..b@example.com", false) && !is_email("a@-example.com", false));
        assert!(is_email("실례@실례.테스트", true) && !is_email("실례@실례.테스트", false));
    }
}
