/**
 * A pure function's answers, kept by key: at most `limit`, the one asked
 * least recently dropped first. For answers that cost more than a Map
 * lookup and depend only on their argument (a path's route, a share card's
 * image).
 */
export function keptAnswers<A, V>(limit: number, keyOf: (arg: A) => string, compute: (arg: A) => V): (arg: A) => V {
	const kept = new Map<string, V>()
	return (arg) => {
		const key = keyOf(arg)
		if (kept.has(key)) {
			const known = kept.get(key)!
			// Now the most recent: a Map iterates in insertion order.
			kept.delete(key)
			kept.set(key, known)
			return known
		}
		const answer = compute(arg)
		if (kept.size >= limit) kept.delete(kept.keys().next().value!)
		kept.set(key, answer)
		return answer
	}
}
