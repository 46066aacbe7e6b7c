//! Who is linked to whom by games, and who scored against whom.
//!
//! Bradley-Terry ratings only compare players joined by a chain of games,
//! and a maximum-likelihood rating is finite only if no group of players
//! scored every point against the rest (Ford's condition; a draw scores
//! both ways). Both are graph questions answered before fitting, so that the
//! caller gets a reason instead of ratings running off to infinity.

/// Connected components of an undirected graph given by `linked(i, j)`,
/// each sorted, in order of their smallest player.
pub(crate) fn components(n: usize, linked: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut group = vec![usize::MAX; n];
    let mut groups = Vec::new();
    for start in 0..n {
        if group[start] != usize::MAX {
            continue;
        }
        let id = groups.len();
        let mut members = vec![start];
        group[start] = id;
        let mut next = 0;
        while next < members.len() {
            let i = members[next];
            next += 1;
            for (j, g) in group.iter_mut().enumerate() {
                if *g == usize::MAX && (linked(i, j) || linked(j, i)) {
                    *g = id;
                    members.push(j);
                }
            }
        }
        members.sort_unstable();
        groups.push(members);
    }
    groups
}

/// Strongly connected components of the directed graph `edge(i, j)`
/// (Kosaraju), each sorted, in topological order: no edge leads from a
/// later component into an earlier one. When an edge means "scored
/// against", the first component is a group nobody else scored against.
pub(crate) fn strong_components(n: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    // First pass: finishing order on the graph.
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        // Iterative DFS: (node, next neighbour to try).
        let mut stack = vec![(start, 0usize)];
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if *k < n {
                let w = *k;
                *k += 1;
                if !seen[w] && edge(v, w) {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
                stack.pop();
            }
        }
    }
    // Second pass on the reversed graph, in decreasing finishing time.
    let mut component = vec![usize::MAX; n];
    let mut result: Vec<Vec<usize>> = Vec::new();
    for &start in order.iter().rev() {
        if component[start] != usize::MAX {
            continue;
        }
        let id = result.len();
        component[start] = id;
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            let v = members[next];
            next += 1;
            for (u, c) in component.iter_mut().enumerate() {
                if *c == usize::MAX && edge(u, v) {
                    *c = id;
                    members.push(u);
                }
            }
        }
        members.sort_unstable();
        result.push(members);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_undirected_components() {
        let edges = [(0, 1), (3, 2)];
        let c = components(5, |i, j| edges.contains(&(i, j)));
        assert_eq!(c, vec![vec![0, 1], vec![2, 3], vec![4]]);
    }

    #[test]
    fn finds_strong_components_strongest_first() {
        // 0 <-> 1 beat each other; both beat 2; 2 <-> 3.
        let edges = [(0, 1), (1, 0), (0, 2), (1, 2), (2, 3), (3, 2)];
        let c = strong_components(4, |i, j| edges.contains(&(i, j)));
        assert_eq!(c, vec![vec![0, 1], vec![2, 3]]);
        let cycle = [(0, 1), (1, 2), (2, 0)];
        assert_eq!(
            strong_components(3, |i, j| cycle.contains(&(i, j))),
            vec![vec![0, 1, 2]]
        );
    }
}
