//! The one sort of the core. Each `sort`/`sort_by_key` call site instantiates the standard library's
//! sort for its element type and comparator (driftsort for a stable sort, ipnsort for an unstable one:
//! 4-8 KB of wasm each); the core sorts positions with this one function instead
//! (docs/performance.md, "Where the wasm's bytes go").

use std::cmp::Ordering;

/// Sorts `positions` by `cmp`, stably (ties keep their order): a bottom-up merge sort, a few
/// hundred bytes of wasm where the standard library's sort of `usize` by a comparator is 8 KB
/// (its sorting networks inline the comparator).
#[inline(never)]
pub(crate) fn sort_positions(positions: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    let n = positions.len();
    let mut from = positions.to_vec();
    let mut to = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // The right one first only when it is strictly less: equal ones keep their order.
                if cmp(from[j], from[i]) == Ordering::Less {
                    to[k] = from[j];
                    j += 1;
                } else {
                    to[k] = from[i];
                    i += 1;
                }
                k += 1;
            }
            to[k..k + (mid - i)].copy_from_slice(&from[i..mid]);
            k += mid - i;
            to[k..k + (end - j)].copy_from_slice(&from[j..end]);
            start = end;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    positions.copy_from_slice(&from);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_breaks_ties_as_told() {
        let mut v = vec![3, 1, 2, 0, 5, 4];
        sort_positions(&mut v, &|a, b| a.cmp(&b));
        assert_eq!(v, [0, 1, 2, 3, 4, 5]);
        // Stable by a key when ties are broken by position: evens first, each group ascending.
        let mut order: Vec<usize> = (0..8).collect();
        sort_positions(&mut order, &|a, b| (a % 2).cmp(&(b % 2)).then(a.cmp(&b)));
        assert_eq!(order, [0, 2, 4, 6, 1, 3, 5, 7]);
        // Stable without a tie-break, against the standard library's stable sort, lengths 0 to 70.
        for n in 0..70usize {
            let keys: Vec<usize> = (0..n).map(|i| (i * 7919 + n) % 5).collect();
            let mut ours: Vec<usize> = (0..n).collect();
            sort_positions(&mut ours, &|a, b| keys[a].cmp(&keys[b]));
            let mut std: Vec<usize> = (0..n).collect();
            std.sort_by_key(|&i| keys[i]);
            assert_eq!(ours, std, "n = {n}");
        }
    }
}
