import type { DareStatus, DareView } from '#app/modules/dares/service.server'

/**
 * The overlay's alerts (docs/product.md §5.7), found by comparing what it
 * showed with what it shows now: a dare it did not know, a pot that grew,
 * a vote that ended. Comparing views rather than reading updates keeps the
 * update format as it is (ADR 045) and works the same whether a change came
 * by an update or by a read after a gap.
 *
 * A boost names no booster: the shared topic never carries who boosted
 * (docs/product.md §11.7), so the alert shows the dare and the coins added.
 */
export type OverlayAlert =
	| { id: string; kind: 'dare'; dareId: string; description: string; pot: number }
	| { id: string; kind: 'boost'; dareId: string; description: string; amount: number; pot: number }
	| { id: string; kind: 'completed' | 'failed'; dareId: string; description: string; pot: number; yes: number; no: number }

/** An alert before it is queued (the queue numbers them). */
export type FoundAlert = OverlayAlert extends infer A ? (A extends unknown ? Omit<A, 'id'> : never) : never

/** What the overlay knew of a dare. */
export interface DareMark {
	status: DareStatus
	pot: number
}

export function marksOf(dares: readonly DareView[]): Map<string, DareMark> {
	return new Map(dares.map((d) => [d.id, { status: d.status, pot: d.pot }]))
}

const RUNNING: ReadonlySet<DareStatus> = new Set(['open', 'accepted', 'voting'])

/** The alerts between what was shown (`before`) and `dares`, in the dares' order. */
export function alertsBetween(before: ReadonlyMap<string, DareMark>, dares: readonly DareView[]): FoundAlert[] {
	const found: FoundAlert[] = []
	for (const dare of dares) {
		const was = before.get(dare.id)
		const { id: dareId, description, pot } = dare
		if (!was) {
			// A dare the overlay never showed: new, or approved after review. A settled one (read after a gap) is history.
			if (RUNNING.has(dare.status)) found.push({ kind: 'dare', dareId, description, pot })
			continue
		}
		if ((dare.status === 'completed' || dare.status === 'failed') && was.status !== dare.status) {
			found.push({ kind: dare.status, dareId, description, pot, yes: dare.yesVotes, no: dare.noVotes })
		} else if (RUNNING.has(dare.status) && pot > was.pot) {
			found.push({ kind: 'boost', dareId, description, amount: pot - was.pot, pot })
		}
	}
	return found
}

/** The most alerts waiting (the one on screen included): a burst never keeps the overlay busy for minutes. */
export const ALERT_QUEUE_MAX = 6

/**
 * The queue with `incoming` added: a boost joins a waiting (or showing)
 * alert of the same dare (a new dare takes the higher pot, a boost adds up:
 * "+100" becomes "+300"); past the limit the oldest waiting boosts go first,
 * then the oldest of the rest. The first alert is the one on screen and is
 * never dropped.
 */
export function enqueue(queue: readonly OverlayAlert[], incoming: readonly OverlayAlert[]): OverlayAlert[] {
	const next = [...queue]
	for (const alert of incoming) {
		if (alert.kind === 'boost') {
			const same = next.findIndex((a) => a.dareId === alert.dareId && (a.kind === 'boost' || a.kind === 'dare'))
			if (same >= 0) {
				const into = next[same]!
				next[same] = into.kind === 'boost' ? { ...into, amount: into.amount + alert.amount, pot: alert.pot } : { ...into, pot: alert.pot }
				continue
			}
		}
		next.push(alert)
	}
	while (next.length > ALERT_QUEUE_MAX) {
		const boost = next.findIndex((a, i) => i > 0 && a.kind === 'boost')
		next.splice(boost > 0 ? boost : 1, 1)
	}
	return next
}

/** How long an alert stays; shorter while more wait. */
export const ALERT_MS = 6000
export const ALERT_BUSY_MS = 3500

export function alertDuration(queueLength: number): number {
	return queueLength > 2 ? ALERT_BUSY_MS : ALERT_MS
}
